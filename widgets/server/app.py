"""The server itself: Voila with the book at the root and only the table notebooks behind it, its
configuration, the settings passed through to it, and its running (:func:`serve`); its command line
(``python -m widgets.server``, ``lanterloo``) is :mod:`widgets.server.start`.
"""

from __future__ import annotations

import gc
import hashlib
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tornado.ioloop
import tornado.routing
import tornado.web
from jupyter_core.utils import ensure_async
from traitlets.config import Config
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from widgets.draw.card_style import SHEET_PATH
from widgets.server.classroom import ClassPageHandler
from widgets.server.compress import compress_responses
from widgets.server.console_address import forget_address
from widgets.server.console_routes import console_routes
from widgets.server.errors import quiet_routes
from widgets.server.guards import (
    DEFAULT_REQUEST_TIMEOUT,
    MAX_BODY_BYTES,
    MAX_HEADER_BYTES,
    RefusedRequest,
    RefusedRequestHandler,
    own_names,
    quiet_accept_handler,
)
from widgets.server.kernels import TableKernelSpecManager
from widgets.server.logs import LOG_DATEFMT, LOG_FORMAT, log_request
from widgets.server.pages import (
    DEFAULT_BOOK,
    NO_MATH_PATH,
    STARTUP_BUNDLE_PATH,
    TABLE_NAME,
    BookHandler,
    CardSheetHandler,
    NoMathHandler,
    StartupBundleHandler,
    TableLinkHandler,
    TableRenderHandler,
    TableShutdownHandler,
    TablesListHandler,
    TemplateAssetHandler,
    page_config,
    startup_bundle,
)
from widgets.server.presence import start_forgetting_unused, start_seat_heartbeats
from widgets.server.seats import (
    DEFAULT_MAX_TABLES,
    REFILL_DELAY_SECONDS,
    OneRefillAtATime,
    TableSeats,
)
from widgets.server.shared_pages import SEAT_HEADER, JoinHandler, SharedTableHandler
from widgets.server.sockets import (
    MAX_MESSAGE_BYTES,
    RECONNECT_GRACE_SECONDS,
    KernelRequestInfoHandler,
    TableKernelWebsocketHandler,
    bound_kernel_sockets,
    departures,
    play_clock,
)

# One of tornado's routes: a pattern or a matcher, the handler's class, and its keyword arguments if any.
Route = (
    tuple[str | tornado.routing.Matcher, type[tornado.web.RequestHandler]]
    | tuple[str | tornado.routing.Matcher, type[tornado.web.RequestHandler], dict[str, Any]]
)


class LanterlooServer(Voila):  # type: ignore[misc]
    """Voila with the book at the root and only the table notebooks behind it."""

    book_dir = Path(DEFAULT_BOOK)
    db_path: Path | str | None = None  # the tables' database (a file, or a PostgreSQL address); None: the default
    max_tables = DEFAULT_MAX_TABLES  # live table kernels at once (--max-tables), preheated ones apart
    seats: TableSeats | None = None  # made with the handlers, once the kernel manager exists
    request_timeout = DEFAULT_REQUEST_TIMEOUT  # --request-timeout
    max_tables_per_client: int | None = None  # --max-tables-per-client; None: no share per address
    allowed_hosts: tuple[str, ...] = ()  # --allowed-host: names the server answers to besides its own
    console_token: str | None = None  # the teacher's console's token, made at start (widgets.server.console)
    behind_proxy = False  # --behind-proxy: a reader's address is the one the proxy names (X-Real-IP)
    reconnect_grace = RECONNECT_GRACE_SECONDS  # --reconnect-grace
    class_games: tuple[str, ...] = ("three-card-loo",)  # --class-table: the games the students' landing names
    students_land = False  # --class: the root address opens the students' landing (/join), not the book

    def listen(self) -> None:
        """Voila's ``listen``, with the HTTP server's timeouts and sizes bounded (see the module's
        docstring) and an accept loop that survives running out of files (:func:`quiet_accept_handler`)."""
        import functools

        import tornado.tcpserver

        # tornado.tcpserver uses tornado.netutil's add_accept_handler without exporting it.
        tornado.tcpserver.add_accept_handler = quiet_accept_handler  # type: ignore[attr-defined]
        self.app.listen = functools.partial(
            self.app.listen,
            idle_connection_timeout=self.request_timeout,
            body_timeout=self.request_timeout,
            max_header_size=MAX_HEADER_BYTES,
            max_body_size=MAX_BODY_BYTES,
            xheaders=self.behind_proxy,
        )
        compress_responses(self.app)
        departures.grace, departures.idle = self.reconnect_grace, self.kernel_manager.cull_idle_timeout
        start_seat_heartbeats(self.db_path, self.kernel_manager.list_kernel_ids)  # widgets.server.presence
        start_forgetting_unused(self.db_path)
        pools = getattr(self.kernel_manager, "kernel_pools_config", None) or {}
        sockets = bound_kernel_sockets(
            self.kernel_manager, self.max_tables + preheated_kernels(pools), self.max_tables_per_client
        )
        self.log.info(
            "At most %d table connections at once, %d for one client address", sockets.total, sockets.per_client
        )
        tornado.ioloop.PeriodicCallback(self._release_departed, 1000 * min(15.0, self.reconnect_grace / 4)).start()
        super().listen()

    async def _release_departed(self) -> None:
        """Shut down the tables whose pages went without a word and did not come back in
        ``--reconnect-grace`` seconds, or never connected in ``--max-idle`` seconds (the culler may
        take those first), freeing their places (:class:`widgets.server.sockets.Departures`)."""
        manager = self.kernel_manager
        for kernel_id, never in departures.due_why():
            if kernel_id not in manager.list_kernel_ids():
                continue  # shut down already (its page's beacon, the culler)
            if never:
                self.log.info(
                    "Table kernel %s: its page was served %g s ago and never connected; shutting it down",
                    kernel_id,
                    departures.idle,
                )
            else:
                self.log.info(
                    "Table kernel %s: its page went %g s ago and did not come back; shutting it down",
                    kernel_id,
                    self.reconnect_grace,
                )
            if self.seats is not None:
                self.seats.leave(kernel_id)
            try:
                await ensure_async(manager.shutdown_kernel(kernel_id))
            except Exception:  # gone meanwhile
                self.log.info("Table kernel %s was gone before it could be shut down", kernel_id)

    def init_handlers(self) -> list[Route]:
        handlers: list[Route] = []
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
        # The server's own routes, under the base URL as Voila's are (--base-url; "" at a host's root).
        base = re.escape(self.base_url.rstrip("/"))
        handlers.append((base + re.escape(SHEET_PATH), CardSheetHandler))
        handlers.append((base + re.escape(NO_MATH_PATH), NoMathHandler))
        handlers.append((base + r"/class/?", ClassPageHandler, {"ip": self.ip, "port": self.port}))
        bundle, missing = startup_bundle(self.static_paths, self.labextensions_path)
        if missing:
            self.log.warning(
                "Voila's front end has none of %s: a table page fetches what it needs itself", ", ".join(missing)
            )
        etag = '"' + hashlib.sha256(bundle).hexdigest()[:32] + '"'
        handlers.append((base + re.escape(STARTUP_BUNDLE_PATH), StartupBundleHandler, {"bundle": bundle, "etag": etag}))
        handlers.append((base + r"/tables/?", TablesListHandler, {"tables": Path(self.root_dir)}))
        handlers.append(
            (
                base + r"/tables/([a-z0-9-]+)/shared/?",
                SharedTableHandler,
                {"tables": Path(self.root_dir), "db": self.db_path, "seats": self.seats},
            )
        )
        handlers.append(
            (
                base + r"/tables/([a-z0-9-]+)/?",
                TableLinkHandler,
                {"tables": Path(self.root_dir), "seats": self.seats, "db": self.db_path},
            )
        )
        handlers.extend(console_routes(self.console_token, self.db_path, Path(self.root_dir), base=base))  # issue 21
        # The students' landing (issue 29): a seat's join code, playing alone, the book.
        handlers.append((base + r"/join/?", JoinHandler, {"db": self.db_path, "games": list(self.class_games)}))
        if self.students_land:  # what the address students are given opens
            handlers.append((base + r"/", tornado.web.RedirectHandler, {"url": self.base_url + "join"}))
        # Last, so that every Voila route above wins: the book answers everything else.
        BookHandler.tables = tuple(
            sorted(p.stem for p in Path(self.root_dir).glob("*.ipynb") if TABLE_NAME.match(p.stem))
        )
        if base:  # the base URL without its last slash is the book's front page too
            handlers.append((base, tornado.web.RedirectHandler, {"url": self.base_url}))
        handlers.append((base + r"/(.*)", BookHandler, {"path": str(self.book_dir), "default_filename": "index.html"}))
        return quiet_routes(handlers)  # a failed request: a plain page and one short line (widgets.server.errors)


def server_config(
    *, tables: Path, port: int, ip: str, max_idle: int, base_url: str = "/", pools: dict[str, int] | None = None
) -> Config:
    """Voila's configuration; ``pools`` gives a table notebook's preheated kernels where it needs more than one
    (a class's table, ``--class-size``)."""
    c = Config()
    c.Voila.root_dir = str(tables)
    # Every route, Voila's and the server's own, is under the base URL (--base-url), and so are the
    # addresses its pages ask for: a proxy passes the path on as it came.
    c.Voila.base_url = base_url
    c.Voila.server_url = base_url
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
    # The browser that holds a shared table's seat, put on the page's request by the server
    # (shared_pages.claim_seat), reaches the seat's kernel, which checks it before dealing a card.
    c.VoilaConfiguration.http_header_envs = [SEAT_HEADER]
    # Voila stops waiting for a notebook's output after nbclient's 4 s by default: tables opened
    # at the same moment on a busy machine then came back as pages with no table on them.
    c.VoilaExecutor.iopub_timeout = 60
    c.VoilaConfiguration.preheat_kernel = True
    c.VoilaConfiguration.kernel_spec_manager_class = TableKernelSpecManager  # lean table kernels
    c.VoilaKernelManager.fill_delay = REFILL_DELAY_SECONDS
    # One preheated kernel per table notebook and none for anything else, so that no other notebook
    # that finds its way into the folder is ever run (preheat_denylist will not do: Voila 0.5.13
    # matches it against absolute paths, and an anchored pattern quietly stops all preheating).
    names = sorted(p.name for p in tables.glob("*.ipynb") if TABLE_NAME.match(p.stem))
    c.VoilaConfiguration.default_pool_size = 0
    sizes = {n: max(1, (pools or {}).get(Path(n).stem, 1)) for n in names}
    pools_config = {n: {"pool_size": k} for n, k in sizes.items()}
    c.VoilaKernelManager.kernel_pools_config = {"default": {"pool_size": 0}, **pools_config}
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
# A base URL: "/", or path segments between slashes (none of them "." or "..").
BASE_URL = re.compile(r"/(?:(?!\.\.?/)[A-Za-z0-9._~-]+/)*")
# What the server itself decides: a setting passed through may not change these.
_OWN_SETTINGS = {
    "Voila.root_dir": "--tables",
    "Voila.port": "--port",
    "Voila.ip": "--ip",
    "Voila.base_url": "--base-url",
    "Voila.server_url": "--base-url",
    "VoilaConfiguration.template": None,
    "VoilaConfiguration.http_header_envs": None,
}


def own_tornado_settings() -> dict[str, Any]:
    """The tornado settings the server's safety rests on; settings passed on the command line
    (``--Voila.tornado_settings=...``) are added to these, never put in their place."""
    return {
        # The page's shutdown beacon fails without an _xsrf cookie otherwise (docs/serving.md).
        "disable_check_xsrf": True,
        "websocket_max_message_size": MAX_MESSAGE_BYTES,
        # The kernel websocket's messages compressed (permessage-deflate, which every browser offers): a
        # move's reel of frames (widgets.views.pacing) is some 30-120 KB of drawing that deflates about 30 times.
        # A small window of memory per connection (mem_level 5) keeps a class of thirty light.
        "websocket_compression_options": {"compression_level": 6, "mem_level": 5},
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


def serve(app: LanterlooServer, port: int) -> None:
    """Run the server till it is stopped (SIGTERM, or Ctrl-C), then forget the console's address."""
    # Voila stops its loop on SIGTERM; make Ctrl-C do the same, quietly.
    signal.signal(signal.SIGINT, app._handle_signal_stop)
    # What the start made (Voila, Jupyter's machinery, the engine: some 400,000 objects) lives as long as
    # the server: left out of the collector's full passes, each of which held every thread for a
    # tenth of a second or more, a request or a thread of the database's among them.
    gc.collect()
    gc.freeze()
    app.start()
    forget_address(port)
    print("Lanterloo server stopped.", flush=True)


def preheated_kernels(pools: Any) -> int:
    """How many kernels Voila's pools keep ready (its ``kernel_pools_config``: a pool size per notebook)."""
    return sum(int(c.get("pool_size", 0)) for c in (pools or {}).values() if isinstance(c, dict))


def ready_kernels(manager: Any) -> int:
    """How many of Voila's preheated kernels have run their table notebook and wait for a reader."""
    pools = getattr(manager, "_pools", None) or {}
    tasks = [task for pool in pools.values() for task in pool]
    return sum(1 for t in tasks if hasattr(t, "done") and t.done() and not t.cancelled() and t.exception() is None)


def announce_when_ready(
    manager: Callable[[], Any], expected: int, words: str, *, limit: float, every: float = 0.5
) -> None:
    """Print ``words`` (the addresses, the console, where games are saved) once the ``expected``
    preheated tables are ready, so that a teacher reads the addresses when students may use them;
    after ``limit`` seconds, print them all the same, with how many tables are ready. ``manager`` gives
    Voila's kernel manager, which Voila makes as it starts."""
    started = time.monotonic()

    def look() -> None:
        ready = ready_kernels(manager())
        late = time.monotonic() - started > limit
        if ready < expected and not late:
            return
        checking.stop()
        if ready >= expected:
            head = f"Ready: {expected} tables waiting for readers."
        else:
            head = f"Not every table is ready yet ({ready} of {expected} after {limit:g} s); the rest follow."
        print(f"{head}\n{words}", flush=True)

    checking = tornado.ioloop.PeriodicCallback(look, every * 1000)
    checking.start()
