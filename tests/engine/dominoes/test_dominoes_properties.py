"""Properties of the domino engine over random seeds, player counts and options (hypothesis): every hand
ends, a legal action always exists, no tile is lost or duplicated, chips are conserved, records
round-trip, refusals change nothing, and a seat's view shows nothing hidden."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.actions import Action, IllegalActionError
from loo.core.hand import Phase
from loo.core.laws import LAWS
from loo.core.rules import RecordError
from loo.core.tiles import Tile, full_set
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.dominoes import (
    BOTS,
    DominoGame,
    DominoHand,
    DominoLoneOpponentRule,
    DominoRecord,
    DominoRules,
    DominoScoring,
)
from loo.games.dominoes.record import check_chip_pool
from loo.records import check


@st.composite
def rules_strategy(draw: st.DrawFn) -> DominoRules:
    rules = DominoRules.preset(draw(st.sampled_from(["celko", "rounce"])))
    cap = draw(st.sampled_from([0, 0, 5, 7, 10]))
    return dataclasses.replace(
        rules,
        domino_scoring=draw(st.sampled_from(list(DominoScoring))),
        domino_loo_cap=cap,
        domino_loo_fixed=cap > 0 and draw(st.booleans()),
        first_lead_rule=draw(st.sampled_from(list(FirstLeadRule))),
        winner_must_lead_trump=draw(st.sampled_from(list(WinnerLeadsTrump))),
        void_rule=draw(st.sampled_from(list(VoidRule))),
        lone_opponent_rule=draw(st.sampled_from(list(DominoLoneOpponentRule))),
        dealer_takes_turnup=draw(st.booleans()),
    )


@st.composite
def hands(draw: st.DrawFn) -> tuple[DominoHand, random.Random]:
    rules = draw(rules_strategy())
    seats = draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 2**32)))
    if rules.domino_scoring is DominoScoring.CHIPS:  # a pool a hand can start with (DL-SC-01..03)
        pools = (rules.deal_price * (seats + 1), 25, 27, 115)
        pool = draw(st.sampled_from([p for p in pools if _can_start(rules, p, seats)]))
    else:
        pool = 0
    return DominoHand.deal(rules, rng, seats=seats, dealer=draw(st.integers(0, seats - 1)), pool=pool), rng


def _can_start(rules: DominoRules, pool: int, seats: int) -> bool:
    try:
        check_chip_pool(rules, pool, seats)
    except RecordError:
        return False
    return True


def tiles_everywhere(hand: DominoHand) -> Counter[Tile]:
    """Every tile's whereabouts must account for the set exactly once."""
    s = hand._s
    where: Counter[Tile] = Counter()
    for held in s.holding:
        where.update(held)
    where.update(s.dead)
    where.update(t for trick in s.tricks for _, t in trick.plays)
    where.update(t for _, t in s.current)
    where.update(hand.stock[s.stock_pos :])
    if not s.turnup_taken:
        where[hand.turnup] += 1
    return where


@settings(max_examples=200, deadline=None)
@given(hands())
def test_every_hand_ends_with_a_legal_action_always_available_and_no_tile_lost(
    case: tuple[DominoHand, random.Random],
) -> None:
    hand, rng = case
    everything = Counter(full_set())
    assert tiles_everywhere(hand) == everything
    steps = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal, "the seat to act has no legal action"
        assert all(a.seat == hand.to_act and hand.why_illegal(a) is None for a in legal)
        assert len(set(legal)) == len(legal)
        hand.push(rng.choice(legal))
        assert tiles_everywhere(hand) == everything
        if hand.phase is Phase.PLAY and not hand.current_trick:
            assert all(len(hand.holding(p)) == 5 - len(hand.tricks) for p in hand.players)
        steps += 1
        assert steps < 60
    s = hand.settlement
    assert s is not None and len(s.tricks) in (0, 5)
    assert sum(s.tricks_won) == len(s.tricks)
    if s.scoring is DominoScoring.CHIPS:
        assert 0 <= sum(s.payouts) <= hand.pool and min(s.loos) >= 0
        assert s.next_pool == hand.pool - sum(s.payouts) + sum(s.loos)
    else:
        assert s.points is not None and s.payouts == s.loos == (0,) * hand.n
        assert all(abs(p) <= 5 for p in s.points)


@settings(max_examples=100, deadline=None)
@given(hands())
def test_a_record_written_and_read_back_is_the_same_and_replays_the_same(
    case: tuple[DominoHand, random.Random],
) -> None:
    hand, rng = case
    while not hand.is_over and rng.random() < 0.96:
        hand.push(rng.choice(hand.legal_actions()))
    record = DominoRecord.of_hand(hand)
    text = json.dumps(record.to_json())
    again = DominoRecord.loads(text)
    assert again == record
    assert json.dumps(again.to_json()) == text
    replayed = again.replay()
    assert replayed.settlement == hand.settlement and replayed.to_act == hand.to_act
    assert replayed.legal_actions() == hand.legal_actions()
    status, result = check(text)
    assert status == 0 and result["complete"] == hand.is_over
    if not hand.is_over:
        assert result["legal"] == [a.to_record() for a in hand.legal_actions()]


def _tries(hand: DominoHand, rng: random.Random) -> list[Action]:
    seat = hand.to_act
    assert seat is not None
    out: list[Action] = []
    for tile in full_set():
        out += [Action(seat, "play", tile, suit=suit) for suit in (None, *range(7))]
        out.append(Action(seat, "take-turnup", tile))
    for s in range(hand.n + 1):
        out += [Action.declare(s, d) for d in ("stand", "miss", "throw")]
        out.append(Action(s, "for-pool", True))
    held = list(hand.holding(seat))
    out.append(Action(seat, "exchange", tuple(rng.sample(held, min(len(held), rng.randint(0, 3))))))
    out.append(Action(seat, "play", next(iter(held), full_set()[0]), civil=True))
    return out


def _redundant(hand: DominoHand, action: Action) -> bool:
    """A lead of a trump or a double announcing its own suit: allowed, though listed without it (DL-LEAD-05)."""
    tile = action.value
    if hand.current_trick or action.verb != "play" or action.suit is None or tile not in hand.holding(action.seat):
        return False
    implied = hand.trump if tile.has(hand.trump) else tile.high if tile.is_double else None
    if action.suit == implied:
        assert hand.why_illegal(action) == hand.why_illegal(dataclasses.replace(action, suit=None))
        return True
    return False


@settings(max_examples=80, deadline=None)
@given(hands(), st.data())
def test_every_illegal_action_is_refused_with_a_law_and_changes_nothing(
    case: tuple[DominoHand, random.Random], data: st.DataObject
) -> None:
    hand, rng = case
    while not hand.is_over:
        legal = hand.legal_actions()
        illegal = [a for a in _tries(hand, rng) if a not in legal and not _redundant(hand, a)]
        for bad in data.draw(st.lists(st.sampled_from(illegal), min_size=1, max_size=4)):
            before = (hand.to_act, hand.phase, [hand.holding(s) for s in range(hand.n)], hand.tricks,
                      hand.current_trick, hand.actions, [hand.view(s) for s in range(hand.n)])  # fmt: skip
            try:
                hand.push(bad)
            except IllegalActionError as error:
                assert error.law in LAWS, error.law
                assert error.message and error.seat == bad.seat
                assert hand.why_illegal(bad) == (error.law, error.message)
            else:
                raise AssertionError(f"{bad} was accepted")
            after = (hand.to_act, hand.phase, [hand.holding(s) for s in range(hand.n)], hand.tricks,
                     hand.current_trick, hand.actions, [hand.view(s) for s in range(hand.n)])  # fmt: skip
            assert after == before
        hand.push(rng.choice(legal))


@settings(max_examples=60, deadline=None)
@given(hands())
def test_a_seats_view_never_shows_another_seats_tiles_the_boneyard_or_the_misses(
    case: tuple[DominoHand, random.Random],
) -> None:
    hand, rng = case
    while True:
        played = {t for trick in hand.tricks for _, t in trick.plays} | {t for _, t in hand.current_trick}
        for seat in range(hand.n):
            view = hand.view(seat)
            assert set(view.hand) == set(hand.holding(seat))
            known = set(view.hand) | set(view.put_out) | played | {hand.turnup}
            shown = repr(view)
            for tile in set(full_set()) - known:
                assert repr(tile) not in shown, (seat, tile)
            assert all(a.seat == seat for a in view.legal)
        if hand.is_over:
            break
        hand.push(rng.choice(hand.legal_actions()))


@settings(max_examples=60, deadline=None)
@given(hands())
def test_take_back_restores_every_seats_view(case: tuple[DominoHand, random.Random]) -> None:
    hand, rng = case
    while not hand.is_over:
        views = [hand.view(s) for s in range(hand.n)]
        action = rng.choice(hand.legal_actions())
        hand.push(action)
        assert hand.pop() == action
        assert [hand.view(s) for s in range(hand.n)] == views
        hand.push(action)


@settings(max_examples=40, deadline=None)
@given(rules_strategy(), st.integers(2, 4), st.integers(0, 2**32), st.sampled_from(["random", "thumb"]))
def test_chips_are_conserved_over_long_games_and_points_games_end(
    rules: DominoRules, players: int, seed: int, bot_name: str
) -> None:
    rng = random.Random(seed)
    game = DominoGame(rules, ["Ann", "Ben", "Cat", "Dan"][:players], rng, first_dealer=seed % players)
    bot = BOTS[bot_name]()
    for _ in range(120):
        if game.is_over:
            break
        hand = game.next_hand()
        if rules.domino_scoring is DominoScoring.CHIPS:
            check_chip_pool(rules, hand.pool, players)  # DL-SC-01..03: what a record of the hand may hold
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            hand.push(bot.choose(hand.view(seat), rng))
        game.settle()
        assert game.conserved() and game.pool >= 0
        assert sum(game.balances().values()) + game.pool == 0
    if rules.domino_scoring is not DominoScoring.CHIPS:
        assert game.ledger == [] and game.pool == 0
