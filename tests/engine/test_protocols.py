"""Every game meets the core's protocols (loo.core.protocols): its hand, view, settlement, game of many
hands and bots. The annotated assignments are what a type checker proves (``mypy --strict`` on this
file); the ``isinstance`` checks prove the same members are there when the code runs.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from loo.core.actions import VERBS, Action, Verb
from loo.core.bots import RandomBot
from loo.core.protocols import (
    Bot,
    CallingView,
    CallSettlement,
    ChipSettlement,
    DeclaringView,
    ExtraCardsHand,
    FlushSettlement,
    Hand,
    HandResult,
    MissesHand,
    MissesView,
    MissHand,
    MissView,
    PointsGame,
    PointsSettlement,
    ScoringBot,
    Settlement,
    TableGame,
    TurnupView,
    View,
)
from loo.games.dominoes.bots import DominoSamplingBot, DominoThumbBot
from loo.games.dominoes.game import DominoGame
from loo.games.dominoes.hand import DominoHand
from loo.games.dominoes.rules import DominoRules
from loo.games.dominoes.state import DominoView
from loo.games.loo.bots import SamplingBot, ThumbBot
from loo.games.loo.game import LooGame
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import Rules
from loo.games.loo.state import SeatView
from loo.games.nap.bots import NapSamplingBot, NapThumbBot
from loo.games.nap.game import NapGame
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import NapRules
from loo.games.nap.state import NapView
from loo.kits import GAMES, kit
from tests.helpers.playing import finish_hand, play_out

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def test_loo_meets_the_protocols() -> None:
    loo: LooHand = LooHand.deal(Rules.preset("pam"), random.Random(4), seats=4, dealer=3, pool=3)
    hand: Hand = loo
    parts: MissHand = loo
    view: View = loo.view(0)
    seat_view: SeatView = loo.view(0)
    turnup: TurnupView = seat_view
    declaring: DeclaringView = seat_view
    miss: MissView = seat_view
    game: TableGame = LooGame(Rules.preset("peel"), NAMES, random.Random(1))
    bots: list[Bot[SeatView]] = [RandomBot(), ThumbBot(), SamplingBot(samples=2)]
    scoring: ScoringBot[SeatView] = SamplingBot(samples=2)
    for obj, kind in [(hand, Hand), (parts, MissHand), (view, View), (turnup, TurnupView), (declaring, DeclaringView)]:
        assert isinstance(obj, kind), kind
    assert isinstance(miss, MissView) and isinstance(game, TableGame) and isinstance(scoring, ScoringBot)
    assert not isinstance(view, CallingView) and not isinstance(hand, ExtraCardsHand)
    assert all(isinstance(b, Bot) for b in bots)
    settlement = play_out(hand, random.Random(1), RandomBot()).settlement
    assert settlement is not None and loo.settlement is not None
    paid: FlushSettlement = loo.settlement
    assert isinstance(settlement, Settlement) and isinstance(paid, FlushSettlement)
    assert not isinstance(settlement, CallSettlement)


def test_nap_meets_the_protocols() -> None:
    nap: NapHand = NapHand.deal(NapRules.preset("hoffmann"), random.Random(4), seats=4, dealer=3, pool=0)
    hand: Hand = nap
    parts: ExtraCardsHand = nap
    nap_view: NapView = nap.view(0)
    view: View = nap_view
    calling: CallingView = nap_view
    game: TableGame = NapGame(NapRules.preset("hoffmann"), NAMES, random.Random(1))
    bots: list[Bot[NapView]] = [RandomBot(), NapThumbBot(), NapSamplingBot(samples=2)]
    scoring: ScoringBot[NapView] = NapSamplingBot(samples=2)
    for obj, kind in [(hand, Hand), (parts, ExtraCardsHand), (view, View), (calling, CallingView), (game, TableGame)]:
        assert isinstance(obj, kind), kind
    assert not isinstance(view, DeclaringView) and not isinstance(hand, MissHand)
    assert all(isinstance(b, Bot) for b in bots) and isinstance(scoring, ScoringBot)
    play_out(hand, random.Random(2), RandomBot())
    assert nap.settlement is not None
    called: CallSettlement = nap.settlement
    assert isinstance(called, Settlement) and isinstance(called, CallSettlement)
    assert not isinstance(called, ChipSettlement)


def test_dominoes_meet_the_protocols() -> None:
    rules = DominoRules.preset("celko")
    dom: DominoHand = DominoHand.deal(rules, random.Random(4), seats=4, dealer=3, pool=5)
    hand: Hand = dom
    parts: MissesHand = dom
    domino_view: DominoView = dom.view(0)
    view: View = domino_view
    turnup: TurnupView = domino_view
    declaring: DeclaringView = domino_view
    misses: MissesView = domino_view
    dominoes = DominoGame(rules, NAMES, random.Random(1))
    game: TableGame = dominoes
    points: PointsGame = dominoes
    bots: list[Bot[DominoView]] = [RandomBot(), DominoThumbBot(), DominoSamplingBot(samples=2)]
    scoring: ScoringBot[DominoView] = DominoSamplingBot(samples=2)
    for obj, kind in [(hand, Hand), (parts, MissesHand), (view, View), (turnup, TurnupView), (misses, MissesView)]:
        assert isinstance(obj, kind), kind
    assert isinstance(declaring, DeclaringView) and isinstance(points, PointsGame) and isinstance(game, TableGame)
    assert not isinstance(view, CallingView) and not isinstance(view, MissView)
    assert all(isinstance(b, Bot) for b in bots) and isinstance(scoring, ScoringBot)
    play_out(hand, random.Random(3), RandomBot())
    assert dom.settlement is not None
    scored: PointsSettlement = dom.settlement
    assert isinstance(scored, Settlement) and isinstance(scored, PointsSettlement)


@pytest.mark.parametrize("game", GAMES)
def test_every_kit_gives_protocol_parts(game: str) -> None:
    """What the widgets reach a game through: its kit's rules, deal, bots and game of many hands."""
    parts = kit(game)
    rules = parts.read_rules(game, None)
    assert rules.game == game
    hand: Hand = parts.deal(rules, random.Random(7), 4, 3, parts.pool(rules, 4), names=NAMES)
    assert isinstance(hand, Hand) and isinstance(hand.view(0), View) and isinstance(hand.clone(), Hand)
    for name in parts.bot_names:
        bot: Bot[Any] = parts.make_bot(name)
        assert isinstance(bot, Bot) and bot.name == name
    table: TableGame = parts.new_game(rules, NAMES, random.Random(2), 0)
    table.next_hand()
    assert table.hand is not None
    result: HandResult = finish_hand(table, random.Random(5), RandomBot())
    assert isinstance(result, HandResult) and isinstance(result.settlement, Settlement)


def test_verbs_are_their_record_words() -> None:
    action = Action.from_record({"seat": 1, "take-turnup": "AS"})
    assert action.verb == "take-turnup" and action.verb is Verb.TAKE_TURNUP
    assert Action(1, "take-turnup", action.value) == action
    assert action.to_record() == {"seat": 1, "take-turnup": "AS"}
    assert [type(k) for k in action.to_record()] == [str, str]  # the record's keys are plain words
    assert Verb.CLAIM not in VERBS and Verb.PENALTY not in VERBS  # a table's bookkeeping, never in a record
    with pytest.raises(ValueError, match="unknown verb 'fly'"):
        Action(0, "fly", None)
