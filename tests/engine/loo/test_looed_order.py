"""The looed seats are listed in seat order (docs/records.md), whoever deals: issue 19, item 1.

The amounts were always right; the order followed the play from the dealer's left, so a dealer who
was not the last seat put the seats after him first.
"""

from __future__ import annotations

import random

import pytest

from loo.games.loo.dealing import deal_cards
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import PRESETS
from loo.games.loo.state import DealKind
from tests.helpers.loo_helpers import make, push
from tests.helpers.playing import play_out


@pytest.mark.law("L3-LOO-01")
def test_L3_LOO_01_the_looed_are_in_seat_order_when_the_dealer_is_not_the_last_seat() -> None:
    # Four players, Ben (seat 1) deals, hearts are trumps; Cat, the eldest, holds the three top trumps.
    h = make("2S 3S 4S | 5S 6S 7S | AH KH QH | 2D 3D 4D", miss="8S 9S 10S", turnup="2H", dealer=1)
    push(h, "2 stand", "3 stand", "0 stand", "1 stand")
    rng = random.Random(1)
    play_out(h, rng)
    s = h.settlement
    assert s is not None and s.reason == "played" and s.tricks_won == (0, 0, 3, 0)
    assert s.looed == (0, 1, 3)  # not (3, 0, 1), the order of play from Cat
    assert s.loos == (6, 6, 0, 6)  # the amounts are unchanged: Peel's loo of twice the deal
    assert s.to_record()["looed"] == [0, 1, 3]


@pytest.mark.law("L5-FL-03", "L5-FL-06")
def test_L5_FL_03_06_a_flush_looes_the_other_standers_in_seat_order() -> None:
    # Five-card Loo, four players, Ben (seat 1) deals, hearts trumps; Cat, the eldest, holds a Pam flush.
    hands = "3D 4D 8C 9C KC | AH 3S 9D 8D 2C | JC 2S 5S 6S 7S | KH 10C QC 5D 6D"
    stock = "AS KS 2D 7D 4C 3C 6C 5C QS 10S"
    h = make(hands, turnup="2H", preset="pam", stock=stock, dealer=1, pool=20)
    push(h, "2 stand", "3 stand", "0 stand", "1 stand", "2 x", "3 x", "0 x", "1 x")
    s = h.settlement
    assert s is not None and s.reason == "flush" and s.flush == (2, "pam")
    assert s.looed == (0, 1, 3)  # not (3, 0, 1), the order of play from Cat
    assert s.loos == (5, 5, 0, 5) and s.payouts == (0, 0, 20, 0)


@pytest.mark.law("L3-LOO-01", "L5-FL-06")
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_L3_LOO_01_L5_FL_06_every_loo_game_lists_the_looed_in_seat_order(preset: str) -> None:
    """Random hands of every Loo preset, every dealer: ``looed`` is sorted and matches ``loos``."""
    rules = PRESETS[preset]
    rng = random.Random(preset)
    seen_unsorted_turn_order = 0
    for deal in range(60):
        seats = rng.randint(3, 6)
        dealer = deal % seats
        kind = DealKind.NORMAL
        hands, miss, turnup, stock = deal_cards(rules, rng, seats=seats, dealer=dealer, deal_kind=kind)
        h = LooHand(rules, hands=hands, turnup=turnup, miss=miss, stock=stock, dealer=dealer, pool=rules.deal_price)
        play_out(h, rng)
        s = h.settlement
        assert s is not None
        assert list(s.looed) == sorted(s.looed), (preset, deal, s.looed)
        assert len(set(s.looed)) == len(s.looed)
        if s.reason in ("played", "flush"):
            amount = h.loo_amount()
            assert all((s.loos[p] == amount) == (p in s.looed) for p in range(seats)) or s.direct is not None
        turn_order = [(dealer + i) % seats for i in range(1, seats + 1)]
        if sorted(s.looed, key=turn_order.index) != sorted(s.looed):
            seen_unsorted_turn_order += 1
    assert seen_unsorted_turn_order > 0, "no hand in which the two orders differ: the test checks nothing"
