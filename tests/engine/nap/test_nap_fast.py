"""The fast Nap simulator plays exactly the engine's laws: every choice it makes is replayed through the
checked NapHand, which must offer the same legal actions at each step and settle the same way."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.actions import Action
from loo.core.cards import Card
from loo.games.nap.fast import card_of, deal_ints, play_random_nap
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import KittyMode, MiseryTrumps, NapRules


def cards(ints: object) -> list[Card]:
    return [Card.parse(card_of(i)) for i in ints]  # type: ignore[attr-defined]


@settings(max_examples=400, deadline=None)
@given(
    seats=st.integers(2, 10),
    seed=st.integers(0, 2**32),
    pool=st.sampled_from([0, 4, 11]),
    options=st.fixed_dictionaries(
        {
            "preset_name": st.sampled_from(["hoffmann", "shilling"]),
            "unit": st.sampled_from([1, 2]),
            "min_call": st.integers(1, 5),
            "dealer_forced_one": st.booleans(),
            "wellington": st.booleans(),
            "misery": st.booleans(),
            "misery_trumps": st.sampled_from(list(MiseryTrumps)),
            "kitty_mode": st.sampled_from(list(KittyMode)),
            "failed_nap_doubles_pool": st.booleans(),
        }
    ),
)
def test_fast_play_is_legal_play(seats: int, seed: int, pool: int, options: dict[str, object]) -> None:
    rules = NapRules(**options)  # type: ignore[arg-type]
    dealer = seed % seats
    fast = play_random_nap(rules, random.Random(seed), seats=seats, dealer=dealer, pool=pool, record=True)
    hand = NapHand(rules, hands=[cards(h) for h in fast.dealt], dealer=dealer, pool=pool)
    for seat, verb, choice, legal in fast.steps:
        assert hand.to_act == seat
        engine_legal = hand.legal_actions()
        if verb == "call":
            assert [a.value for a in engine_legal] == list(legal)
            action = Action(seat, "call", choice)
        else:
            assert {a.value for a in engine_legal} == set(cards(legal))
            action = Action.play(seat, card_of(choice))  # type: ignore[arg-type]
        hand.push(action)
    s = hand.settlement
    assert hand.is_over and s is not None
    assert (s.reason, s.caller if s.caller is not None else -1, s.call, s.made, s.tricks_won, s.net(), s.next_pool) == (
        fast.reason, fast.caller, fast.call, fast.made, fast.tricks_won, fast.settlement, fast.next_pool
    )  # fmt: skip


def test_the_fast_deal_gives_five_cards_each_from_the_eldest() -> None:
    hands = deal_ints(random.Random(1), 4, 3)
    assert [len(h) for h in hands] == [5, 5, 5, 5] and len({c for h in hands for c in h}) == 20


def test_the_fast_path_leaves_extra_cards_to_the_engine() -> None:
    for rules in (NapRules(peep=True), NapRules(sir_garnet=True), NapRules(purchase=True)):
        with pytest.raises(ValueError, match="extra cards"):
            play_random_nap(rules, random.Random(1), seats=4, dealer=3)


def test_random_play_agrees_in_distribution_with_the_engine() -> None:
    rules = NapRules(misery=True, wellington=True)
    rng = random.Random(7)
    fast = [play_random_nap(rules, rng, seats=4, dealer=i % 4).settlement[i % 4] for i in range(4000)]
    slow = []
    for i in range(4000):
        hand = NapHand.deal(rules, rng, seats=4, dealer=i % 4)
        while not hand.is_over:
            hand.push_unchecked(rng.choice(hand.legal_actions()))
        assert hand.settlement is not None
        slow.append(hand.settlement.net()[i % 4])
    # The dealer's mean net over 4000 random hands, in the fast path and in the engine, within sampling error.
    assert abs(sum(fast) / 4000 - sum(slow) / 4000) < 1.0
