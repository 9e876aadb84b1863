"""Disk faults lose nothing and crash nothing (issue 28, point 10), on a live server on loopback.

A database made read-only (immutable, as root would make it) under a running server killed its
table's kernel and then the server with SIGBUS: SQLite wrote its memory-mapped WAL index. A server
started on a read-only database would not start. At a shared table on a full disk the mover's move
was kept in its kernel's memory and never saved, so no other seat saw it; and a seat reloaded
meanwhile showed "Something went wrong". Each test here drives the pages as a reader's browser does
(:class:`tests.kernel_client.TableClient`), within a bounded time.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import sqlite3
import time
from contextlib import closing
from pathlib import Path

from tests.conftest import Served, run_async, serve_server, table_folder
from tests.helpers.disk import database_files, read_only, saved_count, small_disk
from tests.kernel_client import TableClient
from widgets.multiseat.shared_table import SharedTableModel
from widgets.server.shared_pages import BROWSER_COOKIE, open_shared
from widgets.store.sqlite import TableStore
from widgets.table.model import TableModel
from widgets.table.saving import NEVER_SAVED_MESSAGE, NOT_SAVING_MESSAGE, SAVED_AGAIN_MESSAGE, WAITING_MESSAGE

TABLE = "three-card-loo"
DEAL = "l3.peel.s0.n482910233"  # Peel's single first (settled as dealt), then a hand for all five
WAIT = 120.0  # a table's first page may wait for its kernel on a busy two-core machine


def one_table(tmp_path: Path) -> Path:
    """The test's table notebooks: the one it plays, so that its server preheats one kernel, not six."""
    return table_folder(tmp_path / "tables", TABLE)


# Two kernels of the table preheated (--class-size), for a test whose first two pages open on kernels
# started in the same state of the disk either way: the second page need not wait for the pool's refill
# (REFILL_DELAY_SECONDS, then a kernel's start). A test whose second page must have a kernel started
# during the fault keeps one.
TWO_READY = ("--class-size", "2")


def shown(client: TableClient) -> str:
    """Every text the page shows (its HTML widgets' values), unescaped."""
    return html.unescape(" ".join(client.html_values()))


async def play(client: TableClient, moves: int) -> None:
    """Take the reader's first choice ``moves`` times (or deal the next hand), each to the kernel's end."""
    for _ in range(moves):
        choices = client.choices()
        target = choices[0] if choices else client.button("loo-next")
        await client.settled(await client.click(target), timeout=60)


async def until_saved(db: Path, table_id: str, more_than: int = -1) -> None:
    """Wait until the table's saved count is above ``more_than`` and stays put (its writer is done)."""
    deadline, last = time.monotonic() + 30, -2
    while (now := saved_count(db, table_id)) != last or now <= more_than:
        assert time.monotonic() < deadline, f"the table's moves were not saved ({now} events)"
        last = now
        await asyncio.sleep(0.3)


def alive(served: Served, *clients: TableClient) -> bool:
    """The server runs, and so does every client's kernel."""
    kernels = served.kernel_ids()
    return served.process.poll() is None and all(c.kernel_id in kernels for c in clients)


def test_a_database_made_read_only_under_a_running_server_kills_nothing_and_the_tables_say_they_are_not_saved(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db" / "tables.sqlite3"
    db.parent.mkdir()
    with serve_server(tmp_path, "--db", str(db), tables=one_table(tmp_path)) as served:

        async def scenario() -> None:
            own = await TableClient.open(served.base, TABLE, timeout=WAIT)
            assert own.table_id
            await play(own, 2)
            await until_saved(db, own.table_id)  # saved on the kernel's writer thread, a moment later
            saved = saved_count(db, own.table_id)
            assert saved >= 2 and NOT_SAVING_MESSAGE not in shown(own)
            with read_only(*database_files(db)):
                await play(own, 3)  # the moves are made, and kept in the kernel's memory
                await own.wait_for(lambda: NOT_SAVING_MESSAGE in shown(own), 10, "the reader told in plain words")
                assert saved_count(db, own.table_id) == saved
                fresh = await TableClient.open(served.base, TABLE, timeout=WAIT)  # a new table: unsaved, and says so
                assert fresh.board() and NEVER_SAVED_MESSAGE in shown(fresh)
                await play(fresh, 1)
                again = await TableClient.open(served.base, TABLE, f"table={own.table_id}", timeout=WAIT)
                assert again.board() and NOT_SAVING_MESSAGE in shown(again), "the saved game, said not saved"
                await again.close(shutdown=True)
                await asyncio.sleep(1)
                assert alive(served, own, fresh), "no process was killed"
            # Writable again: what the first table kept is saved within seconds, with no move made.
            await own.wait_for(lambda: SAVED_AGAIN_MESSAGE in shown(own), 20, "the table to be saved again")
            assert saved_count(db, own.table_id) > saved
            await play(own, 1)
            assert NOT_SAVING_MESSAGE not in shown(own) and alive(served, own)
            for client in (own, fresh):
                await client.close(shutdown=True)

        run_async(scenario())
        assert "Bus error" not in served.log() and served.process.poll() is None


def test_a_server_started_on_a_read_only_database_plays_tables_that_say_they_are_not_saved(tmp_path: Path) -> None:
    db = tmp_path / "db" / "tables.sqlite3"
    db.parent.mkdir()
    with closing(TableStore(db)) as store:  # a game saved before, by an earlier run of the server
        table_id = store.new_table(TABLE)
        model = TableModel(TABLE, code=DEAL, rng=random.Random(1))
        model.attach(store, table_id)
        while model.saved_events < 3:
            assert model.act(model.legal()[0]) if model.legal() else model.new_hand()
        before = model.saved_events
    with (
        read_only(*database_files(db)),
        serve_server(tmp_path, "--db", str(db), *TWO_READY, tables=one_table(tmp_path)) as served,
    ):
        assert "Games are NOT being saved" in served.log()

        async def scenario() -> None:
            saved = await TableClient.open(served.base, TABLE, f"table={table_id}", timeout=WAIT)
            assert saved.board() and NOT_SAVING_MESSAGE in shown(saved), "the saved game, told not saved at once"
            await play(saved, 1)  # and played on, in memory
            fresh = await TableClient.open(served.base, TABLE, timeout=WAIT)
            assert fresh.board() and NEVER_SAVED_MESSAGE in shown(fresh)
            assert alive(served, saved, fresh) and saved_count(db, table_id) == before
            for client in (saved, fresh):
                await client.close(shutdown=True)

        run_async(scenario())


async def seat_client(served: Served, link: str, browser: str) -> TableClient:
    """The seat's page, in the browser ``browser`` names (its cookie)."""
    query = link.split("?", 1)[1]
    return await TableClient.open(
        served.base, TABLE, query, timeout=WAIT, headers={"Cookie": f"{BROWSER_COOKIE}={browser}"}
    )


def to_act(db: Path, table_id: str) -> int | None:
    """Whose turn it is in the game saved, read without writing."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as con:
        (start,) = con.execute(
            "SELECT MAX(seq) FROM events WHERE table_id = ? AND kind = 'start'", (table_id,)
        ).fetchone()
        bodies = con.execute(
            "SELECT body FROM events WHERE table_id = ? AND seq >= ? ORDER BY seq", (table_id, start or 1)
        ).fetchall()
    model = SharedTableModel(journal=[json.loads(body) for (body,) in bodies], seat=0)
    return None if model.hand.is_over else model.hand.to_act


def test_a_shared_tables_move_made_on_a_full_disk_reaches_every_seat_once_the_disk_is_back(tmp_path: Path) -> None:
    with (
        small_disk(tmp_path / "disk") as disk,
        serve_server(
            tmp_path, "--db", str(disk.folder / "t.sqlite3"), *TWO_READY, tables=one_table(tmp_path)
        ) as served,
    ):
        db = disk.folder / "t.sqlite3"
        with TableStore(db) as store:  # this process's own connection, closed: the disk is the server's
            table_id, tokens, _players = open_shared(store, TABLE, people=2, deal=DEAL)
        links = [f"/tables/{TABLE}?table={table_id}&seat={token}" for token in tokens[:2]]

        async def scenario() -> None:
            seats = [await seat_client(served, link, f"browser-{i}") for i, link in enumerate(links)]
            deadline = time.monotonic() + 60
            while (mover := to_act(db, table_id)) not in (0, 1):  # the computers' moves first, if theirs
                assert time.monotonic() < deadline, "no person's turn came"
                await asyncio.sleep(0.2)
            other = 1 - mover
            count = saved_count(db, table_id)
            await seats[other].wait_for(lambda: seats[other].board(), 30, "the other seat's board")
            await asyncio.sleep(1)  # both pages drawn from the same saved game
            before = seats[other].board()

            disk.fill()
            await play(seats[mover], 1)
            await seats[mover].wait_for(lambda: NOT_SAVING_MESSAGE in shown(seats[mover]), 10, "the mover told")
            await asyncio.sleep(3)  # the other seat learns of moves through the database: not yet
            assert saved_count(db, table_id) == count and seats[other].board() == before
            # The other seat's reader reloads meanwhile: the game as saved, and the table waiting for the disk.
            await seats[other].close(shutdown=True)
            seats[other] = await seat_client(served, links[other], f"browser-{other}")
            assert seats[other].board() and "Something went wrong" not in shown(seats[other])
            await seats[other].wait_for(lambda: WAITING_MESSAGE in shown(seats[other]), 10, "the waiting note")
            before = seats[other].board()

            disk.free()  # the move is saved within seconds, with no click, and reaches the other seat
            await seats[other].wait_for(lambda: seats[other].board() != before, 20, "the move at the other seat")
            assert saved_count(db, table_id) > count
            await seats[mover].wait_for(lambda: SAVED_AGAIN_MESSAGE in shown(seats[mover]), 10, "the mover's note")
            await seats[other].wait_for(lambda: WAITING_MESSAGE not in shown(seats[other]), 10, "no waiting note")
            assert alive(served, *seats)
            for seat in seats:
                await seat.close(shutdown=True)

        run_async(scenario())


def test_a_table_closed_while_the_disk_is_full_loses_none_of_its_moves(tmp_path: Path) -> None:
    """Its kernel ends with the moves it could not save: it hands them to a process of its own
    (widgets.store.lifeboat), which saves them once the disk has room."""
    with (
        small_disk(tmp_path / "disk") as disk,
        serve_server(tmp_path, "--db", str(disk.folder / "t.sqlite3"), tables=one_table(tmp_path)) as served,
    ):
        db = disk.folder / "t.sqlite3"

        async def scenario() -> None:
            own = await TableClient.open(served.base, TABLE, timeout=WAIT)
            assert own.table_id
            await play(own, 1)
            await until_saved(db, own.table_id)  # saved on the kernel's writer thread, a moment later
            count = saved_count(db, own.table_id)
            disk.fill()
            await play(own, 3)
            await own.wait_for(lambda: NOT_SAVING_MESSAGE in shown(own), 10, "the reader told")
            assert saved_count(db, own.table_id) == count
            await own.close(shutdown=True)  # the page closed (or reloaded): its kernel ends
            again = await TableClient.open(served.base, TABLE, f"table={own.table_id}", timeout=WAIT)
            assert again.board() and NOT_SAVING_MESSAGE in shown(again), "reopened meanwhile: said at once"
            await again.close(shutdown=True)
            disk.free()
            deadline = time.monotonic() + 20
            while saved_count(db, own.table_id) < count + 3:
                assert time.monotonic() < deadline, "the moves kept when the kernel ended were not saved"
                await asyncio.sleep(0.2)
            reopened = await TableClient.open(served.base, TABLE, f"table={own.table_id}", timeout=WAIT)
            assert reopened.board() and NOT_SAVING_MESSAGE not in shown(reopened)
            await reopened.close(shutdown=True)

        run_async(scenario())
