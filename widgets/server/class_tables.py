"""The class's tables as the teacher's console reads them (issue 21): those played in the last
:data:`LIVE_HOURS`, each with its seats and its game rebuilt from its journal with the engine
(:class:`~widgets.table.model.TableModel`), and their finished hands as records.

Read on one of the server's database threads (:mod:`widgets.server.database`), never on its event
loop. The list with the seats is one indexed query whatever the number of tables
(:meth:`~widgets.store.seating.SeatBook.class_list`), and the journals of the tables played on since
the console last read them are a second (:meth:`~widgets.store.sqlite.TableStore.current_games`): a
table's game is rebuilt again only once it has been played on (:class:`Rebuilt`), so a class of
200 tables costs one query when nothing was played meanwhile.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from widgets.multiseat.shared_table import SharedTableModel
from widgets.store.seating import SeatBook, SeatRow
from widgets.store.sqlite import Saved, TableStore
from widgets.table.dealcode import USUAL_SEATS
from widgets.table.model import TableModel

log = logging.getLogger("lanterloo.server")

LIVE_HOURS = 12  # a table played in the last twelve hours is the class's
MAX_TABLES = 200


@dataclass
class ClassTable:
    """One of the class's tables, rebuilt from its journal (``model`` None if it does not replay)."""

    table_id: str
    page: str
    updated: float
    model: TableModel | None
    seats: list[SeatRow]


class Rebuilt:
    """The tables' games the console has rebuilt, each with the count of its journal when it was: a
    table not played on since is not replayed again (the list is read at each load, a table face up
    every two seconds). The ``keep`` rebuilt last are kept; the database threads share them."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._games: dict[tuple[str, bool], tuple[int, TableModel | None]] = {}

    def kept(self, table_id: str, shared: bool, count: int) -> tuple[bool, TableModel | None]:
        """Whether the game is kept as rebuilt at ``count`` events, and if so the model."""
        key = (table_id, shared)
        with self._lock:
            found = self._games.pop(key, None)
            if found is None:
                return False, None
            self._games[key] = found  # the last used, the last dropped
            return found[0] == count, found[1]

    def model(self, saved: Saved, shared: bool) -> TableModel | None:
        """The game ``saved`` holds, rebuilt unless it is kept at its count."""
        hit, model = self.kept(saved.table_id, shared, saved.count)
        if hit:
            return model
        model = rebuilt(saved.events, shared)
        with self._lock:
            self._games[(saved.table_id, shared)] = (saved.count, model)
            while len(self._games) > self.keep:
                del self._games[next(iter(self._games))]
        # The event loop's turn. A thread replaying game after game lets go of the interpreter's lock
        # only for short system calls and takes it straight back, and the loop, waiting for it, was
        # kept out for a quarter of a second at a time (a class of 200 tables, bench/attack.py console200).
        time.sleep(0)
        return model


rebuilt_games = Rebuilt(MAX_TABLES + 20)  # the class's tables, and a few older ones shown face up


def warm_up() -> None:
    """Deal a game of each kind once, as the server starts: what a replay imports (each game's engine
    and computer players, 19 modules) is imported then, not on a database thread during the console's
    first load, where compiling them (half a second in all here, where no bytecode is cached: the
    Makefile sets PYTHONDONTWRITEBYTECODE) holds the interpreter's lock a module at a time, and every
    other request with it."""
    for game in USUAL_SEATS:
        TableModel(game, seed=0, rng=random.Random(0))


def class_tables(store: TableStore) -> list[ClassTable]:
    """The class's tables (played in the last :data:`LIVE_HOURS`, the latest first), on a database
    thread: the list with their seats in one query, and in a second the journals of those played on
    since the console last rebuilt them (none at all when nothing was played meanwhile)."""
    listed = SeatBook(store).class_list(time.time() - LIVE_HOURS * 3600, MAX_TABLES)
    shared = {table_id: bool(seats) for table_id, _page, _count, _updated, seats in listed}
    models: dict[str, TableModel | None] = {}
    for table_id, _page, count, _updated, _seats in listed:
        hit, model = rebuilt_games.kept(table_id, shared[table_id], count)
        if hit:
            models[table_id] = model
    for table_id, saved in store.current_games([t for t in shared if t not in models]).items():
        models[table_id] = rebuilt_games.model(saved, shared[table_id])
    return [
        ClassTable(table_id, page, updated, models[table_id], seats)
        for table_id, page, _count, updated, seats in listed
        if table_id in models  # not one forgotten between the two queries
    ]


def rebuilt(events: list[dict[str, Any]], shared: bool) -> TableModel | None:
    """A table's game from its journal (a shared table's has every seat's moves); None if it does not replay."""
    try:
        return SharedTableModel(journal=events) if shared else TableModel(journal=events)
    except Exception:
        log.info("console: a table's journal does not replay", exc_info=True)
        return None
