"""The kernel's side and the server's side of the request-details proof agree (issue 18, 1): a
preheated kernel sends ``widgets.server.sockets.kernel_proof`` of its id under its connection key, and
reconnects when its socket is dropped before the details came."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from websockets.asyncio.server import ServerConnection

from tests.conftest import run_async, websocket_server
from widgets.kernel import request
from widgets.server.sockets import PROOF_HEADER, kernel_proof

KERNEL = "0b8d0c4e-1f2a-4c3b-9d8e-7f6a5b4c3d2e"
KEY = b"a-connection-key"


@pytest.fixture
def checking_server() -> Iterator[tuple[int, list[str | None]]]:
    """Answers ``/voila/query/<kernel>`` only with the right proof; drops the first socket unanswered."""
    proofs: list[str | None] = []

    async def answer(connection: ServerConnection) -> None:
        proof = connection.request.headers.get(PROOF_HEADER) if connection.request else None
        proofs.append(proof)
        if len(proofs) == 1:
            return  # dropped before the details came: the kernel must connect again
        if proof == kernel_proof(KEY, KERNEL):
            await connection.send(json.dumps({"QUERY_STRING": "table=proven"}))

    with websocket_server(answer) as port:
        yield port, proofs


def test_the_kernel_proves_itself_and_connects_again_when_dropped(
    checking_server: tuple[int, list[str | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    port, proofs = checking_server
    import IPython

    kernel = SimpleNamespace(kernel=SimpleNamespace(session=SimpleNamespace(key=KEY)))
    monkeypatch.setattr(IPython, "get_ipython", lambda: kernel)
    monkeypatch.setattr(request, "RETRY_SECONDS", 0.05)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    monkeypatch.setenv("VOILA_SERVER_URL", "/")
    monkeypatch.setenv("VOILA_KERNEL_ID", KERNEL)
    for name in ("VOILA_APP_IP", "VOILA_WS_PROTOCOL", "VOILA_WS_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    run_async(asyncio.wait_for(request.request_arrived(), 10))
    assert os.environ.get("QUERY_STRING") == "table=proven"
    assert proofs == [kernel_proof(KEY, KERNEL)] * 2, "one socket dropped, then a second with the same proof"
    monkeypatch.delenv("QUERY_STRING", raising=False)
