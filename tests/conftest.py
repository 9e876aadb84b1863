"""Shared fixtures: Debian's chromium for Playwright, and the served site for browser tests.

Hypothesis draws its examples from a fixed seed here (the ``ci`` profile), so that every run of
``make test`` tries the same examples and a red run is one anybody can repeat; to explore new ones, run
with ``HYPOTHESIS_PROFILE=explore`` (and keep any failing example it finds as a test of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "_build" / "html"
T = TypeVar("T")
CHROMIUM = "/usr/bin/chromium"
KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})\.json$")
# Flags that keep chromium from calling out on a closed network (docs/serving.md: Chromium in the tests).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_sessionstart(session: pytest.Session) -> None:
    """pytest-playwright empties its output folder (``test-results``, where the tests' screenshots go
    too) as each test process starts; the browser tests run in two processes (``make test``), and
    one would empty it under the other: it is emptied once, here, by the process that runs the
    others (or the only one)."""
    if not hasattr(session.config, "workerinput"):
        shutil.rmtree(Path(session.config.getoption("--output")).absolute(), ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def delete_output_dir() -> None:
    """pytest-playwright's own, which empties ``test-results`` in every test process: see
    :func:`pytest_sessionstart`."""


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright launches Debian's chromium; `playwright install` is never needed."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make test does it)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own, and its result (or its exception).

    Playwright's sync API keeps an event loop running in the main thread for the whole session
    once a browser test has run, and ``asyncio.run`` refuses to start inside a running loop: so a
    test that drives asyncio code (a websocket client, tornado's HTTP client) runs it here.
    """
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as error:  # handed to the caller below
            outcome["error"] = error

    thread = threading.Thread(target=run, name="run_async")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclasses.dataclass(frozen=True)
class Served:
    """A running ``python -m widgets.server``: its address, its process and its folder (log, database)."""

    base: str
    process: subprocess.Popen[bytes]
    folder: Path

    @property
    def db(self) -> Path:
        return self.folder / "tables.sqlite3"

    def log(self) -> str:
        return (self.folder / "server.out").read_text(errors="replace")

    def ready(self, timeout: float = 90) -> str:
        """Wait until the server has said it is ready (its block of addresses, printed once its
        preheated tables are: widgets.server.app.announce_when_ready); what it has printed by then."""
        deadline = time.monotonic() + timeout
        while "Ready: " not in (said := self.log()) and "Not every table is ready yet" not in said:
            if time.monotonic() > deadline:
                pytest.fail(f"the server never said it was ready:\n{said[-3000:]}")
            time.sleep(0.1)
        return said

    def console_address(self) -> str:
        """The teacher's console's address with its token, from the file the server keeps it in for
        its owner (``$LANTERLOO_LOG_DIR``, the run's folder here); its output never holds the token."""
        port = urllib.parse.urlsplit(self.base).port
        return (self.folder / f"console-{port}.txt").read_text().strip()

    def console_token(self) -> str:
        return urllib.parse.parse_qs(urllib.parse.urlsplit(self.console_address()).query)["token"][0]

    def kernel_ids(self) -> set[str]:
        """The ids of the kernels the server runs: its child processes that are kernels, from ``/proc``
        (each kernel's command line names its connection file, ``kernel-<id>.json``)."""
        children: set[str] = set()
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                children.update((task / "children").read_text().split())
        found = set()
        for child in children:
            try:
                argv = Path(f"/proc/{child}/cmdline").read_bytes().decode(errors="replace").split("\0")
            except OSError:  # it has just exited
                continue
            if "widgets.kernel.table_kernel" in argv or "ipykernel_launcher" in argv:  # a table's kernel (lean), or any
                found.update(m[1] for arg in argv if (m := KERNEL_FILE.search(arg)))
        return found


def need_book() -> None:
    """Fail unless the book is built. While `make book` builds it (``make test`` runs the unit tests
    beside the build), wait for it to end, twenty minutes at most: the build keeps its shell's process
    id in ``_build/.book-building`` until it ends (a file left by a build that was killed is ignored)."""
    deadline = time.monotonic() + 1200
    while _book_being_built() and time.monotonic() < deadline:
        time.sleep(1)
    if not (BOOK / "index.html").exists():
        pytest.fail("the book is not built: run `jupyter-book build . -W -n --keep-going` first (make test does)")


def _book_being_built() -> bool:
    try:
        pid = int((ROOT / "_build" / ".book-building").read_text())
    except (OSError, ValueError):
        return False
    return Path(f"/proc/{pid}").exists()


@contextlib.contextmanager
def serve_server(
    folder: Path,
    *extra: str,
    tables: Path | None = None,
    max_files: int | None = None,
    base_url: str = "/",
    port: int | None = None,
) -> Iterator[Served]:
    """`python -m widgets.server`, as `make serve` runs it, with its log and its own database in
    ``folder`` (so no test writes games into the user's data folder), and any ``extra`` arguments;
    ``tables`` replaces the folder of table notebooks; ``max_files`` caps the files (connections
    among them) the server may open, soft and hard limit both; ``base_url`` is its ``--base-url``
    (the address yielded ends with it, less its last slash); ``port`` a port of the caller's choice.
    Yields the running server."""
    need_book()
    chosen = port is None
    for attempt in range(3):
        port = _free_port() if chosen else port
        assert port is not None
        args = ["--port", str(port), "--book", str(BOOK), "--db", str(folder / "tables.sqlite3"), *extra]
        if "--log-level" not in extra:  # the whole log in server.out, where Served.log() reads it
            args += ["--log-level", "info"]
        if tables is not None:
            args += ["--tables", str(tables)]
        if base_url != "/":
            args += ["--base-url", base_url]
        proc = _start_server(folder, args, max_files)
        base = f"http://127.0.0.1:{port}" + base_url.rstrip("/")
        if _answers(proc, base, port):
            break
        log = (folder / "server.out").read_text()
        # A port found free was taken before the server bound it (another test process's server, a
        # browser's connection): a server of its own choosing tries another.
        if not (chosen and attempt < 2 and "Address already in use" in log):
            pytest.fail("the server did not start:\n" + log[-3000:])
    try:
        yield Served(base, proc, folder)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def table_folder(folder: Path, *games: str) -> Path:
    """A folder of table notebooks holding only ``games`` (``serve_server(..., tables=...)``): the server
    preheats a kernel for each table notebook it has, one here for each game named and not six."""
    folder.mkdir(parents=True, exist_ok=True)
    for game in games:
        shutil.copy(ROOT / "book" / "tables" / f"{game}.ipynb", folder)
    return folder


def _start_server(folder: Path, args: list[str], max_files: int | None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "LANTERLOO_LOG_DIR": str(folder)}
    env.pop("LANTERLOO_DB", None)
    with open(folder / "server.out", "w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "widgets.server", *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=None if max_files is None else functools.partial(_limit_files, max_files),
        )


def _answers(proc: subprocess.Popen[bytes], base: str, port: int) -> bool:
    """Wait, a minute at most, until ``proc`` serves ``base``: it answers 200 and the socket listening
    on ``port`` is its own (not another process's that holds the port). False if it exited or never did."""
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as response:
                if response.status == 200 and _listens(proc.pid, port):
                    return True
        except OSError:
            pass
        time.sleep(0.2)
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    return False


def _listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on ``port`` (from ``/proc``)."""
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    listening.add(f"socket:[{fields[9]}]")
    owned = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                owned.add(os.readlink(fd))
    return bool(listening & owned)


def _limit_files(count: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


@contextlib.contextmanager
def serve_book(folder: Path) -> Iterator[str]:
    """The server as `make serve` runs it (see :func:`serve_server`); yields its address."""
    with serve_server(folder) as served:
        yield served.base


@pytest.fixture(scope="session")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The book and the live tables served together, as `make serve` does."""
    with serve_server(tmp_path_factory.mktemp("server-logs")) as served:
        yield served


INSTANT_PACE = "try { localStorage.setItem('lanterloo-pace', 'Instant'); } catch (e) {}"


@pytest.fixture
def context(context: Any) -> Any:
    """A test's page shows the computer players' moves at once: the pace a reader may choose, kept in
    the browser's storage (widgets.views.pacing). tests/browser/test_watching.py watches them at the default."""
    context.add_init_script(INSTANT_PACE)
    return context


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A PostgreSQL server for the session (:mod:`tests.helpers.postgres`); ``new_database()`` gives
    each test an empty database of its own."""
    from tests.helpers.postgres import running_postgres

    try:
        cluster = running_postgres()
        started = cluster.__enter__()
    except (RuntimeError, subprocess.CalledProcessError) as problem:
        detail = getattr(problem, "stderr", b"") or b""
        pytest.fail(f"PostgreSQL would not start: {problem} {detail.decode(errors='replace')[-2000:]}")
    try:
        yield started
    finally:
        cluster.__exit__(None, None, None)


@pytest.fixture(scope="session")
def site(served_site: Served) -> str:
    """The address of the book and the live tables served together (:func:`served_site`)."""
    return served_site.base


@pytest.fixture(scope="session")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The built book alone, as a static host serves it: Debian's nginx with deploy/static-nginx.conf
    (the compressed copies beside the big files sent as they are). No Lanterloo server, no kernels."""
    from tests.helpers.nginx import running_nginx, static_conf

    need_book()
    port = _free_port()
    with running_nginx(tmp_path_factory.mktemp("static-host"), static_conf(BOOK, port), port):
        yield f"http://127.0.0.1:{port}"


def pytest_itemcollected(item: pytest.Item) -> None:
    """Every test under tests/browser drives chromium, and every one under tests/journeys a browser of
    each engine: they are marked ``browser`` (``make unit`` leaves those out) by where they live, so a
    new file there cannot forget the mark."""
    if any(Path(str(item.fspath)).resolve().is_relative_to(folder) for folder in BROWSER_FOLDERS):
        item.add_marker(pytest.mark.browser)


BROWSER_FOLDERS = [Path(__file__).resolve().parent / name for name in ("browser", "journeys")]


@pytest.hookimpl(trylast=True)  # after pytest's own, which groups the items by a parameter of playwright's
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A ``law`` marker names catalogue laws (``@pytest.mark.law("L3-PLAY-03")``): an ID that is not in
    ``loo.core.laws.LAWS``, or a marker with no ID, stops the run before any test runs. Then the files are
    put in the order the test processes take them (:func:`_file_order`)."""
    from loo.core.laws import LAWS

    bad = []
    for item in items:
        for marker in item.iter_markers("law"):
            if not marker.args or marker.kwargs:
                bad.append(f"{item.nodeid}: @pytest.mark.law takes law IDs only, and at least one")
            bad += [
                f"{item.nodeid}: {law_id!r} is not a law of the catalogue"
                for law_id in marker.args
                if law_id not in LAWS
            ]
    if bad:
        raise pytest.UsageError("unknown law in a law marker:\n  " + "\n  ".join(bad))
    items.sort(key=_file_order([item.nodeid.split("::")[0] for item in items]))


def _file_order(files: list[str]) -> Callable[[pytest.Item], tuple[int, int]]:
    """The order the test processes take whole files in (``--dist loadfile --no-loadscope-reorder``;
    each file keeps its own order). Browser files: BROWSER_ORDER. Unit files: UNIT_SLOW_FIRST, then the
    first half of the others, then the files that serve the book (NEEDS_BOOK, longest first: under
    `make test` they run beside the book's build and wait for it, need_book, so they come once it is
    usually done), then the second half of the others (no unit file outside those lists takes more
    than about a dozen seconds), which keep both processes busy to the end."""
    first = BROWSER_ORDER + UNIT_SLOW_FIRST
    light = [f for f in dict.fromkeys(files) if f not in first and f not in NEEDS_BOOK]
    place = {name: (0, i) for i, name in enumerate(first)}
    place |= {name: (2, i) for i, name in enumerate(NEEDS_BOOK)}
    place |= {name: (1 if i < len(light) // 2 else 3, i) for i, name in enumerate(light)}
    return lambda item: place[item.nodeid.split("::")[0]]


# The unit files that take longest (LANTERLOO_TIMELINE, a fresh clone's `make test`), longest first.
UNIT_SLOW_FIRST = (
    "tests/engine/test_estimates.py",  # 80 s
    "tests/engine/nap/test_nap_bots.py",  # 52 s
    "tests/engine/dominoes/test_dominoes_bots.py",  # 37 s
    "tests/widgets/test_questions.py",  # 35 s
    "tests/widgets/test_shared_secrets.py",  # 34 s
    "tests/widgets/test_hints.py",  # 21 s
    "tests/engine/dominoes/test_dominoes_properties.py",  # 20 s
    "tests/engine/test_bots.py",  # 20 s
    "tests/engine/test_behaviour_pinned.py",  # 19 s
    "tests/engine/test_estimates_honest.py",  # 18 s
)
# The unit files that start a server over the built book (serve_server), longest first.
NEEDS_BOOK = (
    "tests/server/test_disk_faults.py",  # 49 s
    "tests/server/test_live_bounds.py",  # 40 s
    "tests/server/test_database_stalls.py",  # 33 s
    "tests/server/test_quiet_log.py",  # 3 s
    "tests/server/test_console.py",  # 3 s
    "tests/server/test_terminal.py",  # 10 s
)


# Every browser file, in the order the two test processes take them. Longest first made the run slower
# (903 s against about 820): the files that keep the processor busy (Python in the page, WebKit, axe)
# then ran side by side, where in this order, from the quickest run measured (LANTERLOO_TIMELINE, a
# fresh clone's `make test`), each mostly runs beside files that wait on servers and timers.
BROWSER_ORDER = (
    "tests/browser/test_inpage.py",  # 205 s (busy seconds, in the slowest run)
    "tests/browser/test_site.py",  # 123 s
    "tests/browser/test_play.py",  # 184 s
    "tests/browser/test_withstand.py",  # 74 s
    "tests/browser/test_table_fits.py",  # 141 s
    "tests/browser/test_tables.py",  # 58 s
    "tests/browser/test_accessibility.py",  # 225 s
    "tests/browser/test_safety.py",  # 32 s
    "tests/browser/test_kernels.py",  # 95 s
    "tests/journeys/test_chromium.py",  # 81 s
    "tests/journeys/test_firefox.py",  # 94 s
    "tests/browser/test_minute.py",  # 66 s
    "tests/journeys/test_webkit.py",  # 167 s
    "tests/browser/test_shared.py",  # 40 s
    "tests/browser/test_first_minute.py",  # 29 s
    "tests/browser/test_chips.py",  # 27 s
    "tests/browser/test_newcomer.py",  # 56 s
    "tests/browser/test_step_viewer.py",  # 7 s
    "tests/browser/test_deploy.py",  # 20 s
    "tests/browser/test_base_url.py",  # 20 s
    "tests/browser/test_class.py",  # 22 s
    "tests/browser/test_watching.py",  # 13 s
    "tests/browser/test_review_tab.py",  # new (issue 31)
    "tests/browser/test_table_stopped.py",  # 9 s
    "tests/browser/test_class_journey.py",  # new (issue 29)
)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With ``LANTERLOO_TIMELINE=<file>``, each test phase's process, start and end go to that file,
    one JSON line each, from every test process: where the time of a run goes (see BROWSER_ORDER)."""
    path = os.environ.get("LANTERLOO_TIMELINE")
    if path and "PYTEST_XDIST_WORKER" in os.environ:
        line = {"worker": os.environ["PYTEST_XDIST_WORKER"], "test": report.nodeid, "when": report.when,
                "start": report.start, "stop": report.stop, "outcome": report.outcome}  # fmt: skip
        with open(path, "a") as out:
            out.write(json.dumps(line) + "\n")


@contextlib.contextmanager
def websocket_server(answer: Callable[[Any], Coroutine[Any, Any, None]]) -> Iterator[int]:
    """A websocket server on loopback, in a thread of its own, calling ``answer(connection)`` for
    each connection; yields its port and stops when the block ends."""
    from websockets.asyncio.server import serve

    port = _free_port()
    ready = threading.Event()
    stop: list[asyncio.Future[None]] = []

    async def run() -> None:
        async with serve(answer, "127.0.0.1", port):
            stop.append(asyncio.get_running_loop().create_future())
            ready.set()
            await stop[0]

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(run(),), daemon=True)
    thread.start()
    assert ready.wait(10), "the websocket server did not start"
    try:
        yield port
    finally:
        loop.call_soon_threadsafe(stop[0].set_result, None)
        thread.join(10)
