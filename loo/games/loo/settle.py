"""How a hand of Loo pays: the pool shared by tricks and the loos (L3-DIV, L3-LOO), a hand won
without play, Peel's single, and five-card Loo's flushes (L5-FL).
"""

from __future__ import annotations

from collections.abc import Sequence

from loo.core.cards import Card
from loo.core.hand import made_quickly
from loo.core.reasons import Reason
from loo.games.loo.play import loo_amount, settle_tricks, uncontested_payouts
from loo.games.loo.rules import FlushLooDestination
from loo.games.loo.state import DealKind, Flush, LooHandBase, Settlement

__all__ = ["Settling"]


class Settling(LooHandBase):
    """The settlement of :class:`loo.games.loo.hand.LooHand`."""

    def loo_amount(self) -> int:
        """What a looed player pays (L3-LOO-02, UL-03/04, AMB-34, L3-SGL-06)."""
        return loo_amount(self.rules, self.pool, single=self.deal_kind is DealKind.SINGLE)

    def _uncontested(self, winner: int, reason: Reason) -> Settlement:
        payouts = uncontested_payouts(self.stake, self.n, winner)
        zero = (0,) * self.n
        return Settlement(reason, (), zero, (), tuple(payouts), zero, 0, penalties=self._penalties())

    def _penalties(self) -> tuple[int, ...] | None:
        return tuple(self._s.penalties) if self.table else None

    def _settle_play(self) -> Settlement:
        """L3-DIV-01/03, L3-DIV-04, L3-LOO-01/02, AMB-14, L5-PAY-01/02; in table mode L3-PEN-01..04, AMB-16."""
        s = self._s
        final = self.deal_kind is DealKind.FINAL  # the last round: no loos (AMB-22)
        out = settle_tricks(
            self.stake,
            [trick.winner for trick in s.tricks],
            self.n,
            self._players(),
            self.last if s.for_pool else -1,
            s.offenders,
            0 if final else self.loo_amount(),
        )
        offenders = s.offenders
        return made_quickly(  # one is made per hand played: a Settlement, made quickly
            Settlement,
            {
                "reason": Reason.PLAYED,
                "tricks": tuple(s.tricks),
                "tricks_won": out.won,
                "looed": () if final else out.looed,  # in seat order (docs/records.md)
                "payouts": out.payouts,
                "loos": out.loos,
                "next_pool": out.next_pool,
                "direct": None,
                "flush": None,
                "penalties": self._penalties(),
                "offenders": tuple(sorted(offenders)) if offenders else (),
            },
        )

    def _settle_peel_single(self) -> Settlement:
        """L3-SGL-02..05, AMB-03: the highest card of the turn-up's suit above it takes the pool."""
        beaters = [
            (c.rank, seat)
            for seat, hand in enumerate(self.dealt)
            if hand
            for c in hand
            if c.suit is self.trump and c.rank > self.turnup.rank
        ]
        payouts = [0] * self.n
        winner = max(beaters)[1] if beaters else None
        if winner is not None:
            payouts[winner] = self.pool
        looed = tuple(p for p in self.active if p != winner)
        loos = tuple(self.rules.single_loo if p in looed else 0 for p in range(self.n))
        won = (0,) * self.n  # matched, not played: no trick, as its empty ``tricks`` says (docs/records.md)
        next_pool = self.pool - sum(payouts) + sum(loos)
        return Settlement(Reason.SINGLE, (), won, looed, tuple(payouts), loos, next_pool)

    def flush_of(self, cards: Sequence[Card]) -> Flush | None:
        """L5-FL-01, L5-FL-04, AMB-27: the flush class of five cards, if any."""
        if len(cards) != 5:
            return None
        others = [c for c in cards if c != self.pam_card]
        if len(others) == 4 and len({c.suit for c in others}) == 1:
            return Flush.PAM
        if len(others) == 5 and len({c.suit for c in others}) == 1:
            return Flush.TRUMP if others[0].suit is self.trump else Flush.PLAIN
        return None

    def _find_flush(self) -> tuple[int, Flush] | None:
        best: tuple[int, Flush] | None = None
        for seat in self._players():  # elder hands first, so ties go to the elder (L5-FL-05, CF-24)
            kind = self.flush_of(self._s.holding[seat])
            if kind is not None and (best is None or kind > best[1]):
                best = (seat, kind)
        return best

    def _settle_flush(self, winner: int, kind: Flush) -> Settlement:
        """L5-FL-03, L5-FL-06, L5-FL-08/09, AMB-27: the flush sweeps the pool; other standers are looed."""
        payouts = [0] * self.n
        payouts[winner] = self.stake
        looed = []
        for seat in sorted(self._players()):  # the looed in seat order (docs/records.md)
            if seat == winner:
                continue
            hand = self._s.holding[seat]
            theirs = self.flush_of(hand)
            if self.pam_card in hand or (theirs is not None and theirs <= kind):
                continue
            looed.append(seat)
        amount = self.loo_amount()
        loos = [amount if p in looed else 0 for p in range(self.n)]
        direct = None
        if self.rules.flush_loo_destination is FlushLooDestination.TO_FLUSH_HOLDER:
            direct_list = [-x for x in loos]
            direct_list[winner] += sum(loos)
            direct, loos = tuple(direct_list), [0] * self.n
        zero = (0,) * self.n
        return Settlement(
            Reason.FLUSH,
            (),
            zero,
            tuple(looed),
            tuple(payouts),
            tuple(loos),
            sum(loos),
            direct,
            (winner, kind.name.lower()),
            penalties=self._penalties(),
        )
