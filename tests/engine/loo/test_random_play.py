"""Random play on Loo's rule functions (loo.games.loo.simulate) plays exactly the engine's laws: every
choice it makes is replayed through the checked engine, which must offer the same legal actions at
each step and settle the same way."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.actions import Action
from loo.core.cards import Card
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import ClubLawMiss, LoneOpponentRule, LooMode, MissPosition, Rules
from loo.games.loo.simulate import card_of, play_random_hand


def cards(ints: object) -> list[Card]:
    return [Card.parse(card_of(i)) for i in ints]  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(["peel", "enquire-within", "britannica"]),
    seats=st.integers(2, 9),
    seed=st.integers(0, 2**32),
    pool_factor=st.sampled_from([1, 2, 5]),
    options=st.fixed_dictionaries(
        {
            "loo_mode": st.sampled_from(list(LooMode)),
            "first_lead_rule": st.sampled_from(list(FirstLeadRule)),
            "winner_must_lead_trump": st.sampled_from(list(WinnerLeadsTrump)),
            "void_rule": st.sampled_from(list(VoidRule)),
            "must_head": st.booleans(),
            "club_law": st.booleans(),
            "club_law_miss": st.sampled_from(list(ClubLawMiss)),
            "lone_opponent_rule": st.sampled_from(list(LoneOpponentRule)),
            "miss_holder_leads": st.booleans(),
            "miss_position": st.sampled_from(list(MissPosition)),
            "king_rule_when_ace_turned": st.booleans(),
        }
    ),
)
def test_fast_play_is_legal_play(
    preset: str, seats: int, seed: int, pool_factor: int, options: dict[str, object]
) -> None:
    rules = dataclasses.replace(Rules.preset(preset), loo_cap=7, **options)  # type: ignore[arg-type]
    dealer = seed % seats
    pool = rules.deal_price * pool_factor
    fast = play_random_hand(rules, random.Random(seed), seats=seats, dealer=dealer, pool=pool, record=True)
    hand = LooHand(rules, hands=[cards(h) for h in fast.dealt], miss=cards(fast.miss),
                   turnup=Card.parse(card_of(fast.turnup)), dealer=dealer, pool=pool)  # fmt: skip
    for seat, verb, choice, legal in fast.steps:
        assert hand.to_act == seat
        engine_legal = hand.legal_actions()
        if verb == "declare":
            mine = {("for-pool", True) if c == "for-pool" else ("declare", c) for c in legal}
            assert {(a.verb, a.value) for a in engine_legal} == mine
            action = Action(seat, "for-pool", True) if choice == "for-pool" else Action.declare(seat, str(choice))
        else:
            assert {a.value for a in engine_legal} == set(cards(legal))
            action = Action.play(seat, card_of(choice))  # type: ignore[arg-type]
        hand.push(action)
    s = hand.settlement
    assert s is not None
    assert (s.reason, s.tricks_won, s.payouts, s.loos, s.next_pool) == (
        fast.reason, fast.tricks_won, fast.payouts, fast.loos, fast.next_pool
    )  # fmt: skip


def test_simulate_with_random_bots_uses_the_fast_path_and_agrees_in_distribution(monkeypatch: object) -> None:
    import loo.games.loo.simulate
    from loo.cli import simulate
    from loo.core.bots import RandomBot

    calls = []
    real = loo.games.loo.simulate.play_random_hand

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(loo.games.loo.simulate, "play_random_hand", counting)  # type: ignore[attr-defined]
    rules = Rules.preset("peel")
    fast = simulate(rules, [RandomBot() for _ in range(4)], hands=6000, rng=random.Random(3))
    assert len(calls) == 6000
    # Same laws, same random policy: the mean loss per seat (about 0.9 chips) matches the engine's,
    # measured over the same number of hands, within sampling error.
    slow_nets = []
    rng = random.Random(4)
    for i in range(6000):
        hand = LooHand.deal(rules, rng, seats=4, dealer=i % 4, pool=3)
        while not hand.is_over:
            hand.push_unchecked(rng.choice(hand.legal_actions()))
        assert hand.settlement is not None
        slow_nets.append(sum(hand.settlement.net()) / 4)
    slow_mean = sum(slow_nets) / len(slow_nets)
    fast_mean = sum(fast["mean_net"]) / 4
    assert abs(fast_mean - slow_mean) < 0.1
