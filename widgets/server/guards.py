"""Bounds on HTTP itself: timeouts and sizes, running out of files, and the names the server answers to.

The HTTP server waits ``--request-timeout`` seconds (:data:`DEFAULT_REQUEST_TIMEOUT`) for a
request's headers, its body, and on an idle connection, and reads at most
:data:`MAX_HEADER_BYTES` of head and :data:`MAX_BODY_BYTES` of body; an address over
:data:`MAX_URI_BYTES` gets a plain 414, a ``Host`` that is not the server's a plain 400
(:class:`RefusedRequest`); out of files, the server pauses accepting (:func:`quiet_accept_handler`).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import socket
import weakref
from collections.abc import Callable, Iterable
from typing import Any

import tornado.httputil
import tornado.iostream
import tornado.routing
import tornado.web
import tornado.websocket

from widgets.server.logs import ClientLog, quiet_log

log = logging.getLogger("lanterloo.server")


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
RESOURCE_ERRORS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
# Out of files, the accept loop pauses twice a second: it says so once a minute, with a count.
accept_log = ClientLog(log, per_minute=1)
# Connections one client address may hold open at once; past that a new one is closed as it is
# accepted. A page needs a handful (a browser opens six to a server, and a table's websocket); a
# class of 30 behind one router about 250. One client that opened 20,000 requests and never
# finished them grew the server by 90 MB (bench/attack.py, partial) while they waited to time out.
MAX_CONNECTIONS_PER_CLIENT = 512


class ConnectionCount:
    """The connections open from each client address. A connection counts from its accept until
    its socket is closed and let go (tornado drops its socket object when the stream closes)."""

    def __init__(self) -> None:
        self.open: dict[str, int] = {}

    def take(self, connection: socket.socket, client: str) -> bool:
        """Count ``connection``, from the address ``client``; False (and not counted) if that address
        has :data:`MAX_CONNECTIONS_PER_CLIENT` open already."""
        if self.open.get(client, 0) >= MAX_CONNECTIONS_PER_CLIENT:
            return False
        self.open[client] = self.open.get(client, 0) + 1
        weakref.finalize(connection, self._closed, client)
        return True

    def _closed(self, client: str) -> None:
        left = self.open.get(client, 0) - 1
        if left > 0:
            self.open[client] = left
        else:
            self.open.pop(client, None)


connections = ConnectionCount()


def quiet_accept_handler(sock: socket.socket, callback: Callable[[socket.socket, Any], None]) -> Callable[[], None]:
    """tornado's ``add_accept_handler``, except that running out of files (EMFILE and its kin)
    pauses accepting for :data:`ACCEPT_PAUSE_SECONDS` and logs one line a minute, where tornado's
    raised from the loop at every turn: 870 MB of tracebacks in one attack; and that a client
    address with :data:`MAX_CONNECTIONS_PER_CLIENT` connections open has any more closed at once."""
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
                if error.errno not in RESOURCE_ERRORS:
                    raise
                accept_log.warning(
                    "accept",
                    "cannot accept connections (%s): pausing %.1f s",
                    os.strerror(error.errno or 0),
                    ACCEPT_PAUSE_SECONDS,
                )
                paused[0] = True
                io_loop.remove_handler(sock)
                io_loop.call_later(ACCEPT_PAUSE_SECONDS, resume)
                return
            client = str(address[0]) if isinstance(address, tuple) and address else "?"
            if not connections.take(connection, client):
                quiet_log.warning(
                    client, "closed a connection from %s, which has %d open already", client, MAX_CONNECTIONS_PER_CLIENT
                )
                with contextlib.suppress(OSError):
                    connection.close()
                continue
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
        if len(self.request.uri or "") > MAX_URI_BYTES:
            status, text = 414, "This address is too long for this server."
        else:
            status, text = 400, "This server does not answer to that name. Use its own address."
        # Said on the request's one access line (widgets.server.logs.log_request), within its client's budget.
        self.failure = (
            f"refused: Host {self.request.headers.get('Host', '')[:80]!r}, {len(self.request.uri or '')}-byte address"
        )
        self.set_status(status)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(text + "\n")
