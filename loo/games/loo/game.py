"""A game of many hands: the deal passing round, the pool carried over, and a ledger of chips.

The ledger is double-entry: every chip that leaves a player goes into the pool
and every chip a player takes comes out of it, so at every moment the players'
balances and the pool add up to zero.  No chip is ever created or lost.

>>> import random
>>> game = LooGame(Rules.preset("peel"), ["Ann", "Ben", "Cat", "Dan"], random.Random(3))
>>> hand = game.next_hand()  # Ann deals Peel's single, which settles as it is dealt
>>> hand.deal_kind.value, hand.settlement.payouts, game.pool, game.balances()
('single', (0, 0, 0, 3), 9, {'Ann': -6, 'Ben': -3, 'Cat': -3, 'Dan': 3})
>>> game.conserved()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from loo.core.ledger import ChipLedger
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import FirstDealMode, Rules
from loo.games.loo.state import DealKind, Settlement


@dataclass(frozen=True)
class HandResult:
    number: int
    dealer: str
    kind: DealKind
    pool_before: int
    settlement: Settlement
    players: tuple[str, ...]


class LooGame(ChipLedger):
    """Hands of one Loo game in sequence, with the dealer rotating to the left (L3-GEN-07)."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        rng: random.Random,
        *,
        first_dealer: int | None = 0,
        table: bool = False,
    ) -> None:
        """``first_dealer=None`` cuts for the deal (L3-DEAL-01..04); the cuts are kept in ``self.cuts``."""
        self.rules = rules
        self._seat(players, rng, first_dealer, courts_equal=rules.courts_equal_in_cut)
        self.results: list[HandResult] = []
        self.deals_by: dict[str, int] = dict.fromkeys(players, 0)
        self.hand: LooHand | None = None
        self.table = table  # teaching table: offences are recorded and penalised, not refused
        self._leaving: str | None = None

    def _ledger_players(self) -> Iterable[str]:
        return self.deals_by  # every player who has sat at this table, those who withdrew included

    def _own_books(self) -> tuple[Any, ...]:
        return tuple(self.players), self._leaving  # settling the deal of one withdrawing sees him go

    def _restore_own(self, own: tuple[Any, ...]) -> None:
        players, self._leaving = own
        self.players = list(players)

    # ----- dealing ---------------------------------------------------------------------------

    def _kind_of_next_deal(self) -> DealKind:
        """CF-10, CF-11, L3-SGL-01, L3-SGL-08, AMB-08: what the next deal is."""
        mode = self.rules.first_deal_mode
        empty = self.pool == 0 or (self.results and self.results[-1].settlement.loo_free)
        if empty and mode in (FirstDealMode.PEEL_SINGLE, FirstDealMode.EW_NO_MISS_ALL_PLAY):
            return DealKind.SINGLE
        return DealKind.NORMAL

    def next_hand(self, *, final: bool = False) -> LooHand:
        """The dealer pays for the deal (L3-STK-07) and deals the next hand.

        ``final`` deals Peel's last round instead: everyone stands, no miss, no loos (L3-END-03, AMB-22).
        """
        if self.hand is not None and not self.hand.is_over:
            raise ValueError("the current hand is not finished")
        kind = DealKind.FINAL if final else self._kind_of_next_deal()
        if final and self.rules.game.value != "three-card-loo":
            raise ValueError("Peel's last round belongs to three-card Loo")
        dealer_name = self.players[self.dealer]
        if kind is DealKind.NORMAL and self.pool == 0 and self.rules.first_deal_mode is FirstDealMode.EW_ALL_ANTE:
            for p in self.players:  # L3-SGL-10, AMB-55: everyone antes the dealer's stake
                if p != dealer_name:
                    self._pay(p, self.rules.deal_price, "ante")
        self._pay(dealer_name, self.rules.deal_price, "deal")
        self.deals_by[dealer_name] += 1
        sitting_out: list[int] = []
        limit = self.rules.dealer_sits_out_above
        # L3-OUT-01, L3-WD-03: never leaving one player to play alone (two must play, as when one withdraws)
        if (limit and len(self.players) > max(limit, 2)) or self._leaving == dealer_name:
            sitting_out = [self.dealer]
        return self._deal(kind, sitting_out)

    def _deal(self, kind: DealKind, sitting_out: Sequence[int]) -> LooHand:
        self.hand = LooHand.deal(
            self.rules,
            self.rng,
            seats=len(self.players),
            dealer=self.dealer,
            pool=self.pool,
            deal_kind=kind,
            names=self.players,
            sitting_out=sitting_out,
            table=self.table,
        )
        if self.hand.is_over:  # Peel's single settles as it is dealt
            self._settle()
        return self.hand

    def settle(self) -> HandResult:
        """Record the finished hand's payments and pass the deal to the left."""
        if self.hand is None or not self.hand.is_over:
            raise ValueError("there is no finished hand to settle")
        if self.results and self.results[-1].settlement is self.hand.settlement:
            return self.results[-1]
        return self._settle()

    def _settle(self) -> HandResult:
        hand = self.hand
        assert hand is not None and hand.settlement is not None
        s = hand.settlement
        number = len(self.results)
        names = hand.names
        for seat, amount in enumerate(s.penalties or ()):
            self._pay(names[seat], amount, "penalty")  # L3-PEN-05/06: into this hand's pool
        for seat, amount in enumerate(s.payouts):
            self._pay(names[seat], -amount, "trick" if s.reason in ("played", "single") else "pool")
        for seat, amount in enumerate(s.loos):
            self._pay(names[seat], amount, "loo")
        if s.direct is not None:  # money paid straight to a flush holder (CF-23) passes through the pool
            for seat, amount in enumerate(s.direct):
                self._pay(names[seat], -amount, "flush")
        assert self.pool == s.next_pool, (self.pool, s.next_pool)
        result = HandResult(number, names[hand.dealer], hand.deal_kind, hand.pool, s, names)
        self.results.append(result)
        if self._leaving is not None and self._leaving == names[hand.dealer]:
            self.players.remove(self._leaving)  # L3-WD-01..03: he leaves after his deal
            self._leaving = None
            self.dealer = self.dealer % len(self.players)
        else:
            self.dealer = (self.dealer + 1) % len(self.players)
        return result

    def misdeal(self) -> LooHand:
        """L3-MIS-01..05, AMB-56: the dealer pays a single loo into the pool at once and deals again.

        Allowed only before any card is played; the deal price already paid stays in the pool.
        """
        hand = self.hand
        if hand is None or hand.is_over or hand.tricks or hand.current_trick:
            raise ValueError("a misdeal can be called only before the first card is played (L3-MIS-01)")
        dealer_name = self.players[self.dealer]
        self._pay(dealer_name, self.rules.single_loo, "misdeal")  # L3-MIS-02..04
        # L3-MIS-05: the same dealer deals again
        return self._deal(hand.deal_kind, [s for s in range(hand.n) if hand.dealt[s] is None])

    # ----- leaving and ending --------------------------------------------------------------------

    def withdraw(self, player: str) -> None:
        """L3-WD-01..03, AMB-21: a player leaves at his turn to deal; he pays for the deal and deals to the others."""
        if player != self.players[self.dealer]:
            raise ValueError(f"{player} may leave only when it is their turn to deal (L3-WD-01)")
        if len(self.players) <= 2:
            raise ValueError("the game needs two players left after they go")
        self._leaving = player

    def can_end(self) -> bool:
        """AMB-23, L3-END-04/05: everyone has dealt equally often and the last hand looed nobody."""
        if not self.results:
            return False
        counts = {self.deals_by[p] for p in self.players}
        last = self.results[-1].settlement
        return len(counts) == 1 and not last.looed

    def divide_pool(self) -> dict[str, int]:
        """L3-END-02: end now by sharing the pool equally; any odd chips go to the players in seat order."""
        share, odd = divmod(self.pool, len(self.players))
        given = {}
        for i, p in enumerate(self.players):
            amount = share + (1 if i < odd else 0)
            self._pay(p, -amount, "division")
            given[p] = amount
        return given
