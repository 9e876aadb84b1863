"""Loo at a teaching table (table mode): an irregularity is recorded and penalised as the sources
say, not refused (A.11, AMB-15..17): pre-play offences pay a single loo into the pool, offences in
play loo the offender, and a replay may be required.
"""

from __future__ import annotations

from loo.core.actions import Action, IllegalActionError
from loo.core.hand import Phase
from loo.core.rules import RevokeReplay
from loo.games.loo.rules import LooMode
from loo.games.loo.state import PLAY_CLAIMS, PRE_PLAY_CLAIMS, LooHandBase, Offence

__all__ = ["TableMode"]


class TableMode(LooHandBase):
    """Table mode of :class:`loo.games.loo.hand.LooHand`: offences, penalties and replays."""

    def _irregular(self, action: Action, law: str, message: str) -> bool:
        """Table mode: an illegal action is recorded as an offence and penalised (:meth:`_offend`), not
        refused, unless the hand is over or the seat does not exist."""
        if not self.table or self._s.phase is Phase.DONE or not 0 <= action.seat < self.n:
            return False
        self._history.append((action, self._s.copy()))
        self._offend(action.seat, law, message, action)
        return True

    @property
    def stake(self) -> int:
        """The pool played for: the pool as dealt plus pre-play penalties paid into it (L3-PEN-05, AMB-17)."""
        return self.pool + sum(self._s.penalties)

    @property
    def offences(self) -> tuple[Offence, ...]:
        return tuple(self._s.offences)

    def _penalty_amount(self) -> int:
        """L3-PEN-06, AMB-34: pre-play penalties at the single-loo rate (the deal price in unlimited games)."""
        return self.rules.deal_price if self.rules.loo_mode is not LooMode.LIMITED else self.rules.single_loo

    def _offend(self, seat: int, law: str, message: str, action: Action | None) -> None:
        self._offered = None  # the state changes in place
        s = self._s
        if s.phase in (Phase.DECLARE, Phase.EXCHANGE):
            # L3-PEN-05/06, AMB-17: a single loo into this pool; the irregular declaration has no effect.
            s.unshare()
            s.penalties[seat] += self._penalty_amount()
            s.offences = [*s.offences, Offence(seat, law, message, "pre-play")]
            return
        s.unshare()
        s.offenders.setdefault(seat, law)  # L3-PEN-01/04: looed, and wins nothing this hand
        s.offences = [*s.offences, Offence(seat, law, message, "play")]
        if action is not None and action.verb == "play" and seat == s.to_act and action.value in s.holding[seat]:
            self._play(seat, action.value, action.civil)  # the card lies where he played it
        if self.rules.revoke_replay is RevokeReplay.MANDATORY:
            self._replay()  # L3-PEN-02, CF-19

    def _replay(self) -> None:
        """AMB-15: restore the hands as they stood after the declarations and play again from trick 1."""
        s = self._s
        if s.start_of_play is None:
            return
        again = s.start_of_play.copy()
        again.penalties, again.offenders, again.offences = list(s.penalties), dict(s.offenders), list(s.offences)
        again.start_of_play, again.replays = s.start_of_play, s.replays + 1
        self._s = again

    def claim_replay(self, by: int) -> None:
        """L3-PEN-07, CF-19 on-demand: a player other than the offender requires the hand to be replayed."""
        s = self._s
        if not self.table or not s.offenders or s.phase is not Phase.PLAY:
            raise IllegalActionError("L3-PEN-07", "a replay can be claimed only after an offence in play")
        if by in s.offenders:
            raise IllegalActionError("L3-PEN-07", f"{self.names[by]} committed the offence and cannot claim a replay")
        self._history.append((Action(by, "claim", True), s.copy()))
        self._replay()

    def penalize(self, seat: int, law: str) -> None:
        """Record an offence the engine cannot see (looking at cards, informing), claimed at the table."""
        if not self.table:
            raise IllegalActionError(law, "penalties are recorded only at a teaching table (table mode)")
        if law not in PRE_PLAY_CLAIMS | PLAY_CLAIMS:
            known = sorted(PRE_PLAY_CLAIMS | PLAY_CLAIMS)
            raise ValueError(f"{law!r} is not an offence a table can claim; use one of {known}")
        if self._s.phase is Phase.DONE:
            raise IllegalActionError(law, "the hand is over")
        self._history.append((Action(seat, "penalty", law), self._s.copy()))
        self._offered = None  # the state changes in place
        if law in PRE_PLAY_CLAIMS:
            self._s.unshare()
            self._s.penalties[seat] += self._penalty_amount()
            self._s.offences = [*self._s.offences, Offence(seat, law, "a claimed irregularity before play", "pre-play")]
        else:
            self._s.unshare()
            self._s.offenders.setdefault(seat, law)
            self._s.offences = [*self._s.offences, Offence(seat, law, "a claimed offence in play", "play")]
