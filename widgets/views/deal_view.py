"""Seeded deals for the static book: every deal is carried in the page, face up, and a row of
buttons switches between them in the browser (``jslink``), so it works with no kernel.

The live tables play with :mod:`widgets.views.table_view` instead, which shows a seat only its own cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import ipywidgets as ipw

from loo import deal_three_card
from loo.svg import deal_html

DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


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
