"""A class in one room (issue 21): the addresses students type, their QR codes, the page to
project, a vanished page's table released after a grace period, and gzip on what is sent."""

from __future__ import annotations

import asyncio
import gzip
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import tornado.httpclient
import tornado.httpserver
import tornado.netutil
import tornado.web

from widgets.server.classroom import (
    class_banner,
    class_page,
    listening_ipv4,
    machine_ipv4,
    qr_matrix,
    qr_svg,
    student_urls,
    terminal_qr,
)
from widgets.server.compress import GzipResponses, cache, compress_responses
from widgets.server.kernels import TableKernelSpecManager, lean_argv
from widgets.server.pages import CardSheetHandler, StartupBundleHandler
from widgets.server.sockets import Departures

URL = "http://192.168.1.20:8000/"


def test_every_address_of_the_machine_but_loopback_lan_first_each_once() -> None:
    sources = [lambda: ["127.0.0.1", "203.0.113.9", "192.168.1.20"], lambda: ["192.168.1.20", "169.254.3.3"]]
    assert machine_ipv4(sources) == ["192.168.1.20", "203.0.113.9"]
    assert listening_ipv4("0.0.0.0", lambda: ["10.0.0.5"]) == ["10.0.0.5"]
    assert listening_ipv4("127.0.0.1", lambda: ["10.0.0.5"]) == []  # this computer only: nothing to type
    assert student_urls(["10.0.0.5", "192.168.1.20"], 8000) == ["http://10.0.0.5:8000/", URL]
    assert student_urls(["10.0.0.5"], 80) == ["http://10.0.0.5/"]


def test_the_qr_code_is_a_square_of_a_qr_size_with_its_three_finder_patterns() -> None:
    rows = qr_matrix(URL)
    size = len(rows)
    assert all(len(row) == size for row in rows) and size >= 21 and (size - 17) % 4 == 0
    finder = [[r in (0, 6) or c in (0, 6) or (2 <= r <= 4 and 2 <= c <= 4) for c in range(7)] for r in range(7)]
    for top, left in ((0, 0), (0, size - 7), (size - 7, 0)):
        assert [row[left : left + 7] for row in rows[top : top + 7]] == finder
    assert qr_matrix(URL) == rows and qr_matrix(URL + "tables/") != rows


def test_the_terminal_code_is_two_rows_a_line_in_half_blocks_with_a_quiet_zone() -> None:
    size = len(qr_matrix(URL))
    plain = terminal_qr(URL, colour=False).split("\n")
    assert len(plain) == (size + 4 + 1) // 2 and {len(line) for line in plain} == {size + 4}
    assert set("".join(plain)) <= {" ", "\u2580", "\u2584", "\u2588"}
    assert plain[0].strip() == "" and plain[1][:2] == "  " and plain[1][2] == "\u2588"  # finder's corner
    coloured = terminal_qr(URL, colour=True).split("\n")
    assert all(line.startswith("\x1b[30;107m") and line.endswith("\x1b[0m") for line in coloured)
    banner = class_banner([URL], colour=False)
    assert URL in banner and plain[1] in banner and class_banner([], colour=False) == ""


def test_the_page_to_project_shows_each_address_large_with_its_code_as_svg() -> None:
    page = class_page([URL, "http://10.0.0.5:8000/"], listening="0.0.0.0")
    assert page.count('class="loo-class-address"') == 2 and URL in page
    svg = qr_svg(URL, label=f"QR code of {URL}")
    assert svg in page
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img" and root.findtext(f"{ns}title") == f"QR code of {URL}"
    assert URL in (root.findtext(f"{ns}desc") or "")
    side = len(qr_matrix(URL)) + 8
    assert root.get("viewBox") == f"0 0 {side} {side}"
    path = root.find(f"{ns}path")
    assert path is not None and len(re.findall("M", path.get("d", ""))) > 50
    alone = class_page([], listening="127.0.0.1")
    assert "<svg" not in alone and "lanterloo --class" in alone and "only this computer" in alone


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_page_gone_frees_its_table_after_the_grace_and_a_blink_keeps_it() -> None:
    clock = Clock()
    gone = Departures(grace=75, clock=clock)
    gone.opened("blink")
    gone.opened("vanished")
    gone.opened("two-tabs")
    gone.opened("two-tabs")
    gone.closed("blink")
    gone.closed("vanished")
    gone.closed("two-tabs")  # one of its two sockets: the table is still in use
    clock.now += 5
    gone.opened("blink")  # the network came back: a new socket to the same kernel
    clock.now += 69
    assert gone.due() == []  # 74 s: not yet
    clock.now += 1
    assert gone.due() == ["vanished"]
    assert gone.due() == []  # named once
    clock.now += 600
    assert gone.due() == []  # the blinking page and the open tab keep theirs
    gone.closed("blink")
    clock.now += 75
    assert gone.due() == ["blink"]


def _fetch_all(app: tornado.web.Application, paths: list[str], headers: dict[str, str]) -> list[object]:
    async def run() -> list[object]:
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        server = tornado.httpserver.HTTPServer(app)
        server.add_sockets(sockets)
        port = sockets[0].getsockname()[1]
        client = tornado.httpclient.AsyncHTTPClient(force_instance=True)
        try:
            return [
                await client.fetch(f"http://127.0.0.1:{port}{p}", headers=headers, decompress_response=False)
                for p in paths
            ]
        finally:
            client.close()
            server.stop()

    return asyncio.run(run())


def test_scripts_pages_and_static_files_go_gzipped_to_a_browser_that_accepts_it(tmp_path: Path) -> None:
    script = b"window.lanterloo = 1; // a script of the book\n" * 2000
    (tmp_path / "app.js").write_bytes(script)
    (tmp_path / "page.html").write_text("<p>A page of the book about Loo.</p>\n" * 200)
    bundle = b"console.log('a chunk of Voila');\n" * 3000
    app = tornado.web.Application(
        [
            (r"/tables/voila-startup.js", StartupBundleHandler, {"bundle": bundle, "etag": '"v1"'}),
            (r"/tables/card-sheet.css", CardSheetHandler),
            (r"/(.*)", tornado.web.StaticFileHandler, {"path": str(tmp_path)}),
        ]
    )
    compress_responses(app)
    compress_responses(app)
    assert app.transforms.count(GzipResponses) == 1
    cache.bodies.clear()
    paths = ["/app.js", "/page.html", "/tables/voila-startup.js", "/tables/card-sheet.css", "/app.js"]
    first, page, startup, sheet, again = _fetch_all(app, paths, {"Accept-Encoding": "gzip, deflate, br"})
    for response, body in ((first, script), (startup, bundle), (again, script)):
        assert response.headers["Content-Encoding"] == "gzip"  # type: ignore[attr-defined]
        assert gzip.decompress(response.body) == body  # type: ignore[attr-defined]
        length = response.headers.get("Content-Length")  # type: ignore[attr-defined]
        assert length is None or int(length) == len(response.body)  # type: ignore[attr-defined]
    assert int(again.headers["Content-Length"]) == len(again.body)  # type: ignore[attr-defined]  # from the cache
    assert page.headers["Content-Encoding"] == "gzip" and b"Loo" in gzip.decompress(page.body)  # type: ignore[attr-defined]
    assert sheet.headers["Content-Encoding"] == "gzip"  # type: ignore[attr-defined]
    assert any(key[0] == "/app.js" for key in cache.bodies)  # compressed once, and sent again from the cache
    plain, part = (
        _fetch_all(app, ["/app.js", "/app.js"], {})[0],
        _fetch_all(app, ["/app.js"], {"Accept-Encoding": "gzip", "Range": "bytes=0-99"})[0],
    )
    assert "Content-Encoding" not in plain.headers and plain.body == script  # type: ignore[attr-defined]
    assert part.code == 206 and "Content-Encoding" not in part.headers and part.body == script[:100]  # type: ignore[attr-defined]


# What a three-card table's kernel must not hold (issue 21: under 50 MB resident each): ipykernel's
# debugger and psutil, matplotlib (the ledger's chart is SVG), the ``websockets`` package (the
# request's socket is widgets.kernel.ws_client), OpenSSL's modules (widgets.kernel.table_kernel), and the other
# games' bots, hands and explanations (loo.hints imports them for their own views only).
NOT_IN_A_TABLE_KERNEL = (
    "debugpy", "psutil", "matplotlib", "websockets", "_ssl", "ssl", "_hashlib",
    "loo.games.nap.bots", "loo.games.nap.hand", "loo.games.nap.state", "loo.games.nap.explain",
    "loo.games.dominoes.bots", "loo.games.dominoes.hand", "loo.games.dominoes.state", "loo.games.dominoes.explain",
)  # fmt: skip


def test_a_table_kernel_starts_lean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table's kernel, started as the server starts it and running a table notebook's code (with
    the request's socket client and a hint), holds none of :data:`NOT_IN_A_TABLE_KERNEL`, no history
    and no docstrings (``-OO``), and still signs and checks its messages (HMAC without OpenSSL)."""
    from jupyter_client.manager import KernelManager

    spec = TableKernelSpecManager().get_kernel_spec("python3")
    assert spec.argv == lean_argv() and spec.argv[1:4] == ["-OO", "-m", "widgets.kernel.table_kernel"]
    monkeypatch.setenv("LANTERLOO_DB", str(tmp_path / "tables.sqlite3"))
    monkeypatch.setenv("LANTERLOO_LOG_DIR", str(tmp_path))
    manager = KernelManager(kernel_name="python3", kernel_spec_manager=TableKernelSpecManager())
    printed: list[dict[str, Any]] = []
    manager.start_kernel()
    client = manager.client()
    try:
        client.start_channels()
        client.wait_for_ready(timeout=60)
        code = (
            "from widgets.kernel.table_router import table_for_request, warm_up\n"
            "from widgets.kernel import request, ws_client\n"
            "from widgets.table.model import TableModel\n"
            "from loo.hints import reason\n"
            "warm_up('three-card-loo', 'peel')\n"
            "view = TableModel('three-card-loo', preset='peel', seed=1).view()\n"
            "reasoned = bool(view.legal and reason(view, view.legal[0]))\n"
            "import sys\n"
            f"print(sorted(m for m in {NOT_IN_A_TABLE_KERNEL!r} if sys.modules.get(m) is not None),"
            " get_ipython().history_manager.enabled, sys.flags.optimize, reasoned)"
        )
        reply = client.execute_interactive(code, timeout=60, output_hook=printed.append)
        assert reply["content"]["status"] == "ok"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    text = "".join(m["content"].get("text", "") for m in printed if m["msg_type"] == "stream")
    assert text.strip() == "[] False 2 True"


def test_a_kernel_that_needs_tls_keeps_openssl() -> None:
    """A table kernel leaves OpenSSL out unless its games are saved on PostgreSQL (psycopg imports
    ``ssl``) or its server's request socket is ``wss``."""
    from widgets.kernel.table_kernel import lean_modules

    assert {"_ssl", "_hashlib", "debugpy"} <= set(lean_modules({"LANTERLOO_DB": "/srv/tables.sqlite3"}))
    for environ in ({"LANTERLOO_DB": "PostgreSQL://lanterloo@db/lanterloo"}, {"VOILA_WS_PROTOCOL": "wss"}):
        assert lean_modules(environ) == ("debugpy", "psutil")


@pytest.mark.parametrize("size", [1, 30])
def test_the_class_table_gets_a_pool_of_its_size(size: int) -> None:
    from widgets.server.app import server_config
    from widgets.server.pages import DEFAULT_TABLES

    config = server_config(tables=DEFAULT_TABLES, port=8999, ip="0.0.0.0", max_idle=60, pools={"nap": size})
    pools = config.VoilaKernelManager.kernel_pools_config
    assert pools["nap.ipynb"] == {"pool_size": size} and pools["three-card-loo.ipynb"] == {"pool_size": 1}
    assert pools["default"] == {"pool_size": 0}
    assert config.VoilaConfiguration.kernel_spec_manager_class is TableKernelSpecManager


def test_a_table_kernel_logs_a_line_per_socket_error_and_none_for_its_own_closed_socket() -> None:
    """ipykernel 7, told to shut down, closes its sockets and then says "idle" on one: pyzmq logged a
    30-line traceback to the server's terminal for it (seen on CI). A table kernel drops that one (a
    socket it closed itself) and keeps any other socket error to one line with its kind and words."""
    import io
    import logging

    import zmq

    from widgets.kernel.table_kernel import quiet_kernel_log

    quiet_kernel_log()
    quiet_kernel_log()  # installed once, however often asked
    general = logging.getLogger("tornado.general")
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    general.addHandler(handler)
    context = zmq.Context()
    try:
        closed = context.socket(zmq.PUSH)
        closed.close()
        try:
            closed.send(b"")
        except zmq.ZMQError:
            general.error("Uncaught exception in ZMQStream callback", exc_info=True)
        try:
            raise zmq.ZMQError(zmq.EAGAIN)
        except zmq.ZMQError:
            general.error("Uncaught exception in ZMQStream callback", exc_info=True)
        try:
            raise ValueError("not pyzmq's")
        except ValueError:
            general.error("Something else", exc_info=True)
    finally:
        general.removeHandler(handler)
        context.term()
    lines = written.getvalue().splitlines()
    assert lines[0] == "Uncaught exception in ZMQStream callback (ZMQError: Resource temporarily unavailable)"
    assert lines[1] == "Something else" and "Traceback" in lines[2], "other loggers' lines are left as they were"
    assert sum(1 for line in lines if line.startswith("Uncaught")) == 1
    assert sum(1 for f in general.filters if type(f).__name__ == "OneLineAtMost") == 1
