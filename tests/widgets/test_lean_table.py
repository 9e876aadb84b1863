"""A live table is quick to open: few widgets, layouts and styles shared, the card sheet left to the
page when the page has it, and the first deal's start-up paid before any reader comes."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import ipywidgets as ipw
import pytest
from ipywidgets.widgets.widget import _instances

from tests.helpers.loo_helpers import EVERY_TABLE_GAME
from widgets.draw.card_style import PAGE_SHEET_ENV, card_stylesheet, sheet_in_page
from widgets.kernel.table_router import served_table, warm_up
from widgets.table.model import TableModel
from widgets.views.live_table import LiveTable
from widgets.views.shared import is_shared, shared_layout
from widgets.views.table_view import TableView


def made_by(build: object) -> list[ipw.Widget]:
    before = set(_instances)
    assert callable(build)
    build()
    return [_instances[k] for k in _instances if k not in before]


@pytest.mark.parametrize(("game", "preset"), EVERY_TABLE_GAME)
def test_a_table_opens_with_few_widgets_and_shares_its_layouts_and_styles(game: str, preset: str) -> None:
    """Each widget is a message from the kernel and a model the page must build before the table can
    be played: a table once took 149, 94 of them layouts and styles left at their defaults."""
    shared_layout()  # made once per kernel, not per table
    # So are the shared styles (widgets.views.shared.lean): made by whichever table a process builds first, which
    # the count below must not depend on (alone, or first in its process, this case counted them).
    LiveTable(TableModel("three-card-loo", seed=2, rng=random.Random(2)))
    made = made_by(lambda: LiveTable(TableModel(game, preset=preset, seed=1, rng=random.Random(1))))
    kinds = Counter(type(w).__name__ for w in made)
    layouts = kinds["Layout"]
    styles = sum(n for kind, n in kinds.items() if kind.endswith("Style"))
    assert len(made) <= 75, kinds
    assert layouts <= 6 and styles <= 6, kinds  # the few that differ from the shared ones


def test_with_the_sheet_in_the_page_the_table_sends_only_the_four_colour_sheet() -> None:
    own = TableView(TableModel("three-card-loo", seed=2), page_sheet=False)
    assert own._style.value == card_stylesheet()
    view = TableView(TableModel("three-card-loo", seed=2), page_sheet=True)
    assert view._style.value == ""
    view._four_colour.value = True
    assert view._style.value == card_stylesheet(four_colour=True)
    view._four_colour.value = False
    assert view._style.value == ""


def test_the_server_tells_its_kernels_that_the_page_has_the_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PAGE_SHEET_ENV, raising=False)
    assert not sheet_in_page() and TableView(TableModel("nap", preset="hoffmann", seed=2))._style.value
    monkeypatch.setenv(PAGE_SHEET_ENV, "1")
    assert sheet_in_page() and served_table("nap", "hoffmann", "").table._style.value == ""  # type: ignore[attr-defined]


def test_asking_for_a_new_game_shows_its_row_alone() -> None:
    """The confirmation row is shown and hidden through its own layout, never a shared one."""
    view = TableView(TableModel("domino-loo", seed=4))
    view.model.act(view.model.legal()[0])  # a move of the reader's: a new game would lose it, so it asks
    asking = view._replacing.ask_row
    view._new_game.click()
    assert asking.layout.display is None and not is_shared(asking.layout)
    assert shared_layout().display is None and shared_layout("row").display is None
    view._replacing._no.click()
    assert asking.layout.display == "none" and shared_layout("row").display is None


def test_closing_a_moves_buttons_leaves_the_shared_layout_and_style_open() -> None:
    view = TableView(TableModel("nap", preset="hoffmann", seed=3, rng=random.Random(3)))
    layout = shared_layout()
    closed = 0
    for _ in range(8):
        old = list(view._choices.children)
        legal = [b for b in old if isinstance(b, ipw.Button) and b.button_style == "primary"]
        (legal[0] if legal else view._next).click()  # a choice, or the next hand once one is over
        assert all(b.comm is None for b in old), "the last position's buttons are closed"
        closed += len(old)
    assert closed >= 8
    assert shared_layout() is layout and layout.comm is not None, "and the layout they shared is not"
    assert all(b.layout is layout and b.style.comm is not None for b in view._choices.children)


@pytest.mark.parametrize(("game", "preset"), EVERY_TABLE_GAME)
def test_warming_up_shows_nothing_and_saves_nothing(
    game: str, preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANTERLOO_DB", str(tmp_path / "games.sqlite3"))
    assert made_by(lambda: warm_up(game, preset)) == []
    assert list(tmp_path.iterdir()) == []


def test_a_shared_layout_refuses_a_change_and_keeps_its_value() -> None:
    """A button hidden through the layout every lean widget shares once hid a whole table (its board
    too): a shared layout now refuses the change loudly, and a widget's own layout takes it."""
    from widgets.views.shared import SharedLayoutChanged, button, own_layout, shared_layout

    first, second = button("One", "the first", "loo-one"), button("Two", "the second", "loo-two")
    assert first.layout is second.layout is shared_layout()
    with pytest.raises(SharedLayoutChanged, match="display"):
        first.layout.display = "none"
    assert shared_layout().display is None and second.layout.display is None
    own_layout(first).display = "none"
    assert first.layout.display == "none" and second.layout.display is None
