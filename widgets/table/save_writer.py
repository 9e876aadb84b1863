"""A table kernel's saves, written on a thread of their own (issue 28: a database that hangs).

A table's kernel answers its page on one thread. A move saved there waited for the database: with
PostgreSQL frozen, the reader's first click waited the store's whole limit (about 6 s) before the
table moved. So a table served by the server hands its writes to a :class:`SaveWriter`: the move is
drawn at once, and the writer's thread saves it. :class:`~widgets.table.saving.SavingTable` keeps the
order (one write at a time, each of every event not yet saved, from the count the store last gave),
keeps every event until the store has taken it, and tries again when a write fails; the writer only
runs what it is given, in the order given, and says when each is done.

The writer's thread has a store of its own (``open_store``, called there: an SQLite connection is its
thread's). What it finished is taken by the kernel's thread (:meth:`SaveWriter.done`), never applied
on the writer's: ``wake`` is called after each, so that the kernel's loop takes it at once
(tornado's ``IOLoop.add_callback``, which any thread may call).
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from widgets.table.journal import Journals

log = logging.getLogger("lanterloo.widgets.table.save_writer")

Job = Callable[[Journals], Any]


@dataclass(frozen=True)
class Done:
    """A job the writer ran: its tag, and what it returned or the error it raised."""

    tag: Any
    result: Any = None
    error: BaseException | None = None


class SaveWriter:
    """One thread that runs a table's store calls in the order they are given (:meth:`submit`)."""

    def __init__(self, open_store: Callable[[], Journals], wake: Callable[[], None] | None = None) -> None:
        self._open_store = open_store
        self._store: Journals | None = None
        self.wake = wake
        self._jobs: collections.deque[tuple[Any, Job]] = collections.deque()
        self._done: collections.deque[Done] = collections.deque()
        self._running = 0  # jobs given and not yet done
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def submit(self, tag: Any, job: Job) -> None:
        """Run ``job(store)`` after every job given before it; its :class:`Done` comes with ``tag``."""
        with self._changed:
            self._jobs.append((tag, job))
            self._running += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="lanterloo-saves", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    @property
    def busy(self) -> bool:
        """Whether a job given is not done yet."""
        return self._running > 0

    def done(self) -> list[Done]:
        """The jobs done since last asked, in the order they were given."""
        with self._changed:
            finished = list(self._done)
            self._done.clear()
        return finished

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every job given to be done; whether they are."""
        with self._changed:
            return self._changed.wait_for(lambda: self._running == 0, timeout)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._jobs))
                tag, job = self._jobs.popleft()
            try:
                if self._store is None:
                    self._store = self._open_store()
                finished = Done(tag, result=job(self._store))
            except Exception as error:  # the kernel's thread says it, once (widgets.table.saving)
                finished = Done(tag, error=error)
            with self._changed:
                self._done.append(finished)
                self._running -= 1
                self._changed.notify_all()
            if self.wake is not None:
                try:
                    self.wake()
                except Exception:  # the kernel's loop is closing: what is done is taken at its exit
                    log.debug("the kernel's loop could not be woken", exc_info=True)
