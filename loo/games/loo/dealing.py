"""Shuffling and dealing a hand of Loo: the cards each seat, the miss and the turn-up receive, in
the order the rules give (the rounds themselves are :func:`loo.games.loo.play.deal_rounds`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from loo.cards import Card
from loo.core.shuffle import shuffled_pack
from loo.games.loo.play import deal_rounds
from loo.games.loo.rules import FirstDealMode, Rules
from loo.games.loo.state import DealKind

__all__ = ["deal_cards"]

_ORDERS: dict[tuple[int, int], list[int]] = {}  # the order of the deal by seats and dealer, with nobody sitting out
_SINGLE, _NORMAL = DealKind.SINGLE, DealKind.NORMAL


def deal_cards(
    rules: Rules,
    rng: random.Random,
    *,
    seats: int,
    dealer: int,
    deal_kind: DealKind = DealKind.NORMAL,
    sitting_out: Sequence[int] = (),
) -> tuple[list[list[Card] | None], list[Card], Card, list[Card]]:
    """Shuffle and deal: one card at a time from the eldest (L3-DEAL-08, L5-GEN-01), the miss where
    the rules put it (L3-DEAL-10, CF-16), then the turn-up (L3-DEAL-14). Returns hands, miss, turn-up, stock."""
    if not 0 <= dealer < seats:
        raise ValueError(f"dealer {dealer} is not a seat: seats are numbered 0 to {seats - 1}")
    pack = shuffled_pack(rng)
    order = None if sitting_out else _ORDERS.get((seats, dealer))
    if order is None:
        order = [(dealer + i) % seats for i in range(1, seats + 1) if (dealer + i) % seats not in sitting_out]
        if not sitting_out:
            _ORDERS[seats, dealer] = order
    peel_single = deal_kind is _SINGLE and rules.first_deal_mode is FirstDealMode.PEEL_SINGLE
    game = rules.game
    size = 1 if peel_single else game.hand_size
    with_miss = game.has_miss and deal_kind is _NORMAL
    needed = len(order) * size + (3 if with_miss else 0) + 1
    if needed > 52:
        raise ValueError(f"{len(order)} players need {needed} cards: more than the pack holds (AMB-02)")
    top = 0
    if peel_single:
        turnup = pack[top]  # L3-SGL-02: the turn-up first, then one card face up to each
        top += 1
    hands, miss, top = deal_rounds(pack, top, order, seats, size, with_miss, rules.miss_position)
    if not peel_single:
        turnup = pack[top]
        top += 1
    return hands, miss, turnup, pack[top:]
