"""The fast Domino Loo simulator plays exactly the engine's laws: every choice it makes is replayed
through the checked :class:`DominoHand`, which must offer the same legal actions at each step and
settle the same way."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.actions import Action
from loo.core.tiles import Tile
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.dominoes import DominoHand, DominoLoneOpponentRule, DominoRules, DominoScoring, play_random_domino_hand
from loo.games.dominoes.fast import tile_of


def tile(i: object) -> Tile:
    assert isinstance(i, int)
    return Tile.parse(tile_of(i))


def action(seat: int, choice: object) -> Action:
    assert isinstance(choice, tuple)
    verb, value, suit = choice
    if verb in ("play", "take-turnup"):
        value = tile(value)
    return Action(seat, verb, value, suit=None if suit == -1 else suit)


@settings(max_examples=400, deadline=None)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    pool=st.sampled_from([0, 25, 27, 55, 115]),
    options=st.fixed_dictionaries(
        {
            "domino_scoring": st.sampled_from(list(DominoScoring)),
            "domino_loo_cap": st.sampled_from([0, 5, 10]),
            "first_lead_rule": st.sampled_from(list(FirstLeadRule)),
            "winner_must_lead_trump": st.sampled_from(list(WinnerLeadsTrump)),
            "void_rule": st.sampled_from(list(VoidRule)),
            "lone_opponent_rule": st.sampled_from(list(DominoLoneOpponentRule)),
            "dealer_takes_turnup": st.booleans(),
        }
    ),
    fixed=st.booleans(),
)
def test_fast_play_is_legal_play(seats: int, seed: int, pool: int, options: dict[str, object], fixed: bool) -> None:
    rules = dataclasses.replace(DominoRules(), **options)  # type: ignore[arg-type]
    rules = dataclasses.replace(rules, domino_loo_fixed=fixed and rules.domino_loo_cap > 0)
    dealer = seed % seats
    fast = play_random_domino_hand(rules, random.Random(seed), seats=seats, dealer=dealer, pool=pool, record=True)
    hand = DominoHand(rules, hands=[[tile(i) for i in h] for h in fast.dealt], turnup=tile(fast.turnup),
                      stock=[tile(i) for i in fast.stock], dealer=dealer, pool=pool)  # fmt: skip
    for seat, _kind, choice, legal in fast.steps:
        assert hand.to_act == seat
        assert set(hand.legal_actions()) == {action(seat, c) for c in legal}
        assert len(hand.legal_actions()) == len(legal)  # the same list, so the same uniform choice
        hand.push(action(seat, choice))
    s = hand.settlement
    assert s is not None
    assert (s.reason, s.tricks_won, s.payouts, s.loos, s.next_pool, s.points) == (
        fast.reason, fast.tricks_won, fast.payouts, fast.loos, fast.next_pool, fast.points
    )  # fmt: skip
    assert tuple(hand.declared(p) or "" for p in range(seats)) == fast.declared


def test_the_fast_simulator_deals_every_tile_once_and_plays_domino_loo_only() -> None:
    result = play_random_domino_hand(DominoRules(), random.Random(2), seats=4, dealer=0, pool=25, record=True)
    dealt = [i for h in result.dealt for i in h] + [result.turnup, *result.stock]
    assert sorted(dealt) == list(range(28))
    with pytest.raises(ValueError, match="Domino Loo only"):
        play_random_domino_hand(DominoRules.preset("rounce"), random.Random(2), seats=4, dealer=0, pool=25)
    with pytest.raises(ValueError, match="DL-EQP-02"):
        play_random_domino_hand(DominoRules(), random.Random(2), seats=5, dealer=0, pool=25)


def test_the_fast_simulator_and_the_engine_agree_in_distribution() -> None:
    """Same laws, same uniform policy: the share of hands settled without play and the mean tricks the
    dealer takes match the engine's within sampling error."""
    rules = DominoRules()
    n = 4000
    rng = random.Random(7)
    fast = [play_random_domino_hand(rules, rng, seats=4, dealer=3, pool=25) for _ in range(n)]
    slow = []
    rng = random.Random(8)
    for _ in range(n):
        hand = DominoHand.deal(rules, rng, seats=4, dealer=3, pool=25)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.push_unchecked(legal[int(rng.random() * len(legal))])
        assert hand.settlement is not None
        slow.append(hand.settlement)
    fast_unplayed = sum(r.reason != "played" for r in fast) / n
    slow_unplayed = sum(s.reason != "played" for s in slow) / n
    assert abs(fast_unplayed - slow_unplayed) < 0.03
    fast_dealer = sum(r.tricks_won[3] for r in fast) / n
    slow_dealer = sum(s.tricks_won[3] for s in slow) / n
    assert abs(fast_dealer - slow_dealer) < 0.12
