"""The reader's own decisions of a finished hand, weighed (issue 31), for the Review tab.

:func:`weigh_hand` asks :func:`loo.review.review` for the reader's seat only: each decision weighed
over deals consistent with what the seat knew then, never with the hidden cards. In the reader's
browser (Pyodide, some two to three times slower) it samples fewer deals, as the hints do, and its
verdicts are "too close to call" the more often for it, honestly. :func:`review_html` says it in
words: what was chosen, the best choice, what the choice gave up with its interval, the verdict and
why; the hand's summary first, with the costliest decision named.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Iterator
from html import escape
from typing import Any

from loo.review import ROUNDS, WEIGHING, Decision, HandReview, review, reviewing
from widgets.draw.law_refs import LAW_STYLE, with_law_refs
from widgets.table import hints
from widgets.table.hints import describe, unit_name

# The reader's browser weighs on fewer deals (its hints sample at most 300, widgets.table.hints.IN_BROWSER).
ROUNDS_IN_BROWSER = (50, 100, 200, 400)
FAILED = (
    "The decisions could not be weighed this time (it has been logged). Try again: press Weigh my decisions once more."
)
WORKING = "Weighing your decisions: each is played out over many deals that fit what you knew then…"
VERDICT_WORDS = {
    "best": "the best choice",
    "good": "good: as good as the best, near enough",
    "too close to call": "too close to call on these deals",
    "inaccuracy": "an inaccuracy",
    "mistake": "a mistake",
    "blunder": "a blunder",
    WEIGHING: "still being weighed, on more deals",
}
log = logging.getLogger("lanterloo.widgets.views.review")
VERDICT_COLOURS = {"inaccuracy": "#8a5a00", "mistake": "#a3361b", "blunder": "#8a1c1c"}


def weigh_hand(record: Any, seat: int) -> HandReview:
    """The review of ``seat``'s decisions in ``record``, at the effort this home affords
    (:mod:`widgets.table.hints`)."""
    in_browser = hints.effort is hints.IN_BROWSER
    rounds = ROUNDS_IN_BROWSER if in_browser else ROUNDS
    return review(record, [seat], rounds=rounds, tries=hints.effort.tries, words=hints.in_words)


def weighing_hand(record: Any, seat: int) -> Iterator[HandReview]:
    """The review of :func:`weigh_hand` as it fills in (:func:`loo.review.reviewing`), for the Review tab."""
    in_browser = hints.effort is hints.IN_BROWSER
    rounds = ROUNDS_IN_BROWSER if in_browser else ROUNDS
    return reviewing(record, [seat], rounds=rounds, tries=hints.effort.tries, words=hints.in_words)


def _item(d: Decision, unit: str, costliest: bool) -> str:
    chose = escape(describe(d.chosen))
    if d.verdict == WEIGHING:  # its figures so far are not yet a verdict: nothing more is said of it
        return f'<li data-action="{d.index}" aria-busy="true"><b>{chose}</b>: {escape(VERDICT_WORDS[d.verdict])}…</li>'
    said = f"<b>{chose}</b>: {escape(VERDICT_WORDS[d.verdict])}."
    if d.verdict != "best":
        lost = f"{d.lost.mean:.1f} {unit} ({d.lost.low:.1f} to {d.lost.high:.1f})"
        said += f" The best was {escape(describe(d.best))}; this gave up about {escape(lost)}."
    if d.why:
        said += f' <span class="loo-review-why">{with_law_refs(d.why)}</span>'
    colour = VERDICT_COLOURS.get(d.verdict)
    style = f' style="border-left:4px solid {colour};padding-left:6px"' if colour else ""
    mark = ' class="loo-review-costliest"' if costliest else ""
    return f'<li{mark}{style} data-action="{d.index}">{said}</li>'


def review_notes(done: HandReview, record: Any) -> dict[int, str]:
    """Each weighed decision as a note for the hand's steps, at the position it was made in (step
    ``index``: before the action), so that stepping through the hand says what each choice gave up."""
    unit = unit_name(record.rules)
    notes = {}
    for d in done.decisions:
        said = f"Your decision here, weighed: {describe(d.chosen)}, {VERDICT_WORDS[d.verdict]}."
        if d.verdict != "best":
            said += (
                f" The best was {describe(d.best)}; this gave up about {d.lost.mean:.1f} {unit}"
                f" ({d.lost.low:.1f} to {d.lost.high:.1f})."
            )
        notes[d.index] = said
    return notes


def review_html(done: HandReview, record: Any, *, finished: bool = True) -> str:
    """The reader's weighed decisions as a labelled region: the summary, then each decision in order;
    while the weighing goes on (``finished`` false), how far it has got, as a status the screen
    reader announces."""
    unit = unit_name(record.rules)
    weighing = [d for d in done.decisions if d.verdict == WEIGHING]
    if not finished:
        summary = (
            f"Weighing your decisions: {len(done.decisions) - len(weighing)} decided so far, "
            + (f"{len(weighing)} on more deals; " if weighing else "")
            + "step through the hand meanwhile."
        )
    elif not done.decisions:
        summary = "You had no choice to make in this hand."
    elif done.costliest is None:
        summary = "No decision of yours gave anything up beyond doubt: well played."
    else:
        worst = done.costliest
        summary = (
            f"Your decisions gave up about {done.given_up:.1f} {unit} in all. The costliest: "
            f"{describe(worst.chosen)} ({worst.verdict}); step to it below."
        )
    costliest = done.costliest if finished else None
    items = "".join(_item(d, unit, d is costliest) for d in done.decisions)
    deals = max((d.deals for d in done.decisions), default=0)
    status = ' role="status"' if not finished else ""
    return LAW_STYLE + (
        '<section class="loo-review-box" aria-label="Your decisions, weighed" '
        'style="font-size:14px;margin:6px 0;padding:6px 10px;border:1px solid #cfd8d2;background:#f7faf8">'
        f"<p{status}><b>{escape(summary)}</b></p>"
        '<ol style="margin:4px 0 4px 1.2em;padding:0;line-height:1.5">' + items + "</ol>"
        f'<p style="font-size:12px;color:#444">Each decision was played out over up to {deals} deals that fit what '
        "you knew when you made it; a choice is called a mistake only when the deals leave no doubt.</p>"
        "</section>"
    )


class HandWeighing:
    """The weighing of a finished hand as the Review tab shows it, in ``shown``: filled in decision by
    decision (``weigh``, :func:`weighing_hand` unless another is given) on the kernel's event loop, or
    the worker's in the reader's browser, one decision a turn, so that the reader may step through the
    hand and use the table meanwhile; all at once where no event loop runs (a script, a test).
    ``done(review, record)`` is called once it is whole; ``failed()`` if the weighing raised, which the
    tab says, asking the reader to try again; :meth:`stop` drops a weighing in progress (the next hand
    is dealt)."""

    def __init__(
        self,
        shown: Any,
        done: Callable[[HandReview, Any], None],
        failed: Callable[[], None],
        weigh: Callable[[Any, int], Iterator[HandReview]] = weighing_hand,
    ) -> None:
        self.shown = shown
        self.done = done
        self.failed = failed
        self.weigh = weigh
        self.busy = False
        self._run = 0
        self._tasks: set[asyncio.Future[None]] = set()  # kept until done: a loop keeps only weak references

    def start(self, record: Any, seat: int) -> None:
        self.stop()
        self.busy = True
        self.shown.value = f'<p role="status">{WORKING}</p>'
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no event loop runs here: weighed at once
            try:
                whole = deque(self.weigh(record, seat), maxlen=1)  # the last step is the whole review
            except Exception:
                self._fail()
                return
            self._finish(whole[0] if whole else HandReview((), 1.0), record)
            return
        task = asyncio.ensure_future(self._fill(self._run, record, seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fill(self, run: int, record: Any, seat: int) -> None:
        last = HandReview((), 1.0)
        try:
            steps = self.weigh(record, seat)
            while True:
                await asyncio.sleep(0)  # the reader's clicks first, between one decision and the next
                if run != self._run:
                    return
                step = next(steps, None)
                if step is None:
                    break
                last = step
                self.shown.value = review_html(last, record, finished=False)
        except Exception:
            if run == self._run:
                self._fail()
            return
        if run == self._run:
            self._finish(last, record)

    def _fail(self) -> None:
        """Said in the tab and logged; the table plays on, and the reader may weigh the hand again."""
        log.exception("the review of a finished hand failed")
        self.busy = False
        self.shown.value = f'<p role="alert">{FAILED}</p>'
        self.failed()

    def _finish(self, last: HandReview, record: Any) -> None:
        self.busy = False
        self.shown.value = review_html(last, record)
        self.done(last, record)

    def stop(self) -> None:
        self._run += 1
        self.busy = False
