"""Watching the play at a live table: the widgets that show the computer players' moves one by one,
the trick just won and the last trick, the finished hand, and say each move for a screen reader.

:class:`Watching` belongs to a :class:`~widgets.table_view.TableView`: the view lays its widgets
out and calls it on every change of the model. It lays the change's moves out through a
:class:`~widgets.pacing.Pacer`; between moves the reader's cards show as they stand, not to be
played yet, and a button shows the rest at once. Every drawing here is of a view of the reader's
own seat, or of a hand already over, so no hidden card reaches the page.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import ipywidgets as ipw

from loo.cards import Card
from loo.core.protocols import TrickRecord, View
from widgets.board import pam_card, piece_name
from widgets.card_style import card_class, tile_class
from widgets.hand_summary import summary_html
from widgets.moves import Move
from widgets.pacing import DEFAULT_PACE, PACES, Pacer, move_words, trick_html
from widgets.round_table import round_board_html
from widgets.safety import guarded
from widgets.shared import lean

if TYPE_CHECKING:
    from widgets.table_view import TableView

PACE_TIPS = {
    "Slow": "The computer players' moves shown one by one, slowly",
    "Normal": "The computer players' moves shown one by one",
    "Faster": "The computer players' moves shown one by one, quickly",
    "Instant": "The computer players' moves all shown at once",
}
NO_TRICK = "No trick has been finished in this hand yet."


class Watching:
    """The moves of each change shown in turn, the trick just won, the last trick (key L), the finished
    hand, and the live region that says each move."""

    def __init__(self, view: TableView) -> None:
        self.view = view
        self.trick = lean(ipw.HTML, _dom_classes=["loo-trick-panel"])
        self.spoken = lean(ipw.HTML, _dom_classes=["loo-announce"])
        self.summary = lean(ipw.HTML, _dom_classes=["loo-hand-summary"])
        self.last = lean(
            ipw.ToggleButton,
            value=False,
            description="Last trick",
            tooltip="Show the last trick played and who won it (key L)",
            _dom_classes=["loo-last"],
        )
        self.pace = lean(
            ipw.ToggleButtons,
            options=list(PACES),
            value=DEFAULT_PACE,
            description="Pace",
            tooltips=[PACE_TIPS[name] for name in PACES],
            _dom_classes=["loo-pace"],
        )
        self.skip = lean(
            ipw.Button,
            description="Show the rest now",
            tooltip="Show the computer players' moves at once",
            button_style="primary",
            _dom_classes=["loo-show-rest"],
        )
        self.pacer = Pacer(self._draw, view._render, self._say)
        self._won: tuple[TrickRecord, int] | None = None  # the trick last won in the moves shown, and its number
        self._frame: View | None = None  # the view of the move shown, while moves are laid out
        say = view.say
        self.skip.on_click(guarded(say)(lambda _b: self.finish()))
        self.last.observe(guarded(say)(lambda _change: self._toggle_last()), names=["value"])
        self.pace.observe(guarded(say)(lambda change: self._set_pace(change["new"])), names=["value"])

    # ----- the model changed --------------------------------------------------------------------

    def changed(self) -> None:
        """Lay out the moves of the model's latest change (the table as it stands if there are none)."""
        model = self.view.model
        moves = model.moves
        self._frame = None
        won = [(m.won, len(m.view.tricks)) for m in moves if m.won is not None]
        self._won = won[-1] if won else None  # shown at once, or trick by trick as the moves are laid out
        words = [move_words(m, model.names, model.game) for m in moves]
        self.pacer.show(moves, words)

    def finish(self) -> None:
        """Show the moves still to come at once (a click or a key while they are laid out)."""
        self.pacer.finish()

    def _set_pace(self, name: str) -> None:
        self.pacer.pace = PACES.get(name, PACES[DEFAULT_PACE])
        if self.pacer.pace == 0:
            self.finish()

    def _say(self, text: str) -> None:
        self.spoken.value = (
            f'<p role="status" aria-live="polite" style="font-size:13px;color:#333;margin:2px 0">{escape(text)}</p>'
            if text
            else ""
        )

    # ----- drawing --------------------------------------------------------------------------------

    def _draw(self, move: Move) -> None:
        """The table as it was after ``move``: its board, the reader's pieces not to be played yet, and
        a button to see the rest at once."""
        view, model = self.view, self.view.model
        first = self._frame is None
        if first:
            self._won = None
        self._frame = move.view
        if move.won is not None:
            self._won = (move.won, len(move.view.tricks))
        four = view._four_colour.value
        open_hands = model.open_hands() if model.teaching else None
        view._board.value = round_board_html(
            move.view, model.names, model.seat, show_own=False, open_hands=open_hands, four_colour=four
        )
        self.trick.value = self._panel(move.view)
        if first:  # the reader's controls wait for the moves; their pieces show, not to be played yet
            view._undo.disabled = view._hint.disabled = view._why.disabled = view._next.disabled = True
            view._hinted.value = view._explained.value = view._unavailable.value = ""
            view.say(model.message)
            view._set_choices((*self._waiting_pieces(move.view), self.skip), ())
            if move.view.settlement is None:  # the last hand's summary goes with it: a new hand is in play
                self.summary.value = ""

    def _waiting_pieces(self, seen: View) -> list[ipw.Button]:
        pam = pam_card(seen)
        buttons = []
        for piece in seen.hand or ():
            if isinstance(piece, Card):
                face = ["loo-card-button", card_class(piece)]
            else:
                face = ["loo-tile-button", tile_class(piece)]
            buttons.append(
                lean(
                    ipw.Button,
                    description=piece_name(piece, pam),
                    tooltip=f"{piece_name(piece, pam)}: wait for the other players",
                    disabled=True,
                    _dom_classes=["loo-choice", "loo-piece", "loo-waiting", *face],
                )
            )
        return buttons

    def render(self, seen: View) -> None:
        """The table as it stands (called by the view's own drawing): the trick panel and, once the hand
        is over, the whole hand."""
        self._frame = None
        self.trick.value = self._panel(seen)
        model = self.view.model
        summary = summary_html(model, four_colour=self.view._four_colour.value) if model.hand.is_over else ""
        if self.summary.value != summary:
            self.summary.value = summary

    def _panel(self, seen: View) -> str:
        names = self.view.model.names
        four = self.view._four_colour.value
        if self.last.value:
            if not seen.tricks:
                return f'<p class="loo-won" role="status">{NO_TRICK}</p>'
            return trick_html(seen.tricks[-1], names, number=len(seen.tricks), title="Last trick", four_colour=four)
        if self._won is not None:
            trick, number = self._won
            return trick_html(trick, names, number=number, title="Just played", four_colour=four)
        return ""

    def _toggle_last(self) -> None:
        seen = self._frame if self._frame is not None else self.view.model.view()
        self.trick.value = self._panel(seen)
        if self.last.value:
            names = self.view.model.names
            if seen.tricks:
                trick = seen.tricks[-1]
                piece = dict(trick.plays)[trick.winner]
                self._say(f"Last trick, trick {len(seen.tricks)}: {names[trick.winner]} won it with the {piece.name}.")
            else:
                self._say(NO_TRICK)
