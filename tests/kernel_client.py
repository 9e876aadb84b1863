"""A reader's browser at a live table, without the browser: a small kernel-websocket client.

:class:`TableClient` does, over plain HTTP and one websocket, what a reader's page does when it
opens a table served by ``python -m widgets.server`` (Voila 0.5.13, ipywidgets 8):

1. ``GET /tables/<name>`` and follow the redirect to ``/voila/render/<name>.ipynb?table=<id>``;
2. read the kernel's id from the page: Voila puts its page config, ``kernelId`` included, in
   ``<script id="jupyter-config-data" type="application/json">``, and each displayed widget's
   model id in a ``<script type="application/vnd.voila.cell-output+json">``;
3. ``GET /api/kernels/<id>`` (the widget manager's ``KernelAPI.getKernelModel``), then open
   ``/api/kernels/<id>/channels?session_id=<uuid>`` offering the subprotocol
   ``v1.kernel.websocket.jupyter.org``, as ``@jupyterlab/services`` 7 does; jupyter_server picks
   it whenever it is offered, so the server speaks the binary v1 framing to a browser. A client
   that offers no subprotocol gets the legacy framing (JSON text, or the 4-byte-offset binary
   form for a message with buffers); ``protocol="legacy"`` speaks that one;
4. send a ``kernel_info_request`` (the kernel connection does, once connected);
5. fetch every widget's state as ipywidgets 8's ``KernelWidgetManager._loadFromKernel`` does:
   open a ``jupyter.widget.control`` comm (metadata ``{"version": "1.0.0"}``), send it
   ``{"method": "request_states"}``, take the ``update_states`` reply (every widget model in the
   kernel, its binary buffers placed by ``buffer_paths``) and close the comm. If the control comm
   does not answer, the manager falls back to ``_loadFromKernelModels``: a ``comm_info_request``
   for the target ``jupyter.widget``, then ``{"method": "request_state"}`` to each comm; so can
   this client (``loader="comm_info"``).

From then on every message received is kept in :attr:`TableClient.frames`, decoded and also as
the text that came over the wire, and :attr:`TableClient.widgets` holds each widget model's
state, kept current from ``comm_open``, ``update`` and ``echo_update`` messages and
``comm_close``. A click is what a ``Button`` view sends (``comm_msg`` with
``{"method": "custom", "content": {"event": "click"}}``); a changed value is
``{"method": "update", "state": {...}, "buffer_paths": []}``. Closing with ``shutdown=True``
posts to ``/voila/api/shutdown/<kernel id>``, as the page's ``beforeunload`` beacon does.

The client is asyncio-only, with tornado's HTTP and websocket clients, so that a benchmark can run
many readers at once in one event loop::

    client = await TableClient.open(base, "three-card-loo", "deal=l3.peel.s0.n12")
    msg_id = await client.click(client.choices()[0])
    await client.settled(msg_id)
    await client.close(shutdown=True)
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar
from urllib.parse import parse_qs, urlsplit

from tornado.httpclient import AsyncHTTPClient, HTTPRequest, HTTPResponse
from tornado.websocket import WebSocketClientConnection, websocket_connect

from widgets.views.pacing import PACES

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
WIDGET_TARGET = "jupyter.widget"
CONTROL_TARGET = "jupyter.widget.control"
WIDGET_PROTOCOL_VERSION = "2.1.0"  # ipywidgets 8's widget message protocol
CONTROL_PROTOCOL_VERSION = "1.0.0"  # ipywidgets 8's control comm
MESSAGE_PROTOCOL_VERSION = "5.3"  # the Jupyter messaging protocol
MODEL_PREFIX = "IPY_MODEL_"

_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
_OUTPUT = re.compile(r'<script type="application/vnd\.voila\.cell-output\+json">(.*?)</script>', re.S)

Protocol = Literal["v1", "legacy"]
Loader = Literal["control", "comm_info"]
T = TypeVar("T")


class TableClientError(RuntimeError):
    """The table could not be opened or did not answer as a page would expect."""


@dataclass(frozen=True)
class Frame:
    """One message received on the kernel websocket, decoded, with the text that came over the wire."""

    channel: str
    header: dict[str, Any]
    parent_header: dict[str, Any]
    metadata: dict[str, Any]
    content: dict[str, Any]
    buffers: tuple[bytes, ...]
    raw: str  # the websocket message itself, as text (binary frames decoded as UTF-8, errors replaced)

    @property
    def msg_type(self) -> str:
        return str(self.header.get("msg_type", ""))

    @property
    def parent_id(self) -> str | None:
        found = (self.parent_header or {}).get("msg_id")
        return str(found) if found else None

    @property
    def comm_id(self) -> str | None:
        found = self.content.get("comm_id")
        return str(found) if found else None

    @property
    def data(self) -> dict[str, Any]:
        """A comm message's data (``content["data"]``); empty for other messages."""
        data = self.content.get("data")
        return data if isinstance(data, dict) else {}

    def text(self) -> str:
        """Every decoded part as JSON text with no escaping of non-ASCII, and the buffers as UTF-8."""
        parts = [self.channel, self.header, self.parent_header, self.metadata, self.content]
        text = json.dumps(parts, ensure_ascii=False, default=str)
        return "\n".join([text, *(b.decode("utf-8", "replace") for b in self.buffers)])

    def contains(self, needle: str) -> bool:
        """Whether ``needle`` occurs in the frame, as sent or once decoded."""
        return needle in self.raw or needle in self.text()


# ----- wire forms ----------------------------------------------------------------------------


def _json(data: bytes | str) -> dict[str, Any]:
    value = json.loads(data) if data else {}
    return value if isinstance(value, dict) else {}


def decode_frame(message: str | bytes, protocol: Protocol) -> Frame:
    """A websocket message from the server as a :class:`Frame` (v1: binary; legacy: JSON or binary)."""
    if isinstance(message, str):
        msg = json.loads(message)
        return Frame(
            channel=str(msg.get("channel") or ""),
            header=msg.get("header") or {},
            parent_header=msg.get("parent_header") or {},
            metadata=msg.get("metadata") or {},
            content=msg.get("content") or {},
            buffers=(),
            raw=message,
        )
    raw = message.decode("utf-8", "replace")
    if protocol == "v1":
        # 8-byte little-endian count of offsets, the offsets, then: channel, header, parent header,
        # metadata, content and any buffers, each running to the next offset.
        count = int.from_bytes(message[:8], "little")
        offsets = [int.from_bytes(message[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
        parts = [message[offsets[i] : offsets[i + 1]] for i in range(count - 1)]
        if len(parts) < 5:
            raise TableClientError(f"a v1 frame with {len(parts)} parts")
        return Frame(
            channel=parts[0].decode("utf-8"),
            header=_json(parts[1]),
            parent_header=_json(parts[2]),
            metadata=_json(parts[3]),
            content=_json(parts[4]),
            buffers=tuple(parts[5:]),
            raw=raw,
        )
    # legacy binary: 4-byte big-endian count of parts and their offsets; the first part is the JSON message
    nbufs = int.from_bytes(message[:4], "big")
    offsets = [int.from_bytes(message[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(nbufs)] + [len(message)]
    parts = [message[offsets[i] : offsets[i + 1]] for i in range(nbufs)]
    msg = _json(parts[0])
    return Frame(
        channel=str(msg.get("channel") or ""),
        header=msg.get("header") or {},
        parent_header=msg.get("parent_header") or {},
        metadata=msg.get("metadata") or {},
        content=msg.get("content") or {},
        buffers=tuple(parts[1:]),
        raw=raw,
    )


def encode_message(
    protocol: Protocol,
    channel: str,
    header: dict[str, Any],
    content: dict[str, Any],
    metadata: dict[str, Any] | None = None,
    parent_header: dict[str, Any] | None = None,
    buffers: Iterable[bytes] = (),
) -> str | bytes:
    """A message to the kernel in the wire form of ``protocol``."""
    metadata, parent_header, buffers = metadata or {}, parent_header or {}, list(buffers)
    if protocol == "v1":
        parts = [json.dumps(p).encode() for p in (header, parent_header, metadata, content)] + buffers
        name = channel.encode()
        offsets = [8 * (len(parts) + 3), 8 * (len(parts) + 3) + len(name)]
        for part in parts:
            offsets.append(offsets[-1] + len(part))
        head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
        return head + name + b"".join(parts)
    msg = {"channel": channel, "header": header, "parent_header": parent_header, "metadata": metadata}
    msg["content"] = content
    if not buffers:
        return json.dumps(msg)
    first = json.dumps(msg).encode()
    chunks = [first, *buffers]
    offsets = [4 * (len(chunks) + 1)]
    for chunk in chunks[:-1]:
        offsets.append(offsets[-1] + len(chunk))
    return len(chunks).to_bytes(4, "big") + b"".join(o.to_bytes(4, "big") for o in offsets) + b"".join(chunks)


def _put_buffers(state: dict[str, Any], paths: list[list[Any]], buffers: tuple[bytes, ...]) -> None:
    """Put each binary buffer at its path in ``state`` (ipywidgets' ``_put_buffers``)."""
    for path, buffer in zip(paths, buffers, strict=False):
        target: Any = state
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = buffer


def _page_parts(html: str) -> tuple[dict[str, Any], list[str]]:
    """Voila's page config and the model ids of the widgets the page displays."""
    found = _CONFIG.search(html)
    config = json.loads(found.group(1)) if found else {}
    roots = []
    for match in _OUTPUT.finditer(html):
        try:
            output = json.loads(match.group(1))
        except ValueError:
            continue
        view = (output.get("data") or {}).get("application/vnd.jupyter.widget-view+json")
        if view and view.get("model_id"):
            roots.append(str(view["model_id"]))
    return config, roots


# ----- the client ----------------------------------------------------------------------------


class TableClient:
    """One reader at one live table: the page, the kernel websocket, and every widget's state."""

    def __init__(
        self,
        base: str,
        url: str,
        page: str,
        kernel_id: str,
        roots: list[str],
        protocol: Protocol,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.base = base.rstrip("/")
        self.headers = dict(headers or {})  # sent with every request (a cookie a proxy routes by, say)
        self.url = url  # the page's final address, which carries ?table=<id>
        self.page = page  # the page's HTML
        self.kernel_id = kernel_id
        self.roots = roots  # model ids of the widgets the page displays
        self.protocol = protocol
        self.session_id = uuid.uuid4().hex
        self.frames: list[Frame] = []
        self._by_parent: dict[str, list[Frame]] = {}  # msg_id -> the frames it caused, in order
        self.widgets: dict[str, dict[str, Any]] = {}
        self.kernel_info: dict[str, Any] = {}
        self._ws: WebSocketClientConnection | None = None
        self.compressed = False  # whether the server took the offer to compress the websocket
        self._reader: asyncio.Task[None] | None = None
        self._tick = asyncio.Event()
        self.closed = False  # the websocket is closed (by either side)
        self._left = False  # close() was called

    # ----- opening and closing --------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        base: str,
        table: str,
        query: str = "",
        *,
        protocol: Protocol = "v1",
        loader: Loader = "control",
        timeout: float = 120.0,
        headers: dict[str, str] | None = None,
    ) -> TableClient:
        """Open ``/tables/<table>[?query]`` as a reader's page does, with every widget's state loaded;
        ``headers`` go with every request the client makes."""
        address = f"{base.rstrip('/')}/tables/{table}" + (f"?{query}" if query else "")
        response = await fetch(address, timeout=timeout, headers=headers)
        html = response.body.decode("utf-8", "replace")
        config, roots = _page_parts(html)
        kernel_id = config.get("kernelId")
        if response.code != 200 or not kernel_id:
            raise TableClientError(f"{address} gave {response.code} with no kernel id: {html[:500]!r}")
        client = cls(base, response.effective_url, html, str(kernel_id), roots, protocol, headers)
        try:
            await client.connect(timeout=timeout)
            await client.load_widgets(loader, timeout=timeout)
            # A preheated table kernel shows "Dealing the cards..." until the request's details
            # reach it, then puts the table in its place: a reader sees the table only then.
            await client.wait_for(lambda: not client.dealing(), timeout, "the table to be dealt")
            # The computer players' moves all at once, as the browser tests keep them (widgets.views.pacing):
            # a click is then done when the kernel is idle, not after the moves are laid out.
            for pace in client.find("ToggleButtonsModel", "loo-pace"):
                await client.settled(await client.set_state(pace, index=list(PACES).index("Instant")))
        except BaseException:
            await client.close(shutdown=True)  # the page's kernel would otherwise wait to be culled
            raise
        return client

    @property
    def table_id(self) -> str | None:
        """The table's id in the page's address (``?table=<id>``)."""
        found = parse_qs(urlsplit(self.url).query).get("table")
        return found[-1] if found else None

    async def connect(self, *, timeout: float = 60.0) -> None:
        """Ask for the kernel's model, open the kernel websocket and wait for its ``kernel_info_reply``."""
        model = await fetch(f"{self.base}/api/kernels/{self.kernel_id}", timeout=timeout, headers=self.headers)
        if model.code != 200:
            raise TableClientError(f"no kernel {self.kernel_id}: {model.code}")
        ws_base = "ws" + self.base.removeprefix("http")
        request = HTTPRequest(
            f"{ws_base}/api/kernels/{self.kernel_id}/channels?session_id={self.session_id}",
            headers={**self.headers, "Origin": "{0.scheme}://{0.netloc}".format(urlsplit(self.base))},
            connect_timeout=timeout,
            request_timeout=timeout,
        )
        subprotocols = [V1_PROTOCOL] if self.protocol == "v1" else None
        # A browser offers to compress the websocket's messages (permessage-deflate); so does this client.
        self._ws = await websocket_connect(
            request, subprotocols=subprotocols, max_message_size=64 * 2**20, compression_options={}
        )
        self.compressed = "permessage-deflate" in self._ws.headers.get("Sec-WebSocket-Extensions", "")
        chosen = self._ws.selected_subprotocol
        if (chosen == V1_PROTOCOL) != (self.protocol == "v1"):
            raise TableClientError(f"asked for the {self.protocol} protocol, the server chose {chosen!r}")
        self._reader = asyncio.create_task(self._read())
        reply = await self.request("kernel_info_request", {}, timeout=timeout)
        self.kernel_info = reply.content

    async def close(self, shutdown: bool = False) -> None:
        """Leave the table: with ``shutdown``, as the page's beacon does (the kernel is shut down);
        else just drop the socket, as a page that crashed would. Closing twice does nothing."""
        if self._left:
            return
        self._left = True
        if shutdown:
            response = await fetch(
                f"{self.base}/voila/api/shutdown/{self.kernel_id}",
                method="POST",
                body="_xsrf=",
                headers={**self.headers, "Content-Type": "application/x-www-form-urlencoded"},
            )
            if response.code >= 400 and response.code != 404:  # 404: the kernel was gone already
                raise TableClientError(f"the shutdown beacon got {response.code}")
        if self._ws is not None:
            self._ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 10)
            except TimeoutError:
                self._reader.cancel()
        self.closed = True

    async def __aenter__(self) -> TableClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close(shutdown=True)

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            while True:
                message = await self._ws.read_message()
                if message is None:
                    break
                frame = decode_frame(message, self.protocol)
                self.frames.append(frame)
                if frame.parent_id:
                    self._by_parent.setdefault(frame.parent_id, []).append(frame)
                self._apply(frame)
                self._notify()
        finally:
            self.closed = True
            self._notify()

    def _notify(self) -> None:
        self._tick.set()
        self._tick = asyncio.Event()

    # ----- sending --------------------------------------------------------------------------

    async def send(
        self,
        msg_type: str,
        content: dict[str, Any],
        channel: str = "shell",
        *,
        metadata: dict[str, Any] | None = None,
        buffers: Iterable[bytes] = (),
    ) -> str:
        """Send one message to the kernel, as the page would; return its ``msg_id``."""
        if self._ws is None or self.closed:
            raise TableClientError("the kernel websocket is closed")
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "msg_type": msg_type,
            "username": "",
            "session": self.session_id,
            "date": datetime.now(UTC).isoformat(),
            "version": MESSAGE_PROTOCOL_VERSION,
        }
        wire = encode_message(self.protocol, channel, header, content, metadata, None, buffers)
        await self._ws.write_message(wire, binary=isinstance(wire, bytes))
        return msg_id

    async def request(
        self, msg_type: str, content: dict[str, Any], channel: str = "shell", *, timeout: float = 30.0
    ) -> Frame:
        """Send a request and wait for its reply (the ``*_reply`` whose parent is the request)."""
        msg_id = await self.send(msg_type, content, channel)
        return await self.wait_for(
            lambda: next((f for f in self.replies_to(msg_id) if f.msg_type.endswith("_reply")), None),
            timeout,
            f"a reply to {msg_type}",
        )

    async def comm_msg(self, comm_id: str, data: dict[str, Any], buffers: Iterable[bytes] = ()) -> str:
        return await self.send("comm_msg", {"comm_id": comm_id, "data": data}, buffers=buffers)

    async def click(self, model_id: str) -> str:
        """What a ``Button`` view sends when clicked (disabled or not: the view would not, a script can)."""
        return await self.comm_msg(model_id, {"method": "custom", "content": {"event": "click"}})

    async def set_state(self, model_id: str, **state: Any) -> str:
        """What a view sends when the reader changes a synced value (a toggle, a text box)."""
        return await self.comm_msg(model_id, {"method": "update", "state": state, "buffer_paths": []})

    # ----- waiting --------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 30.0, what: str = "") -> T:
        """Wait until ``predicate()`` is truthy (checked after every message received) and return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = predicate()
            if found:
                return found
            if self.closed:
                raise TableClientError(f"the kernel websocket closed while waiting for {what or predicate}")
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"waited {timeout} s for {what or predicate}")
            tick = self._tick
            try:
                await asyncio.wait_for(tick.wait(), remaining)
            except TimeoutError:
                pass

    async def settled(self, msg_id: str, timeout: float = 30.0) -> list[Frame]:
        """Wait until the kernel has handled message ``msg_id`` (its ``idle`` status); return what it caused."""

        def idle() -> bool:
            return any(
                f.msg_type == "status" and f.content.get("execution_state") == "idle" for f in self.replies_to(msg_id)
            )

        await self.wait_for(idle, timeout, f"the kernel to finish with {msg_id}")
        return self.replies_to(msg_id)

    def first(self, match: Callable[[Frame], bool]) -> Frame | None:
        return next((f for f in self.frames if match(f)), None)

    def replies_to(self, msg_id: str) -> list[Frame]:
        """Every frame received whose parent is message ``msg_id``."""
        return list(self._by_parent.get(msg_id, ()))

    def search(self, needle: str) -> list[Frame]:
        """Every frame received in which ``needle`` occurs."""
        return [f for f in self.frames if f.contains(needle)]

    # ----- widget states --------------------------------------------------------------------

    async def load_widgets(self, loader: Loader = "control", *, timeout: float = 30.0) -> None:
        """Fetch every widget model's state, as ipywidgets 8's ``_loadFromKernel`` does."""
        if loader == "control":
            comm_id = uuid.uuid4().hex
            await self.send(
                "comm_open",
                {"comm_id": comm_id, "target_name": CONTROL_TARGET, "data": {}},
                metadata={"version": CONTROL_PROTOCOL_VERSION},
            )
            await self.comm_msg(comm_id, {"method": "request_states"})
            await self.wait_for(
                lambda: self.first(lambda f: f.comm_id == comm_id and f.data.get("method") == "update_states"),
                timeout,
                "the widgets' states",
            )
            await self.send("comm_close", {"comm_id": comm_id, "data": {}})
            return
        reply = await self.request("comm_info_request", {"target_name": WIDGET_TARGET}, timeout=timeout)
        asked: dict[str, str] = {}
        for comm_id in reply.content.get("comms", {}):
            asked[comm_id] = await self.comm_msg(comm_id, {"method": "request_state"})

        def answered() -> bool:
            return all(
                any(f.comm_id == c and f.data.get("method") == "update" for f in self.replies_to(m))
                for c, m in asked.items()
            )

        await self.wait_for(answered, timeout, "the state of every widget")

    def _apply(self, frame: Frame) -> None:
        """Keep :attr:`widgets` as a widget manager keeps its models."""
        if frame.msg_type == "comm_open" and frame.content.get("target_name") == WIDGET_TARGET:
            state = dict(frame.data.get("state") or {})
            _put_buffers(state, frame.data.get("buffer_paths") or [], frame.buffers)
            if frame.comm_id:
                self.widgets[frame.comm_id] = state
        elif frame.msg_type == "comm_msg":
            method = frame.data.get("method")
            if method in ("update", "echo_update") and frame.comm_id:
                state = dict(frame.data.get("state") or {})
                _put_buffers(state, frame.data.get("buffer_paths") or [], frame.buffers)
                self.widgets.setdefault(frame.comm_id, {}).update(state)
            elif method == "update_states":
                states = {key: dict(entry) for key, entry in (frame.data.get("states") or {}).items()}
                for entry in states.values():
                    entry["state"] = dict(entry.get("state") or {})
                _put_buffers(states, frame.data.get("buffer_paths") or [], frame.buffers)
                for key, entry in states.items():
                    self.widgets.setdefault(key, {}).update(entry["state"])
        elif frame.msg_type == "comm_close" and frame.comm_id:
            self.widgets.pop(frame.comm_id, None)

    def children(self, model_id: str) -> list[str]:
        """The model ids of a box's children."""
        kids = self.widgets.get(model_id, {}).get("children") or []
        return [str(k).removeprefix(MODEL_PREFIX) for k in kids]

    def descendants(self, model_id: str) -> Iterator[str]:
        """``model_id`` and every widget under it (children, and a tab's or accordion's pages)."""
        yield model_id
        for child in self.children(model_id):
            yield from self.descendants(child)

    def displayed(self) -> list[str]:
        """Every widget the page shows (under the displayed roots), in order."""
        return [w for root in self.roots for w in self.descendants(root)]

    def find(self, model_name: str | None = None, dom_class: str | None = None, **attrs: Any) -> list[str]:
        """The model ids, among the displayed widgets, of a kind, with a CSS class and these trait values."""
        found = []
        for model_id in self.displayed():
            state = self.widgets.get(model_id, {})
            if model_name is not None and state.get("_model_name") != model_name:
                continue
            if dom_class is not None and dom_class not in (state.get("_dom_classes") or ()):
                continue
            if all(state.get(key) == value for key, value in attrs.items()):
                found.append(model_id)
        return found

    def choices(self) -> list[str]:
        """The reader's live choices: the primary buttons in the ``.loo-choices`` box, in order."""
        return [
            child
            for box in self.find("HBoxModel", "loo-choices")
            for child in self.children(box)
            if self.widgets.get(child, {}).get("_model_name") == "ButtonModel"
            and self.widgets[child].get("button_style") == "primary"
        ]

    def button(self, dom_class: str) -> str:
        """The one displayed button with CSS class ``dom_class`` (``loo-next``, ``loo-hint``...)."""
        found = self.find("ButtonModel", dom_class)
        if len(found) != 1:
            raise TableClientError(f"{len(found)} buttons with class {dom_class}")
        return found[0]

    def enabled(self, model_id: str) -> bool:
        return not self.widgets.get(model_id, {}).get("disabled", False)

    def html_values(self) -> list[str]:
        """The value of every displayed HTML widget."""
        return [str(self.widgets[w].get("value", "")) for w in self.find("HTMLModel")]

    def dealing(self) -> bool:
        """Whether the page still shows the "Dealing the cards..." box in place of its table."""
        return any('class="loo-dealing"' in v for v in self.html_values())

    def board(self) -> str:
        """The board's HTML (the HTML widget that draws ``<div class="loo-board">``); empty if none."""
        return next((v for v in self.html_values() if 'class="loo-board"' in v), "")

    def state_text(self, exclude: Callable[[str, dict[str, Any]], bool] | None = None) -> str:
        """Every widget state the client holds (displayed or not) as one text, unescaped, to search in."""
        kept = {k: v for k, v in self.widgets.items() if exclude is None or not exclude(k, v)}
        return json.dumps(kept, ensure_ascii=False, default=lambda b: bytes(b).decode("utf-8", "replace"))


async def fetch(
    url: str,
    *,
    method: str = "GET",
    body: str | bytes | None = None,
    headers: dict[str, str] | None = None,
    follow_redirects: bool = True,
    timeout: float = 120.0,
) -> HTTPResponse:
    """One HTTP request with a client of its own (tornado's shared client queues past 10 at once);
    an error status is returned, not raised."""
    client = AsyncHTTPClient(force_instance=True)
    try:
        return await client.fetch(
            HTTPRequest(
                url,
                method=method,
                body=body,
                headers=headers,
                follow_redirects=follow_redirects,
                connect_timeout=timeout,
                request_timeout=timeout,
            ),
            raise_error=False,
        )
    finally:
        client.close()


def masked_frame(payload: bytes, opcode: int = 0x2) -> bytes:
    """One client-to-server websocket frame (clients must mask theirs)."""
    head = bytes([0x80 | opcode])
    size = len(payload)
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 1 << 16:
        head += bytes([0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + size.to_bytes(8, "big")
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
