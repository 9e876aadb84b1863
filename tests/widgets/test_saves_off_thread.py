"""A table's saves on a thread of their own (issue 28: a database that hangs held the reader's click
for the store's whole limit). The move is drawn at once; the writer saves every move, in order, one
write at a time; a store that fails is told to the reader once and tried again, losing nothing; a
write the store refuses (another tab moved on) reloads the game as saved, as it did at once before."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

from widgets.table.journal import Event, MemoryJournals, StoreError
from widgets.table.model import TableModel
from widgets.table.save_writer import SaveWriter
from widgets.table.saving import NOT_SAVING_MESSAGE, SAVED_AGAIN_MESSAGE, STALE_MESSAGE

WAIT = 30.0  # what a test waits at most for the writer's thread: never reached unless it is broken


class GatedStore(MemoryJournals):
    """Journals kept in memory whose writes wait until the test opens the gate, or fail while told to."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.gate.set()
        self.failing = False
        self.writes: list[int] = []  # how many events each write carried
        self.threads: set[str] = set()

    def append(self, table_id: str, expected: int, events: Sequence[Event]) -> int:
        self.writes.append(len(events))
        self.threads.add(threading.current_thread().name)
        assert self.gate.wait(WAIT), "the test never let the store answer"
        if self.failing:
            raise StoreError("the disk is full")
        return super().append(table_id, expected, events)


def saving_table(store: GatedStore) -> tuple[TableModel, SaveWriter, str]:
    table_id = store.new_table("nap")
    model = TableModel("nap", seed=3, rng=random.Random(3))
    assert model.attach(store, table_id)
    writer = SaveWriter(lambda: store)
    model.save_off_thread(writer)
    return model, writer, table_id


def settle(model: TableModel, writer: SaveWriter) -> None:
    """Let the writer finish what it was given, and the table take it (as the kernel's loop would)."""
    while writer.busy:
        assert writer.wait(WAIT), "the writer did not finish"
        model.saves_done()
    model.saves_done()


def test_a_move_is_drawn_while_the_store_hangs_and_saved_in_order_once_it_answers() -> None:
    store = GatedStore()
    model, writer, table_id = saving_table(store)
    store.gate.clear()  # the database hangs
    before = model.hand.actions
    assert model.act(model.legal()[0]) and model.act(model.legal()[0])  # two clicks, each answered at once
    assert len(model.hand.actions) > len(before), "the moves are drawn"
    assert writer.busy and not store.gate.is_set(), "answered while the store was still hanging"
    assert NOT_SAVING_MESSAGE not in model.message, "a write under way is not a failure"
    assert "MainThread" not in store.threads - {"MainThread"} and store.writes[-1] == 1
    store.gate.set()
    settle(model, writer)
    assert store.writes[1:] == [1, 1], "one write at a time: the second move waited for the first's"
    assert store.load(table_id).events == model._history
    assert model.saving and NOT_SAVING_MESSAGE not in model.message


def test_a_failing_store_is_told_once_and_tried_again_and_loses_no_move() -> None:
    store = GatedStore()
    model, writer, table_id = saving_table(store)
    store.failing = True
    for _ in range(3):
        model.act(model.legal()[0])
        settle(model, writer)
    assert NOT_SAVING_MESSAGE in model.message and not model.saving
    assert model.save_again() is False
    settle(model, writer)
    store.failing = False
    assert model.save_again() is False, "sent again: saved once the writer says so"
    settle(model, writer)
    assert model.saving and SAVED_AGAIN_MESSAGE in model.message and NOT_SAVING_MESSAGE not in model.message
    assert store.load(table_id).events == model._history


def test_a_store_that_answers_at_once_has_the_move_before_the_click_is_answered() -> None:
    """The click waits for its write a moment (SAVE_WAIT_SECONDS): a store at work has saved the move
    when the table is redrawn, so a kernel killed then loses nothing."""
    store = GatedStore()
    model, writer, table_id = saving_table(store)
    assert model.act(model.legal()[0])
    assert not writer.busy and model.saving and store.load(table_id).events == model._history


def test_a_write_refused_on_the_writers_thread_reloads_the_game_as_saved() -> None:
    store = GatedStore()
    model, writer, table_id = saving_table(store)
    other = TableModel.resume(store, table_id, rng=random.Random(5))  # another tab, saving where it plays
    assert other.act(other.legal()[-1])
    store.gate.clear()  # the store's answer comes after the click's
    assert model.act(model.legal()[0]), "drawn at once"
    store.gate.set()
    settle(model, writer)
    assert STALE_MESSAGE in model.message
    assert model._history == other._history == store.load(table_id).events
    assert not model._unsaved and model._count == store.count(table_id)
