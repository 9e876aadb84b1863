"""The server's places for live tables, the ids of new tables, and the refilling of kernel pools.

:class:`TableSeats` counts the live tables against ``--max-tables`` and each client address's
share (``--max-tables-per-client``, :func:`default_share`); :func:`reserve_table_id` gives a new
table its id in the tables' database; :func:`tables_full_page` is what a reader sees when no place
is left; :class:`OneRefillAtATime` keeps pool refills from taking both cores from readers at play.
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import secrets
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import tornado.httputil
import tornado.iostream
import tornado.routing
import tornado.web
import tornado.websocket
from jupyter_core.utils import ensure_async

from widgets.server.database import DatabaseAway, in_database, warn_now_and_then
from widgets.server.database import table_store as table_store  # the server's connections, once made here
from widgets.server.plain_page import page as plain_page
from widgets.server.sockets import departures
from widgets.store.sqlite import TableStore
from widgets.table.journal import StoreError

log = logging.getLogger("lanterloo.server")


# A table's kernel costs about 75 MB of memory of its own (100 MB resident; measured on this
# project's tables), so 40 tables take about 3 GB, on top of the preheated kernels (one per table
# notebook, about 0.5 GB for six): enough for a class, and within a teacher's 8 GB laptop.
DEFAULT_MAX_TABLES = 40
# How long a place is kept for a new table between the redirect that gives it its id and the
# browser's request for its page (which follows at once); a client that never follows it frees
# the place after this.
HOLD_SECONDS = 20.0
# A reader who reloads a table at a full server: the page being left frees its place with a beacon
# sent as it goes, but the reloaded page's request may reach the server first. A request for a
# table that has a live kernel waits this long for a place before it is told the tables are full.
RELOAD_WAIT_SECONDS = 3.0
RETRY_AFTER_SECONDS = 60
# How long after a table's preheated kernel is taken Voila starts the next one. Preheating runs the
# notebook's imports, a second or more of work for one core; begun a second after the request
# (Voila's default), it took that core from the reader's browser while the page was still being
# drawn, and a table took 0.3 to 0.5 s longer to become playable on a 2-core machine.
REFILL_DELAY_SECONDS = 5.0
# How long a refill may hold the refill queue (:class:`OneRefillAtATime`) while its kernel runs the
# table notebook; past that the next refill starts anyway.
REFILL_TURN_SECONDS = 60.0


def open_tables_database(db: Path | str, keep_seconds: float) -> tuple[str | None, int, int]:
    """Open the tables' database as the server starts, on a connection of its own closed before any
    request comes, and forget the tables never played and those not played for ``keep_seconds``:
    (None if games can be saved in it, else why not; tables forgotten unused; idle). Games cannot be
    saved in a file or folder that cannot be written (the file is read, never written, till it can
    be), nor in a file that cannot be made at all; a full disk leaves the forgetting to the next
    hour's turn. Raises for a database that cannot be used at all (another version's tables, a
    PostgreSQL server that refuses the address)."""
    try:
        store = TableStore(db)
    except StoreError as error:
        if isinstance(db, Path) and not db.is_file():  # it could not be made: the tables run unsaved
            return str(error), 0, 0
        raise
    with store:
        if store.read_only is not None:
            return f"the tables' database {db} cannot be written ({store.read_only})", 0, 0
        try:
            return None, store.forget_unused(), store.forget_idle(keep_seconds)
        except (StoreError, OSError) as error:  # a full disk: forgotten at the next hour's turn
            return str(error), 0, 0


async def reserve_table_id(page: str, db: Path | str | None) -> str | None:
    """A fresh table id reserved for a new table of ``page``, off the event loop; None if the
    database cannot be reached, or cannot be written (a full disk, a read-only file): the table then
    opens unsaved and says so, and the log says why in a line a minute at most."""
    try:
        return await in_database(db, lambda store: store.new_table(page))
    except DatabaseAway as away:
        warn_now_and_then("could not reserve a new table's id (it opens unsaved)", away)
        return None
    except Exception:
        log.exception("could not reserve a table id in the tables' database")
        return None


def query_with(table_id: str, query: str) -> str:
    return urlencode([("table", table_id), *parse_qsl(query, keep_blank_values=True)])


async def with_table_id(page: str, query: str, db: Path | str | None) -> str | None:
    """``query`` with a freshly reserved table id first; None if the database cannot be reached."""
    table_id = await reserve_table_id(page, db)
    return None if table_id is None else query_with(table_id, query)


class TableSeats:
    """The live tables a server runs at once, and whether one more fits under ``cap`` (``--max-tables``).

    A live table is a kernel serving a reader's table page. Voila's preheated kernels, one waiting
    per table notebook, are not counted: they are a fixed cost, budgeted apart. A place is taken by

    * a table's kernel: the id of a kernel Voila gave a table page (a preheated one taken from its
      pool, or one started for the page), recorded by :meth:`Seat.settle` when Voila hands it over.
      A kernel shut down by its page's beacon (:meth:`leave`), culled as idle, or dead is gone from
      the kernel manager's list, and its place is free again;
    * a page admitted whose kernel is not known yet (``starting``): Voila is taking it from the
      pool or starting it, which takes a second or more;
    * a new table's id just handed out in a redirect (``held``), kept for the browser that follows
      the redirect (for ``HOLD_SECONDS`` at most), so that no id is reserved in the database for
      a reader who would then be refused.

    Why a burst of requests cannot overshoot the cap: tornado runs every handler on one thread,
    and a request's check and the taking of its place (:meth:`admit`, :meth:`hold`, or
    :meth:`hold_new` for a table whose id is still being reserved in the database) run in one
    stretch of code with no ``await`` in it, so no other request runs in between; the n-th
    request of a burst sees the n-1 places taken before it. The kernel start that follows is
    asynchronous and slow, but all that time the page keeps its place in ``starting``, and
    :meth:`Seat.settle` moves the place to the kernel's id in one step when the kernel is known:
    a kernel being started is counted, and no kernel is counted twice. Counting is a set
    intersection with the live kernels' ids, cheap at any size this server can reach.

    A reload at a full server: the page being left frees its place with its beacon, but the
    reloaded page's request can reach the server first. A request for a table whose game a live
    kernel holds (:meth:`is_open`) therefore waits a little for a place (:meth:`wait_for_room`)
    before it is refused; the check and the taking of the place still run with no ``await``
    between them.
    """

    def __init__(self, cap: int, kernel_ids: Callable[[], Iterable[str]], per_client: int | None = None) -> None:
        self.cap = cap
        self.per_client = per_client  # places one client address may take (--max-tables-per-client)
        self.owners: dict[str, str] = {}  # table kernel id or held table id -> the client address that took it
        self.starting_by: dict[str, int] = {}  # client address -> its pages whose kernel is on its way
        self._kernel_ids = kernel_ids  # the kernel manager's list of live kernels
        self.kernels: set[str] = set()
        self.tables: dict[str, str] = {}  # table kernel id -> the table id its page asked for
        self.starting = 0
        self.held: dict[str, float] = {}  # new table id -> when its hold lapses (time.monotonic)

    def in_use(self) -> int:
        """Places taken: live table kernels, pages whose kernel is on its way, new tables held."""
        self.kernels &= set(self._kernel_ids())
        if len(self.tables) > len(self.kernels):
            self.tables = {k: t for k, t in self.tables.items() if k in self.kernels}
        now = time.monotonic()
        if any(until <= now for until in self.held.values()):
            self.held = {table_id: until for table_id, until in self.held.items() if until > now}
        if len(self.owners) > len(self.kernels) + len(self.held):
            self.owners = {k: c for k, c in self.owners.items() if k in self.kernels or k in self.held}
        return len(self.kernels) + self.starting + len(self.held)

    def taken_by(self, client: str) -> int:
        """Places ``client`` has taken: its live tables, its pages starting, its new tables held."""
        self.in_use()
        return sum(1 for owner in self.owners.values() if owner == client) + self.starting_by.get(client, 0)

    def client_has_room(self, client: str | None, table_id: str | None = None) -> bool:
        """Whether ``client`` may take one more place (a place held for ``table_id`` is already its)."""
        if client is None or self.per_client is None or (table_id is not None and table_id in self.held):
            return True
        return self.taken_by(client) < self.per_client

    def has_room(self, table_id: str | None = None, client: str | None = None) -> bool:
        """True if a table page may open: a place is free (and ``client`` has fewer than its share),
        or one is held for ``table_id``."""
        in_use = self.in_use()
        if table_id is not None and table_id in self.held:
            return True
        return in_use < self.cap and self.client_has_room(client)

    def is_open(self, table_id: str | None) -> bool:
        """Whether a live kernel holds ``table_id``'s game (its page is open, or is being reloaded)."""
        if table_id is None:
            return False
        self.in_use()  # forget kernels gone
        return any(self.tables.get(kernel_id) == table_id for kernel_id in self.kernels)

    async def wait_for_room(
        self, table_id: str | None, timeout: float = RELOAD_WAIT_SECONDS, client: str | None = None
    ) -> None:
        """For a table whose game a live kernel holds (a reload), wait up to ``timeout`` seconds for
        a place: the page being left frees one as it goes. Returns at once for any other request, so
        a flood of new readers is refused as quickly as ever; the caller checks for room after this."""
        deadline = time.monotonic() + timeout
        while not self.has_room(table_id, client) and self.is_open(table_id) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    def hold(self, table_id: str, client: str | None = None) -> None:
        """Keep a place for the new table ``table_id`` until its page is asked for."""
        self.held[table_id] = time.monotonic() + HOLD_SECONDS
        if client is not None:
            self.owners[table_id] = client

    def hold_new(self, client: str | None = None) -> str:
        """Keep a place for a new table whose id is being reserved (the database is asked off the
        event loop, so other requests run meanwhile); the key it is held under until then."""
        key = "new-" + secrets.token_hex(8)  # never a table id (22 characters of base64url)
        self.hold(key, client)
        return key

    def rehold(self, key: str, table_id: str | None) -> None:
        """The id reserved for the place held under ``key`` (:meth:`hold_new`): the place is held for
        the table ``table_id`` now; with None (no id could be reserved), it is given back."""
        client = self.owners.pop(key, None)
        self.held.pop(key, None)
        if table_id is not None:
            self.hold(table_id, client)

    def admit(self, table_id: str | None = None, client: str | None = None) -> Seat | None:
        """A place for a table page (the one held for ``table_id``, if any); None if the tables are full."""
        if not self.has_room(table_id, client):
            return None
        if table_id is not None:
            self.held.pop(table_id, None)
            client = self.owners.pop(table_id, client)
        self.starting += 1
        if client is not None:
            self.starting_by[client] = self.starting_by.get(client, 0) + 1
        return Seat(self, table_id, client)

    def leave(self, kernel_id: str) -> None:
        """A page said it is leaving (its beacon): its kernel's place is free while the kernel shuts down."""
        self.kernels.discard(kernel_id)
        self.tables.pop(kernel_id, None)


class Seat:
    """One admitted table page's place: counted as starting until its kernel is known, then as that kernel."""

    def __init__(self, seats: TableSeats, table_id: str | None = None, client: str | None = None) -> None:
        self._seats = seats
        self._table_id = table_id
        self._client = client
        self._open = True
        self.on_settle: Callable[[str], None] | None = None  # told the kernel's id when it is known

    def _unstart(self) -> None:
        self._open = False
        self._seats.starting -= 1
        if self._client is not None:
            left = self._seats.starting_by.get(self._client, 0) - 1
            if left > 0:
                self._seats.starting_by[self._client] = left
            else:
                self._seats.starting_by.pop(self._client, None)

    def settle(self, kernel_id: str) -> None:
        """The page has its kernel: the place is the kernel's from now on, until it is shut down."""
        if self._open:
            self._unstart()
            self._seats.kernels.add(kernel_id)
            if self._client is not None:
                self._seats.owners[kernel_id] = self._client
            if self._table_id is not None:
                self._seats.tables[kernel_id] = self._table_id
            departures.served(kernel_id)  # due within --max-idle unless its page's websocket opens
            if self.on_settle is not None:
                self.on_settle(kernel_id)

    def release(self) -> None:
        """The page's request is over; if it never got a kernel (an error, a closed connection), free its place."""
        if self._open:
            self._unstart()


class SeatedKernelManager:
    """Voila's kernel manager as one admitted table page sees it: the kernel it hands the page
    (a preheated one, or one started for it) settles the page's :class:`Seat`. Everything else is
    the kernel manager's own."""

    def __init__(self, manager: Any, seat: Seat) -> None:
        self._manager = manager
        self._seat = seat

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        """A preheated kernel, taken from its pool: (render task, rendered cells, kernel id)."""
        rendered = await self._manager.get_rendered_notebook(*args, **kwargs)
        self._seat.settle(rendered[2])
        return rendered

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """A kernel started for the page (its pool was empty)."""
        kernel_id: str = await ensure_async(self._manager.start_kernel(*args, **kwargs))
        self._seat.settle(kernel_id)
        return kernel_id


_FULL_STYLE = """
  body { margin: 0; background: #f4f1ea; color: #1f1f1f;
         font: 1.0625rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 36rem; margin: 0 auto; padding: 3rem 1.25rem; }
  h1 { font-size: 1.75rem; line-height: 1.2; margin: 0 0 1rem; }
  a { color: #174a7c; }
  a:focus-visible { outline: 3px solid #174a7c; outline-offset: 3px; }
  .again { display: inline-block; margin: .5rem 0; padding: .6rem 1.3rem; border-radius: .35rem;
           background: #174a7c; color: #fff; font-weight: 600; text-decoration: none; }
  .again:hover { background: #10365c; }
"""


def tables_full_page(*, cap: int, again: str, saved_game: bool, per_client: int | None = None, book: str = "/") -> str:
    """The page a reader gets when every table is taken (or, with ``per_client``, every table one
    address may have): what happened, what is safe, what to do; ``book`` is the book's front page."""
    if per_client is not None:
        taken = (
            f"This computer's network address already has {per_client} live tables open on this server, "
            "the most it gives one address at once (a class behind one router shares its address)."
        )
    elif cap == 1:
        taken = "This server runs one live table at a time, and it is in use just now."
    else:
        taken = f"All {cap} live tables on this server are in use just now, and it runs no more than that at once."
    return _try_again_page(
        "The tables are full",
        f"{taken} A table comes free as soon as its player leaves its page.",
        again=again,
        saved_game=saved_game,
        book=book,
    )


def _try_again_page(title: str, said: str, *, again: str, saved_game: bool, book: str) -> str:
    """A page that says what happened (``title``, ``said``), whether the reader's game is safe, and
    offers to try ``again`` or go back to the ``book``: the tables-full and server-busy pages."""
    if saved_game:
        safe = (
            "<p><strong>Your game is safe.</strong> It is saved on the server, and it carries on "
            "from its last move when you try again.</p>"
        )
    else:
        safe = "<p>No game had been started for you yet, so nothing is lost.</p>"
    return plain_page(
        title,
        f"""<p>{said}</p>
{safe}
<p><a class="again" href="{html.escape(again, quote=True)}">Try again</a></p>
<p>Or <a href="{html.escape(book, quote=True)}" target="_top">go back to the book</a>:
its pages and their example hands need no table.</p>""",
        style=_FULL_STYLE,
    )


def send_tables_full(handler: tornado.web.RequestHandler, seats: TableSeats) -> None:
    """Answer ``handler``'s request with the tables-full page: 503, and when to try again."""
    handler.set_status(503)
    handler.set_header("Retry-After", str(RETRY_AFTER_SECONDS))
    handler.set_header("Cache-Control", "no-store")
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    saved_game = handler.get_query_argument("table", None) is not None
    client = handler.request.remote_ip
    in_use = seats.in_use()
    mine = seats.per_client if in_use < seats.cap and seats.per_client is not None else None
    # Said on the request's one access line (widgets.server.logs.log_request), within its client's budget.
    if mine is not None:
        handler.failure = f"client {client} has {mine} tables, its most"  # type: ignore[attr-defined]
    else:
        handler.failure = f"the tables are full ({in_use} of {seats.cap} places taken)"  # type: ignore[attr-defined]
    book = str(handler.settings.get("base_url") or "/")  # the server's base URL (--base-url)
    again = handler.request.uri or book
    page = tables_full_page(cap=seats.cap, again=again, saved_game=saved_game, per_client=mine, book=book)
    handler.finish(page)


def server_busy_page(*, again: str, saved_game: bool, book: str = "/") -> str:
    """The page a reader gets when the server has run out of files (or memory) for their page."""
    said = "It has too many connections open just now to start your table. Try again in a few seconds."
    return _try_again_page("The server is busy", said, again=again, saved_game=saved_game, book=book)


def send_server_busy(handler: tornado.web.RequestHandler, error: OSError) -> None:
    """Answer ``handler``'s request, which ran out of files or memory (``error``), with the
    server-busy page: 503, and when to try again; one line in the log, not a traceback."""
    handler.clear()
    # Said on the request's one access line (widgets.server.logs.log_request), within its client's budget.
    handler.failure = f"out of resources ({os.strerror(error.errno or 0)})"  # type: ignore[attr-defined]
    handler.set_status(503)
    handler.set_header("Retry-After", "5")
    handler.set_header("Cache-Control", "no-store")
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    book = str(handler.settings.get("base_url") or "/")
    again = handler.request.uri or book
    saved_game = handler.get_query_argument("table", None) is not None
    handler.finish(server_busy_page(again=again, saved_game=saved_game, book=book))


class OneRefillAtATime:
    """Voila's pool refills, one kernel at a time while readers are playing.

    Each table's pool starts a new kernel a few seconds after its preheated one is taken
    (:data:`REFILL_DELAY_SECONDS`), and starting one (Python, the imports, the table notebook) is a
    second or two of work for one core. When a class opened its tables together and began to play,
    every table's pool refilled at once and took both cores from the readers: their clicks waited
    up to 2 s in the first seconds of play (bench/tables.py, load). While a reader has acted in the
    last :data:`PLAY_QUIET_SECONDS` (``playing``), a refill waits until no other is warming, so one
    core is always left to the readers; with nobody playing (a class still opening its tables, say)
    refills start at once, so the pools fill as fast as they can.

    It wraps the kernel manager's ``_initialize``, the coroutine Voila's ``fill_if_needed`` runs for
    each new pool kernel. A refill (no kernel id yet) counts as warming from its start until its
    kernel has run the table notebook (a preheated table cell ends at once:
    :func:`widgets.kernel.table_router.table_for_request`), or for :data:`REFILL_TURN_SECONDS` at most. A
    request that takes the kernel meanwhile waits for it to finish warming. Kernels started for a
    request (the pool empty) never wait: a reader is waiting for them.
    """

    POLL_SECONDS = 0.25

    def __init__(
        self,
        initialize: Callable[..., Any],
        playing: Callable[[], bool],
        turn_seconds: float = REFILL_TURN_SECONDS,
        logger: logging.Logger | logging.LoggerAdapter[logging.Logger] = log,
    ) -> None:
        self._initialize = initialize
        self._playing = playing
        self.log = logger  # the server's log (Voila's), where the kernel manager writes
        self._turn_seconds = turn_seconds
        self.warming = 0  # refills started and not yet warm
        self.waited = 0  # refills that had to wait their turn (for the log and the tests)

    async def __call__(self, notebook_path: str, kernel_id: str | None = None, **kwargs: Any) -> Any:
        if kernel_id is not None:  # a restart: not a refill
            return await self._initialize(notebook_path, kernel_id, **kwargs)
        if self.warming and self._playing():
            self.waited += 1
            self.log.info("Readers are playing: the refill for %s waits for the one warming", notebook_path)
            while self.warming and self._playing():
                await asyncio.sleep(self.POLL_SECONDS)
        self.warming += 1
        try:
            content = await self._initialize(notebook_path, None, **kwargs)
            task = content.get("task") if isinstance(content, dict) else None
            if isinstance(task, asyncio.Future):
                try:  # shielded: counting it warm must not cancel the notebook's run
                    await asyncio.wait_for(asyncio.shield(task), self._turn_seconds)
                except Exception:  # a slow or failed run is Voila's to report, not the queue's
                    self.log.warning(
                        "A pool kernel for %s took over %.0f s to warm, or failed", notebook_path, self._turn_seconds
                    )
            return content
        finally:
            self.warming -= 1


def default_share(max_tables: int) -> int:
    """Tables one client address may have by default: all of a small server's (8 or fewer), else
    three quarters of the cap, and never fewer than 8.

    >>> default_share(40), default_share(10), default_share(2)
    (30, 8, 2)
    """
    return max_tables if max_tables <= 8 else max(8, max_tables * 3 // 4)
