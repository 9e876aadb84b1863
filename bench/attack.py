"""Attack the live-table server from one client on loopback and measure what another reader feels.

Run on demand (not a test): ``.venv/bin/python bench/attack.py [--seconds 10] [--only NAME ...]
[--postgres]``; with ``--postgres`` the server's games are kept in a PostgreSQL of the run's own (the
tests' Debian cluster, :mod:`tests.helpers.postgres`), else in an SQLite file.

It starts ``python -m widgets.server`` (as bench/tables_common.py does: every table game, its
pool kernel warm), opens a reader's table with the scripted kernel-websocket client
(tests/kernel_client.py), and then runs each attack of issue 18 for ``--seconds``, one after the
other, from the loopback address 127.0.0.2 where it can choose (raw sockets, plain HTTP) and
from 127.0.0.1 otherwise. Meanwhile the reader clicks over and over, and for each attack it prints

* the reader's click to updated table (the kernel idle after the click): median and worst, and
  clicks that failed;
* how long a new reader's table took to open, half-way through the attack (``open``), against
  the same measured before any attack (printed first);
* the server's RSS before, at the attack's end and 5 s after it, and the largest kernel's RSS;
* how much the server's log grew, and the count of tracebacks in that growth.

After the last attack the reader's table is opened again from its address (``?table=<id>``):
the game saved before the attacks must come back as it was left.

The attacks: ``query`` (two sockets to /voila/query/<id> closed in the wrong order), ``frame``
(a 16-byte v1 frame declaring 5x10^7 parts), ``comms`` (widget comm_opens of 200 KB),
``noread`` (request_states asked for and nothing read), ``partial`` (requests whose headers never
end), ``tables`` (new tables asked for and the redirect never followed), ``log`` (refused
messages), ``http`` (a NUL in a path, a 70 KB address, another site's Host); and those of issue 28:
``errors`` (addresses whose error pages wrote tracebacks), ``updates`` (malformed widget updates to
one's own table), ``shared`` (GETs and POSTs of a shared table's address), ``sockets`` (kernel
websockets to one's own kernel, held open), ``seatget`` (seat pages whose websockets never open),
``dbfreeze`` (the PostgreSQL frozen, its processes stopped, for the attack's length: ``--postgres``
only; pages needing the database and the card sheet are asked meanwhile), ``console200`` (200
played tables in the database, and the teacher's console loaded over and over).
Beside the server's log, the kernels' logs' growth (``klog``) and tracebacks are counted.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import functools
import http.client
import multiprocessing
import re
import socket
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tables_common import Served, kernels, memory, server  # also puts the project on sys.path
from tornado.httpclient import HTTPClientError
from tornado.websocket import websocket_connect

from tests.kernel_client import TableClient, encode_message, masked_frame
from widgets.draw.card_style import SHEET_PATH
from widgets.store.sqlite import TableStore

TABLE = "three-card-loo"
print = functools.partial(print, flush=True)
ATTACKER = "127.0.0.2"
V1 = "v1.kernel.websocket.jupyter.org"
REFILLED = 10.0  # seconds after a table is taken by which the server has warmed the next one


def port(served: Served) -> int:
    return int(urlsplit(served.base).port or 0)


def ws_base(served: Served) -> str:
    return "ws" + served.base.removeprefix("http")


def v1(msg_type: str, content: dict[str, Any], session: str, channel: str = "shell", version: str = "1.0.0") -> bytes:
    header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "", "session": session,
              "date": "2026-01-01T00:00:00+00:00", "version": "5.3"}  # fmt: skip
    wire = encode_message("v1", channel, header, content, {"version": version})
    assert isinstance(wire, bytes)
    return wire


async def raw_socket(served: Served, rcvbuf: int | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((ATTACKER, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port(served)))
    return await asyncio.open_connection(sock=sock, limit=4096)


async def raw_kernel_socket(served: Served, kernel_id: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await raw_socket(served, rcvbuf=4096)
    writer.write(
        (
            f"GET /api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port(served)}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {served.base}\r\nSec-WebSocket-Protocol: {V1}\r\n\r\n"
        ).encode()
    )
    await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    return reader, writer


# ----- the attacks: each runs until ``until`` (time.monotonic) ----------------------------------------


async def attack_query(served: Served, until: float, _own: TableClient) -> None:
    ids = [str(uuid.uuid4()), *kernels(served.process.pid)]
    while time.monotonic() < until:
        for kernel_id in ids:
            opened = []
            for _ in range(2):
                with contextlib.suppress(HTTPClientError, OSError):
                    opened.append(await websocket_connect(f"{ws_base(served)}/voila/query/{kernel_id}"))
            for ws in reversed(opened):
                ws.close()
        await asyncio.sleep(0.05)


async def attack_frame(served: Served, until: float, own: TableClient) -> None:
    frame = (5 * 10**7).to_bytes(8, "little") + (16).to_bytes(8, "little")
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            ws = await websocket_connect(
                f"{ws_base(served)}/api/kernels/{own.kernel_id}/channels?session_id={uuid.uuid4().hex}",
                subprotocols=[V1],
            )
            await ws.write_message(frame, binary=True)
            await asyncio.wait_for(ws.read_message(), 5)
            ws.close()
        await asyncio.sleep(0.05)


async def attack_comms(served: Served, until: float, own: TableClient) -> None:
    n = 0
    while time.monotonic() < until and not own.closed:
        state = {"_model_name": "HTMLModel", "_model_module": "@jupyter-widgets/controls",
                 "_model_module_version": "2.0.0", "value": "x" * 200_000}  # fmt: skip
        content = {"comm_id": uuid.uuid4().hex, "target_name": "jupyter.widget",
                   "data": {"state": state, "buffer_paths": []}}  # fmt: skip
        await own.send("comm_open", content, metadata={"version": "2.1.0"})
        n += 1
        await asyncio.sleep(0.002)


async def attack_noread(served: Served, until: float, own: TableClient) -> None:
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            _reader, writer = await raw_kernel_socket(served, own.kernel_id)
            session, comm = uuid.uuid4().hex, uuid.uuid4().hex
            opening = {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}
            writer.write(masked_frame(v1("comm_open", opening, session)))
            ask = masked_frame(v1("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}, session))
            while time.monotonic() < until:
                writer.write(ask)
                await writer.drain()
                await asyncio.sleep(0.01)
            writer.close()
        await asyncio.sleep(0.1)


async def attack_partial(served: Served, until: float, _own: TableClient) -> None:
    held = []
    try:
        while time.monotonic() < until:
            with contextlib.suppress(OSError):
                _reader, writer = await raw_socket(served)
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                held.append(writer)
            await asyncio.sleep(0.002)
    finally:
        print(f"    ({len(held)} partial requests opened)")
        for writer in held:
            writer.close()


def _get(served: Served, path: str, host: str | None = None, headers: dict[str, str] | None = None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port(served), timeout=10, source_address=(ATTACKER, 0))
    try:
        connection.connect()
    except OSError:  # this side could not connect (out of local ports, say): not the server's answer
        connection.close()
        return -1
    try:
        connection.putrequest("GET", path, skip_host=host is not None)
        if host is not None:
            connection.putheader("Host", host)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


async def attack_tables(served: Served, until: float, _own: TableClient) -> None:
    answers: dict[int, int] = {}
    while time.monotonic() < until:
        status = await asyncio.to_thread(_get, served, f"/tables/{TABLE}")
        answers[status] = answers.get(status, 0) + 1
        await asyncio.sleep(0.05)
    print(f"    (answers: {answers})")


async def attack_log(served: Served, until: float, own: TableClient) -> None:
    ws = await websocket_connect(
        f"{ws_base(served)}/api/kernels/{own.kernel_id}/channels?session_id={uuid.uuid4().hex}", subprotocols=[V1]
    )
    session = uuid.uuid4().hex
    again = v1("kernel_info_request", {}, session)
    n = 0
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            await ws.write_message(v1("execute_request", {"code": "1"}, session), binary=True)
            await ws.write_message(again, binary=True)
        n += 1
        if n % 50 == 0:
            await asyncio.sleep(0.01)
    ws.close()


async def attack_http(served: Served, until: float, _own: TableClient) -> None:
    answers: dict[str, set[int]] = {"nul": set(), "long": set(), "host": set()}
    while time.monotonic() < until:
        answers["nul"].add(await asyncio.to_thread(_get, served, "/intro%00.html"))
        answers["long"].add(await asyncio.to_thread(_get, served, "/?q=" + "x" * 70_000))
        answers["host"].add(await asyncio.to_thread(_get, served, "/", "evil.example"))
    print(f"    (answers: {answers}; 0 = closed with no answer, -1 = could not connect from this side)")


# ----- issue 28 ------------------------------------------------------------------------------------

ERROR_PATHS = [  # each made jupyter_server's error page fail with ~4.5 KB of traceback
    "/api/kernels/00000000-0000-0000-0000-000000000000/channels",
    "/voila/render/%c0%ae%c0%ae/etc/passwd",
    "/voila/labextensions/%2e%2e/%2e%2e/etc/passwd",
    "/voila/api/themes/%2e%2e/%2e%2e/etc/passwd",
]


async def attack_errors(served: Served, until: float, _own: TableClient) -> None:
    answers: dict[int, int] = {}
    while time.monotonic() < until:
        for path in ERROR_PATHS:
            status = await asyncio.to_thread(_get, served, path)
            answers[status] = answers.get(status, 0) + 1
    print(f"    (answers: {answers})")


async def attack_updates(served: Served, until: float, own: TableClient) -> None:
    """Malformed widget updates to one's own table: each was a traceback in the kernel's log."""
    button = own.button("loo-next")
    n = 0
    while time.monotonic() < until and not own.closed:
        bad = [{"layout": "IPY_MODEL_none"}, {"description": n}, {"disabled": "no"}][n % 3]
        with contextlib.suppress(Exception):
            await own.comm_msg(button, {"method": "update", "state": bad, "buffer_paths": []})
        n += 1
        if n % 20 == 0:
            await asyncio.sleep(0.01)
    print(f"    ({n} malformed updates sent)")


DATABASE: dict[str, Any] = {}  # "url": the run's PostgreSQL database, "cluster": its cluster (--postgres)


def database(served: Served) -> str | Path:
    """Where the server keeps its games: the run's PostgreSQL database, else its SQLite file."""
    return DATABASE.get("url") or served.folder / "tables.sqlite3"


def tables_saved(served: Served) -> int:
    with TableStore(database(served)) as store:
        return int(store.rows("SELECT count(*) FROM tables")[0][0])


def _post(served: Served, path: str, body: str, origin: str | None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port(served), timeout=10, source_address=(ATTACKER, 0))
    try:
        headers = {"Content-Type": "application/x-www-form-urlencoded", **({"Origin": origin} if origin else {})}
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


async def attack_shared(served: Served, until: float, _own: TableClient) -> None:
    """GETs of a shared table's address (16,820 tables in 20 s before), and POSTs from another
    site and from the server's own page."""
    before = tables_saved(served)
    own_origin = f"http://127.0.0.1:{port(served)}"
    answers: dict[str, dict[int, int]] = {"get": {}, "post elsewhere": {}, "post own": {}}
    while time.monotonic() < until:
        for kind, ask in (
            ("get", lambda: _get(served, f"/tables/{TABLE}/shared?people=2")),
            ("post elsewhere", lambda: _post(served, f"/tables/{TABLE}/shared", "people=2", "https://evil.example")),
            ("post own", lambda: _post(served, f"/tables/{TABLE}/shared", "people=2", own_origin)),
        ):
            status = await asyncio.to_thread(ask)
            answers[kind][status] = answers[kind].get(status, 0) + 1
    print(f"    (answers: {answers}; tables made: {tables_saved(served) - before})")


async def attack_sockets(served: Served, until: float, own: TableClient) -> None:
    """Kernel websockets to one's own kernel, held open: about 260 took every ZeroMQ socket before."""
    held, answers = [], {}
    try:
        while time.monotonic() < until and len(held) + sum(answers.values()) < 300:
            try:
                reader, writer = await raw_socket(served)
                writer.write(
                    (
                        f"GET /api/kernels/{own.kernel_id}/channels?session_id={uuid.uuid4().hex} HTTP/1.1\r\n"
                        f"Host: 127.0.0.1:{port(served)}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                        f"Origin: {served.base}\r\nSec-WebSocket-Protocol: {V1}\r\n\r\n"
                    ).encode()
                )
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                status = int(head.split()[1])
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                status = 0
                writer = None
            if status == 101 and writer is not None:
                held.append(writer)
            else:
                answers[status] = answers.get(status, 0) + 1
                if writer is not None:
                    writer.close()
            await asyncio.sleep(0.01)
        while time.monotonic() < until:
            await asyncio.sleep(0.2)
    finally:
        print(f"    ({len(held)} websockets opened and held; refused: {answers})")
        for writer in held:
            writer.close()


async def attack_seatget(served: Served, until: float, _own: TableClient) -> None:
    """Seat pages asked for and their websockets never opened: each held its seat and its place for good."""
    answers: dict[int, int] = {}
    while time.monotonic() < until:
        status = await asyncio.to_thread(_seat_page_unconnected, served)
        answers[status] = answers.get(status, 0) + 1
        await asyncio.sleep(0.2)
    print(f"    (seat pages: {answers})")


def _seat_page_unconnected(served: Served) -> int:
    """A new shared table of two, made as its page's form does, and its first seat's page asked for
    (its link redirects there), the websocket never opened: the status of that page, else of the POST.
    On a thread: the reader's clicks share the benchmark's event loop, which a blocking request would hold."""
    own_origin = f"http://127.0.0.1:{port(served)}"
    connection = http.client.HTTPConnection("127.0.0.1", port(served), timeout=60, source_address=(ATTACKER, 0))
    try:
        connection.request("POST", f"/tables/{TABLE}/shared", body="people=2", headers={
            "Origin": own_origin, "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        response = connection.getresponse()
        page = response.read().decode("utf-8", "replace")
        status = response.status
    except OSError:
        return 0
    finally:
        connection.close()
    links = [link.replace("&amp;", "&") for link in _SEAT_LINK.findall(page)]
    if links:
        status = _get(served, links[0].replace(f"/tables/{TABLE}?", f"/voila/render/{TABLE}.ipynb?"))
    return status


_SEAT_LINK = re.compile(r'class="link seat-link" href="([^"]*)"')


def _timed_get(served: Served, path: str, headers: dict[str, str] | None = None) -> tuple[int, float]:
    began = time.monotonic()
    status = _get(served, path, headers=headers)
    return status, time.monotonic() - began


def console_session(served: Served) -> dict[str, str]:
    """The headers of a teacher's console request: its session cookie, given for the console's address
    as the server kept it for its owner (a new token at each start). None found: no cookie (the console says 403)."""
    try:
        token = served.console_token()
    except (OSError, KeyError):
        return {}
    connection = http.client.HTTPConnection("127.0.0.1", port(served), timeout=10)
    try:
        connection.request("GET", f"/console?token={token}")
        response = connection.getresponse()
        response.read()
        cookie = re.match(r"(loo-console=[^;]+)", response.getheader("Set-Cookie") or "")
    finally:
        connection.close()
    return {"Cookie": cookie[1]} if cookie else {}


async def attack_dbfreeze(served: Served, until: float, _own: TableClient) -> None:
    """The PostgreSQL's processes stopped (SIGSTOP) until the attack ends: a database that hangs.
    Meanwhile the console (which needs the database), a new table (which opens unsaved) and the
    card sheet (which needs nothing) are asked for, each answer timed."""
    cluster = DATABASE.get("cluster")
    if cluster is None:
        print("    (dbfreeze needs --postgres: nothing frozen)")
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        return
    asked: dict[str, list[tuple[int, float]]] = {"console": [], "new table": [], "card sheet": []}
    teacher = await asyncio.to_thread(console_session, served)
    with cluster.frozen():
        while time.monotonic() < until:
            for kind, path, headers in (("console", "/console", teacher), ("new table", f"/tables/{TABLE}", None),
                                        ("card sheet", SHEET_PATH, None)):  # fmt: skip
                asked[kind].append(await asyncio.to_thread(_timed_get, served, path, headers))
            await asyncio.sleep(0.2)
    for kind, answers in asked.items():
        statuses = sorted({status for status, _took in answers})
        took = [seconds for _status, seconds in answers] or [float("nan")]
        print(f"    ({kind}: {len(answers)} asked, answers {statuses}, median {statistics.median(took) * 1000:.0f} ms, "
              f"worst {max(took) * 1000:.0f} ms)")  # fmt: skip


CLASS_TABLES = 200


def play_class(db: str | Path, tables: int = CLASS_TABLES) -> None:
    """``tables`` tables of the class, each played a hand and a half (one in ten shared)."""
    import random

    from widgets.store.seating import PERSON, SeatBook
    from widgets.table.model import TableModel

    rng = random.Random(7)
    with TableStore(db) as store:
        book = SeatBook(store)
        for n in range(tables):
            table_id = store.new_table(TABLE)
            if n % 10 == 0:
                book.open_seats(table_id, [PERSON] * 5)
            model = TableModel(TABLE, seed=n, rng=random.Random(n))
            model.attach(store, table_id)
            for _ in range(40):
                if not model.hand.is_over:
                    model.act(rng.choice(model.legal()))
                elif len(model.records) > 1:
                    break
                else:
                    model.new_hand()


async def prepare_console200(served: Served) -> None:
    """The class's 200 tables played before the attack begins, in a process of their own: played on a
    thread here, during the attack, they took the interpreter (and a core) from the reader's clicks."""
    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn) as played:
        await asyncio.get_running_loop().run_in_executor(played, play_class, database(served))


async def attack_console200(served: Served, until: float, _own: TableClient) -> None:
    """The teacher's console's list of 200 played tables (:func:`prepare_console200`) loaded over
    and over (every 0.2 s), and its download of the class's records now and then."""
    times: list[float] = []
    statuses: set[int] = set()
    n, teacher = 0, await asyncio.to_thread(console_session, served)
    while time.monotonic() < until:
        path = "/console/records.jsonl" if n % 5 == 4 else "/console"
        status, took = await asyncio.to_thread(_timed_get, served, path, teacher)
        statuses.add(status)
        times.append(took)
        n += 1
        await asyncio.sleep(0.2)
    if times:
        print(f"    ({len(times)} console loads, answers {sorted(statuses)}: first {times[0] * 1000:.0f} ms, "
              f"median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms)")  # fmt: skip


ATTACKS: dict[str, Callable[[Served, float, TableClient], Awaitable[None]]] = {
    "query": attack_query,
    "frame": attack_frame,
    "comms": attack_comms,
    "noread": attack_noread,
    "partial": attack_partial,
    "tables": attack_tables,
    "log": attack_log,
    "http": attack_http,
    "errors": attack_errors,
    "updates": attack_updates,
    "shared": attack_shared,
    "sockets": attack_sockets,
    "seatget": attack_seatget,
    "dbfreeze": attack_dbfreeze,
    "console200": attack_console200,
}
PREPARE: dict[str, Callable[[Served], Awaitable[None]]] = {"console200": prepare_console200}  # before the attack


# ----- the reader, and the figures ----------------------------------------------------------------------


def kernel_logs(served: Served) -> dict[str, str]:
    """The kernels' log files (tests/conftest.py puts them in the run's folder), by name."""
    return {p.name: p.read_text(errors="replace") for p in served.folder.glob("kernel-*.log")}


async def reader_clicks(reader: TableClient, until: float, times: list[float], failures: list[str]) -> None:
    """Click as a reader would until ``until``: the next hand if that is the choice, else the first
    choice; each click's time to the kernel's idle after it (the table updated) goes in ``times``."""
    while time.monotonic() < until:
        try:
            next_hand = reader.button("loo-next")
            target = next_hand if reader.enabled(next_hand) else reader.choices()[0]
            began = time.monotonic()
            await reader.settled(await reader.click(target), timeout=20)
            times.append(time.monotonic() - began)
        except Exception as error:  # a failed click is a figure, not the end of the run
            failures.append(type(error).__name__)
            await asyncio.sleep(0.5)
        await asyncio.sleep(0.2)


async def open_time(served: Served) -> float:
    """Seconds for a new reader's table to open, dealt and every widget loaded; the table is left."""
    began = time.monotonic()
    client = await TableClient.open(served.base, TABLE, timeout=120)
    took = time.monotonic() - began
    await client.close(shutdown=True)
    return took


async def open_halfway(served: Served, seconds: float) -> float:
    await asyncio.sleep(seconds / 2)
    try:
        return await open_time(served)
    except Exception:  # a table that does not open is the figure
        return float("inf")


async def run(served: Served, names: list[str], seconds: float) -> None:
    opens = []
    for _ in range(3):  # each once the pool has its warm kernel again, as under the attacks below
        await asyncio.sleep(REFILLED)
        opens.append(await open_time(served))
    print(f"a table opens in {statistics.median(opens) * 1000:.0f} ms with no attack (median of 3)")
    reader = await TableClient.open(served.base, TABLE, timeout=120)
    table_id = reader.table_id
    print(f"{'attack':8} {'clicks':>6} {'median':>8} {'worst':>8} {'failed':>6} {'open':>7} "
          f"{'server MB: before/end/+5 s':>26} {'kernel MB':>9} {'log KB':>7} {'traces':>6} "
          f"{'klog KB':>7} {'ktraces':>7}")  # fmt: skip
    try:
        for name in names:
            if name in PREPARE:
                await PREPARE[name](served)
            own = await TableClient.open(served.base, TABLE, timeout=120)  # the attacker's own table
            log_before = len(served.log())
            klog_before = kernel_logs(served)
            rss_before = memory(served.process.pid).rss
            until = time.monotonic() + seconds
            times: list[float] = []
            failures: list[str] = []
            print(f"  {name}: attacking for {seconds:g} s")
            attack = asyncio.create_task(ATTACKS[name](served, until, own))
            opening = asyncio.create_task(open_halfway(served, seconds))
            await reader_clicks(reader, until, times, failures)
            try:
                await asyncio.wait_for(attack, 30)
            except Exception as error:  # an attack that fails is reported, and the run goes on
                print(f"    (the attack ended with {type(error).__name__}: {error})")
            opened = await opening
            rss_end = memory(served.process.pid).rss
            kernel_max = max(memory(pid).rss for pid in kernels(served.process.pid).values())
            grown_text = served.log()[log_before:]
            klog_grown = {p: t[len(klog_before.get(p, "")) :] for p, t in kernel_logs(served).items()}
            with contextlib.suppress(Exception):
                await own.close(shutdown=True)
            await asyncio.sleep(5)
            rss_after = memory(served.process.pid).rss
            median = statistics.median(times) if times else float("nan")
            worst = max(times) if times else float("nan")
            print(f"{name:8} {len(times):6d} {median * 1000:6.0f}ms {worst * 1000:6.0f}ms {len(failures):6d} "
                  f"{opened * 1000:5.0f}ms {rss_before:8.0f} {rss_end:7.0f} {rss_after:7.0f} {kernel_max:9.0f} "
                  f"{len(grown_text.encode()) / 1024:7.1f} {grown_text.count('Traceback'):6d} "
                  f"{sum(len(t.encode()) for t in klog_grown.values()) / 1024:7.1f} "
                  f"{sum(t.count('Traceback') for t in klog_grown.values()):7d}")  # fmt: skip
            if reader.closed:
                print("    the reader's socket closed: opening the table again")
                reader = await TableClient.open(served.base, TABLE, f"table={table_id}", timeout=120)
        board = reader.board()
    finally:
        await reader.close(shutdown=True)
    again = await TableClient.open(served.base, TABLE, f"table={table_id}", timeout=120)
    try:
        resumed = again.board() == board
    finally:
        await again.close(shutdown=True)
    print(f"the reader's game, saved before the attacks, {'resumed as it was left' if resumed else 'DID NOT RESUME'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each attack runs (10)")
    parser.add_argument("--only", nargs="*", choices=sorted(ATTACKS), help="run only these attacks")
    parser.add_argument("--postgres", action="store_true", help="keep the games in a PostgreSQL of the run's own")
    args = parser.parse_args()
    names = args.only or list(ATTACKS)
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-attack-"))
    with contextlib.ExitStack() as stack:
        extra: list[str] = []
        if args.postgres:
            from tests.helpers.postgres import running_postgres

            cluster = stack.enter_context(running_postgres())
            DATABASE.update(cluster=cluster, url=cluster.new_database())
            extra = ["--db", DATABASE["url"]]
            print(f"games kept in PostgreSQL: {DATABASE['url']}")
        try:
            with server(folder, *extra) as served:  # every table game, each with its pool kernel warm
                asyncio.run(run(served, names, args.seconds))
                print(f"server log: {served.folder / 'server.out'} ({len(served.log()) / 1024:.0f} KB)")
        finally:
            print(f"(the run's folder: {folder})")


if __name__ == "__main__":
    main()
