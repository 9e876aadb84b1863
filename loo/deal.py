"""Seeded dealing of three-card Loo, for the book's first pages (the engine's shuffle is
:mod:`loo.core.shuffle`; each game deals in its own package).

Randomness is always injected: pass a ``random.Random`` (or a seed), never
rely on the global generator, so every example, test and classroom deal can
be repeated exactly.

>>> d = deal_three_card(random.Random(7), seats=5, dealer=4)
>>> d == deal_three_card(random.Random(7), seats=5, dealer=4)
True
>>> [len(h) for h in d.hands], len(d.miss)
([3, 3, 3, 3, 3], 3)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from loo.cards import Card, Hand
from loo.core.shuffle import shuffled_pack as shuffled_pack  # the engine's shuffle, named here too

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
    from loo.games.loo.dealing import deal_cards  # the engine's dealer: one implementation of the order of the deal
    from loo.games.loo.rules import Rules

    hands, miss, turnup, stock = deal_cards(Rules.preset("peel"), rng, seats=seats, dealer=dealer)
    return Deal(
        hands=tuple(Hand(tuple(h or ())) for h in hands),
        miss=Hand(tuple(miss)),
        turnup=turnup,
        stock=tuple(stock),
        dealer=dealer,
    )
