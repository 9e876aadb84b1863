"""The teacher's console (issue 21): the class's tables, a deal for every table, results side by side,
a step-through of each table's hand, the class's records, and any table face up for a projector.

The console's token is an unguessable value the server makes at start and prints as the console's
address, ``/console?token=...``. The token is taken once (issue 28): a request that carries it, in
its address or pasted into the refusal page's form (a POST), has it compared in constant time
(:func:`hmac.compare_digest`) and is answered with a redirect to the same console address without
it, which sets a session cookie (:data:`COOKIE`: HttpOnly, SameSite=Strict, its path the console's,
Secure over https). The cookie holds a random session id, never the token; the server keeps the ids
in memory (:class:`ConsoleSessions`), so a restart, with its new token, forgets them all. Every
console request must then show a session the server holds; anything else gets a plain 403 whatever
the path, the same page whatever was missing or wrong, with the form to paste the token in. The
token is never written into a page, a link or a log line: links between console pages rely on the
cookie, and a console request's log line names its path without its query.

A GET changes nothing. What changes something (a deal for every table, opening tables, signing out)
is a POST, which must come from one of the server's own pages besides (its ``Origin``, else its
``Referer``, is the server's: :func:`~widgets.server.shared_pages.same_origin`). The pages say
``no-store`` and ``Referrer-Policy: same-origin``: no cache keeps them, a link followed to another
site is told nothing, and the console's own forms still name their origin (a browser sends
``Origin: null`` for a form on a ``no-referrer`` page).

The pages read the tables' database (:mod:`widgets.store.sqlite`, :mod:`widgets.store.seating`) and rebuild each
table's game from its journal with the engine (:class:`~widgets.table.model.TableModel`). None of it runs
on the server's event loop: each page is made on one of the server's database threads
(:func:`~widgets.server.database.in_database`), so that other readers' requests are not held while
it is (200 tables rebuilt there held them 0.5 to 0.7 s a load). The class's tables are read in at
most two indexed queries whatever their number, and a table's game is rebuilt again only once it
has been played on (:mod:`widgets.server.class_tables`). A database that fails or does not answer
gets the plain page saying so (:func:`~widgets.server.database.send_database_away`).
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import tornado.web

from loo.records import load, replay_actions
from loo.registry import entry
from widgets.draw.card_style import SHEET_PATH
from widgets.draw.table_board import board_html
from widgets.server.class_tables import (
    LIVE_HOURS,
    MAX_TABLES,
    ClassTable,
    class_tables,
    rebuilt_games,
)
from widgets.server.classroom import handed_out_origin
from widgets.server.database import DatabaseAway, in_database, send_database_away
from widgets.server.errors import QuietLog
from widgets.server.handouts import OPENED_STYLE, seats_html, slips_html
from widgets.server.pages import base_url
from widgets.server.plain_page import page
from widgets.server.shared_pages import DEAL_KEPT, links_html, open_shared_with_codes, same_origin
from widgets.store.seating import COMPUTER, SeatBook
from widgets.store.sqlite import BadTableId, TableStore, UnknownTable
from widgets.table.dealcode import USUAL_SEATS, DealCode, DealCodeError, parse_deal_code
from widgets.table.model import TableModel

log = logging.getLogger("lanterloo.server")

MAX_OPEN = 60  # tables one "open N tables" may open
COOKIE = "loo-console"  # the console's session cookie: a session id, never the token
SESSION_HOURS = 24  # a session ends this long after it began (or with the server, or Leave the console)
MAX_SESSIONS = 32  # sessions kept at once; a new one past that ends the oldest


class ConsoleSessions:
    """The console's sessions, in this process's memory: each a random id, given to one browser in
    its cookie (:data:`COOKIE`) when it showed the token. Only a digest of each id is kept, so a lookup's
    timing says nothing of the ids. A new server (a new token) has none."""

    def __init__(self, hours: float = SESSION_HOURS, most: int = MAX_SESSIONS) -> None:
        self.seconds, self.most = hours * 3600, most
        self._until: dict[bytes, float] = {}  # the id's digest -> when the session ends (time.monotonic)

    @staticmethod
    def _key(session: str) -> bytes:
        return hashlib.sha256(session.encode()).digest()

    def begin(self) -> str:
        """A new session's id, for the browser's cookie."""
        now = time.monotonic()
        self._until = {k: t for k, t in self._until.items() if t > now}
        while len(self._until) >= self.most:
            del self._until[min(self._until, key=self._until.__getitem__)]
        session = secrets.token_urlsafe(32)
        self._until[self._key(session)] = now + self.seconds
        return session

    def holds(self, session: str | None) -> bool:
        """Whether ``session`` (a cookie's value) is one of the console's, and not over."""
        if not session or len(session) > 100:
            return False
        return self._until.get(self._key(session), 0.0) > time.monotonic()

    def end(self, session: str | None) -> None:
        if session:
            self._until.pop(self._key(session), None)


T = TypeVar("T")


def same_deal(a: DealCode, b: DealCode) -> bool:
    """Whether two codes deal the same hand, whichever seat each was written for."""

    def deal(code: DealCode) -> tuple[object, ...]:
        rules = json.dumps(code.rules, sort_keys=True)
        return (code.game, code.seed, code.first_dealer, code.pool, code.kind, code.n_seats, rules)

    return deal(a) == deal(b)


def as_dealt(code: DealCode) -> DealCode:
    """``code`` as a table that deals it writes it in its journal: the pool and the kind of deal left
    out where they are the first deal's own, so that a teacher's "...d2.p3" finds the tables whose
    code says neither (:func:`same_deal` then compares like with like)."""
    model = TableModel(code.game, rng=random.Random(0))
    if not model.play_code(str(code)):  # pragma: no cover - a parsed code deals
        return code
    started = start_code(model)  # the game's start, as journalled: not a hand past a single settled as dealt
    return started if started is not None else code


def start_code(model: TableModel) -> DealCode | None:
    journal = model.journal
    start = journal[0] if journal else {}
    try:
        return parse_deal_code(str(start["code"])) if "code" in start else None
    except DealCodeError:
        return None


def seats_text(table: ClassTable) -> str:
    if not table.seats:
        return "one reader, computer players"
    now = time.time()
    names = table.model.names if table.model is not None else ()
    parts = []
    for row in table.seats:
        name = names[row.seat] if row.seat < len(names) else f"seat {row.seat + 1}"
        who = "computer" if row.player == COMPUTER else "here" if row.here(now) else "away"
        parts.append(f"{name} ({who})")
    return ", ".join(parts)


def hand_text(model: TableModel | None) -> str:
    if model is None:
        return "cannot be read"
    hand = model.hand
    number = len(model.records) + (0 if hand.is_over else 1)
    if hand.is_over:
        return f"hand {number} over"
    to_act = hand.to_act
    tricks = len(hand.view(0).tricks)
    played = "1 trick" if tricks == 1 else f"{tricks} tricks"
    return f"hand {number}, {model.names[to_act or 0]} to play, {played} played"


class ConsoleHandler(QuietLog, tornado.web.RequestHandler):
    """Every console page: a 403 without a session; the token taken once (the module's docstring).

    Its exceptions are logged as the server logs any handler's (:class:`QuietLog`), however it is
    routed: tornado's own line for an uncaught exception names the request's whole address."""

    token: str | None = None  # set when the server starts (widgets.server.app)
    sessions = ConsoleSessions()  # made anew with the token (console_routes)
    db: Path | str | None = None
    tables: Path | None = None

    def private(self) -> None:
        """The headers of every console answer, its refusals too: kept by no cache, indexed by no robot,
        and a link followed to another site told nothing of where it came from."""
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "same-origin")
        self.set_header("X-Robots-Tag", "noindex")

    def prepare(self) -> None:
        self.private()
        given = self.get_query_argument("token", None)
        pasted = given is None and self.request.method == "POST" and self.get_body_argument("token", None) is not None
        if pasted:
            given = self.get_body_argument("token")
        if given is not None:
            self.sign_in(given, pasted)
            return
        if not self.sessions.holds(self.get_cookie(COOKIE)):
            self.refuse("a console request without a console session")
        if self.request.method not in ("GET", "HEAD") and not same_origin(self.request):
            self.refuse("a console POST not from the server's own page")

    def sign_in(self, given: str, pasted: bool) -> None:
        """The token shown: a session begun, and a redirect to the address without the token (the
        console's own for a token pasted into the form, which must come from the server's page)."""
        if pasted and not same_origin(self.request):
            self.refuse("the console's token posted from another site's page")
        if not self.token or not hmac.compare_digest(given.encode(), self.token.encode()):
            self.refuse("a wrong console token")
        self.set_cookie(COOKIE, self.sessions.begin(), **self.cookie_options())
        if pasted:
            self.redirect(self.console_path(), status=303)
            return
        rest = [(k, v) for k, values in self.request.query_arguments.items() if k != "token" for v in values]
        self.redirect(self.request.path + (f"?{urlencode(rest)}" if rest else ""), status=303)

    def refuse(self, why: str) -> None:
        """A 403, the same page whatever was wrong; ``why`` said on the request's access line only."""
        self.failure = f"refused: {why}"
        raise tornado.web.HTTPError(403)

    def _request_summary(self) -> str:
        """The request as the server's log names a failed one: without its query, which may hold the token."""
        return f"{self.request.method} {self.request.path} ({self.request.remote_ip})"

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.private()  # an error's answer begins with no header set
        self.set_header("Content-Type", "text/html; charset=utf-8")
        if status_code == 403:
            body = (
                "<p>This page is the teacher's. Open the console's address as the server printed it when it "
                "started, or paste the console's token here.</p>" + self.sign_in_form()
            )
        else:
            body = f"<p>{html.escape(self._reason)}</p>"
        self.finish(page(f"{status_code}", body))

    def sign_in_form(self) -> str:
        return (
            f'<form method="post" action="{self.console_path()}" class="sign-in">'
            '<label>The console\'s token <input name="token" type="password" autocomplete="off" required '
            'size="34"></label><button>Open the console</button></form>'
        )

    def link(self, path: str, **query: Any) -> str:
        """A console address, under the server's base URL: never with the token (the cookie goes with it)."""
        return f"{self.base()}{path}" + (f"?{urlencode(query)}" if query else "")

    def base(self) -> str:
        """The server's base URL (``--base-url``) without its last slash: "" at a host's root."""
        return base_url(self).rstrip("/")

    def console_path(self) -> str:
        return f"{self.base()}/console"

    def cookie_options(self) -> dict[str, Any]:
        """Where and how the console's cookie is set, and cleared: its pages alone, never to scripts or
        other sites, and only over HTTPS where the console is reached so."""
        return {
            "path": self.console_path(),
            "httponly": True,
            "samesite": "Strict",
            "secure": self.request.protocol == "https",
        }

    def games(self) -> list[str]:
        folder = self.tables
        return [g for g in USUAL_SEATS if folder is None or (folder / f"{g}.ipynb").is_file()]

    async def database(self, call: Callable[[TableStore], T]) -> T:
        """``call(store)`` on one of the server's database threads (never on its event loop)."""
        return await in_database(self.db, call)


class ConsoleHome(ConsoleHandler):
    """``/console``: the live tables, and the forms for a duplicate lesson."""

    def rows(self, store: TableStore) -> list[str]:
        rows = []
        for table in class_tables(store):
            short, face_up = table.table_id[:6], self.link(f"/console/table/{table.table_id}")
            rows.append(
                f'<tr><td style="white-space:nowrap"><a class="face-up" href="{html.escape(face_up)}" '
                f'title="this table face up, for a projector"><code>{html.escape(short)}</code></a></td>'
                f"<td>{html.escape(table.page)}</td><td>{html.escape(seats_text(table))}</td>"
                f"<td>{html.escape(hand_text(table.model))}</td></tr>"
            )
        return rows

    async def get(self) -> None:
        try:
            rows = await self.database(self.rows)
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        listing = (
            '<p class="note">A table\'s name shows it face up, for a projector.</p>'
            '<div class="scroll"><table class="class-tables"><tr><th>Table</th><th>Game</th><th>Seats</th>'
            "<th>Hand</th></tr>" + "".join(rows) + "</table></div>"
            if rows
            else '<p class="no-tables">No table has been played in the last twelve hours.</p>'
        )
        options = "".join(f'<option value="{g}">{g}</option>' for g in self.games())
        body = (
            f"<h2>The class's tables ({len(rows)})</h2>{listing}"
            f'<p><a href="{html.escape(self.link("/console/records.jsonl"))}" download>'
            "Download the class's records</a>"
            ' <span class="note">(every finished hand, one loo-record/1 a line; a hand whose decisions were '
            "weighed carries its review)</span></p>"
            "<h2>A duplicate lesson</h2>"
            f'<form method="post" action="{self.base()}/console/deal" class="deal-every">'
            '<label>Deal this code to every table <input name="code" required size="26"></label>'
            "<button>Deal it</button></form>"
            '<p class="note">Each table deals it at its next hand (at once if between hands), as a new game.</p>'
            f'<form method="post" action="{self.base()}/console/open" class="open-tables">'
            f'<label>Open <input name="count" type="number" min="1" max="{MAX_OPEN}" value="4" size="3"> '
            f'tables of <select name="game">{options}</select></label>'
            '<label>with <input name="people" type="number" min="1" max="5" value="3" size="2"> players each</label>'
            '<label>at the deal <input name="code" size="26"></label><button>Open them</button></form>'
            f'<form method="get" action="{self.base()}/console/results" class="results">'
            '<label>Results of the deal <input name="code" required size="26"></label>'
            "<button>Compare the tables</button></form>"
            f'<form method="get" action="{self.base()}/console/decisions" class="decisions">'
            '<label>Where the class gave up most at the deal <input name="code" required size="26"></label>'
            "<button>Weigh their decisions</button></form>"
            '<p class="note">Each student\'s decisions are played out over many deals that fit what they knew; '
            "the positions that cost the class most come first, each one click from the projector.</p>"
            f'<form method="post" action="{self.base()}/console/sign-out" class="sign-out">'
            '<button>Leave the console</button> <span class="note">(this browser forgets its way in: the '
            "console's address, or its token, opens it again)</span></form>"
        )
        self.finish(page("Teacher's console", body))


class ConsoleDeal(ConsoleHandler):
    """``POST /console/deal``: the code set as every live table's pending deal."""

    async def post(self) -> None:
        text = self.get_argument("code", "").strip()
        try:
            code = parse_deal_code(text)
        except DealCodeError as error:
            self.set_status(400)
            self.finish(
                page("Teacher's console", f"<p>That deal code cannot be used: {html.escape(error.message)}.</p>")
            )
            return

        def deal(store: TableStore) -> int:
            book = SeatBook(store)
            live = book.live_tables(time.time() - LIVE_HOURS * 3600, MAX_TABLES)
            tables = [table_id for table_id, game, *_rest in live if game == code.game]
            book.set_pending_all(tables, str(code))
            return len(tables)

        try:
            dealt = await self.database(deal)
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        back = html.escape(self.link("/console"))
        said = (
            f'<p class="dealt">{html.escape(dealt_to(code, dealt))}</p><p><a href="{back}">Back to the console</a></p>'
        )
        self.finish(page("Teacher's console", said))


def dealt_to(code: DealCode, count: int) -> str:
    """What the console says once a deal is sent to the live tables of its game.

    >>> code = parse_deal_code("l3.peel.s0.n12345")
    >>> dealt_to(code, 1)
    'The deal l3.peel.s0.n12345 goes to 1 table of three-card Loo: that table deals it at its next hand.'
    >>> dealt_to(code, 3)
    'The deal l3.peel.s0.n12345 goes to 3 tables of three-card Loo: each deals it at its next hand.'
    >>> dealt_to(code, 0)
    'The deal l3.peel.s0.n12345 goes to no table: no table of three-card Loo is open.'
    """
    game = entry(code.game).in_text
    if not count:
        return f"The deal {code} goes to no table: no table of {game} is open."
    tables, which = ("1 table", "that table") if count == 1 else (f"{count} tables", "each")
    return f"The deal {code} goes to {tables} of {game}: {which} deals it at its next hand."


class ConsoleOpen(ConsoleHandler):
    """``POST /console/open``: N shared tables at one deal, with their seats' invitation links."""

    async def post(self) -> None:
        game = self.get_argument("game", "")
        text = self.get_argument("code", "").strip() or None
        try:
            if game not in self.games():
                raise ValueError(f"there is no table of {game[:40]!r}")
            count = max(1, min(int(self.get_argument("count", "1")), MAX_OPEN))
            people = max(1, int(self.get_argument("people", "1")))
            code = str(parse_deal_code(text, game=game)) if text else None
        except (ValueError, DealCodeError) as error:
            self.set_status(400)
            self.finish(page("Teacher's console", f"<p>Those tables cannot be opened: {html.escape(str(error))}.</p>"))
            return
        try:
            opened = await self.database(
                lambda store: [open_shared_with_codes(store, game, people, code) for _ in range(count)]
            )
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        host = handed_out_origin(self.request.protocol, self.request.host, self.request.host_name)
        parts = []
        for n, (table_id, tokens, players, codes) in enumerate(opened, start=1):
            seats = links_html(game, table_id, tokens, players, host, base=base_url(self), codes=codes)
            parts.append(f"<h2>Table {n}</h2>{seats}")
        back = html.escape(self.link("/console"))
        kept = DEAL_KEPT if code else ""
        title = f"{count} table{'' if count == 1 else 's'} of {entry(game).in_text}"
        join = f"{host}{base_url(self)}join"
        tools = (
            '<p class="opened-tools"><button type="button" class="print-slips" onclick="window.print()">Print the '
            'slips</button> <span class="note">one slip for each player: table, seat, code and QR code</span>'
            '<span class="loo-projector-place"></span></p>'
            f'<script src="{self.base()}/voila/templates/lanterloo/static/projector.js" '
            'data-where=".loo-projector-place" data-width="640" data-remember="no"></script>'
        )
        slips = slips_html(game, [(n, *o) for n, o in enumerate(opened, start=1)], host, base_url(self), join)
        back_link = f'<p><a href="{back}">Back</a></p>'
        self.finish(page(title, OPENED_STYLE + kept + tools + "".join(parts) + slips + back_link))


class ConsoleTable(ConsoleHandler):
    """``/console/table/<id>``: the table face up for a projector, redrawn every two seconds; with
    ``hand=N&step=S``, the Nth finished hand after S of its actions, with steps back and on."""

    async def get(self, table_id: str) -> None:
        hand_arg, step_arg = self.get_argument("hand", None), self.get_argument("step", "0")
        try:
            title, body = await self.database(lambda store: self.face_up(store, table_id, hand_arg, step_arg))
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        self.finish(page(title, body + f'<p><a href="{html.escape(self.link("/console"))}">Back</a></p>'))

    def face_up(self, store: TableStore, table_id: str, hand_arg: str | None, step_arg: str) -> tuple[str, str]:
        """The page's title and body (on a database thread); a 404 for a table that cannot be shown."""
        try:
            saved = store.load(table_id)
        except (UnknownTable, BadTableId):
            raise tornado.web.HTTPError(404) from None
        model = rebuilt_games.model(saved, bool(SeatBook(store).seats(table_id)))
        if model is None:  # its journal does not replay
            raise tornado.web.HTTPError(404)
        refresh = ""
        if hand_arg is None:
            hand, title = model.hand, f"Table {table_id[:6]}, face up"
            refresh = '<meta http-equiv="refresh" content="2">'
            nav = ""
        else:
            try:
                number = int(hand_arg)
                record = model.records[number - 1]
                loaded = load(json.dumps(record))
                step = max(0, min(int(step_arg), len(loaded.actions)))
            except (ValueError, IndexError):
                raise tornado.web.HTTPError(404) from None
            hand = replay_actions(loaded.start(), loaded.actions[:step])
            title = f"Table {table_id[:6]}, hand {number}, step {step} of {len(loaded.actions)}"
            back = self.link(f"/console/table/{table_id}", hand=number, step=max(0, step - 1))
            on = self.link(f"/console/table/{table_id}", hand=number, step=min(len(loaded.actions), step + 1))
            nav = (
                f'<p><a class="back" href="{html.escape(back)}">Step back</a> · '
                f'<a class="on" href="{html.escape(on)}">Step on</a></p>'
            )
        holdings = [hand.holding(p) for p in range(len(model.names))]
        # Seat -1: nobody's "you"; every hand drawn from ``holdings``, face up.
        board = board_html(hand.view(0), model.names, -1, show_own=True, open_hands=holdings, open_label=", face up")
        sheet = f'<link rel="stylesheet" href="{self.base()}{SHEET_PATH}">'
        rows = SeatBook(store).seats(table_id) if hand_arg is None else []
        seats = seats_html(rows, model.names, self.link(f"/console/table/{table_id}/free"))
        # The projector view (issue 29): ?projector=1 (kept by the page's refresh), or its button here.
        projector = (
            f'<script src="{self.base()}/voila/templates/lanterloo/static/projector.js" '
            'data-where=".loo-projector-place" data-width="800"></script><p class="loo-projector-place"></p>'
        )
        return title, refresh + sheet + projector + nav + board + seats


class ConsoleFreeSeat(ConsoleHandler):
    """``POST /console/table/<id>/free``: a shared table's seat freed for the next browser to open its link."""

    async def post(self, table_id: str) -> None:
        try:
            seat = int(self.get_body_argument("seat", ""))
        except ValueError:
            raise tornado.web.HTTPError(400, reason="no seat named") from None
        try:
            freed = await self.database(lambda store: SeatBook(store).free(table_id, seat))
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        if not freed:
            raise tornado.web.HTTPError(404, reason="no such seat at that table")
        self.redirect(self.link(f"/console/table/{table_id}"), status=303)


class ConsoleSignOut(ConsoleHandler):
    """``POST /console/sign-out``: this browser's session ended and its cookie cleared."""

    def post(self) -> None:
        self.sessions.end(self.get_cookie(COOKIE))
        self.clear_cookie(COOKIE, **self.cookie_options())
        left = (
            "<p>This browser no longer opens the teacher's console. To come back, open the console's address as "
            "the server printed it, or paste its token here.</p>"
        )
        self.finish(page("You have left the console", left + self.sign_in_form()))


class ConsoleNothing(ConsoleHandler):
    """Any other address under ``/console``: 403 without a session, 404 with one."""

    def get(self, _rest: str) -> None:
        raise tornado.web.HTTPError(404)

    post = get
