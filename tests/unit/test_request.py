"""widgets.request speaks Voila's request-details protocol: run against one fake server, it sets
exactly the variables that the installed Voila's own ``wait_for_request`` sets."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
from collections.abc import Iterator

import pytest
from websockets.asyncio.server import ServerConnection, serve

from widgets.request import wait_for_request

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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    asked: list[str] = []
    ready = threading.Event()
    stop: list[asyncio.Future[None]] = []

    async def answer(connection: ServerConnection) -> None:
        path = connection.request.path if connection.request else ""
        asked.append(path)
        if path == f"/voila/query/{KERNEL}":
            await connection.send(json.dumps(DETAILS))

    async def run() -> None:
        async with serve(answer, "127.0.0.1", port):
            stop.append(asyncio.get_running_loop().create_future())
            ready.set()
            await stop[0]

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(run(),), daemon=True)
    thread.start()
    assert ready.wait(10)
    yield port, asked
    loop.call_soon_threadsafe(stop[0].set_result, None)
    thread.join(10)


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
    wait_for_request()
    ours = {name: os.environ.get(name) for name in DETAILS}
    assert ours == DETAILS

    from voila.utils import wait_for_request as voilas

    preheated(monkeypatch, port)
    voilas()
    assert {name: os.environ.get(name) for name in DETAILS} == ours
    assert asked == [f"/voila/query/{KERNEL}"] * 2, "both asked the same endpoint"


def test_not_preheated_it_returns_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.setenv("VOILA_APP_PORT", "1")  # nothing listens there: it must not even try
    wait_for_request()


def test_no_server_means_no_details_and_no_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    preheated(monkeypatch, port)
    wait_for_request()
    assert "QUERY_STRING" not in os.environ
