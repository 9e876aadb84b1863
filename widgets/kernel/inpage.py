"""A live table in the reader's own browser: the server's table widgets, run by Pyodide in a Web Worker.

Nothing in this module runs on the server. The page's script (``web/inpage/inpage.js``)
starts a worker (``web/inpage/worker.mjs``) that boots Pyodide, unpacks ipywidgets and
this project onto its path, and calls :func:`install` with a function that posts one JSON message
to the page. From then on:

* every widget's comm is a :class:`PageComm`: what Python's half of a widget sends (its opening
  state, its updates, its closing) goes to the page, whose widget manager draws it;
* the page hands what the reader does (a click, a choice) to :func:`receive`, which gives it to
  the widget's comm as a kernel would, and answers ``idle`` so the page knows it was handled;
* :func:`open_table` builds the same :class:`~widgets.views.live_table.LiveTable` the server's tables
  show, its game kept by :class:`~widgets.table.journal.MemoryJournals`, which hands every change to the
  page to keep in the browser's storage, and "displays" it by naming its model to the page.

ipywidgets imports a few things from IPython when it is imported; IPython itself is large and
needs parts of Python that Pyodide's core lacks, so :func:`install` puts a small stand-in in its
place (``get_ipython`` answers None: there is no shell; ``display`` names a widget to the page).

A table here hides nothing from a curious reader: the whole deal is in the reader's own computer.
The page says so; the server's tables are the ones that keep the other hands hidden.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import sys
import types
from collections.abc import Callable
from typing import Any

Post = Callable[[str], None]
"""Hands one message, as JSON text, to the page."""

_post: Post | None = None


def _send(message: dict[str, Any]) -> None:
    if _post is None:
        raise RuntimeError("widgets.kernel.inpage.install() has not been called")
    _post(json.dumps(message, separators=(",", ":")))


# ----- the IPython stand-in ----------------------------------------------------------------------


def _display(*objects: Any, **_options: Any) -> None:
    """Show widgets in the page's table box: the page draws each by its model's id."""
    for obj in objects:
        model_id = getattr(obj, "model_id", None)
        if model_id is None:
            raise TypeError(f"only widgets can be shown in an in-page table, not {type(obj).__name__}")
        _send({"type": "display", "model_id": model_id})


def _clear_output(wait: bool = False) -> None:
    """Nothing to clear: an in-page table has no output area of its own."""


class _InteractiveShell:
    """What ``ipywidgets.Output`` asks of IPython's shell class: whether a shell is running (no)."""

    @classmethod
    def initialized(cls) -> bool:
        return False


def _stand_in_for_ipython() -> None:
    """Put the few names ipywidgets imports from IPython in ``sys.modules``, if IPython is absent."""
    try:
        import IPython  # noqa: F401 - a real IPython is there: leave it be
    except ImportError:
        pass
    else:
        return
    ipython = types.ModuleType("IPython", "A stand-in for IPython in the reader's browser (widgets.kernel.inpage).")
    display = types.ModuleType("IPython.display")
    core = types.ModuleType("IPython.core")
    shell = types.ModuleType("IPython.core.interactiveshell")
    ipython.get_ipython = lambda: None  # type: ignore[attr-defined]
    ipython.display = _display  # type: ignore[attr-defined]
    display.display = _display  # type: ignore[attr-defined]
    display.clear_output = _clear_output  # type: ignore[attr-defined]
    shell.InteractiveShell = _InteractiveShell  # type: ignore[attr-defined]
    ipython.core = core  # type: ignore[attr-defined]
    core.interactiveshell = shell  # type: ignore[attr-defined]
    sys.modules.update(
        {"IPython": ipython, "IPython.display": display, "IPython.core": core, "IPython.core.interactiveshell": shell}
    )


# ----- comms to the page ---------------------------------------------------------------------------


def _page_comm_class() -> type:
    from comm.base_comm import BaseComm

    class PageComm(BaseComm):
        """A widget's comm whose other end is the page's widget manager."""

        def publish_msg(
            self,
            msg_type: str,
            data: dict[str, Any] | None = None,
            metadata: dict[str, Any] | None = None,
            buffers: list[bytes] | None = None,
            **keys: Any,
        ) -> None:
            if buffers:  # ipywidgets sends binary buffers only for images and the like, which no table uses
                raise ValueError("an in-page table's widgets send no binary buffers")
            message: dict[str, Any] = {
                "type": msg_type,
                "comm_id": self.comm_id,
                "data": data or {},
                "metadata": metadata or {},
            }
            if msg_type == "comm_open":
                message["target_name"] = keys.get("target_name", self.target_name)
            _send(message)

    return PageComm


class _PageLog(logging.Handler):
    """Log records go to the page as ``{"type": "log"}`` lines, kept there for a maintainer."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            _send({"type": "log", "text": self.format(record)})
        except Exception:  # a log line must never break the table
            pass


def prepare() -> None:
    """Import what a table needs (ipywidgets, the engine, the table's widgets), with no tie to the page.

    The worker calls this before :func:`install`, and on a reader's first visit takes a snapshot of
    Python's memory just after it (nothing in it refers to the page yet), which the browser keeps:
    later visits start from that snapshot instead of starting Python and importing all this again.
    """
    _stand_in_for_ipython()
    import comm.base_comm  # noqa: F401
    import ipywidgets  # noqa: F401

    from widgets.kernel import table_router  # noqa: F401  (the table's widgets and their router, and the engine)


def install(post: Post) -> None:
    """Make this Python the kernel of the page's widgets: ``post`` takes each message for the page."""
    global _post
    _post = post
    handler = _PageLog()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("lanterloo")
    root.handlers = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False
    _stand_in_for_ipython()
    import comm

    page_comm = _page_comm_class()
    comm.create_comm = lambda *args, **kwargs: page_comm(*args, **kwargs)
    from widgets.draw import law_refs
    from widgets.table import hints
    from widgets.views import live_table

    law_refs.index_root = "../"  # the book's index of laws, from play/<game>.html
    hints.effort = hints.IN_BROWSER  # a hint that answers in about a second and a half here (widgets.table.hints)
    live_table.home = live_table.Home(
        page_address,
        "This game is kept in this browser as you play: come back to this page, after a reload or another "
        "day, and it carries on.",
    )


def page_address(game: str, deal: str | None = None) -> str:
    """A new table of this page's game is this very page (with ``?deal=`` to deal a code's hand)."""
    from urllib.parse import quote

    return f"?deal={quote(deal)}" if deal else "?"


def receive(text: str) -> None:
    """A message from the page, as JSON text: a widget's message, or a comm the page closed.

    ``{"type": "comm_msg", "comm_id": ..., "data": ..., "id": n}`` goes to the widget's comm as a
    kernel would hand it; the page is then told ``{"type": "idle", "id": n}``, which it needs to
    send the widget's next update (ipywidgets holds updates back while one is being handled).
    """
    import comm

    message = json.loads(text)
    kind = message.get("type")
    content = {"comm_id": message.get("comm_id"), "data": message.get("data") or {}}
    wrapped: dict[str, Any] = {"content": content, "metadata": message.get("metadata") or {}, "buffers": []}
    # comm's handlers are typed for a kernel's ZMQ stream and sender, which they never use: a page
    # has neither, so it passes None for both.
    try:
        if kind == "comm_msg":
            comm.get_comm_manager().comm_msg(None, None, wrapped)  # type: ignore[arg-type]
        elif kind == "comm_close":
            comm.get_comm_manager().comm_close(None, None, wrapped)  # type: ignore[arg-type]
    finally:
        if "id" in message:
            _send({"type": "idle", "id": message["id"]})


# ----- the table -----------------------------------------------------------------------------------


def open_table(game: str, preset: str | None = None, query: str = "", saved: str | None = None) -> None:
    """Build and show the live table of ``game`` for this page.

    ``query`` is the page's query string (``?deal=<code>`` deals that code's hand in a new game);
    ``saved`` is what the browser kept of this game's table (JSON of a :class:`~widgets.table.journal.Saved`),
    if anything: the game resumes at its last move. Every change is handed to the page as
    ``{"type": "save", ...}`` for the browser to keep.
    """
    from widgets.kernel.table_router import served_table
    from widgets.table.journal import MemoryJournals, Saved

    def keep(table_id: str, state: Saved) -> None:
        _send(
            {
                "type": "save",
                "game": game,
                "table_id": table_id,
                "page": state.page,
                "count": state.count,
                "events": state.events,
            }
        )

    journals = MemoryJournals(on_change=keep)
    table_id: str | None = None
    if saved and not _deal_of(query):  # a deal code in the address starts a new game at that deal
        try:
            kept = json.loads(saved)
            journals.restore(Saved(kept["table_id"], kept["page"], int(kept["count"]), list(kept["events"])))
            table_id = kept["table_id"]
        except (ValueError, KeyError, TypeError):  # unreadable: a new table, and the old one is dropped
            table_id = None
    if table_id is None:
        table_id = journals.new_table(game)
    rng = random.Random(secrets.randbits(64))
    params = [("table", table_id), *_deal_of(query)]
    table = served_table(game, preset, "&".join(f"{k}={v}" for k, v in params), store=journals, rng=rng)
    _display(table)


def _deal_of(query: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl, quote

    return [
        ("deal", quote(value, safe=""))
        for key, value in parse_qsl(query.lstrip("?"), keep_blank_values=True)
        if key == "deal"
    ][-1:]
