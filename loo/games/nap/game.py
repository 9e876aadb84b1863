"""Hands of Nap in sequence: :class:`NapGame`, with the deal passing round, the pool carried over and
a ledger of every chip."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loo.core.ledger import ChipLedger
from loo.core.reasons import Reason
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import KittyMode, NapRules
from loo.games.nap.settle import NapSettlement


@dataclass(frozen=True)
class NapResult:
    number: int
    dealer: str
    pool_before: int
    settlement: NapSettlement
    players: tuple[str, ...]


class NapGame(ChipLedger):
    """Hands of Nap in sequence: the deal passing to the left (NAP-DEAL-06), the pool carried over, and a
    double-entry ledger (every chip a player pays goes into the pool, every chip he receives comes out of
    it, so balances and the pool always add up to zero).

    >>> game = NapGame(NapRules(kitty_mode=KittyMode.DEALER), ["Ann", "Ben", "Cat", "Dan"], random.Random(2))
    >>> hand = game.next_hand()
    >>> game.pool, [e.why for e in game.ledger]
    (1, ['kitty'])
    >>> while not hand.is_over:
    ...     hand.push(hand.legal_actions()[0])
    >>> result = game.settle()
    >>> game.conserved(), game.dealer
    (True, 1)
    """

    def __init__(
        self,
        rules: NapRules,
        players: Sequence[str],
        rng: random.Random,
        *,
        first_dealer: int | None = 0,
        table: bool = False,
    ) -> None:
        """``first_dealer=None`` cuts for the deal: the lowest card deals, the ace low (NAP-DEAL-01)."""
        if len(players) > rules.max_seats():
            raise ValueError(f"{len(players)} players are more than the pack can serve (AMB-02)")
        self.rules = rules
        self._seat(players, rng, first_dealer, fewest="a game needs at least two players (NAP-GEN-02)")
        self.results: list[NapResult] = []
        self.hand: NapHand | None = None
        self.table = table
        self._fed = False  # this dealer's feeds are paid; a redeal by the same dealer pays nothing new (AMB-56)

    def next_hand(self) -> NapHand:
        """Pay this deal's feeds to the pool (NAP-POOL-02/03, AMB-40) and deal."""
        if self.hand is not None and not self.hand.is_over:
            raise ValueError("the current hand is not finished")
        if self.hand is not None and self.hand.is_over and not self._settled(self.hand):
            self.settle()
        if not self._fed:
            dealer_name = self.players[self.dealer]
            unit = self.rules.unit
            if self.rules.kitty_mode is KittyMode.DEALER:
                self._pay(dealer_name, unit, "kitty")
            elif self.rules.kitty_mode is KittyMode.DEALER_AND_PLAYERS:
                for p in self.players:
                    self._pay(p, 3 * unit if p == dealer_name else unit, "kitty")
            self._fed = True
        self.hand = NapHand.deal(
            self.rules,
            self.rng,
            seats=len(self.players),
            dealer=self.dealer,
            pool=self.pool,
            names=self.players,
            table=self.table,
        )
        return self.hand

    def _own_books(self) -> tuple[Any, ...]:
        return (self._fed,)  # a settled hand leaves the next dealer's feeds to pay

    def _restore_own(self, own: tuple[Any, ...]) -> None:
        (self._fed,) = own

    def _settled(self, hand: NapHand) -> bool:
        return bool(self.results) and self.results[-1].settlement is hand.settlement

    def settle(self) -> NapResult:
        """Record the finished hand's payments; the deal passes to the left, or stays for a redeal."""
        hand = self.hand
        if hand is None or hand.settlement is None:
            raise ValueError("there is no finished hand to settle")
        if self._settled(hand):
            return self.results[-1]
        s = hand.settlement
        names = hand.names
        for seat, amount in enumerate(s.pool_paid):
            self._pay(names[seat], amount, "fees")  # peeps, purchases, knaves and fives, a failed Nap's doubling
        for seat, amount in enumerate(s.stakes):
            if amount < 0:
                self._pay(names[seat], -amount, "stake")  # stakes pass through the pool, so it always balances
        for seat, amount in enumerate(s.stakes):
            if amount > 0:
                self._pay(names[seat], -amount, "stake")
        for seat, amount in enumerate(s.pool_taken):
            self._pay(names[seat], -amount, "pool")
        assert self.pool == s.next_pool, (self.pool, s.next_pool)
        result = NapResult(len(self.results), names[hand.dealer], hand.pool, s, names)
        self.results.append(result)
        if s.reason not in (Reason.REDEAL, Reason.MISDEAL):
            self.dealer = (self.dealer + 1) % len(self.players)  # NAP-DEAL-06
            self._fed = False
        # NAP-MISD-01, NAP-WRG-05, AMB-36: otherwise the same dealer deals again
        return result

    def misdeal(self, by: int) -> NapHand:
        """NAP-MISD-01/02: a fresh deal by the same dealer, claimed before the hands are looked at."""
        if self.hand is None:
            raise ValueError("nothing has been dealt")
        self.hand.claim_misdeal(by)
        self.settle()
        return self.next_hand()
