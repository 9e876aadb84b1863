"""What a failed request costs: a short plain page for the client, one short line in the log.

jupyter_server's handlers (Voila's are built on them) render their error pages from templates
that a server without jupyter_server's ServerApp cannot render: every 404 of a kernel websocket
that does not exist, of a ``%c0%ae`` in a path, of a ``%2e%2e`` under ``/voila/labextensions/``
failed again in ``write_error`` and wrote some 4.5 KB of traceback. One client so wrote the log
at 1.5 MB a second. Every handler the server routes to is given :class:`QuietErrors`
(:func:`quiet_routes`; the server's own pages that write their own keep them): its error page
is a line of plain text, a refusal (an ``HTTPError``) is logged by the access line alone
(:func:`widgets.server.logs.log_request`, counted against the client's budget), and so is any
other exception, named on that line, its traceback written at most once a minute for the whole
server (:data:`traceback_log`).
"""

from __future__ import annotations

import http.client
import logging
import traceback
from types import TracebackType
from typing import Any

import tornado.web

from widgets.server.logs import ClientLog

log = logging.getLogger("lanterloo.server")

# Tracebacks of exceptions a request raised, for the whole server: one a minute; the short line of
# each (:class:`QuietErrors`) is counted against its client's budget as any other line.
traceback_log = ClientLog(log, per_minute=1)


class QuietLog:
    """A handler's exceptions logged quietly: a refusal by its access line alone, any other named on
    that line, its traceback once a minute for the whole server."""

    request: Any
    failure = ""  # what a request's unexpected exception was, for its access line

    def log_exception(
        self, typ: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        if isinstance(value, tornado.web.HTTPError):
            return  # a refusal: the access line says so (log_request), within the client's budget
        what = "".join(traceback.format_exception_only(typ, value)).strip() if typ is not None else "an error"
        self.failure = what[:300]  # the access line says it (log_request), within the client's budget
        traceback_log.error(
            "traceback", "the traceback of a failed request (one a minute is written)", exc_info=(typ, value, tb)
        )


class QuietErrors(QuietLog):
    """A handler's errors, quietly: a plain one-line page, and at most one short log line."""

    def write_error(self, status_code: int, **_kwargs: Any) -> None:
        handler: Any = self
        reason = http.client.responses.get(status_code, "Error")
        handler.set_header("Content-Type", "text/plain; charset=utf-8")
        handler.set_header("Cache-Control", "no-store")
        handler.finish(f"{status_code} {reason}\n")


_quiet: dict[type[Any], type[Any]] = {}


def quiet_handler(handler: type[tornado.web.RequestHandler]) -> type[tornado.web.RequestHandler]:
    """``handler``'s class with :class:`QuietErrors` before it (made once per class); a handler of the
    server's own that writes its own error pages (the teacher's console) keeps them, with :class:`QuietLog`."""
    if issubclass(handler, QuietLog):
        return handler
    if handler not in _quiet:
        own_pages = any("write_error" in vars(k) and k.__module__.startswith("widgets.") for k in handler.__mro__)
        mixin = QuietLog if own_pages else QuietErrors
        _quiet[handler] = type(handler.__name__, (mixin, handler), {"__module__": handler.__module__})
    return _quiet[handler]


def quiet_routes(routes: list[Any]) -> list[Any]:
    """Every route of ``routes`` (tornado's tuples: pattern, handler class, keyword arguments) with
    its handler made quiet (:func:`quiet_handler`)."""
    quiet = []
    for spec in routes:
        if isinstance(spec, tuple) and len(spec) >= 2 and isinstance(spec[1], type):
            spec = (spec[0], quiet_handler(spec[1]), *spec[2:])
        quiet.append(spec)
    return quiet
