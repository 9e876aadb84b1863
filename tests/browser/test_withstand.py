"""The server withstands its own readers (issue 18): each test attacks ``python -m widgets.server``
from one client on loopback, over the real websocket or plain HTTP, for a bounded count and time,
as a page (or a script posing as one) could, and checks that the server refuses the attack where
the input enters and that another reader's table still works.

No browser is driven (like tests/browser/test_safety.py, these live beside the other tests that
start the real server). One server serves the module, with one table notebook.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import http.client
import os
import shutil
import socket
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
from tornado.httpclient import HTTPClientError
from tornado.websocket import WebSocketClientConnection, websocket_connect

from tests.conftest import ROOT, Served, run_async, serve_server
from tests.kernel_client import TableClient, TableClientError, encode_message, fetch, masked_frame

T = TypeVar("T")
OPEN_WAIT = 90.0  # a table's kernel may still be starting on a busy machine
WAIT = 30.0
TABLE = "three-card-loo"
REQUEST_TIMEOUT = 5  # the module's server waits this long for a request (--request-timeout)
PER_CLIENT = 2  # and gives one client address this many tables (--max-tables-per-client)


def run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return run_async(scenario())


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("withstand")
    tables = folder / "tables"
    tables.mkdir()
    shutil.copy(ROOT / "book" / "tables" / f"{TABLE}.ipynb", tables)
    with serve_server(
        folder, "--request-timeout", str(REQUEST_TIMEOUT), "--max-tables-per-client", str(PER_CLIENT), tables=tables
    ) as running:
        yield running


def port_of(served: Served) -> int:
    return int(urlsplit(served.base).port or 0)


def established(port: int) -> int:
    """TCP connections established to ``port`` on this machine (from /proc/net/tcp)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                count += 1
    return count


async def poll(predicate: Callable[[], object], timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)
    return True


async def dealt(client: TableClient) -> None:
    """Wait until the table is dealt (its board is drawn), not left at "Dealing the cards..."."""
    await client.wait_for(lambda: client.board() or None, WAIT, "the table to be dealt")


def ws_base(served: Served) -> str:
    return "ws" + served.base.removeprefix("http")


# ----- 1. the request-details endpoint is the kernel's alone -----------------------------------------


def test_a_page_cannot_make_a_table_hang_at_dealing(served: Served) -> None:
    """Two sockets to ``/voila/query/<id>``, the second closed first, made Voila's handler drop the
    waiting pool kernel's socket: the next table hung at "Dealing the cards..." for good. Now no
    client but the kernel itself gets a socket there (a 403), with a made-up id or a live kernel's,
    and the next table deals."""

    async def scenario() -> None:
        port = port_of(served)
        # The pool kernel has preheated and waits for a request: its socket is the only TCP
        # connection to the server.
        assert await poll(lambda: served.kernel_ids() and established(port) >= 1, OPEN_WAIT), "no kernel waiting"
        refused = opened = 0
        for kernel_id in [str(uuid.uuid4()), *served.kernel_ids()]:
            sockets: list[WebSocketClientConnection] = []
            for _ in range(2):
                try:
                    sockets.append(await websocket_connect(f"{ws_base(served)}/voila/query/{kernel_id}"))
                    opened += 1
                except HTTPClientError as error:
                    assert error.code == 403
                    refused += 1
            for ws in reversed(sockets):
                ws.close()
                await asyncio.sleep(0.2)
        client = await TableClient.open(served.base, TABLE, timeout=OPEN_WAIT)
        try:
            await dealt(client)
        finally:
            await client.close(shutdown=True)
        assert opened == 0 and refused > 0, f"{opened} request-details sockets opened by a client"

    run(scenario)


def test_the_kernel_websocket_is_compressed(served: Served) -> None:
    """A move's reel of frames (widgets.views.pacing) is tens of kilobytes of drawing: the server takes the
    offer to deflate the kernel websocket that every browser makes, and the table still plays."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, TABLE, timeout=OPEN_WAIT)
        try:
            assert client.compressed, "the kernel websocket is not compressed"
            await dealt(client)
            board = client.board()
            await client.settled(await client.click(client.choices()[0]))
            assert client.board() != board  # a move went through, its answer inflated
        finally:
            await client.close(shutdown=True)

    run(scenario)


# ----- 2. a binary frame is checked before anything parses it ----------------------------------------


async def kernel_socket(served: Served, client: TableClient, v1: bool = True) -> WebSocketClientConnection:
    """A second websocket of one's own to ``client``'s kernel, as a script posing as a page opens it."""
    return await websocket_connect(
        f"{ws_base(served)}/api/kernels/{client.kernel_id}/channels?session_id={uuid.uuid4().hex}",
        subprotocols=["v1.kernel.websocket.jupyter.org"] if v1 else None,
    )


async def answer_time(served: Served) -> float:
    """Seconds the server takes to answer a small page."""
    began = time.monotonic()
    response = await fetch(f"{served.base}/tables/no-math.js", timeout=60)
    assert response.code == 200
    return time.monotonic() - began


@pytest.mark.parametrize("v1", [True, False], ids=["v1", "legacy"])
def test_one_small_binary_frame_cannot_freeze_the_server(served: Served, v1: bool) -> None:
    """A 16-byte frame declaring 10^7 parts made jupyter_server read 10^7 offsets (5x10^7 froze the
    server for good); the legacy form's 4-byte count did the same. Now the frame is refused, its
    socket closed, and the server answers another reader at once."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, TABLE, timeout=OPEN_WAIT)
        try:
            ws = await kernel_socket(served, client, v1)
            frame = (
                (10**7).to_bytes(8, "little") + (16).to_bytes(8, "little")
                if v1
                else ((2**24).to_bytes(4, "big") + (8).to_bytes(4, "big") + b"x" * 8)
            )
            await ws.write_message(frame, binary=True)
            seconds = await answer_time(served)
            closed = await asyncio.wait_for(ws.read_message(), WAIT)
            while closed is not None:  # kernel status messages may come first
                closed = await asyncio.wait_for(ws.read_message(), WAIT)
            assert seconds < 1.0, f"the server took {seconds:.1f} s to answer after the frame"
            # The reader's own socket still plays.
            alive = await client.request("kernel_info_request", {})
            assert alive.content.get("status") == "ok"
        finally:
            await client.close(shutdown=True)

    run(scenario)


# ----- 3. a page opens no comm but the widget manager's ------------------------------------------------


def test_a_page_cannot_open_widget_comms_in_its_kernel(served: Served) -> None:
    """Widget comms opened from a page (20 HTML models, half of them 200 KB) never reach the kernel:
    it lists none of them, and the page's own table still plays."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, TABLE, timeout=OPEN_WAIT)
        try:
            opened = []
            for n in range(20):
                comm_id = uuid.uuid4().hex
                opened.append(comm_id)
                state = {
                    "_model_name": "HTMLModel",
                    "_model_module": "@jupyter-widgets/controls",
                    "_model_module_version": "2.0.0",
                    "_view_name": "HTMLView",
                    "_view_module": "@jupyter-widgets/controls",
                    "_view_module_version": "2.0.0",
                    "value": "x" * (200_000 if n % 2 else 100),
                }
                await client.send(
                    "comm_open",
                    {"comm_id": comm_id, "target_name": "jupyter.widget",
                     "data": {"state": state, "buffer_paths": []}},
                    metadata={"version": "2.1.0"},
                )  # fmt: skip
            reply = await client.request("comm_info_request", {"target_name": "jupyter.widget"})
            listed = set(reply.content.get("comms", {}))
            assert listed, "the kernel lists the table's own widgets"
            assert not listed & set(opened), f"{len(listed & set(opened))} comms opened by the page reached the kernel"
            await client.settled(await client.click(client.button("loo-next") if not client.choices()
                                                     else client.choices()[0]))  # fmt: skip
        finally:
            await client.close(shutdown=True)

    run(scenario)


# ----- 4. a client that reads nothing cannot grow the server -------------------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def raw_kernel_socket(served: Served, kernel_id: str) -> socket.socket:
    """A v1 kernel websocket opened by hand, with a small receive buffer, that this test never reads."""
    sock = socket.create_connection(("127.0.0.1", port_of(served)), timeout=WAIT)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port_of(served)}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {served.base}\r\n"
            "Sec-WebSocket-Protocol: v1.kernel.websocket.jupyter.org\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # byte by byte: nothing past the handshake is read
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    return sock


def v1_message(msg_type: str, content: dict[str, Any], session: str, version: str = "1.0.0") -> bytes:
    header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "", "session": session,
              "date": "2026-01-01T00:00:00+00:00", "version": "5.3"}  # fmt: skip
    wire = encode_message("v1", "shell", header, content, {"version": version})
    assert isinstance(wire, bytes)
    return wire


def test_a_client_that_reads_nothing_is_dropped_not_buffered(served: Served) -> None:
    """A client asks for every widget's state 50 times a second for up to 20 s and reads nothing: the
    server drops it once 8 MB wait for it, grows by far less than it asked for, and logs no traceback."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, TABLE, timeout=OPEN_WAIT)
        try:
            sock = raw_kernel_socket(served, client.kernel_id)
            session = uuid.uuid4().hex
            comm = uuid.uuid4().hex
            offset = len(served.log())
            before = rss_mb(served.process.pid)
            sock.sendall(masked_frame(v1_message(
                "comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}, session
            )))  # fmt: skip
            states = {"comm_id": comm, "data": {"method": "request_states"}}
            dropped = False
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                try:
                    sock.sendall(masked_frame(v1_message("comm_msg", states, session)))
                except OSError:  # the server has dropped us
                    dropped = True
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(3)
            grown = rss_mb(served.process.pid) - before
            sock.settimeout(WAIT)
            if not dropped:  # read until the server's end: a dropped socket ends soon after what was sent
                deadline = time.monotonic() + 10
                with contextlib.suppress(OSError):
                    while time.monotonic() < deadline and sock.recv(1 << 16):
                        pass
                    dropped = time.monotonic() < deadline
            sock.close()
            log = served.log()[offset:]
            assert dropped, f"the server kept a socket that read nothing (it grew by {grown:.0f} MB)"
            assert grown < 60, f"the server grew by {grown:.0f} MB for a client that read nothing"
            assert "Traceback" not in log, log[-3000:]
            alive = await client.request("kernel_info_request", {})
            assert alive.content.get("status") == "ok"
        finally:
            await client.close(shutdown=True)

    run(scenario)


# ----- 5. a partial request is not held ----------------------------------------------------------------


def test_partial_requests_are_closed_after_the_request_timeout(served: Served) -> None:
    """40 requests whose headers never end, and one whose body never comes, are closed by the server
    once --request-timeout has passed (tornado's default held them for an hour)."""
    port = port_of(served)
    partial: list[socket.socket] = []
    try:
        for n in range(40):
            sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            sock.sendall(f"GET /?n={n} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".encode())
            partial.append(sock)
        sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        sock.sendall(b"POST /voila/api/shutdown/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nabc")
        partial.append(sock)
        deadline = time.monotonic() + REQUEST_TIMEOUT + 4
        still_open = 0
        for sock in partial:  # each closed by the deadline (read to its end), or still open at it
            sock.settimeout(max(0.5, deadline - time.monotonic()))
            try:
                while sock.recv(1 << 16):  # an answer (a 400, say) may come before the end
                    pass
            except TimeoutError:
                still_open += 1
            except OSError:  # reset by the server: closed
                pass
        assert still_open == 0, f"{still_open} of {len(partial)} partial requests still held"
    finally:
        for sock in partial:
            sock.close()


# ----- 7. the log cannot be inflated from outside --------------------------------------------------------


def test_refused_messages_cannot_inflate_the_log(served: Served) -> None:
    """700 refused messages (code to run, a made-up channel, and one message sent again and again)
    from one client used to write a warning each, and the repeats a kernel traceback each: now the
    log grows by a few dozen lines at most, and the reader's table still plays."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, TABLE, timeout=OPEN_WAIT)
        try:
            ws = await kernel_socket(served, client)
            session = uuid.uuid4().hex
            offset = len(served.log())
            again = v1_message("kernel_info_request", {}, session)
            for n in range(700):
                if n % 3 == 0:
                    wire = v1_message("execute_request", {"code": "1", "silent": False}, session)
                elif n % 3 == 1:
                    wire = again
                else:
                    wire = encode_message("v1", f"chan{n}", {"msg_id": uuid.uuid4().hex, "msg_type":
                                          "kernel_info_request", "session": session}, {})  # fmt: skip
                await ws.write_message(wire, binary=True)
            await asyncio.sleep(3)
            grown = served.log()[offset:]
            ws.close()
            assert len(grown) < 16_000, f"the log grew by {len(grown)} bytes: {grown[-2000:]}"
            assert "Traceback" not in grown
            assert "no more lines about it this minute" in grown
            alive = await client.request("kernel_info_request", {})
            assert alive.content.get("status") == "ok"
        finally:
            await client.close(shutdown=True)

    run(scenario)


def test_failed_requests_cannot_inflate_the_access_log(served: Served) -> None:
    """Every failed request was a line of tornado's access log, with its whole address: 2,600 requests
    with a 70 KB address, a NUL and another Host in 8 s grew the log by 179 MB (bench/attack.py).
    Now the access log takes its lines from the client's budget, each address cut to 300 characters."""
    offset = len(served.log())
    for n in range(100):
        raw_request(served, f"/no-such-page-{n}")
    for _ in range(30):
        raw_request(served, "/?q=" + "x" * 70_000)
    grown = served.log()[offset:]
    assert len(grown) < 40_000, f"the log grew by {len(grown)} bytes"
    assert grown.count("\n") < 80, f"{grown.count(chr(10))} lines"


# ----- 8. smaller items: a NUL in a path, a long address, another site's Host -----------------------------


def raw_request(served: Served, path: str, host: str | None = None, extra: str = "") -> tuple[int, bytes]:
    """One request as written (no client library that would refuse or quote it): its status and body."""
    with socket.create_connection(("127.0.0.1", port_of(served)), timeout=WAIT) as sock:
        host = host or f"127.0.0.1:{port_of(served)}"
        head = f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n"
        sock.sendall(head.encode("latin-1"))
        answer = b""
        while chunk := sock.recv(1 << 16):
            answer += chunk
    assert answer, f"no answer to GET {path[:80]!r}"
    status = int(answer.split(b" ", 2)[1])
    return status, answer.split(b"\r\n\r\n", 1)[-1]


def test_a_nul_a_long_address_and_another_sites_host_get_plain_answers(served: Served) -> None:
    """A NUL byte in a book path gave a 500; a 70 KB query string had the connection closed with no
    answer; a page of another site whose name points at this machine (DNS rebinding) was served.
    Now: 404, 414 with a plain page, and 400 for pages and websockets alike; the server's own
    names (localhost, its host name, its IP addresses) still get the book."""
    assert raw_request(served, "/intro%00.html")[0] == 404
    assert raw_request(served, "/%00")[0] == 404
    status, body = raw_request(served, "/?q=" + "x" * 70_000)
    assert status == 414 and b"too long" in body
    assert raw_request(served, "/", host="evil.example")[0] == 400
    upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    upgrade += "Sec-WebSocket-Version: 13\r\n"
    assert raw_request(served, f"/voila/query/{uuid.uuid4()}", host="evil.example:80", extra=upgrade)[0] == 400
    for own in (f"localhost:{port_of(served)}", f"{socket.gethostname()}:{port_of(served)}", "127.0.0.1", "[::1]"):
        assert raw_request(served, "/", host=own)[0] == 200, own


# ----- 6. one client cannot take every table (last: its new tables stay held for 20 s) -------------


def new_table(served: Served, source: str) -> http.client.HTTPResponse:
    """``GET /tables/<table>`` from the loopback address ``source``, the redirect not followed."""
    connection = http.client.HTTPConnection("127.0.0.1", port_of(served), timeout=WAIT, source_address=(source, 0))
    connection.request("GET", f"/tables/{TABLE}")
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


def test_one_client_address_cannot_hold_every_table(served: Served) -> None:
    """Redirects to new tables never followed held a place each for 20 s: eight of them left no
    table for anyone. One address now gets --max-tables-per-client of them; past that it gets the
    tables-full page that says why, and another address still gets a table."""
    answers = [new_table(served, "127.0.0.1") for _ in range(PER_CLIENT + 2)]
    assert [a.status for a in answers] == [302] * PER_CLIENT + [503] * 2
    assert b"network address" in answers[-1].body  # type: ignore[attr-defined]
    other = new_table(served, "127.0.0.2")
    assert other.status == 302, "another address gets a table"


# ----- out of files ----------------------------------------------------------------------------------

FILE_LIMIT = 160  # files the out-of-files server may open: about 20 at rest, a table's page and kernel a few more


@pytest.fixture
def starved(tmp_path: Path) -> Iterator[Served]:
    """A server of its own that may open only ``FILE_LIMIT`` files (its connections among them)."""
    tables = tmp_path / "tables"
    tables.mkdir()
    shutil.copy(ROOT / "book" / "tables" / f"{TABLE}.ipynb", tables)
    with serve_server(tmp_path, tables=tables, max_files=FILE_LIMIT) as running:
        yield running


def test_a_server_out_of_files_pauses_then_serves_again_with_a_line_not_a_flood(starved: Served) -> None:
    """Connections from one client until the server has no file left: tornado's accept loop raised
    EMFILE at every turn (870 MB of tracebacks in one attack, and new readers timed out). Now the
    server pauses accepting, writes a line a minute, keeps a reader already at a table playing,
    and takes new readers again as soon as the connections are gone."""

    async def scenario() -> tuple[str, int]:
        reader = await TableClient.open(starved.base, TABLE, timeout=OPEN_WAIT)
        offset = len(starved.log())
        held: list[socket.socket] = []
        for _ in range(FILE_LIMIT + 60):  # more than the server can hold: it runs out while we connect
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind(("127.0.0.2", 0))
            with contextlib.suppress(BlockingIOError, OSError):
                sock.connect(("127.0.0.1", port_of(starved)))
            held.append(sock)
        await asyncio.sleep(3)  # several of the server's pauses
        assert starved.process.poll() is None, "the server died"
        served_now = len(os.listdir(f"/proc/{starved.process.pid}/fd"))
        assert served_now >= FILE_LIMIT - 5, f"the attack never ran the server out of files ({served_now} open)"
        board = reader.board()
        await reader.settled(await reader.click(reader.choices()[0] if reader.choices() else reader.button("loo-next")))
        assert reader.board() != board, "a reader already at a table plays on while the server is out of files"
        for sock in held:
            sock.close()
        began = time.monotonic()
        # "Gone" as the server sees it: on a busy machine it takes a moment to read a thousand closes,
        # and a kernel started before then would find no file to open either.
        while len(os.listdir(f"/proc/{starved.process.pid}/fd")) > FILE_LIMIT // 2 and time.monotonic() < began + 20:
            await asyncio.sleep(0.1)
        # A new reader who finds the server not yet ready reloads; within the half-minute the server
        # must give them a dealt table (each refusal kept, with the log, for the failure's message).
        refused: list[str] = []
        while True:
            try:
                again = await TableClient.open(starved.base, TABLE, timeout=OPEN_WAIT)
                break
            except TableClientError as problem:
                refused.append(str(problem)[:120])
                if time.monotonic() > began + 30:
                    log = starved.log()[offset:][-3000:]
                    raise AssertionError(f"no table for a new reader: {refused}; log: {log}") from problem
                await asyncio.sleep(1)
        took = time.monotonic() - began
        assert again.board(), "a new reader gets a dealt table once the connections are gone"
        await again.close(shutdown=True)
        await reader.close(shutdown=True)
        return starved.log()[offset:], round(took)

    grown, took = run(scenario)
    assert "Traceback" not in grown
    # Once a minute, however many pauses (twice a second) the attack caused; then the line saying so.
    assert grown.count("cannot accept connections") == 1, grown[-2000:]
    assert len(grown) < 20_000, len(grown)
    assert took < 30
