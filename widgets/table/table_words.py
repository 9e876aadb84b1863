"""Small words of a live table: which choices a table has at all, and a law cited once, in one pair of brackets.

A choice the rules at a table leave out (the miss at five-card Loo, Misery where the table does not
play it) is not a choice the reader has "not now": it is no choice at all, and the table does not
list it. A choice that exists but is closed now (the miss already taken, throwing up in a Bold
Stand) is listed with its reason.
"""

from __future__ import annotations

from loo.core.actions import Action
from loo.core.laws import cite
from loo.core.protocols import DeclaringView, MissView, View
from loo.registry import spec

__all__ = ["cited", "offered"]


def offered(action: Action, view: View) -> bool:
    """Whether ``action`` is a choice this table has in this hand at all (closed now or not).

    Loo's miss exists in a hand that deals one (not at Pam or Irish Loo, nor in a single or the
    last round); Nap's Misery, Wellington, peep, Sir Garnet and purchase where the rules play them.
    """
    rules = view.rules
    if action.verb == "declare" and action.value == "miss" and isinstance(view, MissView):
        taken = isinstance(view, DeclaringView) and ("miss" in view.declared or view.for_pool)
        return view.miss_left > 0 or taken
    return spec(str(rules.game)).offered(rules, action)


def cited(law_id: str) -> str:
    """A law and its sources, for one pair of brackets: ``L3-PLAY-02: Peel p.20; Enquire Within §98.i``."""
    law_and_sources = cite(law_id)  # "L3-PLAY-02 (Peel p.20; ...)"
    law, _, sources = law_and_sources.partition(" (")
    return f"{law}: {sources.removesuffix(')')}" if sources else law
