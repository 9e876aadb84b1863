"""The server's guard on the kernel websocket (no traceback or stderr output reaches a browser), its
routes, and its cap on live tables (``--max-tables``): counting, bursts, and the tables-full page."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import re
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
import tornado.httpserver
import tornado.testing
import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPResponse
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from tests.conftest import run_async
from widgets import server
from widgets.draw.card_style import SHEET_PATH, card_css
from widgets.draw.table_pages import PAGES
from widgets.server import pages as server_pages
from widgets.server import seats as server_seats
from widgets.server import sockets as server_sockets
from widgets.server.app import LanterlooServer, server_config
from widgets.server.pages import DEFAULT_TABLES, TABLE_NAME, TEMPLATES, page_config, startup_bundle
from widgets.server.seats import DEFAULT_MAX_TABLES, SeatedKernelManager, TableSeats, tables_full_page
from widgets.server.sockets import must_withhold
from widgets.store.sqlite import TableStore


def v1(msg_type: str, content: dict[str, object], channel: str = "iopub") -> bytes:
    """A message in the v1 kernel websocket protocol, as jupyter_server sends it."""
    parts = [
        channel.encode(),
        json.dumps({"msg_type": msg_type, "msg_id": "x"}).encode(),
        b"{}",
        b"{}",
        json.dumps(content).encode(),
    ]
    count = len(parts) + 1
    offsets = [8 * (count + 1)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    head = count.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(parts)


def as_json(msg_type: str, content: dict[str, object]) -> str:
    return json.dumps({"header": {"msg_type": msg_type}, "content": content, "channel": "iopub"})


ERROR = {"ename": "RuntimeError", "evalue": "boom", "traceback": ["Traceback..."]}


@pytest.mark.parametrize("wrap", [v1, as_json, lambda t, c: {"header": {"msg_type": t}, "content": c}])
def test_errors_and_stderr_are_withheld_in_every_wire_form(wrap: object) -> None:
    make = wrap  # type: ignore[assignment]
    assert must_withhold(make("error", ERROR))  # type: ignore[operator]
    assert must_withhold(make("stream", {"name": "stderr", "text": "Traceback"}))  # type: ignore[operator]
    assert must_withhold(make("execute_reply", {"status": "error", **ERROR}))  # type: ignore[operator]


@pytest.mark.parametrize("wrap", [v1, as_json])
def test_ordinary_widget_traffic_passes(wrap: object) -> None:
    make = wrap  # type: ignore[assignment]
    assert not must_withhold(make("comm_msg", {"data": {"method": "update", "state": {"value": "x"}}}))  # type: ignore[operator]
    assert not must_withhold(make("stream", {"name": "stdout", "text": "hello"}))  # type: ignore[operator]
    assert not must_withhold(make("status", {"execution_state": "idle"}))  # type: ignore[operator]
    assert not must_withhold(make("execute_reply", {"status": "ok"}))  # type: ignore[operator]


def test_unreadable_bytes_pass_untouched() -> None:
    assert not must_withhold(b"\x00\x01garbage")


@pytest.mark.parametrize("name", ["three-card-loo", "nap", "domino-loo"])
def test_table_names_accept_tables(name: str) -> None:
    assert TABLE_NAME.match(name)


@pytest.mark.parametrize("name", ["..", "../etc/passwd", "Nap", "a/b", "", "-x"])
def test_table_names_refuse_anything_else(name: str) -> None:
    assert not TABLE_NAME.match(name)


def test_server_routes_tables_only_and_puts_the_book_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No tree or contents handler (no file listing); our websocket handler; the book answers last."""
    book = tmp_path / "html"
    book.mkdir()
    (book / "index.html").write_text("<p>book</p>")
    monkeypatch.setenv("JUPYTER_PATH", str(TEMPLATES))
    monkeypatch.setattr(LanterlooServer, "book_dir", book)
    config = server_config(tables=DEFAULT_TABLES, port=_free_port(), ip="127.0.0.1", max_idle=60)
    configured = LanterlooServer(config=config)
    configured.initialize([])
    assert configured.voila_configuration.preheat_kernel is True
    # Routing needs start()'s settings, and with preheating those schedule kernel start-ups on
    # whatever event loop runs next; route an otherwise identical app that does not preheat.
    config.VoilaConfiguration.preheat_kernel = False
    app = LanterlooServer(config=config)
    app.initialize([])
    app.init_settings()
    handlers = app.init_handlers()
    names = [spec[1].__name__ for spec in handlers]
    assert "TornadoVoilaTreeHandler" not in names
    assert "VoilaContentsHandler" not in names
    assert "VoilaKernelWebsocketHandler" not in names
    assert "TableKernelWebsocketHandler" in names
    # the page's shutdown beacon frees its table's place at once (TableSeats.leave)
    assert "VoilaShutdownKernelHandler" not in names and "TableShutdownHandler" in names
    assert app.seats is not None and app.seats.cap == DEFAULT_MAX_TABLES
    assert names[-1] == "BookHandler" and handlers[-1][0] == r"/(.*)"
    # every book page names the tables on offer, for the book's live-table boxes
    assert handlers[-1][1].tables == tuple(sorted(p.stem for p in DEFAULT_TABLES.glob("*.ipynb")))
    assert app.voila_configuration.show_tracebacks is False
    assert app.voila_configuration.template == "lanterloo"
    assert app.config.MappingKernelManager.cull_idle_timeout == 60
    assert app.tornado_settings["disable_check_xsrf"] is True
    assert sorted(p.name for p in Path(app.root_dir).iterdir() if not p.name.startswith(".")) == sorted(
        p.name for p in DEFAULT_TABLES.glob("*.ipynb")
    ), "Voila's root holds only the table notebooks"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- The cap on live tables (--max-tables) ---------------------------------------------------


class Kernels:
    """A stand-in for Voila's kernel manager: starts "kernels" slowly, as the real one does."""

    def __init__(self) -> None:
        self.live: list[str] = []
        self.most = 0  # the most kernels ever alive at once

    def list_kernel_ids(self) -> list[str]:
        return list(self.live)

    async def start_kernel(self, **_kwargs: Any) -> str:
        await asyncio.sleep(0.01)  # other requests run while this kernel starts
        kernel_id = f"k{len(self.live)}-{id(self)}-{asyncio.get_running_loop().time()}"
        self.live.append(kernel_id)
        self.most = max(self.most, len(self.live))
        return kernel_id

    async def get_rendered_notebook(self, **_kwargs: Any) -> tuple[object, list[str], str]:
        kernel_id = await self.start_kernel()  # a preheated kernel: known only once its pool task is done
        return object(), [], kernel_id


def test_seats_count_starting_pages_then_their_kernels_never_both() -> None:
    kernels = Kernels()
    seats = TableSeats(2, kernels.list_kernel_ids)
    first = seats.admit()
    assert first is not None and seats.in_use() == 1, "a page whose kernel is starting takes a place"
    kernels.live.append("a")
    first.settle("a")
    assert seats.kernels == {"a"} and seats.starting == 0 and seats.in_use() == 1, "moved, not counted twice"
    first.release()  # the request ends: the place stays with its kernel
    assert SeatedKernelManager(kernels, first).list_kernel_ids() == ["a"], "the rest is the manager's own"
    assert seats.in_use() == 1
    second = seats.admit()
    assert second is not None and seats.in_use() == 2
    assert seats.admit() is None and not seats.has_room(), "full at the cap"
    second.release()  # that page's request failed before it had a kernel
    assert seats.in_use() == 1 and seats.has_room()
    kernels.live.remove("a")  # culled, or shut down: its place is free
    assert seats.in_use() == 0


def test_the_preheated_pool_kernels_do_not_count() -> None:
    kernels = Kernels()
    kernels.live += ["pool-nap", "pool-loo"]  # waiting in Voila's pools: no page has them
    seats = TableSeats(1, kernels.list_kernel_ids)
    assert seats.in_use() == 0 and seats.has_room()


def test_a_page_leaving_frees_its_place_before_its_kernel_has_stopped() -> None:
    kernels = Kernels()
    kernels.live.append("a")
    seats = TableSeats(1, kernels.list_kernel_ids)
    seat = seats.admit()
    assert seat is not None
    seat.settle("a")
    assert not seats.has_room()
    seats.leave("a")  # the beacon came; the kernel is still shutting down
    assert seats.has_room()
    seats.leave("never-a-table")  # any other id changes nothing
    assert seats.in_use() == 0


def test_a_reload_at_a_full_server_waits_for_its_old_page_to_leave() -> None:
    """The reloaded page's request may reach the server before the beacon of the page it replaces:
    it waits for that page's place, where a request for any other table is refused at once."""
    kernels = Kernels()
    kernels.live += ["a", "b"]
    seats = TableSeats(2, kernels.list_kernel_ids)
    for kernel_id, table_id in (("a", "T1"), ("b", "T2")):
        seat = seats.admit(table_id)
        assert seat is not None
        seat.settle(kernel_id)
    assert seats.is_open("T1") and not seats.is_open("T3") and not seats.has_room("T1")

    async def reload_then_beacon() -> tuple[bool, float]:
        loop = asyncio.get_running_loop()
        loop.call_later(0.2, seats.leave, "a")  # T1's old page says goodbye a little late
        start = loop.time()
        await seats.wait_for_room("T1")
        return seats.has_room("T1"), loop.time() - start

    room, waited = run_async(reload_then_beacon())
    assert room and 0.15 < waited < 1.0, waited
    assert not seats.is_open("T1"), "the beacon freed T1's kernel"

    async def other_tables(table_id: str | None) -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await seats.wait_for_room(table_id)
        return loop.time() - start

    seat = seats.admit("T1")
    assert seat is not None
    seat.settle("c")
    kernels.live.append("c")
    for other in (None, "T3"):  # a new reader, or a table with no live kernel: no wait, refused at once
        assert run_async(other_tables(other)) < 0.05 and not seats.has_room(other)
    assert seats.tables == {"b": "T2", "c": "T1"}, "T1 is at its new kernel"
    kernels.live.remove("b")  # T2's kernel culled: forgotten with it
    assert seats.in_use() == 1 and seats.tables == {"c": "T1"}


def test_a_reload_waits_no_longer_than_its_limit() -> None:
    kernels = Kernels()
    kernels.live.append("a")
    seats = TableSeats(1, kernels.list_kernel_ids)
    seat = seats.admit("T1")
    assert seat is not None
    seat.settle("a")  # and no beacon ever comes (the old tab is still open)

    async def wait() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await seats.wait_for_room("T1", timeout=0.3)
        return loop.time() - start

    assert 0.25 < run_async(wait()) < 1.0 and not seats.has_room("T1")


def test_a_held_place_is_kept_for_its_table_only_and_lapses(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    seats = TableSeats(1, list)
    seats.hold("T1")
    assert not seats.has_room() and seats.admit("other") is None, "the one place is held for T1"
    seat = seats.admit("T1")
    assert seat is not None and seats.held == {} and seats.in_use() == 1, "T1's page took its held place"
    seat.release()
    seats.hold("T2")
    now[0] += server_seats.HOLD_SECONDS + 1  # nobody followed the redirect
    assert seats.in_use() == 0 and seats.admit("T2") is not None


@pytest.mark.parametrize("pool", [False, True])
def test_a_burst_of_requests_never_starts_more_kernels_than_the_cap(pool: bool) -> None:
    """Twelve pages asked for at once, each kernel taking a while to start: exactly the cap open."""
    kernels = Kernels()
    seats = TableSeats(3, kernels.list_kernel_ids)

    async def page() -> bool:
        seat = seats.admit()
        if seat is None:
            return False
        manager = SeatedKernelManager(kernels, seat)
        try:
            if pool:
                await manager.get_rendered_notebook(notebook_name="nap.ipynb")
            else:
                await manager.start_kernel(kernel_name="python3")
            assert seats.in_use() <= seats.cap
            return True
        finally:
            seat.release()

    async def burst() -> list[bool]:
        return list(await asyncio.gather(*(page() for _ in range(12))))

    opened = run_async(burst())
    assert opened.count(True) == 3 and kernels.most == 3
    assert seats.kernels == set(kernels.live) and seats.starting == 0 and seats.in_use() == 3


def test_the_tables_full_page_says_what_happened_and_what_to_do() -> None:
    saved = tables_full_page(cap=40, again="/voila/render/nap.ipynb?table=abc&deal=x", saved_game=True)
    assert saved.startswith("<!DOCTYPE html>") and '<html lang="en">' in saved
    assert "<title>The tables are full · Lanterloo</title>" in saved and "<h1>The tables are full</h1>" in saved
    assert "All 40 live tables on this server are in use" in saved
    assert "Your game is safe" in saved and "carries on from its last move when you try again" in saved
    assert '<a class="again" href="/voila/render/nap.ipynb?table=abc&amp;deal=x">Try again</a>' in saved
    assert '<a href="/" target="_top">go back to the book</a>' in saved  # out of a book page's frame
    assert "<script" not in saved and "Traceback" not in saved
    new = tables_full_page(cap=1, again="/tables/nap", saved_game=False)
    assert "one live table at a time" in new and "Your game is safe" not in new and "nothing is lost" in new
    hostile = tables_full_page(cap=2, again='/tables/nap?deal="><script>alert(1)</script>', saved_game=False)
    assert "<script" not in hostile and "&quot;&gt;&lt;script&gt;" in hostile


@pytest.mark.parametrize("value", ["0", "-3"])
def test_max_tables_must_be_one_or_more(value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--db", str(tmp_path / "t.sqlite3"), "--port", str(_free_port()), "--max-tables", value]
    assert server.main(args) == 2
    assert "error: --max-tables must be 1 or more" in capsys.readouterr().err


def test_max_tables_must_be_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        server.main(["--db", str(tmp_path / "t.sqlite3"), "--max-tables", "many"])
    assert exited.value.code == 2
    assert "--max-tables: invalid int value: 'many'" in capsys.readouterr().err


def test_the_help_explains_max_tables(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        server.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--max-tables" in out and f"(default: {DEFAULT_MAX_TABLES}, or --class-size" in out and "50 MB" in out
    # --ip says what it decides: who can reach the server (issue 21)
    assert "0.0.0.0 every computer on its networks, so that a class can reach it" in out and "--class " in out


@pytest.fixture
def routed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LanterlooServer]:
    """The server's tornado application with its real routes, capped at two tables, not listening and
    not preheating (no kernel is started by these tests: every request below stops before one)."""
    book = tmp_path / "html"
    book.mkdir()
    (book / "index.html").write_text("<p>book</p>")
    monkeypatch.setenv("JUPYTER_PATH", str(TEMPLATES))
    monkeypatch.setattr(LanterlooServer, "book_dir", book)
    monkeypatch.setattr(LanterlooServer, "db_path", tmp_path / "t.sqlite3")
    monkeypatch.setattr(LanterlooServer, "max_tables", 2)
    config = server_config(tables=DEFAULT_TABLES, port=_free_port(), ip="127.0.0.1", max_idle=60)
    config.VoilaConfiguration.preheat_kernel = False
    app = LanterlooServer(config=config)
    app.initialize([])
    app.app = tornado.web.Application(**app.init_settings())
    app.app.settings.update(app.tornado_settings)
    app.app.add_handlers(".*$", app.init_handlers())
    yield app


def fetch_at_once(
    app: tornado.web.Application, paths: list[str], headers: dict[str, str] | None = None
) -> list[HTTPResponse]:
    """GET every path at the same time from ``app`` on a free port; redirects are not followed."""

    async def run() -> list[HTTPResponse]:
        sock, port = tornado.testing.bind_unused_port()
        http = tornado.httpserver.HTTPServer(app)
        http.add_sockets([sock])
        client = AsyncHTTPClient(force_instance=True, max_clients=len(paths))
        try:
            fetches = [
                client.fetch(
                    f"http://127.0.0.1:{port}{path}", follow_redirects=False, raise_error=False, headers=headers
                )
                for path in paths
            ]
            return list(await asyncio.gather(*fetches))
        finally:
            client.close()
            http.stop()

    return run_async(run())


def reserved(db: Path) -> int:
    """How many table ids the database holds."""
    TableStore(db).close()  # the schema, if no request made it
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return int(connection.execute("SELECT count(*) FROM tables").fetchone()[0])


def test_a_full_server_refuses_every_table_route_politely_and_reserves_no_id(routed: LanterlooServer) -> None:
    seats = routed.seats
    assert seats is not None
    assert seats.admit() and seats.admit()  # two pages open: the cap
    paths = [
        "/tables/nap",
        "/tables/nap?deal=nap.hoffmann.s0.n7",
        "/tables/nap?table=AAAAAAAAAAAAAAAAAAAAAA",
        "/voila/render/nap.ipynb",
        "/voila/render/nap.ipynb?table=AAAAAAAAAAAAAAAAAAAAAA",
    ]
    (other,) = fetch_at_once(routed.app, ["/voila/render/NAP.IPYNB"])
    assert other.code == 404, "a notebook that is not a table by its own name is not found, full or not"
    for path, response in zip(paths, fetch_at_once(routed.app, paths), strict=True):
        body = response.body.decode()
        assert response.code == 503, path
        assert response.headers["Retry-After"] == str(server_seats.RETRY_AFTER_SECONDS)
        assert "<h1>The tables are full</h1>" in body and "All 2 live tables" in body
        assert ("Your game is safe" in body) == ("table=" in path), path
        assert f'href="{path.replace("&", "&amp;")}">Try again' in body
    assert reserved(routed.db_path) == 0, "no table id reserved for a refused reader"
    assert seats.in_use() == 2


def test_a_burst_of_new_readers_gets_as_many_tables_as_there_are_places(routed: LanterlooServer) -> None:
    """Ten readers open /tables/nap at once with room for two: two ids reserved, each with its place
    held for the redirect; the other eight get the tables-full page."""
    responses = fetch_at_once(routed.app, ["/tables/nap"] * 10)
    codes = sorted(r.code for r in responses)
    assert codes == [302] * 2 + [503] * 8
    ids = [parse_qs(urlparse(r.headers["Location"]).query)["table"][0] for r in responses if r.code == 302]
    assert reserved(routed.db_path) == 2 and routed.seats is not None and set(routed.seats.held) == set(ids)
    # a held table's page is let in, though every place is taken; a third reader is not
    assert routed.seats.admit(ids[0]) is not None and routed.seats.admit() is None


def test_the_render_route_gives_a_new_table_an_id_and_holds_its_place(routed: LanterlooServer) -> None:
    (response,) = fetch_at_once(routed.app, ["/voila/render/nap.ipynb?deal=nap.hoffmann.s0.n7"])
    assert response.code == 302
    location = response.headers["Location"]
    assert re.fullmatch(r"/voila/render/nap\.ipynb\?table=[\w-]{22}&deal=nap.hoffmann.s0.n7", location), location
    assert routed.seats is not None and routed.seats.in_use() == 1 and reserved(routed.db_path) == 1


def test_a_server_out_of_files_answers_a_table_page_with_a_busy_page_and_one_line(
    routed: LanterlooServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Out of files (an attack holding every connection), Voila's page could not read its notebook:
    a 500 and a traceback in the log for every reader who tried. Now the reader gets a 503 page that
    says to try again and that their game is safe, the log one line, and the place is given back."""
    (first,) = fetch_at_once(routed.app, ["/voila/render/nap.ipynb"])
    location = first.headers["Location"]

    async def out_of_files(self: object, path: str | None = None) -> None:
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    monkeypatch.setattr(server_pages.TornadoVoilaHandler, "get", out_of_files)
    with caplog.at_level(logging.WARNING):
        (page,) = fetch_at_once(routed.app, [location])
    body = page.body.decode()
    assert page.code == 503 and page.headers["Retry-After"] == "5"
    assert "<h1>The server is busy</h1>" in body and "Your game is safe" in body
    assert f'href="{location.replace("&", "&amp;")}">Try again' in body
    assert not any(r.exc_info for r in caplog.records), "no traceback in the log"
    lines = [r.getMessage() for r in caplog.records if "out of resources" in r.getMessage()]
    assert len(lines) == 1, lines  # the request's one access line, saying why
    assert lines[0].startswith("503 GET /voila/render/nap.ipynb?table="), lines
    assert lines[0].endswith(": out of resources (Too many open files)"), lines
    assert routed.seats is not None and routed.seats.in_use() == 0, "the page's place is given back"


# --- What a table page loads ----------------------------------------------------------------------


def test_the_card_sheet_is_served_for_the_table_pages_and_revalidated(routed: LanterlooServer) -> None:
    """The page links the plain card sheet (the kernels then leave it out of the table's widgets);
    the browser keeps it and asks again with its ETag, getting a 304 while the sheet is unchanged."""
    (first,) = fetch_at_once(routed.app, [SHEET_PATH])
    assert first.code == 200 and first.headers["Content-Type"].startswith("text/css")
    assert first.body.decode() == card_css() and ".loo-card-QH{" in first.body.decode()
    assert first.headers["Cache-Control"] == "no-cache"
    (again,) = fetch_at_once(routed.app, [SHEET_PATH], headers={"If-None-Match": first.headers["Etag"]})
    assert again.code == 304 and not again.body


def test_a_table_page_gets_no_mathjax_and_no_code_highlighting(routed: LanterlooServer) -> None:
    """Voila's page would fetch and start a megabyte of MathJax as the table is drawn: the page's
    configuration points its typesetter at a stand-in that does nothing, which the server serves."""
    config = page_config(
        {"federated_extensions": [{"name": "jupyterlab_pygments"}, {"name": "@jupyter-widgets/jupyterlab-manager"}]}
    )
    assert config["fullMathjaxUrl"] == server_pages.NO_MATH_PATH and config["mathjaxConfig"] not in (None, "null")
    assert [e["name"] for e in config["federated_extensions"]] == ["@jupyter-widgets/jupyterlab-manager"]
    assert routed.voila_configuration.page_config_hook is page_config
    (stand_in,) = fetch_at_once(
        routed.app, [f"{server_pages.NO_MATH_PATH}?config=none&amp;delayStartupUntil=configured"]
    )
    assert stand_in.code == 200 and stand_in.headers["Content-Type"].startswith("text/javascript")
    # what JupyterLab's MathJax 2 typesetter calls once the script has loaded, and when it typesets
    for name in ("Config", "Configured", "Queue", "StartupHook", "resetEquationNumbers"):
        assert f"{name}: function () {{}}" in stand_in.body.decode(), name


def test_voilas_startup_chunks_come_as_one_script_revalidated(routed: LanterlooServer) -> None:
    """The installed Voila's startup chunks, and the widget extensions', joined in their order into
    the script the page runs before Voila's own; none of the listed chunks is missing here (a newer
    Voila would be caught by the browser test, which sees what the page fetches)."""
    bundle, missing = startup_bundle(routed.static_paths, routed.labextensions_path)
    assert missing == []
    names = re.findall(rb"^/\* ([\w.]+\.js) \*/$", bundle, re.M)
    assert len(names) == len(server_pages.VOILA_STARTUP_CHUNKS) + len(server_pages.WIDGET_STARTUP_CHUNKS)
    assert names[: len(server_pages.VOILA_STARTUP_CHUNKS)] == [c.encode() for c in server_pages.VOILA_STARTUP_CHUNKS]
    assert names[-1].startswith(b"586.")  # the controls' chunks, last
    (first,) = fetch_at_once(routed.app, [server_pages.STARTUP_BUNDLE_PATH])
    assert first.code == 200 and first.headers["Content-Type"].startswith("text/javascript")
    assert first.body == bundle and first.headers["Cache-Control"] == "no-cache"
    (again,) = fetch_at_once(
        routed.app, [server_pages.STARTUP_BUNDLE_PATH], headers={"If-None-Match": first.headers["Etag"]}
    )
    assert again.code == 304 and not again.body
    page = (TEMPLATES / "voila/templates/lanterloo/index.html.j2").read_text()
    assert page.index('tables/voila-startup.js"></script>') < page.index(
        "{{ super() }}", page.index("block body_footer")
    )


def test_the_startup_bundle_takes_each_chunk_from_the_first_folder_and_names_the_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, extensions = tmp_path / "a", tmp_path / "b", tmp_path / "ext"
    for folder in (first, second, extensions / "@x/y/static"):
        folder.mkdir(parents=True)
    (first / "1.voila.js").write_text("one()")
    (second / "1.voila.js").write_text("shadowed()")
    (second / "2.voila.js").write_text("two()")
    (extensions / "@x/y/static/7.0ab1.js").write_text("seven()")
    monkeypatch.setattr(server_pages, "VOILA_STARTUP_CHUNKS", ("2.voila.js", "1.voila.js", "3.voila.js"))
    monkeypatch.setattr(server_pages, "WIDGET_STARTUP_CHUNKS", ("@x/y/static/7.*.js", "@x/y/static/8.*.js"))
    bundle, missing = startup_bundle([first, second], [tmp_path / "nowhere", extensions])
    text = bundle.decode()
    assert re.findall(r"\w+\(\)", text) == ["two()", "one()", "seven()"]
    assert "/* 7.0ab1.js */" in text and text.count(";\n") == 3  # each chunk ends its statement
    assert missing == ["3.voila.js", "@x/y/static/8.*.js"]


def test_the_pool_is_refilled_only_once_the_readers_page_is_drawn() -> None:
    config = server_config(tables=DEFAULT_TABLES, port=_free_port(), ip="127.0.0.1", max_idle=60)
    assert config.VoilaKernelManager.fill_delay == server_seats.REFILL_DELAY_SECONDS >= 3


# ----- pool refills while readers play (OneRefillAtATime, PlayClock) ----------------------------


class FakeStarts:
    """Voila's ``_initialize`` for a pool kernel, with the kernel's notebook run left to the test:
    each start returns at once (as Voila's does) with a render task that ends when ``warm(n)``."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.runs: list[asyncio.Future[None]] = []

    async def __call__(self, notebook_path: str, kernel_id: str | None = None, **_: Any) -> dict[str, Any]:
        self.started.append(kernel_id or f"new {notebook_path}")
        run: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.runs.append(run)
        return {"task": run, "renderer": None, "kernel_id": kernel_id or f"k{len(self.started)}"}


async def _settle() -> None:
    for _ in range(3):
        await asyncio.sleep(server_seats.OneRefillAtATime.POLL_SECONDS + 0.05)


def test_with_nobody_playing_the_pools_refill_all_at_once() -> None:
    async def scenario() -> tuple[list[str], int]:
        starts = FakeStarts()
        queue = server_seats.OneRefillAtATime(starts, playing=lambda: False)
        refills = [asyncio.ensure_future(queue(f"{n}.ipynb")) for n in ("nap", "irish-loo", "pam")]
        await _settle()
        started = list(starts.started)
        for run in starts.runs:
            run.set_result(None)
        await asyncio.gather(*refills)
        return started, queue.waited

    started, waited = run_async(scenario())
    assert started == ["new nap.ipynb", "new irish-loo.ipynb", "new pam.ipynb"] and waited == 0


def test_while_readers_play_a_refill_waits_until_the_one_warming_has_run_its_notebook() -> None:
    async def scenario() -> list[object]:
        starts = FakeStarts()
        queue = server_seats.OneRefillAtATime(starts, playing=lambda: True)
        first = asyncio.ensure_future(queue("nap.ipynb"))
        second = asyncio.ensure_future(queue("irish-loo.ipynb"))
        await _settle()
        seen: list[object] = [list(starts.started), first.done(), queue.waited]
        starts.runs[0].set_result(None)  # the first kernel has run its notebook: warm
        await _settle()
        seen += [list(starts.started), (await first)["kernel_id"]]
        starts.runs[1].set_result(None)
        seen.append((await second)["kernel_id"])
        return seen

    before, first_done, waited, after, first_id, second_id = run_async(scenario())
    assert before == ["new nap.ipynb"], "the second refill started while the first was warming"
    assert first_done is False, "a refill is handed over only once its kernel is warm"
    assert waited == 1
    assert after == ["new nap.ipynb", "new irish-loo.ipynb"]
    assert (first_id, second_id) == ("k1", "k2")


def test_a_refill_that_never_warms_holds_the_others_back_no_longer_than_its_turn() -> None:
    async def scenario() -> tuple[list[str], bool]:
        starts = FakeStarts()
        queue = server_seats.OneRefillAtATime(starts, playing=lambda: True, turn_seconds=0.2)
        stuck = asyncio.ensure_future(queue("nap.ipynb"))
        nxt = asyncio.ensure_future(queue("irish-loo.ipynb"))
        await _settle()
        starts.runs[1].set_result(None)
        await nxt
        still_running = not starts.runs[0].done()  # giving up its turn did not cancel its notebook
        starts.runs[0].set_result(None)
        await stuck
        return starts.started, still_running

    started, still_running = run_async(scenario())
    assert started == ["new nap.ipynb", "new irish-loo.ipynb"] and still_running


def test_a_restart_is_not_a_refill_and_never_waits() -> None:
    async def scenario() -> list[str]:
        starts = FakeStarts()
        queue = server_seats.OneRefillAtATime(starts, playing=lambda: True)
        warming = asyncio.ensure_future(queue("nap.ipynb"))  # warming, never warm
        await asyncio.sleep(0)
        await asyncio.wait_for(queue("nap.ipynb", "kernel-7"), 1)
        warming.cancel()
        return starts.started

    assert run_async(scenario()) == ["new nap.ipynb", "kernel-7"]


@pytest.mark.parametrize("wrap", [lambda t, c: v1(t, c, "shell"), as_json])
def test_the_play_clock_counts_a_readers_clicks_and_changes_not_a_page_opening(wrap: Any) -> None:
    clock = server_sockets.PlayClock()
    opening = [
        wrap("kernel_info_request", {}),
        wrap("comm_info_request", {"target_name": "jupyter.widget"}),
        wrap("comm_msg", {"comm_id": "c", "data": {"method": "request_states"}}),
        wrap("comm_msg", {"comm_id": "c", "data": {"method": "request_state"}}),
        b"\x00garbage",
    ]
    for message in opening:
        clock.note(message)
    assert not clock.playing(), "opening a page is not playing"
    clock.note(wrap("comm_msg", {"comm_id": "b", "data": {"method": "custom", "content": {"event": "click"}}}))
    assert clock.playing() and not clock.playing(within=0.0)
    clock.last = float("-inf")
    clock.note(wrap("comm_msg", {"comm_id": "t", "data": {"method": "update", "state": {"value": "x"}}}))
    assert clock.playing()


def test_the_server_queues_its_pool_refills_and_its_websocket_keeps_the_play_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preheating server's kernel manager starts pool kernels through OneRefillAtATime, fed by
    the clock that the kernel websocket handler keeps."""
    monkeypatch.setenv("JUPYTER_PATH", str(TEMPLATES))
    monkeypatch.setattr(LanterlooServer, "book_dir", tmp_path)
    config = server_config(tables=DEFAULT_TABLES, port=_free_port(), ip="127.0.0.1", max_idle=60)
    assert config.VoilaConfiguration.preheat_kernel is True
    config.VoilaKernelManager.kernel_pools_config = {"default": {"pool_size": 0}}  # start no kernel here
    app = LanterlooServer(config=config)
    app.initialize([])

    async def build() -> Any:
        app.init_settings()
        app.init_handlers()
        assert not any(app.kernel_manager._pools.values()), "a unit test started a kernel"
        return app.kernel_manager.__dict__.get("_initialize")

    initialize = run_async(build())
    assert isinstance(initialize, server_seats.OneRefillAtATime)
    assert initialize._playing == server_sockets.play_clock.playing
    assert server_sockets.TableKernelWebsocketHandler.on_message is not VoilaKernelWebsocketHandler.on_message


def test_tables_lists_every_table_with_its_chapter_and_reserves_nothing(routed: LanterlooServer) -> None:
    """``/tables/`` (issue 20) was a 404: it lists each game's table, a sentence and its chapter, even
    when every place is taken (it starts no table and reserves no id)."""
    seats = routed.seats
    assert seats is not None and seats.admit() and seats.admit()  # the server is full: the list still answers
    for response in fetch_at_once(routed.app, ["/tables/", "/tables"]):
        assert response.code == 200 and response.headers["Content-Type"].startswith("text/html")
        page = response.body.decode()
        assert "<title>The live tables · Lanterloo</title>" in page
        for notebook in DEFAULT_TABLES.glob("*.ipynb"):
            game = notebook.stem
            assert f'href="/tables/{game}"' in page and PAGES[game].title in page
            assert f'href="/{PAGES[game].chapter}"' in page
        assert 'href="/book/teaching.html#how-to-play"' in page
    assert reserved(routed.db_path) == 0


def test_tables_lists_only_the_tables_the_server_has(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "nap.ipynb").write_text("{}")
    (folder / "Not A Table.ipynb").write_text("{}")
    app = tornado.web.Application([(r"/tables/?", server_pages.TablesListHandler, {"tables": folder})])
    (response,) = fetch_at_once(app, ["/tables/"])
    page = response.body.decode()
    assert page.count('class="loo-table-link"') == 1 and 'href="/tables/nap"' in page
