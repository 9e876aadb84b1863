"""Moves a table kernel could not save, saved after it ends (widgets/store/lifeboat.py): a disk fault loses
no move even when the page is reloaded or closed before the disk is back."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tests.helpers.disk import database_files, read_only
from widgets.multiseat.shared_view import SAVED_MEANWHILE_MESSAGE, PendingDeals
from widgets.store.lifeboat import launch, save_when_possible
from widgets.store.seating import SeatBook
from widgets.store.sqlite import TableStore
from widgets.table.model import TableModel
from widgets.table.saving import NOT_SAVING_MESSAGE


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, TableModel]:
    """A table played while its database could not be written: the moves it keeps, and its database
    (named as the server names it to its kernels, which a lifeboat inherits)."""
    db = tmp_path / "db" / "tables.sqlite3"
    monkeypatch.setenv("LANTERLOO_DB", str(db))
    store = TableStore(db)
    table_id = store.new_table("nap")
    model = TableModel("nap", rng=random.Random(5))
    model.attach(store, table_id)
    with read_only(*database_files(db)):
        for _ in range(3):
            assert model.act(model.legal()[0]) if model.legal() else model.new_hand()
    assert len(model._unsaved) == 3 and store.count(table_id) == 1
    return db, table_id, model


def test_a_lifeboat_saves_the_moves_once_the_database_can_be_written(kept: tuple[Path, str, TableModel]) -> None:
    db, table_id, model = kept
    with read_only(*database_files(db)):
        started = time.monotonic()
        outcome = save_when_possible(table_id, model._count, model._unsaved, keep=0.5, every=0.1)
    assert outcome.startswith("lost") and time.monotonic() - started < 5, "tried for as long as it keeps them"
    assert save_when_possible(table_id, model._count, model._unsaved, keep=5, every=0.1) == "saved"
    resumed = TableModel.resume(TableStore(db), table_id)
    assert resumed.hand.actions == model.hand.actions


def test_a_lifeboat_never_writes_over_a_game_played_on_meanwhile(kept: tuple[Path, str, TableModel]) -> None:
    db, table_id, model = kept
    other = TableModel.resume(TableStore(db), table_id)  # the page reopened: played on from the last saved move
    assert other.act(other.legal()[0])
    assert save_when_possible(table_id, model._count, model._unsaved, keep=1, every=0.1).startswith("dropped")
    assert TableStore(db).count(table_id) == 2


def test_a_lifeboat_is_a_process_of_its_own_that_outlives_its_kernel(kept: tuple[Path, str, TableModel]) -> None:
    db, table_id, model = kept
    with read_only(*database_files(db)):
        assert launch(table_id, model._count, model._unsaved)
        time.sleep(1.0)
        assert TableStore(db).count(table_id) == 1, "nothing written while it cannot be"
    deadline = time.monotonic() + 20
    while TableStore(db).count(table_id) != 4:
        assert time.monotonic() < deadline, "the lifeboat did not save the moves"
        time.sleep(0.2)


def test_a_table_reopened_during_the_fault_shows_the_moves_its_lifeboat_saved(
    kept: tuple[Path, str, TableModel],
) -> None:
    db, table_id, model = kept
    with read_only(*database_files(db)):
        reopened = TableModel.resume(TableStore(db), table_id)  # the page reloaded: its kernel ended
        assert NOT_SAVING_MESSAGE in reopened.message and reopened.hand.actions != model.hand.actions
        assert reopened._store is not None
        timer = PendingDeals(reopened, SeatBook(reopened._store), table_id)  # type: ignore[arg-type]
        timer.tick()
        assert NOT_SAVING_MESSAGE in reopened.message
    assert save_when_possible(table_id, model._count, model._unsaved, keep=5, every=0.1) == "saved"
    timer.tick()  # the reopened table's next try, two seconds on
    assert reopened.hand.actions == model.hand.actions and SAVED_MEANWHILE_MESSAGE in reopened.message
    assert reopened.saving and SeatBook(reopened._store).pending(table_id) is None
