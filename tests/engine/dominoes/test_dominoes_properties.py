"""Properties of the domino engine over random seeds, player counts and options (hypothesis): every hand
ends, a legal action always exists, no tile is lost or duplicated, and chips are conserved over long
games. What every game keeps (records, refusals, take-back, views) is tests/engine/test_contract.py's."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.hand import Phase
from loo.core.rules import RecordError
from loo.core.tiles import Tile, full_set
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.dominoes import (
    BOTS,
    DominoGame,
    DominoHand,
    DominoLoneOpponentRule,
    DominoRules,
    DominoScoring,
)
from loo.games.dominoes.record import check_chip_pool
from tests.helpers.playing import finish_hand


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
        finish_hand(game, rng, bot)
        assert game.conserved() and game.pool >= 0
        assert sum(game.balances().values()) + game.pool == 0
    if rules.domino_scoring is not DominoScoring.CHIPS:
        assert game.ledger == [] and game.pool == 0
