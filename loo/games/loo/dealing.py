"""Shuffling and dealing a hand of Loo: the cards each seat, the miss and the turn-up receive, in
the order the rules give (the rounds themselves are :func:`loo.games.loo.play.deal_rounds`); and
:func:`deal_three_card`, one seeded deal of three-card Loo as a plain :class:`Deal`, for the book's
first pages (the engine's shuffle is :mod:`loo.core.shuffle`).

Randomness is always injected: pass a ``random.Random``, never rely on the global generator, so
every example, test and classroom deal can be repeated exactly.

>>> d = deal_three_card(random.Random(7), seats=5, dealer=4)
>>> d == deal_three_card(random.Random(7), seats=5, dealer=4)
True
>>> [len(h) for h in d.hands], len(d.miss)
([3, 3, 3, 3, 3], 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from loo.core.cards import Card, Hand
from loo.core.shuffle import shuffled_pack
from loo.games.loo.play import deal_rounds
from loo.games.loo.rules import FirstDealMode, Rules
from loo.games.loo.state import DealKind

__all__ = ["MAX_SEATS_WITH_MISS", "Deal", "DealError", "deal_cards", "deal_three_card"]

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


MAX_SEATS_WITH_MISS = 16  # 3n + 3 (miss) + 1 (turn-up) <= 52: AMB-02


class DealError(ValueError):
    """A deal that cannot be made with these numbers."""


@dataclass(frozen=True)
class Deal:
    """The cards of one deal: a hand per seat, the miss, the turn-up and the rest of the stock."""

    hands: tuple[Hand, ...]
    miss: Hand
    turnup: Card
    stock: tuple[Card, ...]
    dealer: int

    @property
    def eldest(self) -> int:
        """The seat on the dealer's left (clockwise next): it receives the first card."""
        return (self.dealer + 1) % len(self.hands)

    def _repr_html_(self) -> str:
        from loo.svg import deal_html

        return deal_html(self)


def deal_three_card(rng: random.Random, *, seats: int, dealer: int = 0) -> Deal:
    """Deal three-card Loo as Peel has it: three rounds of one card each.

    Each round starts with the eldest hand and goes clockwise (L3-DEAL-08); the
    miss receives its card immediately after the dealer's own (L3-DEAL-09,
    L3-DEAL-10, the default of CF-16); then the top of the stock is turned up
    for trumps (L3-DEAL-14).
    """
    if not 2 <= seats <= MAX_SEATS_WITH_MISS:
        raise DealError(
            f"cannot deal three-card Loo with a miss to {seats} seats: "
            f"the pack allows 2 to {MAX_SEATS_WITH_MISS} (AMB-02)"
        )
    if not 0 <= dealer < seats:
        raise DealError(f"dealer {dealer} is not a seat: seats are numbered 0 to {seats - 1}")
    hands, miss, turnup, stock = deal_cards(Rules.preset("peel"), rng, seats=seats, dealer=dealer)
    return Deal(
        hands=tuple(Hand(tuple(h or ())) for h in hands),
        miss=Hand(tuple(miss)),
        turnup=turnup,
        stock=tuple(stock),
        dealer=dealer,
    )
