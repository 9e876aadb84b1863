"""The foundation's widgets, driven as a reader would, with no browser."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from typing import Any

import ipywidgets as ipw
import pytest
from ipywidgets.widgets.widget import _instances as widget_registry_dict
from ipywidgets.widgets.widget_link import Link

from loo import deal_three_card
from widgets.table.model import TableModel
from widgets.views.deal_view import deal_browser
from widgets.views.safety import READER_MESSAGE
from widgets.views.table_view import TableView


def widget_registry() -> dict[str, ipw.Widget]:
    """Every live widget, as the kernel's comm manager knows them."""
    return dict(widget_registry_dict)


def walk(widget: ipw.Widget) -> Iterator[ipw.Widget]:
    """The widget and every widget it contains."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def synced_text(widget: ipw.Widget) -> str:
    """Everything the browser could read from these widgets' synced state."""
    parts: list[Any] = []
    for w in walk(widget):
        parts.append(w.get_state())
    return repr(parts)


def test_a_failing_callback_shows_a_message_and_keeps_the_table(caplog: pytest.LogCaptureFixture) -> None:
    view = TableView(TableModel("three-card-loo", preset="britannica", seed=3, rng=random.Random(3)))
    board_before = view._board.value

    def broken(*_args: Any) -> bool:
        raise RuntimeError("boom")

    view.model.act = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="lanterloo.widgets"):
        next(b for b in view._choices.children if b.button_style == "primary").click()  # must not raise
    assert READER_MESSAGE in view._status.value
    assert "boom" not in synced_text(view)
    assert view._board.value == board_before
    del view.model.act  # the table is still usable: the real method is back, and a click plays
    next(b for b in view._choices.children if b.button_style == "primary").click()
    assert view.model.can_undo
    assert any("boom" in r.getMessage() or (r.exc_info and "boom" in str(r.exc_info[1])) for r in caplog.records)


def test_deal_browser_carries_every_deal_and_links_buttons_to_the_stack() -> None:
    box = deal_browser([12, 13, 14], names=["A", "B", "C", "D", "E"])
    chooser, stack = box.children
    assert isinstance(chooser, ipw.ToggleButtons) and isinstance(stack, ipw.Stack)
    assert chooser.options == ("Deal 12", "Deal 13", "Deal 14")
    for seed, page in zip([12, 13, 14], stack.children, strict=True):
        deal = deal_three_card(random.Random(seed), seats=5, dealer=4)
        assert all(c.name in page.value for c in deal.hands[0])
    links = [w for w in widget_registry().values() if isinstance(w, Link)]
    assert any(link.source == (chooser, "index") and link.target == (stack, "selected_index") for link in links)


def test_deal_browser_needs_a_seed() -> None:
    with pytest.raises(ValueError, match="at least one seed"):
        deal_browser([])
