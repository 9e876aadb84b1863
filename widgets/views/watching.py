"""Watching the play at a live table: the widgets that show the computer players' moves one by one,
the trick just won and the last trick, the finished hand, and say each move for a screen reader.

:class:`Watching` belongs to a :class:`~widgets.views.table_view.TableView`: the view lays its widgets
out and calls it on every change of the model. It draws the change's moves as a reel that the page
plays at the reader's pace (:mod:`widgets.views.pacing`); in each frame the reader's pieces show as they
stand, not to be played yet, and a button shows the rest at once. Every drawing here is of a view
of the reader's own seat, or of a hand already over, so no hidden card reaches the page.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from html import escape
from typing import Protocol

import ipywidgets as ipw

from loo.core.protocols import View
from widgets.draw.board import pam_card, piece_name, pieces_html
from widgets.draw.table_board import ROUND, board_html
from widgets.table.model import TableModel
from widgets.table.moves import Move
from widgets.views.hand_summary import summary_html
from widgets.views.pacing import DEFAULT_PACE, PACES, held, move_words, reel_html, trick_html
from widgets.views.safety import guarded
from widgets.views.shared import lean

PACE_TIPS = {
    "Slow": "The computer players' moves shown one by one, slowly",
    "Normal": "The computer players' moves shown one by one",
    "Faster": "The computer players' moves shown one by one, quickly",
    "Instant": "The computer players' moves all shown at once",
}
WAITING_WIDTH = 80  # the reader's cards while a reel plays: as wide as the card buttons they stand for
NO_TRICK = "No trick has been finished in this hand yet."


def just_line(seen: View, names: Sequence[str]) -> str:
    """The line the middle of the cloth shows once a trick is won, until a piece is played to the next.

    It is read from the view alone, so the table after a reload shows the same line as before it."""
    if not seen.tricks or seen.current:
        return ""
    trick, number = seen.tricks[-1], len(seen.tricks)
    piece = dict(trick.plays)[trick.winner]
    said = f"Trick {number} just played: {names[trick.winner]} won it with the {piece.name}."
    return f'<div class="loo-just">{escape(said)}</div>'


class Watched(Protocol):
    """What :class:`Watching` asks of the view it belongs to (:class:`~widgets.views.table_view.TableView`):
    its model, the reader's choice of pack colours, its status line and its drawing."""

    @property
    def model(self) -> TableModel: ...

    @property
    def four_colour(self) -> bool: ...

    def say(self, message: str) -> None: ...

    def redraw(self) -> None:
        """Draw the whole table as it stands."""

    def draw_board(self, view: View) -> None:
        """Draw the cloth as ``view`` shows it."""


class Watching:
    """The moves of each change as a reel the page plays (:func:`~widgets.views.pacing.reel_html`), the trick
    just won, the last trick (key L), the finished hand, and the live region that says each move."""

    def __init__(self, view: Watched) -> None:
        self.view = view
        # The widgets that show the table as it stands carry "loo-standing": the page hides them while
        # it plays a reel, and shows them again when the reel ends (table-keys.js). The trick just won
        # and the last trick are drawn on the cloth itself (:meth:`on_the_cloth`), where nothing moves.
        self.spoken = lean(ipw.HTML, _dom_classes=["loo-announce"])  # the page makes it a live region
        self.summary = lean(ipw.HTML, _dom_classes=["loo-hand-summary", "loo-standing"])
        self.film = lean(ipw.HTML, _dom_classes=["loo-film"])  # the latest change's reel, shown only while it plays
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
        self._reels = itertools.count(1)
        self._said = 0  # the changes whose moves the line has said
        self.last.observe(guarded(view.say)(lambda _change: self._toggle_last()), names=["value"])

    # ----- the model changed --------------------------------------------------------------------

    def changed(self) -> None:
        """Draw the table as it stands and, where the change made more than one move and the pace is
        not Instant, the reel of its moves for the page to play first. The reel goes out before the
        table: the page then hides the table before it changes, until the reel has played."""
        model = self.view.model
        moves = model.moves
        words = [move_words(m, model.names, model.game) for m in moves]
        pace = PACES.get(self.pace.value, PACES[DEFAULT_PACE])
        if pace > 0 and len(moves) > 1:
            self._say("")  # the page says each move as its frame shows
            near = self._waiting_hand(moves[0].view)
            self.film.value = reel_html(moves, words, pace, self._framer(moves), number=next(self._reels), near=near)
            self.view.redraw()
            return
        if self.film.value:
            self.film.value = ""
        self.view.redraw()
        self._say(" ".join(words))

    def _say(self, text: str) -> None:
        """Put ``text`` in the line of moves, replacing whatever the page wrote there while a reel played:
        each change's line is new (its number), so that the page redraws it even when its words are the
        same, or none (a take-back leaves no move of the last change said)."""
        self._said += 1
        self.spoken.value = (
            f'<p data-change="{self._said}" style="font-size:13px;color:#333;margin:2px 0">{escape(text)}</p>'
        )

    # ----- drawing --------------------------------------------------------------------------------

    def _waiting_hand(self, seen: View) -> str:
        """The reader's pieces at the near edge of the cloth while the reel plays, drawn as the card
        buttons are but not to be played yet (no frame of a reel changes them)."""
        if not seen.hand:
            return ""
        pam = pam_card(seen)
        named = ", ".join(piece_name(piece, pam) for piece in seen.hand)
        drawn = pieces_html(
            seen.hand, width=WAITING_WIDTH, label=f"your hand: {named}", four_colour=self.view.four_colour
        )
        return f'<div class="loo-reel-hand">{drawn}</div>'

    def _framer(self, moves: Sequence[Move]) -> Callable[[Move, int], str]:
        """How a reel's frames are drawn: the table just after the ``k``-th move, the reader's pieces in
        their place (not to be played yet), and the trick last won in the reel so far."""
        view, model = self.view, self.view.model
        four = view.four_colour
        open_hands = model.open_hands() if model.teaching else None

        def frame(move: Move, k: int) -> str:
            shown = held(move)
            note = just_line(move.view, model.names)
            return board_html(
                shown.view,
                model.names,
                model.seat,
                layout=ROUND,
                show_own=False,
                open_hands=open_hands,
                four_colour=four,
                note=note,
            )

        return frame

    def render(self, seen: View) -> None:
        """The table as it stands (called by the view's own drawing): once the hand is over, the whole hand."""
        model = self.view.model
        summary = summary_html(model, four_colour=self.view.four_colour) if model.hand.is_over else ""
        if self.summary.value != summary:
            self.summary.value = summary

    def on_the_cloth(self, seen: View) -> tuple[str, str]:
        """What the middle of the cloth adds to the table as it stands: the line naming the latest trick
        won, and the last trick laid over the middle while the reader asks for it
        (:func:`~widgets.draw.table_board.board_html`'s ``note`` and ``over``)."""
        names = self.view.model.names
        note = just_line(seen, names)
        if not self.last.value:
            return note, ""
        if not seen.tricks:
            return note, f'<p class="loo-won" role="status">{NO_TRICK}</p>'
        four = self.view.four_colour
        drawn = trick_html(seen.tricks[-1], names, number=len(seen.tricks), title="Last trick", four_colour=four)
        return note, drawn + '<p class="loo-over-close">Press L, or Last trick again, to put it away.</p>'

    def _toggle_last(self) -> None:
        seen = self.view.model.view()
        self.view.draw_board(seen)
        if self.last.value:
            names = self.view.model.names
            if seen.tricks:
                trick = seen.tricks[-1]
                piece = dict(trick.plays)[trick.winner]
                self._say(f"Last trick, trick {len(seen.tricks)}: {names[trick.winner]} won it with the {piece.name}.")
            else:
                self._say(NO_TRICK)
