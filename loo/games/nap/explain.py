"""Why an action is refused, or allowed, at Nap: the law it breaks or follows (its catalogue ID) and
a plain sentence, for :meth:`NapHand.why_illegal <loo.games.nap.hand.NapHand.why_illegal>` and
:meth:`NapHand.explain <loo.games.nap.hand.NapHand.explain>`."""

from __future__ import annotations

from collections.abc import Sequence

from loo.core.actions import CALLS, Action
from loo.core.cards import Card
from loo.games.nap.rules import CALL_RANK, NAP, SPOKEN
from loo.games.nap.state import NapHandBase, NapPhase
from loo.games.nap.tricks import follow_choices


def names(cards: Sequence[Card]) -> str:
    """Cards named in a sentence: "AS", "AS and KH", "AS, KH and 2C"."""
    listed = [str(c) for c in cards]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


class NapExplaining(NapHandBase):
    """Why each action is refused or allowed, mixed into :class:`~loo.games.nap.hand.NapHand`."""

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        """None if ``action`` is legal now, else (law ID, a plain sentence saying what the law requires)."""
        s = self._s
        if s.phase is NapPhase.DONE:
            on = self._play_on_seat()
            if on is None:
                return ("NAP-PLAY-06", "the hand is over: no more actions can be taken")
            if action.verb != "play":
                return ("NAP-PLAY-06", "the call is decided: only the cards left may still be played out")
            return self._why_not_card(action, on)  # NAP-PLAY-06, AMB-43: playing the hand out
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("NAP-GEN-02", f"there is no seat {seat}")
        who = self.names[seat]
        assert s.to_act is not None
        if s.phase is NapPhase.PURCHASE:
            return self._why_not_purchase(action, who)
        if s.phase is NapPhase.CALL:
            return self._why_not_call(action, who)
        if s.phase is NapPhase.GARNET:
            if action.verb != "garnet" or seat != s.to_act or not action.value:
                return (
                    "NAP-SG-03",
                    f"{self.names[s.to_act]} has taken the extra hand and must now throw out five of their ten cards",
                )
            if unheld := self._unheld(action, who, "NAP-SG-03"):
                return unheld
            if len(action.value) != 5:
                return ("NAP-SG-03", f"{who} must throw out exactly five of their ten cards, not {len(action.value)}")
            return None
        if s.phase is NapPhase.EXCHANGE:
            if action.verb == "play":
                return ("NAP-PEEP-03", f"{self.names[s.to_act]} may first exchange a card for the peep card")
            if action.verb != "exchange" or seat != s.to_act:
                return (
                    "NAP-PEEP-04",
                    f"only the highest caller, {self.names[s.to_act]}, may act now: they may "
                    "exchange a card for the peep card, or keep their hand",
                )
            if unheld := self._unheld(action, who, "NAP-PEEP-03"):
                return unheld
            if len(action.value) > 1:
                return (
                    "NAP-PEEP-03",
                    f"there is only one peep card: {who} may give up one card for it, not {len(action.value)}",
                )
            return None
        # play
        if action.verb == "exchange":
            if seat == s.caller and s.peeped[seat]:
                return ("NAP-PEEP-03", "the peep card may be taken only before the first lead")
            if seat == s.caller:
                return ("NAP-PEEP-03", f"{who} did not peep, so may not take the peep card")
            return ("NAP-PEEP-04", "only the highest caller may exchange for the peep card")
        if action.verb != "play":
            return ("NAP-PLAY-01", f"the calling is over: {who} may only play a card now, not {action.verb}")
        return self._why_not_card(action, s.to_act)

    def _unheld(self, action: Action, who: str, law: str) -> tuple[str, str] | None:
        """Under ``law``, the cards of ``action`` (a garnet, an exchange, a purchase) that its seat does not hold."""
        missing = [c for c in action.value if c not in self._s.holding[action.seat]]
        return (law, f"{who} does not hold {names(missing)}") if missing else None

    def _why_not_card(self, action: Action, to_act: int) -> tuple[str, str] | None:
        """NAP-PLAY-01/02/04: a card played by ``action.seat`` when ``to_act`` is the seat to play."""
        s = self._s
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("NAP-GEN-02", f"there is no seat {seat}")
        who = self.names[seat]
        card = action.value
        if seat != to_act:
            law = "NAP-PLAY-01" if not s.tricks and not s.current else "NAP-PLAY-04"
            return (law, f"it is {self.names[to_act]}'s turn to play, not {who}'s")
        if card not in s.holding[seat]:
            return ("NAP-PLAY-02", f"{who} does not hold {card}")
        if s.current:
            led = s.current[0][1].suit
            allowed, _duty = follow_choices(s.holding[seat], lambda c: c.suit is led)
            if card not in allowed:
                return (
                    "NAP-PLAY-02",
                    f"{who} must follow suit: {who} holds {names(allowed)}, so {card} may not be played",
                )
        return None

    def _why_not_purchase(self, action: Action, who: str) -> tuple[str, str] | None:
        s = self._s
        seat = action.seat
        assert s.to_act is not None
        if action.verb != "purchase":
            return ("NAP-PUR-05", "the calling begins only when the dealer has served every player, the dealer last")
        if s.purchased[seat] is not None:
            return ("NAP-PUR-06", f"{who} has already bought {s.purchased[seat]} and may not change that")
        if seat != s.to_act:
            return (
                "NAP-PUR-05",
                f"the dealer serves each player in turn: it is {self.names[s.to_act]}'s turn, not {who}'s",
            )
        if unheld := self._unheld(action, who, "NAP-PUR-01"):
            return unheld
        if len(action.value) > 5:
            return ("NAP-PUR-03", f"{who} may buy at most five cards")
        left = len(self.stock) - s.stock_pos
        if len(action.value) > left:
            return ("AMB-41", f"only {left} cards are left in the pack, so {who} may buy no more than {left}")
        return None

    def _why_not_call(self, action: Action, who: str) -> tuple[str, str] | None:
        s = self._s
        seat = action.seat
        assert s.to_act is not None
        if action.verb == "purchase" and self.rules.purchase:
            return ("NAP-PUR-06", f"the purchases are over: {who} may not buy again")
        if action.verb == "exchange":
            return (
                "NAP-PEEP-05",
                "the peep card may be taken only when the calling is over, after every later "
                "player has had the chance to peep",
            )
        if action.verb not in ("call", "peep", "garnet"):
            return ("NAP-CALL-01", f"the calling comes first: {who} must call or pass, not {action.verb}")
        if seat != s.to_act:
            if s.calls[seat] is not None:
                return (
                    "NAP-CALL-03",
                    f"{who} has already called ({SPOKEN[s.calls[seat] or 'pass']}), and a call stands",
                )
            return (
                "NAP-CALL-01",
                f"the calling goes round from the eldest hand: it is {self.names[s.to_act]}'s turn, not {who}'s",
            )
        if action.verb == "peep":
            if not self.rules.peep:
                return ("NAP-PEEP-01", "this table does not play Peep Nap: there is no peep card")
            if s.peeped[seat]:
                return ("NAP-PEEP-02", f"{who} has already peeped")
            return None
        if action.verb == "garnet":
            if not self.rules.sir_garnet:
                return ("NAP-SG-01", "this table does not play Sir Garnet: there is no extra hand")
            if s.garnet_by is not None:
                return ("NAP-SG-02", f"{self.names[s.garnet_by]} has already taken the extra hand")
            if s.high >= NAP:
                return (
                    "NAP-SG-04",
                    "a Nap has been called, so the extra self, which binds its taker to call Nap, "
                    "can no longer be taken (AMB-38)",
                )
            if action.value:
                return (
                    "NAP-SG-02",
                    f"{who} takes the extra hand up first, unseen (an empty list), and throws out five cards after",
                )
            return None
        call = action.value
        if call not in CALL_RANK:
            return ("NAP-CALL-01", f"{call!r} is not a call; the calls are {', '.join(CALLS)}")
        options = self._call_options(seat)
        if call in options:
            return None
        high = CALLS[s.high]
        if call == "pass" and self._forced(seat):
            return ("NAP-CALL-04", f"everyone else has passed, so {who}, the dealer, must call at least one")
        if call == "wellington" and not self.rules.wellington:
            return ("NAP-WEL-01", "this table does not play Wellington")
        if call == "misery" and not self.rules.misery:
            return ("NAP-MIS-01", "this table does not play Misery")
        if call == "wellington" and s.high < NAP:
            return ("NAP-WEL-02", "Wellington may be called only over a Nap already called in this round")
        if CALL_RANK[call] <= s.high:
            law = "NAP-CALL-02" if s.high >= NAP and call == "nap" else "NAP-CALL-01"
            return (law, f"{who} must call higher than {SPOKEN[high]}, so {SPOKEN[call]} may not be called")
        return (
            "AMB-36",
            f"the lowest call agreed at this table is {self.rules.min_call}, so {who} may not call {SPOKEN[call]}",
        )

    def _tries(self, seat: int, legal: Sequence[Action]) -> Sequence[Action]:
        """In the calling every call (and a peep, and the legal ways to take Sir Garnet); in play, each card the
        seat holds; in the purchases and the exchange, the actions open to it."""
        s = self._s
        if s.phase is NapPhase.PLAY:
            return [Action(seat, "play", c) for c in s.holding[seat]]
        if s.phase is NapPhase.CALL:
            tries = [Action(seat, "call", c) for c in CALLS]
            tries.append(Action(seat, "peep", True))
            if self.rules.sir_garnet:
                tries.append(Action(seat, "garnet", ()))
            return tries
        return legal

    def _why_legal(self, action: Action) -> tuple[str, str]:
        s = self._s
        who = self.names[action.seat]
        verb = action.verb
        if verb == "call":
            call = action.value
            if call == "pass":
                return ("NAP-CALL-01", f"{who} may pass")
            if self._forced(action.seat):
                return ("NAP-CALL-04", f"everyone else passed, so {who} must call; one is the least")
            if call == "nap":
                return ("NAP-CALL-02", f"{who} may call Nap, undertaking to win all five tricks")
            if call == "wellington":
                return ("NAP-WEL-02", f"{who} may call Wellington over the Nap, at double Nap stakes")
            if call == "misery":
                return ("NAP-MIS-01", f"{who} may call Misery, undertaking to lose every trick")
            return ("NAP-CALL-01", f"{who} may raise to {SPOKEN[call]}, undertaking to win that many tricks")
        if verb == "peep":
            fee = self.rules.peep_fee * self.rules.unit
            return ("NAP-PEEP-02", f"{who} may look at the peep card for {fee} into the pool")
        if verb == "garnet" and not action.value:
            return ("NAP-SG-02", f"{who} may take up the extra self, and must then throw out five cards and call Nap")
        if verb == "garnet":
            return ("NAP-SG-03", f"{who} may throw out {names(action.value)} and play a Nap on the rest")
        if verb == "purchase":
            k = len(action.value)
            price = k * self.rules.purchase_price * self.rules.unit
            return ("NAP-PUR-03", f"{who} may buy {k} card{'s' if k != 1 else ''} for {price} into the pool")
        if verb == "exchange":
            if not action.value:
                return ("NAP-PEEP-03", f"{who} may keep their hand and leave the peep card")
            return ("NAP-PEEP-03", f"{who} may give up {action.value[0]} for the peep card")
        card = action.value
        if not s.current:
            if not s.tricks:
                return ("NAP-PLAY-01", f"{who} leads first, and the suit they lead, {card.suit.plural}, becomes trumps")
            return ("NAP-PLAY-04", f"{who} won the last trick and may lead {card}")
        led = s.current[0][1].suit
        if card.suit is led:
            return ("NAP-PLAY-02", f"{card} follows suit")
        return (
            "NAP-GEN-04",
            f"{who} cannot follow {led.plural}, so any card may be played: there is no duty to "
            "head the trick or to trump",
        )
