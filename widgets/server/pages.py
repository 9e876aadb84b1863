"""What the server answers with pages: the book, the table pages and what they load.

The book at the site root (:class:`BookHandler`); ``/tables/<name>``, which gives a new table its
id and redirects to Voila's page of it (:class:`TableLinkHandler`); Voila's page of a table, which
takes a place first (:class:`TableRenderHandler`); the card sheet, the stand-in for MathJax and the
one script holding Voila's startup chunks (:func:`startup_bundle`); the template's assets; and the
shutdown beacon, which frees a place at once.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import tornado.httputil
import tornado.iostream
import tornado.routing
import tornado.web
import tornado.websocket
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler

from widgets.draw.card_style import card_css
from widgets.draw.table_pages import tables_page
from widgets.server.guards import RESOURCE_ERRORS
from widgets.server.presence import seat_presence
from widgets.server.seats import (
    Seat,
    SeatedKernelManager,
    TableSeats,
    query_with,
    reserve_table_id,
    send_server_busy,
    send_tables_full,
)
from widgets.server.shared_pages import SEAT_HEADER, claim_seat, shared_tables_html

log = logging.getLogger("lanterloo.server")


def _project_root() -> Path:
    """The clone this module runs from (an editable install), else the working folder (``pip install .``)."""
    beside = Path(__file__).resolve().parents[2]
    return beside if (beside / "_config.yml").is_file() else Path.cwd()


PROJECT_ROOT = _project_root()
DEFAULT_TABLES = PROJECT_ROOT / "book" / "tables"
DEFAULT_BOOK = PROJECT_ROOT / "_build" / "html"
TEMPLATES = Path(__file__).resolve().parents[1] / "share" / "jupyter"
TABLE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def base_url(handler: tornado.web.RequestHandler) -> str:
    """The path the server is served under (``--base-url``, Voila's ``base_url``): "/" at a host's root."""
    return str(handler.settings.get("base_url") or "/")


class BookHandler(tornado.web.StaticFileHandler):
    """The built book; a folder path serves its index.html.

    Every page carries ``X-Lanterloo-Tables``, the live tables this server offers: a book page
    reads it from a ``HEAD`` of its own address to decide whether to offer its game's table. A
    static host answers the same request without the header, so the page asks nothing that
    could fail.
    """

    tables: tuple[str, ...] = ()

    async def get(self, path: str, include_body: bool = True) -> None:
        if "\x00" in path:  # a NUL byte in a path: not a file (the file system would raise a 500)
            raise tornado.web.HTTPError(404)
        await super().get(path, include_body)

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-cache")
        if self.tables:
            self.set_header("X-Lanterloo-Tables", ",".join(self.tables))


class CardSheetHandler(tornado.web.RequestHandler):
    """The plain card sheet (:func:`widgets.draw.card_style.card_css`), which every table page links from
    its head: fetched while the table is being dealt, and kept by the browser. It is revalidated on
    each visit (tornado's ETag: a 304 once the browser has it), so a new version is never missed."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/css; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.write(card_css())


NO_MATH_PATH = "/tables/no-math.js"
# What a table page loads in place of MathJax. Voila's page typesets every widget's text with the
# MathJax 3 it bundles, fetched the first time a widget is drawn: a megabyte of script, compiled
# and started while the table is being drawn, for a page that shows no mathematics (and where a
# pair of dollar signs in a player's text would wrongly be read as mathematics). Given a MathJax
# address (page_config below), the page uses JupyterLab's MathJax 2 typesetter instead, which
# loads this, and its typesetting does nothing.
NO_MATH_JS = (
    "/* Lanterloo's tables show no mathematics: this stands in for MathJax (widgets/server/pages.py). */\n"
    "window.MathJax = {Hub: {Config: function () {}, Configured: function () {}, Queue: function () {},\n"
    "  Register: {StartupHook: function () {}}}, Ajax: {}, InputJax: {TeX: {resetEquationNumbers: function () {}}}};\n"
)
# Front-end extensions a table page does without: code highlighting (a table shows no code).
UNUSED_EXTENSIONS = frozenset({"jupyterlab_pygments"})


def page_config(config: dict[str, Any], base_url: str = "/", **_context: Any) -> dict[str, Any]:
    """Voila's page configuration for a table page (its ``page_config_hook``): no MathJax (see
    :data:`NO_MATH_JS`, under the server's base URL), and none of the :data:`UNUSED_EXTENSIONS`."""
    config["fullMathjaxUrl"] = base_url.rstrip("/") + NO_MATH_PATH
    config["mathjaxConfig"] = "none"
    config["federated_extensions"] = [
        e for e in config.get("federated_extensions", []) if e.get("name") not in UNUSED_EXTENSIONS
    ]
    return config


class NoMathHandler(tornado.web.RequestHandler):
    """:data:`NO_MATH_JS`, at :data:`NO_MATH_PATH` (the page asks for it with a query, ignored)."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.write(NO_MATH_JS)


STARTUP_BUNDLE_PATH = "/tables/voila-startup.js"
# The scripts of Voila's front end that a table page fetches before its table is drawn, in the
# order Voila 0.5.13's page asks for them: the chunks of Voila's own page script (served at
# ``/voila/static/``), then those of the two front-end extensions that draw widgets (served at
# ``/voila/labextensions/``; a ``*`` stands for the content hash in their names). Fetched one by one
# they were 68 requests for 3.4 MB of script, each compiled and run as a script of its own, and on
# a 2-core machine that also runs the server a table took 0.3 s longer to open, a fifth of the wait
# (bench/tables.py, open part). A table page loads them as one script (:class:`StartupBundleHandler`)
# just before Voila's own: each chunk registers itself with its loader when run, and the loaders
# then fetch none of them. The list is a speed-up, not a requirement: a chunk missing from it is
# fetched as before, and a test (tests/browser/test_tables.py) names any that a table page still
# fetches on its own.
VOILA_STARTUP_CHUNKS = tuple(
    f"{chunk}.voila.js"
    for chunk in (
        *(5764, 8135, 3992, 8925, 9582, 7883, 7556, 6049, 1670, 3311, 6573, 1621, 4135, 3649),
        *(3916, 8487, 9684, 143, 4041, 7155, 3144, 1601, 4972, 9890, 5312, 6468, 3459, 630),
        *(5688, 2930, 1187, 73, 4173, 7483, 431, 3989, 8766, 9151, 4729, 6382, 5044, 7598),
        *(9081, 7770, 3249, 4653, 8862, 9981, 5767, 4222, 8773, 3307, 6008, 8017, 457, 9212),
    )
)
# The widgets' chunks, in the order a table page fetches them: Voila's widget manager
# (widgets-manager8) and the ipywidgets extension (jupyterlab-manager, from jupyterlab_widgets 3.0.13).
_MANAGER = "@voila-dashboards/widgets-manager8/static"
_WIDGETS = "@jupyter-widgets/jupyterlab-manager/static"
WIDGET_STARTUP_CHUNKS = tuple(
    f"{folder}/{chunk}.*.js"
    for folder, chunks in (
        (_MANAGER, (883, 496, 651, 264)),
        (_WIDGETS, (651, 420, 439, 327, 722, 446)),
        (_MANAGER, (324, 603)),
        # drawn once the table's widgets are known: the controls (buttons, boxes, tabs) and what they need
        (_WIDGETS, (727, 586)),
    )
    for chunk in chunks
)


def startup_bundle(
    static_paths: Iterable[str | Path], labextension_paths: Iterable[str | Path]
) -> tuple[bytes, list[str]]:
    """:data:`VOILA_STARTUP_CHUNKS`, read from the first of Voila's ``static_paths`` that has each,
    and :data:`WIDGET_STARTUP_CHUNKS`, from ``labextension_paths``, joined into one script; and the
    chunks found in neither (another version of Voila or of ipywidgets), which a page fetches itself
    if it needs them."""
    parts, missing = [], []
    for folders, chunks in (
        (list(static_paths), VOILA_STARTUP_CHUNKS),
        (list(labextension_paths), WIDGET_STARTUP_CHUNKS),
    ):
        for chunk in chunks:
            found = next((hit for folder in folders for hit in sorted(Path(folder).glob(chunk))), None)
            if found is None:
                missing.append(chunk)
            else:
                parts.append(f"/* {found.name} */\n".encode() + found.read_bytes() + b"\n;\n")
    return b"".join(parts), missing


class StartupBundleHandler(tornado.web.RequestHandler):
    """:func:`startup_bundle`, read once when the server starts, at :data:`STARTUP_BUNDLE_PATH`.
    Like the card sheet it is revalidated on each visit (its ETag, a 304 once the browser has it)."""

    def initialize(self, bundle: bytes, etag: str) -> None:
        self.bundle, self.etag = bundle, etag

    def compute_etag(self) -> str:
        return self.etag  # computed once, not by hashing the whole bundle for every request

    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.write(self.bundle)


SERVED_TABLES = "Each table runs here, on the Lanterloo server, which keeps the other players' hands hidden."


class TablesListHandler(tornado.web.RequestHandler):
    """``/tables/``: the tables this server offers, each game's title linking to a new table of it,
    with a sentence and its chapter (:func:`widgets.draw.table_pages.tables_page`)."""

    def initialize(self, tables: Path) -> None:
        self.tables = tables

    def get(self) -> None:
        games = [p.stem for p in sorted(self.tables.glob("*.ipynb")) if TABLE_NAME.match(p.stem)]
        base = base_url(self)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        listing = tables_page(lambda game: f"{base}tables/{game}", base, where=SERVED_TABLES, games=games)
        self.write(listing.replace("</main>", shared_tables_html(games, base) + "</main>", 1))


class Place(NamedTuple):
    """Room for a table's page: the table's id (None if a new one could not be reserved), and whether
    the id was reserved just now, for a page asked for without one."""

    table_id: str | None
    reserved: bool


async def room_for(
    handler: tornado.web.RequestHandler, seats: TableSeats, name: str, db: Path | str | None
) -> Place | None:
    """Room for the page of table ``name`` that ``handler`` was asked for (its ``table`` argument, or a
    new id reserved in ``db`` with a place held for it while the database is asked); None, with the
    tables-full page sent, when every place is taken. It awaits nothing once it has found room, so its
    caller may take the place (:meth:`TableSeats.admit`) before any other request runs: see
    :class:`TableSeats` on bursts."""
    table_id = handler.get_query_argument("table", None)
    client = handler.request.remote_ip
    await seats.wait_for_room(table_id, client=client)  # a reload at a full server: see RELOAD_WAIT_SECONDS
    if not seats.has_room(table_id, client):
        send_tables_full(handler, seats)
        return None
    if table_id is not None:
        return Place(table_id, reserved=False)
    held = seats.hold_new(client)  # the place is taken before the database is asked
    table_id = await reserve_table_id(name, db)
    seats.rehold(held, table_id)
    return Place(table_id, reserved=True)


class TableLinkHandler(tornado.web.RequestHandler):
    """``/tables/<name>`` redirects to the table's Voila page, keeping the query (deal codes, table ids).

    Without ``table`` in the query, a new table id is reserved and added to it, and a place is
    held for it (:class:`TableSeats`); if every table is taken, the reader gets the tables-full
    page instead, and no id is reserved.
    """

    def initialize(self, tables: Path, seats: TableSeats, db: Path | str | None = None) -> None:
        self.tables = tables
        self.seats = seats
        self.db = db

    async def get(self, name: str) -> None:
        if not TABLE_NAME.match(name) or not (self.tables / f"{name}.ipynb").is_file():
            raise tornado.web.HTTPError(404)
        query = self.request.query
        place = await room_for(self, self.seats, name, self.db)
        if place is None:
            return
        if place.reserved and place.table_id is not None:
            query = query_with(place.table_id, query)
        self.set_header("Cache-Control", "no-store")  # each visit gets its own new table
        self.redirect(f"{base_url(self)}voila/render/{name}.ipynb" + (f"?{query}" if query else ""))


class TableRenderHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's page of a table; asked for without a table id, it redirects to itself with a new one.

    Every request that would start a kernel takes a place among the server's live tables first
    (:class:`TableSeats`), or gets the tables-full page.
    """

    db: Path | str | None = None  # a file, or a PostgreSQL address
    tables: Path = DEFAULT_TABLES
    seats: TableSeats | None = None
    _seat: Seat | None = None

    @property
    def kernel_manager(self) -> Any:
        """Voila's kernel manager; for an admitted page, one that gives the page's place to its kernel."""
        manager = super().kernel_manager
        return manager if self._seat is None else SeatedKernelManager(manager, self._seat)

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        name = (path or "").removesuffix(".ipynb")
        is_table = bool(path and path.endswith(".ipynb") and TABLE_NAME.match(name))
        is_table = is_table and (self.tables / f"{name}.ipynb").is_file()
        if not is_table:  # only a table notebook, by its own name: never another file, a folder or a listing
            raise tornado.web.HTTPError(404)
        if self.seats is None:
            await self._render(path)
            return
        place = await room_for(self, self.seats, name, self.db)  # nothing awaited between it and admit()
        if place is None:
            return
        table_id, client = place.table_id, self.request.remote_ip
        if place.reserved and table_id is not None:
            self.set_header("Cache-Control", "no-store")
            self.redirect(f"{self.request.path}?{query_with(table_id, self.request.query)}")
            return
        # (reserved, but no id could be: the table opens unsaved, if a place is still free)
        self._seat = self.seats.admit(table_id, client)  # the place first: the seat's claim awaits the database
        if self._seat is None:  # the places went while the database was asked
            send_tables_full(self, self.seats)
            return
        try:
            if not await claim_seat(self, self.db, table_id):  # a shared table's seat another browser has (issue 21)
                return
            token, browser = self.get_query_argument("seat", None), self.request.headers.get(SEAT_HEADER)
            if token and browser and table_id:  # a seat's page: the server marks it here while it is connected
                self._seat.on_settle = lambda kernel_id: seat_presence.note(kernel_id, table_id, token[:64], browser)
            await self._render(path)
        finally:
            self._seat.release()

    async def _render(self, path: str | None) -> None:
        """Voila's page for the table notebook ``path``; out of files (an attack holding every
        connection, say) before the page has begun, the server-busy page and a line in the log,
        where Voila's 500 logged a traceback for every reader who tried."""
        try:
            await super().get(path=path)
        except OSError as error:
            if error.errno not in RESOURCE_ERRORS or self._headers_written:
                raise
            send_server_busy(self, error)


class TemplateAssetHandler(TemplateStaticFileHandler):  # type: ignore[misc]
    """Voila's template assets (``/voila/templates/<template>/static/<file>``); any other path is a
    plain 404, where Voila's own handler fails with a 500 on a path of another shape."""

    ASSET = re.compile(r"^[A-Za-z0-9_-]+/static/[^\x00]+$")

    async def get(self, path: str, include_body: bool = True) -> None:
        parts = os.path.normpath(path).split(os.sep)
        if not self.ASSET.match(path) or ".." in parts or len(parts) < 3 or parts[1] != "static":
            raise tornado.web.HTTPError(404)
        await super().get(path, include_body)


class TableShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
    """Voila's shutdown beacon (a page being left); the kernel's place is free at once, not only
    once the kernel has stopped, so that a reader who reloads a table at a full server gets it back."""

    seats: TableSeats | None = None

    @tornado.web.authenticated
    async def post(self, kernel_id: str) -> None:
        if self.seats is not None:
            self.seats.leave(kernel_id)
        await super().post(kernel_id)
