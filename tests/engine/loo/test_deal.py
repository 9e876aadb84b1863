"""Seeded dealing: the same seed gives the same deal, and the deal follows L3-DEAL-08/09/10/14."""

from __future__ import annotations

import random

import pytest

from loo import DealError, deal_three_card, full_pack


class UnshuffledRandom(random.Random):
    """A generator whose shuffle leaves the pack in order, to check the order cards are dealt in."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        return None


def test_same_seed_same_deal_and_different_seeds_differ() -> None:
    a = deal_three_card(random.Random(42), seats=5, dealer=4)
    b = deal_three_card(random.Random(42), seats=5, dealer=4)
    c = deal_three_card(random.Random(43), seats=5, dealer=4)
    assert a == b
    assert a != c


def test_every_card_is_dealt_once() -> None:
    d = deal_three_card(random.Random(5), seats=7, dealer=2)
    everything = [c for h in d.hands for c in h] + list(d.miss) + [d.turnup, *d.stock]
    assert sorted(everything) == sorted(full_pack())
    assert [len(h) for h in d.hands] == [3] * 7 and len(d.miss) == 3


@pytest.mark.law("L3-DEAL-14")
def test_peel_order_eldest_first_miss_after_the_dealer_then_the_turnup() -> None:
    # L3-DEAL-08: one at a time from the eldest; L3-DEAL-10: the miss straight after the dealer.
    pack = [str(c) for c in full_pack()]
    d = deal_three_card(UnshuffledRandom(), seats=4, dealer=1)
    order = [2, 3, 0, 1]  # eldest (seat 2) first, dealer (seat 1) last
    for rnd in range(3):
        for i, seat in enumerate(order):
            assert str(d.hands[seat].cards[rnd]) == pack[rnd * 5 + i]
        assert str(d.miss.cards[rnd]) == pack[rnd * 5 + 4]
    assert str(d.turnup) == pack[15]  # L3-DEAL-14: the next card is turned up for trumps
    assert d.eldest == 2


@pytest.mark.parametrize(("seats", "dealer", "says"), [(1, 0, "2 to 16"), (17, 0, "2 to 16"), (5, 5, "not a seat")])
def test_impossible_deals_are_refused(seats: int, dealer: int, says: str) -> None:
    with pytest.raises(DealError, match=says):
        deal_three_card(random.Random(1), seats=seats, dealer=dealer)


def test_sixteen_seats_is_the_largest_deal_with_a_miss() -> None:
    d = deal_three_card(random.Random(1), seats=16, dealer=0)
    assert len(d.stock) == 0  # 48 + 3 + 1 = 52: AMB-02


def test_shuffled_pack_is_the_permutation_random_shuffle_makes() -> None:
    """A seed keeps its deal: the written-out shuffle draws exactly what ``Random.shuffle`` draws."""
    from loo.core.shuffle import shuffled_pack

    for seed in range(500):
        expected = list(full_pack())
        reference = random.Random(seed)
        reference.shuffle(expected)
        rng = random.Random(seed)
        assert shuffled_pack(rng) == expected
        assert rng.random() == reference.random()  # and leaves the generator where shuffle leaves it
