"""Where the server's live tables keep their games: an embedded SQLite database (standard library only).

It keeps journals as :mod:`widgets.table.journal` describes them (:class:`~widgets.table.journal.Journals`).
Each table has an unguessable id (``secrets.token_urlsafe``) and a journal of events, numbered
1, 2, 3... in the order they happened. An event is a JSON object whose ``type`` says what
happened (the model writes them: :mod:`widgets.table.model`); an event of type ``start`` begins a new
game, and :meth:`TableStore.load` returns the events from the last one, which is all a table
needs to be rebuilt; the events before it are deleted when it is written, so a table's journal
holds one game (an imported record begins a game too). No event is longer than
:data:`~widgets.table.journal.MAX_EVENT_CHARS` characters: a longer one is refused with a
:class:`StoreError`. The journal holds every card of every deal: the database lives with the
server and its kernels, never in the book, and nothing in it is sent to a browser.

Two writers on one table (two tabs, two kernels) cannot corrupt it. Each write says how many
events the writer has seen; in one transaction (``BEGIN IMMEDIATE``, so writers queue) the store
checks that count against the table's and refuses a stale writer with :class:`StaleTable`,
writing nothing. The primary key (table, number) is a second guard.

The file keeps a rollback journal (SQLite's ``DELETE`` mode), synced at every commit, and is
created readable by its owner only. Not WAL: WAL's index file is always mapped into memory, and a
process whose mapped file is made read-only under it (``chattr +i``) is killed by SIGBUS, where
plain reads and writes give an error. Readers and writers of one file take turns: each waits its
turn at most the store's ``timeout`` (SQLite's busy timeout, :data:`DEFAULT_TIMEOUT`), then fails
with a :class:`StoreError`; every transaction here is a few rows, a millisecond or two. On
PostgreSQL no statement waits longer than that for the database either (:mod:`widgets.store.postgres`).

A file that cannot be written (read-only or immutable, or in such a folder: :func:`unwritable`)
is opened read-only (SQLite's ``mode=ro``): saved games are read, and every write is refused with
:class:`NotWritable` before SQLite is asked, so nothing is half written; the file is opened for
writing again at the first write once it can be. A write that fails on the way (a full disk) is
a :class:`StoreError` too, and nothing of it is kept. The tables keep the game in memory and
try again (:mod:`widgets.table.saving`).

Its place: ``--db`` of ``python -m widgets.server``, else ``$LANTERLOO_DB``, else
``$XDG_DATA_HOME/lanterloo/tables.sqlite3`` (``~/.local/share/lanterloo/tables.sqlite3``). A
``postgresql://`` address there keeps the same tables in PostgreSQL instead, for more than one
server process or machine (:mod:`widgets.store.postgres`).

>>> import tempfile, pathlib
>>> store = TableStore(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite3")
>>> table = store.new_table("nap")
>>> store.append(table, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])
1
>>> try:
...     store.append(table, 0, [{"type": "undo"}])  # a second writer that has not seen event 1
... except StaleTable as refused:
...     print(refused)
this table has 1 events, not 0: it was played on elsewhere
>>> store.load(table).count, store.journal_mode()
(1, 'delete')
>>> store.close()
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Protocol, TypeVar

from widgets.store.postgres import PostgresConnection, is_database_url, postgres_schema, shown
from widgets.table.journal import (
    MAX_EVENT_CHARS,
    START,
    BadTableId,
    Event,
    Saved,
    StaleTable,
    StoreError,
    UnknownTable,
    check_id,
    event_text,
    new_id,
    valid_id,
)

__all__ = [
    "MAX_EVENT_CHARS",
    "START",
    "BadTableId",
    "Event",
    "NotWritable",
    "Saved",
    "StaleTable",
    "StoreError",
    "TableStore",
    "UnknownTable",
    "check_id",
    "default_path",
    "unwritable",
    "valid_id",
]

log = logging.getLogger("lanterloo.widgets.store.sqlite")

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id      TEXT PRIMARY KEY,
    page    TEXT NOT NULL,               -- the table page it was opened from, e.g. three-card-loo
    created REAL NOT NULL,
    updated REAL NOT NULL,
    events  INTEGER NOT NULL DEFAULT 0   -- how many events the journal holds
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,           -- 1, 2, 3... : the table's count once this event is in
    kind     TEXT NOT NULL,              -- the event's type: 'start' begins a new game
    body     TEXT NOT NULL,              -- the event as JSON
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS starts ON events (table_id, seq) WHERE kind = 'start';
-- the teacher's console asks for the tables played lately (SeatBook.class_list)
CREATE INDEX IF NOT EXISTS recent ON tables (updated);
"""
DEFAULT_TIMEOUT = 5.0
"""Seconds a statement may wait for the database (a lock, or an answer) before it fails."""


def default_path() -> Path:
    """``$LANTERLOO_DB``, else the user's data folder: never the book's build folder."""
    explicit = os.environ.get("LANTERLOO_DB")
    if explicit:
        return Path(explicit).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "lanterloo" / "tables.sqlite3"


_F = TypeVar("_F", bound=Callable[..., Any])


class NotWritable(StoreError):
    """The tables' database cannot be written just now (a read-only or immutable file or folder):
    nothing was written, and the store reads on."""


def unwritable(path: Path) -> str | None:
    """Why the SQLite database at ``path`` cannot be written just now, in plain words; None if it can.

    Asked of the file, of its folder (where SQLite makes its rollback journal) and of the files
    SQLite may have left beside it. ``os.access`` answers for the user the process runs as, and
    says no to root too for a file or folder made immutable (``chattr +i``) or on a read-only mount.
    A full disk is not seen here: a write then fails with an error, which the callers keep to retry.
    """
    for place in (path.parent, path, *(path.with_name(path.name + end) for end in ("-journal", "-wal", "-shm"))):
        # Asked again once it is found to exist: another connection's journal comes and goes with each
        # of its writes, and one gone between the two questions was once taken for a read-only file.
        if not os.access(place, os.W_OK) and place.exists() and not os.access(place, os.W_OK):
            return f"{place} is read-only"
    return None


def _identity(path: str | Path) -> tuple[int, int] | None:
    """The file at ``path`` (its device and inode), or None if there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _as_store_error(method: _F) -> _F:
    """SQLite's own errors (a closed, locked, full or unwritable file) leave as :class:`StoreError`."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as error:
            raise StoreError(f"the tables' database failed: {error}") from error

    return wrapper  # type: ignore[return-value]


class Statements(Protocol):
    """What a write transaction gives another module (:meth:`TableStore.writing`): statements with
    ``?`` placeholders, as SQLite writes them (the PostgreSQL connection takes them so too)."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...

    def executemany(self, sql: str, rows: Any, /) -> Any: ...


class TableStore:
    """The tables' database. One object per process (or per kernel); many may share one file."""

    def __init__(self, path: str | Path | None = None, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Open (or create) the database at ``path`` (an SQLite file, or a ``postgresql://`` address);
        a :class:`StoreError` if it cannot be opened or written."""
        named = os.environ.get("LANTERLOO_DB") or ""
        place: str | Path = path if path is not None else named if is_database_url(named) else default_path()
        self.path: Path | str = shown(str(place)) if is_database_url(place) else Path(place)
        self._place = place  # as given (a PostgreSQL address with its password): reopened()
        self._db: Any  # sqlite3's connection, or one that behaves as it does
        self._identity: tuple[int, int] | None = None
        self._timeout = timeout
        self.read_only: str | None = None  # why the file was opened read-only (it could not be written)
        self._added: set[tuple[str, ...]] = set()  # the statements add_tables has run on this store
        self._deferred: list[tuple[str, ...]] = []  # those it could not run yet (a file opened read-only)
        try:
            if is_database_url(place):
                self._db = PostgresConnection(str(place), timeout=timeout)
                self._db.create_schema(postgres_schema(_SCHEMA), SCHEMA_VERSION)
            else:
                self._open(Path(place))
        except (sqlite3.Error, OSError) as error:
            raise StoreError(f"the tables' database {self.path} cannot be opened: {error}") from error

    def _open(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not path.exists():  # every hidden card is in here: readable by its owner only
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError:
            if not path.is_file():  # nothing to write, nor to read
                raise
        reason = unwritable(path)
        if reason is None:
            self._open_writable(path)
        else:  # read what is saved, and write nothing (not even SQLite's own files): see the module's text
            self._open_read_only(path, reason)

    def _connect(self, path: Path, *, read_only: bool) -> None:
        # Autocommit mode: every transaction below is begun and ended explicitly.
        if read_only:
            address = "file:" + urllib.parse.quote(str(path)) + "?mode=ro"
            self._db = sqlite3.connect(address, uri=True, timeout=self._timeout, isolation_level=None)
        else:
            self._db = sqlite3.connect(path, timeout=self._timeout, isolation_level=None)
        self._identity = _identity(path)  # the file written to, to notice one deleted or replaced
        self._db.execute("PRAGMA foreign_keys = ON")
        # No memory-mapped I/O: a mapped file that cannot be written (a full disk, a file made
        # read-only or taken away) ends the process with SIGBUS, where a read or write gives an error.
        self._db.execute("PRAGMA mmap_size = 0")

    def _open_writable(self, path: Path) -> None:
        self._connect(path, read_only=False)
        self.read_only = None
        # A rollback journal, never WAL: WAL's index (the -shm file) is always mapped into memory,
        # whatever mmap_size says, and a process whose mapped file is made immutable or read-only
        # under it is killed by SIGBUS at its next write there (issue 28). A database an earlier
        # version left in WAL mode is turned back here, by the server, before any kernel opens it.
        try:
            mode = str(self._db.execute("PRAGMA journal_mode = DELETE").fetchone()[0]).lower()
        except sqlite3.OperationalError as error:  # another process holds it in WAL mode
            mode = f"wal ({error})"
        if mode != "delete":
            log.warning("the tables' database %s stays in %s mode", self.path, mode)
        # Every commit is synced (a rollback journal's safe setting): a crash of the server, a
        # kernel or the machine loses at most the move being written, and never corrupts the file.
        self._db.execute("PRAGMA synchronous = FULL")
        with self._write():
            for statement in _SCHEMA.split(";"):  # no semicolon inside a statement or a comment
                if statement.strip():
                    self._db.execute(statement)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise StoreError(f"{self.path} has tables of schema {version}; this version reads {SCHEMA_VERSION}")

    def _open_read_only(self, path: Path, reason: str) -> None:
        self._connect(path, read_only=True)
        self.read_only = reason
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            found = "no tables" if version == 0 else f"tables of schema {version}"
            raise StoreError(f"{self.path} cannot be written ({reason}) and has {found}")
        log.warning("the tables' database %s cannot be written (%s): games are read, not saved", self.path, reason)

    def can_write(self, table_id: str | None = None) -> bool:
        """Whether the store can be written now: as far as its files say (a store opened read-only
        is opened for writing again once it can be), and with ``table_id``, by marking that table
        played now (a full disk says so only when written)."""
        try:
            if isinstance(self.path, Path):
                self._writable_now()
            if table_id is not None:
                check_id(table_id)
                with self._write():
                    self._db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id))
        except (StoreError, sqlite3.Error):
            return False
        return True

    def _writable_now(self) -> None:
        """Raise :class:`NotWritable` if the file cannot be written just now; reopen it for writing
        if it was opened read-only and can be written again."""
        assert isinstance(self.path, Path)
        if _identity(self.path) != self._identity:
            raise StoreError(f"the tables' database {self.path} was deleted or replaced while in use")
        reason = unwritable(self.path)
        if reason is not None:
            raise NotWritable(f"the tables' database {self.path} cannot be written just now: {reason}")
        if self.read_only is not None:
            try:
                self._db.close()
                self._open_writable(self.path)
            except (sqlite3.Error, OSError) as error:
                with suppress(StoreError, sqlite3.Error, OSError):
                    self._open_read_only(self.path, str(error))
                raise NotWritable(f"the tables' database {self.path} cannot be opened for writing: {error}") from error
            log.warning("the tables' database %s can be written again: games are saved", self.path)
            deferred, self._deferred = self._deferred, []
            for statements in deferred:
                try:
                    self.add_tables(statements)
                except (StoreError, sqlite3.Error):  # a full disk, say: at the next write
                    self._deferred.append(statements)

    # ----- plumbing ------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction; writers wait their turn (up to ``timeout``) rather than interleave.

        A file deleted or replaced since it was opened is refused: what SQLite wrote to it would be lost.
        """
        if isinstance(self.path, Path):
            self._writable_now()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")  # on a full disk this fails too: then nothing was written
        except BaseException:
            if self._db.in_transaction:  # SQLite may have rolled back already (a full disk, say)
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._db.close()

    def reopened(self) -> TableStore:
        """Another store on the same database, for another thread (an SQLite connection is its
        thread's own, and a PostgreSQL one answers one statement at a time)."""
        return TableStore(self._place, timeout=self._timeout)

    def __enter__(self) -> TableStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def mmap_size(self) -> int:
        return int(self._db.execute("PRAGMA mmap_size").fetchone()[0])

    def add_tables(self, statements: Sequence[str]) -> None:
        """Create more tables in the store's database (``CREATE TABLE IF NOT EXISTS``, written for
        SQLite), in one write; on PostgreSQL as :func:`~widgets.store.postgres.postgres_schema` gives them.
        The same statements twice on one store are run once."""
        key = tuple(statements)
        if key in self._added:
            return
        if self.read_only is not None and not self.can_write():
            if key not in self._deferred:  # run once the file can be written; till then, read as they are
                self._deferred.append(key)
            return
        with self._write():
            for statement in statements:
                self._db.execute(postgres_schema(statement) if isinstance(self._db, PostgresConnection) else statement)
        self._added.add(key)

    # ----- other modules' tables in the same database (widgets.store.seating) -----------------------

    @_as_store_error
    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows one query reads (``?`` placeholders, as SQLite writes them), outside any write. In a
        file opened read-only, a table :meth:`add_tables` could not add reads as empty. The database's
        errors leave as :class:`StoreError`, as the store's own do."""
        try:
            return [tuple(row) for row in self._db.execute(sql, tuple(params)).fetchall()]
        except sqlite3.OperationalError as error:
            if self.read_only is not None and str(error).startswith("no such table"):
                return []
            raise

    @contextmanager
    def writing(self) -> Iterator[Statements]:
        """One write transaction, as the store's own (writers queue; the same checks): inside it,
        ``execute`` and ``executemany`` the statements, and read what they need to decide. The
        database's errors (a full disk) leave as :class:`StoreError`, as the store's own do."""
        try:
            with self._write():
                yield self._db
        except sqlite3.Error as error:
            raise StoreError(f"the tables' database failed: {error}") from error

    def journal_mode(self) -> str:
        return str(self._db.execute("PRAGMA journal_mode").fetchone()[0]).lower()

    # ----- tables --------------------------------------------------------------------------

    @_as_store_error
    def new_table(self, page: str) -> str:
        """Reserve a fresh, unguessable table id for a table opened from ``page``; it has no events yet."""
        now = time.time()
        while True:
            table_id = new_id()
            try:
                with self._write():
                    self._db.execute(
                        "INSERT INTO tables (id, page, created, updated, events) VALUES (?, ?, ?, ?, 0)",
                        (table_id, page, now, now),
                    )
                return table_id
            except sqlite3.IntegrityError:  # pragma: no cover - 128 random bits collided
                continue

    def _count(self, table_id: str) -> tuple[str, int]:
        check_id(table_id)
        row = self._db.execute("SELECT page, events FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise UnknownTable(f"no table {table_id!r} in {self.path}")
        return str(row[0]), int(row[1])

    @_as_store_error
    def count(self, table_id: str) -> int:
        """How many events the table's journal holds (0 for a table reserved but never played)."""
        return self._count(table_id)[1]

    @_as_store_error
    def append(self, table_id: str, expected: int, events: Sequence[Event]) -> int:
        """Add ``events`` to the table's journal if it holds exactly ``expected`` events; return the new count.

        Otherwise raise :class:`StaleTable` and write nothing: the writer has not seen the latest
        events (another tab moved the game on), and must reload before it writes again.
        """
        bodies = [(str(e["type"]), event_text(e)) for e in events]  # a StoreError if one is too long
        now = time.time()
        with self._write():
            _page, actual = self._count(table_id)
            if actual != expected:
                raise StaleTable(expected, actual)
            # The count moves first, only from the one the writer saw: on PostgreSQL this takes the
            # table's row lock, so a second writer waits here and then finds the count moved on.
            changed = self._db.execute(
                "UPDATE tables SET events = ?, updated = ? WHERE id = ? AND events = ?",
                (expected + len(bodies), now, table_id, expected),
            ).rowcount
            if changed != 1:  # another writer's transaction got there first
                raise StaleTable(expected, self._count(table_id)[1])
            self._db.executemany(
                "INSERT INTO events (table_id, seq, kind, body, at) VALUES (?, ?, ?, ?, ?)",
                [(table_id, expected + i + 1, kind, body, now) for i, (kind, body) in enumerate(bodies)],
            )
            starts = [expected + i + 1 for i, (kind, _body) in enumerate(bodies) if kind == START]
            if starts:  # a new game: the last one is never read again, and is not kept
                self._db.execute("DELETE FROM events WHERE table_id = ? AND seq < ?", (table_id, starts[-1]))
        return expected + len(bodies)

    @_as_store_error
    def load(self, table_id: str) -> Saved:
        """The table's page and count, and its current game's events (from its last ``start``)."""
        self._db.execute("BEGIN")  # one snapshot: the count and the events agree
        try:
            page, count = self._count(table_id)
            row = self._db.execute(
                "SELECT MAX(seq) FROM events WHERE table_id = ? AND kind = ?", (table_id, START)
            ).fetchone()
            first = int(row[0]) if row and row[0] is not None else 1
            rows = self._db.execute(
                "SELECT body FROM events WHERE table_id = ? AND seq >= ? AND seq <= ? ORDER BY seq",
                (table_id, first, count),
            ).fetchall()
        finally:
            self._db.execute("COMMIT")
        return Saved(table_id, page, count, [json.loads(body) for (body,) in rows])

    @_as_store_error
    def current_games(self, table_ids: Sequence[str]) -> dict[str, Saved]:
        """The current game of each of ``table_ids`` (as :meth:`load` gives it), in one query on the
        keys, however many tables (the teacher's console reads a class's at once); a table that is
        not there is left out."""
        if not table_ids:
            return {}
        marks = ", ".join("?" * len(table_ids))
        rows = self._db.execute(
            "SELECT t.id, t.page, t.events, e.body FROM tables AS t "
            "JOIN events AS e ON e.table_id = t.id AND e.seq <= t.events "
            f"WHERE t.id IN ({marks}) AND e.seq >= COALESCE((SELECT MAX(s.seq) FROM events AS s "
            "WHERE s.table_id = t.id AND s.kind = ?), 1) ORDER BY t.id, e.seq",
            (*table_ids, START),
        ).fetchall()
        games: dict[str, Saved] = {}
        for table_id, page, count, body in rows:
            if table_id not in games:
                games[table_id] = Saved(str(table_id), str(page), int(count), [])
            games[table_id].events.append(json.loads(body))
        return games

    @_as_store_error
    def forget_idle(self, older_than: float) -> int:
        """Delete tables (and their journals) not played for ``older_than`` seconds; return how many."""
        with self._write():
            return int(self._db.execute("DELETE FROM tables WHERE updated < ?", (time.time() - older_than,)).rowcount)

    @_as_store_error
    def forget_unused(self, older_than: float = 86_400.0) -> int:
        """Delete tables reserved more than ``older_than`` seconds ago and never played; return how many."""
        with self._write():
            return int(
                self._db.execute(
                    "DELETE FROM tables WHERE events = 0 AND created < ?", (time.time() - older_than,)
                ).rowcount
            )
