"""Nap's words for the hints (:mod:`loo.hints`): the sources' advice behind a choice, with its law."""

from __future__ import annotations

from loo.core.actions import Action
from loo.core.cards import Card
from loo.core.spec import Advice
from loo.games.nap.bots import best_trump, three_handed_nap
from loo.games.nap.rules import TRICKS_NEEDED
from loo.games.nap.state import NapPhase, NapView

CALL_WORDS = {"1": "one", "2": "two", "3": "three", "4": "four", "nap": "Nap", "wellington": "Wellington"}


def reason(view: NapView, choice: Action) -> str | None:
    players = len(view.names)
    if view.phase is NapPhase.CALL:
        hand = list(view.hand)
        suit, tricks = best_trump(hand, players)
        count = f"about {tricks:.1f} tricks with {suit.plural} as trumps"
        if choice.verb == "peep":
            return "A hand near a call, or a Nap called before you, makes the peep worth its price (NAP-PEEP-06)."
        if choice.verb == "garnet":
            return "Five more cards to choose from can make a fair hand into a likely Nap (NAP-SG-02)."
        if choice.value in ("nap", "wellington"):
            if players <= 3 and three_handed_nap(hand):
                return "The sources' advice for three players says this hand is strong enough for Nap (NAP-STR-01)."
            return f"Your hand counts {count}: enough to try for all five."
        if choice.value == "misery":
            return "Low cards throughout: a hand that should lose every trick, as Misery asks."
        if choice.value == "pass":
            return f"Your hand counts {count}, fewer than any call open to you: pass."
        if choice.value in TRICKS_NEEDED:
            words = CALL_WORDS.get(str(choice.value), str(choice.value))
            forced = " (the dealer must call at least one, NAP-CALL-04)" if choice.value == "1" else ""
            return f"Call by the tricks you can count: your hand counts {count}, so call {words}{forced}."
        return None
    if view.phase is NapPhase.PURCHASE:
        return "Keep your best suit and your aces, and buy new cards for the rest."
    if view.phase is not NapPhase.PLAY or not isinstance(choice.value, Card):
        return None
    return _play(view, choice.value)


def _play(view: NapView, card: Card) -> str:
    if view.call == "misery":
        if view.seat == view.caller and not view.current:
            return "In Misery lead the lowest card of your shortest suit (NAP-MIS-06)."
        if view.seat == view.caller:
            return "In Misery play the highest card that still loses the trick."
        return "Against Misery, never take a trick off the caller; shed your high cards when you can (NAP-STR-06)."
    if view.seat == view.caller:
        if not view.current and view.trump is not None and card.suit is view.trump:
            return "As the caller, draw trumps from the top so the others cannot trump your winners."
        if not view.current and not view.tricks:
            return "The first lead makes trumps: lead the top of your best suit (NAP-PLAY-01)."
        return "Win as cheaply as you can, else throw your least useful card."
    if not view.current:
        if view.trump is not None and card.suit is view.trump:
            return "The caller needs only one more trick: lead trumps against him (NAP-STR-04)."
        return "Leave trumps alone against the caller, and lead where he is weakest (NAP-STR-04)."
    return "Win cheaply when you can; otherwise discard from your shortest, weakest suit (NAP-STR-05)."


def followers(view: NapView) -> int | None:
    if not view.current or view.hand is None:
        return None
    return sum(1 for c in view.hand if c.suit is view.current[0][1].suit)


ADVICE = Advice(reason=reason, followers=followers, follow_law=lambda view: "NAP-PLAY-02")
