"""The server's live-table kernels in a real browser: a cap on how many run at once, with a plain
"tables are full" page past it; a table left without a word culled as idle; and a page left by
navigation or by closing its tab shutting its kernel down at once.

Kernels are counted as the server's child processes, read from ``/proc``; each kernel's id is in
its command line (``widgets.kernel.table_kernel -f .../kernel-<id>.json``), and a table page names its own
in its page config. The server here runs one table notebook only, so that besides the tables'
kernels one preheated kernel runs (its pool's, refilled a few seconds after a page takes it). It runs
at most two tables, and culls a kernel idle for 20 s with no page connected: short enough for a
test to wait for, and long enough for a page being drawn to connect to its kernel first (10 s was not, on a busy
machine in CI).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.table_page import act, board
from tests.conftest import ROOT, Served, serve_server
from widgets.server.seats import RETRY_AFTER_SECONDS
from widgets.store.sqlite import TableStore

SHOTS = ROOT / "test-results"
TABLE = "three-card-loo"
CAP = 2
POOL = 1  # preheated kernels: one per table notebook, and this server has one
MAX_IDLE = 20  # seconds: a page on a busy machine may take 10 s to reach its kernel (CI)
WAIT = 60_000  # ms: a page's first table may wait for its kernel on a busy machine


@pytest.fixture(scope="module")
def one_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("one-table")
    shutil.copy(ROOT / "book" / "tables" / f"{TABLE}.ipynb", folder)
    return folder


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory, one_table: Path) -> Iterator[Served]:
    """A server that runs at most two tables at once, and culls a kernel idle for 20 s with no
    page connected (checking every 10 s)."""
    folder = tmp_path_factory.mktemp("capped")
    with serve_server(folder, "--max-tables", str(CAP), "--max-idle", str(MAX_IDLE), tables=one_table) as served:
        yield served


# ----- the server's kernels, from /proc ---------------------------------------------------------


def kernel_ids(served: Served) -> set[str]:
    """The ids of the kernels the server runs (see :meth:`Served.kernel_ids`)."""
    return served.kernel_ids()


def wait_until(what: str, done: Callable[[], bool], timeout: float = 60) -> None:
    """Wait, checking every 0.1 s, until ``done()``; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.1)


def no_table_open(served: Served) -> None:
    """Wait for a server with no table open: no kernel runs but its preheated one (or its refill)."""
    wait_until("a server with no table open", lambda: len(kernel_ids(served)) <= POOL)


def reserved(served: Served) -> int:
    """How many table ids the server's database holds."""
    TableStore(served.db).close()  # the schema, if no table was ever opened
    with contextlib.closing(sqlite3.connect(served.db)) as db:
        return int(db.execute("SELECT count(*) FROM tables").fetchone()[0])


# ----- a table page -----------------------------------------------------------------------------


def open_table(page: Page, url: str) -> None:
    open_tables((page, url))


def open_tables(*tables: tuple[Page, str]) -> None:
    """Open each page at its table's address, all at once, and wait until every table is drawn."""
    for page, url in tables:
        page.goto(url, wait_until="commit", timeout=WAIT)
    for page, _ in tables:
        expect(page.locator(".loo-table-view")).to_be_visible(timeout=WAIT)
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)


def kernel_of(page: Page) -> str:
    """The id of the kernel behind a table page, from the page's config."""
    kernel_id = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    assert isinstance(kernel_id, str) and len(kernel_id) == 36, kernel_id
    return kernel_id


def kernel_in(html: str) -> str:
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', html)
    assert found, "no kernel id in the page"
    return found[1]


def leave(page: Page) -> None:
    """Close a tab as a reader does: its page's beforeunload handlers run (Voila's beacon among them)."""
    page.close(run_before_unload=True)


def full_page_problems(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page (as tests/browser/test_accessibility.py)."""
    axe = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
    if not axe.exists():
        pytest.fail(f"{axe} is missing: run `bash web/vendor.sh` (make test does)")
    page.add_script_tag(path=str(axe))
    result: dict[str, Any] = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: {v['help']}" for v in result["violations"] if v["impact"] in ("serious", "critical")]


def expect_tables_full(page: Page, *, saved_game: bool) -> None:
    expect(page).to_have_title("The tables are full · Lanterloo")
    expect(page.get_by_role("heading", level=1)).to_have_text("The tables are full")
    main = page.locator("main")
    expect(main).to_contain_text(f"All {CAP} live tables on this server are in use just now")
    if saved_game:
        expect(main).to_contain_text("Your game is safe. It is saved on the server, and it carries on")
    else:
        expect(main).to_contain_text("No game had been started for you yet, so nothing is lost.")
    expect(page.get_by_role("link", name="go back to the book")).to_have_attribute("href", "/")
    assert page.locator("script").count() == 0 and "Traceback" not in page.content()


# ----- the cap ----------------------------------------------------------------------------------


def test_past_the_cap_a_reader_gets_the_tables_full_page_until_a_table_is_left(
    context: BrowserContext, capped: Served
) -> None:
    no_table_open(capped)
    ids_before = reserved(capped)
    first, second = context.new_page(), context.new_page()
    open_tables((first, f"{capped.base}/tables/{TABLE}"), (second, f"{capped.base}/tables/{TABLE}"))
    tables = {kernel_of(first), kernel_of(second)}
    assert len(tables) == CAP and tables <= kernel_ids(capped)
    assert reserved(capped) == ids_before + CAP

    # A reader who reloads their table at a full server gets it back: the page's beacon frees its
    # place as the page goes, before the reloaded page asks for one.
    reloaded = first.reload(wait_until="commit", timeout=WAIT)
    assert reloaded is not None and reloaded.status == 200
    expect(first.locator(".loo-board")).to_be_visible(timeout=WAIT)
    assert kernel_of(first) not in tables

    # A third reader is told, politely, and no table id is reserved for them.
    third = context.new_page()
    response = third.goto(f"{capped.base}/tables/{TABLE}")
    assert response is not None and response.status == 503
    assert response.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    expect_tables_full(third, saved_game=False)
    expect(third.get_by_role("link", name="Try again")).to_have_attribute("href", f"/tables/{TABLE}")
    assert reserved(capped) == ids_before + CAP, "no id reserved for a refused reader"
    assert len(kernel_ids(capped)) <= CAP + POOL
    assert full_page_problems(third) == []
    SHOTS.mkdir(exist_ok=True)
    third.screenshot(path=str(SHOTS / "tables-full.png"), full_page=True)

    # A saved game's address (the first table's, in another tab) is refused too, and the reader
    # is told that their game is safe; "Try again" is that same address.
    saved = context.new_page()
    saved.set_viewport_size({"width": 390, "height": 844})
    response = saved.goto(first.url)
    assert response is not None and response.status == 503
    expect_tables_full(saved, saved_game=True)
    where = urlparse(first.url)
    expect(saved.get_by_role("link", name="Try again")).to_have_attribute("href", f"{where.path}?{where.query}")
    saved.screenshot(path=str(SHOTS / "tables-full-390.png"), full_page=True)
    saved.close()

    # The second reader closes their tab: its kernel stops, and the third reader's "Try again"
    # opens a new table.
    gone = kernel_of(second)
    leave(second)
    wait_until("the closed table's kernel to stop", lambda: gone not in kernel_ids(capped))
    third.get_by_role("link", name="Try again").click()
    expect(third.locator(".loo-table-view")).to_be_visible(timeout=WAIT)
    assert parse_qs(urlparse(third.url).query)["table"], "the new table has its id"
    assert reserved(capped) == ids_before + CAP + 1
    for page in (first, third):
        leave(page)
    no_table_open(capped)


@pytest.mark.parametrize("readers", ["new", "returning"])
def test_a_flood_of_readers_never_starts_more_table_kernels_than_the_cap(capped: Served, readers: str) -> None:
    """Ten readers ask for a table at the same moment, with room for two: two tables open, eight
    readers get the tables-full page, and at no moment do more than two table kernels run.

    New readers ask for ``/tables/<name>``, and each one let in has a place held for it while its
    browser follows the redirect; returning readers ask for their saved games' pages, and each
    one let in holds its place while its kernel starts."""
    no_table_open(capped)
    if readers == "new":
        addresses = [f"{capped.base}/tables/{TABLE}"] * 10
    else:
        with TableStore(capped.db) as store:
            saved = [store.new_table(TABLE) for _ in range(10)]
        addresses = [f"{capped.base}/voila/render/{TABLE}.ipynb?table={table_id}" for table_id in saved]
    ids_before = reserved(capped)
    most, seen, stop = [0], set[str](), threading.Event()

    def watch() -> None:  # the server's kernels, sampled all through the flood
        while not stop.is_set():
            running = kernel_ids(capped)
            most[0] = max(most[0], len(running))
            seen.update(running)
            time.sleep(0.02)

    start = threading.Barrier(10)

    def reader(address: str) -> tuple[int, str, str]:
        start.wait()
        try:
            with urllib.request.urlopen(address, timeout=120) as answer:
                return answer.status, answer.read().decode(), ""
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode(), refused.headers.get("Retry-After", "")

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(10) as pool:
            answers = list(pool.map(reader, addresses))
    finally:
        stop.set()
        watcher.join()
    opened = [kernel_in(body) for status, body, _ in answers if status == 200]
    try:
        assert sorted(status for status, _, _ in answers) == [200] * CAP + [503] * (10 - CAP)
        for status, body, retry in answers:
            if status == 503:
                assert retry == str(RETRY_AFTER_SECONDS)
                assert "<h1>The tables are full</h1>" in body and f"All {CAP} live tables" in body
                assert "Traceback" not in body
                assert ("nothing is lost" if readers == "new" else "Your game is safe") in body
        assert len(set(opened)) == CAP
        assert most[0] <= CAP + POOL, f"{most[0]} kernels ran at once"
        assert len(seen - set(opened)) <= POOL, "no kernel besides the tables' and the refilled pool's"
        new_ids = CAP if readers == "new" else 0
        assert reserved(capped) == ids_before + new_ids, "an id reserved for each new table opened, none for the rest"
    finally:  # free the two tables as their pages' beacons would (unless culled already)
        for kernel_id in opened:
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(urllib.request.Request(f"{capped.base}/voila/api/shutdown/{kernel_id}", b""))
    no_table_open(capped)


# ----- leaving a page ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["navigating away", "closing the tab"])
def test_leaving_a_table_shuts_its_kernel_down(context: BrowserContext, capped: Served, how: str) -> None:
    no_table_open(capped)
    page = context.new_page()
    open_table(page, f"{capped.base}/tables/{TABLE}")
    kernel_id = kernel_of(page)
    assert kernel_id in kernel_ids(capped)
    if how == "navigating away":
        page.goto(f"{capped.base}/")
        expect(page.locator("article h1").first).to_be_visible()
    else:
        page.close(run_before_unload=True)
    # Stopped by the page's beacon, not by the culler (which would take 20 s and say so in the log).
    wait_until("the table's kernel to stop", lambda: kernel_id not in kernel_ids(capped))
    assert not re.search(rf"Culling .*{kernel_id}", capped.log()), "culled: the page's beacon did not shut it down"


# ----- culling ----------------------------------------------------------------------------------

CULL_INTERVAL = 10  # seconds: server_config checks every max(10, min(60, max_idle // 4))


def test_a_table_left_without_a_word_is_culled_the_preheated_kernel_never_and_the_game_resumes(
    context: BrowserContext, capped: Served
) -> None:
    """A tab closed with no beforeunload (as when a browser crashes or a laptop's lid shuts), and a
    page fetched by a client that never ran it: both kernels are ended once idle. The tab's kernel
    is culled (its page connected, and --reconnect-grace is longer than the wait); the fetched
    page's is culled too, or ended first by the server's own check for pages that never connect
    within --max-idle, whichever of the two looks first: the log names it either way. The pool's new
    preheated kernel has run its notebook to the end and sits idle with no page connected, exactly
    what the culler looks for, but Voila's kernel manager keeps pool kernels from it: if it did
    not, the pool would be emptied and never refilled, and every reader would wait for a cold
    kernel. Idle past a whole cull check, it is still there, and it draws the next table: the
    saved game, back at its last move from its address."""
    no_table_open(capped)

    def fetch_and_forget() -> str:
        with urllib.request.urlopen(f"{capped.base}/tables/{TABLE}", timeout=120) as answer:
            return kernel_in(answer.read().decode())

    with ThreadPoolExecutor(1) as elsewhere:
        fetched = elsewhere.submit(fetch_and_forget)  # at the same time as the reader's table
        page = context.new_page()
        open_table(page, f"{capped.base}/tables/{TABLE}")
        never_run = fetched.result()
    act(page, WAIT)
    url, position, table_id = page.url, board(page), parse_qs(urlparse(page.url).query)["table"][0]
    saved = TableStore(capped.db).count(table_id)
    assert saved >= 2, "the deal and the move are saved"
    left = kernel_of(page)
    assert left in kernel_ids(capped)
    page.close()  # no beforeunload handlers: no beacon
    tables = {left, never_run}
    wait_until("the pool's new kernel", lambda: len(kernel_ids(capped) - tables) == POOL)
    (pooled,) = kernel_ids(capped) - tables
    pooled_since = time.monotonic()  # started, and idle once its notebook has run (a second or two)
    # idle 20 s with no page connected, noticed at the next check (every 10 s)
    wait_until("both kernels to be ended", lambda: not tables & kernel_ids(capped), timeout=60)
    log = capped.log()

    def culled(kernel_id: str) -> bool:
        return bool(re.search(rf"Culling '\w+' kernel '[^']*' \({kernel_id}\) with 0 connections", log))

    assert culled(left), "the tab's kernel was not culled"
    never_connected = f"Table kernel {never_run}: its page was served {MAX_IDLE} s ago and never connected"
    assert culled(never_run) or never_connected in log, "the fetched page's kernel was ended, but not for being idle"
    assert not re.search(rf"{never_run}: its page went", log), "a page that never connected did not go"
    time.sleep(max(0.0, pooled_since + MAX_IDLE + CULL_INTERVAL + 3 - time.monotonic()))  # a check since its idle 20 s
    assert pooled in kernel_ids(capped), "the preheated kernel was culled"
    assert not re.search(rf"Culling .*{pooled}", capped.log())

    log_before = capped.log()
    again = context.new_page()
    open_table(again, url)
    assert kernel_of(again) == pooled, "the table was not drawn by the preheated kernel"
    assert f"Using pre-heated kernel: {pooled}" in capped.log()[len(log_before) :]
    again.wait_for_function(
        "(text) => { const b = document.querySelector('.loo-board'); return b && b.innerText === text; }",
        arg=position,
        timeout=WAIT,
    )
    assert TableStore(capped.db).count(table_id) == saved
    act(again, WAIT)  # and it plays on
    assert TableStore(capped.db).count(table_id) > saved
    leave(again)
