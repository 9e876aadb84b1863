"""The least websocket client a preheated table kernel needs: connect, receive one message, close.

A preheated kernel waits for its reader's request details on a websocket (:mod:`widgets.kernel.request`).
The ``websockets`` package did this, and it held about 1 MB in every table kernel (issue 21: a
class's thirty kernels on one laptop); this client is the standard library alone. It speaks
RFC 6455 as far as that wait needs: the opening handshake (its ``Sec-WebSocket-Accept`` checked),
unmasked frames from the server (a text or binary message, fragmented or not), a pong for every
ping, and a close frame, sent and answered. ``wss://`` addresses go over TLS (``ssl`` is imported
only for them). Anything else the server sends, or a handshake it refuses, raises
:class:`WebSocketError`.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455, section 1.3
TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 1, 2, 0, 8, 9, 10
MAX_MESSAGE = 1 << 20  # request details are a few hundred bytes


class WebSocketError(Exception):
    """The server refused the handshake, broke the protocol, or closed the connection."""


class WebSocket:
    """One client connection (made by :func:`connect`)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def recv(self) -> str | bytes:
        """The next message (text as ``str``), answering pings on the way."""
        parts: list[bytes] = []
        kind = None
        while True:
            fin, opcode, payload = await self._frame()
            if opcode == PING:
                await self._send(PONG, payload)
            elif opcode == PONG:
                continue
            elif opcode == CLOSE:
                await self._send(CLOSE, payload[:2])
                raise WebSocketError(f"closed by the server ({int.from_bytes(payload[:2], 'big') or 'no code'})")
            elif opcode in (TEXT, BINARY, CONTINUATION) and (opcode == CONTINUATION) == (kind is not None):
                kind = kind if kind is not None else opcode
                parts.append(payload)
                if sum(map(len, parts)) > MAX_MESSAGE:
                    raise WebSocketError("a message over 1 MB")
                if fin:
                    data = b"".join(parts)
                    return data.decode() if kind == TEXT else data
            else:
                raise WebSocketError(f"unexpected frame (opcode {opcode})")

    async def close(self) -> None:
        """Send a normal close and drop the connection (without waiting for the server's answer)."""
        try:
            await self._send(CLOSE, struct.pack("!H", 1000))
        except (OSError, RuntimeError):
            pass
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except OSError:
            pass

    async def _frame(self) -> tuple[bool, int, bytes]:
        try:
            return await self._read_frame()
        except asyncio.IncompleteReadError:
            raise WebSocketError("the connection ended in the middle of a frame") from None

    async def _read_frame(self) -> tuple[bool, int, bytes]:
        head = await self.reader.readexactly(2)
        if head[1] & 0x80 or head[0] & 0x70:
            raise WebSocketError("a masked frame or reserved bits from the server")
        length = head[1] & 0x7F
        if length == 126:
            length = struct.unpack("!H", await self.reader.readexactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", await self.reader.readexactly(8))[0]
        if length > MAX_MESSAGE:
            raise WebSocketError("a frame over 1 MB")
        return bool(head[0] & 0x80), head[0] & 0x0F, await self.reader.readexactly(length)

    async def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)  # a client masks every frame it sends (RFC 6455, section 5.3)
        size = len(payload)  # control frames only: under 126 bytes
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(bytes([0x80 | opcode, 0x80 | size]) + mask + masked)
        await self.writer.drain()


async def connect(url: str, *, timeout: float, headers: dict[str, str] | None = None) -> WebSocket:
    """Open a websocket to ``url`` (``ws://`` or ``wss://``) within ``timeout`` seconds, sending ``headers``."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise WebSocketError(f"not a websocket address: {url}")
    secure = parts.scheme == "wss"
    port = parts.port or (443 if secure else 80)
    context = None
    if secure:
        import ssl  # only for wss: a table kernel talks to its own server, by default in plain ws

        context = ssl.create_default_context()
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {parts.path or '/'}{'?' + parts.query if parts.query else ''} HTTP/1.1",
        f"Host: {parts.netloc}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]

    async def handshake() -> WebSocket:
        reader, writer = await asyncio.open_connection(parts.hostname, port, ssl=context)
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            answer = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            status = answer[0].split(" ", 2)
            if len(status) < 2 or status[1] != "101":
                raise WebSocketError(f"the server answered {answer[0]!r}")
            fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in answer[1:] if line)}
            accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
            if fields.get("sec-websocket-accept") != accept:
                raise WebSocketError("the server's handshake does not answer ours")
        except BaseException:
            writer.close()
            raise
        return WebSocket(reader, writer)

    try:
        return await asyncio.wait_for(handshake(), timeout)
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
        raise WebSocketError(f"no handshake from {parts.netloc}: {error}") from None
