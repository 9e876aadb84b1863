"""A table's kernel: ipykernel's, started without what a table never uses.

The server (:class:`widgets.server.kernels.TableKernelSpecManager`) starts every table's kernel as
``python -OO -m widgets.kernel.table_kernel -f <connection file>``. ipykernel loads its debugger
(debugpy, about 8 MB resident) in every kernel it can find it for; a table's page can send no code
and no debug request, so here the debugger is made unfindable before ipykernel starts (and psutil,
which only ipykernel's resource-usage reply uses, about 1 MB).

So is OpenSSL (:func:`lean_modules`): its libcrypto, mapped by Python's ``ssl`` and ``hashlib``,
made 3.4 MB of a table kernel's 52 MB resident (issue 21 asks under 50 MB each). A table kernel
signs its messages with HMAC-SHA256 all the same (``hmac`` and ``hashlib`` fall back to the
standard library's own SHA-2), and asyncio runs without ``ssl``. A kernel that does need TLS keeps
it: one whose games are saved on PostgreSQL (psycopg imports ``ssl``), or one whose server's
request-details websocket is ``wss://`` (:mod:`widgets.kernel.request`).

One thing more: a kernel's own log keeps to a line per error (:func:`quiet_kernel_log`). Its
stderr is the server's terminal and log file, and ipykernel 7, told to shut down, closes its sockets
and then tries to say "idle" on one of them: pyzmq wrote a 30-line traceback for that, now and then,
at a table closed in the ordinary way.

Everything else is ipykernel's own launch.
"""

from __future__ import annotations

import errno
import logging
import os
import sys

# What no table kernel imports: ipykernel's debugger, and psutil (only its usage report needs it).
NEVER = ("debugpy", "psutil")
# OpenSSL's modules, which a table kernel imports only where it needs TLS (see the module's text).
OPENSSL = ("_ssl", "_hashlib")


def needs_tls(environ: dict[str, str] | os._Environ[str]) -> bool:
    """Whether a kernel started with ``environ`` needs OpenSSL: its store is PostgreSQL (a
    ``postgresql://`` address in ``$LANTERLOO_DB``), or its request-details socket is ``wss``."""
    database = environ.get("LANTERLOO_DB", "").lower()  # as widgets.store.postgres.is_database_url reads it
    return database.startswith(("postgresql://", "postgres://")) or environ.get("VOILA_WS_PROTOCOL") == "wss"


def lean_modules(environ: dict[str, str] | os._Environ[str]) -> tuple[str, ...]:
    """The modules made unfindable in a table kernel started with ``environ``."""
    return NEVER if needs_tls(environ) else NEVER + OPENSSL


# How pyzmq begins its line for an error in a socket's callback (tornado's "general" logger).
ZMQ_CALLBACK = "Uncaught exception in ZMQStream callback"


class OneLineAtMost(logging.Filter):
    """pyzmq's callback errors in a table's kernel: none for a socket the kernel has itself closed
    (``ENOTSOCK``, only ever while it shuts down), one line with the error's kind and words for any
    other, never the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not (isinstance(record.msg, str) and record.msg.startswith(ZMQ_CALLBACK) and record.exc_info):
            return True
        kind, error = record.exc_info[0], record.exc_info[1]
        if getattr(error, "errno", None) == errno.ENOTSOCK:
            return False
        record.msg = f"{record.getMessage()} ({kind.__name__ if kind else 'error'}: {error})"
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        return True


def quiet_kernel_log() -> None:
    """Put :class:`OneLineAtMost` on the logger pyzmq writes its callback errors to (once)."""
    general = logging.getLogger("tornado.general")
    if not any(isinstance(f, OneLineAtMost) for f in general.filters):
        general.addFilter(OneLineAtMost())


def main() -> None:
    quiet_kernel_log()
    for name in lean_modules(os.environ):
        sys.modules[name] = None  # type: ignore[assignment]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
