"""What one seat may see of a hand of Loo, and why an action is or is not allowed: the law, and a
sentence in plain words.

The refusal of a card is the sentence for the law or duty that narrowed the choice, as
:meth:`loo.games.loo.hand.LooHand._duty` found it with the rule functions of :mod:`loo.games.loo.play`: the
explanation is derived from the rule, not a second test of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from loo.core.actions import Action
from loo.core.cards import CARDS, Card
from loo.core.hand import Phase, declaring_tries
from loo.core.laws import law as law_entry
from loo.core.tricks import Duty, WinnerLeadsTrump
from loo.games.loo.play import suit_of
from loo.games.loo.rules import Game
from loo.games.loo.state import DealKind, LooHandBase, SeatView
from loo.registry import entry

__all__ = ["Explaining"]


class Explaining(LooHandBase):
    """The views and explanations of :class:`loo.games.loo.hand.LooHand`: ``view``, ``why_illegal``, ``explain``
    and the refusals' sentences."""

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand from its turn to declare, and the public table."""
        s = self._s
        may_look = s.phase is not Phase.DECLARE or s.declared[seat] is not None or s.to_act == seat
        hand = tuple(s.holding[seat]) if may_look and self.dealt[seat] is not None else None
        if s.for_pool and seat == self.last:
            hand = tuple(s.holding[seat])  # the dealer chooses the miss's cards (AMB-05)
        return SeatView(
            **self._public(seat),
            turnup=self.turnup,  # shown to the whole table when it was turned, even if the dealer takes it
            hand=hand,
            deal_kind=self.deal_kind,
            turnup_taken=s.turnup_taken,
            civil_said=s.civil_said,
            put_out=tuple(s.put_out[seat]),
            declared=tuple(s.declared),
            miss_taken_by=s.miss_taken_by,
            for_pool=s.for_pool,
            exchanged=tuple(s.exchanged),
            hand_sizes=tuple(len(h) for h in s.holding),
            tricks=tuple(s.tricks),
            current=tuple(s.current),
            legal=tuple(self.legal_actions()) if s.to_act == seat else (),
            settlement=s.settlement,
            miss_left=len(self.miss) if self.miss_in_play and s.miss_taken_by is None and not s.for_pool else 0,
        )

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        """None if ``action`` is legal now, else (law ID, a plain sentence saying what the law requires)."""
        s = self._s
        offered = self._offered
        if offered is not None and offered[0] is s:
            for made in offered[1]:
                if made is action:
                    return None  # one of the actions legal_actions() offered for this very position
        tricks_law = "L5-GEN-03" if self.game is Game.FIVE_CARD else "L3-GEN-01"
        if s.phase is Phase.DONE:
            return (tricks_law, "the hand is over: no more actions can be taken")
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("L3-GEN-07", f"there is no seat {seat}")
        if seat != s.to_act:
            assert s.to_act is not None
            law = "L3-DECL-01" if s.phase is Phase.DECLARE else "L3-PEN-09" if s.phase is Phase.PLAY else "AMB-28"
            return (law, f"it is {self._who(s.to_act)}'s turn, not {self._who(seat)}'s")
        if s.phase is Phase.DECLARE:
            return self._why_not_declare(action)
        if s.phase is Phase.EXCHANGE:
            if action.verb != "exchange":
                return ("AMB-28", f"{self._who(seat)} must now choose cards to exchange (or none), not {action.verb}")
            hand = s.holding[seat]
            missing = [c for c in action.value if c not in hand]
            if missing:
                return ("L5-DECL-02", f"{self._who(seat)} does not hold {_list(missing)}")
            left = len(self.stock) - s.stock_pos
            if len(action.value) > left:
                return ("AMB-28", f"only {left} cards are left in the stock, so no more than {left} can be exchanged")
            return None
        if action.verb == "declare" and action.value == "throw":
            return ("L3-PLAY-08", f"once the first card is led, {self._who(seat)} may not throw up (L3-PEN-14)")
        if action.verb != "play":
            return ("L3-PLAY-01", f"the declarations are over: {self._who(seat)} must play a card, not {action.verb}")
        return self._why_not(seat, action.value)

    def _why_not_declare(self, action: Action) -> tuple[str, str] | None:
        seat = action.seat
        who = self._who(seat)
        if action.verb == "for-pool":
            if seat == self.last and self._dealer_may_for_pool():
                return None
            return self._why_not_for_pool(seat)
        if action.verb == "take-turnup":
            if seat != self.last or not self._may_take_turnup():
                return ("L5-OPT-02", "only the dealer may take the turn-up, and only when that option is agreed")
            if action.value not in self._s.holding[seat]:
                return ("L5-OPT-02", f"{who} does not hold {action.value} to discard for the turn-up")
            return None
        if action.verb != "declare":
            return ("L3-DECL-13", f"play begins only after every declaration: {who} must declare, not {action.verb}")
        options = self._declarations(seat)
        if action.value in options:
            return None
        what = action.value
        if self.club_law and what == "throw":
            return ("L3-CLUB-01", f"a club is turned up under Club Law, so everyone, {who} included, must play")
        if self.club_law and what == "miss":
            return ("L3-CLUB-02", "under Club Law the miss is withdrawn")
        if self.bold_stand and what == "throw":
            return ("L3-BOLD-01", "the pool holds only the dealer's stake: a Bold Stand, so everyone must play")
        if self.bold_stand and what == "miss" and self.miss:  # Irish Loo's Bold Stand has no miss (IRL-01)
            return ("L3-BOLD-02", "in a Bold Stand only the eldest hand may take the miss")
        if self.must and what == "throw":
            return ("L5-OPT-01", "Must: the pool holds only the dealer's stake, so everyone must play")
        if self.deal_kind is DealKind.FINAL:
            return ("L3-END-03", "on the last round everyone stands and there is no miss")
        if self.deal_kind is DealKind.SINGLE:
            return ("L3-SGL-09", "in this single there is no miss and every player must play")
        if what == "miss":
            if not self.miss:
                law = "IRL-01" if self.game is Game.IRISH else "L5-DECL-02"
                return (law, f"there is no miss in {entry(self.game.value).in_text}")
            return ("L3-DECL-05", f"the miss has already been taken by {self._who(self._s.miss_taken_by or 0)}")
        if what == "throw" and seat == self.last:
            return (
                "L3-DLR-03",
                "the dealer may not give up here: they must stand, take the miss, or play it for the pool",
            )
        return ("L3-DECL-01", f"{who} may not declare {what!r} here")

    def _why_not_for_pool(self, seat: int) -> tuple[str, str]:
        """L3-DLR-03: why the miss may not be played for the pool now, naming what is missing."""
        if not self.miss:
            law = "IRL-01" if self.game is Game.IRISH else "L5-DECL-02"
            return (law, f"there is no miss in {entry(self.game.value).in_text}, so none is played for the pool")
        if seat != self.last:
            who = self._who(seat)
            return ("L3-DLR-03", f"only the dealer may play the miss for the pool, and {who} is not the dealer")
        if self._s.miss_taken_by is not None:
            taker = self._who(self._s.miss_taken_by)
            return ("L3-DLR-04", f"{taker} has taken the miss, so it is not there to play for the pool")
        return (
            "L3-DLR-03",
            "the dealer plays the miss for the pool only when a single player before them stands, "
            "on their own cards, and the miss is untaken (L3-DLR-02)",
        )

    def _why_not(self, seat: int, card: Card) -> tuple[str, str] | None:
        """None if ``seat`` may play ``card`` now, else (law ID, plain reason): the choices and the duty
        come from :meth:`_duty`, and the reason is the sentence that duty gives for the refused card."""
        s = self._s
        hand = s.holding[seat]
        who = self._who(seat)
        if card not in hand:
            return ("L3-PLAY-01", f"{who} does not hold {card}")
        held = [c.index for c in hand]
        choices, duty = self._duty(held)
        if card.index in choices:
            return None
        if not s.current:
            assert isinstance(duty, str)
            return (duty, self._lead_refusal(who, card, duty, held, choices))
        led_card = s.current[0][1]
        led = self._suit(led_card)
        if card == self.pam_card and len(hand) > 1 and self._civil_applies(led_card):
            # AMB-26: Pam may not be played to a led ace of trumps, unless it is the only card left;
            # then it is played, and lets the ace win (_trick_power).
            return ("L5-RANK-05", f"Pam be civil: {who} may not play Pam when the ace of trumps is led (AMB-26)")
        winner_card = self._winning_card()
        if duty is Duty.FOLLOW or duty is Duty.HEAD:
            civil = len(hand) > 1 and self._civil_applies(led_card)
            follow = [c for c in hand if self._suit(c) is led and not (civil and c == self.pam_card)]
            if card not in follow:
                return (
                    "L3-PLAY-02",
                    f"{who} must follow suit: {who} holds {_list(follow)}, so {card} may not be played",
                )
            higher = [CARDS[c] for c in choices]
            return (
                "L3-PLAY-03",
                f"{who} must head the trick: {_list(higher)} beat{'s' if len(higher) == 1 else ''} "
                f"{winner_card}, so {card} may not be played",
            )
        if duty is Duty.OVERTRUMP:
            beating = [CARDS[c] for c in choices]
            return (
                "L3-PLAY-04",
                f"{who} cannot follow {led.plural} and must head the trick with a trump: "
                f"{_list(beating)} beat{'s' if len(beating) == 1 else ''} {winner_card}, "
                f"so {card} may not be played",
            )
        assert duty is Duty.TRUMP, f"{card} refused under {duty}"
        return ("L3-PLAY-04", f"{who} cannot follow {led.plural} and must trump, so {card} may not be played")

    def _lead_refusal(self, who: str, card: Card, law: str, held: list[int], choices: list[int]) -> str:
        """Why ``card`` may not be led: the sentence for the law of the lead that narrowed the choice
        (L3-LEAD-03..06 on the first trick, L3-LEAD-10 on the second)."""
        if law == "L3-LEAD-03":
            return f"{who} holds the ace of trumps and must lead it, so {card} may not be led"
        if law == "L3-LEAD-04":
            return f"the ace of trumps is turned up, so {who} must lead the king of trumps, not {card}"
        if law == "L3-LEAD-05":
            trumps = sum(1 for c in held if suit_of(c, self._trump, self._pam) == self._trump)
            return f"{who} holds {trumps} trumps and must lead the highest, {CARDS[choices[0]]}, not {card}"
        if law == "L3-LEAD-06":
            return f"{who} holds {len(choices)} trumps and must lead one of them, not {card}"
        if self.rules.winner_must_lead_trump is WinnerLeadsTrump.HIGHER:
            return f"{who} won the first trick and holds a trump, so must lead the highest trump, {CARDS[choices[0]]}"
        return f"{who} won the first trick and holds a trump, so must lead a trump, not {card}"

    def _tries(self, seat: int, legal: Sequence[Action]) -> Sequence[Action]:
        """In the declarations each declaration (and what else is legal); in play, each card the seat holds."""
        if self._s.phase is Phase.PLAY:
            return [Action(seat, "play", c) for c in self._s.holding[seat]]
        if self._s.phase is Phase.DECLARE:
            return declaring_tries(seat, legal, Action)
        return legal

    def _why_legal(self, action: Action) -> tuple[str, str]:
        s = self._s
        who = self._who(action.seat)
        if action.verb == "declare":
            law = {"stand": "L3-DECL-02", "miss": "L3-DECL-03", "throw": "L3-DECL-06"}[action.value]
            if self.all_must_play and action.value == "stand":
                return ("L3-CLUB-01" if self.club_law else "L3-BOLD-01", f"{who} must play this hand")
            text = {
                "stand": "keep these cards and play",
                "miss": "take the miss, unseen, in place of these cards",
                "throw": "throw up, neither paying nor receiving this hand",
            }[action.value]
            return (law, f"{who} may {text}")
        if action.verb == "for-pool":
            return ("L3-DLR-03", "the dealer may play the miss for the pool; its winnings stay in the pool")
        if action.verb == "take-turnup":
            return ("L5-OPT-02", f"the dealer may take the turn-up and discard {action.value}")
        if action.verb == "exchange":
            n = len(action.value)
            return ("L5-DECL-02", f"{who} may exchange {n} card{'s' if n != 1 else ''} from the stock")
        card = action.value
        if s.current and card == self.pam_card and self._civil_applies(s.current[0][1]):
            return ("AMB-26", f"Pam is {who}'s last card, so they play it; being civil, it lets the ace of trumps win")
        if not s.current:
            # A lead is free (L3-LEAD-08) unless a duty binds this holding: then the law that
            # refuses the other cards is the law that makes this one the card to lead.
            holding = s.holding[action.seat]
            choices, duty = self._duty([c.index for c in holding])
            if duty is not None and any(other != card and other.index not in choices for other in holding):
                rule = law_entry(str(duty)).statement
                return (str(duty), f"{who} must lead {card} here: {rule[:1].lower()}{rule[1:]}")
            return ("L3-LEAD-08", f"{who} may lead {card}")
        led = self._suit(s.current[0][1])
        if self._suit(card) is led:
            return ("L3-PLAY-02", f"{card} follows suit")
        return ("L3-PLAY-05", f"{who} cannot follow {led.plural}, so {card} may be played")


def _list(cards: Sequence[Card]) -> str:
    names = [str(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
