"""A dealt hand a reader can look at and deal again: the foundation's widgets.

Model and view apart (STYLE.md): :class:`DealModel` holds the state and knows
nothing of widgets; :class:`DealView` observes it.  A view renders only what
its seat may see: the other hands and the miss are drawn face down, and their
cards are never put into any widget's state.

``deal_browser`` is the static-book version: every deal is carried in the
page and a row of buttons switches between them in the browser (``jslink``),
so it works with no kernel.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from html import escape

import ipywidgets as ipw
import traitlets

from loo import Deal, deal_three_card
from loo.svg import card_svg, deal_html, hand_svg
from widgets.safety import guarded

DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


class DealModel(traitlets.HasTraits):
    """A three-card Loo deal chosen by its seed; dealing again moves to the next seed."""

    seed = traitlets.Int(1)
    names = traitlets.List(traitlets.Unicode(), default_value=list(DEFAULT_NAMES))
    dealer = traitlets.Int(len(DEFAULT_NAMES) - 1)

    @property
    def deal(self) -> Deal:
        return deal_three_card(random.Random(self.seed), seats=len(self.names), dealer=self.dealer)

    def deal_again(self) -> None:
        self.seed += 1


def seat_view_html(deal: Deal, seat: int, names: Sequence[str]) -> str:
    """The table as ``seat`` sees it: its own hand and the turn-up face up, everything else face down."""
    rows = []
    for other, hand in enumerate(deal.hands):
        marks = [m for m, s in (("dealer", deal.dealer), ("eldest hand", deal.eldest)) if s == other]
        who = "you" if other == seat else names[other]
        title = f"{names[other]}{' (you)' if other == seat else ''}"
        if marks:
            title += f" · {', '.join(marks)}"
        if other == seat:
            svg = hand_svg(hand.sorted().cards, width=64, label=f"your hand: {', '.join(hand.sorted().names())}")
        else:
            svg = hand_svg([None] * len(hand), width=40, label=f"{who}'s hand: {len(hand)} cards face down")
        rows.append(
            f'<div class="loo-seat{" loo-you" if other == seat else ""}">'
            f'<div class="loo-seat-name">{escape(title)}</div>{svg}</div>'
        )
    rows.append(
        '<div class="loo-seat"><div class="loo-seat-name">The miss</div>'
        + hand_svg([None] * len(deal.miss), width=40, label="the miss: three cards face down")
        + "</div>"
    )
    rows.append(
        f'<div class="loo-seat"><div class="loo-seat-name">Turn-up: {deal.turnup.suit.plural} are trumps</div>'
        f"{card_svg(deal.turnup, width=48)}</div>"
    )
    return (
        '<div class="loo-table" style="display:flex;flex-wrap:wrap;align-items:flex-end;gap:12px 20px;'
        'font-family:system-ui,sans-serif;font-size:14px">' + "".join(rows) + "</div>"
    )


class DealView(ipw.VBox):
    """One seat's view of a deal, with a Deal button. Construct it, then display it; it never displays itself."""

    def __init__(self, model: DealModel | None = None, *, seat: int = 0) -> None:
        self.model = model if model is not None else DealModel()
        self.seat = seat
        self._table = ipw.HTML()  # heading and table in one widget, so they change together
        self._status = ipw.HTML()
        self._deal_button = ipw.Button(
            description="Deal",
            tooltip="Shuffle and deal a new hand",
            button_style="primary",
        )
        self._deal_button.add_class("loo-deal-button")
        self._wire()
        super().__init__(
            [self._table, ipw.HBox([self._deal_button, self._status])],
        )
        self.add_class("loo-deal-view")
        self._render()

    def _wire(self) -> None:
        """Every event of this view is connected here, and only here."""
        self._deal_button.on_click(guarded(self._say)(lambda _button: self.model.deal_again()))
        self.model.observe(guarded(self._say)(lambda _change: self._render()), names=["seed", "names", "dealer"])

    def _say(self, message: str) -> None:
        self._status.value = f'<span role="status" aria-live="polite">{escape(message)}</span>'

    def _render(self) -> None:
        deal = self.model.deal
        names = self.model.names
        heading = (
            f'<div class="loo-heading" aria-live="polite"><strong>Deal number {self.model.seed}</strong> · '
            f"you sit as {escape(names[self.seat])}</div>"
        )
        self._table.value = heading + seat_view_html(deal, self.seat, names)
        self._status.value = ""


def deal_browser(seeds: Sequence[int], *, names: Sequence[str] = DEFAULT_NAMES, dealer: int | None = None) -> ipw.VBox:
    """Several seeded deals shown face up, switched in the browser: works in the static book.

    Every deal is rendered now, in Python, and carried in the page; the buttons
    change the visible one through a browser-side link, with no kernel.
    """
    if not seeds:
        raise ValueError("deal_browser needs at least one seed")
    dealer = len(names) - 1 if dealer is None else dealer
    pages = []
    for seed in seeds:
        deal = deal_three_card(random.Random(seed), seats=len(names), dealer=dealer)
        pages.append(ipw.HTML(deal_html(deal, names=names)))
    stack = ipw.Stack(pages, selected_index=0)
    chooser = ipw.ToggleButtons(
        options=[f"Deal {seed}" for seed in seeds],
        index=0,
        description="Show:",
        tooltips=[f"Show the deal shuffled with seed {seed}" for seed in seeds],
        style={"button_width": "auto"},
    )
    ipw.jslink((chooser, "index"), (stack, "selected_index"))
    box = ipw.VBox([chooser, stack])
    box.add_class("loo-deal-browser")
    return box
