"""The rule functions that NapHand and the fast simulator both call (loo/games/nap/tricks.py, rules.py
and settle.py), checked on their own: when a call is decided, and that the money always balances."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.actions import CALLS
from loo.core.tricks import Duty
from loo.games.nap.rules import CALL_RANK, TRICKS_NEEDED, KittyMode, NapRules, call_options
from loo.games.nap.settle import settle_stakes
from loo.games.nap.tricks import call_outcome, card_power, follow_choices


@pytest.mark.law("NAP-PLAY-06", "NAP-SET-01", "NAP-MIS-01")
@pytest.mark.parametrize("call", sorted(TRICKS_NEEDED))
def test_a_call_is_decided_once_and_for_good_and_always_by_the_fifth_trick(call: str) -> None:
    misery, needed = call == "misery", TRICKS_NEEDED[call]
    for wins in itertools.product([False, True], repeat=5):
        decided = None
        for played in range(1, 6):
            mine = sum(wins[:played])
            outcome = call_outcome(misery, needed, mine, played)
            if decided is not None:
                assert outcome == decided  # a decided call stays decided
            decided = outcome
        made = not any(wins) if misery else sum(wins) >= needed
        assert decided is made


@pytest.mark.law("NAP-PLAY-02", "NAP-GEN-04")
def test_a_follower_follows_suit_if_he_can_and_is_otherwise_free() -> None:
    assert follow_choices([0, 13, 14], lambda p: p // 13 == 1) == ([13, 14], Duty.FOLLOW)
    assert follow_choices([0, 40], lambda p: p // 13 == 1) == ([0, 40], Duty.FREE)


@pytest.mark.law("NAP-PLAY-04")
def test_a_trump_beats_the_suit_led_which_beats_a_discard() -> None:
    powers = [card_power(suit, rank, led=0, trump=1) for suit, rank in [(1, 2), (0, 14), (0, 13), (2, 14)]]
    assert powers == sorted(powers, reverse=True) and powers[-1] == 0


@pytest.mark.law("NAP-CALL-04", "NAP-WEL-02")
def test_the_forced_dealer_may_not_pass_and_wellington_comes_only_over_a_nap() -> None:
    rules = NapRules(wellington=True)
    assert "pass" not in call_options(rules, 0, forced=True)
    assert "wellington" not in call_options(rules, CALL_RANK["4"], forced=False)
    assert call_options(rules, CALL_RANK["nap"], forced=False) == ("pass", "wellington")


@settings(max_examples=300, deadline=None)
@given(
    seats=st.integers(2, 10),
    data=st.data(),
    call=st.sampled_from([c for c in CALLS if c != "pass"]),
    made=st.booleans(),
    pool=st.integers(0, 30),
    kitty_mode=st.sampled_from(list(KittyMode)),
    doubles=st.booleans(),
    caller_revoked=st.booleans(),
)
def test_the_money_balances(
    seats: int,
    data: st.DataObject,
    call: str,
    made: bool,
    pool: int,
    kitty_mode: KittyMode,
    doubles: bool,
    caller_revoked: bool,
) -> None:
    rules = NapRules(kitty_mode=kitty_mode, failed_nap_doubles_pool=doubles)
    caller = data.draw(st.integers(0, seats - 1))
    paid_in = data.draw(st.lists(st.integers(0, 5), min_size=seats, max_size=seats))
    offender = data.draw(st.none() | st.sampled_from([p for p in range(seats) if p != caller]))
    wrong = data.draw(st.lists(st.integers(0, seats - 1), max_size=2, unique=True))
    stakes, paid, taken, next_pool = settle_stakes(
        rules, seats=seats, caller=caller, call=call, made=made, pool=pool, pool_paid=paid_in,
        caller_revoked=caller_revoked, offender=offender, wrong_count=wrong,
    )  # fmt: skip
    assert sum(stakes) == 0  # stakes pass between the players
    net = [s - p + t for s, p, t in zip(stakes, paid, taken, strict=True)]
    assert sum(net) == pool - next_pool  # what the players lose the pool gains, and the other way round
    assert next_pool >= 0
