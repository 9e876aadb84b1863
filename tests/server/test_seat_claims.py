"""One seat, one browser (issue 28): a seat's claim is one conditional write, so that of many claims of
one seat made at the same moment from two processes exactly one wins, on SQLite and on PostgreSQL; a
claim the database cannot answer (right after a PostgreSQL restart, say) is refused; a client cannot
name the seat's browser itself; and the seat's kernel deals no card to a browser the database does
not give the seat to."""

from __future__ import annotations

import asyncio
import multiprocessing
import queue
import threading
from pathlib import Path
from typing import Any

import ipywidgets as ipw
import pytest
import tornado.web

from tests.conftest import run_async
from tests.helpers.claims import claimer
from tests.server.test_server import fetch_at_once
from tests.widgets.test_table_view import walk
from widgets.multiseat.shared_view import SEAT_BROWSER_ENV, SharedLiveTable, served_shared
from widgets.server.database import WORKERS, in_database
from widgets.server.shared_pages import BROWSER_COOKIE, SEAT_HEADER, claim_seat
from widgets.store.seating import COMPUTER, PERSON, SeatBook
from widgets.store.sqlite import TableStore
from widgets.table.journal import StoreError

ROUNDS = 30  # seats claimed by both processes at once; the unlocked claim let both win in about half


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The tables' database on each of the store's backends: a file, or a PostgreSQL address."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres").new_database())
    return str(tmp_path / "t.sqlite3")


def test_of_two_processes_claiming_one_seat_at_once_exactly_one_gets_it(place: str) -> None:
    with TableStore(place) as store:
        book = SeatBook(store)
        seats = []
        for _ in range(ROUNDS):
            table = store.new_table("nap")
            seats.append((table, book.open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])[0]))
        spawn = multiprocessing.get_context("spawn")
        barrier, results = spawn.Barrier(2), spawn.Queue()
        workers = [spawn.Process(target=claimer, args=(place, seats, b, barrier, results)) for b in ("one", "two")]
        for worker in workers:
            worker.start()
        try:
            won = dict(results.get(timeout=120) for _ in workers)
        except queue.Empty:
            pytest.fail("a claiming process did not finish")
        finally:
            for worker in workers:
                worker.join(timeout=30)
        both = [i for i in range(ROUNDS) if won["one"][i] and won["two"][i]]
        neither = [i for i in range(ROUNDS) if not (won["one"][i] or won["two"][i])]
        assert both == [] and neither == [], f"given to both browsers: {len(both)}; to neither: {len(neither)}"
        for i, (table, _token) in enumerate(seats):
            assert book.claimed_by(table, 0) == ("one" if won["one"][i] else "two"), "the winner holds the seat"


def test_a_claim_the_database_cannot_answer_raises_and_a_reload_keeps_the_seat(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    book = SeatBook(store)
    table = store.new_table("nap")
    token = book.open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])[0]
    assert book.claim(table, token, "a", now=100.0) and book.claim(table, token, "a", now=101.0)
    assert not book.claim(table, token, "b", now=102.0) and book.claimed_by(table, 0) == "a"
    assert book.claim(table, "no-such-token", "b")  # no seat to claim: the table's page says so
    store.close()
    with pytest.raises(StoreError):
        book.claim(table, token, "b")


class SeatPage(tornado.web.RequestHandler):
    """A seat's page as the server answers it, up to the kernel: the claim, then what the kernel is told."""

    def initialize(self, db: str) -> None:
        self.db = db

    async def get(self) -> None:
        if await claim_seat(self, self.db, self.get_query_argument("table")):
            self.finish(f"served to {self.request.headers.get(SEAT_HEADER, 'nobody')}")


def seat_app(db: str) -> tornado.web.Application:
    return tornado.web.Application([(r"/seat", SeatPage, {"db": db})])


def fetch(db: str, path: str, headers: dict[str, str] | None = None) -> Any:
    """One request to a seat's page (its claim made on one of the server's database threads)."""
    (response,) = fetch_at_once(seat_app(db), [path], headers=headers)
    return response


def test_a_store_error_during_a_claim_refuses_the_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "t.sqlite3")
    with TableStore(db) as store:
        table = store.new_table("nap")
        token = SeatBook(store).open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])[0]

    def failing(*_args: Any, **_kwargs: Any) -> bool:
        raise StoreError("the tables' database failed: disk I/O error")

    monkeypatch.setattr(SeatBook, "claim", failing)
    refused = fetch(db, f"/seat?table={table}&seat={token}")
    assert refused.code == 503 and b"served" not in refused.body
    assert b"reload" in refused.body and b"Traceback" not in refused.body and b"disk" not in refused.body


def connect_every_database_thread(db: str) -> None:
    """Each of the server's database threads connected to ``db``: :data:`WORKERS` calls held at a
    barrier until all have come, so that no thread serves two of them."""
    together = threading.Barrier(WORKERS, timeout=30)

    async def all_at_once() -> None:
        await asyncio.gather(*(in_database(db, lambda store: together.wait()) for _ in range(WORKERS)))

    run_async(all_at_once())


def test_right_after_a_postgresql_restart_a_second_browser_does_not_get_a_held_seat(postgres: Any) -> None:
    import psycopg

    url = postgres.new_database()
    store = TableStore(url)
    table = store.new_table("nap")
    token = SeatBook(store).open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])[0]
    path = f"/seat?table={table}&seat={token}"
    (first,) = fetch_at_once(seat_app(url), [path], headers={"Cookie": f"{BROWSER_COOKIE}=ann-browser"})
    assert first.code == 200 and first.body == b"served to ann-browser"
    connect_every_database_thread(url)  # whichever thread claims next, its connection is one dropped
    with psycopg.connect(url, autocommit=True) as admin:  # every connection to the database dropped, as in a restart
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    other = {"Cookie": f"{BROWSER_COOKIE}=ben-browser"}
    (during,) = fetch_at_once(seat_app(url), [path], headers=other)
    assert during.code == 503, "the claim failed on the dropped connection: refused, not taken as claimed"
    # The other threads' connections were dropped too: each refuses once more, then connects again.
    answers = [fetch_at_once(seat_app(url), [path], headers=other)[0].code for _ in range(WORKERS + 1)]
    assert set(answers) <= {409, 503} and answers.count(503) < WORKERS and 409 in answers, answers
    assert SeatBook(TableStore(url)).claimed_by(table, 0) == "ann-browser"


def test_a_client_cannot_name_the_seats_browser_itself(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    with TableStore(db) as store:
        table = store.new_table("nap")
        token = SeatBook(store).open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])[0]
    forged = {SEAT_HEADER: "ann-browser", "Cookie": f"{BROWSER_COOKIE}=ann-browser"}
    ann = fetch(db, f"/seat?table={table}&seat={token}", forged)
    assert ann.body == b"served to ann-browser"
    ben = fetch(db, f"/seat?table={table}&seat={token}", {SEAT_HEADER: "ann-browser"})
    assert ben.code == 409, "a header naming the seat's browser is the server's word, never a client's"
    listing = fetch(db, f"/seat?table={table}", {SEAT_HEADER: "ann-browser"})
    assert listing.body == b"served to nobody"


def test_voila_hands_the_seats_browser_to_the_kernel_where_it_looks() -> None:
    from widgets.server.app import server_config
    from widgets.server.pages import DEFAULT_TABLES

    config = server_config(tables=DEFAULT_TABLES, port=8000, ip="127.0.0.1", max_idle=600)
    assert list(config.VoilaConfiguration.http_header_envs) == [SEAT_HEADER]
    assert "HTTP_" + SEAT_HEADER.upper().replace("-", "_") == SEAT_BROWSER_ENV  # as Voila names it


def test_the_seats_kernel_deals_only_to_the_browser_that_holds_the_seat(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    book = SeatBook(store)
    table = store.new_table("three-card-loo")
    tokens = book.open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER, COMPUTER])
    assert book.claim(table, tokens[0], "ann-browser")
    for browser in ("ben-browser", None):  # another browser's request, or one the server never vouched for
        shown = served_shared("three-card-loo", None, table, tokens[0], store, browser=browser, follow=False)
        assert isinstance(shown, ipw.HTML) and "held by another browser" in shown.value
    assert store.count(table) == 0, "no game was dealt for them"
    ann = served_shared("three-card-loo", None, table, tokens[0], store, browser="ann-browser", follow=False)
    assert isinstance(ann, SharedLiveTable) and store.count(table) > 0


def test_a_seat_that_passes_to_another_browser_is_shown_no_more_in_the_first(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    book = SeatBook(store)
    table = store.new_table("three-card-loo")
    tokens = book.open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER, COMPUTER])
    assert book.claim(table, tokens[0], "ann-browser", now=100.0)
    ann = served_shared("three-card-loo", None, table, tokens[0], store, browser="ann-browser", follow=False)
    assert isinstance(ann, SharedLiveTable) and ann.follower is not None
    before = [w for w in walk(ann) if w is not ann]  # every widget of the table (walk: children only)
    assert book.claim(table, tokens[0], "ben-browser", now=1e12), "Ann's page long gone: Ben's browser takes it"
    ann.follower.tick()
    assert ann.follower.lost and "held by another browser" in ann.children[0].value
    still_open = [w for w in before if w.comm is not None]
    assert still_open == [], "the table's widgets are closed: no click reaches them"
