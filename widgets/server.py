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
* sets TCP no-delay on the kernel websocket (Nagle's algorithm otherwise adds
  ~40 ms to every click);
* drops error and stderr messages on their way to the browser, so no
  traceback ever reaches a reader, whatever a kernel does;
* uses the ``lanterloo`` template, which links nothing from a CDN;
* gives every new table an id: ``/tables/<table>`` (and a table's Voila page asked for without
  one) is redirected to the same page with ``?table=<id>``, a fresh unguessable id reserved in
  the tables' database (``--db``, see :mod:`widgets.store`), so the address bar holds the id from
  the first response, a reload at any moment comes back to the same game, no script has to
  rewrite the address, and a kernel can tell a new table (reserved, never played) from a forged
  or unknown id (not in the database); the kernel saves the game under that id and resumes it
  when the address is opened again. A deal code in the query (``?deal=...``) is kept.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import signal
import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import tornado.web
from traitlets.config import Config
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from widgets.store import TableStore, default_path

log = logging.getLogger("lanterloo.server")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TABLES = PROJECT_ROOT / "book" / "tables"
DEFAULT_BOOK = PROJECT_ROOT / "_build" / "html"
TEMPLATES = Path(__file__).resolve().parent / "share" / "jupyter"
TABLE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")

# Messages a reader's browser must never receive (STACK.md: tracebacks and stderr leak).
_BLOCKED_TYPES = {"error"}


def _message_parts(message: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The header and content of an outgoing kernel message, in any of the wire forms; (None, None) if unreadable."""
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


class TableKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voila's kernel websocket with TCP no-delay and a filter on what reaches the browser."""

    async def open(self, kernel_id: str) -> None:  # type: ignore[override]
        self.set_nodelay(True)
        await super().open(kernel_id)

    def write_message(self, message: Any, binary: bool = False) -> Any:
        if must_withhold(message):
            header, content = _message_parts(message)
            log.warning(
                "withheld %s message from the browser: %s",
                (header or {}).get("msg_type"),
                json.dumps(content)[:2000],
            )
            return None
        return super().write_message(message, binary)


class BookHandler(tornado.web.StaticFileHandler):
    """The built book; a folder path serves its index.html.

    Every page carries ``X-Lanterloo-Tables``, the live tables this server offers: a book page
    reads it from a ``HEAD`` of its own address to decide whether to offer its game's table. A
    static host answers the same request without the header, so the page asks nothing that
    could fail.
    """

    tables: tuple[str, ...] = ()

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


def with_table_id(page: str, query: str, db: Path | None) -> str | None:
    """``query`` with a freshly reserved table id first; None if the database cannot be reached."""
    pairs = parse_qsl(query, keep_blank_values=True)
    try:
        table_id = table_store(db).new_table(page)
    except Exception:  # the table still opens, unsaved; the log says why
        log.exception("could not reserve a table id in the tables' database")
        return None
    return urlencode([("table", table_id), *pairs])


class TableLinkHandler(tornado.web.RequestHandler):
    """``/tables/<name>`` redirects to the table's Voila page, keeping the query (deal codes, table ids).

    Without ``table`` in the query, a new table id is reserved and added to it.
    """

    def initialize(self, tables: Path, db: Path | None = None) -> None:
        self.tables = tables
        self.db = db

    def get(self, name: str) -> None:
        if not TABLE_NAME.match(name) or not (self.tables / f"{name}.ipynb").is_file():
            raise tornado.web.HTTPError(404)
        query = self.request.query
        if self.get_query_argument("table", None) is None:
            query = with_table_id(name, query, self.db) or query
        self.set_header("Cache-Control", "no-store")  # each visit gets its own new table
        self.redirect(f"/voila/render/{name}.ipynb" + (f"?{query}" if query else ""))


class TableRenderHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's page of a table; asked for without a table id, it redirects to itself with a new one."""

    db: Path | None = None
    tables: Path = DEFAULT_TABLES

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        name = (path or "").removesuffix(".ipynb")
        is_table = bool(path and path.endswith(".ipynb") and TABLE_NAME.match(name))
        is_table = is_table and (self.tables / f"{name}.ipynb").is_file()
        if is_table and self.get_query_argument("table", None) is None:
            query = with_table_id(name, self.request.query, self.db)
            if query is not None:
                self.set_header("Cache-Control", "no-store")
                self.redirect(f"{self.request.path}?{query}")
                return
        await super().get(path=path)


class LanterlooServer(Voila):  # type: ignore[misc]
    """Voila with the book at the root and only the table notebooks behind it."""

    book_dir = Path(DEFAULT_BOOK)
    db_path: Path | None = None  # the tables' database; None: widgets.store.default_path()

    def init_handlers(self) -> list[Any]:
        handlers = []
        TableRenderHandler.db, TableRenderHandler.tables = self.db_path, Path(self.root_dir)
        for spec in super().init_handlers():
            pattern, handler = spec[0], spec[1]
            if handler.__name__ in {"TornadoVoilaTreeHandler", "VoilaContentsHandler"}:
                continue  # no file listing, no contents API
            if handler is VoilaKernelWebsocketHandler:
                spec = (pattern, TableKernelWebsocketHandler, *spec[2:])
            if handler is TornadoVoilaHandler:
                spec = (pattern, TableRenderHandler, *spec[2:])
            handlers.append(spec)
        handlers.append(
            (r"/tables/([a-z0-9-]+)/?", TableLinkHandler, {"tables": Path(self.root_dir), "db": self.db_path})
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
    # The page's shutdown beacon fails without an _xsrf cookie otherwise (STACK.md).
    c.Voila.tornado_settings = {"disable_check_xsrf": True}
    c.VoilaConfiguration.template = "lanterloo"
    c.VoilaConfiguration.show_tracebacks = False
    c.VoilaConfiguration.preheat_kernel = True
    c.VoilaConfiguration.default_pool_size = 1
    c.VoilaConfiguration.file_allowlist = [r".*\.(png|jpg|jpeg|gif|svg)$"]
    # Kernels talk to the server over Unix sockets, not TCP ports other local users could reach.
    c.KernelManager.transport = "ipc"
    c.MappingKernelManager.cull_idle_timeout = max_idle
    c.MappingKernelManager.cull_interval = max(10, min(60, max_idle // 4))
    return c


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m widgets.server", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--ip", default="127.0.0.1")
    parser.add_argument("--book", type=Path, default=DEFAULT_BOOK, help="the built book (default: _build/html)")
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES, help="folder holding only the table notebooks")
    parser.add_argument("--max-idle", type=int, default=900, help="seconds before an idle table's kernel is shut down")
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="the SQLite file where games are saved (default: $LANTERLOO_DB, else the user's data folder)",
    )
    parser.add_argument(
        "--keep-days", type=float, default=365, help="forget games not played for this many days (default: 365)"
    )
    args = parser.parse_args(argv)

    book = args.book.resolve()
    if not (book / "index.html").is_file():
        print(f"error: no built book at {book} (build it with: jupyter-book build .)", file=sys.stderr)
        return 2
    tables = args.tables.resolve()
    if not tables.is_dir():
        print(f"error: no table folder at {tables}", file=sys.stderr)
        return 2
    if args.keep_days <= 0:
        print("error: --keep-days must be more than 0", file=sys.stderr)
        return 2
    db = (args.db.expanduser() if args.db is not None else default_path()).resolve()
    for folder, what in ((book, "the built book"), (tables, "the table folder")):
        if db.is_relative_to(folder):  # the book is served file by file: the saved games would be too
            print(f"error: the tables' database {db} must not be inside {what} ({folder})", file=sys.stderr)
            return 2
    try:
        unused = table_store(db).forget_unused()
        idle = table_store(db).forget_idle(args.keep_days * 86_400)
    except Exception as exc:
        print(f"error: cannot open the tables' database {db}: {exc}", file=sys.stderr)
        return 2
    if unused or idle:
        log.info("forgot %d tables never played and %d not played for %g days", unused, idle, args.keep_days)
    os.environ["LANTERLOO_DB"] = str(db)  # the kernels save their games in the same file
    # Voila finds templates on the Jupyter data path; ours is shipped beside this module.
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(TEMPLATES), os.environ.get("JUPYTER_PATH", "")) if p)
    try:  # say so plainly if the port is taken, rather than a traceback later
        with socket.create_server((args.ip, args.port)):
            pass
    except OSError as exc:
        print(f"error: cannot listen on {args.ip}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    LanterlooServer.book_dir = book
    LanterlooServer.db_path = db
    app = LanterlooServer(config=server_config(tables=tables, port=args.port, ip=args.ip, max_idle=args.max_idle))
    app.initialize([])
    print(f"Games are saved in {db}", flush=True)
    print(f"Lanterloo is being served at http://{args.ip}:{args.port}/  (press Ctrl-C to stop)", flush=True)
    # Voila stops its loop on SIGTERM; make Ctrl-C do the same, quietly.
    signal.signal(signal.SIGINT, app._handle_signal_stop)
    app.start()
    print("Lanterloo server stopped.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
