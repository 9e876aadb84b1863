"""The tables' database on PostgreSQL, for more than one server process or machine.

:class:`widgets.store.sqlite.TableStore` keeps its games in an embedded SQLite file by default. Given a
PostgreSQL address instead (``--db postgresql://user@host/dbname``, or ``$LANTERLOO_DB``), it
keeps them in that database, through psycopg 3 (Lanterloo's optional extra ``postgres``), and every
server process and every kernel that is given the same address shares the same tables.

The store writes one SQL for both: SQLite's, kept to what PostgreSQL reads the same way. This
module hands the store a connection that behaves as :mod:`sqlite3`'s does for what the store uses
(:class:`PostgresConnection`): ``execute`` and ``executemany`` with ``?`` placeholders (never
written inside an SQL string), ``in_transaction`` and ``close``; and it raises its errors as
subclasses of sqlite3's (:class:`PostgresError`, :class:`PostgresIntegrityError`), so that the
store treats a failing database the same way whichever it is.

Transactions. The store begins a write with ``BEGIN IMMEDIATE`` and a read that must see one
state (a table's count and its events) with ``BEGIN``. On PostgreSQL a write is a transaction at
READ COMMITTED, and the optimistic check holds there because the store's ``append`` first updates
the table's row only if its count is the one the writer saw: that takes the row's lock, so a second
writer of the same table waits for the first to finish, then finds the count changed and is
refused (:class:`~widgets.table.journal.StaleTable`), writing nothing; the unique key on (table, number)
is a second guard. A read is one snapshot (REPEATABLE READ, READ ONLY). A writer waits at most the
store's ``timeout`` for a lock (``lock_timeout``).

A connection that breaks (the database restarted, the network dropped) fails the statement under
way with a :class:`PostgresError`, which the table reports as not saving; the next statement
connects again, and the table saves what it kept.

A database that does not answer. Nothing the store asks waits for the database longer than a few
seconds, whatever the database does (issue 28: a PostgreSQL stopped for 30 s held a table's click,
and the server, for the 30 s). A connection is given :data:`CONNECT_SECONDS` to be made, and
PostgreSQL ends any statement running past the store's ``timeout`` (``statement_timeout``, besides
``lock_timeout``); TCP keepalives and ``tcp_user_timeout`` find a peer gone from the network. None of
that helps when the database's processes are stopped, or its machine is frozen: the operating system
goes on accepting the bytes and PostgreSQL never answers. So the store keeps its own clock too: a
statement not answered :data:`MARGIN_SECONDS` after PostgreSQL's own limit has its connection cut
(:class:`_Deadlines`, one thread for the whole process), and fails with a :class:`PostgresError`.
The database is then taken to be away (:class:`_Away`): every statement of the process on it fails at
once, without waiting, until a connection to it succeeds again (tried every :data:`PROBE_SECONDS`
by a thread of its own), so that a table's clicks and the server's requests meanwhile wait for
nothing. A table says it is not saving and keeps its moves; they are saved once the database answers.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

log = logging.getLogger("lanterloo.store")

CONNECT_SECONDS = 3
"""How long a new connection may take (libpq's ``connect_timeout``; psycopg enforces it itself)."""
MARGIN_SECONDS = 1.0
"""How long past PostgreSQL's own ``statement_timeout`` the store waits for an answer before it cuts
the connection (a database that is stopped never ends its statements itself)."""
PROBE_SECONDS = 1.0
"""How often a database that did not answer is tried again (a new connection, ``CONNECT_SECONDS`` at most)."""
KEEPALIVES: dict[str, Any] = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 3, "keepalives_count": 3}
"""TCP keepalives on every connection: a database whose machine left the network is noticed within
about 20 s even on a connection that waits for nothing."""

# How the tables look in PostgreSQL: the SQLite schema, with a time as a double (SQLite's REAL is
# 8 bytes, PostgreSQL's 4) and without SQLite's WITHOUT ROWID.
# SQLite's REAL is a double; PostgreSQL's is a single (a time in seconds would lose minutes).
_TYPES = ((r"\bREAL\b", "DOUBLE PRECISION"), (r"\) WITHOUT ROWID", ")"))
# Every process creating the tables at once would collide in PostgreSQL's catalogue: they take turns.
_SCHEMA_LOCK = 0x4C414E54  # any constant: the key of a transaction's advisory lock
_TRANSACTIONS = {
    "BEGIN IMMEDIATE": "BEGIN ISOLATION LEVEL READ COMMITTED",
    "BEGIN": "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
}
_URL = re.compile(r"^postgres(?:ql)?://", re.IGNORECASE)


class PostgresError(sqlite3.OperationalError):
    """A PostgreSQL error (psycopg's), raised as the store expects a database's errors."""


class PostgresIntegrityError(sqlite3.IntegrityError):
    """PostgreSQL refused a row that breaks a key (psycopg's ``IntegrityError``)."""


def is_database_url(place: object) -> bool:
    """Whether ``place`` names a PostgreSQL database (``postgresql://...``) rather than an SQLite file.

    >>> is_database_url("postgresql://lanterloo@db/lanterloo"), is_database_url("/srv/tables.sqlite3")
    (True, False)
    """
    return isinstance(place, str) and bool(_URL.match(place))


def shown(url: str) -> str:
    """``url`` with any password hidden, for messages and the log.

    >>> shown("postgresql://loo:secret@db:5432/tables")
    'postgresql://loo:***@db:5432/tables'
    """
    return re.sub(r"^([^:]+://[^:@/]*):[^@/]*@", r"\1:***@", url)


def postgres_schema(sqlite_schema: str) -> str:
    """The store's SQLite schema as PostgreSQL takes it (see :data:`_TYPES`)."""
    for sqlite_text, postgres_text in _TYPES:
        sqlite_schema = re.sub(sqlite_text, postgres_text, sqlite_schema)
    return sqlite_schema


class PostgresConnection:
    """A psycopg connection that the store can use as it uses sqlite3's (see the module's docstring).

    ``timeout``: how long a statement may wait for a lock, or run, in seconds (PostgreSQL's
    ``lock_timeout`` and ``statement_timeout``); the store cuts the connection :data:`MARGIN_SECONDS`
    later if PostgreSQL has not answered at all."""

    def __init__(self, url: str, *, timeout: float) -> None:
        self.url = url
        self.timeout = timeout
        self.deadline = timeout + MARGIN_SECONDS
        self._closed = False
        self._conn: Any = None
        self._connect()

    def _connect(self) -> None:
        try:
            import psycopg
        except ImportError as missing:
            raise PostgresError(
                "PostgreSQL needs the psycopg package: install Lanterloo with its extra, pip install -e '.[postgres]'"
            ) from missing
        _away.check(self.url)
        limit = round(self.timeout * 1000)
        try:
            self._conn = psycopg.connect(
                self.url,
                autocommit=True,  # the store begins and ends its transactions itself, as with sqlite3
                connect_timeout=max(2, min(CONNECT_SECONDS, round(self.timeout))),  # psycopg takes 2 s at least
                options=f"-c lock_timeout={limit} -c statement_timeout={limit}",
                tcp_user_timeout=round(self.deadline * 1000),  # data sent and not acknowledged: the peer is gone
                **KEEPALIVES,
            )
        except psycopg.errors.ConnectionTimeout as error:
            _away.mark(self.url)
            raise PostgresError(f"{shown(self.url)} did not take a connection in time: {error}") from error
        except psycopg.Error as error:
            raise PostgresError(f"cannot connect to {shown(self.url)}: {error}") from error

    def _live(self) -> Any:
        """The connection; a new one if the last broke between transactions. While the database is
        away (:class:`_Away`), a :class:`PostgresError` at once, and a transaction under way is given up."""
        if self._closed:
            raise PostgresError("the connection to the tables' database is closed")
        try:
            _away.check(self.url)
        except PostgresError:
            if self._conn is not None and self.in_transaction:
                self._drop()  # its transaction cannot be ended: the database ends it when it sees the close
            raise
        if self._conn is None or (self._conn.broken and not self.in_transaction):
            self._drop()
            self._connect()
        return self._conn

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with suppress(Exception):
                conn.close()

    @contextmanager
    def _in_time(self, conn: Any) -> Iterator[None]:
        """The block's statements answered within :attr:`deadline`, or their connection cut, the
        database marked away and a :class:`PostgresError` raised."""
        key = _deadlines.arm(conn.pgconn.socket, self.deadline)
        try:
            yield
        except Exception as error:
            if not _deadlines.disarm(key):  # cut: what failed is the database's silence
                _away.mark(self.url)
                raise PostgresError(
                    f"the tables' database {shown(self.url)} did not answer within {self.deadline:g} s"
                ) from error
            raise
        else:
            _deadlines.disarm(key)

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        if self._conn is None or self._conn.closed:
            return False
        return bool(self._conn.info.transaction_status in (TransactionStatus.INTRANS, TransactionStatus.INERROR))

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        """Run one statement, ``?`` placeholders and all; its cursor (``fetchone``, ``fetchall``, ``rowcount``)."""
        statement = _TRANSACTIONS.get(sql.strip().upper(), sql)
        with _as_sqlite_errors():
            conn = self._live()
            with self._in_time(conn):
                return conn.execute(_placeholders(statement), tuple(parameters))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        with _as_sqlite_errors():
            conn = self._live()
            with self._in_time(conn):
                cursor = conn.cursor()
                cursor.executemany(_placeholders(sql), [tuple(row) for row in rows])
                return cursor

    def create_schema(self, schema: str, version: int) -> None:
        """Create the tables if missing (one process at a time), and check the schema's version."""
        with _as_sqlite_errors():
            conn = self._live()
            with self._in_time(conn), conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                for statement in schema.split(";"):  # no semicolon inside a statement or a comment
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("CREATE TABLE IF NOT EXISTS lanterloo_schema (version INTEGER NOT NULL)")
                row = conn.execute("SELECT version FROM lanterloo_schema").fetchone()
                if row is None:
                    conn.execute("INSERT INTO lanterloo_schema (version) VALUES (%s)", (version,))
                elif int(row[0]) != version:
                    raise PostgresError(
                        f"{shown(self.url)} has tables of schema {row[0]}; this version reads {version}"
                    )

    def close(self) -> None:
        self._closed = True
        self._drop()


def _cut(fd: int) -> None:
    """Shut the socket ``fd`` down both ways: a statement waiting on it ends at once with an error."""
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:  # closed meanwhile: nothing waits on it
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


class _Deadlines:
    """Statements under way on the process's PostgreSQL connections, each with the moment its
    connection is cut if no answer has come (:func:`_cut`): one thread watches them all, and sleeps
    until the nearest deadline (it is woken only when a statement's deadline comes before that)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._due: dict[int, tuple[float, int]] = {}  # key -> (deadline on time.monotonic, socket)
        self._keys = itertools.count()
        self._wakes_at = float("inf")  # when the watching thread wakes next
        self._thread: threading.Thread | None = None

    def arm(self, fd: int, seconds: float) -> int:
        """Cut socket ``fd`` in ``seconds`` unless :meth:`disarm` is called with the key returned first."""
        at = time.monotonic() + seconds
        with self._cond:
            key = next(self._keys)
            self._due[key] = (at, fd)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="lanterloo-db-deadlines", daemon=True)
                self._thread.start()
            elif at < self._wakes_at:
                self._cond.notify()
        return key

    def disarm(self, key: int) -> bool:
        """The statement is over: True, unless its connection was cut (it ran past its deadline)."""
        with self._cond:
            return self._due.pop(key, None) is not None

    def _watch(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for key, (at, fd) in list(self._due.items()):
                    if at <= now:
                        del self._due[key]
                        _cut(fd)
                self._wakes_at = min((at for at, _fd in self._due.values()), default=float("inf"))
                self._cond.wait(None if self._wakes_at == float("inf") else self._wakes_at - now)


class _Away:
    """The databases (by address) that did not answer in time, in this process: a statement on one
    fails at once (:meth:`check`) until a thread of its own connects to it again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._since: dict[str, float] = {}

    def mark(self, url: str) -> None:
        with self._lock:
            if url in self._since:
                return
            self._since[url] = time.monotonic()
        log.warning(
            "the tables' database %s did not answer: it is tried again every %g s, and until it "
            "answers nothing waits for it",
            shown(url),
            PROBE_SECONDS,
        )
        threading.Thread(target=self._probe, args=(url,), name="lanterloo-db-probe", daemon=True).start()

    def check(self, url: str) -> None:
        """A :class:`PostgresError` if the database at ``url`` is away."""
        since = self._since.get(url)
        if since is not None:
            raise PostgresError(
                f"the tables' database {shown(url)} has not answered for {time.monotonic() - since:.0f} s"
            )

    def _probe(self, url: str) -> None:
        import psycopg

        while True:
            time.sleep(PROBE_SECONDS)
            try:
                psycopg.connect(url, connect_timeout=2, **KEEPALIVES).close()
            except psycopg.Error:
                continue
            with self._lock:
                since = self._since.pop(url, time.monotonic())
            log.warning("the tables' database %s answers again, after %.0f s", shown(url), time.monotonic() - since)
            return


_deadlines = _Deadlines()
_away = _Away()


def _placeholders(sql: str) -> str:
    """sqlite3's ``?`` placeholders as psycopg's ``%s`` (a ``%`` of the SQL's own doubled).

    >>> _placeholders("SELECT body FROM events WHERE table_id = ? AND kind LIKE 's%'")
    "SELECT body FROM events WHERE table_id = %s AND kind LIKE 's%%'"
    """
    return sql.replace("%", "%%").replace("?", "%s")


@contextmanager
def _as_sqlite_errors() -> Iterator[None]:
    """psycopg's errors leave as :class:`PostgresIntegrityError` or :class:`PostgresError`."""
    import psycopg

    try:
        yield
    except psycopg.IntegrityError as error:
        raise PostgresIntegrityError(str(error).strip()) from error
    except psycopg.Error as error:
        raise PostgresError(str(error).strip() or type(error).__name__) from error
