"""Whether a shared table's seat page is here, as the server sees it: its kernel websocket is open.

A seat belongs to the browser that claimed it (:mod:`widgets.server.shared_pages`) while its page
is here: the seat's row in the database is marked seen every
:data:`~widgets.store.seating.HEARTBEAT_SECONDS`, and once it has not been for
:data:`~widgets.store.seating.AWAY_SECONDS` another browser may claim it. The seat's kernel used to mark
it, and it did so as long as it ran: a dropped student's seat came free only after
``--reconnect-grace`` and half a minute more (120 s), and a seat page whose websocket never opened
held its seat for good. The server marks it instead, and only while a websocket to the seat's
kernel is open (:data:`~widgets.server.sockets.departures`): a seat comes free half a minute
after its page went, as its pages say.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from widgets.server.database import in_database, table_store
from widgets.store.seating import HEARTBEAT_SECONDS, SeatBook

if TYPE_CHECKING:
    from widgets.store.sqlite import TableStore

log = logging.getLogger("lanterloo.server")


class SeatPresence:
    """The seat pages the server gave a kernel: kernel id -> (table id, seat token, browser)."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, str, str]] = {}
        self._failed = -float("inf")

    def note(self, kernel_id: str, table_id: str, token: str, browser: str) -> None:
        self.pages[kernel_id] = (table_id, token, browser)

    def here(self, live: Iterable[str], connected: Callable[[str], bool]) -> list[tuple[str, str, str]]:
        """The seats whose kernels are ``live`` and ``connected``; the others' kernels, once gone, are forgotten."""
        alive = set(live)
        self.pages = {k: page for k, page in self.pages.items() if k in alive}
        return [page for k, page in self.pages.items() if connected(k)]

    def mark(self, store: TableStore, here: list[tuple[str, str, str]]) -> int:
        """Mark ``here`` seen in ``store``; how many were (none if the database did not take them)."""
        if not here:
            return 0
        try:
            SeatBook(store).heartbeats(here)
        except Exception:  # the database is away: the seats look away too, which is safe
            self.failed(len(here))
            return 0
        return len(here)

    def failed(self, count: int) -> None:
        """``count`` seats could not be marked: one line a minute at most says so."""
        if time.monotonic() - self._failed > 60:
            log.warning("could not mark %d shared seats' pages as here (the database did not answer)", count)
            self._failed = time.monotonic()

    def beat(self, db: Path | str | None, live: Iterable[str], connected: Callable[[str], bool]) -> int:
        """Mark seen the seats whose kernels are ``live`` and ``connected``, on this thread's connection
        (the server's heartbeat does it on a database thread: :func:`start_seat_heartbeats`)."""
        here = self.here(live, connected)
        return self.mark(table_store(db), here) if here else 0


seat_presence = SeatPresence()


def start_seat_heartbeats(db: Path | str | None, live: Callable[[], Iterable[str]]) -> None:
    """Every :data:`HEARTBEAT_SECONDS`, mark the seats whose pages' websockets are open: which they
    are is the event loop's to say, the marking a database thread's (:mod:`widgets.server.database`)."""
    from tornado.ioloop import PeriodicCallback

    from widgets.server.sockets import departures

    async def beat() -> None:
        here = seat_presence.here(live(), departures.connected)
        if here:
            try:
                await in_database(db, lambda store: seat_presence.mark(store, here))
            except Exception:  # not answered in time: marked as away meanwhile, which is safe
                seat_presence.failed(len(here))

    PeriodicCallback(beat, HEARTBEAT_SECONDS * 1000).start()


FORGET_EVERY_SECONDS = 3600.0


def forget_unused(store: TableStore) -> None:
    """Forget the tables reserved a day ago and never played (on a database thread)."""
    gone = store.forget_unused()
    if gone:
        log.info("forgot %d tables reserved a day ago and never played", gone)


def start_forgetting_unused(db: Path | str | None) -> None:
    """Every hour, forget the tables (shared ones among them) reserved a day ago and never played,
    which the server forgot only when it started: a server that ran for weeks kept them all."""
    from tornado.ioloop import PeriodicCallback

    async def forget() -> None:
        try:
            await in_database(db, forget_unused)
        except Exception:  # the database is away: next hour
            log.warning("could not forget the tables never played (the database did not answer)")

    PeriodicCallback(forget, FORGET_EVERY_SECONDS * 1000).start()
