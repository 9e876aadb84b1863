"""Asking before a choice that replaces the game in play, and offering to undo it after.

*New game* (beside *Next hand*) and *Play this deal* (under the table) each start a new game, and the
game in play goes with its ledger. :class:`Replacing` puts a line in the page under the button
that asks first, saying what would go (the hand in play, the finished hands and where the reader
stands), unless nothing would; once the game is replaced it says so, with a button that brings the
old game back as it was (:meth:`widgets.table.saving.SavingTable.restore_replaced`), saved as well on the
server or in the browser. The old game is kept until the reader's first move in the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as ipw

from loo.core.protocols import PointsGame
from widgets.views.safety import guarded
from widgets.views.shared import lean

REPLACED = "Game replaced."


def at_stake(model: Any) -> str:
    """What a new game would put away, in words ("" when nothing would: no move made, no hand finished)."""
    game = model.table_game
    hands = len(game.results)
    parts = []
    if model.can_undo:  # the reader has moved in the hand in play
        parts.append("the hand in play")
    if hands:
        you = model.names[model.seat]
        if isinstance(game, PointsGame):
            where = f"you have {game.scores.get(you, 0)} points"
        else:
            where = f"you stand at {model.balances().get(you, 0):+d} chips"
        parts.append(f"the ledger of {hands} finished hand{'s' if hands != 1 else ''} ({where})")
    return " and ".join(parts)


def _row(children: list[ipw.Widget], cls: str) -> ipw.HBox:
    # a layout of its own: the row is shown and hidden through it
    layout = ipw.Layout(flex_flow="row wrap", align_items="center", display="none")
    return lean(ipw.HBox, children, layout=layout, _dom_classes=[cls])


class Replacing(ipw.VBox):  # type: ignore[misc]
    """The line that asks before the game is replaced, and the line that offers to undo it."""

    def __init__(self, model: Any, say: Callable[[str], None]) -> None:
        self.model = model
        self._say = say
        self._then: Callable[[], bool] | None = None
        self._mine = False  # this line replaced the game: its undo is offered here
        self._rows: tuple[ipw.HBox, ipw.HBox] | None = None  # made when first needed: a table opens lighter
        super().__init__([], _dom_classes=["loo-replacing"])
        model.observe(guarded(say)(lambda _change: self._update()), names=["version"])

    def _made(self) -> tuple[ipw.HBox, ipw.HBox]:
        if self._rows is None:
            say = self._say
            self._asked = lean(ipw.HTML)
            self._yes = lean(ipw.Button, button_style="danger", _dom_classes=["loo-replace-yes"])
            self._no = lean(
                ipw.Button, description="Keep playing", tooltip="Go back to this game", _dom_classes=["loo-replace-no"]
            )
            self._done = lean(ipw.HTML, f'<span class="loo-replaced-words" role="status">{REPLACED}</span>')
            self._undo = lean(
                ipw.Button,
                description="Undo",
                tooltip="Bring back the game you were playing, as it was",
                button_style="primary",
                _dom_classes=["loo-replace-undo"],
            )
            self._yes.on_click(guarded(say)(lambda _b: self._confirmed()))
            self._no.on_click(guarded(say)(lambda _b: self._show(asking=False)))
            self._undo.on_click(guarded(say)(lambda _b: self._restore()))
            self._rows = (
                _row([self._asked, self._yes, self._no], "loo-replace-ask"),
                _row([self._done, self._undo], "loo-replace-undone"),
            )
            self.children = self._rows
        return self._rows

    @property
    def ask_row(self) -> ipw.HBox:
        """The line that asks (hidden until a choice would replace the game)."""
        return self._made()[0]

    @property
    def undo_row(self) -> ipw.HBox:
        """The line that says the game was replaced, with its Undo (hidden until then)."""
        return self._made()[1]

    def ask(self, what: str, yes: str, then: Callable[[], bool]) -> None:
        """Before ``then`` (which replaces the game): ask, in the page, saying ``what`` it does and what
        would go, with ``yes`` on the button that does it; at once if nothing would go."""
        lost = at_stake(self.model)
        self._made()
        self._then = then
        if not lost:
            self._confirmed()
            return
        self._asked.value = (
            f'<span class="loo-replace-words" role="alert">{escape(what)}? This game goes: '
            f"{escape(lost)}. You can undo it just after. </span>"
        )
        self._yes.description, self._yes.tooltip = yes, f"{what} now"
        self._show(asking=True)

    def _show(self, *, asking: bool = False, undo: bool = False) -> None:
        self._made()
        self.ask_row.layout.display = None if asking else "none"
        self.undo_row.layout.display = None if undo else "none"

    def _confirmed(self) -> None:
        then, self._then = self._then, None
        self._show()
        if then is not None and then():
            self._mine = True
            self._update()

    def _restore(self) -> None:
        self._mine = False
        self._show()
        self.model.restore_replaced()
        self._say(self.model.message)

    def _update(self) -> None:
        self._mine = self._mine and self.model.can_restore
        if self._mine:
            self._show(undo=True)
        elif self._rows is not None and self.undo_row.layout.display is None:
            self._show()
