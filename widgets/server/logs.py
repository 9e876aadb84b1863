"""The server's log: one format for every line, and what a client may cause to be written.

Everything the server logs about what a client did goes through :class:`ClientLog`
(:data:`quiet_log`): at most :data:`LOG_LINES_PER_CLIENT_MINUTE` lines a client address a minute,
then one summary line. Lines written once per connection, or once per table closed, are left out
or written once a minute (:class:`EveryConnection`, :class:`OncePerMinute`). No line holds a
``token=`` or ``seat=`` argument's value (:func:`hide_tokens`, :class:`HideTokens`): the teacher's
console's token is taken once and never logged (:mod:`widgets.server.console`), and this is the
net under it; a seat's invitation token opens that seat's cards.
"""

from __future__ import annotations

import logging
import logging.handlers
import math
import re
import time
from pathlib import Path
from typing import Any

import tornado.httputil
import tornado.iostream
import tornado.routing
import tornado.web
import tornado.websocket

log = logging.getLogger("lanterloo.server")


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
        self.write(logging.WARNING, client, message, *args, logger=logger)

    def error(self, client: str | None, message: str, *args: Any, exc_info: Any = None) -> None:
        """Write ``message % args`` at ERROR (with ``exc_info``'s traceback if given), within ``client``'s budget."""
        self.write(logging.ERROR, client, message, *args, exc_info=exc_info)

    def allows(self, client: str | None) -> bool:
        """Count one line about ``client``: True if it may be written (its budget is not spent this minute)."""
        allowed, last = self._count(client or "?")
        if last:
            self.logger.warning("client %s: no more lines about it this minute", client or "?")
        return allowed

    def write(
        self,
        level: int,
        client: str | None,
        message: str,
        *args: Any,
        logger: logging.Logger | None = None,
        exc_info: Any = None,
    ) -> None:
        """Write ``message % args`` at ``level``, within ``client``'s budget."""
        allowed, last = self._count(client or "?")
        if allowed:
            (logger or self.logger).log(level, message, *args, exc_info=exc_info)
        if last:
            self.logger.warning("client %s: no more lines about it this minute", client or "?")

    def _count(self, client: str) -> tuple[bool, bool]:
        """Whether a line about ``client`` may be written now, and whether it is the last this minute."""
        now = time.monotonic()
        began, written, left_out = self._minutes.get(client, (now, 0, 0))
        if now - began >= 60:
            if left_out:
                self.logger.warning(
                    "%d more lines about client %s left out of the log in the last minute", left_out, client
                )
            began, written, left_out = now, 0, 0
        allowed = written < self.per_minute
        if allowed:
            written += 1
        else:
            left_out += 1
        self._minutes[client] = (began, written, left_out)
        if len(self._minutes) > 10_000:  # many clients: forget the quiet ones
            self._minutes = {c: v for c, v in self._minutes.items() if now - v[0] < 60}
        return allowed, allowed and written == self.per_minute


quiet_log = ClientLog(log)

SECRET_ARGUMENTS = ("token", "seat")
"""The arguments whose values open what is not the log reader's: the teacher's console (``token=``)
and a seat of a shared table, with its cards (``seat=``, the seat's invitation token)."""


def _spelled(name: str) -> str:
    """A pattern for ``name`` with any of its letters percent-encoded, as an address may have it."""
    return "".join(f"(?:{c}|%{ord(c):02x})" for c in name)


# A secret argument in an address or a line (its name percent-encoded too), up to the next
# argument, space or quote: what :func:`hide_tokens` hides.
_TOKEN_ARGUMENT = re.compile(
    "((?:" + "|".join(_spelled(n) for n in SECRET_ARGUMENTS) + r")(?:=|%3d))[^&;#\s'\"]*", re.IGNORECASE
)
HIDDEN = "[hidden]"


def hide_tokens(text: str) -> str:
    """``text`` with the value of every ``token=`` and ``seat=`` argument in it hidden
    (:data:`SECRET_ARGUMENTS`).

    >>> hide_tokens("GET /console?token=s3cret&x=1 (127.0.0.1)")
    'GET /console?token=[hidden]&x=1 (127.0.0.1)'
    >>> hide_tokens("uri='/console?%74oken=s3cret'")
    "uri='/console?%74oken=[hidden]'"
    >>> hide_tokens("GET /tables/nap?table=AbC&seat=s3cret (127.0.0.1)")
    'GET /tables/nap?table=AbC&seat=[hidden] (127.0.0.1)'
    """
    return _TOKEN_ARGUMENT.sub(lambda m: m[1] + HIDDEN, text)


class HideTokens(logging.Filter):
    """A handler's filter: a line (and its traceback) with a ``token=`` argument's value hidden
    (:func:`hide_tokens`), whichever logger wrote it, tornado's "Uncaught exception" line among them,
    which names the request's whole address."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
            hidden = hide_tokens(message)
            if hidden != message:
                record.msg, record.args = hidden, None
            if record.exc_info and not record.exc_text:
                record.exc_text = logging.Formatter().formatException(record.exc_info)
            if record.exc_text:
                record.exc_text = hide_tokens(record.exc_text)
        except Exception:  # a line that cannot be formatted: the handler says so as it would have
            pass
        return True


def log_request(handler: tornado.web.RequestHandler) -> None:
    """The access log (tornado's ``log_function``): failed requests only, as tornado.access at
    WARNING wrote them, but through :class:`ClientLog`, so that one client asking for missing or
    refused pages cannot fill the log (every refused request-details socket was a line)."""
    status = handler.get_status()
    if status < 400:
        return
    request = handler.request
    line = "%d %.300s %.2fms%s"  # the address cut short: a 70 KB one made each line 70 KB
    failure = getattr(handler, "failure", "")  # an unexpected exception's name and words (QuietErrors)
    summary, failure = hide_tokens(handler._request_summary()), hide_tokens(failure)
    args = (status, summary, 1000.0 * request.request_time(), f": {failure}" if failure else "")
    # Every failed request, a server error too, is a line within the client's budget: a client
    # that could make the server fail could otherwise write the log as fast as it asks.
    level = logging.ERROR if status >= 500 and status != 503 else logging.WARNING  # 503: the tables-full page
    quiet_log.write(level, request.remote_ip, line, *args, logger=logging.getLogger("tornado.access"))


# One format for every line the server logs: Voila's, jupyter_server's, tornado's and ours.
LOG_FORMAT = "[%(levelname)1.1s %(asctime)s %(name)s] %(message)s"
LOG_DATEFMT = "%Y-%m-%d %H:%M:%S"
# The loggers that write to the server's log besides Voila's own, with the least level written.
# tornado.access at WARNING: failed requests are logged, not every script and card served.
SERVER_LOGGERS = {
    "lanterloo": logging.INFO,
    "tornado.access": logging.WARNING,
    "tornado.application": logging.INFO,
    "tornado.general": logging.INFO,
}


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


class ClientLines(logging.Filter):
    """Lets the lines tornado and jupyter_server write for a client's bad request through within that
    client's budget (:data:`quiet_log`): a malformed request ("Malformed HTTP message from <client>"),
    a body never sent; lines that do not name their client (a cross-origin websocket refused) are let
    through once a minute (:class:`OncePerMinute`). Each such request has its access line besides."""

    BY_CLIENT = ("Malformed HTTP message from ", "Timeout reading body from ")
    UNNAMED = ("Blocking Cross Origin", "wrote error", "Couldn't authenticate WebSocket connection")

    def __init__(self) -> None:
        super().__init__()
        self._unnamed = OncePerMinute(*self.UNNAMED)

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str):
            return True
        if record.msg.startswith(self.BY_CLIENT):
            args = record.args if isinstance(record.args, tuple) else ()
            return quiet_log.allows(str(args[0]) if args else None)
        return self._unnamed.filter(record)


class NoTraceback(logging.Filter):
    """A line that starts with one of ``prefixes`` keeps its error's kind and words on one line, without
    the traceback. pyzmq writes "Uncaught exception in ZMQStream callback" with a whole traceback
    when a kernel's message cannot be passed on (a reader's websocket gone, no file left to open):
    under an attack that leaves the server out of files, a traceback for each."""

    def __init__(self, *prefixes: str) -> None:
        super().__init__()
        self.prefixes = prefixes

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(self.prefixes) and record.exc_info:
            kind, error = record.exc_info[0], record.exc_info[1]
            said = f"{kind.__name__ if kind else 'error'}: {error}" if error is not None else "no detail"
            record.msg = f"{record.getMessage()} ({said})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


ZMQ_CALLBACK = "Uncaught exception in ZMQStream callback"


# The server's log file: a few megabytes, then the oldest lines go (two older files are kept).
LOG_FILE_BYTES = 5 << 20
# What a server says on its terminal unless asked for more (--log-level): warnings and errors.
TERMINAL_LEVEL = logging.WARNING
# Warnings a teacher's terminal need not show, every start: the table notebooks are the server's own and
# are run by design, so their being "not trusted" (jupyter_server says so of each) tells nobody anything.
TERMINAL_NOISE = ("Notebook %s is not trusted",)


class NotOnTheTerminal(logging.Filter):
    """Leaves out of the terminal the lines in :data:`TERMINAL_NOISE` (the log file keeps them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in TERMINAL_NOISE


def split_server_log(
    voila_log: logging.Logger | logging.LoggerAdapter[Any], path: Path, terminal_level: int = TERMINAL_LEVEL
) -> logging.Handler:
    """Every line of the server's log (Voila's and, once :func:`share_server_log` has run, the
    server's own) to the file at ``path``; to the terminal, only lines at ``terminal_level`` or above,
    less :data:`TERMINAL_NOISE` unless the terminal was asked for everything (``--log-level info``).

    A teacher's terminal is often mirrored on the projector: it showed Voila's own address line (a
    second, different address), a trust warning for each table notebook and a line for each kernel
    started, around the few lines a teacher needs (issue 29)."""
    logger = voila_log.logger if isinstance(voila_log, logging.LoggerAdapter) else voila_log
    to_file = logging.handlers.RotatingFileHandler(path, maxBytes=LOG_FILE_BYTES, backupCount=2, encoding="utf-8")
    to_file.setFormatter(logging.Formatter(LOG_FORMAT, LOG_DATEFMT))
    to_file.setLevel(min(terminal_level, logging.INFO))
    for handler in logger.handlers:
        handler.setLevel(terminal_level)
        if terminal_level > logging.INFO:
            handler.addFilter(NotOnTheTerminal())
    logger.addHandler(to_file)
    logger.setLevel(min(terminal_level, logging.INFO))
    return to_file


def share_server_log(voila_log: logging.Logger | logging.LoggerAdapter[Any]) -> None:
    """Send the server's own loggers and tornado's through Voila's handlers, in its format."""
    logger = voila_log.logger if isinstance(voila_log, logging.LoggerAdapter) else voila_log
    if not any(isinstance(f, EveryConnection) for f in logger.filters):
        logger.addFilter(EveryConnection())
        logger.addFilter(ClientLines())
        logging.getLogger("tornado.application").addFilter(EveryConnection())
    general = logging.getLogger("tornado.general")
    if not any(isinstance(f, OncePerMinute) for f in general.filters):
        general.addFilter(OncePerMinute("Got events for closed stream", ZMQ_CALLBACK))
        general.addFilter(NoTraceback(ZMQ_CALLBACK))
        general.addFilter(ClientLines())
    for handler in logger.handlers:
        if not any(isinstance(f, HideTokens) for f in handler.filters):
            handler.addFilter(HideTokens())
    for name, level in SERVER_LOGGERS.items():
        target = logging.getLogger(name)
        target.handlers = list(logger.handlers)
        target.setLevel(level)
        target.propagate = False
