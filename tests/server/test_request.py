"""widgets.kernel.request speaks Voila's request-details protocol: run against one fake server, it sets
exactly the variables that the installed Voila's own ``wait_for_request`` sets, and a preheated
table cell deals the table the request names once it comes."""

from __future__ import annotations

import asyncio
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as ipw
import pytest
from websockets.asyncio.server import ServerConnection

from tests.conftest import run_async, websocket_server
from widgets.kernel import request
from widgets.kernel.request import request_arrived
from widgets.kernel.table_router import table_for_request
from widgets.store.sqlite import TableStore
from widgets.views.live_table import LiveTable

KERNEL = "0b8d0c4e-1f2a-4c3b-9d8e-7f6a5b4c3d2e"
DETAILS = {
    "QUERY_STRING": "table=AbCdEfGhIjKlMnOpQrStUv&deal=l3.peel.s0.n12",
    "SCRIPT_NAME": "/voila/render/three-card-loo.ipynb",
    "SERVER_NAME": "127.0.0.1",
}
VARIABLES = ("VOILA_PREHEAT", "VOILA_APP_PORT", "VOILA_SERVER_URL", "VOILA_KERNEL_ID", "VOILA_APP_IP",
             "VOILA_WS_PROTOCOL", "VOILA_WS_BASE_URL", *DETAILS)  # fmt: skip


@pytest.fixture
def voila_query_server() -> Iterator[tuple[int, list[str]]]:
    """A websocket server answering ``/voila/query/<kernel>`` as Voila's does; yields its port and the paths asked."""
    asked: list[str] = []

    async def answer(connection: ServerConnection) -> None:
        path = connection.request.path if connection.request else ""
        asked.append(path)
        if path == f"/voila/query/{KERNEL}":
            await connection.send(json.dumps(DETAILS))

    with websocket_server(answer) as port:
        yield port, asked


def preheated(monkeypatch: pytest.MonkeyPatch, port: int) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    monkeypatch.setenv("VOILA_SERVER_URL", "/")
    monkeypatch.setenv("VOILA_KERNEL_ID", KERNEL)


def test_the_same_details_as_voilas_own(
    voila_query_server: tuple[int, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    port, asked = voila_query_server
    preheated(monkeypatch, port)
    run_async(request_arrived())
    ours = {name: os.environ.get(name) for name in DETAILS}
    assert ours == DETAILS

    from voila.utils import wait_for_request as voilas

    preheated(monkeypatch, port)
    voilas()
    assert {name: os.environ.get(name) for name in DETAILS} == ours
    assert asked == [f"/voila/query/{KERNEL}"] * 2, "both asked the same endpoint"


def test_not_preheated_it_returns_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.delenv("QUERY_STRING", raising=False)

    async def asked(url: str) -> str:
        raise AssertionError(f"a kernel started for its request asked {url} for it")

    monkeypatch.setattr(request, "_request_info", asked)
    run_async(asyncio.wait_for(request_arrived(), 1))
    assert "QUERY_STRING" not in os.environ


def test_no_server_means_no_details_and_no_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    preheated(monkeypatch, port)
    run_async(request_arrived())
    assert "QUERY_STRING" not in os.environ


def test_a_preheated_table_shows_dealing_then_deals_the_requests_table(
    voila_query_server: tuple[int, list[str]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The notebook's cell returns a box at once (so Voila can send the whole page before any
    request); when the request comes, the box holds the table its query string names."""
    port, _asked = voila_query_server
    preheated(monkeypatch, port)
    store = TableStore(tmp_path / "games.sqlite3")
    table_id = store.new_table("three-card-loo")
    monkeypatch.setitem(DETAILS, "QUERY_STRING", f"table={table_id}&deal=l3.peel.s0.n12")  # what the server sends
    monkeypatch.setenv("LANTERLOO_DB", str(tmp_path / "games.sqlite3"))

    async def open_the_page() -> tuple[list[str], ipw.Widget]:
        box = table_for_request("three-card-loo", "peel")
        before = [type(w).__name__ for w in box.children]
        assert "Dealing the cards" in box.children[0].value
        for _ in range(200):  # the task deals once the request's details come
            await asyncio.sleep(0.02)
            if isinstance(box.children[0], LiveTable):
                break
        return before, box.children[0]

    before, table = run_async(open_the_page())
    assert before == ["HTML"]
    assert isinstance(table, LiveTable) and table.model.table_id == table_id
    # the code's hand (Peel's single, shown and settled), then the hand after it, with a decision
    assert table.model.records[0]["deal"]["hands"][0] and table.model.hand_lines()[0].reason == "single"
    assert table.model._history[0]["code"] == "l3.peel.s0.n12" and table.model.legal()


def test_the_websocket_client_answers_pings_and_joins_fragments() -> None:
    """widgets.kernel.ws_client (the standard library's sockets, in place of the ``websockets`` package):
    the server pings before it answers, sends the details in three fragments, then closes; the
    client answers the ping (the server's pong waiter resolves), returns the message whole, and
    a closed connection is an error, not a hang."""
    from widgets.kernel import ws_client

    ponged: list[bool] = []

    async def answer(connection: ServerConnection) -> None:
        waiter = await connection.ping(b"are you there")
        await connection.send(iter(['{"QUERY_STRING": ', '"table=abc', '"}']))  # fragments
        await asyncio.wait_for(waiter, 5)
        ponged.append(True)
        await connection.close()

    async def client(port: int) -> tuple[str | bytes, str]:
        socket_ = await ws_client.connect(f"ws://127.0.0.1:{port}/voila/query/k", timeout=5, headers={"X-A": "b"})
        message = await socket_.recv()
        try:
            await asyncio.wait_for(socket_.recv(), 5)
            closed = "no error"
        except ws_client.WebSocketError as error:
            closed = str(error)
        await socket_.close()
        return message, closed

    with websocket_server(answer) as port:
        message, closed = run_async(client(port))
    assert json.loads(message) == {"QUERY_STRING": "table=abc"} and ponged == [True]
    assert closed.startswith("closed by the server (1000")


def test_the_websocket_client_reports_a_refused_handshake() -> None:
    from websockets.http11 import Response

    from widgets.kernel import ws_client

    async def answer(connection: ServerConnection) -> None:  # pragma: no cover - refused before it
        await connection.send("never")

    def refuse(connection: ServerConnection, request: object) -> Response:
        return connection.respond(403, "not this kernel\n")

    async def client(port: int) -> str:
        try:
            await ws_client.connect(f"ws://127.0.0.1:{port}/voila/query/k", timeout=5)
        except ws_client.WebSocketError as error:
            return str(error)
        return "connected"

    from websockets.asyncio.server import serve

    async def run() -> str:
        async with serve(answer, "127.0.0.1", 0, process_request=refuse) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            return await client(port)

    assert "403" in run_async(run())
