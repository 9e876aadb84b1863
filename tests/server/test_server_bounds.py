"""The server's bounds on what one client may take or send (issue 18), without a server: the share
of tables per client address, the check of a binary frame before anything parses it, and the
rate limit on log lines per client."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_async
from widgets import server
from widgets.server import guards as server_guards
from widgets.server import logs as server_logs
from widgets.server import sockets as server_sockets
from widgets.server.guards import host_allowed
from widgets.server.logs import ClientLog
from widgets.server.seats import TableSeats, default_share
from widgets.server.sockets import frame_problem


def test_one_client_gets_its_share_of_places_and_no_more() -> None:
    kernels: list[str] = []
    seats = TableSeats(4, lambda: kernels, per_client=2)
    seats.hold("T1", "10.0.0.1")
    seat = seats.admit(None, "10.0.0.1")
    assert seat is not None and seats.taken_by("10.0.0.1") == 2
    assert not seats.has_room(None, "10.0.0.1") and seats.admit(None, "10.0.0.1") is None
    assert seats.has_room(None, "10.0.0.2"), "another address still gets a table"
    assert seats.has_room("T1", "10.0.0.1"), "the place held for its own table is still its"
    kernels.append("K1")
    seat.settle("K1")
    assert seats.taken_by("10.0.0.1") == 2, "a page's place moves to its kernel, still the client's"
    kernels.remove("K1")
    assert seats.taken_by("10.0.0.1") == 1 and seats.has_room(None, "10.0.0.1"), "a kernel gone frees its place"
    failed = seats.admit("T1", "10.0.0.1")
    assert failed is not None
    failed.release()
    assert seats.taken_by("10.0.0.1") == 0 and seats.starting == 0


def test_the_default_share_leaves_a_small_server_whole() -> None:
    assert [default_share(n) for n in (1, 2, 8, 10, 40, 100)] == [1, 2, 8, 8, 30, 75]


@pytest.mark.parametrize(
    ("frame", "v1"),
    [
        ((5 * 10**7).to_bytes(8, "little") + (16).to_bytes(8, "little"), True),  # the freezing frame
        ((3).to_bytes(8, "little") + b"\0" * 24, True),  # too few parts for a message
        ((6).to_bytes(8, "little") + b"".join((56 + i).to_bytes(8, "little") for i in (0, 1, 2, 3, 9, 4)), True),
        ((2**31 - 1).to_bytes(4, "big") + (8).to_bytes(4, "big"), False),  # legacy: 2 GB of offsets declared
        (b"\1\0", True),
        (b"x" * (2 << 20), True),
    ],
)
def test_a_frame_that_does_not_fit_its_declared_parts_is_refused(frame: bytes, v1: bool) -> None:
    assert frame_problem(frame, v1) is not None


def test_a_well_formed_frame_passes() -> None:
    from tests.kernel_client import encode_message

    header = {"msg_id": "1", "msg_type": "comm_msg", "session": "s", "username": "", "date": "", "version": "5.3"}
    for protocol in ("v1", "legacy"):
        wire = encode_message(protocol, "shell", header, {"comm_id": "c", "data": {}}, buffers=[b"abc"])
        assert frame_problem(wire, protocol == "v1") is None
    assert frame_problem('{"header": {}}', False) is None


def test_log_lines_per_client_are_rate_limited_with_one_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("test.clientlog")
    logger.addHandler(Collect())
    logger.propagate = False
    now = [1000.0]
    monkeypatch.setattr("time.monotonic", lambda: now[0])
    quiet = ClientLog(logger, per_minute=5)
    for n in range(100):
        quiet.warning("10.0.0.1", "refused message %d", n)
    quiet.warning("10.0.0.2", "another client")
    assert len(lines) == 5 + 1 + 1, lines  # five lines, the 'no more' line, the other client's
    now[0] += 61
    quiet.warning("10.0.0.1", "a minute later")
    assert lines[-2] == "95 more lines about client 10.0.0.1 left out of the log in the last minute"
    assert lines[-1] == "a minute later"


def test_pyzmqs_closed_stream_lines_are_written_once_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table closed with messages queued made pyzmq write a "closed stream" line; a client
    opening and leaving tables could so grow the log. Now one a minute, with the count left out."""
    now = [1000.0]
    monkeypatch.setattr("time.monotonic", lambda: now[0])
    once = server_logs.OncePerMinute("Got events for closed stream")

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("tornado.general", logging.WARNING, __file__, 1, msg, ("<stream>",), None)

    passed = [once.filter(record("Got events for closed stream %s")) for _ in range(50)]
    assert passed == [True] + [False] * 49
    assert once.filter(record("Something else %s")), "other lines are never held back"
    now[0] += 61
    later = record("Got events for closed stream %s")
    assert once.filter(later)
    assert later.getMessage() == (
        "Got events for closed stream <stream> (and 49 such lines left out in the minute before)"
    )
    assert not once.filter(record("Got events for closed stream %s"))


def test_a_zmq_callbacks_error_is_one_line_without_its_traceback() -> None:
    """Out of files, pyzmq wrote a traceback for every kernel message it could not pass on (seen in
    the out-of-files attack): now its kind and words on the one line, once a minute."""
    try:
        raise OSError(24, "Too many open files")
    except OSError:
        record = logging.LogRecord(
            "tornado.general", logging.ERROR, __file__, 1, server_logs.ZMQ_CALLBACK, (), sys.exc_info()
        )
    assert server_logs.NoTraceback(server_logs.ZMQ_CALLBACK).filter(record)
    line = logging.Formatter().format(record)
    assert "Traceback" not in line and "\n" not in line, line
    assert line == "Uncaught exception in ZMQStream callback (OSError: [Errno 24] Too many open files)", line
    other = logging.LogRecord("tornado.general", logging.ERROR, __file__, 1, "Something else", (), None)
    assert server_logs.NoTraceback(server_logs.ZMQ_CALLBACK).filter(other) and other.msg == "Something else"


def test_the_help_lists_the_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        server.main(["--help"])
    out = capsys.readouterr().out
    for option in ("--max-tables-per-client", "--request-timeout", "--allowed-host"):
        assert option in out


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--max-tables-per-client", "0"], "--max-tables-per-client must be 1 or more"),
        (["--request-timeout", "0"], "--request-timeout must be from 1 to 3600 seconds"),
    ],
)
def test_bounds_out_of_range_are_refused(args: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert server.main(args) == 2
    assert error in capsys.readouterr().err


def test_the_server_answers_to_its_own_names_and_addresses_only() -> None:
    names = frozenset({"localhost", "lanterloo.example"})
    for host in ("localhost", "localhost:8000", "LANTERLOO.example:80", "127.0.0.1:8000", "127.0.0.1", "[::1]:8000"):
        assert host_allowed(host, names), host
    for host in ("evil.example", "evil.example:8000", "8.8.8.8", "localhost.evil.example", "[2001:db8::1]:80"):
        assert not host_allowed(host, names), host


class _Starved(socket.socket):
    """A listening socket whose every accept fails as a process out of files does."""

    tries = 0

    def accept(self) -> tuple[socket.socket, Any]:
        _Starved.tries += 1
        raise OSError(errno.EMFILE, "Too many open files")


def _accept_tries(add_accept_handler: Callable[..., Callable[[], None]], seconds: float = 1.2) -> int:
    async def scenario() -> int:
        _Starved.tries = 0
        listener = _Starved()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        remove = add_accept_handler(listener, lambda connection, address: None)
        client = socket.create_connection(listener.getsockname())  # a connection waits: readable
        await asyncio.sleep(seconds)
        remove()
        client.close()
        listener.close()
        return _Starved.tries

    return run_async(scenario())


def test_running_out_of_files_pauses_accepting_instead_of_spinning(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tornado's accept loop raised EMFILE at every turn of the loop (a traceback each: 870 MB of log
    in one attack); the server's tries again every half second, and says so once a minute."""
    monkeypatch.setattr(server_guards, "accept_log", server_guards.ClientLog(logging.getLogger("lanterloo.server"), 1))
    with caplog.at_level(logging.WARNING, logger="lanterloo.server"):
        tries = _accept_tries(server_guards.quiet_accept_handler)
    assert 2 <= tries <= 4, tries
    assert sum("cannot accept connections" in r.getMessage() for r in caplog.records) == 1


def test_one_client_address_holds_a_bounded_number_of_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that opened 20,000 requests and never finished them grew the server by 90 MB while
    they waited to time out. Past its share of open connections an address's next one is closed as
    it is accepted; once one of its connections closes, it may open another."""
    monkeypatch.setattr(server_guards, "MAX_CONNECTIONS_PER_CLIENT", 3)
    monkeypatch.setattr(server_guards, "connections", server_guards.ConnectionCount())

    async def scenario() -> tuple[list[bytes], bytes]:
        accepted: list[socket.socket] = []
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.setblocking(False)
        remove = server_guards.quiet_accept_handler(listener, lambda connection, _address: accepted.append(connection))
        clients = [socket.create_connection(listener.getsockname()) for _ in range(4)]
        await asyncio.sleep(0.3)
        for client in clients:
            client.settimeout(0.5)
        heard = []
        for client in clients:  # the server's accepted sockets stay open; the fourth was closed
            try:
                heard.append(client.recv(1))
            except TimeoutError:
                heard.append(b"open")
        accepted.pop().close()  # one of the three closes: the address may open one more
        await asyncio.sleep(0.1)
        again = socket.create_connection(listener.getsockname())
        await asyncio.sleep(0.3)
        again.settimeout(0.5)
        try:
            later = again.recv(1)
        except TimeoutError:
            later = b"open"
        remove()
        for sock in [*clients, again, *accepted, listener]:
            sock.close()
        return heard, later

    heard, later = run_async(scenario())
    assert heard == [b"open", b"open", b"open", b""], heard
    assert later == b"open"


def test_kernel_websockets_are_bounded_per_table_per_client_and_in_all() -> None:
    """Every kernel websocket counts: a table's at most MAX_SOCKETS_PER_TABLE, a client address's at
    most its share, the server's at most its total; a socket closed gives its place back."""
    sockets = server_sockets.KernelSockets(total=6, per_client=5)
    taken = [sockets.take("K1", "10.0.0.1") for _ in range(server_sockets.MAX_SOCKETS_PER_TABLE)]
    assert taken == [None] * server_sockets.MAX_SOCKETS_PER_TABLE
    assert "the table has" in (sockets.take("K1", "10.0.0.2") or "")
    assert sockets.take("K2", "10.0.0.1") is None
    assert "the address has" in (sockets.take("K3", "10.0.0.1") or ""), "a client's share of sockets"
    assert sockets.take("K3", "10.0.0.2") is None
    assert "the server has 6" in (sockets.take("K4", "10.0.0.3") or ""), "the server's total"
    sockets.give_back("K1", "10.0.0.1")
    assert sockets.take("K4", "10.0.0.3") is None and sockets.open_now() == 6


def test_the_websocket_total_stays_below_zeromqs_sockets_and_the_open_files_limit() -> None:
    for zmq_sockets, files, kernels in ((1023, 20_000, 46), (1023, 20_000, 80), (1023, 2048, 46), (4096, 4096, 10)):
        total = server_sockets.socket_budget(zmq_sockets, files, kernels)
        per_socket, per_kernel = server_sockets.ZMQ_PER_SOCKET, server_sockets.ZMQ_PER_KERNEL
        assert total * per_socket + kernels * per_kernel <= zmq_sockets or total == 8
        assert total * server_sockets.FILES_PER_SOCKET < files
    assert server_sockets.socket_budget(1023, 20_000, 46) < 260, "260 sockets to one kernel took the context"


def test_a_page_served_whose_websocket_never_opens_is_due_after_the_idle_limit() -> None:
    now = [0.0]
    gone = server_sockets.Departures(grace=75, clock=lambda: now[0], idle=60)
    gone.served("never")
    gone.served("opens")
    gone.opened("opens")
    now[0] = 59
    assert gone.due() == []
    now[0] = 61
    assert gone.due() == ["never"], "redraws are not a page: only a websocket keeps it"
    assert gone.due() == [] and gone.connected("opens")


def test_the_log_says_whether_a_table_freed_had_a_page_that_went_or_one_that_never_connected(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A page served whose websocket never opened used to be logged as a page that "went 75 s ago
    and did not come back" (--reconnect-grace): it never came at all, and had 10 s (--max-idle)."""
    from types import SimpleNamespace

    from widgets.server.app import LanterlooServer

    now = [0.0]
    gone = server_sockets.Departures(grace=75, clock=lambda: now[0], idle=10)
    monkeypatch.setattr("widgets.server.app.departures", gone)
    gone.served("never")
    gone.served("went")
    gone.opened("went")
    gone.closed("went")
    shut: list[str] = []
    manager = SimpleNamespace(list_kernel_ids=lambda: ["never", "went"], shutdown_kernel=shut.append)
    this = SimpleNamespace(kernel_manager=manager, log=logging.getLogger("lanterloo.test"), seats=None,
                           reconnect_grace=75.0)  # fmt: skip
    with caplog.at_level(logging.INFO, logger="lanterloo.test"):
        now[0] = 11
        run_async(LanterlooServer._release_departed(this))  # type: ignore[arg-type]
        assert shut == ["never"]
        now[0] = 76
        run_async(LanterlooServer._release_departed(this))  # type: ignore[arg-type]
    assert shut == ["never", "went"]
    assert [r.getMessage() for r in caplog.records] == [
        "Table kernel never: its page was served 10 s ago and never connected; shutting it down",
        "Table kernel went: its page went 75 s ago and did not come back; shutting it down",
    ]


def test_the_server_marks_a_seat_here_only_while_its_pages_websocket_is_open(tmp_path: Path) -> None:
    from widgets.server.presence import SeatPresence
    from widgets.store.seating import PERSON, SeatBook
    from widgets.store.sqlite import TableStore

    db = tmp_path / "t.sqlite3"
    with TableStore(db) as store:
        book = SeatBook(store)
        table = store.new_table("nap")
        tokens = book.open_seats(table, [PERSON] * 4)
        assert book.claim(table, tokens[0], "a", now=100.0) and book.claim(table, tokens[1], "b", now=100.0)
    presence = SeatPresence()
    presence.note("K0", table, tokens[0], "a")
    presence.note("K1", table, tokens[1], "b")
    assert presence.beat(db, ["K0", "K1"], lambda kernel_id: kernel_id == "K0") == 1
    with TableStore(db) as store:
        seen = [row.seen for row in SeatBook(store).seats(table)]
    assert seen[0] is not None and seen[0] > 100.0 and seen[1] == 100.0, seen
    assert presence.beat(db, ["K1"], lambda _kernel_id: True) == 1 and list(presence.pages) == ["K1"]


def test_tables_never_played_are_forgotten_every_hour_not_only_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from widgets.server import presence
    from widgets.server.seats import table_store

    started: list[tuple[Callable[[], Coroutine[Any, Any, None]], float]] = []

    class Periodic:
        def __init__(self, callback: Callable[[], Coroutine[Any, Any, None]], every_ms: float) -> None:
            started.append((callback, every_ms))

        def start(self) -> None:
            pass

    monkeypatch.setattr("tornado.ioloop.PeriodicCallback", Periodic)
    db = tmp_path / "t.sqlite3"
    old = table_store(db).new_table("nap")
    presence.start_forgetting_unused(db)
    ((forget, every_ms),) = started
    assert every_ms == 3600 * 1000
    real = time.time
    monkeypatch.setattr("time.time", lambda: real() + 2 * 86_400)  # two days on: the table is a day old
    run_async(forget())  # on one of the server's database threads
    assert table_store(db).rows("SELECT id FROM tables WHERE id = ?", (old,)) == []
