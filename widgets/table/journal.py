"""A table's journal of events, and the contract every place that keeps journals meets.

A live table saves its game as a journal: JSON events numbered 1, 2, 3... in the order they
happened (:mod:`widgets.table.model` writes them). An event of type ``start`` begins a new game, so a
table is rebuilt from the events since its last ``start``. Two places keep journals and meet
the same contract, :class:`Journals`: the server's SQLite database (:class:`widgets.store.sqlite.TableStore`)
and, for a table that runs in the reader's own browser, :class:`MemoryJournals`, which hands each
change to the page to keep in the browser's storage. This module imports nothing that Pyodide's
core lacks (no ``sqlite3``).

Every write says how many events the writer has seen; a journal holding another number refuses
it with :class:`StaleTable` and writes nothing, so two writers on one table (two tabs) cannot
corrupt it.

>>> journals = MemoryJournals()
>>> table = journals.new_table("nap")
>>> journals.append(table, 0, [{"type": "start", "code": "nap.hoffmann.s0.n1"}])
1
>>> try:
...     journals.append(table, 0, [{"type": "undo"}])  # a second writer that has not seen event 1
... except StaleTable as refused:
...     print(refused)
this table has 1 events, not 0: it was played on elsewhere
>>> journals.load(table).count
1
"""

from __future__ import annotations

import json
import re
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Event = dict[str, Any]
START = "start"
ID_BYTES = 16  # 22 characters of base64url: 128 bits, unguessable
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{22}$")
MAX_EVENT_CHARS = 1024 * 1024
"""The longest event (as compact JSON) a journal keeps. The longest the model writes is an imported
record's start (the record at most :data:`loo.records.MAX_RECORD_CHARS`, 256 KiB, its quotes and
line breaks escaped); a move is some hundred characters."""


class StoreError(Exception):
    """A table the store cannot give or take; the message is plain words for the server's log."""


class BadTableId(StoreError):
    """A table id that is not one this store could have made (wrong length or characters)."""


class UnknownTable(StoreError):
    """A well-formed table id that the store does not hold."""


class StaleTable(StoreError):
    """A write from a writer that has not seen the table's latest events: refused, nothing written."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"this table has {actual} events, not {expected}: it was played on elsewhere")
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Saved:
    """A table as stored: its page, its event count, and the events of its current game (from the last start)."""

    table_id: str
    page: str
    count: int
    events: list[Event]


def valid_id(table_id: str) -> bool:
    return bool(TABLE_ID.match(table_id))


def check_id(table_id: str) -> None:
    if not isinstance(table_id, str) or not valid_id(table_id):
        raise BadTableId(f"{str(table_id)[:40]!r} is not a table id")


def event_text(event: Event) -> str:
    """``event`` as the compact JSON a journal keeps; a :class:`StoreError` if it is longer than any
    event a table writes (:data:`MAX_EVENT_CHARS`)."""
    text = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    if len(text) > MAX_EVENT_CHARS:
        raise StoreError(
            f"an event of {len(text):,} characters is longer than a table saves (at most {MAX_EVENT_CHARS:,})"
        )
    return text


def new_id() -> str:
    """A fresh, unguessable table id."""
    return secrets.token_urlsafe(ID_BYTES)


class Journals(Protocol):
    """What a table needs of the place that keeps its journal."""

    def new_table(self, page: str) -> str:
        """Reserve a fresh table id for a table opened from ``page``; it has no events yet."""
        ...

    def count(self, table_id: str) -> int:
        """How many events the table's journal holds."""
        ...

    def append(self, table_id: str, expected: int, events: Sequence[Event]) -> int:
        """Add ``events`` if the journal holds exactly ``expected``; the new count, or :class:`StaleTable`."""
        ...

    def load(self, table_id: str) -> Saved:
        """The table's page and count, and its current game's events (from its last ``start``)."""
        ...


@dataclass
class _Kept:
    page: str
    count: int
    events: list[Event] = field(default_factory=list)  # from the last start only


class MemoryJournals:
    """Journals kept in this process, each change handed to ``on_change(table_id, saved)``.

    In the reader's browser, ``on_change`` writes the table to the browser's storage, and
    :meth:`restore` puts back what was kept there. Only the current game's events are kept
    (from its last ``start``), which is all a table is rebuilt from, so storage does not grow
    from game to game.
    """

    def __init__(self, on_change: Callable[[str, Saved], None] | None = None) -> None:
        self._tables: dict[str, _Kept] = {}
        self._on_change = on_change

    def new_table(self, page: str) -> str:
        table_id = new_id()
        self._tables[table_id] = _Kept(page, 0)
        return table_id

    def restore(self, saved: Saved) -> None:
        """Take back a table as :meth:`load` gave it (from the browser's storage, say)."""
        check_id(saved.table_id)
        self._tables[saved.table_id] = _Kept(saved.page, saved.count, list(saved.events))

    def _kept(self, table_id: str) -> _Kept:
        check_id(table_id)
        kept = self._tables.get(table_id)
        if kept is None:
            raise UnknownTable(f"no table {table_id!r} here")
        return kept

    def count(self, table_id: str) -> int:
        return self._kept(table_id).count

    def append(self, table_id: str, expected: int, events: Sequence[Event]) -> int:
        kept = self._kept(table_id)
        if kept.count != expected:
            raise StaleTable(expected, kept.count)
        for event in events:
            event_text(event)  # an event longer than a table writes is refused, and nothing is kept
        before = (kept.count, list(kept.events))
        for event in events:
            if event.get("type") == START:
                kept.events = []
            kept.events.append(dict(event))
        kept.count += len(events)
        if self._on_change is not None:
            try:
                self._on_change(table_id, self.load(table_id))
            except Exception as error:  # the page could not keep it (its storage is full): nothing is kept
                kept.count, kept.events = before
                raise StoreError(f"the page could not keep the game: {error}") from error
        return kept.count

    def load(self, table_id: str) -> Saved:
        kept = self._kept(table_id)
        return Saved(table_id, kept.page, kept.count, [dict(event) for event in kept.events])


def server_store(store: Journals) -> bool:
    """Whether ``store`` is the server's database (:class:`widgets.store.sqlite.TableStore`), asked without
    importing it: the tables in a reader's browser (Pyodide) have no sqlite3, keep no seats and are
    shipped without the shared tables (:mod:`widgets.multiseat`)."""
    module = sys.modules.get("widgets.store.sqlite")
    return module is not None and isinstance(store, module.TableStore)
