"""Serve the built book and the live tables from one process, on one origin.

``python -m widgets.server`` starts a subclass of Voila (STACK.md, "Voila")
that:

* serves the static book at the site root, after Voila's own routes, so the
  tables live at ``/voila/render/<table>.ipynb`` and ``/tables/<table>`` is a
  short link to them;
* gives Voila a root holding only the table notebooks, with no directory
  listing and no contents API;
* preheats a kernel per table, culls idle kernels, and lets a closing page
  shut its kernel down;
* runs at most ``--max-tables`` table kernels at once (:class:`TableSeats`): past that, a
  request for a table gets a plain "The tables are full" page (503) instead of a kernel;
* sets TCP no-delay on the kernel websocket (Nagle's algorithm otherwise adds
  ~40 ms to every click);
* drops error and stderr messages on their way to the browser, so no
  traceback ever reaches a reader, whatever a kernel does;
* uses the ``lanterloo`` template, which links nothing from a CDN;
* makes a table page quick to open: the page links the card sheet (:class:`CardSheetHandler`)
  rather than each table sending it, loads a do-nothing stand-in for MathJax (:data:`NO_MATH_JS`),
  gets the chunks of Voila's front end in one script rather than 68 (:data:`VOILA_STARTUP_CHUNKS`),
  and the pool of preheated kernels is refilled only once the reader's page has had the machine
  to itself (:data:`REFILL_DELAY_SECONDS`). A preheated kernel has run its notebook to the end
  before anyone asks (:func:`widgets.live_table.table_for_request`), so the page is sent whole
  at once and the kernel deals while the browser loads the page's scripts. While readers are
  playing, the pools refill one kernel at a time (:class:`OneRefillAtATime`), so a class that
  opened its tables together keeps a core for its clicks;
* gives every new table an id: ``/tables/<table>`` (and a table's Voila page asked for without
  one) is redirected to the same page with ``?table=<id>``, a fresh unguessable id reserved in
  the tables' database (``--db``, see :mod:`widgets.store`), so the address bar holds the id from
  the first response, a reload at any moment comes back to the same game, no script has to
  rewrite the address, and a kernel can tell a new table (reserved, never played) from a forged
  or unknown id (not in the database); the kernel saves the game under that id and resumes it
  when the address is opened again. A deal code in the query (``?deal=...``) is kept.

The server withstands its own readers (issue 18): every bound below is enforced where the input
enters, and each has a test that attacks it over the real websocket or HTTP
(``tests/browser/test_withstand.py``; ``bench/attack.py`` measures them):

* the request-details socket ``/voila/query/<kernel id>`` is the kernel's alone: it must show an
  HMAC of its id under its connection key (:class:`KernelRequestInfoHandler`), else 403;
* a kernel websocket message is at most :data:`MAX_MESSAGE_BYTES` (1 MB; tornado's
  ``websocket_max_message_size`` too), and a binary frame's part count (at most
  :data:`MAX_FRAME_PARTS`) and offsets must fit the frame before anything parses it
  (:func:`frame_problem`); otherwise the socket is closed;
* a page opens no comm but ``jupyter.widget.control`` (:data:`PAGE_COMM_TARGETS`), at most
  :data:`MAX_COMM_OPENS` per connection and :data:`MAX_COMM_OPEN_BYTES` each; messages with no
  readable header, on a channel a page does not use, of a type not allowed, or repeating one of
  the connection's last :data:`RECENT_MESSAGE_IDS` ids are dropped before the kernel;
* a kernel websocket whose page does not read is dropped once :data:`MAX_PENDING_BYTES` (8 MB)
  wait for it, and writing to a closed socket logs nothing;
* the HTTP server waits ``--request-timeout`` seconds (:data:`DEFAULT_REQUEST_TIMEOUT`, 30) for a
  request's headers, its body, and on an idle connection; reads at most :data:`MAX_HEADER_BYTES`
  (96 KB) of head and :data:`MAX_BODY_BYTES` (64 KB) of body; answers an address over
  :data:`MAX_URI_BYTES` (8 KB) with a plain 414; and, out of files, pauses accepting
  (:func:`quiet_accept_handler`) rather than log a traceback a turn;
* one client address holds at most ``--max-tables-per-client`` places (:func:`default_share`:
  all of a server's up to 8, else three quarters of ``--max-tables`` and at least 8);
* a request whose ``Host`` is not the server's (``localhost``, the host name, an IP address of
  this machine, or an ``--allowed-host`` name; :func:`host_allowed`) gets a plain 400, websockets
  included; a NUL in a book path is a 404;
* what the server logs about a client, its access log of failed requests included
  (:func:`log_request`, each address cut to 300 characters), goes through :class:`ClientLog`: at
  most :data:`LOG_LINES_PER_CLIENT_MINUTE` (60) lines a client address a minute, then one summary line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import hashlib
import hmac
import html
import itertools
import json
import logging
import math
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import tornado.httputil
import tornado.iostream
import tornado.routing
import tornado.web
import tornado.websocket
from jupyter_core.utils import ensure_async
from traitlets.config import Config
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from widgets.card_style import PAGE_SHEET_ENV, SHEET_PATH, card_css
from widgets.safety import KERNEL_LOG_DAYS, log_dir, prune_kernel_logs
from widgets.store import TableStore, default_path

log = logging.getLogger("lanterloo.server")



def _project_root() -> Path:
    """The clone this module runs from (an editable install), else the working folder (``pip install .``)."""
    beside = Path(__file__).resolve().parent.parent
    return beside if (beside / "_config.yml").is_file() else Path.cwd()


PROJECT_ROOT = _project_root()
DEFAULT_TABLES = PROJECT_ROOT / "book" / "tables"
DEFAULT_BOOK = PROJECT_ROOT / "_build" / "html"
TEMPLATES = Path(__file__).resolve().parent / "share" / "jupyter"
TABLE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# A table's kernel costs about 75 MB of memory of its own (100 MB resident; measured on this
# project's tables), so 40 tables take about 3 GB, on top of the preheated kernels (one per table
# notebook, about 0.5 GB for six): enough for a class, and within a teacher's 8 GB laptop.
DEFAULT_MAX_TABLES = 40
# How long a place is kept for a new table between the redirect that gives it its id and the
# browser's request for its page (which follows at once); a client that never follows it frees
# the place after this.
HOLD_SECONDS = 20.0
# A reader who reloads a table at a full server: the page being left frees its place with a beacon
# sent as it goes, but the reloaded page's request may reach the server first. A request for a
# table that has a live kernel waits this long for a place before it is told the tables are full.
RELOAD_WAIT_SECONDS = 3.0
RETRY_AFTER_SECONDS = 60
# How long after a table's preheated kernel is taken Voila starts the next one. Preheating runs the
# notebook's imports, a second or more of work for one core; begun a second after the request
# (Voila's default), it took that core from the reader's browser while the page was still being
# drawn, and a table took 0.3 to 0.5 s longer to become playable on a 2-core machine.
REFILL_DELAY_SECONDS = 5.0
# Readers who acted this recently are playing: pool refills then start one at a time.
PLAY_QUIET_SECONDS = 5.0
# How long a refill may hold the refill queue (:class:`OneRefillAtATime`) while its kernel runs the
# table notebook; past that the next refill starts anyway.
REFILL_TURN_SECONDS = 60.0

# Log lines one client may cause in a minute (:class:`ClientLog`); past that, one summary line.
LOG_LINES_PER_CLIENT_MINUTE = 60


class ClientLog:
    """The server's warnings about what a client did, at most ``per_minute`` lines per client
    address a minute: past that the lines are counted, not written, and one line says how many
    were left out when the minute is over (or at the client's next line after it). One client
    that sent a refused message over and over used to grow the log by 420 KB a second."""

    def __init__(self, logger: logging.Logger, per_minute: int = LOG_LINES_PER_CLIENT_MINUTE) -> None:
        self.logger = logger
        self.per_minute = per_minute
        self._minutes: dict[str, tuple[float, int, int]] = {}  # client -> (minute began, written, left out)

    def warning(self, client: str | None, message: str, *args: Any, logger: logging.Logger | None = None) -> None:
        """Write ``message % args`` at WARNING to ``logger`` (by default this log's), within ``client``'s budget."""
        client = client or "?"
        now = time.monotonic()
        began, written, left_out = self._minutes.get(client, (now, 0, 0))
        if now - began >= 60:
            if left_out:
                self.logger.warning("%d more lines about client %s left out of the log in the last minute",
                                    left_out, client)  # fmt: skip
            began, written, left_out = now, 0, 0
        if written < self.per_minute:
            (logger or self.logger).warning(message, *args)
            written += 1
            if written == self.per_minute:
                self.logger.warning("client %s: no more lines about it this minute", client)
        else:
            left_out += 1
        self._minutes[client] = (began, written, left_out)
        if len(self._minutes) > 10_000:  # many clients: forget the quiet ones
            self._minutes = {c: v for c, v in self._minutes.items() if now - v[0] < 60}


quiet_log = ClientLog(log)


def log_request(handler: tornado.web.RequestHandler) -> None:
    """The access log (tornado's ``log_function``): failed requests only, as tornado.access at
    WARNING wrote them, but through :class:`ClientLog`, so that one client asking for missing or
    refused pages cannot fill the log (every refused request-details socket was a line)."""
    status = handler.get_status()
    if status < 400:
        return
    status_is_clients = status < 500 or status == 503  # 503: the tables-full page, asked for by the client
    request = handler.request
    line = "%d %.300s %.2fms"  # the address cut short: a 70 KB one made each line 70 KB
    args = (status, handler._request_summary(), 1000.0 * request.request_time())
    if not status_is_clients:
        logging.getLogger("tornado.access").error(line, *args)
    else:
        quiet_log.warning(request.remote_ip, line, *args, logger=logging.getLogger("tornado.access"))

# Messages a reader's browser must never receive (STACK.md: tracebacks and stderr leak).
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
        width, order = (8, "little") if v1 else (4, "big")
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


PAGE_CHANNELS = frozenset({"shell", "control", "stdin"})
# Message ids a kernel websocket remembers, to drop a message sent twice (the kernel refuses a
# repeated signature with a traceback in the server's log).
RECENT_MESSAGE_IDS = 1000


class TableKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voila's kernel websocket with TCP no-delay and a filter on what reaches the browser."""

    async def open(self, kernel_id: str) -> None:  # type: ignore[override]
        self.set_nodelay(True)
        stream = getattr(self.ws_connection, "stream", None)
        if stream is not None:  # a write past this raises StreamBufferFullError (write_message below)
            stream.max_write_buffer_size = MAX_PENDING_BYTES
        await super().open(kernel_id)

    _comm_opens = 0

    def on_message(self, message: Any) -> Any:
        client = self.request.remote_ip
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
            quiet_log.warning(client, 'Received message of type "%.80s", which is not allowed. Ignoring. (from %s)',
                              msg_type, client)  # fmt: skip
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
                quiet_log.warning(client, "refused a comm_open (target %.80r, %d bytes, number %d) from %s",
                                  target, len(message), self._comm_opens, client)  # fmt: skip
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
            quiet_log.warning(client, "dropped a kernel websocket from %s that read nothing while %d MB waited for it",
                              client, MAX_PENDING_BYTES >> 20)  # fmt: skip
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
    its connection file, which only the kernel and the server know (``widgets.request`` makes it)."""
    return hmac.new(key, kernel_id.encode(), hashlib.sha256).hexdigest()


class KernelRequestInfoHandler(RequestInfoSocketHandler):  # type: ignore[misc]
    """``/voila/query/<kernel id>``, where a preheated kernel waits for its reader's request details
    (:mod:`widgets.request`), for the kernel itself only.

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

    async def get(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        manager = self.settings.get("kernel_manager")
        key: bytes | None = None
        try:
            if manager is not None and kernel_id in manager:
                key = manager.get_kernel(kernel_id).session.key
        except Exception:  # a kernel going away as we look
            key = None
        proof = self.request.headers.get(PROOF_HEADER, "")
        if not key or not hmac.compare_digest(proof.encode(), kernel_proof(key, kernel_id).encode()):
            quiet_log.warning(self.request.remote_ip, "refused a request-details socket for kernel %s from %s",
                              kernel_id[:36], self.request.remote_ip)  # fmt: skip
            self.set_status(403)
            self.finish()
            return
        await super().get(kernel_id, *args, **kwargs)

    def open(self, kernel_id: str) -> None:  # type: ignore[override]
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


class BookHandler(tornado.web.StaticFileHandler):
    """The built book; a folder path serves its index.html.

    Every page carries ``X-Lanterloo-Tables``, the live tables this server offers: a book page
    reads it from a ``HEAD`` of its own address to decide whether to offer its game's table. A
    static host answers the same request without the header, so the page asks nothing that
    could fail.
    """

    tables: tuple[str, ...] = ()

    async def get(self, path: str, include_body: bool = True) -> None:
        if "\x00" in path:  # a NUL byte in a path: not a file (the file system would raise a 500)
            raise tornado.web.HTTPError(404)
        await super().get(path, include_body)

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-cache")
        if self.tables:
            self.set_header("X-Lanterloo-Tables", ",".join(self.tables))


_stores: dict[Path, TableStore] = {}


def table_store(path: Path | None) -> TableStore:
    """The server's one connection to the tables' database at ``path`` (opened on first use)."""
    path = (path or default_path()).resolve()
    if path not in _stores:
        _stores[path] = TableStore(path)
    return _stores[path]


def reserve_table_id(page: str, db: Path | None) -> str | None:
    """A fresh table id reserved for a new table of ``page``; None if the database cannot be reached."""
    try:
        return table_store(db).new_table(page)
    except Exception:  # the table still opens, unsaved; the log says why
        log.exception("could not reserve a table id in the tables' database")
        return None


def _query_with(table_id: str, query: str) -> str:
    return urlencode([("table", table_id), *parse_qsl(query, keep_blank_values=True)])


def with_table_id(page: str, query: str, db: Path | None) -> str | None:
    """``query`` with a freshly reserved table id first; None if the database cannot be reached."""
    table_id = reserve_table_id(page, db)
    return None if table_id is None else _query_with(table_id, query)


class TableSeats:
    """The live tables a server runs at once, and whether one more fits under ``cap`` (``--max-tables``).

    A live table is a kernel serving a reader's table page. Voila's preheated kernels, one waiting
    per table notebook, are not counted: they are a fixed cost, budgeted apart. A place is taken by

    * a table's kernel: the id of a kernel Voila gave a table page (a preheated one taken from its
      pool, or one started for the page), recorded by :meth:`Seat.settle` when Voila hands it over.
      A kernel shut down by its page's beacon (:meth:`leave`), culled as idle, or dead is gone from
      the kernel manager's list, and its place is free again;
    * a page admitted whose kernel is not known yet (``starting``): Voila is taking it from the
      pool or starting it, which takes a second or more;
    * a new table's id just handed out in a redirect (``held``), kept for the browser that follows
      the redirect (for ``HOLD_SECONDS`` at most), so that no id is reserved in the database for
      a reader who would then be refused.

    Why a burst of requests cannot overshoot the cap: tornado runs every handler on one thread,
    and a request's check and the taking of its place (:meth:`admit`, :meth:`hold`) run in one
    stretch of code with no ``await`` in it, so no other request runs in between; the n-th
    request of a burst sees the n-1 places taken before it. The kernel start that follows is
    asynchronous and slow, but all that time the page keeps its place in ``starting``, and
    :meth:`Seat.settle` moves the place to the kernel's id in one step when the kernel is known:
    a kernel being started is counted, and no kernel is counted twice. Counting is a set
    intersection with the live kernels' ids, cheap at any size this server can reach.

    A reload at a full server: the page being left frees its place with its beacon, but the
    reloaded page's request can reach the server first. A request for a table whose game a live
    kernel holds (:meth:`is_open`) therefore waits a little for a place (:meth:`wait_for_room`)
    before it is refused; the check and the taking of the place still run with no ``await``
    between them.
    """

    def __init__(self, cap: int, kernel_ids: Callable[[], Iterable[str]], per_client: int | None = None) -> None:
        self.cap = cap
        self.per_client = per_client  # places one client address may take (--max-tables-per-client)
        self.owners: dict[str, str] = {}  # table kernel id or held table id -> the client address that took it
        self.starting_by: dict[str, int] = {}  # client address -> its pages whose kernel is on its way
        self._kernel_ids = kernel_ids  # the kernel manager's list of live kernels
        self.kernels: set[str] = set()
        self.tables: dict[str, str] = {}  # table kernel id -> the table id its page asked for
        self.starting = 0
        self.held: dict[str, float] = {}  # new table id -> when its hold lapses (time.monotonic)

    def in_use(self) -> int:
        """Places taken: live table kernels, pages whose kernel is on its way, new tables held."""
        self.kernels &= set(self._kernel_ids())
        if len(self.tables) > len(self.kernels):
            self.tables = {k: t for k, t in self.tables.items() if k in self.kernels}
        now = time.monotonic()
        if any(until <= now for until in self.held.values()):
            self.held = {table_id: until for table_id, until in self.held.items() if until > now}
        if len(self.owners) > len(self.kernels) + len(self.held):
            self.owners = {k: c for k, c in self.owners.items() if k in self.kernels or k in self.held}
        return len(self.kernels) + self.starting + len(self.held)

    def taken_by(self, client: str) -> int:
        """Places ``client`` has taken: its live tables, its pages starting, its new tables held."""
        self.in_use()
        return sum(1 for owner in self.owners.values() if owner == client) + self.starting_by.get(client, 0)

    def client_has_room(self, client: str | None, table_id: str | None = None) -> bool:
        """Whether ``client`` may take one more place (a place held for ``table_id`` is already its)."""
        if client is None or self.per_client is None or (table_id is not None and table_id in self.held):
            return True
        return self.taken_by(client) < self.per_client

    def has_room(self, table_id: str | None = None, client: str | None = None) -> bool:
        """True if a table page may open: a place is free (and ``client`` has fewer than its share),
        or one is held for ``table_id``."""
        in_use = self.in_use()
        if table_id is not None and table_id in self.held:
            return True
        return in_use < self.cap and self.client_has_room(client)

    def is_open(self, table_id: str | None) -> bool:
        """Whether a live kernel holds ``table_id``'s game (its page is open, or is being reloaded)."""
        if table_id is None:
            return False
        self.in_use()  # forget kernels gone
        return any(self.tables.get(kernel_id) == table_id for kernel_id in self.kernels)

    async def wait_for_room(
        self, table_id: str | None, timeout: float = RELOAD_WAIT_SECONDS, client: str | None = None
    ) -> None:
        """For a table whose game a live kernel holds (a reload), wait up to ``timeout`` seconds for
        a place: the page being left frees one as it goes. Returns at once for any other request, so
        a flood of new readers is refused as quickly as ever; the caller checks for room after this."""
        deadline = time.monotonic() + timeout
        while not self.has_room(table_id, client) and self.is_open(table_id) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    def hold(self, table_id: str, client: str | None = None) -> None:
        """Keep a place for the new table ``table_id`` until its page is asked for."""
        self.held[table_id] = time.monotonic() + HOLD_SECONDS
        if client is not None:
            self.owners[table_id] = client

    def admit(self, table_id: str | None = None, client: str | None = None) -> Seat | None:
        """A place for a table page (the one held for ``table_id``, if any); None if the tables are full."""
        if not self.has_room(table_id, client):
            return None
        if table_id is not None:
            self.held.pop(table_id, None)
            client = self.owners.pop(table_id, client)
        self.starting += 1
        if client is not None:
            self.starting_by[client] = self.starting_by.get(client, 0) + 1
        return Seat(self, table_id, client)

    def leave(self, kernel_id: str) -> None:
        """A page said it is leaving (its beacon): its kernel's place is free while the kernel shuts down."""
        self.kernels.discard(kernel_id)
        self.tables.pop(kernel_id, None)


class Seat:
    """One admitted table page's place: counted as starting until its kernel is known, then as that kernel."""

    def __init__(self, seats: TableSeats, table_id: str | None = None, client: str | None = None) -> None:
        self._seats = seats
        self._table_id = table_id
        self._client = client
        self._open = True

    def _unstart(self) -> None:
        self._open = False
        self._seats.starting -= 1
        if self._client is not None:
            left = self._seats.starting_by.get(self._client, 0) - 1
            if left > 0:
                self._seats.starting_by[self._client] = left
            else:
                self._seats.starting_by.pop(self._client, None)

    def settle(self, kernel_id: str) -> None:
        """The page has its kernel: the place is the kernel's from now on, until it is shut down."""
        if self._open:
            self._unstart()
            self._seats.kernels.add(kernel_id)
            if self._client is not None:
                self._seats.owners[kernel_id] = self._client
            if self._table_id is not None:
                self._seats.tables[kernel_id] = self._table_id

    def release(self) -> None:
        """The page's request is over; if it never got a kernel (an error, a closed connection), free its place."""
        if self._open:
            self._unstart()


class SeatedKernelManager:
    """Voila's kernel manager as one admitted table page sees it: the kernel it hands the page
    (a preheated one, or one started for it) settles the page's :class:`Seat`. Everything else is
    the kernel manager's own."""

    def __init__(self, manager: Any, seat: Seat) -> None:
        self._manager = manager
        self._seat = seat

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        """A preheated kernel, taken from its pool: (render task, rendered cells, kernel id)."""
        rendered = await self._manager.get_rendered_notebook(*args, **kwargs)
        self._seat.settle(rendered[2])
        return rendered

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """A kernel started for the page (its pool was empty)."""
        kernel_id: str = await ensure_async(self._manager.start_kernel(*args, **kwargs))
        self._seat.settle(kernel_id)
        return kernel_id


_FULL_STYLE = """
  body { margin: 0; background: #f4f1ea; color: #1f1f1f;
         font: 1.0625rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 36rem; margin: 0 auto; padding: 3rem 1.25rem; }
  h1 { font-size: 1.75rem; line-height: 1.2; margin: 0 0 1rem; }
  a { color: #174a7c; }
  a:focus-visible { outline: 3px solid #174a7c; outline-offset: 3px; }
  .again { display: inline-block; margin: .5rem 0; padding: .6rem 1.3rem; border-radius: .35rem;
           background: #174a7c; color: #fff; font-weight: 600; text-decoration: none; }
  .again:hover { background: #10365c; }
"""


def tables_full_page(*, cap: int, again: str, saved_game: bool, per_client: int | None = None) -> str:
    """The page a reader gets when every table is taken (or, with ``per_client``, every table one
    address may have): what happened, what is safe, what to do."""
    if per_client is not None:
        taken = (
            f"This computer's network address already has {per_client} live tables open on this server, "
            "the most it gives one address at once (a class behind one router shares its address)."
        )
    elif cap == 1:
        taken = "This server runs one live table at a time, and it is in use just now."
    else:
        taken = f"All {cap} live tables on this server are in use just now, and it runs no more than that at once."
    if saved_game:
        safe = (
            "<p><strong>Your game is safe.</strong> It is saved on the server, and it carries on "
            "from its last move when you try again.</p>"
        )
    else:
        safe = "<p>No game had been started for you yet, so nothing is lost.</p>"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The tables are full · Lanterloo</title>
<style>{_FULL_STYLE}</style>
</head>
<body>
<main>
<h1>The tables are full</h1>
<p>{taken} A table comes free as soon as its player leaves its page.</p>
{safe}
<p><a class="again" href="{html.escape(again, quote=True)}">Try again</a></p>
<p>Or <a href="/" target="_top">go back to the book</a>: its pages and their example hands need no table.</p>
</main>
</body>
</html>
"""


def send_tables_full(handler: tornado.web.RequestHandler, seats: TableSeats) -> None:
    """Answer ``handler``'s request with the tables-full page: 503, and when to try again."""
    handler.set_status(503)
    handler.set_header("Retry-After", str(RETRY_AFTER_SECONDS))
    handler.set_header("Cache-Control", "no-store")
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    saved_game = handler.get_query_argument("table", None) is not None
    client = handler.request.remote_ip
    in_use = seats.in_use()
    mine = seats.per_client if in_use < seats.cap and seats.per_client is not None else None
    if mine is not None:
        quiet_log.warning(client, "client %s has %d tables, its most: refused %s", client, mine, handler.request.path)
    else:
        quiet_log.warning(client, "the tables are full (%d of %d places taken): refused %s", in_use, seats.cap,
                          handler.request.path)  # fmt: skip
    page = tables_full_page(cap=seats.cap, again=handler.request.uri or "/", saved_game=saved_game, per_client=mine)
    handler.finish(page)


class CardSheetHandler(tornado.web.RequestHandler):
    """The plain card sheet (:func:`widgets.card_style.card_css`), which every table page links from
    its head: fetched while the table is being dealt, and kept by the browser. It is revalidated on
    each visit (tornado's ETag: a 304 once the browser has it), so a new version is never missed."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/css; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.write(card_css())


NO_MATH_PATH = "/tables/no-math.js"
# What a table page loads in place of MathJax. Voila's page typesets every widget's text with the
# MathJax 3 it bundles, fetched the first time a widget is drawn: a megabyte of script, compiled
# and started while the table is being drawn, for a page that shows no mathematics (and where a
# pair of dollar signs in a player's text would wrongly be read as mathematics). Given a MathJax
# address (page_config below), the page uses JupyterLab's MathJax 2 typesetter instead, which
# loads this, and its typesetting does nothing.
NO_MATH_JS = (
    "/* Lanterloo's tables show no mathematics: this stands in for MathJax (widgets/server.py). */\n"
    "window.MathJax = {Hub: {Config: function () {}, Configured: function () {}, Queue: function () {},\n"
    "  Register: {StartupHook: function () {}}}, Ajax: {}, InputJax: {TeX: {resetEquationNumbers: function () {}}}};\n"
)
# Front-end extensions a table page does without: code highlighting (a table shows no code).
UNUSED_EXTENSIONS = frozenset({"jupyterlab_pygments"})


def page_config(config: dict[str, Any], **_context: Any) -> dict[str, Any]:
    """Voila's page configuration for a table page (its ``page_config_hook``): no MathJax (see
    :data:`NO_MATH_JS`), and none of the :data:`UNUSED_EXTENSIONS`."""
    config["fullMathjaxUrl"] = NO_MATH_PATH
    config["mathjaxConfig"] = "none"
    config["federated_extensions"] = [
        e for e in config.get("federated_extensions", []) if e.get("name") not in UNUSED_EXTENSIONS
    ]
    return config


class NoMathHandler(tornado.web.RequestHandler):
    """:data:`NO_MATH_JS`, at :data:`NO_MATH_PATH` (the page asks for it with a query, ignored)."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.write(NO_MATH_JS)


STARTUP_BUNDLE_PATH = "/tables/voila-startup.js"
# The scripts of Voila's front end that a table page fetches before its table is drawn, in the
# order Voila 0.5.13's page asks for them: the chunks of Voila's own page script (served at
# ``/voila/static/``), then those of the two front-end extensions that draw widgets (served at
# ``/voila/labextensions/``; a ``*`` stands for the content hash in their names). Fetched one by one
# they were 68 requests for 3.4 MB of script, each compiled and run as a script of its own, and on
# a 2-core machine that also runs the server a table took 0.3 s longer to open, a fifth of the wait
# (bench/tables.py, open part). A table page loads them as one script (:class:`StartupBundleHandler`)
# just before Voila's own: each chunk registers itself with its loader when run, and the loaders
# then fetch none of them. The list is a speed-up, not a requirement: a chunk missing from it is
# fetched as before, and a test (tests/browser/test_tables.py) names any that a table page still
# fetches on its own.
VOILA_STARTUP_CHUNKS = tuple(
    f"{chunk}.voila.js"
    for chunk in (
        *(5764, 8135, 3992, 8925, 9582, 7883, 7556, 6049, 1670, 3311, 6573, 1621, 4135, 3649),
        *(3916, 8487, 9684, 143, 4041, 7155, 3144, 1601, 4972, 9890, 5312, 6468, 3459, 630),
        *(5688, 2930, 1187, 73, 4173, 7483, 431, 3989, 8766, 9151, 4729, 6382, 5044, 7598),
        *(9081, 7770, 3249, 4653, 8862, 9981, 5767, 4222, 8773, 3307, 6008, 8017, 457, 9212),
    )
)
# The widgets' chunks, in the order a table page fetches them: Voila's widget manager
# (widgets-manager8) and the ipywidgets extension (jupyterlab-manager, from jupyterlab_widgets 3.0.13).
_MANAGER = "@voila-dashboards/widgets-manager8/static"
_WIDGETS = "@jupyter-widgets/jupyterlab-manager/static"
WIDGET_STARTUP_CHUNKS = tuple(
    f"{folder}/{chunk}.*.js"
    for folder, chunks in (
        (_MANAGER, (883, 496, 651, 264)),
        (_WIDGETS, (651, 420, 439, 327, 722, 446)),
        (_MANAGER, (324, 603)),
        # drawn once the table's widgets are known: the controls (buttons, boxes, tabs) and what they need
        (_WIDGETS, (727, 586)),
    )
    for chunk in chunks
)


def startup_bundle(
    static_paths: Iterable[str | Path], labextension_paths: Iterable[str | Path]
) -> tuple[bytes, list[str]]:
    """:data:`VOILA_STARTUP_CHUNKS`, read from the first of Voila's ``static_paths`` that has each,
    and :data:`WIDGET_STARTUP_CHUNKS`, from ``labextension_paths``, joined into one script; and the
    chunks found in neither (another version of Voila or of ipywidgets), which a page fetches itself
    if it needs them."""
    parts, missing = [], []
    for folders, chunks in (
        (list(static_paths), VOILA_STARTUP_CHUNKS),
        (list(labextension_paths), WIDGET_STARTUP_CHUNKS),
    ):
        for chunk in chunks:
            found = next((hit for folder in folders for hit in sorted(Path(folder).glob(chunk))), None)
            if found is None:
                missing.append(chunk)
            else:
                parts.append(f"/* {found.name} */\n".encode() + found.read_bytes() + b"\n;\n")
    return b"".join(parts), missing


class StartupBundleHandler(tornado.web.RequestHandler):
    """:func:`startup_bundle`, read once when the server starts, at :data:`STARTUP_BUNDLE_PATH`.
    Like the card sheet it is revalidated on each visit (its ETag, a 304 once the browser has it)."""

    def initialize(self, bundle: bytes, etag: str) -> None:
        self.bundle, self.etag = bundle, etag

    def compute_etag(self) -> str:
        return self.etag  # computed once, not by hashing the whole bundle for every request

    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.write(self.bundle)


class TableLinkHandler(tornado.web.RequestHandler):
    """``/tables/<name>`` redirects to the table's Voila page, keeping the query (deal codes, table ids).

    Without ``table`` in the query, a new table id is reserved and added to it, and a place is
    held for it (:class:`TableSeats`); if every table is taken, the reader gets the tables-full
    page instead, and no id is reserved.
    """

    def initialize(self, tables: Path, seats: TableSeats, db: Path | None = None) -> None:
        self.tables = tables
        self.seats = seats
        self.db = db

    async def get(self, name: str) -> None:
        if not TABLE_NAME.match(name) or not (self.tables / f"{name}.ipynb").is_file():
            raise tornado.web.HTTPError(404)
        query = self.request.query
        table_id = self.get_query_argument("table", None)
        client = self.request.remote_ip
        await self.seats.wait_for_room(table_id, client=client)  # a reload at a full server: see RELOAD_WAIT_SECONDS
        # No await from here to the hold: see TableSeats on bursts.
        if not self.seats.has_room(table_id, client):
            send_tables_full(self, self.seats)
            return
        if table_id is None and (table_id := reserve_table_id(name, self.db)) is not None:
            self.seats.hold(table_id, client)
            query = _query_with(table_id, query)
        self.set_header("Cache-Control", "no-store")  # each visit gets its own new table
        self.redirect(f"/voila/render/{name}.ipynb" + (f"?{query}" if query else ""))


class TableRenderHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's page of a table; asked for without a table id, it redirects to itself with a new one.

    Every request that would start a kernel takes a place among the server's live tables first
    (:class:`TableSeats`), or gets the tables-full page.
    """

    db: Path | None = None
    tables: Path = DEFAULT_TABLES
    seats: TableSeats | None = None
    _seat: Seat | None = None

    @property
    def kernel_manager(self) -> Any:
        """Voila's kernel manager; for an admitted page, one that gives the page's place to its kernel."""
        manager = super().kernel_manager
        return manager if self._seat is None else SeatedKernelManager(manager, self._seat)

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        name = (path or "").removesuffix(".ipynb")
        is_table = bool(path and path.endswith(".ipynb") and TABLE_NAME.match(name))
        is_table = is_table and (self.tables / f"{name}.ipynb").is_file()
        if not is_table:  # only a table notebook, by its own name: never another file, a folder or a listing
            raise tornado.web.HTTPError(404)
        if self.seats is None:
            await super().get(path=path)
            return
        table_id = self.get_query_argument("table", None)
        client = self.request.remote_ip
        await self.seats.wait_for_room(table_id, client=client)  # a reload at a full server: see RELOAD_WAIT_SECONDS
        # No await from here to admit() or hold(): see TableSeats on bursts.
        if not self.seats.has_room(table_id, client):
            send_tables_full(self, self.seats)
            return
        if is_table and table_id is None and (table_id := reserve_table_id(name, self.db)) is not None:
            self.seats.hold(table_id, client)
            self.set_header("Cache-Control", "no-store")
            self.redirect(f"{self.request.path}?{_query_with(table_id, self.request.query)}")
            return
        self._seat = self.seats.admit(table_id, client)
        if self._seat is None:  # never: has_room() said yes, and nothing has run since
            send_tables_full(self, self.seats)
            return
        try:
            await super().get(path=path)
        finally:
            self._seat.release()


class TemplateAssetHandler(TemplateStaticFileHandler):  # type: ignore[misc]
    """Voila's template assets (``/voila/templates/<template>/static/<file>``); any other path is a
    plain 404, where Voila's own handler fails with a 500 on a path of another shape."""

    ASSET = re.compile(r"^[A-Za-z0-9_-]+/static/[^\x00]+$")

    async def get(self, path: str, include_body: bool = True) -> None:
        parts = os.path.normpath(path).split(os.sep)
        if not self.ASSET.match(path) or ".." in parts or len(parts) < 3 or parts[1] != "static":
            raise tornado.web.HTTPError(404)
        await super().get(path, include_body)


class TableShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
    """Voila's shutdown beacon (a page being left); the kernel's place is free at once, not only
    once the kernel has stopped, so that a reader who reloads a table at a full server gets it back."""

    seats: TableSeats | None = None

    @tornado.web.authenticated
    async def post(self, kernel_id: str) -> None:
        if self.seats is not None:
            self.seats.leave(kernel_id)
        await super().post(kernel_id)


class OneRefillAtATime:
    """Voila's pool refills, one kernel at a time while readers are playing.

    Each table's pool starts a new kernel a few seconds after its preheated one is taken
    (:data:`REFILL_DELAY_SECONDS`), and starting one (Python, the imports, the table notebook) is a
    second or two of work for one core. When a class opened its tables together and began to play,
    every table's pool refilled at once and took both cores from the readers: their clicks waited
    up to 2 s in the first seconds of play (bench/tables.py, load). While a reader has acted in the
    last :data:`PLAY_QUIET_SECONDS` (``playing``), a refill waits until no other is warming, so one
    core is always left to the readers; with nobody playing (a class still opening its tables, say)
    refills start at once, so the pools fill as fast as they can.

    It wraps the kernel manager's ``_initialize``, the coroutine Voila's ``fill_if_needed`` runs for
    each new pool kernel. A refill (no kernel id yet) counts as warming from its start until its
    kernel has run the table notebook (a preheated table cell ends at once:
    :func:`widgets.live_table.table_for_request`), or for :data:`REFILL_TURN_SECONDS` at most. A
    request that takes the kernel meanwhile waits for it to finish warming. Kernels started for a
    request (the pool empty) never wait: a reader is waiting for them.
    """

    POLL_SECONDS = 0.25

    def __init__(
        self,
        initialize: Callable[..., Any],
        playing: Callable[[], bool],
        turn_seconds: float = REFILL_TURN_SECONDS,
        logger: logging.Logger | logging.LoggerAdapter[logging.Logger] = log,
    ) -> None:
        self._initialize = initialize
        self._playing = playing
        self.log = logger  # the server's log (Voila's), where the kernel manager writes
        self._turn_seconds = turn_seconds
        self.warming = 0  # refills started and not yet warm
        self.waited = 0  # refills that had to wait their turn (for the log and the tests)

    async def __call__(self, notebook_path: str, kernel_id: str | None = None, **kwargs: Any) -> Any:
        if kernel_id is not None:  # a restart: not a refill
            return await self._initialize(notebook_path, kernel_id, **kwargs)
        if self.warming and self._playing():
            self.waited += 1
            self.log.info("Readers are playing: the refill for %s waits for the one warming", notebook_path)
            while self.warming and self._playing():
                await asyncio.sleep(self.POLL_SECONDS)
        self.warming += 1
        try:
            content = await self._initialize(notebook_path, None, **kwargs)
            task = content.get("task") if isinstance(content, dict) else None
            if isinstance(task, asyncio.Future):
                try:  # shielded: counting it warm must not cancel the notebook's run
                    await asyncio.wait_for(asyncio.shield(task), self._turn_seconds)
                except Exception:  # a slow or failed run is Voila's to report, not the queue's
                    self.log.warning("A pool kernel for %s took over %.0f s to warm, or failed", notebook_path,
                                self._turn_seconds)  # fmt: skip
            return content
        finally:
            self.warming -= 1


# How long the server waits for a request's headers, for its body, and for the next request on an
# idle connection (--request-timeout); tornado's own default held a partial request for an hour,
# and 20,000 of them took every file the server may open.
DEFAULT_REQUEST_TIMEOUT = 30.0
# The largest request head (request line, query string and headers) and body the server reads.
# The only body a page sends is the shutdown beacon's few bytes.
MAX_HEADER_BYTES = 96 << 10
# The longest address (path and query) answered; a longer one gets a plain 414 page.
MAX_URI_BYTES = 8 << 10
MAX_BODY_BYTES = 64 << 10
# How long the server stops accepting connections when it has no file left for one.
ACCEPT_PAUSE_SECONDS = 0.5
_RESOURCE_ERRORS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


def quiet_accept_handler(sock: socket.socket, callback: Callable[[socket.socket, Any], None]) -> Callable[[], None]:
    """tornado's ``add_accept_handler``, except that running out of files (EMFILE and its kin)
    pauses accepting for :data:`ACCEPT_PAUSE_SECONDS` and logs one line a minute, where tornado's
    raised from the loop at every turn: 870 MB of tracebacks in one attack."""
    from tornado.ioloop import IOLoop

    io_loop = IOLoop.current()
    removed = [False]
    paused = [False]

    def accept_handler(fd: Any, events: int) -> None:
        for _ in range(128):
            if removed[0] or paused[0]:
                return
            try:
                connection, address = sock.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno not in _RESOURCE_ERRORS:
                    raise
                quiet_log.warning("accept", "cannot accept connections (%s): pausing %.1f s",
                                  os.strerror(error.errno or 0), ACCEPT_PAUSE_SECONDS)  # fmt: skip
                paused[0] = True
                io_loop.remove_handler(sock)
                io_loop.call_later(ACCEPT_PAUSE_SECONDS, resume)
                return
            callback(connection, address)

    def resume() -> None:
        paused[0] = False
        if not removed[0]:
            io_loop.add_handler(sock, accept_handler, IOLoop.READ)

    def remove_handler() -> None:
        if not paused[0]:
            io_loop.remove_handler(sock)
        removed[0] = True

    io_loop.add_handler(sock, accept_handler, IOLoop.READ)
    return remove_handler


_LOCAL_IPS: dict[str, bool] = {}


def is_local_ip(host: str) -> bool:
    """Whether ``host`` is an IP literal of this machine (an address the server could listen on):
    binding a socket to it succeeds only then. Remembered, for at most 1,000 addresses."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        socket.inet_pton(family, host)
    except OSError:
        return False
    if host not in _LOCAL_IPS:
        if len(_LOCAL_IPS) > 1000:
            _LOCAL_IPS.clear()
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.bind((host, 0))
            _LOCAL_IPS[host] = True
        except OSError:
            _LOCAL_IPS[host] = False
    return _LOCAL_IPS[host]


def own_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names the server answers to: ``localhost``, this machine's host name (and its fully
    qualified name, and ``<name>.local``), and those given with ``--allowed-host``."""
    names = {"localhost", "localhost.localdomain"}
    with contextlib.suppress(OSError):
        hostname = socket.gethostname()
        names |= {hostname, f"{hostname}.local", socket.getfqdn()}
    names |= set(extra)
    return frozenset(n.lower().rstrip(".") for n in names if n)


def host_allowed(host_header: str, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names this server: one of ``names``, or an IP literal of this
    machine (with any port). A page of another site whose name points at this machine (DNS
    rebinding) sends its own name, and is refused."""
    host = host_header.strip().lower()
    if host.startswith("["):  # [IPv6]:port
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    host = host.rstrip(".")
    return host in names or is_local_ip(host)


class RefusedRequest(tornado.routing.Matcher):
    """Matches a request the server answers with a plain refusal (:class:`RefusedRequestHandler`),
    before any other route: an address longer than :data:`MAX_URI_BYTES`, or a ``Host`` that is
    not this server's (:func:`host_allowed`)."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def match(self, request: tornado.httputil.HTTPServerRequest) -> dict[str, Any] | None:
        if len(request.uri or "") > MAX_URI_BYTES:
            return {}
        if "Host" in request.headers and not host_allowed(request.headers["Host"], self.names):
            return {}
        return None


class RefusedRequestHandler(tornado.web.RequestHandler):
    """A plain page for a request :class:`RefusedRequest` matched: 414 for an address too long,
    400 for a ``Host`` that is not this server's; websocket upgrades included."""

    def prepare(self) -> None:
        client = self.request.remote_ip
        if len(self.request.uri or "") > MAX_URI_BYTES:
            status, text = 414, "This address is too long for this server."
        else:
            status, text = 400, "This server does not answer to that name. Use its own address."
        quiet_log.warning(client, "refused a request from %s (%d): Host %.80r, %d-byte address", client, status,
                          self.request.headers.get("Host", ""), len(self.request.uri or ""))  # fmt: skip
        self.set_status(status)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(text + "\n")


class LanterlooServer(Voila):  # type: ignore[misc]
    """Voila with the book at the root and only the table notebooks behind it."""

    book_dir = Path(DEFAULT_BOOK)
    db_path: Path | None = None  # the tables' database; None: widgets.store.default_path()
    max_tables = DEFAULT_MAX_TABLES  # live table kernels at once (--max-tables), preheated ones apart
    seats: TableSeats | None = None  # made with the handlers, once the kernel manager exists
    request_timeout = DEFAULT_REQUEST_TIMEOUT  # --request-timeout
    max_tables_per_client: int | None = None  # --max-tables-per-client; None: no share per address
    allowed_hosts: tuple[str, ...] = ()  # --allowed-host: names the server answers to besides its own

    def listen(self) -> None:
        """Voila's ``listen``, with the HTTP server's timeouts and sizes bounded (see the module's
        docstring) and an accept loop that survives running out of files (:func:`quiet_accept_handler`)."""
        import functools

        import tornado.tcpserver

        tornado.tcpserver.add_accept_handler = quiet_accept_handler  # type: ignore[assignment]
        self.app.listen = functools.partial(  # type: ignore[method-assign]
            self.app.listen,
            idle_connection_timeout=self.request_timeout,
            body_timeout=self.request_timeout,
            max_header_size=MAX_HEADER_BYTES,
            max_body_size=MAX_BODY_BYTES,
        )
        super().listen()

    def init_handlers(self) -> list[Any]:
        handlers = []
        manager = self.kernel_manager
        if hasattr(manager, "fill_if_needed") and not isinstance(manager.__dict__.get("_initialize"), OneRefillAtATime):
            manager._initialize = OneRefillAtATime(manager._initialize, play_clock.playing, logger=manager.log)
        self.seats = TableSeats(self.max_tables, self.kernel_manager.list_kernel_ids, self.max_tables_per_client)
        TableRenderHandler.db, TableRenderHandler.tables = self.db_path, Path(self.root_dir)
        TableRenderHandler.seats = TableShutdownHandler.seats = self.seats
        # First, so that nothing else sees it: a request with an address too long or another Host.
        handlers.append((RefusedRequest(own_names(self.allowed_hosts)), RefusedRequestHandler))
        for spec in super().init_handlers():
            pattern, handler = spec[0], spec[1]
            if handler.__name__ in {"TornadoVoilaTreeHandler", "VoilaContentsHandler", "LogoutHandler"}:
                continue  # no file listing, no contents API, no log-in to leave
            if handler is TemplateStaticFileHandler:
                spec = (pattern, TemplateAssetHandler, *spec[2:])
            if handler is VoilaKernelWebsocketHandler:
                spec = (pattern, TableKernelWebsocketHandler, *spec[2:])
            if handler is TornadoVoilaHandler:
                spec = (pattern, TableRenderHandler, *spec[2:])
            if handler is VoilaShutdownKernelHandler:
                spec = (pattern, TableShutdownHandler, *spec[2:])
            if handler is RequestInfoSocketHandler:
                spec = (pattern, KernelRequestInfoHandler, *spec[2:])
            handlers.append(spec)
        handlers.append((re.escape(SHEET_PATH), CardSheetHandler))
        handlers.append((re.escape(NO_MATH_PATH), NoMathHandler))
        bundle, missing = startup_bundle(self.static_paths, self.labextensions_path)
        if missing:
            self.log.warning(
                "Voila's front end has none of %s: a table page fetches what it needs itself", ", ".join(missing)
            )
        etag = '"' + hashlib.sha256(bundle).hexdigest()[:32] + '"'
        handlers.append((re.escape(STARTUP_BUNDLE_PATH), StartupBundleHandler, {"bundle": bundle, "etag": etag}))
        handlers.append(
            (
                r"/tables/([a-z0-9-]+)/?",
                TableLinkHandler,
                {"tables": Path(self.root_dir), "seats": self.seats, "db": self.db_path},
            )
        )
        # Last, so that every Voila route above wins: the book answers everything else.
        BookHandler.tables = tuple(
            sorted(p.stem for p in Path(self.root_dir).glob("*.ipynb") if TABLE_NAME.match(p.stem))
        )
        handlers.append((r"/(.*)", BookHandler, {"path": str(self.book_dir), "default_filename": "index.html"}))
        return handlers


def server_config(*, tables: Path, port: int, ip: str, max_idle: int) -> Config:
    c = Config()
    c.Voila.root_dir = str(tables)
    c.Voila.base_url = "/"
    c.Voila.server_url = "/"  # the book's catch-all route assumes Voila's routes start at the root
    c.Voila.port = port
    c.Voila.port_retries = 0  # fail rather than move to another port than the one printed
    c.Voila.ip = ip
    c.Voila.open_browser = False
    c.Voila.log_format = LOG_FORMAT
    c.Voila.log_datefmt = LOG_DATEFMT
    c.Voila.tornado_settings = own_tornado_settings()
    c.VoilaConfiguration.template = "lanterloo"
    c.VoilaConfiguration.show_tracebacks = False
    c.VoilaConfiguration.page_config_hook = page_config
    # Voila stops waiting for a notebook's output after nbclient's 4 s by default: tables opened
    # at the same moment on a busy machine then came back as pages with no table on them.
    c.VoilaExecutor.iopub_timeout = 60
    c.VoilaConfiguration.preheat_kernel = True
    c.VoilaKernelManager.fill_delay = REFILL_DELAY_SECONDS
    # One preheated kernel per table notebook and none for anything else, so that no other notebook
    # that finds its way into the folder is ever run (preheat_denylist will not do: Voila 0.5.13
    # matches it against absolute paths, and an anchored pattern quietly stops all preheating).
    names = sorted(p.name for p in tables.glob("*.ipynb") if TABLE_NAME.match(p.stem))
    c.VoilaConfiguration.default_pool_size = 0
    c.VoilaKernelManager.kernel_pools_config = {"default": {"pool_size": 0}, **{n: {"pool_size": 1} for n in names}}
    c.VoilaConfiguration.file_allowlist = [r".*\.(png|jpg|jpeg|gif|svg)$"]
    # Kernels talk to the server over Unix sockets, not TCP ports other local users could reach.
    c.KernelManager.transport = "ipc"
    # A preheated kernel has run its notebook to the end and sits idle with no page connected until a
    # reader comes; Voila's kernel manager keeps such pool kernels from the culler
    # (tests/browser/test_kernels.py checks it still does).
    c.MappingKernelManager.cull_idle_timeout = max_idle
    c.MappingKernelManager.cull_interval = max(10, min(60, max_idle // 4))
    return c


# Settings passed through to Voila as --Class.name=value. Voila runs without jupyter_server's
# ServerApp, so --ServerApp.name=value is taken as Voila's setting of the same name where it has one.
_SETTING = re.compile(r"--([A-Z][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)
# What the server itself decides: a setting passed through may not change these.
_OWN_SETTINGS = {
    "Voila.root_dir": "--tables",
    "Voila.port": "--port",
    "Voila.ip": "--ip",
    "Voila.base_url": None,
    "Voila.server_url": None,
    "VoilaConfiguration.template": None,
}


# One format for every line the server logs: Voila's, jupyter_server's, tornado's and ours.
LOG_FORMAT = "[%(levelname)1.1s %(asctime)s %(name)s] %(message)s"
LOG_DATEFMT = "%Y-%m-%d %H:%M:%S"
# The loggers that write to the server's log besides Voila's own, with the least level written.
# tornado.access at WARNING: failed requests are logged, not every script and card served.
SERVER_LOGGERS = {"lanterloo": logging.INFO, "tornado.access": logging.WARNING,
                  "tornado.application": logging.INFO, "tornado.general": logging.INFO}


class EveryConnection(logging.Filter):
    """Leaves out jupyter_server's lines written for every kernel websocket opened ("Connecting to
    kernel", "Adapting from protocol version"): one client opening sockets over and over wrote two
    lines a socket, with nothing to tell a client from another."""

    PREFIXES = ("Connecting to kernel ", "Adapting from protocol version ")

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith(self.PREFIXES))


class OncePerMinute(logging.Filter):
    """Lets a line that starts with one of ``prefixes`` through once a minute; the others in that
    minute are counted, and the next one let through says how many were left out. pyzmq writes
    "Got events for closed stream" when a kernel's socket closes with messages still queued, a line
    for every table closed, so a client opening and leaving tables could grow the log by it."""

    def __init__(self, *prefixes: str) -> None:
        super().__init__()
        self.prefixes = prefixes
        self._last: dict[str, tuple[float, int]] = {}  # prefix -> (written at, left out since)

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str):
            return True
        prefix = next((p for p in self.prefixes if record.msg.startswith(p)), None)
        if prefix is None:
            return True
        now = time.monotonic()
        written, left_out = self._last.get(prefix, (-math.inf, 0))
        if now - written < 60:
            self._last[prefix] = (written, left_out + 1)
            return False
        if left_out:
            record.msg = f"{record.msg} (and {left_out} such lines left out in the minute before)"
        self._last[prefix] = (now, 0)
        return True


def share_server_log(voila_log: logging.Logger | logging.LoggerAdapter[Any]) -> None:
    """Send the server's own loggers and tornado's through Voila's handlers, in its format."""
    logger = voila_log.logger if isinstance(voila_log, logging.LoggerAdapter) else voila_log
    if not any(isinstance(f, EveryConnection) for f in logger.filters):
        logger.addFilter(EveryConnection())
        logging.getLogger("tornado.application").addFilter(EveryConnection())
    general = logging.getLogger("tornado.general")
    if not any(isinstance(f, OncePerMinute) for f in general.filters):
        general.addFilter(OncePerMinute("Got events for closed stream"))
    for name, level in SERVER_LOGGERS.items():
        target = logging.getLogger(name)
        target.handlers = list(logger.handlers)
        target.setLevel(level)
        target.propagate = False


def own_tornado_settings() -> dict[str, Any]:
    """The tornado settings the server's safety rests on; settings passed on the command line
    (``--Voila.tornado_settings=...``) are added to these, never put in their place."""
    return {
        # The page's shutdown beacon fails without an _xsrf cookie otherwise (STACK.md).
        "disable_check_xsrf": True,
        "websocket_max_message_size": MAX_MESSAGE_BYTES,
        "log_function": log_request,
    }


def keep_own_tornado_settings(app: Voila) -> None:
    """After the command line's settings are read: theirs and the server's own, the server's winning."""
    app.tornado_settings = {**app.tornado_settings, **own_tornado_settings()}


def passed_settings(extra: list[str]) -> list[str]:
    """The command line's ``--Class.name=value`` settings as Voila's ``initialize`` takes them.

    A ``ValueError`` names an argument that is not such a setting, or one the server sets itself.

    >>> passed_settings(["--ServerApp.log_level=DEBUG", "--MappingKernelManager.cull_interval=30"])
    ['--Voila.log_level=DEBUG', '--MappingKernelManager.cull_interval=30']
    >>> passed_settings(["--ServerApp.allow_origin=*"])
    Traceback (most recent call last):
    ValueError: --ServerApp.allow_origin: Voila serves the tables without a ServerApp and has no 'allow_origin'
    >>> passed_settings(["--Voila.port=9"])
    Traceback (most recent call last):
    ValueError: --Voila.port is set by the server itself: use --port
    """
    voila_traits = Voila.class_traits(config=True)
    argv: list[str] = []
    for arg in extra:
        found = _SETTING.fullmatch(arg)
        if found is None:
            raise ValueError(f"unrecognised argument {arg[:80]!r}: Voila and server settings go as --Class.name=value")
        cls, name, value = found.groups()
        if cls == "ServerApp":
            if name not in voila_traits:
                raise ValueError(f"--ServerApp.{name}: Voila serves the tables without a ServerApp and has no {name!r}")
            cls = "Voila"
        key = f"{cls}.{name}"
        if key in _OWN_SETTINGS:
            instead = _OWN_SETTINGS[key]
            raise ValueError(f"--{key} is set by the server itself" + (f": use {instead}" if instead else ""))
        argv.append(f"--{key}={value}")
    return argv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=_program_name(),
        description="Serve Lanterloo's built book and its live tables on one address.",
        epilog=(
            "Any --Class.name=value is passed to Voila's configuration, for example "
            "--MappingKernelManager.cull_interval=30 or --Voila.tornado_settings=\"{'compress_response': True}\"; "
            "--ServerApp.name=value sets Voila's own setting of that name. "
            "Without --ip the server answers only this computer (127.0.0.1)."
        ),
        allow_abbrev=False,
    )
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000)")
    parser.add_argument(
        "--ip",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this computer only; 0.0.0.0 lets other computers "
        "on the network reach it)",
    )
    parser.add_argument("--book", type=Path, default=DEFAULT_BOOK, help="the built book (default: _build/html)")
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES, help="folder holding only the table notebooks")
    parser.add_argument(
        "--max-idle",
        type=int,
        default=900,
        help="seconds a table's kernel may sit idle with no page connected before it is shut down (default: 900)",
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=DEFAULT_MAX_TABLES,
        help=(
            f"live tables open at once (default: {DEFAULT_MAX_TABLES}); past that a reader gets a 'tables are full' "
            "page, and their saved game waits. Each table's kernel takes about 75 MB of memory, 40 about 3 GB, "
            "besides one ready kernel per table game (about 0.5 GB): 40 or fewer suits an 8 GB machine"
        ),
    )
    parser.add_argument(
        "--max-tables-per-client",
        type=int,
        default=None,
        help="live tables (and new tables just handed out) one client address may have at once (default: "
        "all of them up to 8, else three quarters of --max-tables and at least 8: 30 of 40). A class behind "
        "one router shares one address: raise it for such a class, or set it to --max-tables to turn the "
        "share off",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the server answers to, besides localhost, this machine's host name and its IP addresses "
        "(may be given more than once): a request whose Host is none of these is refused, so that no other site "
        "can reach the tables by pointing its name at this machine",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=DEFAULT_REQUEST_TIMEOUT,
        help=f"seconds the server waits for a request's headers, for its body, and on an idle connection "
        f"(default: {DEFAULT_REQUEST_TIMEOUT:g})",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="the SQLite file where games are saved (default: $LANTERLOO_DB, else the user's data folder)",
    )
    parser.add_argument(
        "--keep-days", type=float, default=365, help="forget games not played for this many days (default: 365)"
    )
    args, extra = parser.parse_known_args(argv)

    # The arguments first, then the files they name.
    if args.keep_days <= 0:
        return _fail("--keep-days must be more than 0")
    if args.max_tables < 1:
        return _fail("--max-tables must be 1 or more")
    if args.max_idle < 1:
        return _fail("--max-idle must be 1 or more")
    if args.max_tables_per_client is None:
        args.max_tables_per_client = default_share(args.max_tables)
    if args.max_tables_per_client < 1:
        return _fail("--max-tables-per-client must be 1 or more")
    if not 1 <= args.request_timeout <= 3600:
        return _fail("--request-timeout must be from 1 to 3600 seconds")
    try:
        settings = passed_settings(extra)
    except ValueError as problem:
        return _fail(str(problem))
    book = args.book.resolve()
    if not (book / "index.html").is_file():
        return _fail(f"no built book at {book} (build it with `make book`, or give its folder with --book)")
    tables = args.tables.resolve()
    if not tables.is_dir():
        return _fail(f"no table folder at {tables} (give the folder of the table notebooks with --tables)")
    db = (args.db.expanduser() if args.db is not None else default_path()).resolve()
    for folder, what in ((book, "the built book"), (tables, "the table folder")):
        if db.is_relative_to(folder):  # the book is served file by file: the saved games would be too
            return _fail(f"the tables' database {db} must not be inside {what} ({folder})")
    try:
        unused = table_store(db).forget_unused()
        idle = table_store(db).forget_idle(args.keep_days * 86_400)
    except Exception as exc:
        return _fail(f"cannot open the tables' database {db}: {exc}")
    os.environ["LANTERLOO_DB"] = str(db)  # the kernels save their games in the same file
    os.environ[PAGE_SHEET_ENV] = "1"  # the table pages link the card sheet: the kernels need not send it
    # Voila finds templates on the Jupyter data path; ours is shipped beside this module.
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(TEMPLATES), os.environ.get("JUPYTER_PATH", "")) if p)
    try:  # say so plainly if the port is taken, rather than a traceback later
        with socket.create_server((args.ip, args.port)):
            pass
    except OSError as exc:
        return _fail(f"cannot listen on {args.ip}:{args.port}: {exc.strerror}")
    LanterlooServer.book_dir = book
    LanterlooServer.db_path = db
    LanterlooServer.max_tables = args.max_tables
    LanterlooServer.request_timeout = args.request_timeout
    LanterlooServer.allowed_hosts = tuple(args.allowed_host)
    LanterlooServer.max_tables_per_client = min(args.max_tables_per_client, args.max_tables)
    _more_files()
    app = LanterlooServer(config=server_config(tables=tables, port=args.port, ip=args.ip, max_idle=args.max_idle))
    try:
        app.initialize(settings)
    except Exception as problem:  # a setting Voila could not take (a bad value, say)
        return _fail(f"Voila would not start with the settings given: {problem}")
    keep_own_tornado_settings(app)
    share_server_log(app.log)
    if unused or idle:
        log.info("forgot %d tables never played and %d not played for %g days", unused, idle, args.keep_days)
    pruned = prune_kernel_logs()
    if pruned:
        log.info("removed %d kernel logs older than %d days from %s", pruned, KERNEL_LOG_DAYS, log_dir())
    print(f"Games are saved in {db}", flush=True)
    print(f"At most {args.max_tables} live tables at once (--max-tables), "
          f"{LanterlooServer.max_tables_per_client} for one client address (--max-tables-per-client)", flush=True)
    print(f"Lanterloo is being served at http://{args.ip}:{args.port}/  (press Ctrl-C to stop)", flush=True)
    # Voila stops its loop on SIGTERM; make Ctrl-C do the same, quietly.
    signal.signal(signal.SIGINT, app._handle_signal_stop)
    app.start()
    print("Lanterloo server stopped.", flush=True)
    return 0


def default_share(max_tables: int) -> int:
    """Tables one client address may have by default: all of a small server's (8 or fewer), else
    three quarters of the cap, and never fewer than 8.

    >>> default_share(40), default_share(10), default_share(2)
    (30, 8, 2)
    """
    return max_tables if max_tables <= 8 else max(8, max_tables * 3 // 4)


def _more_files() -> None:
    """Let the server open as many files (connections among them) as the system allows it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
    except (ImportError, ValueError, OSError):
        pass


def _program_name() -> str:
    """``lanterloo`` when run as the console script, else how it was run."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m widgets.server" if name in ("", "__main__.py", "server.py") else name


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
