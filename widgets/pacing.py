"""Watching the play: the computer players' moves laid out one by one, at the reader's pace.

A reader's click makes the engine take the reader's move and every computer player's after it at
once (:meth:`widgets.model.TableModel.act`); the model keeps those moves, each with the reader's own
view after it (:mod:`widgets.moves`). A :class:`Pacer` shows them in turn: the reader's own move at
once (the click is answered in the same message), then each computer player's after a pause of
the reader's choosing (:data:`PACES`), a finished trick held on the table a little longer, its
winner named, and then the table as it stands, with the reader's choices. Each move is also said
in words in the table's live region, for a screen reader (:func:`move_words`).

The pauses are ``await``-ed on the kernel's event loop (or Pyodide's, in the reader's browser), so
the kernel keeps answering the page between them. A click while moves are being shown cannot
lose anything: the game is already where the last move left it; the pacer shows the rest at once
(:meth:`Pacer.finish`) and the click is then taken as usual. Where no event loop runs (a test, a
script), every move is shown at once.

The pace is the reader's: the page remembers it in the browser's storage (``table-keys.js``) and
sets it again when a table opens, so a reload or a new table keeps it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from html import escape

from loo.core.protocols import TrickRecord
from widgets.board import piece_html
from widgets.moves import Move
from widgets.step_viewer import describe

log = logging.getLogger("lanterloo.widgets.pacing")

PACES = {"Slow": 1.5, "Normal": 0.8, "Faster": 0.35, "Instant": 0.0}
"""Seconds between one computer player's move and the next, by the name the reader picks."""
DEFAULT_PACE = "Normal"
HOLD = 2.5
"""A finished trick stays on the table this many paces before the next move is shown."""

Sleep = Callable[[float], Awaitable[object]]


def pauses(moves: Sequence[Move], pace: float) -> list[float]:
    """The pause before each move is shown: none before the first (the reader's own, answered at
    once), ``pace`` before each other, ``HOLD`` paces after a move that finished a trick.

    >>> from types import SimpleNamespace as Ns
    >>> pauses([Ns(won=None), Ns(won="a trick"), Ns(won=None)], 0.5)
    [0.0, 0.5, 1.25]
    """
    return [0.0] + [pace * (HOLD if before.won is not None else 1.0) for before in moves[:-1]]


def move_words(move: Move, names: Sequence[str], game: str) -> str:
    """The move as the reader's live region says it: "Ben plays the king of hearts. Ben wins the trick."

    Pieces put out face down are counted, never named, the reader's own too (:func:`widgets.step_viewer.describe`
    as nobody at the table sees it): the live region says only what the whole table saw.
    """
    said = describe(move.action, names, game=game, leading=move.leading, viewer=-1) + "."
    if move.won is not None:
        said += f" {names[move.won.winner]} wins the trick."
    if move.view.settlement is not None:
        said += " The hand is over."
    return said


TRICK_STYLE = (
    "<style>.loo-won{font-family:system-ui,sans-serif;font-size:14px;margin:4px 0;padding:4px 8px;"
    "border:1px solid #b9c8bd;border-left:5px solid #2f6f4f;border-radius:6px;background:#f4faf6}"
    ".loo-won .loo-play{display:inline-block;text-align:center;margin:0 4px;font-size:12px}"
    ".loo-won .loo-winner svg{outline:3px solid #2f6f4f;outline-offset:1px;border-radius:4px}</style>"
)


def trick_html(trick: TrickRecord, names: Sequence[str], *, number: int, title: str, four_colour: bool = False) -> str:
    """A finished trick, each piece under its player's name, the winner's piece outlined and named in words."""
    plays = []
    for p, piece in trick.plays:
        winner = " loo-winner" if p == trick.winner else ""
        plays.append(
            f'<span class="loo-play{winner}">{escape(names[p])}<br>'
            f"{piece_html(piece, 34, four_colour=four_colour)}</span>"
        )
    which = f"{title}, trick {number}" if title else f"Trick {number}"
    said = f"{which}: {names[trick.winner]} won it with the {dict(trick.plays)[trick.winner].name}."
    return (
        f'{TRICK_STYLE}<div class="loo-won" role="group" aria-label="{escape(said)}">'
        f"<div><b>{escape(said)}</b></div>{''.join(plays)}</div>"
    )


def held(move: Move) -> Move:
    """``move`` with the trick it finished still on the table (the view's trick in progress), so that
    the reader sees the trick complete before it is cleared away."""
    if move.won is None or move.view.current:
        return move
    with contextlib.suppress(TypeError, ValueError):  # a view that is not a dataclass is drawn as it is
        return dataclasses.replace(move, view=dataclasses.replace(move.view, current=move.won.plays))  # type: ignore[type-var]
    return move


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop the pauses can wait on: the kernel's (running now), or Pyodide's (always running)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    try:
        loop = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        return None
    return loop if loop.is_running() else None


class Pacer:
    """Shows the moves of each change one by one. ``draw(move)`` draws the table as it was after a
    move (no choices yet), ``final()`` the table as it stands now, with the reader's choices, and
    ``say(text)`` puts words in the live region. ``sleep`` and ``loop`` may be injected (a test runs
    the pauses at once)."""

    def __init__(
        self,
        draw: Callable[[Move], None],
        final: Callable[[], None],
        say: Callable[[str], None],
        *,
        sleep: Sleep = asyncio.sleep,
        loop: Callable[[], asyncio.AbstractEventLoop | None] = _running_loop,
    ) -> None:
        self._draw, self._final, self._say = draw, final, say
        self._sleep, self._loop = sleep, loop
        self.pace = PACES[DEFAULT_PACE]
        self._task: asyncio.Future[None] | None = None
        self._left: list[str] = []  # the words of the moves not yet shown

    @property
    def busy(self) -> bool:
        """Whether moves are still being laid out."""
        return self._task is not None and not self._task.done()

    def show(self, moves: Sequence[Move], words: Sequence[str]) -> None:
        """Lay out ``moves`` (said as ``words``): the first at once, the rest after their pauses;
        the table as it stands once they are all shown. Moves being shown are finished first."""
        self.finish(redraw=False)
        loop = self._loop() if self.pace > 0 and len(moves) > 1 else None
        if loop is None:
            self._final()
            self._say(" ".join(words))
            return
        self._draw(held(moves[0]))
        self._say(words[0])
        self._left = list(words[1:])
        self._task = loop.create_task(self._run(list(moves), pauses(moves, self.pace)))

    async def _run(self, moves: list[Move], waits: list[float]) -> None:
        try:
            for move, wait in zip(moves[1:], waits[1:], strict=True):
                await self._sleep(wait)
                self._draw(held(move))
                self._say(self._left.pop(0))
            if moves[-1].won is not None:  # the last trick stays in sight a moment before the choices come
                await self._sleep(self.pace * HOLD)
            self._task = None
            self._final()
        except asyncio.CancelledError:
            raise
        except Exception:  # a drawing that fails: the table as it stands, and the log says why
            log.exception("could not lay out the moves")
            self._task = None
            self._final()

    def finish(self, *, redraw: bool = True) -> None:
        """Show at once whatever moves are still to come (a click, a key, a new change while they are
        laid out); the words of the moves skipped are said together."""
        task, self._task = self._task, None
        if task is None or task.done():
            return
        task.cancel()
        if self._left:
            self._say(" ".join(self._left))
        self._left = []
        if redraw:
            self._final()
