"""Where tables keep their games: saved as they happen and resumed exactly, in every game; ids that
are not ours refused; a stale writer refused without harm. The contract's tests run against every
home of a table: the server's database, on SQLite (the default) and on PostgreSQL (a server of the
tests' own, :mod:`tests.helpers.postgres`), and the journals kept for a table in the reader's
browser (``widgets.table.journal.MemoryJournals``); restarts and forgetting are the databases' own, and
the journal's mode, the file's privacy, a file deleted in use and a file that cannot be written are SQLite's."""

from __future__ import annotations

import logging
import random
import sqlite3
import stat
import threading
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import pytest

from loo.records import MAX_RECORD_CHARS
from tests.helpers.disk import database_files, read_only
from tests.helpers.loo_helpers import EVERY_TABLE_GAME
from tests.helpers.playing import finish_table
from widgets.kernel.table_router import served_table
from widgets.store.sqlite import BadTableId, NotWritable, StaleTable, TableStore, UnknownTable, default_path
from widgets.table.journal import MAX_EVENT_CHARS, Event, Journals, MemoryJournals, Saved, StoreError
from widgets.table.model import TableModel
from widgets.table.saving import NOT_SAVING_MESSAGE, SAVED_AGAIN_MESSAGE, STALE_MESSAGE, STALE_NEW_GAME_MESSAGE
from widgets.views.live_table import LiveTable
from widgets.views.table_view import TableView

GAMES = EVERY_TABLE_GAME


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where the server's database is, in turn: an SQLite file, and an empty PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "tables.sqlite3"
    return str(request.getfixturevalue("postgres").emptied_database())


@pytest.fixture(params=["sqlite", "postgresql", "browser"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Journals:
    """Each home of a table in turn: the server's database (SQLite, PostgreSQL), and the journals of
    an in-browser table."""
    if request.param == "sqlite":
        return TableStore(tmp_path / "tables.sqlite3")
    if request.param == "postgresql":
        return TableStore(request.getfixturevalue("postgres").emptied_database())
    return MemoryJournals()


@pytest.fixture
def database(place: str | Path) -> TableStore:
    return TableStore(place)


def same_game(a: TableModel, b: TableModel) -> None:
    """Everything a reader sees, and everything the game keeps, is the same at both tables."""
    assert (a.game, a.rules, a.names, a.seat) == (b.game, b.rules, b.names, b.seat)
    assert a.view() == b.view()
    assert list(a.hand.actions) == list(b.hand.actions)
    assert a.records == b.records and a.balances() == b.balances() and a.pool == b.pool
    assert a.hand_lines() == b.hand_lines() and a.can_undo == b.can_undo
    assert a.deal_code() == b.deal_code()


def play(table: TableModel, rng: random.Random, moves: int) -> None:
    """``moves`` of the reader's (a take-back now and then), dealing on when a hand ends."""
    for _ in range(moves):
        if table.hand.is_over:
            assert table.new_hand()
        elif table.can_undo and rng.random() < 0.15:
            assert table.undo()
        else:
            assert table.act(rng.choice(table.legal()))


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_a_game_is_resumed_mid_hand_and_between_hands(store: Journals, game: str, preset: str) -> None:
    table_id = store.new_table(game)
    table = TableModel(game, preset=preset, rng=random.Random(3))
    assert table.attach(store, table_id)
    rng = random.Random(4)
    play(table, rng, 25)
    if table.hand.is_over:  # mid-hand: deal on, and take one step into the new hand if the reader can
        table.new_hand()
    if table.legal():
        table.act(table.legal()[0])
    same_game(table, TableModel.resume(store, table_id))
    # between hands: finish this one
    while not table.hand.is_over:
        assert table.act(rng.choice(table.legal()))
    resumed = TableModel.resume(store, table_id)
    same_game(table, resumed)
    assert resumed.seed == table.seed  # a finished hand shows its seed after a reload too
    # the resumed table plays on and saves as it goes
    assert resumed.new_hand()
    same_game(resumed, TableModel.resume(store, table_id))


def test_a_take_back_is_saved_so_a_reload_does_not_bring_the_move_back(store: Journals) -> None:
    table_id = store.new_table("nap")
    table = TableModel("nap", seed=5, rng=random.Random(5))
    table.attach(store, table_id)
    before = table.view()
    assert table.act(table.legal()[0])
    assert table.undo()
    resumed = TableModel.resume(store, table_id)
    assert resumed.view() == before and not resumed.can_undo


def test_a_new_game_and_a_deal_code_are_saved(store: Journals) -> None:
    table_id = store.new_table("three-card-loo")
    table = TableModel("three-card-loo", preset="peel", rng=random.Random(1))
    table.attach(store, table_id)
    assert table.new_game("nap", rules="hoffmann")
    same_game(table, TableModel.resume(store, table_id))
    assert table.play_code("dl.celko.s0.n77")
    resumed = TableModel.resume(store, table_id)
    same_game(table, resumed)
    assert str(resumed.deal_code()) == "dl.celko.s0.n77"
    # only the current game is read back: from its start
    assert [e["type"] for e in store.load(table_id).events] == ["start"]


def test_an_imported_record_is_saved(store: Journals) -> None:
    source = TableModel("three-card-loo", preset="britannica", seed=8, rng=random.Random(8))
    finish_table(source)
    text = source.export()
    assert text is not None
    table_id = store.new_table("three-card-loo")
    table = TableModel("three-card-loo", rng=random.Random(2))
    table.attach(store, table_id)
    assert table.import_record(text)
    same_game(table, TableModel.resume(store, table_id))


@pytest.mark.parametrize("bad", ["", "x", "a" * 21, "a" * 23, "../../etc/passwd", "abc def ghi jkl mno pq", "é" * 22])
def test_a_malformed_id_is_refused(store: Journals, bad: str) -> None:
    with pytest.raises(BadTableId):
        store.load(bad)
    with pytest.raises(BadTableId):
        store.append(bad, 0, [{"type": "undo"}])


def test_an_unknown_id_is_refused(store: Journals) -> None:
    store.new_table("nap")
    forged = "A" * 22
    with pytest.raises(UnknownTable):
        store.load(forged)
    with pytest.raises(UnknownTable):
        TableModel.resume(store, forged)
    with pytest.raises(UnknownTable):
        store.append(forged, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])


def test_new_ids_are_fresh_and_unguessable(store: Journals) -> None:
    ids = {store.new_table("nap") for _ in range(50)}
    assert len(ids) == 50 and all(len(i) == 22 for i in ids)


def test_two_writers_with_the_same_starting_state_the_second_is_refused(store: Journals) -> None:
    table_id = store.new_table("three-card-loo")
    assert store.append(table_id, 0, [{"type": "start", "code": "l3.peel.s0.n1"}]) == 1
    assert store.append(table_id, 1, [{"type": "deal", "seed": 2}]) == 2
    with pytest.raises(StaleTable) as refused:
        store.append(table_id, 1, [{"type": "deal", "seed": 3}])
    assert (refused.value.expected, refused.value.actual) == (1, 2)
    saved = store.load(table_id)
    assert saved.count == 2 and saved.events[-1] == {"type": "deal", "seed": 2}


def test_two_tabs_on_one_table_the_stale_one_is_told_and_nothing_is_corrupted(place: str | Path) -> None:
    path = place
    table_id = TableStore(path).new_table("nap")
    first = TableModel("nap", seed=4, rng=random.Random(4))
    first.attach(TableStore(path), table_id)
    # two tabs, two kernels, two connections, the same saved game
    a, b = TableModel.resume(TableStore(path), table_id), TableModel.resume(TableStore(path), table_id)
    same_game(a, b)
    assert a.act(a.legal()[0])
    saved_after_a = TableModel.resume(TableStore(path), table_id)
    before = b.view()
    assert not b.act(b.legal()[-1]), "the stale tab's move is refused"
    assert b.message == STALE_MESSAGE and "another tab" in b.message
    assert b.view() != before, "the stale tab now shows the game as saved"
    same_game(b, saved_after_a)
    same_game(a, TableModel.resume(TableStore(path), table_id))
    # the stale tab, reloaded, plays on; now the other one is stale in its turn
    if b.legal():
        assert b.act(b.legal()[0])
        assert not a.act(a.legal()[0]) if a.legal() else not a.undo()
        same_game(a, b)


def test_a_second_tab_of_a_new_table_takes_the_game_saved_first(store: Journals) -> None:
    table_id = store.new_table("nap")
    a, b = TableModel("nap", rng=random.Random(1)), TableModel("nap", rng=random.Random(2))
    assert a.attach(store, table_id)
    assert not b.attach(store, table_id)
    same_game(a, b)
    assert store.count(table_id) == 1


def test_the_file_keeps_a_rollback_journal_and_is_private(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "tables.sqlite3"
    store = TableStore(path)
    assert store.journal_mode() == "delete"  # no WAL: its index is a mapped file (see widgets.store.sqlite)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_file_an_earlier_version_left_in_wal_mode_is_turned_to_a_rollback_journal(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    table_id = TableStore(path).new_table("nap")
    with sqlite3.connect(path) as old:
        assert old.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
    store = TableStore(path)
    assert store.journal_mode() == "delete" and store.count(table_id) == 0
    with sqlite3.connect(path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # the file's own mode now


def test_a_restart_is_a_new_store_on_the_same_file_and_resumes(place: str | Path) -> None:
    path = place
    store = TableStore(path)
    table_id = store.new_table("irish-loo")
    table = TableModel("irish-loo", rng=random.Random(6))
    table.attach(store, table_id)
    play(table, random.Random(7), 12)
    store.close()  # the server stops
    restarted = TableStore(path)
    same_game(table, TableModel.resume(restarted, table_id))


def test_a_table_whose_database_is_gone_plays_on_unsaved(database: TableStore) -> None:
    table_id = database.new_table("nap")
    table = TableModel("nap", rng=random.Random(3))
    table.attach(database, table_id)
    database.close()  # the database is gone: writing fails, and so does reading the game back
    assert table.act(table.legal()[0])  # the move is made, and kept in memory
    assert NOT_SAVING_MESSAGE in table.message  # the reader is told in plain words
    play(table, random.Random(1), 6)  # and plays on, unsaved
    assert table.saved_events == 1 and NOT_SAVING_MESSAGE in table.message


class FlakyJournals:
    """Journals whose first ``failures`` writes fail as a full disk does, and then work."""

    def __init__(self, inner: Journals, failures: int) -> None:
        self.inner, self.failures = inner, failures

    def new_table(self, page: str) -> str:
        return self.inner.new_table(page)

    def count(self, table_id: str) -> int:
        return self.inner.count(table_id)

    def load(self, table_id: str) -> Saved:
        return self.inner.load(table_id)

    def append(self, table_id: str, expected: int, events: Sequence[Event]) -> int:
        if self.failures:
            self.failures -= 1
            raise StoreError("the tables' database failed: database or disk is full")
        return self.inner.append(table_id, expected, events)


def test_the_database_maps_no_memory(tmp_path: Path) -> None:
    # a file that cannot be written gives errors, never SIGBUS
    assert TableStore(tmp_path / "tables.sqlite3").mmap_size() == 0


def test_a_full_disk_at_a_new_table_loses_no_move_and_the_page_says_so(store: Journals) -> None:
    flaky = FlakyJournals(store, failures=4)  # the new table's start, and the next three changes
    table_id = flaky.new_table("three-card-loo")
    table = TableModel("three-card-loo", preset="peel", rng=random.Random(6))
    view = TableView(table)
    assert table.attach(flaky, table_id)
    assert NOT_SAVING_MESSAGE in table.message and "saved again when it can" in view._status.value
    assert store.count(table_id) == 0
    play(table, random.Random(6), 3)  # the disk is still full: every move is kept, and the page says so
    assert escape(NOT_SAVING_MESSAGE) in view._status.value and store.count(table_id) == 0
    play(table, random.Random(7), 1)  # now the disk has room: every event waiting is saved
    assert store.count(table_id) == len(table._history) and not table._unsaved
    assert SAVED_AGAIN_MESSAGE in view._status.value and escape(NOT_SAVING_MESSAGE) not in view._status.value
    same_game(table, TableModel.resume(store, table_id))
    play(table, random.Random(8), 4)
    same_game(table, TableModel.resume(store, table_id))
    assert SAVED_AGAIN_MESSAGE not in table.message


def test_a_database_that_refuses_writes_is_a_store_error_and_no_move_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    database = TableStore(path)
    table_id = database.new_table("nap")
    table = TableModel("nap", rng=random.Random(3))
    assert table.attach(database, table_id)
    # SQLite refuses every write, as for a file it may only read. (Making the file read-only would
    # not do it: the connection already holds it open for writing, and root may write it anyway.)
    database._db.execute("PRAGMA query_only = 1")
    with pytest.raises(StoreError):
        database.append(table_id, 1, [{"type": "undo"}])
    play(table, random.Random(3), 5)
    assert NOT_SAVING_MESSAGE in table.message and database.count(table_id) == 1
    database._db.execute("PRAGMA query_only = 0")
    play(table, random.Random(4), 1)
    assert SAVED_AGAIN_MESSAGE in table.message
    same_game(table, TableModel.resume(TableStore(path), table_id))


def test_a_database_that_cannot_be_made_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(StoreError, match="cannot be opened"):
        TableStore(tmp_path / "file" / "tables.sqlite3")
    (tmp_path / "junk.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot be opened"):
        TableStore(tmp_path / "junk.sqlite3")


def test_browser_journals_whose_page_cannot_keep_the_game_keep_nothing() -> None:
    def full(_table_id: str, _saved: Saved) -> None:
        raise OSError("QuotaExceededError")

    journals = MemoryJournals(on_change=full)
    table_id = journals.new_table("nap")
    with pytest.raises(StoreError, match="could not keep"):
        journals.append(table_id, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])
    assert journals.count(table_id) == 0 and journals.load(table_id).events == []


def test_unused_reservations_are_forgotten(database: TableStore) -> None:
    unused, used = database.new_table("nap"), database.new_table("nap")
    database.append(used, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])
    assert database.forget_unused(older_than=-1) == 1
    with pytest.raises(UnknownTable):
        database.load(unused)
    assert database.count(used) == 1


def test_long_idle_tables_are_forgotten_whole(database: TableStore) -> None:
    table_id = database.new_table("nap")
    database.append(table_id, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}, {"type": "deal", "seed": 2}])
    assert database.forget_idle(older_than=3600) == 0
    assert database.forget_idle(older_than=-1) == 1
    with pytest.raises(UnknownTable):
        database.load(table_id)
    assert database._db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0, "its journal went with it"


def test_the_default_place_is_the_environment_or_the_users_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LANTERLOO_DB", str(tmp_path / "x.sqlite3"))
    assert default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("LANTERLOO_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "lanterloo" / "tables.sqlite3"
    assert "_build" not in default_path().parts


def test_browser_journals_hand_every_change_to_the_page_and_resume_from_it() -> None:
    """What the page keeps (the last Saved handed over) is enough to resume the game in a new page."""
    kept: dict[str, Saved] = {}
    journals = MemoryJournals(on_change=lambda table_id, saved: kept.__setitem__(table_id, saved))
    table_id = journals.new_table("five-card-loo")
    table = TableModel("five-card-loo", rng=random.Random(5))
    assert table.attach(journals, table_id)
    play(table, random.Random(2), 25)
    assert kept[table_id].count == table.saved_events
    reloaded = MemoryJournals()  # a reload: a new page, with only what the browser kept
    reloaded.restore(kept[table_id])
    same_game(table, TableModel.resume(reloaded, table_id))


def test_browser_journals_keep_only_the_current_game() -> None:
    journals = MemoryJournals()
    table_id = journals.new_table("nap")
    start = {"type": "start", "code": "nap.hoffmann.s0.n1"}
    journals.append(table_id, 0, [start, {"type": "deal", "seed": 2}])
    journals.append(table_id, 2, [{"type": "start", "code": "nap.hoffmann.s0.n9"}])
    saved = journals.load(table_id)
    assert saved.count == 3 and saved.events == [{"type": "start", "code": "nap.hoffmann.s0.n9"}]
    with pytest.raises(BadTableId):
        journals.restore(Saved("../etc", "nap", 1, [start]))


def finished_record(game: str = "three-card-loo", preset: str = "britannica", seed: int = 8) -> str:
    source = TableModel(game, preset=preset, seed=seed, rng=random.Random(seed))
    finish_table(source)
    text = source.export()
    assert text is not None
    return text


def test_a_record_longer_than_any_hand_record_is_refused_unread() -> None:
    padded = finished_record() + " " * MAX_RECORD_CHARS  # still JSON, and still that hand's record
    table = TableModel("nap", seed=3, rng=random.Random(3))
    before = table.view()
    assert not table.import_record(padded)
    assert "more than any hand record" in table.message and f"{MAX_RECORD_CHARS:,}" in table.message
    assert table.view() == before and table.game == "nap"


def test_the_longest_legal_hand_record_is_far_below_the_limit() -> None:
    names = [f"{'é' * 38}{i:02d}" for i in range(10)]  # ten seats of long names
    table = TableModel("five-card-loo", names=names, rng=random.Random(4))
    chooser = random.Random(4)
    while not table.hand.is_over:  # as many actions as it can: every player stays in
        legal = table.legal()
        table.act(chooser.choice([a for a in legal if a.verb not in ("pass", "throw")] or legal))
    text = table.export()
    assert text is not None and len(text) * 10 < MAX_RECORD_CHARS


def test_loading_records_again_and_again_keeps_one_game_in_the_journal(store: Journals) -> None:
    text = finished_record()
    table_id = store.new_table("three-card-loo")
    table = TableModel("three-card-loo", rng=random.Random(2))
    table.attach(store, table_id)
    first = table.saved_events  # the start, and under Peel the deal after the single
    for _ in range(10):
        assert table.import_record(text)
    saved = store.load(table_id)
    assert [e["type"] for e in saved.events] == ["start"] and saved.count == first + 10
    if isinstance(store, TableStore):  # and the database keeps no more than that one game
        assert store._db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    resumed = TableModel.resume(store, table_id)
    same_game(table, resumed)
    assert resumed.import_record(text)  # and it loads records on after a reload


def test_a_game_saved_with_an_import_event_still_resumes(store: Journals) -> None:
    """How earlier versions saved a loaded record: an ``import`` event after the game's start."""
    text = finished_record()
    table_id = store.new_table("three-card-loo")
    store.append(table_id, 0, [{"type": "start", "code": "l3.peel.s0.n5"}, {"type": "import", "record": text}])
    table = TableModel("three-card-loo", rng=random.Random(2))
    assert table.import_record(text)
    same_game(table, TableModel.resume(store, table_id))


def test_an_event_longer_than_a_table_saves_is_refused_in_plain_words(store: Journals) -> None:
    table_id = store.new_table("nap")
    store.append(table_id, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])
    with pytest.raises(StoreError, match="longer than a table saves"):
        store.append(table_id, 1, [{"type": "deal", "seed": 2}, {"type": "act", "note": "x" * MAX_EVENT_CHARS}])
    assert store.count(table_id) == 1 and len(store.load(table_id).events) == 1  # nothing was written


def test_a_new_game_refused_because_another_tab_played_on_says_so(place: str | Path) -> None:
    path = place
    table_id = TableStore(path).new_table("nap")
    first = TableModel("nap", rng=random.Random(1))
    first.attach(TableStore(path), table_id)
    a, b = TableModel.resume(TableStore(path), table_id), TableModel.resume(TableStore(path), table_id)
    view = TableView(b)
    assert a.act(a.legal()[0])
    view._new_game.click()
    if view._replacing.ask_row.layout.display is None:
        view._replacing._yes.click()
    # the stale tab asks for a new game: refused, and told why in the words for a new game
    assert b.message == STALE_NEW_GAME_MESSAGE
    assert escape("so the new game was not started") in view._status.value
    assert "the ledger starts again" not in view._status.value
    assert view._replacing.undo_row.layout.display == "none" and not b.can_restore  # nothing was replaced
    same_game(a, b)


def test_a_new_served_table_on_a_full_disk_opens_and_says_it_is_not_saved_yet(store: Journals) -> None:
    flaky = FlakyJournals(store, failures=1)
    table_id = flaky.new_table("nap")
    page = served_table("nap", "hoffmann", f"table={table_id}", store=flaky, rng=random.Random(2))
    assert isinstance(page, LiveTable)
    assert escape(NOT_SAVING_MESSAGE) in page.table._status.value and store.count(table_id) == 0
    if page.model.legal():
        assert page.model.act(page.model.legal()[0])
    else:
        assert page.model.new_hand()
    assert store.count(table_id) == 2 and SAVED_AGAIN_MESSAGE in page.model.message
    same_game(page.model, TableModel.resume(store, table_id))


def test_a_database_that_cannot_be_written_is_read_and_never_written_until_it_can_be(tmp_path: Path) -> None:
    """Opened read-only (issue 28, point 10): SQLite writes nothing, not even a file beside it, so no
    mapped file can be made read-only under a process; writable again, it is opened for writing."""
    path = tmp_path / "db" / "tables.sqlite3"
    with TableStore(path) as first:
        table_id = first.new_table("nap")
        first.append(table_id, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])
    with read_only(*database_files(path)):
        store = TableStore(path)
        assert store.read_only is not None and not store.can_write()
        assert store.load(table_id).count == 1
        with pytest.raises(NotWritable):
            store.append(table_id, 1, [{"type": "undo"}])
        assert sorted(p.name for p in path.parent.iterdir()) == ["tables.sqlite3"], "nothing written beside it"
    assert store.can_write() and store.read_only is None
    assert store.append(table_id, 1, [{"type": "undo"}]) == 2
    store.close()


def test_a_database_made_read_only_under_a_table_keeps_its_moves_and_saves_them_with_no_move_made(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db" / "tables.sqlite3"
    store = TableStore(path)
    table_id = store.new_table("nap")
    table = TableModel("nap", rng=random.Random(3))
    assert table.attach(store, table_id)
    with read_only(*database_files(path)):
        play(table, random.Random(3), 4)
        assert NOT_SAVING_MESSAGE in table.message and store.count(table_id) == 1
        assert not table.save_again()  # still read-only: tried again, kept again
        resumed = TableModel.resume(TableStore(path), table_id)  # a reload meanwhile: told at once
        assert NOT_SAVING_MESSAGE in resumed.message
    assert table.save_again(), "the disk is back: saved with no move made (the kernel's timer calls this)"
    assert SAVED_AGAIN_MESSAGE in table.message and store.count(table_id) == len(table._history)
    same_game(table, TableModel.resume(TableStore(path), table_id))


def test_a_table_whose_store_fails_is_saved_again_by_its_timer_alone(store: Journals) -> None:
    flaky = FlakyJournals(store, failures=3)
    table_id = flaky.new_table("nap")
    table = TableModel("nap", rng=random.Random(4))
    table.attach(flaky, table_id)
    play(table, random.Random(4), 1)
    assert NOT_SAVING_MESSAGE in table.message and not table.saving
    assert not table.save_again()  # the third failure
    assert table.save_again() and table.saving and store.count(table_id) == len(table._history)
    assert SAVED_AGAIN_MESSAGE in table.message


def test_a_store_that_fails_is_said_in_short_lines_with_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """A full disk or a database away is no bug: the table's log names the error when saving begins to
    fail, and when it saves again, each in one line. Before, a PostgreSQL frozen for four seconds left
    a traceback in every table's kernel log (bench/attack.py dbfreeze)."""
    memory = MemoryJournals()
    flaky = FlakyJournals(memory, failures=4)
    table_id = flaky.new_table("nap")
    table = TableModel("nap", rng=random.Random(4))
    with caplog.at_level(logging.INFO, logger="lanterloo"):
        table.attach(flaky, table_id)
        play(table, random.Random(4), 2)
        assert not table.save_again() and table.save_again()
    lines = [r for r in caplog.records if r.name.startswith("lanterloo")]
    assert not any(r.exc_info for r in lines), "no traceback"
    failed = [r.getMessage() for r in lines if "could not save" in r.getMessage()]
    assert len(failed) == 1 and "StoreError: the tables' database failed: database or disk is full" in failed[0]
    assert any("saved again" in r.getMessage() for r in lines) and memory.count(table_id) == len(table._history)


def test_a_database_file_deleted_while_in_use_is_a_store_error_and_no_move_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    database = TableStore(path)
    table_id = database.new_table("nap")
    table = TableModel("nap", rng=random.Random(3))
    assert table.attach(database, table_id)
    path.unlink()  # what SQLite would write now goes to a file no one can open again
    with pytest.raises(StoreError, match="deleted or replaced"):
        database.append(table_id, 1, [{"type": "undo"}])
    play(table, random.Random(3), 3)
    assert NOT_SAVING_MESSAGE in table.message and len(table._unsaved) == 3


def test_writers_racing_on_one_table_one_wins_and_the_others_are_told(place: str | Path) -> None:
    """Eight processes' connections write the same table at the same moment, each having seen one
    event: one move is kept, every other writer is refused as stale, and nothing is half written."""
    table_id = TableStore(place).new_table("nap")
    TableStore(place).append(table_id, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])
    ready = threading.Barrier(8)
    outcomes: list[str] = []

    def write(seed: int) -> None:
        with TableStore(place) as store:  # a connection of its own, as each process has
            ready.wait()
            try:
                store.append(table_id, 1, [{"type": "deal", "seed": seed}, {"type": "undo"}])
                outcomes.append("kept")
            except StaleTable:
                outcomes.append("stale")
            except StoreError as error:  # a broken check: the store must say stale, not fail
                outcomes.append(str(error))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["kept"] + ["stale"] * 7, outcomes
    saved = TableStore(place).load(table_id)
    assert saved.count == 3 and [e["type"] for e in saved.events] == ["start", "deal", "undo"]


def test_a_postgresql_address_is_told_from_a_file_and_its_password_is_never_shown(
    postgres: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.emptied_database()
    monkeypatch.setenv("LANTERLOO_DB", url)  # as the server hands it to its kernels
    store = TableStore()
    assert store.path == url and store.new_table("nap")
    hidden = url.replace("lanterloo@", "lanterloo:s3cret@").replace(f":{postgres.port}/", ":1/")
    with pytest.raises(StoreError, match="cannot be opened") as refused:
        TableStore(hidden, timeout=1)
    assert "s3cret" not in str(refused.value) and "lanterloo:***@" in str(refused.value)


def test_a_postgresql_connection_cut_fails_one_write_and_the_next_connects_again(postgres: Any) -> None:
    """The database restarted or the network dropped: the write under way fails as a StoreError (the
    table plays on unsaved and says so), and the next one connects again and is saved."""
    import psycopg

    store = TableStore(postgres.emptied_database())
    table_id = store.new_table("nap")
    (backend,) = store._db.execute("SELECT pg_backend_pid()").fetchone()
    with psycopg.connect(postgres.url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
    start = {"type": "start", "code": "nap.hoffmann.s0.n1"}
    with pytest.raises(StoreError, match="the tables' database failed"):
        store.append(table_id, 0, [start])
    assert store.append(table_id, 0, [start]) == 1 and store.load(table_id).events == [start]


def test_another_modules_tables_are_reached_through_the_stores_own_methods(tmp_path: Path) -> None:
    """widgets.store.seating keeps its tables in the store's database: it adds them, reads and writes them
    through the store, never through its connection, and a write that fails half way writes nothing."""
    store = TableStore(tmp_path / "t.sqlite3")
    schema = ["CREATE TABLE IF NOT EXISTS notes (k TEXT PRIMARY KEY, v TEXT)"]
    store.add_tables(schema)
    store.add_tables(schema)  # once is enough: the second is not run
    with store.writing() as db:
        db.execute("INSERT INTO notes (k, v) VALUES (?, ?)", ("a", "1"))
    with pytest.raises(RuntimeError), store.writing() as db:
        db.execute("INSERT INTO notes (k, v) VALUES (?, ?)", ("b", "2"))
        raise RuntimeError("a writer that fails half way")
    assert store.rows("SELECT k, v FROM notes ORDER BY k") == [("a", "1")]
    store.close()
