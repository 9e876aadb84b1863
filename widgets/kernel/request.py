"""The reader's request, in a preheated table kernel: Voila's ``wait_for_request`` without Voila's server.

The server preheats a kernel per table (docs/serving.md): Voila runs each table notebook before anyone
asks for it. When a reader's request comes, the server sends its details (``QUERY_STRING``,
``SCRIPT_NAME``, ``SERVER_NAME``...) to the waiting kernel over a websocket at
``<server>/voila/query/<kernel id>``, and Voila's ``voila.utils.wait_for_request()`` copies them
into ``os.environ``. Outside preheating (``VOILA_PREHEAT`` is not ``True``) the kernel was started
for the request with those variables already set, and there is nothing to wait for.

:func:`request_arrived` does the same, with the same environment variables and the same endpoint,
but as a coroutine (Voila's blocks the cell until the request comes), over the standard library's
sockets (:mod:`widgets.kernel.ws_client`: the ``websockets`` package held about 1 MB in every table
kernel). Importing ``voila.utils``
in a kernel imports Voila's whole server stack (jupyter_server, jupyterlab_server): about two
seconds of CPU per kernel, and with a kernel per table starting at once it made the first table
after a server start take 30-36 s instead of 4 s on a two-core machine.
``tests/server/test_request.py`` runs this coroutine and Voila's own function against one fake
server and checks that they set the same variables, so a Voila that changes the protocol fails a
test.

The Lanterloo server answers that endpoint for the kernel alone (issue 18): the kernel sends an
HMAC of its id under its connection key in the ``X-Lanterloo-Kernel-Proof`` header
(``widgets.server.sockets.kernel_proof``; ``tests/server/test_server_request.py`` checks both sides agree).
A socket dropped before the details came is opened again (the server keeps them), and a socket is
renewed every :data:`RECV_SECONDS`; a server that refuses the kernel, or :data:`MAX_DROPS` drops in
a row, end the wait with no details, so the table deals a new game rather than wait for good.
"""

from __future__ import annotations

import json
import logging
import os

log = logging.getLogger("lanterloo.widgets.kernel.request")


# How long one socket waits for the details before the kernel connects again (the server keeps
# details that came while no socket was open: nothing is lost), and how many times in a row a
# socket may be dropped before they came. A server that refuses the kernel (or none at all) is
# not asked again. Either way the kernel then deals with no request details (a new table) and
# says so in its log, rather than leave its reader at "Dealing the cards..." for good.
RECV_SECONDS = 600.0
MAX_DROPS = 12
RETRY_SECONDS = 1.0
PROOF_HEADER = "X-Lanterloo-Kernel-Proof"


def _proof(kernel_id: str) -> str | None:
    """The kernel's proof that it is the kernel ``kernel_id`` (``widgets.server.sockets.kernel_proof``): an
    HMAC of its id under its connection key, which the server alone also knows."""
    try:
        import hashlib
        import hmac

        from IPython import get_ipython

        key = get_ipython().kernel.session.key
    except Exception:  # not in a kernel
        return None
    return hmac.new(key, kernel_id.encode(), hashlib.sha256).hexdigest() if key else None


async def _request_info(url: str) -> str | None:
    import asyncio

    from widgets.kernel import ws_client  # only when preheated: a kernel started for its request never needs it

    proof = _proof(url.rsplit("/", 1)[-1])
    headers = {PROOF_HEADER: proof} if proof else None
    drops = 0
    while drops < MAX_DROPS:
        try:
            websocket = await ws_client.connect(url, timeout=5, headers=headers)
        except (TimeoutError, OSError, ws_client.WebSocketError) as error:
            log.warning("no request details from %s: %s", url, error)
            return None
        try:
            message = await asyncio.wait_for(websocket.recv(), RECV_SECONDS)
            return message if isinstance(message, str) else message.decode()
        except TimeoutError:  # no reader yet: connect again
            continue
        except (OSError, ws_client.WebSocketError) as error:
            drops += 1
            log.warning("request-details socket %s dropped (%d of %d): %s", url, drops, MAX_DROPS, error)
            await asyncio.sleep(RETRY_SECONDS)
        finally:
            await websocket.close()
    log.error("gave up waiting for request details from %s: the table deals with none", url)
    return None


def preheated() -> bool:
    """Whether this kernel was started ahead of any reader (Voila sets ``VOILA_PREHEAT``)."""
    return os.getenv("VOILA_PREHEAT", "False") != "False"


def _endpoint(url: str | None) -> str:
    if url is None:
        protocol = os.getenv("VOILA_WS_PROTOCOL", "ws")
        ip = os.getenv("VOILA_APP_IP", "127.0.0.1")
        port = os.getenv("VOILA_APP_PORT", "8866")
        base = os.getenv("VOILA_WS_BASE_URL", os.getenv("VOILA_SERVER_URL", "/"))
        url = f"{protocol}://{ip}:{port}{base}voila/query"
    return f"{url}/{os.getenv('VOILA_KERNEL_ID')}"


def _apply(message: str | None) -> None:
    if message is not None:
        for key, value in json.loads(message).items():
            os.environ[key] = value


async def request_arrived(url: str | None = None) -> None:
    """In a preheated kernel, wait for the reader's request and put its details in ``os.environ``.

    A coroutine, for a task on the kernel's own event loop (``widgets.kernel.table_router.table_for_request``):
    the cell that starts the task ends at once, so the notebook finishes preheating before any
    request and Voila can send the whole page the moment a reader asks for it.

    ``url`` is the server's request-details endpoint; by default it is made, as Voila makes it,
    from ``VOILA_WS_PROTOCOL``, ``VOILA_APP_IP``, ``VOILA_APP_PORT``, ``VOILA_WS_BASE_URL`` (else
    ``VOILA_SERVER_URL``) and ``VOILA_KERNEL_ID``.
    """
    if preheated():
        _apply(await _request_info(_endpoint(url)))
