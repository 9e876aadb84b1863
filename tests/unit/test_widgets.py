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

from loo import deal_three_card, full_pack
from widgets.deal_view import DealModel, DealView, deal_browser
from widgets.safety import READER_MESSAGE


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


def visible_names(view: DealView) -> tuple[set[str], set[str]]:
    deal = view.model.deal
    mine = {c.name for c in deal.hands[view.seat]} | {deal.turnup.name}
    hidden = {c.name for c in full_pack()} - mine
    return mine, hidden


def test_deal_button_deals_a_new_hand_and_shows_it() -> None:
    view = DealView(DealModel(seed=100), seat=0)
    before = view.model.deal
    assert "Deal number 100" in view._table.value
    view._deal_button.click()
    assert view.model.seed == 101
    assert view.model.deal != before
    assert "Deal number 101" in view._table.value
    for card in view.model.deal.hands[0]:
        assert card.name in view._table.value


@pytest.mark.parametrize("seat", [0, 2, 4])
def test_no_widget_state_holds_a_card_the_seat_may_not_see(seat: int) -> None:
    view = DealView(DealModel(seed=7), seat=seat)
    for _ in range(5):
        state = synced_text(view)
        mine, hidden = visible_names(view)
        assert all(name in state for name in mine)
        leaked = [name for name in hidden if name in state]
        assert leaked == [], f"seat {seat} could read {leaked}"
        view._deal_button.click()


def test_a_failing_callback_shows_a_message_and_keeps_the_table(caplog: pytest.LogCaptureFixture) -> None:
    view = DealView(DealModel(seed=3), seat=0)
    table_before = view._table.value

    def broken() -> None:
        raise RuntimeError("boom")

    view.model.deal_again = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="lanterloo.widgets"):
        view._deal_button.click()  # must not raise
    assert READER_MESSAGE in view._status.value
    assert "boom" not in synced_text(view)
    assert view._table.value == table_before
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
