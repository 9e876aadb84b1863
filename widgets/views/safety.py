"""Keep errors away from readers: callbacks log and show a plain message.

docs/serving.md: an exception raised in a widget callback is sent to the browser in
full, and so is anything written to stderr.  Two layers stop that here:

* :func:`guarded` wraps each callback; an error is logged on the server and
  the reader sees a short message in the view's status line.
* :func:`install_kernel_guards` (run first in every live-table notebook)
  sends the kernel's stderr and any traceback IPython would display to the
  log file instead of the page.

The server adds a third layer: it drops error and stderr messages on the
kernel websocket (see ``widgets.server``).
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger("lanterloo.widgets")

F = TypeVar("F", bound=Callable[..., Any])

READER_MESSAGE = "Something went wrong there, and it has been logged. Your game is unchanged; please try again."


def log_dir() -> Path:
    """Where kernels write their logs: ``$LANTERLOO_LOG_DIR`` or ``~/.cache/lanterloo/logs``."""
    base = os.environ.get("LANTERLOO_LOG_DIR") or str(Path.home() / ".cache" / "lanterloo" / "logs")
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


KERNEL_LOG_DAYS = 14
"""How long a kernel's log is kept after its last line (:func:`prune_kernel_logs`)."""


def prune_kernel_logs(days: float = KERNEL_LOG_DAYS, *, now: float | None = None) -> int:
    """Remove the kernel logs last written more than ``days`` ago; return how many went.

    The server calls it at start. Only ``kernel-<pid>.log`` files are touched, never anything else
    in the folder.
    """
    folder = log_dir()
    cutoff = (time.time() if now is None else now) - days * 86_400
    removed = 0
    for path in folder.glob("kernel-*.log"):
        try:
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except OSError:  # gone already, or not ours to remove: leave it
            continue
    return removed


def guarded(report: Callable[[str], None]) -> Callable[[F], F]:
    """Decorate a callback so that an exception is logged and ``report`` shows the reader a plain message."""

    def decorate(callback: F) -> F:
        @functools.wraps(callback)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return callback(*args, **kwargs)
            except Exception:
                log.exception("error in widget callback %s", getattr(callback, "__qualname__", callback))
                try:
                    report(READER_MESSAGE)
                except Exception:  # the report itself must never raise into the kernel
                    log.exception("could not show the error message")
                return None

        return wrapper  # type: ignore[return-value]

    return decorate


KERNEL_LOG_BYTES = 1 << 20
"""The most a kernel writes to its log file (:class:`CappedFileHandler`): a page that sent malformed
widget updates over and over wrote its kernel's log at 1.5 MB a second, and a full disk stops every
table saving its game."""


class CappedFileHandler(logging.FileHandler):
    """A log file that stops at ``max_bytes``, with a last line saying so; the lines after it are left out."""

    def __init__(self, path: Path, max_bytes: int = KERNEL_LOG_BYTES) -> None:
        super().__init__(path, encoding="utf-8", delay=True)  # the file appears with its first line
        self.max_bytes = max_bytes
        self.written = path.stat().st_size if path.exists() else 0
        self.stopped = self.written >= max_bytes

    def emit(self, record: logging.LogRecord) -> None:
        if self.stopped:
            return
        try:
            line = self.format(record) + self.terminator
        except Exception:
            self.handleError(record)
            return
        size = len(line.encode("utf-8", "replace"))
        if self.written + size > self.max_bytes:
            self.stopped = True
            line = f"this kernel's log stopped at {self.max_bytes >> 10} KB: its further lines are left out\n"
            size = len(line)
        try:
            if self.stream is None:
                self.stream = self._open()
            self.stream.write(line)
            self.flush()
        except Exception:
            self.handleError(record)
        self.written += size


REFUSED_LINES_PER_MINUTE = 30
"""The lines a page's refused widget messages may write to its kernel's log in a minute (:class:`Refusals`)."""


class Refusals:
    """The log's lines for the widget messages a page sent that the kernel refused (a malformed
    update, a value of the wrong kind): one short line each, at most ``per_minute`` a minute, then a
    line saying the rest are counted, and at the next refusal after the minute how many were left out.
    A kernel serves one page, so its page is the client whose budget this is: a page that sent
    malformed updates as fast as it could wrote a line each, 680 KB in ten seconds (bench/attack.py
    updates), till the file's cap."""

    def __init__(self, per_minute: int = REFUSED_LINES_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self._began = -float("inf")
        self._written = self._left_out = 0

    def say(self, what: str | Callable[[], str]) -> None:
        """Write ``what`` (or what it makes, made only if written: a refusal counted costs no words)."""
        now = time.monotonic()
        if now - self._began >= 60:
            if self._left_out:
                log.warning(
                    "%d more of the page's widget messages were refused in a minute (not written)", self._left_out
                )
            self._began, self._written, self._left_out = now, 0, 0
        if self._written < self.per_minute:
            self._written += 1
            log.warning("a page's widget message was refused: %.300s", what if isinstance(what, str) else what())
            if self._written == self.per_minute:
                log.warning("the page's next refused widget messages this minute are counted, not written")
        else:
            self._left_out += 1


class _LogStream:
    """A text stream that writes to the log, used in place of the kernel's stderr."""

    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger
        self._buffer = ""

    def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            if line.strip():
                self._logger.warning("stderr: %s", line)
        return len(text)

    def flush(self) -> None:
        if self._buffer.strip():
            self._logger.warning("stderr: %s", self._buffer)
        self._buffer = ""

    def isatty(self) -> bool:
        return False


def _from_a_page(trace: Any) -> bool:
    """Whether a traceback is of a widget message a page sent (ipywidgets' ``_handle_msg`` is in it):
    a malformed update, a value of the wrong kind; the page's doing, not the table's."""
    while trace is not None:
        if trace.tb_frame.f_code.co_name == "_handle_msg":
            return True
        trace = trace.tb_next
    return False


_installed = False


def install_kernel_guards() -> Path:
    """Route this kernel's stderr and displayed tracebacks to a log file; return the file's path.

    Safe to call more than once.
    """
    global _installed
    path = log_dir() / f"kernel-{os.getpid()}.log"
    if _installed:
        return path
    handler = CappedFileHandler(path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("lanterloo")
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    root.propagate = False  # never reach a handler that writes to the page
    sys.stderr = _LogStream(logging.getLogger("lanterloo.stderr"))
    try:
        from IPython import get_ipython
    except ImportError:  # not in a kernel: nothing more to guard
        get_ipython = None
    shell = get_ipython() if get_ipython is not None else None
    if shell is not None:
        refusals = Refusals()

        def showtraceback(*_args: Any, **_kwargs: Any) -> None:
            kind, error, trace = sys.exc_info()
            if _from_a_page(trace):  # a short line: a page could have the kernel write it as often as it sends
                refusals.say(lambda: f"{getattr(kind, '__name__', kind)}: {str(error)[:300]}")
            else:
                log.error("traceback suppressed from the page", exc_info=True)

        shell.showtraceback = showtraceback
    _installed = True
    return path
