"""Keep errors away from readers: callbacks log and show a plain message.

STACK.md: an exception raised in a widget callback is sent to the browser in
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


_installed = False


def install_kernel_guards() -> Path:
    """Route this kernel's stderr and displayed tracebacks to a log file; return the file's path.

    Safe to call more than once.
    """
    global _installed
    path = log_dir() / f"kernel-{os.getpid()}.log"
    if _installed:
        return path
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)  # the file appears with its first line
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

        def showtraceback(*_args: Any, **_kwargs: Any) -> None:
            log.error("traceback suppressed from the page", exc_info=sys.exc_info())

        shell.showtraceback = showtraceback
    _installed = True
    return path
