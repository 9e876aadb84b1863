"""The kernel websocket and the request-details socket, as a reader's page may use them.

What a page sends its kernel is checked where it enters (:class:`TableKernelWebsocketHandler`):
its frame must fit its declared parts before anything parses it (:func:`frame_problem`), it is at
most :data:`MAX_MESSAGE_BYTES`, it comes on a channel a page uses, it is of a type allowed, it is
not a repeat, and a page opens no comm but the widget manager's control comm. What the kernel
sends the page is filtered (:func:`must_withhold`: no traceback, no stderr), and a page that does
not read is dropped once :data:`MAX_PENDING_BYTES` wait for it. The request-details socket is the
kernel's alone (:class:`KernelRequestInfoHandler`, :func:`kernel_proof`). Each kernel websocket's
opening and closing is noted (:class:`Departures`), so that the server can free the table of a page
that vanished without a word once it has not come back for ``--reconnect-grace`` seconds.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import logging
import time
from collections.abc import Callable
from typing import Any, Literal

import tornado.httputil
import tornado.iostream
import tornado.routing
import tornado.web
import tornado.websocket
from voila.request_info_handler import RequestInfoSocketHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from widgets.server.logs import quiet_log

log = logging.getLogger("lanterloo.server")


# Readers who acted this recently are playing: pool refills then start one at a time.
PLAY_QUIET_SECONDS = 5.0


# Messages a reader's browser must never receive (docs/serving.md: tracebacks and stderr reach the browser).
_BLOCKED_TYPES = {"error"}


def _message_parts(message: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The header and content of a kernel message, either way, in any of the wire forms; (None, None) if unreadable."""
    try:
        if isinstance(message, dict):
            return message.get("header"), message.get("content")
        if isinstance(message, str):
            msg = json.loads(message)
            return msg.get("header"), msg.get("content")
        if isinstance(message, bytes):
            # v1 kernel websocket protocol: 8-byte count, 8-byte offsets; parts are
            # channel, header, parent header, metadata, content, buffers...
            count = int.from_bytes(message[:8], "little")
            if 5 <= count < 1_000:
                offsets = [int.from_bytes(message[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
                if offsets[-1] <= len(message):
                    header = json.loads(message[offsets[1] : offsets[2]])
                    content = json.loads(message[offsets[4] : offsets[5]])
                    return header, content
            # legacy binary form: 4-byte big-endian count and offsets; first part is the JSON message
            nbufs = int.from_bytes(message[:4], "big")
            if 1 <= nbufs < 1_000:
                start = int.from_bytes(message[4:8], "big")
                end = int.from_bytes(message[8:12], "big") if nbufs > 1 else len(message)
                msg = json.loads(message[start:end])
                return msg.get("header"), msg.get("content")
    except (ValueError, IndexError, AttributeError):
        pass
    return None, None


def must_withhold(message: Any) -> bool:
    """True for a kernel message that would show a reader a traceback or stderr output."""
    header, content = _message_parts(message)
    if not header:
        return False
    msg_type = header.get("msg_type")
    if msg_type in _BLOCKED_TYPES:
        return True
    if msg_type == "stream" and (content or {}).get("name") == "stderr":
        return True
    if msg_type == "execute_reply" and (content or {}).get("status") == "error":
        return True
    return False


class PlayClock:
    """When a reader last acted at a table: a click, or a value changed, sent from a page to its
    kernel (a ``comm_msg`` whose method is ``custom`` or ``update``). Opening a page sends other
    messages, and does not count."""

    def __init__(self) -> None:
        self.last = float("-inf")

    def note(self, message: Any) -> None:
        header, content = _message_parts(message)
        if (header or {}).get("msg_type") == "comm_msg":
            method = ((content or {}).get("data") or {}).get("method")
            if method in ("custom", "update"):
                self.last = time.monotonic()

    def playing(self, within: float = PLAY_QUIET_SECONDS) -> bool:
        """Whether a reader acted in the last ``within`` seconds."""
        return time.monotonic() - self.last < within


play_clock = PlayClock()


# How long a table whose page's websocket closed without a word (a crashed laptop, dropped Wi-Fi)
# keeps its kernel for the page to come back: a network that blinks for a few seconds reconnects
# well within it, and a page gone for good frees its place about this long after (--reconnect-grace).
RECONNECT_GRACE_SECONDS = 75.0


class Departures:
    """The table kernels whose pages' websockets have all closed, and since when.

    A page that leaves properly tells the server (its beacon shuts the kernel down at once); one
    that vanishes only drops its websocket. Each kernel websocket reports its opening
    (:meth:`opened`) and its closing (:meth:`closed`); a kernel left with no socket for
    ``grace`` seconds is :meth:`due` to be shut down, and any socket opened to it meanwhile (the
    same page reconnecting) keeps it. ``clock`` is injected for the tests.
    """

    def __init__(
        self, grace: float = RECONNECT_GRACE_SECONDS, clock: Callable[[], float] = time.monotonic, idle: float = 900.0
    ) -> None:
        self.grace = grace
        self.idle = idle  # --max-idle: how long a page served may go without opening its websocket
        self._clock = clock
        self.sockets: dict[str, int] = {}  # kernel id -> its websockets open now
        self.left: dict[str, float] = {}  # kernel id -> when its last websocket closed
        self.waiting: dict[str, float] = {}  # kernel id -> when its page was served, no websocket opened since

    def served(self, kernel_id: str) -> None:
        """A page was given the kernel ``kernel_id``: it is due in ``idle`` seconds unless a websocket
        opens to it. One GET of a seat's page whose websocket never opened kept its kernel for good:
        the kernel's redrawing counted as activity, and the culler never took it."""
        if kernel_id not in self.sockets:
            self.waiting.setdefault(kernel_id, self._clock())

    def opened(self, kernel_id: str) -> None:
        self.sockets[kernel_id] = self.sockets.get(kernel_id, 0) + 1
        self.left.pop(kernel_id, None)
        self.waiting.pop(kernel_id, None)

    def connected(self, kernel_id: str) -> bool:
        """Whether a page's websocket to ``kernel_id`` is open now."""
        return self.sockets.get(kernel_id, 0) > 0

    def closed(self, kernel_id: str) -> None:
        open_now = self.sockets.get(kernel_id, 0) - 1
        if open_now > 0:
            self.sockets[kernel_id] = open_now
            return
        self.sockets.pop(kernel_id, None)
        self.left[kernel_id] = self._clock()

    def due(self) -> list[str]:
        """Kernels whose pages have been gone ``grace`` seconds or more, or were served ``idle`` seconds
        ago and never opened a websocket; each is forgotten as it is named."""
        return [kernel_id for kernel_id, _never in self.due_why()]

    def due_why(self) -> list[tuple[str, bool]]:
        """:meth:`due`'s kernels, each with whether its page never opened a websocket (True: served
        ``idle`` seconds ago) rather than went (False: gone ``grace`` seconds), so that the log says
        which; each is forgotten as it is named."""
        now = self._clock()
        gone = [kernel_id for kernel_id, since in self.left.items() if now - since >= self.grace]
        for kernel_id in gone:
            del self.left[kernel_id]
        never = [kernel_id for kernel_id, since in self.waiting.items() if now - since >= self.idle]
        for kernel_id in never:
            del self.waiting[kernel_id]
        return [(kernel_id, False) for kernel_id in gone] + [(kernel_id, True) for kernel_id in never]


departures = Departures()


V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
# The largest message a page may send its kernel (a click, a changed value, the widget manager's
# requests are a few hundred bytes); tornado closes a socket that sends more.
MAX_MESSAGE_BYTES = 1 << 20
# Parts a message may have in a binary frame: the channel and the message's four, plus buffers.
MAX_FRAME_PARTS = 64
# The comms a page may open (ipywidgets' widget manager opens its control comm once per load),
# how many per connection, and how large such a message may be.
PAGE_COMM_TARGETS = frozenset({"jupyter.widget.control"})
MAX_COMM_OPENS = 8
MAX_COMM_OPEN_BYTES = 4096
# What the server may hold for a page that does not read its socket; past it the connection is
# dropped (a client that sent request_states and read nothing grew the server by 800 MB in 25 s).
MAX_PENDING_BYTES = 8 << 20


def frame_problem(message: Any, v1: bool) -> str | None:
    """What is wrong with a websocket message from a page, before anything parses it; None if
    nothing. A binary frame's declared part count and offsets must fit in the frame (jupyter_server
    reads as many offsets as the first bytes declare: one 16-byte frame declaring 5x10^7 of them
    froze the whole server), in the form the connection speaks: v1 (an 8-byte little-endian count,
    then the offsets) or the legacy form (a 4-byte big-endian count, then the offsets)."""
    size = len(message) if isinstance(message, (bytes, str)) else 0
    if size > MAX_MESSAGE_BYTES:
        return f"a message of {size} bytes (at most {MAX_MESSAGE_BYTES})"
    if not isinstance(message, bytes):
        return None if isinstance(message, str) else "a message of no known kind"
    width, order, least = (8, "little", 6) if v1 else (4, "big", 1)
    if size < width:
        return "a binary frame too short to hold its part count"
    count = int.from_bytes(message[:width], order)  # type: ignore[arg-type]
    if not least <= count <= MAX_FRAME_PARTS or width * (count + 1) > size:
        return f"a binary frame of {size} bytes declaring {count} parts"
    offsets = [int.from_bytes(message[width * i : width * (i + 1)], order) for i in range(1, count + 1)]  # type: ignore[arg-type]
    if offsets[0] < width * (count + 1) or any(b < a for a, b in itertools.pairwise(offsets)) or offsets[-1] > size:
        return "a binary frame whose offsets do not fit it"
    return None


def incoming_parts(message: Any, v1: bool) -> tuple[str | None, dict[str, Any] | None, dict[str, Any] | None]:
    """The channel, header and content of a message from a page that :func:`frame_problem` passed,
    read in the form the connection speaks (a frame read in the other form could hide its type)."""
    try:
        if isinstance(message, str):
            msg = json.loads(message)
            return msg.get("channel"), msg.get("header"), msg.get("content")
        width = 8 if v1 else 4
        order: Literal["little", "big"] = "little" if v1 else "big"
        count = int.from_bytes(message[:width], order)
        offsets = [int.from_bytes(message[width * i : width * (i + 1)], order) for i in range(1, count + 1)]
        if v1:  # channel, header, parent header, metadata, content, buffers...
            channel = message[offsets[0] : offsets[1]].decode()
            return channel, json.loads(message[offsets[1] : offsets[2]]), json.loads(message[offsets[4] : offsets[5]])
        end = offsets[1] if count > 1 else len(message)
        msg = json.loads(message[offsets[0] : end])
        return msg.get("channel"), msg.get("header"), msg.get("content")
    except (ValueError, IndexError, AttributeError, UnicodeDecodeError):
        return None, None, None


# How many messages a page may send its kernel: a token bucket per kernel websocket, refilled at
# MESSAGES_PER_SECOND up to MESSAGE_BURST. A reader's page sends a message a click or a key (auto-
# repeat is about 30 a second) and some dozens as it loads; a page that sent malformed updates as fast
# as it could held every other reader's click for up to 700 ms (bench/attack.py updates).
MESSAGES_PER_SECOND = 50.0
MESSAGE_BURST = 300


class MessageRate:
    """A token bucket: :meth:`take` is True for a message within the rate, False for one past it.
    ``clock`` is injected for the tests.

    >>> ticks = iter([0.0, 0.0, 0.0, 0.0, 0.05])
    >>> rate = MessageRate(per_second=20.0, burst=2, clock=lambda: next(ticks))
    >>> [rate.take(), rate.take(), rate.take(), rate.take()]  # the burst, then nothing till it refills
    [True, True, False, True]
    """

    def __init__(
        self,
        per_second: float = MESSAGES_PER_SECOND,
        burst: int = MESSAGE_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second, self.burst, self._clock = per_second, burst, clock
        self._tokens, self._at = float(burst), clock()

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.per_second)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class Floods:
    """The messages dropped for going past a websocket's :class:`MessageRate`, told in one line per
    client address a minute at most, with how many were dropped since the last."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.dropped: dict[str, int] = {}  # client -> dropped since its last line
        self._told: dict[str, float] = {}  # client -> when its last line was written

    def note(self, client: str) -> None:
        self.dropped[client] = self.dropped.get(client, 0) + 1
        now = self._clock()
        if now - self._told.get(client, float("-inf")) < 60:
            return
        if len(self._told) > 4096:  # forget the clients not told of in the last minute
            self._told = {c: at for c, at in self._told.items() if now - at < 60}
        self._told[client] = now
        count = self.dropped.pop(client)
        log.warning(
            "dropped %d messages from %s sent faster than %g a second to one table (one line a minute)",
            count,
            client,
            MESSAGES_PER_SECOND,
        )


floods = Floods()


PAGE_CHANNELS = frozenset({"shell", "control", "stdin"})
# Message ids a kernel websocket remembers, to drop a message sent twice (the kernel refuses a
# repeated signature with a traceback in the server's log).
RECENT_MESSAGE_IDS = 1000


# Kernel websockets one table's kernel may have open at once: a page opens one, a reload or a second
# tab another while the first closes.
MAX_SOCKETS_PER_TABLE = 4
# ZeroMQ sockets the server opens for each kernel websocket (shell, control, iopub, stdin), those it
# keeps for each kernel whatever its pages do (its activity watch, Voila's run of the notebook), and
# the files each websocket takes (its connection, and the ZeroMQ sockets' own).
ZMQ_PER_SOCKET, ZMQ_PER_KERNEL, FILES_PER_SOCKET, FILES_PER_KERNEL = 4, 8, 12, 24


def socket_budget(zmq_sockets: int, open_files: int, kernels: int) -> int:
    """Kernel websockets the server may hold open at once: below what its ZeroMQ context allows
    (``zmq_sockets``, 1,023 by default) and its open-files limit (``open_files``), once ``kernels``
    kernels (live tables and preheated ones) have what they keep. 260 websockets to one kernel took
    every socket of the context: every new reader then got a 500, "Too many open files".

    >>> socket_budget(1023, 20000, 46)
    163
    >>> socket_budget(1023, 2048, 46)
    57
    """
    by_zmq = (zmq_sockets - ZMQ_PER_KERNEL * kernels) // ZMQ_PER_SOCKET
    by_files = (open_files - 256 - FILES_PER_KERNEL * kernels) // FILES_PER_SOCKET
    return max(8, min(by_zmq, by_files))


class KernelSockets:
    """The kernel websockets open (or being opened), by kernel, by client address and in all, within
    :data:`MAX_SOCKETS_PER_TABLE`, ``per_client`` and ``total``. A socket takes its place before
    anything is awaited (:meth:`take`), so a burst cannot overshoot, and gives it back once
    (:meth:`give_back`)."""

    def __init__(self, total: int = 160, per_client: int = 64) -> None:
        self.total, self.per_client = total, per_client
        self.by_kernel: dict[str, int] = {}
        self.by_client: dict[str, int] = {}

    def open_now(self) -> int:
        return sum(self.by_kernel.values())

    def take(self, kernel_id: str, client: str) -> str | None:
        """Take a place for a socket to ``kernel_id`` from ``client``; None, or why there is none."""
        if self.by_kernel.get(kernel_id, 0) >= MAX_SOCKETS_PER_TABLE:
            return f"the table has {MAX_SOCKETS_PER_TABLE} connections open already"
        if self.by_client.get(client, 0) >= self.per_client:
            return f"the address has {self.per_client} table connections open already"
        if self.open_now() >= self.total:
            return f"the server has {self.total} table connections open, its most"
        self.by_kernel[kernel_id] = self.by_kernel.get(kernel_id, 0) + 1
        self.by_client[client] = self.by_client.get(client, 0) + 1
        return None

    def give_back(self, kernel_id: str, client: str) -> None:
        for counts, key in ((self.by_kernel, kernel_id), (self.by_client, client)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)


kernel_sockets = KernelSockets()


def bound_kernel_sockets(manager: Any, kernels: int, per_client_tables: int | None) -> KernelSockets:
    """Set :data:`kernel_sockets`' bounds for a server of at most ``kernels`` kernels whose kernel
    manager is ``manager`` (its ZeroMQ context), at the open-files limit the process has now; a
    client address may hold two sockets for each table it may have (16 at least)."""
    import resource

    import zmq

    try:
        zmq_sockets = int(manager.context.get(zmq.MAX_SOCKETS))
    except Exception:  # no context yet: ZeroMQ's default
        zmq_sockets = 1023
    open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    open_files = open_files if open_files != resource.RLIM_INFINITY else 1 << 20
    kernel_sockets.total = socket_budget(zmq_sockets, open_files, kernels)
    kernel_sockets.per_client = max(16, 2 * (per_client_tables or kernel_sockets.total))
    return kernel_sockets


TABLES_FULL_TEXT = (
    "The tables are full just now: this server has as many table connections open as it can hold. "
    "Try again in a minute.\n"
)


class TableKernelWebsocketHandler(VoilaKernelWebsocketHandler):  # type: ignore[misc]
    """Voila's kernel websocket with TCP no-delay and a filter on what reaches the browser."""

    _place: tuple[str, str] | None = None  # (kernel id, client) of the place taken in kernel_sockets

    async def get(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
        client = self.request.remote_ip or "?"
        refused = kernel_sockets.take(kernel_id, client)  # before any await: see KernelSockets
        if refused is not None:
            self.failure = f"refused a kernel websocket: {refused}"  # on the request's one access line
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(TABLES_FULL_TEXT)
            return
        self._place = (kernel_id, client)
        try:
            await super().get(kernel_id, *args, **kwargs)
        finally:
            if self.ws_connection is None or self.ws_connection.is_closing():  # never opened, or closed at once
                self._give_back()

    def _give_back(self) -> None:
        if self._place is not None:
            kernel_sockets.give_back(*self._place)
            self._place = None

    async def open(self, kernel_id: str) -> None:
        self.set_nodelay(True)
        stream = getattr(self.ws_connection, "stream", None)
        if stream is not None:  # a write past this raises StreamBufferFullError (write_message below)
            stream.max_write_buffer_size = MAX_PENDING_BYTES
        await super().open(kernel_id)
        if self.ws_connection is not None and not self.ws_connection.is_closing():
            self._departure_noted = kernel_id
            departures.opened(kernel_id)

    _comm_opens = 0
    _departure_noted: str | None = None

    def on_close(self) -> None:
        self._give_back()
        if self._departure_noted is not None:  # before anything that could raise
            departures.closed(self._departure_noted)
            self._departure_noted = None
        super().on_close()

    _rate: MessageRate | None = None

    def on_message(self, message: Any) -> Any:
        client = self.request.remote_ip
        rate = self._rate
        if rate is None:
            rate = self._rate = MessageRate()
        if not rate.take():  # past what any reader sends: dropped before anything reads it
            floods.note(client or "?")
            return None
        v1 = self.selected_subprotocol == V1_PROTOCOL
        problem = frame_problem(message, v1)
        if problem is not None:  # nothing has parsed it: refuse it, and the connection that sent it
            quiet_log.warning(client, "closed a kernel websocket from %s that sent %s", client, problem)
            self.close(1008, "message refused")
            return None
        channel, header, content = incoming_parts(message, v1)
        msg_type = (header or {}).get("msg_type")
        msg_id = (header or {}).get("msg_id")
        allowed = getattr(self.kernel_manager, "allowed_message_types", None) or ()
        # What jupyter_server would refuse with a warning a message, refused here with a line a
        # client a minute at most (ClientLog): one client grew the log by 420 KB a second.
        if not isinstance(header, dict) or not isinstance(msg_type, str) or not isinstance(msg_id, str):
            quiet_log.warning(client, "refused a message with no readable header from %s", client)
            return None
        if channel is not None and channel not in PAGE_CHANNELS:
            quiet_log.warning(client, "refused a message on channel %.40r from %s", channel, client)
            return None
        if allowed and msg_type not in allowed:
            quiet_log.warning(
                client, 'Received message of type "%.80s", which is not allowed. Ignoring. (from %s)', msg_type, client
            )
            return None
        recent: dict[str, None] = self.__dict__.setdefault("_recent_ids", {})  # the last ids, in order
        if msg_id in recent:
            quiet_log.warning(client, "refused a message sent twice (%.40s) from %s", msg_id, client)
            return None
        recent[msg_id] = None
        if len(recent) > RECENT_MESSAGE_IDS:
            del recent[next(iter(recent))]
        if msg_type == "comm_open":
            # A page opens no comm but the widget manager's control comm: a page that opened widget
            # comms could grow its kernel without limit (thousands of 200 KB HTML models).
            self._comm_opens += 1
            target = (content or {}).get("target_name")
            too_many = self._comm_opens > MAX_COMM_OPENS or len(message) > MAX_COMM_OPEN_BYTES
            if target not in PAGE_COMM_TARGETS or too_many:
                quiet_log.warning(
                    client,
                    "refused a comm_open (target %.80r, %d bytes, number %d) from %s",
                    target,
                    len(message),
                    self._comm_opens,
                    client,
                )
                return None
        play_clock.note(message)
        return super().on_message(message)

    def write_message(self, message: Any, binary: bool = False) -> Any:
        if must_withhold(message):
            header, content = _message_parts(message)
            log.warning(
                "withheld %s message from the browser: %s",
                (header or {}).get("msg_type"),
                json.dumps(content)[:2000],
            )
            return None
        connection = self.ws_connection
        if connection is None or connection.is_closing():
            return None  # the page has gone: nothing to write to, and nothing worth a traceback
        try:
            sent = super().write_message(message, binary)
        except tornado.iostream.StreamBufferFullError:
            client = self.request.remote_ip
            quiet_log.warning(
                client,
                "dropped a kernel websocket from %s that read nothing while %d MB waited for it",
                client,
                MAX_PENDING_BYTES >> 20,
            )
            connection._abort()  # at once: a closing handshake would queue behind what waits
            return None
        except tornado.websocket.WebSocketClosedError:
            return None
        if isinstance(sent, asyncio.Future):  # a write that fails once the page has gone: no traceback
            sent.add_done_callback(_quietly)
        return sent


def _quietly(future: asyncio.Future[Any]) -> None:
    """Take a finished write's exception (a closed socket), so that asyncio does not log it."""
    if not future.cancelled():
        future.exception()


PROOF_HEADER = "X-Lanterloo-Kernel-Proof"


def kernel_proof(key: bytes, kernel_id: str) -> str:
    """What a kernel shows to get its reader's request details: an HMAC of its id under the key of
    its connection file, which only the kernel and the server know (``widgets.kernel.request`` makes it)."""
    return hmac.new(key, kernel_id.encode(), hashlib.sha256).hexdigest()


class KernelRequestInfoHandler(RequestInfoSocketHandler):  # type: ignore[misc]
    """``/voila/query/<kernel id>``, where a preheated kernel waits for its reader's request details
    (:mod:`widgets.kernel.request`), for the kernel itself only.

    Voila's own handler took any client with any id, and one page that opened two sockets to it
    and closed them in the wrong order made it drop another kernel's waiter: that table hung on
    "Dealing the cards..." for good, and its kernel's shutdown then broke the next one. Here

    * the id must be a live kernel's, and the request must carry the kernel's proof
      (:data:`PROOF_HEADER`, :func:`kernel_proof`): anything else gets a 403 before any websocket
      is opened, so a browser (which sees kernel ids, never their keys) cannot wait here at all;
    * a kernel that connects again replaces its own earlier socket, and a socket that closes
      removes itself only, never another's waiter;
    * the details are sent through Voila's ``send_updates`` (kept for a kernel not connected yet),
      which this class shares with Voila's handler; kept details of kernels gone are dropped.
    """

    _kernel_id: str | None = None

    async def get(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
        manager = self.settings.get("kernel_manager")
        key: bytes | None = None
        try:
            if manager is not None and kernel_id in manager:
                key = manager.get_kernel(kernel_id).session.key
        except Exception:  # a kernel going away as we look
            key = None
        proof = self.request.headers.get(PROOF_HEADER, "")
        if not key or not hmac.compare_digest(proof.encode(), kernel_proof(key, kernel_id).encode()):
            self.failure = f"refused a request-details socket for kernel {kernel_id[:36]}"  # on the access line
            self.set_status(403)
            self.finish()
            return
        await super().get(kernel_id, *args, **kwargs)

    def open(self, kernel_id: str) -> None:
        self._kernel_id = kernel_id
        manager = self.settings.get("kernel_manager")
        if manager is not None:  # forget the details kept for kernels gone
            live = set(manager.list_kernel_ids())
            for gone in [k for k in RequestInfoSocketHandler._cache if k not in live]:
                RequestInfoSocketHandler._cache.pop(gone, None)
        super().open(kernel_id)

    def on_close(self) -> None:
        if self._kernel_id is not None and RequestInfoSocketHandler._waiters.get(self._kernel_id) is self:
            del RequestInfoSocketHandler._waiters[self._kernel_id]
