"""The teacher's console's address, token and all, kept for its owner alone (issue 28): never printed
on the terminal, which a classroom's projector may show, but written to a file only they may read."""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path


def address_file(port: int) -> Path:
    """Where the server keeps its console's address, token and all (:func:`keep_address`): the
    server's folder in the user's cache (``$LANTERLOO_LOG_DIR``, its kernels' logs), one file a port."""
    from widgets.views.safety import log_dir

    return log_dir() / f"console-{port}.txt"


def keep_address(path: Path, address: str) -> None:
    """Write ``address`` (the console's, with its token) to ``path``, readable and writable by this
    user alone: never to the terminal, which a classroom's projector may show (issue 28). A file left
    by an earlier start is replaced, never written through (it could be a link elsewhere)."""
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(descriptor, "w") as kept:
        kept.write(address + "\n")


def console_banner(address: str, token: str, port: int, base_url: str) -> str:
    """What the server says at start of the teacher's console (``address``, without its ``token``):
    how to open it, never the token (a teacher's terminal is often on the projector). The address with
    its token goes to a file its owner alone may read (:func:`keep_address`)."""
    path = address_file(port)
    try:
        keep_address(path, f"{address}?token={token}")
    except OSError as error:
        return (
            f"The teacher's console is at {address}, but its token could not be kept in {path} ({error}): "
            "start the server again once that folder can be written."
        )
    return (
        f"The teacher's console is at {address}; its address with the token, to keep to yourself, is in\n"
        f"  {path}  (readable by you alone). Open it from this machine with:\n"
        f'  xdg-open "$(cat {path})"\n'
        f"  Opened once, the token is swapped for a session cookie in that browser and the address bar shows "
        f"{base_url}console alone; on another computer, open {base_url}console and paste the token (the part "
        "after token= in that file)."
    )


def forget_address(port: int) -> None:
    """The server has stopped: its console's token opens nothing now, and its file goes."""
    with suppress(OSError):
        address_file(port).unlink(missing_ok=True)
