"""A whole live table: the table itself, a step-through of the finished hand, the ledger and the rules.

Each part is a view of the one :class:`~widgets.model.TableModel`; this module only lays them
out in tabs and wires the review button. The constructor never displays.

>>> table = live_table("nap", seed=3, rng=random.Random(3))
>>> [table.tabs.get_title(i) for i in range(len(table.tabs.children))]
['Table', 'Review', 'Ledger', 'Rules']
"""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as ipw

from widgets.ledger_view import LedgerView
from widgets.model import TableModel
from widgets.rules_picker import RulesPicker
from widgets.safety import guarded
from widgets.step_viewer import StepViewer
from widgets.table_view import TableView

REVIEW_WAIT = "The review opens when the hand is over: until then it would show the other hands."


class LiveTable(ipw.VBox):
    """The table, the review of the last hand, the game's ledger and the rules picker, in tabs."""

    def __init__(self, model: TableModel) -> None:
        self.model = model
        self.table = TableView(model)
        self.ledger = LedgerView(model)
        self.picker = RulesPicker(model)
        self._review_note = ipw.HTML(f"<p>{REVIEW_WAIT}</p>")
        self._review_button = ipw.Button(
            description="Step through this hand",
            tooltip="Every step of the finished hand, with every hand face up",
            disabled=True,
            layout=ipw.Layout(width="auto"),
        )
        self._review = ipw.VBox()
        review = ipw.VBox([self._review_note, self._review_button, self._review])
        self.tabs = ipw.Tab(
            [self.table, review, self.ledger, self.picker], titles=("Table", "Review", "Ledger", "Rules")
        )
        super().__init__([self.tabs])
        self.add_class("loo-live-table")
        self._wire()
        self._update()

    def _wire(self) -> None:
        report = self.table._say
        self.model.observe(guarded(report)(lambda _change: self._update()), names=["version"])
        self._review_button.on_click(guarded(report)(lambda _b: self._show_review()))

    def _update(self) -> None:
        over = self.model.hand.is_over
        self._review_button.disabled = not over
        if not over and self._review.children:
            self._review.children = ()  # the next hand is in play: the last one's review goes
        self._review_note.value = "<p>The hand is over: step through it.</p>" if over else f"<p>{REVIEW_WAIT}</p>"

    def _show_review(self) -> None:
        record = self.model.record()
        if record is None:  # pragma: no cover - the button is disabled while the hand is in play
            self._review_note.value = f"<p>{REVIEW_WAIT}</p>"
            return
        self._review.children = (StepViewer(record, title="The hand just played").widget(),)


def live_table(
    game: str = "three-card-loo",
    preset: str | None = None,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    **kwargs: Any,
) -> LiveTable:
    """A live table of ``game`` under ``preset`` (its primary source's rules by default)."""
    return LiveTable(TableModel(game, preset=preset, seed=seed, rng=rng, **kwargs))
