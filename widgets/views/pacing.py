"""Watching the play: the computer players' moves laid out one by one, at the reader's pace, by the browser.

A reader's click makes the engine take the reader's move and every computer player's after it at
once (:meth:`widgets.table.model.TableModel.act`); the model keeps those moves, each with the reader's own
view after it (:mod:`widgets.table.moves`). The kernel draws them all at once, in the same message that
answers the click, as a *reel* (:func:`reel_html`): one frame per move, the table as it was just
after that move, each with the pause to wait before it (:func:`pauses`) and the move in words for
a screen reader (:func:`move_words`). The page's script (``table-keys.js``, on the server's tables
and in the reader's browser alike) plays the reel: the reader's own move at once, each computer
player's after its pause, a finished trick held a little longer with its winner named, and then the
table as it stands, with the reader's choices, which the kernel drew at the same time. The
pacing is the browser's clock, never a round trip to the kernel.

A click or a key while a reel plays cannot lose anything: the game is already where the last move
left it; the page shows the table as it stands at once (the words of the moves skipped are said
together) and takes the click. A page without the script, or the Instant pace, shows the table as
it stands at once, and the live region says every move.

Every frame is a drawing of the reader's own view (or of hands the teaching switch opened), so a
reel shows no card the reader's seat may not see. The pace is the reader's: the page remembers
it in the browser's storage (``table-keys.js``) and sets it again when a table opens.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Sequence
from html import escape

from loo.core.protocols import TrickRecord
from widgets.draw.board import piece_html
from widgets.table.moves import Move
from widgets.views.step_viewer import describe

PACES = {"Slow": 1.5, "Normal": 0.8, "Faster": 0.35, "Instant": 0.0}
"""Seconds between one computer player's move and the next, by the name the reader picks."""
DEFAULT_PACE = "Normal"
HOLD = 2.5
"""A finished trick stays on the table this many paces before the next move is shown."""


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

    Pieces put out face down are counted, never named, the reader's own too (:func:`widgets.views.step_viewer.describe`
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


def reel_html(
    moves: Sequence[Move],
    words: Sequence[str],
    pace: float,
    frame: Callable[[Move, int], str],
    *,
    number: int,
    near: str = "",
) -> str:
    """The reel the page plays for ``moves`` (said as ``words``) at ``pace`` seconds a move: a frame
    per move, ``frame(move, k)`` drawing the table just after the ``k``-th. Each frame carries the
    pause before it (``data-wait``, in seconds) and its words (``data-say``); the reel carries how long
    its last frame stays (``data-end``: a trick won then is held), and, at the near edge of the cloth
    under the frames, ``near`` (the reader's pieces, which no frame changes) and a button to see the
    rest at once. ``number`` tells one reel from the next, so that the page plays each once.

    >>> from types import SimpleNamespace as Ns
    >>> html = reel_html([Ns(won=None), Ns(won="a trick")], ["Ann plays.", "Ben plays."], 0.5,
    ...                  lambda move, k: f"<p>{k}</p>", number=3)
    >>> 'data-reel="3"' in html and 'data-end="1.25"' in html and 'data-wait="0.5"' in html
    True
    >>> html.count("<p>"), html.count(" hidden>")
    (2, 1)
    """
    waits = pauses(moves, pace)
    end = pace * HOLD if moves[-1].won is not None else 0.0
    frames = "".join(
        f'<div class="loo-frame" data-wait="{wait:g}" data-say="{escape(said)}"{" hidden" if k else ""}>'
        f"{frame(move, k)}</div>"
        for k, (move, wait, said) in enumerate(zip(moves, waits, words, strict=True))
    )
    return (
        f'<div class="loo-reel" data-reel="{number}" data-end="{end:g}">{frames}'
        f'<div class="loo-near loo-reel-near">{near}'
        '<button type="button" class="loo-show-rest jupyter-button mod-primary" '
        'title="Show the computer players\' moves at once (any key or click does too)">Show the rest now</button>'
        "</div></div>"
    )
