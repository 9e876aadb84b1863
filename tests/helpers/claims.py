"""A server process claiming seats, for the race tests of tests/server/test_seat_claims.py: in a module of
its own, so that a process started for it imports the store and the seats alone."""

from __future__ import annotations

from typing import Any

from widgets.store.seating import SeatBook
from widgets.store.sqlite import TableStore


def claimer(place: str, seats: list[tuple[str, str]], browser: str, barrier: Any, results: Any) -> None:
    """Claim each seat of ``seats`` (table, token) for ``browser``, each the moment the other process
    claims it too (``barrier``); put (browser, [won each]) in ``results``."""
    store = TableStore(place)
    book = SeatBook(store)
    won = []
    for table, token in seats:
        barrier.wait(timeout=60)
        won.append(book.claim(table, token, browser))
    results.put((browser, won))
    store.close()
