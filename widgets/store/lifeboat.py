"""Moves a table kernel could not save, saved after it ends (issue 28, point 10: disk faults lose nothing).

A table whose store fails (a full disk, a read-only file) keeps its moves in its kernel's memory and
tries again every few seconds (:meth:`widgets.table.saving.SavingTable.save_again`). If the kernel ends
first (its page reloaded or closed during the fault, the server's beacon shutting it down), those
moves would end with it. So a table kernel, as it exits, hands any it still holds to a small process
of its own (``python -m widgets.store.lifeboat``, in a session of its own so that the kernel's end does not
end it), which tries to save them every :data:`RETRY_SECONDS` for up to :data:`KEEP_SECONDS`, with the
store's usual check: written only if the table holds exactly the events the kernel had seen, so a game
played on since (a seat's moves at a shared table, a reopened page's) is never overwritten; those
moves are then dropped, and the log says so. The events go over the process's standard input; the
database is the kernel's own (``$LANTERLOO_DB``, inherited).

A shared table's other seats, and a reopened page at a shared seat, see the moves once saved; a
reader's own table reopened meanwhile shows them when next opened.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from widgets.table.model import TableModel

log = logging.getLogger("lanterloo.widgets.store.lifeboat")

RETRY_SECONDS = 2.0
KEEP_SECONDS = 900.0
"""How long the moves of an ended kernel are tried: a disk freed within a quarter of an hour loses none."""

_watched: list[TableModel] = []


def keep_on_exit(model: TableModel) -> None:
    """When this table kernel exits, hand what ``model`` could not save to a lifeboat. Nothing outside
    a kernel (a test, a script: their stores are their own)."""
    kernel_app = sys.modules.get("ipykernel.kernelapp")
    if kernel_app is None or not kernel_app.IPKernelApp.initialized():
        return
    if not _watched:
        atexit.register(_launch_all)
    _watched.append(model)


FINISH_SECONDS = 3.0
"""How long an ending kernel waits for a save under way on its writer's thread (widgets.table.save_writer)."""


def _launch_all() -> None:
    for model in _watched:
        try:  # a save under way: what it wrote is not handed on (the lifeboat's write would be refused)
            model.finish_saves(FINISH_SECONDS)
        except Exception:
            log.exception("table %s: the save under way could not be waited for", model.table_id)
        unsaved = model.unsaved
        if unsaved and model.store is not None and model.table_id is not None:
            launch(model.table_id, model.saved_events, unsaved)


def launch(table_id: str, expected: int, events: list[dict[str, Any]]) -> bool:
    """Start a lifeboat for ``events`` of table ``table_id`` (which held ``expected`` events); False if it
    could not be started."""
    payload = json.dumps({"table": table_id, "expected": expected, "events": events}).encode()
    try:
        boat = subprocess.Popen(
            [sys.executable, "-m", "widgets.store.lifeboat"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=None,  # the kernel's own log file, where a problem is told
            start_new_session=True,
            close_fds=True,
        )
        assert boat.stdin is not None
        boat.stdin.write(payload)
        boat.stdin.close()
    except (OSError, ValueError) as error:
        log.error(
            "table %s: %d unsaved events are lost: no process could be started to keep them (%s)",
            table_id,
            len(events),
            error,
        )
        return False
    log.warning(
        "table %s: %d unsaved events handed to process %d, to be saved once the disk allows",
        table_id,
        len(events),
        boat.pid,
    )
    return True


def save_when_possible(
    table_id: str,
    expected: int,
    events: list[dict[str, Any]],
    *,
    keep: float = KEEP_SECONDS,
    every: float = RETRY_SECONDS,
) -> str:
    """Save ``events``, trying every ``every`` seconds for ``keep`` seconds; what became of them. A
    database file that is not there (taken away, its disk unmounted) is never made anew."""
    from widgets.store.postgres import is_database_url
    from widgets.store.sqlite import TableStore, default_path
    from widgets.table.journal import BadTableId, StaleTable, StoreError, UnknownTable

    named = os.environ.get("LANTERLOO_DB") or ""
    deadline = time.monotonic() + keep
    failure = ""
    while True:
        try:
            if not is_database_url(named) and not default_path().is_file():
                raise StoreError(f"the tables' database {default_path()} is not there")
            with TableStore() as store:
                store.append(table_id, expected, events)
            return "saved"
        except StaleTable as stale:
            return f"dropped: the table was played on meanwhile ({stale})"
        except (BadTableId, UnknownTable) as gone:
            return f"dropped: {gone}"
        except (StoreError, OSError) as error:
            failure = str(error)
        if time.monotonic() + every > deadline:
            return f"lost: still not saved after {keep:g} s ({failure})"
        time.sleep(every)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s lifeboat %(process)d %(levelname)s %(message)s")
    payload = json.loads(sys.stdin.buffer.read())
    table_id, events = str(payload["table"]), list(payload["events"])
    outcome = save_when_possible(table_id, int(payload["expected"]), events)
    (log.info if outcome == "saved" else log.error)("table %s: %d events %s", table_id, len(events), outcome)
    return 0 if outcome == "saved" else 1


if __name__ == "__main__":
    os.umask(0o077)  # a database it makes (never: the kernel's exists) is its owner's alone
    sys.exit(main())
