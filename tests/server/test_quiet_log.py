"""A quiet log under attack (issue 28, point 4): a client's bad requests, malformed or not, cost at most
a short line each, within that client's budget, and never a traceback, in the server's log or in a
table kernel's; a kernel's log file stops at its size cap with a line saying so."""

from __future__ import annotations

import logging
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import tornado.web

from tests.conftest import Served, run_async, serve_server, table_folder
from tests.kernel_client import TableClient
from tests.server.test_server import fetch_at_once
from widgets.server import errors as server_errors
from widgets.server.errors import quiet_routes
from widgets.server.logs import LOG_LINES_PER_CLIENT_MINUTE, ClientLog
from widgets.views.safety import REFUSED_LINES_PER_MINUTE, CappedFileHandler, Refusals

# What made jupyter_server's error page fail with some 4.5 KB of traceback each (issue 28).
FLOODS = [
    "/api/kernels/00000000-0000-0000-0000-000000000000/channels",
    "/voila/render/%c0%ae%c0%ae/etc/passwd",
    "/voila/labextensions/%2e%2e/%2e%2e/etc/passwd",
    "/voila/api/themes/%2e%2e/%2e%2e/etc/passwd",
    "/api/kernels",
    "/voila/api/shutdown/nothing",
]
ROUNDS = 40  # each address asked this often: 240 requests, four times the client's budget of lines


TABLE = "three-card-loo"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The module's server, with the one table notebook its tests play (one kernel preheated, not six)."""
    folder = tmp_path_factory.mktemp("quiet-log")
    with serve_server(folder, tables=table_folder(folder / "tables", TABLE)) as served:
        yield served


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        body = error.read()
        assert b"Traceback" not in body and len(body) < 200, body[:300]
        return int(error.code)


def _malformed(base: str) -> None:
    """A request line no server could read, on its own connection."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=5) as sock:
        sock.sendall(b"GET /\x01 \x02 HTTP/9\r\n\r\n")
        try:
            sock.recv(1024)
        except OSError:
            pass


def test_bad_requests_write_no_traceback_and_at_most_the_clients_budget_of_lines(served: Served) -> None:
    # The pool's kernel warms first, and the server then says it is ready in a block of lines: none of
    # those are the client's (a block that came during the flood once counted against its budget).
    served.ready(timeout=60)
    before = len(served.log())
    while True:  # the block's last lines written
        time.sleep(0.5)
        if len(served.log()) == before:
            break
        before = len(served.log())
    began = time.monotonic()
    codes = set()
    for _ in range(ROUNDS):
        for path in FLOODS:
            codes.add(_get(served.base + path))
        _malformed(served.base)
    assert time.monotonic() - began < 60, "the budget below is a minute's"
    assert codes <= {400, 404, 405}, codes
    time.sleep(0.5)
    grown = served.log()[before:]
    at = max(grown.find("Traceback"), grown.find("Uncaught exception"))
    assert at < 0, grown[max(0, at - 1500) : at + 3000]
    lines = [line for line in grown.splitlines() if line.strip()]
    assert len(lines) <= LOG_LINES_PER_CLIENT_MINUTE + 2, "\n".join(lines[-80:])
    assert all(len(line) < 400 for line in lines), max(lines, key=len)


def test_a_pages_malformed_widget_updates_leave_no_traceback_in_its_kernels_log(served: Served) -> None:
    """A page that sent malformed widget updates over and over wrote its kernel's log at 1.5 MB a second,
    a traceback each; now a short line each, :data:`REFUSED_LINES_PER_MINUTE` a minute at most (and the
    file stops at its cap, below)."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, TABLE, timeout=120)
        try:
            button = client.button("loo-next")
            for n in range(60):
                bad = [{"layout": "IPY_MODEL_none"}, {"description": n}, {"disabled": "no"}][n % 3]
                await client.comm_msg(button, {"method": "update", "state": bad, "buffer_paths": []})
            await client.settled(await client.comm_msg(button, {"method": "update", "state": {}}), timeout=30)
        finally:
            await client.close(shutdown=True)

    run_async(scenario())
    logs = list(served.folder.glob("kernel-*.log"))
    text = "".join(path.read_text(errors="replace") for path in logs)
    assert "a page's widget message was refused: TraitError" in text, text[-2000:]
    assert text.count("a page's widget message was refused") == REFUSED_LINES_PER_MINUTE < 60
    assert "next refused widget messages this minute are counted, not written" in text
    assert "Traceback" not in text, text[:3000]
    assert "Traceback" not in served.log()


def test_a_kernels_log_file_stops_at_its_cap_with_a_line_saying_so(tmp_path: Path) -> None:
    path = tmp_path / "kernel-1.log"
    handler = CappedFileHandler(path, max_bytes=4096)
    logger = logging.getLogger("test.capped")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for n in range(1000):
            logger.warning("line %d %s", n, "x" * 60)
    finally:
        logger.removeHandler(handler)
        handler.close()
    text = path.read_text()
    assert len(text.encode()) <= 4096 + 200
    assert text.rstrip().endswith("this kernel's log stopped at 4 KB: its further lines are left out")
    assert text.count("stopped at") == 1
    again = CappedFileHandler(path, max_bytes=4096)  # a kernel's log file is its own, but never grows past it
    assert again.stopped
    again.close()


def test_a_pages_refusals_past_its_budget_are_counted_and_said_after_the_minute(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    refusals = Refusals(per_minute=3)
    with caplog.at_level(logging.INFO, logger="lanterloo"):
        for n in range(10):
            refusals.say(f"TraitError: {n}")
        clock[0] += 61
        refusals.say("TraitError: later")
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("lanterloo")]
    assert lines == [
        "a page's widget message was refused: TraitError: 0",
        "a page's widget message was refused: TraitError: 1",
        "a page's widget message was refused: TraitError: 2",
        "the page's next refused widget messages this minute are counted, not written",
        "7 more of the page's widget messages were refused in a minute (not written)",
        "a page's widget message was refused: TraitError: later",
    ]


class _Failing(tornado.web.RequestHandler):
    def get(self) -> None:
        raise RuntimeError("a bug " + "y" * 2000)


def test_an_unexpected_error_is_a_plain_page_and_one_line_its_traceback_once_a_minute(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_errors, "traceback_log", ClientLog(logging.getLogger("lanterloo.server"), 1))
    from widgets.server import logs as server_logs

    monkeypatch.setattr(server_logs, "quiet_log", ClientLog(logging.getLogger("lanterloo.server")))
    application = tornado.web.Application(quiet_routes([(r"/fail", _Failing)]), log_function=server_logs.log_request)
    with caplog.at_level(logging.INFO):
        answers = fetch_at_once(application, ["/fail"] * 5)
    assert [a.code for a in answers] == [500] * 5
    assert all(a.body == b"500 Internal Server Error\n" for a in answers)
    access = [r for r in caplog.records if r.name == "tornado.access"]
    assert len(access) == 5 and all("RuntimeError: a bug" in r.getMessage() for r in access)
    assert all(len(r.getMessage()) < 500 for r in access)
    assert sum(r.exc_info is not None for r in caplog.records) == 1, "the traceback once, not per request"


def test_a_clients_lines_past_its_budget_are_counted_not_written(monkeypatch: pytest.MonkeyPatch) -> None:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("test.budget")
    logger.addHandler(Collect())
    logger.propagate = False
    quiet = ClientLog(logger, per_minute=3)
    for n in range(10):
        quiet.error("10.0.0.9", "failed %d", n)
    assert lines == ["failed 0", "failed 1", "failed 2", "client 10.0.0.9: no more lines about it this minute"]


def test_the_servers_own_error_pages_are_kept_and_others_made_plain() -> None:
    from widgets.server.console import ConsoleHandler
    from widgets.server.errors import QuietErrors, QuietLog, quiet_handler
    from widgets.server.pages import BookHandler

    console = quiet_handler(ConsoleHandler)
    assert issubclass(console, QuietLog) and not issubclass(console, QuietErrors)
    assert console.write_error is ConsoleHandler.write_error, "the console's 403 page says what to do"
    assert issubclass(quiet_handler(BookHandler), QuietErrors)
    assert quiet_handler(BookHandler) is quiet_handler(BookHandler)


SEAT_TOKEN = "Zs0m3-seat-token-of-a-student"


def test_a_refused_seat_links_line_hides_the_seats_token(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's link (``seat=<token>``) opens that seat's cards for whoever holds it: a refused one
    (the tables full, no such game) is logged with its address, the seat's token hidden, as the
    console's is. Before, the access line named the whole link."""
    from widgets.server import logs as server_logs
    from widgets.server.pages import DEFAULT_TABLES, TableLinkHandler
    from widgets.server.seats import TableSeats

    monkeypatch.setattr(server_logs, "quiet_log", ClientLog(logging.getLogger("lanterloo.server")))
    full = TableSeats(0, lambda: [])
    routes = [(r"/tables/([a-z0-9-]+)/?", TableLinkHandler, {"tables": DEFAULT_TABLES, "seats": full})]
    application = tornado.web.Application(quiet_routes(routes), log_function=server_logs.log_request)
    table = "A" * 22
    links = [f"/tables/nap?table={table}&seat={SEAT_TOKEN}", f"/tables/poker?table={table}&%73eat={SEAT_TOKEN}"]
    with caplog.at_level(logging.INFO):
        answers = fetch_at_once(application, links)
    assert sorted(a.code for a in answers) == [404, 503]
    lines = [r.getMessage() for r in caplog.records if r.name == "tornado.access"]
    assert len(lines) == 2 and not any(SEAT_TOKEN in line for line in lines), lines
    assert any(f"/tables/nap?table={table}&seat=[hidden]" in line for line in lines), lines
    assert any("&%73eat=[hidden]" in line for line in lines), lines
