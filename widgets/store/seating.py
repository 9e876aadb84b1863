"""The seats of shared tables, and the deals a teacher has set for tables, kept in the tables' database.

A shared table is one table of :mod:`widgets.store.sqlite` (one id, one journal of events) with a row
per seat here: the seat's number, its unguessable token (the invitation link's ``seat=``), who
plays it (``person`` or ``computer``), the browser that claimed it and when the seat's page was
last seen (the server's heartbeat while the page's websocket is open). A seat belongs to the first
browser that opens its link; the same browser gets it back after a reload; another browser gets it
only once the seat's page has been gone :data:`AWAY_SECONDS`. A person's seat whose page is gone (or
never came) can be given to a computer player, and taken back by its link.

A pending deal is a deal code the teacher's console set for a table: the table's kernel takes it
(deletes it and deals it) at the table's next hand, or at once between hands.

The SQL is plain and portable (``?`` placeholders, ``INSERT ... ON CONFLICT``), written through
the store's own connection and write transaction.

>>> import tempfile, pathlib
>>> from widgets.store.sqlite import TableStore
>>> store = TableStore(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite3")
>>> book = SeatBook(store)
>>> table = store.new_table("nap")
>>> tokens = book.open_seats(table, ["person", "person", "computer", "computer"])
>>> book.seat_of(table, tokens[1]), book.claim(table, tokens[1], "browser-a"), book.claim(table, tokens[1], "browser-b")
(1, True, False)
>>> [s.player for s in book.seats(table)]
['person', 'person', 'computer', 'computer']
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from widgets.table.journal import StoreError, check_id

if TYPE_CHECKING:  # not imported here: the tables in a reader's browser (Pyodide) have no sqlite3
    from widgets.store.sqlite import TableStore

PERSON, COMPUTER = "person", "computer"
AWAY_SECONDS = 30.0
"""A seat whose page sent no heartbeat for this long is away: another browser may claim it, and
anyone at the table (or the teacher) may give it to a computer player."""
HEARTBEAT_SECONDS = 5.0
TOKEN_BYTES = 12  # 16 characters of base64url: 96 bits, unguessable
# A seat's join code: six characters a student reads off a projector and types on a phone, from letters
# and digits that no font confuses (no 0/O, 1/I/L, 2/Z, 5/S, 8/B). 24**6 is some 190 million codes;
# a code opens its seat only while its table is live (JOIN_HOURS), the invitation link's token always.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY3467"
CODE_LENGTH = 6
JOIN_HOURS = 12.0


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    """A join code as shown: two groups of three, ``ACD-EFG``."""
    return f"{code[:3]}-{code[3:]}"


def typed_code(text: str) -> str | None:
    """A join code as a student typed it (any case, spaces or a hyphen between), or None if it cannot be one.

    >>> typed_code(" acd-efg "), typed_code("ACDEFG"), typed_code("ACDEF0"), typed_code("toolong1")
    ('ACDEFG', 'ACDEFG', None, None)
    """
    code = "".join(c for c in text.upper() if c not in " -\t")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS seats (
    table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    token      TEXT NOT NULL UNIQUE,
    player     TEXT NOT NULL,
    claimed_by TEXT,
    seen       REAL,
    PRIMARY KEY (table_id, seat)
)""",
    """CREATE TABLE IF NOT EXISTS seat_codes (
    code     TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    token    TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS pending_deals (
    table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    code     TEXT NOT NULL,
    at       REAL NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS opening_deals (
    table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    code     TEXT NOT NULL
)""",
)


@dataclass(frozen=True)
class SeatRow:
    """One seat of a shared table as kept."""

    seat: int
    token: str
    player: str
    claimed_by: str | None
    seen: float | None

    def here(self, now: float | None = None) -> bool:
        """Whether the seat's page sent a heartbeat within :data:`AWAY_SECONDS`."""
        return self.seen is not None and (now if now is not None else time.time()) - self.seen < AWAY_SECONDS


class SeatBook:
    """The seats and pending deals of the tables in ``store``'s database."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        try:
            store.add_tables(_SCHEMA)  # once per store
        except Exception as error:
            raise StoreError(f"the tables' database cannot keep seats: {error}") from error

    def open_seats(self, table_id: str, players: list[str], deal: str | None = None) -> list[str]:
        """Give the table ``table_id`` a seat per entry of ``players`` (``person`` or ``computer``); their tokens.

        ``deal``, a deal code, is the hand the table's game begins at: kept here, for the seats'
        kernels (:meth:`opening`), never in a link, since it names every card of the hand."""
        check_id(table_id)
        if not players or any(p not in (PERSON, COMPUTER) for p in players):
            raise ValueError("each seat is played by a person or a computer")
        tokens = [secrets.token_urlsafe(TOKEN_BYTES) for _ in players]
        with self.store.writing() as db:
            db.executemany(
                "INSERT INTO seats (table_id, seat, token, player) VALUES (?, ?, ?, ?)",
                [(table_id, i, token, player) for i, (token, player) in enumerate(zip(tokens, players, strict=True))],
            )
            for token in tokens:  # a join code each, drawn again in the rare case it is taken
                while not db.execute(
                    "INSERT INTO seat_codes (code, table_id, token) VALUES (?, ?, ?) ON CONFLICT (code) DO NOTHING",
                    (new_join_code(), table_id, token),
                ).rowcount:
                    pass
            if deal is not None:
                db.execute("INSERT INTO opening_deals (table_id, code) VALUES (?, ?)", (table_id, deal))
        return tokens

    def opening(self, table_id: str) -> str | None:
        """The deal code the table's game begins at, if whoever opened it gave one."""
        rows = self.store.rows("SELECT code FROM opening_deals WHERE table_id = ?", (table_id,))
        return str(rows[0][0]) if rows else None

    def seats(self, table_id: str) -> list[SeatRow]:
        """The table's seats in order (none: it is not a shared table)."""
        rows = self.store.rows(
            "SELECT seat, token, player, claimed_by, seen FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [SeatRow(int(r[0]), str(r[1]), str(r[2]), r[3], r[4]) for r in rows]

    def join_codes(self, table_id: str) -> list[str]:
        """The table's seats' join codes, in seat order (none: it is not a shared table)."""
        rows = self.store.rows(
            "SELECT c.code FROM seat_codes c JOIN seats s ON s.token = c.token WHERE s.table_id = ? ORDER BY s.seat",
            (table_id,),
        )
        return [str(r[0]) for r in rows]

    def by_join_code(self, code: str, now: float | None = None) -> tuple[str, str, str] | None:
        """The seat a join code opens, as (table id, the table's page, the seat's token), while its table is
        live (opened or played within :data:`JOIN_HOURS`); None otherwise."""
        since = (time.time() if now is None else now) - JOIN_HOURS * 3600
        rows = self.store.rows(
            "SELECT t.id, t.page, c.token FROM seat_codes c JOIN tables t ON t.id = c.table_id "
            "WHERE c.code = ? AND t.updated >= ?",
            (code, since),
        )
        return (str(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

    def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat ``token`` opens at the table, or None if it opens none there."""
        rows = self.store.rows("SELECT seat FROM seats WHERE table_id = ? AND token = ?", (table_id, token))
        return int(rows[0][0]) if rows else None

    def claim(self, table_id: str, token: str, browser: str, now: float | None = None) -> bool:
        """Claim the seat ``token`` opens for ``browser``: True if it is now (or was already) that browser's.

        A seat claimed by another browser is refused while its page is here; once it has been away
        :data:`AWAY_SECONDS`, it passes to the browser asking (a student who changed computers). A
        token that opens no seat is not refused here: the table's page says there is no such seat.

        One conditional ``UPDATE`` decides: it changes the row only if the seat is free, this
        browser's, or away, and the database lets one writer change a row at a time (on PostgreSQL
        the second waits for the first's row lock, then finds the seat taken), so of two browsers
        claiming one seat at once, in any number of processes, exactly one gets it. A database that
        fails raises :class:`StoreError`: the caller refuses the seat; unless it can still be read and
        says the seat is this browser's already (a reload while the disk is full or read-only).
        """
        now = time.time() if now is None else now
        try:
            with self.store.writing() as db:
                changed = db.execute(
                    "UPDATE seats SET claimed_by = ?, seen = ? WHERE table_id = ? AND token = ? "
                    "AND (claimed_by IS NULL OR claimed_by = ? OR seen IS NULL OR seen <= ?)",
                    (browser, now, table_id, token, browser, now - AWAY_SECONDS),
                ).rowcount
                if changed == 1:
                    return True
                exists = db.execute(
                    "SELECT 1 FROM seats WHERE table_id = ? AND token = ?", (table_id, token)
                ).fetchone()
        except Exception as error:
            if self._holder(table_id, token) == browser:  # nothing to write: it is this browser's
                return True
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"the seat could not be claimed: {error}") from error
        return exists is None  # a token that opens no seat: nothing to claim (the table's page says so)

    def free(self, table_id: str, seat: int) -> bool:
        """Let the next browser to open ``seat``'s link have it, whoever held it (the teacher's console,
        for a student whose browser crashed and cannot close its page): True if there is such a seat.
        The browser that held it may claim it again like any other; its heartbeats mark it no more."""
        with self.store.writing() as db:
            changed = db.execute(
                "UPDATE seats SET claimed_by = NULL, seen = NULL WHERE table_id = ? AND seat = ?", (table_id, seat)
            ).rowcount
        return bool(changed == 1)

    def _holder(self, table_id: str, token: str) -> str | None:
        """The browser that holds the seat ``token`` opens, as read now; None if none, or if it cannot be read."""
        try:
            rows = self.store.rows("SELECT claimed_by FROM seats WHERE table_id = ? AND token = ?", (table_id, token))
        except Exception:
            return None
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    def claimed_by(self, table_id: str, seat: int) -> str | None:
        """The browser that holds ``seat`` of the table (None: nobody, or no such seat)."""
        rows = self.store.rows("SELECT claimed_by FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    def heartbeat(self, table_id: str, seat: int, now: float | None = None, browser: str | None = None) -> None:
        """The seat's page is here (its kernel says so every :data:`HEARTBEAT_SECONDS`); with ``browser``,
        only while the seat is that browser's."""
        seen = time.time() if now is None else now
        with self.store.writing() as db:
            if browser is None:
                db.execute("UPDATE seats SET seen = ? WHERE table_id = ? AND seat = ?", (seen, table_id, seat))
            else:
                db.execute(
                    "UPDATE seats SET seen = ? WHERE table_id = ? AND seat = ? AND claimed_by = ?",
                    (seen, table_id, seat, browser),
                )

    def heartbeats(self, pages: list[tuple[str, str, str]], now: float | None = None) -> None:
        """The seats' pages are here, each (table id, seat token, browser): marked seen in one write,
        each only while the seat is that browser's (the server marks them while their pages'
        websockets are open: :mod:`widgets.server.presence`)."""
        seen = time.time() if now is None else now
        with self.store.writing() as db:
            db.executemany(
                "UPDATE seats SET seen = ? WHERE table_id = ? AND token = ? AND claimed_by = ?",
                [(seen, table_id, token, browser) for table_id, token, browser in pages],
            )

    def set_player(self, table_id: str, seat: int, player: str) -> None:
        """Give the seat to a person (its link's page plays it) or a computer player."""
        if player not in (PERSON, COMPUTER):
            raise ValueError("a seat is played by a person or a computer")
        with self.store.writing() as db:
            db.execute("UPDATE seats SET player = ? WHERE table_id = ? AND seat = ?", (player, table_id, seat))

    def computers(self, table_id: str) -> frozenset[int]:
        """The seats computer players play at the table."""
        rows = self.store.rows("SELECT seat FROM seats WHERE table_id = ? AND player = ?", (table_id, COMPUTER))
        return frozenset(int(r[0]) for r in rows)

    # ----- pending deals ------------------------------------------------------------------

    def set_pending(self, table_id: str, code: str) -> None:
        """Have the table deal ``code`` at its next hand (or at once, between hands)."""
        with self.store.writing() as db:
            db.execute(
                "INSERT INTO pending_deals (table_id, code, at) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET code = excluded.code, at = excluded.at",
                (table_id, code, time.time()),
            )

    def set_pending_all(self, table_ids: list[str], code: str) -> None:
        """:meth:`set_pending` for each of ``table_ids``, in one write (the console deals to a class)."""
        at = time.time()
        with self.store.writing() as db:
            db.executemany(
                "INSERT INTO pending_deals (table_id, code, at) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET code = excluded.code, at = excluded.at",
                [(table_id, code, at) for table_id in table_ids],
            )

    def pending(self, table_id: str) -> str | None:
        rows = self.store.rows("SELECT code FROM pending_deals WHERE table_id = ?", (table_id,))
        return str(rows[0][0]) if rows else None

    def take_pending(self, table_id: str) -> str | None:
        """The deal set for the table, taken (so that one kernel alone deals it); None if there is none."""
        with self.store.writing() as db:
            row = db.execute("SELECT code FROM pending_deals WHERE table_id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM pending_deals WHERE table_id = ?", (table_id,))
        return str(row[0])

    # ----- the class, for the teacher's console ------------------------------------------

    def class_list(self, since: float, limit: int = 200) -> list[tuple[str, str, int, float, list[SeatRow]]]:
        """:meth:`live_tables`, each with its seats (none: not a shared table), in one query on the
        indexes however many tables: (id, page, events, updated, seats)."""
        rows = self.store.rows(
            "SELECT t.id, t.page, t.events, t.updated, s.seat, s.token, s.player, s.claimed_by, s.seen "
            "FROM (SELECT id, page, events, updated FROM tables WHERE events > 0 AND updated >= ? "
            "ORDER BY updated DESC LIMIT ?) AS t LEFT JOIN seats AS s ON s.table_id = t.id "
            "ORDER BY t.updated DESC, t.id, s.seat",
            (since, limit),
        )
        found: dict[str, tuple[str, str, int, float, list[SeatRow]]] = {}
        for table_id, page, events, updated, *seat in rows:
            if table_id not in found:
                found[table_id] = (str(table_id), str(page), int(events), float(updated), [])
            if seat[0] is not None:
                found[table_id][4].append(SeatRow(int(seat[0]), str(seat[1]), str(seat[2]), seat[3], seat[4]))
        return list(found.values())

    def live_tables(self, since: float, limit: int = 200) -> list[tuple[str, str, int, float]]:
        """Tables played since ``since`` (a time), the latest first: (id, page, events, updated)."""
        rows = self.store.rows(
            "SELECT id, page, events, updated FROM tables WHERE events > 0 AND updated >= ? "
            "ORDER BY updated DESC LIMIT ?",
            (since, limit),
        )
        return [(str(r[0]), str(r[1]), int(r[2]), float(r[3])) for r in rows]
