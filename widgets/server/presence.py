"""Whether a shared table's seat page is here, as the server sees it: its kernel websocket is open.

A seat belongs to the browser that claimed it (:mod:`widgets.server.shared_pages`) while its page
is here: the seat's row in the database is marked seen every
:data:`~widgets.seating.HEARTBEAT_SECONDS`, and once it has not been for
:data:`~widgets.seating.AWAY_SECONDS` another browser may claim it. The seat's kernel used to mark
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

from widgets.seating import HEARTBEAT_SECONDS, SeatBook
from widgets.server.seats import table_store

log = logging.getLogger("lanterloo.server")


class SeatPresence:
    """The seat pages the server gave a kernel: kernel id -> (table id, seat token, browser)."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, str, str]] = {}
        self._failed = -float("inf")

    def note(self, kernel_id: str, table_id: str, token: str, browser: str) -> None:
        self.pages[kernel_id] = (table_id, token, browser)

    def beat(self, db: Path | str | None, live: Iterable[str], connected: Callable[[str], bool]) -> int:
        """Mark seen the seats whose kernels are ``live`` and ``connected``; forget the others' kernels
        once gone. Returns how many seats were marked."""
        alive = set(live)
        self.pages = {k: page for k, page in self.pages.items() if k in alive}
        here = [page for k, page in self.pages.items() if connected(k)]
        if not here:
            return 0
        try:
            SeatBook(table_store(db)).heartbeats(here)
        except Exception:  # the database is away: the seats look away too, which is safe
            if time.monotonic() - self._failed > 60:
                log.warning("could not mark %d shared seats' pages as here (the database did not answer)", len(here))
                self._failed = time.monotonic()
            return 0
        return len(here)


seat_presence = SeatPresence()


def start_seat_heartbeats(db: Path | str | None, live: Callable[[], Iterable[str]]) -> None:
    """Every :data:`HEARTBEAT_SECONDS`, mark the seats whose pages' websockets are open."""
    from tornado.ioloop import PeriodicCallback

    from widgets.server.sockets import departures

    def beat() -> None:
        seat_presence.beat(db, live(), departures.connected)

    PeriodicCallback(beat, HEARTBEAT_SECONDS * 1000).start()


FORGET_EVERY_SECONDS = 3600.0


def start_forgetting_unused(db: Path | str | None) -> None:
    """Every hour, forget the tables (shared ones among them) reserved a day ago and never played,
    which the server forgot only when it started: a server that ran for weeks kept them all."""
    from tornado.ioloop import PeriodicCallback

    def forget() -> None:
        try:
            gone = table_store(db).forget_unused()
        except Exception:  # the database is away: next hour
            log.warning("could not forget the tables never played (the database did not answer)")
            return
        if gone:
            log.info("forgot %d tables reserved a day ago and never played", gone)

    PeriodicCallback(forget, FORGET_EVERY_SECONDS * 1000).start()
