"""A game of many hands: who deals first, and a double-entry ledger of chips every game shares.

Every chip a player pays goes into the pool and every chip he takes comes out of it, so the players'
balances and the pool always add up to zero: no chip is created or lost.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from loo.core.cards import Card, Rank, full_pack

__all__ = ["Books", "ChipLedger", "Entry", "cut_for_deal", "cut_value"]


def cut_value(card: Card, *, courts_equal: bool) -> int:
    """A card's value when cutting for the deal: the ace lowest (L3-DEAL-02, CF-06), and with
    Enquire Within's rule the ten and the court cards all count ten."""
    if card.rank is Rank.ACE:
        return 1
    if courts_equal and card.rank >= Rank.TEN:
        return 10
    return int(card.rank)


def cut_for_deal(
    players: Sequence[str], rng: random.Random, *, courts_equal: bool = True
) -> tuple[int, list[list[tuple[str, Card]]]]:
    """Choose the first dealer: each player cuts, the lowest deals, and the tied lowest cut again
    (L3-DEAL-01..04). Returns the dealer's seat and every round of cuts, for display."""
    rounds: list[list[tuple[str, Card]]] = []
    contenders = list(range(len(players)))
    while True:
        pack = list(full_pack())
        rng.shuffle(pack)
        cuts = [(seat, pack[i]) for i, seat in enumerate(contenders)]
        rounds.append([(players[seat], card) for seat, card in cuts])
        low = min(cut_value(card, courts_equal=courts_equal) for _, card in cuts)
        contenders = [seat for seat, card in cuts if cut_value(card, courts_equal=courts_equal) == low]
        if len(contenders) == 1:
            return contenders[0], rounds


@dataclass(frozen=True)
class Entry:
    """One movement of chips: ``amount`` from a player into the pool (positive) or out of it (negative)."""

    hand: int
    player: str
    amount: int
    why: str  # "deal", "ante", "loo", "trick", "pool", "flush", "division"


@dataclass(frozen=True)
class Books:
    """Where a game's books stood at one moment (:meth:`ChipLedger.books`), to be put back as they were
    (:meth:`ChipLedger.restore`): taken just before a finished hand is settled, they take that settlement
    back exactly, its entries and its result dropped and the pool and the deal where they were."""

    entries: int  # how many entries the ledger held
    results: int  # how many hands were settled
    pool: int
    dealer: int
    own: tuple[Any, ...] = ()  # what the game keeps of its own and settling changes (ChipLedger._own_books)


class ChipLedger:
    """Double-entry chips for a game of many hands (Loo, Nap and the domino games share it).

    Every chip a player pays goes into the pool and every chip he takes comes out of it, so the
    players' balances and the pool always add up to zero: no chip is created or lost.
    """

    pool: int
    ledger: list[Entry]
    results: list[Any]
    dealer: int
    hand: Any  # each game's own hand, or None before the first deal

    def _seat(
        self,
        players: Sequence[str],
        rng: random.Random,
        first_dealer: int | None,
        *,
        courts_equal: bool = False,
        fewest: str = "a game needs at least two players",
    ) -> None:
        """Seat ``players`` (two or more, each named differently; ``fewest`` says why at least two) with
        an empty pool and ledger, and choose the first dealer: seat ``first_dealer``, or with None by a
        cut (:func:`cut_for_deal`, whose cards are kept in ``self.cuts``)."""
        if len(players) < 2:
            raise ValueError(fewest)
        if len(set(players)) != len(players):
            raise ValueError("each player needs a different name")
        self.players = list(players)
        self.rng = rng
        self.cuts: list[list[tuple[str, Card]]] = []
        if first_dealer is None:
            first_dealer, self.cuts = cut_for_deal(players, rng, courts_equal=courts_equal)
        self.dealer = first_dealer % len(players)
        self.pool = 0
        self.ledger = []

    def _ledger_players(self) -> Iterable[str]:
        """Everyone with a balance: by default the players at the table."""
        return list(getattr(self, "players", ()))

    def _pay(self, player: str, amount: int, why: str) -> None:
        """``player`` pays ``amount`` into the pool (negative: takes it out)."""
        if amount:
            self.ledger.append(Entry(len(self.results), player, amount, why))
            self.pool += amount

    def sit_at(self, hand: Any) -> None:
        """Make ``hand``, dealt outside this game (a record's, a deal code's), the hand in play: its dealer
        deals it, and the pool it is played for is booked as the dealer's stake, with nothing before it."""
        self.ledger.clear()
        self.pool = 0
        self.hand, self.dealer = hand, hand.dealer
        self._pay(hand.names[hand.dealer], hand.pool, "deal")

    def books(self) -> Books:
        """The books as they stand, for :meth:`restore` to put back."""
        return Books(len(self.ledger), len(self.results), self.pool, self.dealer, self._own_books())

    def restore(self, books: Books) -> None:
        """Put the books back as :meth:`books` gave them: every entry and result booked since is dropped.
        Only what settling a hand changes is put back, so take them just before :meth:`settle` and restore
        them before anything else is dealt or paid."""
        if books.entries > len(self.ledger) or books.results > len(self.results):
            raise ValueError("these books are not of this game as it stands: it has fewer entries or results")
        del self.ledger[books.entries :]
        del self.results[books.results :]
        self.pool, self.dealer = books.pool, books.dealer
        self._restore_own(books.own)

    def _own_books(self) -> tuple[Any, ...]:
        """What the game keeps of its own and settling a hand changes (none here)."""
        return ()

    def _restore_own(self, own: tuple[Any, ...]) -> None:
        """Put back what :meth:`_own_books` gave."""

    def balances(self) -> dict[str, int]:
        """Each player's chips won less chips paid, over the whole game."""
        out = dict.fromkeys(self._ledger_players(), 0)
        for entry in self.ledger:
            out[entry.player] -= entry.amount
        return out

    def conserved(self) -> bool:
        """The invariant: balances and the pool add up to zero."""
        return sum(self.balances().values()) + self.pool == 0
