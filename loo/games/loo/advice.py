"""Loo's words for the hints (:mod:`loo.hints`): the sources' advice behind a choice, with its law."""

from __future__ import annotations

from loo.core.actions import Action
from loo.core.cards import Card, Rank, Suit
from loo.core.spec import Advice, fixed_words
from loo.games.loo.bots import _pam_card, _power, _suit, _trumps
from loo.games.loo.rules import Game
from loo.games.loo.state import SeatView

# The advice that does not depend on the position, by verb (and value).
WORDS = {
    "declare throw": (
        "A hand with no high trump, no two trumps and no ace is likely to be looed, "
        "and throwing up costs nothing (L3-DECL-06, L3-LOO-04)."
    ),
    "declare miss": (
        "A weak hand is worth changing for the miss while few players have struck in (L3-DECL-03, L3-ADV-02)."
    ),
    "for-pool": "Playing the miss for the pool risks no loo for the dealer (L3-DLR-03).",
    "exchange": "Keep Pam, trumps, aces and kings; change the low plain cards for new ones (L5-DECL-02).",
    "take-turnup": "The turn-up is a trump: taking it for your weakest card makes a stronger hand (L5-OPT-02).",
}


def reason(view: SeatView, choice: Action) -> str | None:
    cards = list(view.hand or ())
    trump = view.turnup.suit if view.turnup is not None else None
    pam = _pam_card(view.rules, trump)
    trumps = _trumps(cards, trump, pam)
    if choice.verb == "declare" and choice.value == "stand":
        if pam is not None and pam in cards:
            return "Pam beats every other card, so she is sure of a trick: stand (L5-RANK-01)."
        if len(trumps) >= 2:
            return "Two trumps should take a trick, so standing is worth the risk of a loo (L3-DECL-02)."
        high = [c for c in trumps if c.rank >= Rank.TEN]
        if high:
            return f"The {high[0].name} is a high trump that should take a trick: stand (L3-DECL-02)."
        if any(c.rank is Rank.ACE for c in cards):
            return "An ace has a fair chance of a trick, so stand (L3-DECL-02)."
        return "You may not throw this hand up, so you must play it."
    if choice.verb == "play" and isinstance(choice.value, Card):
        return _play(view, choice.value, trump, pam)
    return fixed_words(WORDS, choice)


def _play(view: SeatView, card: Card, trump: Suit | None, pam: Card | None) -> str:
    if not view.current:
        return "Leading your strongest card gives it the best chance of taking the trick (L3-LEAD-08)."
    led = _suit(view.current[0][1], trump, pam)
    if _power(card, led, trump, pam) > max(_power(c, led, trump, pam) for _, c in view.current):
        return "The lowest card that wins the trick is enough: the law asks only that you head it (L3-PLAY-06)."
    return "None of your cards can win this trick, so keep the better ones and play your lowest."


def followers(view: SeatView) -> int | None:
    if not view.current or view.hand is None or view.turnup is None:
        return None
    trump, pam = view.turnup.suit, _pam_card(view.rules, view.turnup.suit)
    led = _suit(view.current[0][1], trump, pam)
    return sum(1 for c in view.hand if _suit(c, trump, pam) is led)


def follow_law(view: SeatView) -> str:
    return "L5-PLAY-02" if view.rules.game is Game.FIVE_CARD else "L3-PLAY-02"


def only(view: SeatView, choice: Action) -> str | None:
    """The first leader's duty to lead a trump (L3-LEAD-03/05), and to head a trick (L3-PLAY-03)."""
    if choice.verb != "play":
        return None
    if not view.tricks and not view.current:
        trump = view.turnup.suit if view.turnup is not None else None
        if trump is not None and choice.value == Card(Rank.ACE, trump):
            return "The law makes a first leader who holds the ace of trumps lead it (L3-LEAD-03)."
        if trump is not None and isinstance(choice.value, Card) and choice.value.suit is trump:
            return "The law makes the first leader lead a trump here, and this is the one allowed (L3-LEAD-05)."
    following = followers(view)
    if len(view.hand or ()) > 1 and following is not None and following > 1:
        return "Of your cards in the suit led, only this one heads the trick, as the law requires (L3-PLAY-03)."
    return None


ADVICE = Advice(reason=reason, followers=followers, follow_law=follow_law, only=only)
