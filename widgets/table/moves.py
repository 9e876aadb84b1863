"""The moves of the latest change at a live table, each with what the reader's seat saw after it.

A reader's click makes the engine take the reader's action and then every computer player's, up
to the reader's next turn, at once (:meth:`widgets.table.model.TableModel.act`). The table is not drawn
only at the end: :mod:`widgets.views.pacing` lays the moves out one by one, at the reader's pace. To do
so it needs each move with the reader's own view after it, and nothing more: a view holds only
what the reader's seat may know, so pacing the moves shows no hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass

from loo.core.actions import Action
from loo.core.protocols import Hand, TrickRecord, View


@dataclass(frozen=True)
class Move:
    """One action as the reader saw it: the action, whether it led a trick, the trick it finished
    (if any) and the reader's view just after it."""

    action: Action
    leading: bool
    won: TrickRecord | None
    view: View


def push_move(hand: Hand, seat: int, action: Action) -> Move:
    """Take ``action`` in ``hand`` (the engine checks it, and raises as :meth:`Hand.push` does) and
    return it as a :class:`Move` seen from ``seat``."""
    leading, tricks = not hand.current_trick, len(hand.tricks)
    hand.push(action)
    won = hand.tricks[-1] if len(hand.tricks) > tricks else None
    return Move(action, leading, won, hand.view(seat))
