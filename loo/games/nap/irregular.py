"""A teaching table's irregularities at Nap (catalogue E.11): revokes and cards played out of turn,
recorded and penalised instead of refused, and the claims a player may make (a replay, a refusal to
show, a wrong count of cards, a misdeal). :class:`NapIrregularities`, which
:class:`~loo.games.nap.hand.NapHand` takes in."""

from __future__ import annotations

from loo.core.actions import Action, IllegalActionError
from loo.core.cards import Card
from loo.core.reasons import Reason
from loo.core.rules import RevokeReplay
from loo.games.nap.rules import NAP
from loo.games.nap.state import NapHandBase, NapOffence, NapPhase


class NapIrregularities(NapHandBase):
    """A teaching table's irregularities and claims, mixed into :class:`~loo.games.nap.hand.NapHand`."""

    def _irregular(self, action: Action, law: str, message: str) -> bool:
        """At a teaching table (``table=True``) a revoke or a card played out of turn is recorded and
        penalised as group E says instead of refused (:meth:`_offend`)."""
        s = self._s
        if (
            self.table
            and not s.strict
            and s.phase is NapPhase.PLAY
            and action.verb == "play"
            and 0 <= action.seat < self.n
            and action.value in s.holding[action.seat]
        ):
            self._history.append((action, s.copy()))
            self._offend(action, law, message)
            return True
        return False

    def _offend(self, action: Action, law: str, message: str) -> None:
        """A play the laws forbid, made at a teaching table: a revoke (NAP-PLAY-03) or a card out of turn."""
        s = self._s
        seat = action.seat
        if seat != s.to_act:
            if not self.rules.out_of_turn_penalty:
                # NAP-REV-07 has fallen out of use: the card is taken back and the lapse noted, without penalty.
                s.offences.append(NapOffence(seat, "NAP-REV-07", message, "out-of-turn"))
                return
            law = "NAP-REV-07"
        self._revoke(seat, law, message, action.value if seat == s.to_act else None)

    def _revoke(self, seat: int, law: str, message: str, card: Card | None) -> None:
        s = self._s
        if seat == s.caller:
            s.offences.append(NapOffence(seat, law, message, "caller-revoke"))
            self._finish(self._settle(Reason.CALLER_REVOKE))  # NAP-REV-06: the call is lost at once
            return
        s.offences.append(NapOffence(seat, law, message, "revoke"))
        s.offender = seat
        s.strict = True
        if self.rules.revoke_replay is RevokeReplay.MANDATORY:
            self._replay()  # NAP-REV-03
        elif card is not None:
            self._play(seat, card)  # CF-19 on demand: the card lies where it was played until a replay is claimed

    def _replay(self) -> None:
        """NAP-REV-03, AMB-15: the cards are taken up and the hand is played again from the first lead."""
        s = self._s
        start = s.start_of_play
        assert start is not None
        again = start.copy()
        again.offences, again.offender, again.strict = list(s.offences), s.offender, True
        again.start_of_play, again.replays, again.wrong_count = start, s.replays + 1, list(s.wrong_count)
        self._s = again

    def claim_replay(self, by: int) -> None:
        """CF-19 on demand: a player other than the offender requires the revoked hand to be played again."""
        s = self._s
        if not self.table or s.offender is None or s.phase is not NapPhase.PLAY:
            raise IllegalActionError("NAP-REV-03", "a replay can be claimed only during play, after a revoke")
        if by == s.offender:
            raise IllegalActionError("NAP-REV-03", f"{self.names[by]} revoked and cannot claim the replay", seat=by)
        self._history.append((Action(by, "claim", "NAP-REV-03"), s.copy()))
        self._replay()

    def refuse_to_show(self, seat: int) -> None:
        """NAP-REV-01/02: play stopped early and ``seat``, who trumped or discarded, will not show his cards.

        He is held to have revoked: a caller loses his call (NAP-REV-06); an opponent's revoke means
        the hand is played again and he pays the revoke penalty (NAP-REV-03..05).
        """
        s = self._s
        if not self.table:
            raise IllegalActionError("NAP-REV-02", "claims are made only at a teaching table (table mode)", seat=seat)
        settled = s.settlement
        if s.phase is not NapPhase.DONE or settled is None or settled.reason is not Reason.PLAYED or len(s.tricks) == 5:
            raise IllegalActionError(
                "NAP-REV-01", "cards are shown only when play stops before the fifth trick", seat=seat
            )
        renounced = any(c.suit is not t.plays[0][1].suit for t in s.tricks for p, c in t.plays if p == seat)
        if not renounced:
            raise IllegalActionError(
                "NAP-REV-01", f"{self.names[seat]} followed suit throughout and need show nothing", seat=seat
            )
        if s.offender is not None:
            raise IllegalActionError("NAP-REV-02", "a revoke has already been proved in this hand", seat=seat)
        self._history.append((Action(seat, "claim", "NAP-REV-02"), s.copy()))
        message = f"{self.names[seat]} would not show their cards, so is held to have revoked"
        if seat == s.caller:
            s.offences.append(NapOffence(seat, "NAP-REV-02", message, "caller-revoke"))
            s.settlement = self._settle(Reason.CALLER_REVOKE)
            return
        s.offences.append(NapOffence(seat, "NAP-REV-02", message, "refused-to-show"))
        s.offender, s.strict = seat, True
        s.phase, s.settlement = NapPhase.PLAY, None
        self._replay()

    def claim_wrong_count(self, seat: int) -> None:
        """NAP-WRG-01..05, AMB-42: ``seat`` is found to hold too many or too few cards.

        Before all have called and with no Nap called, the cards are dealt again; otherwise the hand is
        played out and the caller is paid or pays as NAP-WRG-02/03 say.
        """
        s = self._s
        if not self.table:
            raise IllegalActionError("NAP-WRG-01", "claims are made only at a teaching table (table mode)", seat=seat)
        if s.phase is NapPhase.DONE:
            raise IllegalActionError("NAP-WRG-01", "the hand is over", seat=seat)
        self._history.append((Action(seat, "claim", "NAP-WRG-01"), s.copy()))
        message = f"{self.names[seat]} holds the wrong number of cards"
        s.offences.append(NapOffence(seat, "NAP-WRG-01", message, "wrong-count"))
        if s.phase in (NapPhase.PURCHASE, NapPhase.CALL) and s.high < NAP:
            self._finish(self._settle(Reason.REDEAL))  # NAP-WRG-05
            return
        if seat not in s.wrong_count:
            s.wrong_count.append(seat)  # NAP-WRG-01/04: played out

    def claim_misdeal(self, by: int) -> None:
        """NAP-MISD-01/02: an exposed card, a misdeal, a faulty pack or an uncut pack; the same dealer deals
        again. Any player may claim it, but only before the hands are looked at (before the first action)."""
        s = self._s
        if self._history or s.phase is NapPhase.DONE:
            raise IllegalActionError("NAP-MISD-02", "the hands have been looked at, so the deal stands", seat=by)
        self._history.append((Action(by, "claim", "NAP-MISD-01"), s.copy()))
        self._finish(self._settle(Reason.MISDEAL))
