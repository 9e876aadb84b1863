"""Practise your mistakes, and progress you can see (issue 31, points 2 and 3): the Review tab's part
that brings the reader's costly decisions back as questions, and draws the reader's progress.

The positions come from the table's shelf (:mod:`widgets.table.practice`), which the weighing of each
finished hand fills (:meth:`PracticeView.weighed`). The first is asked as the book's "What would you
do?" questions ask (:mod:`widgets.book.quiz`): the board as the reader's seat saw it, a button for each
choice the engine weighs, and once one is pressed the same words (:func:`~widgets.book.quiz.pick_words`,
:func:`~widgets.book.quiz.verdict_words`) and the best line's replay. A choice as good as the best
(:meth:`~widgets.book.quiz.Judged.as_good`) takes the position off the list; any other leaves it there
for another try. Below, the game's progress (:func:`progress_html`): an SVG chart of the chips given up
a decision over the last hands reviewed, and each kind of decision's average beside it. The reader
may clear both, after saying so twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as ipw

from loo.core.actions import Action, IllegalActionError
from loo.core.rules import RecordError
from loo.options import GAME_NAMES
from loo.review import HandReview
from widgets.draw.law_refs import LAW_STYLE, with_law_refs
from widgets.draw.table_board import board_html
from widgets.table import practice
from widgets.table.hints import unit_name
from widgets.table.practice import KIND_WORDS, KINDS, HandFigures, Item, Shelf
from widgets.views.safety import guarded
from widgets.views.shared import ROW, button, lean, own_layout

if TYPE_CHECKING:
    from widgets.book.quiz import Judged

log = logging.getLogger("lanterloo.widgets.views.practice_view")

SHOWN_HANDS = 20
"""The chart's hands: the last this many reviewed."""
RECENT = 5
"""The table's last column: the last this many hands."""
CLEAR_ASK = "Clear every position kept to practise and every game's progress? They cannot be brought back."
NOTHING_YET = "Weigh your decisions after a hand, and the ones that gave something up come back here as questions."
ALL_DONE = "No position is waiting to be practised: every one kept has been answered well."


# ----- progress ------------------------------------------------------------------------------------


def _per_decision(hands: tuple[HandFigures, ...], kind: str | None = None) -> float | None:
    pairs = [h.kinds.get(kind, (0, 0.0)) for h in hands] if kind else [(h.decisions, h.given_up) for h in hands]
    made = sum(n for n, _ in pairs)
    return sum(lost for _, lost in pairs) / made if made else None


def _figure(value: float | None) -> str:
    return "none yet" if value is None else f"{value:.2f}"


def progress_svg(hands: tuple[HandFigures, ...], game: str, unit: str) -> str:
    """An SVG chart of the chips (or points) given up a decision in each of the last hands reviewed."""
    series = [h.given_up / h.decisions for h in hands[-SHOWN_HANDS:] if h.decisions]
    name = GAME_NAMES.get(game, game)
    title = f"Your {unit} given up a decision, hand by hand, at {name}"
    if not series:
        desc = "No hand with a decision of yours has been reviewed yet."
    else:
        desc = (
            f"Over your last {len(series)} hands reviewed, oldest first: "
            + ", ".join(f"{v:.2f}" for v in series)
            + f" {unit} given up a decision."
        )
    width, height, left, right, top, bottom = 340, 150, 44, 10, 12, 34
    top_value = max([0.5, *series])
    top_value = float(f"{top_value * 1.1:.2g}")
    span_x = width - left - right
    span_y = height - top - bottom

    def x(i: int) -> float:
        return left + (span_x * i / (len(series) - 1) if len(series) > 1 else span_x / 2)

    def y(v: float) -> float:
        return top + span_y * (1 - v / top_value)

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(series))
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="#2f6f4f"/>' for i, v in enumerate(series))
    line = f'<polyline points="{points}" fill="none" stroke="#2f6f4f" stroke-width="2"/>' if len(series) > 1 else ""
    ident = "loo-progress-" + "".join(c if c.isalnum() else "-" for c in game)
    return (
        f'<svg class="loo-progress-chart" viewBox="0 0 {width} {height}" width="100%" '
        f'style="max-width:{width}px" role="img" aria-labelledby="{ident}-t {ident}-d">'
        f'<title id="{ident}-t">{escape(title)}</title><desc id="{ident}-d">{escape(desc)}</desc>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + span_y}" stroke="#555"/>'
        f'<line x1="{left}" y1="{top + span_y}" x2="{width - right}" y2="{top + span_y}" stroke="#555"/>'
        f'<text x="{left - 4}" y="{top + 4}" text-anchor="end" font-size="11">{top_value:g}</text>'
        f'<text x="{left - 4}" y="{top + span_y + 4}" text-anchor="end" font-size="11">0</text>'
        f'<text x="12" y="{top + span_y / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 12 {top + span_y / 2})">{escape(unit)} a decision</text>'
        f'<text x="{left + span_x / 2}" y="{height - 8}" font-size="11" text-anchor="middle">'
        f"your last hands reviewed, oldest to latest</text>{line}{dots}</svg>"
    )


def progress_html(shelf: Shelf, game: str, unit: str) -> str:
    """The reader's progress at ``game``: hands reviewed, the chart, and each kind of decision's average."""
    hands = shelf.hands.get(game, ())
    name = GAME_NAMES.get(game, game)
    if not hands:
        return (
            f'<section class="loo-progress" aria-label="Your progress"><h3 style="font-size:1.05em">Your progress '
            f"at {escape(name)}</h3><p>No hand reviewed yet: weigh your decisions after a hand to see it here.</p>"
            "</section>"
        )
    rows = []
    for kind in KINDS:
        made = sum(h.kinds.get(kind, (0, 0.0))[0] for h in hands)
        if made:
            recent = _per_decision(hands[-RECENT:], kind)
            rows.append(
                f"<tr><th scope='row'>{escape(KIND_WORDS[kind])}</th><td>{made}</td>"
                f"<td>{_figure(_per_decision(hands, kind))}</td><td>{_figure(recent)}</td></tr>"
            )
    table = (
        "<style>.loo-progress-kinds th,.loo-progress-kinds td{padding:2px 8px;text-align:right}"
        ".loo-progress-kinds th:first-child,.loo-progress-kinds caption{text-align:left}</style>"
        '<table class="loo-progress-kinds" style="border-collapse:collapse;font-size:13px">'
        f"<caption style='font-weight:600'>{escape(unit.capitalize())} given up a decision, "
        "by kind</caption><thead><tr><th scope='col'>Decision</th><th scope='col'>Made</th>"
        f"<th scope='col'>All hands</th><th scope='col'>Last {min(RECENT, len(hands))}</th></tr>"
        "</thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    overall = _figure(_per_decision(hands))
    return (
        '<section class="loo-progress" aria-label="Your progress">'
        f'<h3 style="font-size:1.05em">Your progress at {escape(name)}</h3>'
        f"<p>Hands reviewed: {len(hands)}. On average your decisions gave up {overall} {escape(unit)} each "
        "(only what the deals showed beyond doubt).</p>"
        '<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start">'
        f"{progress_svg(hands, game, unit)}{table}</div></section>"
    )


# ----- the widget ----------------------------------------------------------------------------------


class PracticeView(ipw.VBox):  # type: ignore[misc]
    """The practice list's first position as a question, the game's progress, and the button to clear both.

    ``model`` is a table's model (:class:`~widgets.table.model.TableModel`): its ``practice`` shelf, and
    ``practise(change)`` to change it and save the change; ``say`` tells the reader of a failure."""

    def __init__(self, model: Any, say: Callable[[str], None]) -> None:
        self.model = model
        self._say = say
        self._title = lean(ipw.HTML)
        self._question = lean(ipw.HTML)
        self._picks = lean(ipw.HBox, layout=ROW, _dom_classes=["loo-practice-picks"])
        self._answer = lean(ipw.HTML, _dom_classes=["loo-practice-answer"])
        self._replay = lean(ipw.VBox)
        self._next = button("Next position", "The next position on your practice list", "loo-practice-next")
        self._progress = lean(ipw.HTML)
        self._clear = button(
            "Clear my practice and progress", "Forget every position to practise and every game's figures", "loo-clear"
        )
        self._warning = lean(ipw.HTML)
        self._yes = button("Yes, clear them", "Clear the practice list and the progress for good", "loo-clear-yes")
        self._keep = button("Keep them", "Keep the practice list and the progress", "loo-clear-no")
        hidden = ipw.Layout(flex_flow="row wrap", align_items="center", display="none")  # its own: shown and hidden
        self._confirm = lean(ipw.HBox, [self._warning, self._yes, self._keep], layout=hidden)
        own_layout(self._next).display = "none"
        own_layout(self._clear).display = "none"
        self._judged: dict[str, Judged] = {}
        self._shown: Item | None = None  # the position asked now
        self._answered = False  # and the reader has answered it
        self._drawn: Shelf | None = None
        asked = [self._title, self._question, self._picks, self._answer, self._next, self._replay]
        super().__init__([*asked, self._progress, self._clear, self._confirm], _dom_classes=["loo-practice"])
        self._wire()
        self.refresh()

    def _wire(self) -> None:
        say = self._say
        self._next.on_click(guarded(say)(lambda _b: self._ask_next()))
        self._clear.on_click(guarded(say)(lambda _b: self._asking(True)))
        self._keep.on_click(guarded(say)(lambda _b: self._asking(False)))
        self._yes.on_click(guarded(say)(lambda _b: self.clear()))
        self.model.observe(guarded(say)(lambda _change: self._changed()), names=["version"])

    @property
    def shelf(self) -> Shelf:
        shelf: Shelf = self.model.practice
        return shelf

    def _change(self, change: dict[str, Any]) -> None:
        if not self.model.practise(change):  # refused: another tab moved the table on (it was reloaded)
            self._say(self.model.message)

    # ----- what the Review tab calls --------------------------------------------------------------

    def weighed(self, record: Any, done: HandReview) -> None:
        """A hand's weighing is whole: its costly decisions join the list and its figures the progress."""
        self._change(practice.weighed(record, done))
        self._shown = None  # the list's first position is asked afresh: the costliest of all
        self.refresh()

    def clear(self) -> None:
        self._change(practice.CLEARED)
        self._judged.clear()
        self._shown = None
        self._asking(False)
        self.refresh()

    def answer(self, action: Action) -> None:
        """The reader's pick for the position asked: the verdict, and the position off the list if it was
        as good as the best (else it stays for another try)."""
        item = self._shown
        if item is None:
            return
        from widgets.views.practice_question import best_line, pick_words, verdict_words

        judged = self._judged_for(item)
        well = judged.as_good(action)
        self._answered = True
        for pick in self._picks.children:
            pick.disabled = True
        then = "Answered well: it comes off your list." if well else "It stays on your list, to try again later."
        why = f'<div style="margin:0 0 1em"><b>Why:</b> {with_law_refs(judged.why)}</div>' if judged.why else ""
        picked = escape(pick_words(judged, action))
        self._answer.value = (
            f'{LAW_STYLE}<div role="status" aria-live="polite" class="loo-practice-verdict"><p><b>{picked}</b></p>'
            f"<p>{escape(then)}</p><p><b>Verdict:</b> {escape(verdict_words(judged))}</p>{why}</div>"
        )
        self._replay.children = (best_line(judged).widget(),)
        if well:
            self._change(practice.solved(item))
        self.refresh()

    # ----- drawing --------------------------------------------------------------------------------

    def _changed(self) -> None:
        if self.model.practice is not self._drawn:  # reloaded, or changed elsewhere: draw it afresh
            self.refresh()

    def refresh(self) -> None:
        """Draw the list's count, its first position (unless one is being answered) and the progress."""
        shelf = self._drawn = self.shelf
        self._draw_title()
        unit = unit_name(self.model.rules)
        self._progress.value = progress_html(shelf, self.model.game, unit)
        self._clear.layout.display = "" if shelf else "none"
        if self._shown is None or (not self._answered and shelf.item(self._shown.key) is None):
            self._ask_next()
        self._next.layout.display = "" if self._answered and shelf.items else "none"

    def _draw_title(self) -> None:
        self._drawn = self.shelf
        n = len(self.shelf.items)
        self._title.value = f'<h3 class="loo-practice-title" style="font-size:1.1em">Practise your mistakes ({n})</h3>'

    def _ask_next(self) -> None:
        """Ask the position after the one just asked (the first, if that one is off the list now)."""
        items = self.shelf.items
        self._answer.value, self._replay.children, self._answered = "", (), False
        self._next.layout.display = "none"
        if not items:
            self._shown = None
            self._question.value = f"<p>{ALL_DONE if self.shelf.hands else NOTHING_YET}</p>"
            self._picks.children = ()
            return
        keys = [i.key for i in items]
        was = self._shown.key if self._shown is not None else None
        at = (keys.index(was) + 1) % len(items) if was in keys else 0
        try:
            self._ask(items[at])
        except (ValueError, RecordError, IllegalActionError) as error:  # a position the engine now refuses
            log.warning("a position to practise no longer replays, and is dropped: %s", error)
            self._shown = None
            self._change(practice.solved(items[at]))
            self._ask_next()

    def _judged_for(self, item: Item) -> Judged:
        from widgets.views.practice_question import judged_item

        judged = self._judged.get(item.key)
        if judged is None:
            judged = self._judged[item.key] = judged_item(item)
        return judged

    def _ask(self, item: Item) -> None:
        from widgets.views.practice_question import choices, describe

        self._shown = item
        judged = self._judged_for(item)
        names, seat = list(judged.hand.names), judged.seat
        name = GAME_NAMES.get(item.game, item.game)
        board = board_html(judged.view, names, seat, show_own=True)
        you = escape(names[seat])
        self._question.value = (
            f'<div class="loo-practice-question" role="group" aria-label="What would you do? You are {you}">'
            f"<p><b>What would you do? You are {you},</b> in a hand of {escape(name)} you played, "
            f"as it stood when you chose.</p>{board}<p>Your choice:</p></div>"
        )
        picks = []
        for action in choices(judged):
            label = describe(action, judged.view)
            pick = lean(ipw.Button, description=label, tooltip=f"Choose: {label}", layout=ipw.Layout(width="auto"))
            pick.on_click(guarded(self._say)(lambda _b, a=action: self.answer(a)))
            picks.append(pick)
        self._picks.children = tuple(picks)

    def _asking(self, ask: bool) -> None:
        self._warning.value = f"<span>{escape(CLEAR_ASK)}</span>" if ask else ""
        self._confirm.layout.display = "" if ask else "none"
