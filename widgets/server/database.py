"""The server's calls to the tables' database, none of them on its event loop (issue 28).

The server answers every request on one thread, tornado's event loop. A call to the database made
there holds every other request while it waits: with PostgreSQL stopped for 30 s, the card sheet
(which needs no database) took 28 s and another reader's click 29 s; the teacher's console, which
rebuilt 200 tables' games there, held them 0.5 to 0.7 s per load. So every call the server makes
to the database (a new table's id, a seat's claim, a shared table opened, the console's pages, the
seats' heartbeats, the hourly forgetting) runs on one of :data:`WORKERS` threads of its own
(:func:`in_database`), each with its own connection (:func:`table_store`: an SQLite connection
is its thread's, and a PostgreSQL one serves one statement at a time). The loop waits for none of
them: it awaits the thread's answer, and for :data:`WAIT_SECONDS` at most. A call that fails, or
gets no answer by then, raises :class:`DatabaseAway`; a page then says plainly that the games
cannot be saved or loaded just now and to try again in a moment (:func:`send_database_away`: a
503, with ``Retry-After``), and the log has one short line. The store bounds each statement too
(:mod:`widgets.store.postgres`), so a thread left waiting on a database that hangs is free again a
second after the page was answered, and, the database being taken as away, later calls fail at once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import tornado.web

from widgets.server.plain_page import page
from widgets.store.sqlite import TableStore, default_path
from widgets.table.journal import BadTableId, StoreError, UnknownTable

log = logging.getLogger("lanterloo.server")

T = TypeVar("T")

WORKERS = 4
"""Threads that call the database for the server: a slow call (the console's first load of a
class's tables) leaves the others to seat claims and new tables."""
WAIT_SECONDS = 5.0
"""How long a request waits for the database before it is told to try again."""
RETRY_SECONDS = 5

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_local = threading.local()


class DatabaseAway(Exception):
    """The tables' database failed, or did not answer within :data:`WAIT_SECONDS`."""


def table_store(path: Path | str | None) -> TableStore:
    """This thread's connection to the tables' database at ``path`` (a file, or a PostgreSQL
    address), opened on first use. The server's calls run on its database threads
    (:func:`in_database`); the server's start, before it listens, on its main thread."""
    path = path if isinstance(path, str) else (path or default_path()).resolve()
    stores: dict[Path | str, TableStore] = _local.__dict__.setdefault("stores", {})
    if path not in stores:
        stores[path] = TableStore(path)
    return stores[path]


def _threads() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="lanterloo-db")
        return _pool


def _with_store(db: Path | str | None, call: Callable[[TableStore], T]) -> T:
    return call(table_store(db))


async def in_database(db: Path | str | None, call: Callable[[TableStore], T]) -> T:
    """``call(store)`` on one of the server's database threads, ``store`` being that thread's
    connection to ``db``; its result, or its own exception, except that a failure of the database's
    (a :class:`StoreError` other than no such table, an SQLite or PostgreSQL error, an ``OSError``)
    and an answer not come within :data:`WAIT_SECONDS` raise :class:`DatabaseAway`. The event loop
    serves other requests meanwhile."""
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(_threads(), functools.partial(_with_store, db, call))
    try:
        return await asyncio.wait_for(future, WAIT_SECONDS)
    except TimeoutError as late:  # the thread goes on until the store's own limit ends its statement
        raise DatabaseAway(f"the tables' database did not answer within {WAIT_SECONDS:g} s") from late
    except (UnknownTable, BadTableId):  # the database's answer: no such table
        raise
    except StoreError as error:
        raise DatabaseAway(str(error)) from error
    except (sqlite3.Error, OSError) as error:
        raise DatabaseAway(f"the tables' database failed: {error}") from error


_warned: dict[str, float] = {}


def warn_now_and_then(what: str, away: DatabaseAway) -> None:
    """One line in the log saying ``what`` could not be done and why, once a minute at most for each
    ``what``: a database away fails every request that needs it, and the access lines count them."""
    now = time.monotonic()
    if now - _warned.get(what, -float("inf")) >= 60:
        _warned[what] = now
        log.warning("%s: %s (said once a minute at most)", what, away)


AWAY_TITLE = "The games cannot be saved or loaded just now"


def database_away_page(book: str = "/") -> str:
    """What a reader is told when a request needs the database and it does not answer: what
    happened, what is safe, what to do; ``book`` is the book's front page."""
    said = (
        "<p>The server could not reach the database where the games are kept, so this page cannot be "
        "made for the moment. Nothing already saved is lost.</p>"
        "<p>Wait a few seconds, then reload this page. A table already open plays on, and says whether "
        "its moves are being saved.</p>"
        f'<p>Or <a href="{book}" target="_top">go back to the book</a>: its pages need no database.</p>'
    )
    return page(AWAY_TITLE, said)


def send_database_away(handler: tornado.web.RequestHandler, away: DatabaseAway) -> None:
    """Answer ``handler``'s request with :func:`database_away_page`: a 503, and when to try again.
    The request's access line says why (:func:`widgets.server.logs.log_request`); no traceback."""
    handler.set_status(503)
    handler.set_header("Retry-After", str(RETRY_SECONDS))
    handler.set_header("Cache-Control", "no-store")
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    handler.failure = str(away)[:300]  # type: ignore[attr-defined]
    handler.finish(database_away_page(str(handler.settings.get("base_url") or "/")))
