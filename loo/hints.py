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

from loo.core.actions import Action
from loo.core.protocols import View
from loo.core.spec import Advice, GameSpec
from loo.registry import UnknownGame, spec

__all__ = ["reason", "thumb_choice"]


# A view's game is read from its rules; only that game's package is imported (its bots and its advice):
# a table of one game holds no other game's bots and explanations (issue 21, a table kernel's memory).
def _spec(view: View) -> GameSpec | None:
    try:
        return spec(str(view.rules.game))
    except UnknownGame:
        return None


def thumb_choice(view: View) -> Action | None:
    """What the game's rule-of-thumb player would do in ``view`` (None for a game without one)."""
    found = _spec(view)
    return None if found is None else _thumb(found, view)


def _thumb(found: GameSpec, view: View) -> Action:
    return found.thumb().choose(view, random.Random(0))  # the rules of thumb draw nothing from it


def reason(view: View, choice: Action, *, describe: object = None, thumb_as_good: bool = False) -> str | None:
    """One sentence on why ``choice`` is sound in ``view``, or None where no rule of thumb speaks.

    Where the rule of thumb would choose otherwise, the sentence says so: that the sampled deals
    favour ``choice``, or, with ``thumb_as_good`` (the samples cannot tell the two apart), that the
    rule of thumb's choice is about as good. ``describe`` names an action in words (a callable
    ``Action -> str``; the action's own text if not given).
    """
    found = _spec(view)
    if found is None:
        return None
    advice = found.advice()
    if len(view.legal) == 1:
        return _only(view, choice, advice, found.piece)
    thumb = _thumb(found, view)
    if thumb != choice:
        name = describe(thumb) if callable(describe) else str(thumb)
        if thumb_as_good:
            return f"The usual rule of thumb would choose {name}; in the deals sampled here the two are about as good."
        return f"The usual rule of thumb would choose {name}, but in the deals sampled here this choice does better."
    return advice.reason(view, choice)


def _only(view: View, choice: Action, advice: Advice, piece: str) -> str:
    said = advice.only(view, choice)
    if said is not None:
        return said
    if choice.verb == "play" and len(view.hand or ()) > 1 and advice.followers(view) == 1:
        return f"You must follow the suit led, and this is your only {piece} of it ({advice.follow_law(view)})."
    if choice.verb == "play" and len(view.hand or ()) == 1:
        return f"It is your last {piece}: there is nothing to choose."
    return "It is the only choice the laws allow you now."
