"""Shared tables on the server: opening one (``/tables/<game>/shared``), its invitation links, and the
check that a seat's page is the browser's that claimed the seat.

A shared table is a table id with a seat per player (:mod:`widgets.store.seating`); each seat's link is
``/tables/<game>?table=<id>&seat=<token>``, and nothing else: a deal the table is opened at is kept
in the database (:meth:`~widgets.store.seating.SeatBook.opening`), never in a link, for a deal code names
every card of its hand. The first browser to open a seat's link claims it (the ``loo-browser``
cookie names a browser, a random value the server gives it); a reload keeps it; another browser is
refused while the seat's page is here, and so is every browser while the database cannot say whose
the seat is (:func:`claim_seat`). The browser that holds the seat is told to the seat's kernel in
the request's details (:data:`SEAT_HEADER`), and the kernel checks it against the database before
it deals a card (:func:`widgets.multiseat.shared_view.served_shared`).
"""

from __future__ import annotations

import html
import logging
import secrets
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import tornado.httputil
import tornado.web

from loo.registry import entry
from widgets.server.classroom import handed_out_origin, qr_svg
from widgets.server.database import DatabaseAway, in_database, send_database_away, warn_now_and_then
from widgets.server.plain_page import page
from widgets.server.seats import TableSeats, send_tables_full
from widgets.store.seating import AWAY_SECONDS, COMPUTER, PERSON, SeatBook, shown_code, typed_code
from widgets.store.sqlite import TableStore
from widgets.table.dealcode import USUAL_SEATS, DealCodeError, parse_deal_code
from widgets.table.model import DEFAULT_NAMES

log = logging.getLogger("lanterloo.server")

BROWSER_COOKIE = "loo-browser"
SEAT_HEADER = "X-Lanterloo-Seat-Browser"
"""The header the server puts on a seat's page request for the browser that holds the seat (any the
client sent is removed first); Voila passes it to the kernel as ``HTTP_X_LANTERLOO_SEAT_BROWSER``."""
DEAL_KEPT = (
    '<p class="note deal-kept">The deal is kept on the server: no link carries it, since a deal code names '
    "every card of the hand. Whoever knows the code knows every card, so keep it from the players.</p>"
)


def seat_link(game: str, table_id: str, token: str, *, base: str = "/") -> str:
    """A seat's invitation link, under the server's base URL ``base`` (ending in "/"): the table and the
    seat, never the deal (the database keeps that)."""
    return f"{base}tables/{game}?{urlencode([('table', table_id), ('seat', token)])}"


def open_shared(store: TableStore, game: str, people: int, deal: str | None = None) -> tuple[str, list[str], list[str]]:
    """A new shared table of ``game`` in ``store`` (on a database thread: :mod:`widgets.server.database`):
    its first ``people`` seats for people, the rest computer players; its id, its seats' tokens and
    who plays each. ``deal``, a deal code, is kept with the seats as the hand the game begins at. A
    bad deal code raises :class:`DealCodeError`."""
    parsed = parse_deal_code(deal, game=game) if deal else None
    seats = parsed.n_seats if parsed is not None else USUAL_SEATS[game]
    table_id = store.new_table(game)
    players = [PERSON if i < people else COMPUTER for i in range(seats)]
    tokens = SeatBook(store).open_seats(table_id, players, None if parsed is None else str(parsed))
    return table_id, tokens, players


def open_shared_with_codes(
    store: TableStore, game: str, people: int, deal: str | None = None
) -> tuple[str, list[str], list[str], list[str]]:
    """:func:`open_shared`, and the seats' join codes."""
    table_id, tokens, players = open_shared(store, game, people, deal)
    return table_id, tokens, players, SeatBook(store).join_codes(table_id)


def links_html(
    game: str,
    table_id: str,
    tokens: list[str],
    players: list[str],
    host: str,
    *,
    base: str = "/",
    codes: list[str] | None = None,
) -> str:
    """A shared table's seats, each with its invitation link (whole, at ``host``) and, given ``codes``,
    its join code to type at ``<host><base>join`` and a QR code of the link to scan (issue 29)."""
    rows = []
    with_codes = codes is not None and len(codes) == len(tokens)
    for i, (token, player) in enumerate(zip(tokens, players, strict=True)):
        link = host + seat_link(game, table_id, token, base=base)
        who = "a computer player (a player may take it with this link)" if player == COMPUTER else "a player"
        extra = ""
        if with_codes and codes is not None:
            code = shown_code(codes[i])
            extra = (
                f'<td class="seat-code"><strong>{code}</strong></td>'
                f'<td class="seat-qr">{qr_svg(link, label=f"{DEFAULT_NAMES[i]}: a QR code of the seat link")}</td>'
            )
        rows.append(
            f'<tr><td>{html.escape(DEFAULT_NAMES[i])}</td><td>{who}</td>{extra}<td><a class="link seat-link" '
            f'href="{html.escape(link)}">{html.escape(link)}</a></td></tr>'
        )
    head = "<th>Code</th><th>QR code</th>" if with_codes else ""
    where = (
        f'<p class="note">A student opens <strong>{html.escape(host + base)}join</strong> and types their seat\'s '
        "code, or scans its QR code, or opens its link.</p>"
        if with_codes
        else ""
    )
    return (
        where
        + '<div class="scroll"><table class="seat-links"><tr><th>Seat</th><th>Played by</th>'
        + head
        + "<th>Invitation link</th></tr>"
        + "".join(rows)
        + "</table></div>"
    )


def same_origin(request: tornado.httputil.HTTPServerRequest) -> bool:
    """Whether a POST came from one of the server's own pages: its ``Origin`` (else its ``Referer``)
    names the scheme and host the request was sent to. A form or an image on another site cannot
    pass it, and neither can a request that names no page at all."""
    own = f"{request.protocol}://{request.host}".lower()
    origin = request.headers.get("Origin") or request.headers.get("Referer") or ""
    parts = urlsplit(origin.strip())
    return bool(parts.scheme and parts.netloc) and f"{parts.scheme}://{parts.netloc}".lower() == own


class SharedTableHandler(tornado.web.RequestHandler):
    """``/tables/<game>/shared``: a form (how many of the seats are for people), then a new shared
    table's invitation links, one per seat.

    A GET only shows the form (an address with ``people=`` fills it in): a shared table is opened by
    the form's POST alone, from the server's own page (:func:`same_origin`), so that no link, image
    or reload elsewhere opens one; 16,820 were opened in 20 s by GETs of its address. Each table
    opened takes one of the client address's places for :data:`~widgets.server.seats.HOLD_SECONDS`
    (:meth:`TableSeats.hold`), kept for the first seat's page; past its share the client gets the
    tables-full page, and nothing is written to the database."""

    def initialize(self, tables: Path, db: Path | str | None, seats: TableSeats | None = None) -> None:
        self.tables, self.db, self.seats = tables, db, seats

    def _title(self, game: str) -> str:
        if game not in USUAL_SEATS or not (self.tables / f"{game}.ipynb").is_file():
            raise tornado.web.HTTPError(404)
        self.set_header("Cache-Control", "no-store")
        return f"Play {entry(game).in_text} with others"

    def get(self, game: str) -> None:
        title = self._title(game)
        chosen = (self.get_query_argument("people", "") or "").strip()
        deal = (self.get_query_argument("deal", "") or "").strip()
        options = "".join(
            f'<option value="{n}"{" selected" if str(n) == chosen else ""}>{n}</option>'
            for n in range(1, USUAL_SEATS[game] + 1)
        )
        form = (
            "<p>A table for several players, each on their own computer: every player gets a link to their own "
            "seat, and computer players take the others.</p>"
            f'<form method="post"><label>Players (not computers) <select name="people">{options}</select></label>'
            f'<label>Deal code (optional) <input name="deal" size="24" value="{html.escape(deal[:200])}"></label>'
            "<button>Open the table</button></form>"
        )
        self.finish(page(title, form))

    async def post(self, game: str) -> None:
        title = self._title(game)
        client = self.request.remote_ip
        if not same_origin(self.request):
            self.failure = "refused to open a shared table: not from the server's own page"  # on the access line
            self.set_status(403)
            here = html.escape(self.request.path)
            self.finish(page(title, f'<p>Open a shared table from <a href="{here}">its page</a> on this server.</p>'))
            return
        people_arg = self.get_body_argument("people", "")
        deal = (self.get_body_argument("deal", "") or "").strip() or None
        if self.seats is not None and not self.seats.has_room(None, client):
            send_tables_full(self, self.seats)
            return
        # No await since has_room(): the place is taken before the database is asked (see TableSeats on bursts).
        held = self.seats.hold_new(client) if self.seats is not None else None
        opened: str | None = None
        try:
            people = max(1, min(int(people_arg), USUAL_SEATS[game]))
            table_id, tokens, players, codes = await in_database(
                self.db, lambda store: open_shared_with_codes(store, game, people, deal)
            )
            opened = table_id
        except (ValueError, DealCodeError) as error:
            self.set_status(400)
            self.finish(page(title, f"<p>That table cannot be opened: {html.escape(str(error)[:300])}.</p>"))
            return
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        finally:
            if self.seats is not None and held is not None:
                self.seats.rehold(held, opened)  # held for the table opened; given back if none was
        host = handed_out_origin(self.request.protocol, self.request.host, self.request.host_name)
        said = (
            "<p>Give each player the link of their seat; open your own here. A seat belongs to the first "
            "browser that opens its link, and comes back to it after a reload.</p>"
        )
        base = str(self.settings.get("base_url") or "/")
        links = links_html(game, table_id, tokens, players, host, base=base, codes=codes)
        self.finish(page(title, said + (DEAL_KEPT if deal else "") + links))


def shared_tables_html(games: list[str], base: str = "/") -> str:
    """The tables list's paragraph on playing with others: a link per game to open a shared table
    (under the server's base URL ``base``, ending in "/")."""
    links = " · ".join(
        f'<a class="loo-shared-link" href="{base}tables/{g}/shared">{html.escape(g.replace("-", " "))}</a>'
        for g in games
    )
    return (
        "<h2>Play with others</h2><p>Several players at one table, each on their own computer or phone, "
        f"computer players at the seats left over: {links}.</p>\n"
    )


# How often a page refused a seat (another browser's page holds it) asks again.
RETRY_SECONDS = 5
_RETRY_SCRIPT = """<script>
(function () {
  var left = %d, said = document.getElementById("loo-retry"), stop = document.getElementById("loo-retry-stop");
  var timer = setInterval(function () {
    left -= 1;
    if (left <= 0) { clearInterval(timer); said.textContent = "Asking again\u2026"; location.reload(); return; }
    said.textContent = "Asking again in " + left + " s.";
  }, 1000);
  stop.addEventListener("click", function () {
    clearInterval(timer); stop.hidden = true;
    said.textContent = "Stopped asking. Reload this page to ask again.";
  });
})();
</script>"""


def taken_page() -> str:
    """The page for a seat another browser holds: what happens and when, and it asks again by itself
    every :data:`RETRY_SECONDS` (a reload), so the seat opens here as soon as it is free (issue 29)."""
    away = round(AWAY_SECONDS)
    said = (
        "<p>Another browser has this seat and its page is open. If that was you (a browser that crashed, "
        f"another computer), close that page if you can: the seat comes free about {away} seconds after that "
        "page has gone, and this page then opens it by itself. Otherwise ask for the link of your own seat, "
        "or ask the teacher to free this one from the console.</p>"
        f'<p><span id="loo-retry">Asking again in {RETRY_SECONDS} s.</span> '
        '<button id="loo-retry-stop" type="button">Stop asking</button></p>'
    )
    return page("This seat is taken", said + _RETRY_SCRIPT % RETRY_SECONDS)


def unsure_page() -> str:
    said = (
        "<p>The server could not check whose this seat is, so it opens it for nobody for the moment. "
        "Wait a few seconds, then reload this page.</p>"
    )
    return page("This seat cannot be opened just now", said)


async def claim_seat(handler: tornado.web.RequestHandler, db: Path | str | None, table_id: str | None) -> bool:
    """For a seat's link (``seat=<token>``): claim the seat for this browser (off the event loop), and
    tell the page's kernel which browser holds it (:data:`SEAT_HEADER`); False, and a page saying why
    sent, if another browser has it (409) or the database cannot say (503: it failed, or did not answer
    within :data:`~widgets.server.database.WAIT_SECONDS`). True for any page that is not a seat's."""
    while SEAT_HEADER in handler.request.headers:  # never a client's own word for it
        del handler.request.headers[SEAT_HEADER]
    token = handler.get_query_argument("seat", None)
    if token is None or table_id is None:
        return True
    browser = handler.get_cookie(BROWSER_COOKIE)
    if not browser or len(browser) > 64:
        browser = secrets.token_urlsafe(16)
        handler.set_cookie(BROWSER_COOKIE, browser, path="/", httponly=True, samesite="Lax", expires_days=30)
    try:
        claimed = await in_database(db, lambda store: SeatBook(store).claim(table_id, token[:64], browser))
    except DatabaseAway as away:
        warn_now_and_then("could not claim a shared table's seat: refused", away)
        failed = True
    except Exception:
        log.exception("could not claim a seat of table %s: refused", table_id)
        failed = True
    else:
        failed = False
    if failed:
        handler.set_status(503)
        handler.set_header("Retry-After", "5")
        handler.set_header("Cache-Control", "no-store")
        handler.finish(unsure_page())
        return False
    if not claimed:
        handler.set_status(409)
        handler.set_header("Cache-Control", "no-store")
        handler.finish(taken_page())
        return False
    handler.request.headers[SEAT_HEADER] = browser
    return True


JOIN_STYLE = (
    "<style>.join-game{font-size:2rem;margin:.2rem 0 1rem}.join form{font-size:1.4rem}"
    ".join input[name=code]{font-size:1.6rem;width:7.5em;letter-spacing:.12em;text-transform:uppercase}"
    ".join button{font-size:1.4rem}.join-other{font-size:1.2rem}.join-wrong{color:#8a1c1c;font-weight:600}"
    "</style>"
)


def join_page(games: list[str], base: str, *, typed: str = "", wrong: str = "") -> str:
    """The students' landing (what a class's address opens): the class's game large, a box for the
    join code of their seat, playing on their own a click away, and the book a link away (issue 29)."""
    names = " or ".join(html.escape(entry(g).title) for g in games) if games else "Loo"
    solo = " · ".join(
        f'<a class="join-solo" href="{base}tables/{g}">Play {html.escape(entry(g).in_text)} on your own</a>'
        for g in games
    )
    said = f'<p class="join-wrong" role="alert">{html.escape(wrong)}</p>' if wrong else ""
    head = (
        f'<div class="join"><p class="join-game">Today: {names}</p><h2>Join your table</h2>'
        "<p>Type the code of your seat (six letters and digits, from your teacher's screen or your slip), or "
        "scan its QR code with your phone's camera.</p>"
    )
    form = (
        f'<form method="get" action="{base}join"><label>Seat code <input name="code" required '
        'autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="9" '
        f'value="{html.escape(typed)}" placeholder="ACD-EFG"></label><button>Join</button></form>'
    )
    others = (
        f'<p class="join-other">{solo}</p><p class="join-other"><a class="join-book" href="{base}">The book: '
        "the history and the rules of the games</a></p></div>"
    )
    return page("Join a table", JOIN_STYLE + head + said + form + others)


class JoinHandler(tornado.web.RequestHandler):
    """``/join``: the students' landing; ``/join?code=ACD-EFG`` takes a student to that code's seat."""

    def initialize(self, db: Path | str | None, games: list[str]) -> None:
        self.db = db
        self.games = games

    async def get(self) -> None:
        self.set_header("Cache-Control", "no-store")
        base = str(self.settings.get("base_url") or "/")
        typed = self.get_query_argument("code", "").strip()[:40]
        if not typed:
            self.finish(join_page(self.games, base))
            return
        code = typed_code(typed)
        if code is None:
            self.set_status(400)
            wrong = f"“{typed}” is not a seat code: a code is six letters and digits, like ACD-EFG."
            self.finish(join_page(self.games, base, typed=typed, wrong=wrong))
            return
        try:
            seat = await in_database(self.db, lambda store: SeatBook(store).by_join_code(code))
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        if seat is None:
            self.set_status(404)
            wrong = f"No table has the code {shown_code(code)} just now. Check it with your teacher."
            self.finish(join_page(self.games, base, typed=shown_code(code), wrong=wrong))
            return
        table_id, game, token = seat
        self.redirect(seat_link(game, table_id, token, base=base), status=303)
