"""The one-line reason a hint gives, in plain words, where a rule of thumb from the sources applies.

The sampling player weighs every choice by playing it out; :func:`reason` says, for the choice it
made, which piece of the sources' advice (or plain card sense) points the same way, with the law's
ID. When the rule of thumb would choose otherwise the reason says so: the samples found the usual
advice wanting in this position, and that is worth a reader's notice.

>>> import random
>>> from loo.games.loo.hand import LooHand
>>> from loo.games.loo.rules import Rules
>>> view = LooHand.deal(Rules.preset("peel"), random.Random(4), seats=5, dealer=4, pool=3).view(0)
>>> view.hand, view.turnup
((Card.parse('KH'), Card.parse('4H'), Card.parse('QH')), Card.parse('8H'))
>>> reason(view, thumb_choice(view))
'Two trumps should take a trick, so standing is worth the risk of a loo (L3-DECL-02).'
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, TypeGuard

from loo.actions import Action
from loo.cards import Card, Rank, Suit
from loo.core.protocols import View
from loo.games.loo.bots import ThumbBot, _pam_card, _power, _suit, _trumps
from loo.games.loo.rules import Game
from loo.games.loo.state import SeatView
from loo.tiles import NUMBER_PLURALS, Tile

if TYPE_CHECKING:
    from loo.games.dominoes.state import DominoView
    from loo.games.nap.state import NapView

__all__ = ["reason", "thumb_choice"]

_NAP_CALLS = {"1": "one", "2": "two", "3": "three", "4": "four", "nap": "Nap", "wellington": "Wellington"}


# Nap's and the dominoes' modules are imported only for a view of their game: a table of one game
# holds no other game's bots and explanations (issue 21, a table kernel's memory). No view of a
# game can exist before its state module is imported, so a module not yet imported answers no.
def _is_nap(view: View) -> TypeGuard[NapView]:
    state = sys.modules.get("loo.games.nap.state")
    return state is not None and isinstance(view, state.NapView)


def _is_domino(view: View) -> TypeGuard[DominoView]:
    state = sys.modules.get("loo.games.dominoes.state")
    return state is not None and isinstance(view, state.DominoView)


def thumb_choice(view: View) -> Action | None:
    """What the game's rule-of-thumb player would do in ``view`` (None for a game without one)."""
    rng = random.Random(0)  # the rules of thumb draw nothing from it
    if isinstance(view, SeatView):
        return ThumbBot().choose(view, rng)
    if _is_nap(view):
        from loo.games.nap.bots import NapThumbBot

        return NapThumbBot().choose(view, rng)
    if _is_domino(view):
        from loo.games.dominoes.bots import DominoThumbBot

        return DominoThumbBot().choose(view, rng)
    return None


def reason(view: View, choice: Action, *, describe: object = None, thumb_as_good: bool = False) -> str | None:
    """One sentence on why ``choice`` is sound in ``view``, or None where no rule of thumb speaks.

    Where the rule of thumb would choose otherwise, the sentence says so: that the sampled deals
    favour ``choice``, or, with ``thumb_as_good`` (the samples cannot tell the two apart), that the
    rule of thumb's choice is about as good. ``describe`` names an action in words (a callable
    ``Action -> str``; the action's own text if not given).
    """
    if len(view.legal) == 1:
        return _only(view, choice)
    thumb = thumb_choice(view)
    if thumb is None:
        return None
    if thumb != choice:
        name = describe(thumb) if callable(describe) else str(thumb)
        if thumb_as_good:
            return f"The usual rule of thumb would choose {name}; in the deals sampled here the two are about as good."
        return f"The usual rule of thumb would choose {name}, but in the deals sampled here this choice does better."
    if isinstance(view, SeatView):
        return _loo(view, choice)
    if _is_nap(view):
        return _nap(view, choice)
    if _is_domino(view):
        return _domino(view, choice)
    return None  # pragma: no cover - thumb_choice knows no other view


def _only(view: View, choice: Action) -> str:
    if choice.verb == "play" and not view.tricks and not view.current and isinstance(view, SeatView):
        trump = view.turnup.suit if view.turnup is not None else None
        if trump is not None and choice.value == Card(Rank.ACE, trump):
            return "The law makes a first leader who holds the ace of trumps lead it (L3-LEAD-03)."
        if trump is not None and isinstance(choice.value, Card) and choice.value.suit is trump:
            return "The law makes the first leader lead a trump here, and this is the one allowed (L3-LEAD-05)."
    followers = _followers(view)
    if choice.verb == "play" and len(view.hand or ()) > 1 and followers is not None:
        law = "NAP-PLAY-02" if _is_nap(view) else "DL-PLAY-01" if _is_domino(view) else "L3-PLAY-02"
        if isinstance(view, SeatView) and view.rules.game is Game.FIVE_CARD:
            law = "L5-PLAY-02"
        if followers == 1:
            piece = "tile" if _is_domino(view) else "card"
            return f"You must follow the suit led, and this is your only {piece} of it ({law})."
        if isinstance(view, SeatView) and followers > 1:
            return "Of your cards in the suit led, only this one heads the trick, as the law requires (L3-PLAY-03)."
    if choice.verb == "play" and len(view.hand or ()) == 1:
        return f"It is your last {'tile' if _is_domino(view) else 'card'}: there is nothing to choose."
    return "It is the only choice the laws allow you now."


def _followers(view: View) -> int | None:
    """How many of the seat's pieces follow the suit led to the trick in progress (None: no trick)."""
    if not view.current or view.hand is None:
        return None
    if isinstance(view, SeatView) and view.turnup is not None:
        trump, pam = view.turnup.suit, _pam_card(view.rules, view.turnup.suit)
        led = _suit(view.current[0][1], trump, pam)
        return sum(1 for c in view.hand if _suit(c, trump, pam) is led)
    if _is_nap(view):
        return sum(1 for c in view.hand if c.suit is view.current[0][1].suit)
    if _is_domino(view) and view.led is not None:
        from loo.games.dominoes.suits import follows

        return sum(1 for t in view.hand if follows(t, view.led, view.trump))
    return None


# ----- Loo ------------------------------------------------------------------------------------------


def _loo(view: SeatView, choice: Action) -> str | None:
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
    if choice.verb == "declare" and choice.value == "throw":
        return (
            "A hand with no high trump, no two trumps and no ace is likely to be looed, "
            "and throwing up costs nothing (L3-DECL-06, L3-LOO-04)."
        )
    if choice.verb == "declare" and choice.value == "miss":
        return "A weak hand is worth changing for the miss while few players have struck in (L3-DECL-03, L3-ADV-02)."
    if choice.verb == "for-pool":
        return "Playing the miss for the pool risks no loo for the dealer (L3-DLR-03)."
    if choice.verb == "exchange":
        return "Keep Pam, trumps, aces and kings; change the low plain cards for new ones (L5-DECL-02)."
    if choice.verb == "take-turnup":
        return "The turn-up is a trump: taking it for your weakest card makes a stronger hand (L5-OPT-02)."
    if choice.verb == "play" and isinstance(choice.value, Card):
        return _loo_play(view, choice.value, trump, pam)
    return None


def _loo_play(view: SeatView, card: Card, trump: Suit | None, pam: Card | None) -> str:
    if not view.current:
        return "Leading your strongest card gives it the best chance of taking the trick (L3-LEAD-08)."
    led = _suit(view.current[0][1], trump, pam)
    if _power(card, led, trump, pam) > max(_power(c, led, trump, pam) for _, c in view.current):
        return "The lowest card that wins the trick is enough: the law asks only that you head it (L3-PLAY-06)."
    return "None of your cards can win this trick, so keep the better ones and play your lowest."


# ----- Nap --------------------------------------------------------------------------------------------


def _nap(view: NapView, choice: Action) -> str | None:
    from loo.games.nap.bots import best_trump, three_handed_nap
    from loo.games.nap.rules import TRICKS_NEEDED
    from loo.games.nap.state import NapPhase

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
            words = _NAP_CALLS.get(str(choice.value), str(choice.value))
            forced = " (the dealer must call at least one, NAP-CALL-04)" if choice.value == "1" else ""
            return f"Call by the tricks you can count: your hand counts {count}, so call {words}{forced}."
        return None
    if view.phase is NapPhase.PURCHASE:
        return "Keep your best suit and your aces, and buy new cards for the rest."
    if view.phase is not NapPhase.PLAY or not isinstance(choice.value, Card):
        return None
    card = choice.value
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


# ----- Domino Loo and Rounce --------------------------------------------------------------------------


def _domino(view: DominoView, choice: Action) -> str | None:
    from loo.games.dominoes.bots import _is_strong as _domino_strong

    trump = view.trump
    if choice.verb == "declare" and choice.value == "stand":
        if _domino_strong(view.hand, trump):
            return (
                f"Two trumps, a high trump or a trump with a high double should take a trick: "
                f"play your tiles ({NUMBER_PLURALS[trump]} are trumps, DL-DECL-01)."
            )
        return "You may not drop out here, so you must play your tiles."
    if choice.verb == "declare" and choice.value == "miss":
        return "A weak hand is worth changing for the miss (DL-DECL-02)."
    if choice.verb == "declare" and choice.value == "throw":
        return "A weak hand is likely to be looed, and dropping out costs nothing (DL-DECL-05)."
    if choice.verb == "for-pool":
        return "Against a lone miss a weak dealer plays for the pool: he cannot be looed (DL-DLR-03)."
    if choice.verb == "take-turnup":
        return "The turn-up is a trump: taking it for your weakest tile makes a playing hand (DL-DLR-01)."
    if choice.verb == "exchange":
        return "From a dummy keep the five best tiles and discard the weakest (AMB-52)."
    if choice.verb == "play" and isinstance(choice.value, Tile):
        if not view.current:
            return "Lead the tile that the fewest unseen tiles can beat, calling its strongest suit (DL-LEAD-04)."
        return "Win as cheaply as you can, else play your weakest tile: nobody must beat the trick (DL-PLAY-04)."
    return None
