"""The tables' database on PostgreSQL, for more than one server process or machine.

:class:`widgets.store.TableStore` keeps its games in an embedded SQLite file by default. Given a
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
refused (:class:`~widgets.journal.StaleTable`), writing nothing; the unique key on (table, number)
is a second guard. A read is one snapshot (REPEATABLE READ, READ ONLY). A writer waits at most the
store's ``timeout`` for a lock (``lock_timeout``).

A connection that breaks (the database restarted, the network dropped) fails the statement under
way with a :class:`PostgresError`, which the table reports as not saving; the next statement
connects again, and the table saves what it kept.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

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
    """A psycopg connection that the store can use as it uses sqlite3's (see the module's docstring)."""

    def __init__(self, url: str, *, timeout: float) -> None:
        self.url = url
        self.timeout = timeout
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
        try:
            self._conn = psycopg.connect(
                self.url,
                autocommit=True,  # the store begins and ends its transactions itself, as with sqlite3
                connect_timeout=max(1, round(self.timeout)),
                options=f"-c lock_timeout={round(self.timeout * 1000)}",
            )
        except psycopg.Error as error:
            raise PostgresError(f"cannot connect to {shown(self.url)}: {error}") from error

    def _live(self) -> Any:
        """The connection; a new one if the last broke between transactions."""
        if self._closed:
            raise PostgresError("the connection to the tables' database is closed")
        if self._conn is None or (self._conn.broken and not self.in_transaction):
            self._connect()
        return self._conn

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
            return self._live().execute(_placeholders(statement), tuple(parameters))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        with _as_sqlite_errors():
            cursor = self._live().cursor()
            cursor.executemany(_placeholders(sql), [tuple(row) for row in rows])
            return cursor

    def create_schema(self, schema: str, version: int) -> None:
        """Create the tables if missing (one process at a time), and check the schema's version."""
        with _as_sqlite_errors():
            conn = self._live()
            with conn.transaction():
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
        if self._conn is not None:
            self._conn.close()


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
