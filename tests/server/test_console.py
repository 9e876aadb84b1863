"""The teacher's console takes its token once (issue 28, point 8): the address the server prints is
answered with a redirect to the same page without the token and a session cookie, whose value is not
the token; every console page then answers that cookie alone; what changes anything is a same-origin
POST; and neither the server's log nor a console page ever holds the token.

Each test runs the console's routes in this process, on a loopback port, with no kernel."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import shutil
import stat
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import pytest
import tornado.httpserver
import tornado.testing
import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPResponse

from tests.conftest import ROOT, run_async, serve_server
from tests.server.test_server import reserved
from widgets.server import database as server_database
from widgets.server import errors as server_errors
from widgets.server import logs as server_logs
from widgets.server.console_routes import console_routes
from widgets.server.errors import quiet_routes
from widgets.server.logs import ClientLog
from widgets.server.pages import DEFAULT_TABLES
from widgets.server.shared_pages import RETRY_SECONDS, open_shared, taken_page
from widgets.store.seating import AWAY_SECONDS, SeatBook
from widgets.store.sqlite import TableStore

T = TypeVar("T")
TOKEN = "console-token-" + secrets.token_urlsafe(12)
DEAL = "l3.peel.s0.n482910233"
SECONDS = 60  # the most one test's requests may take, all of them


@dataclass
class Cookie:
    name: str
    value: str
    attributes: dict[str, str]  # lower-cased names; "" for a flag (HttpOnly)

    @property
    def header(self) -> str:
        return f"{self.name}={self.value}"


def cookies_of(response: HTTPResponse) -> list[Cookie]:
    found = []
    for line in response.headers.get_list("Set-Cookie"):
        first, *rest = [part.strip() for part in line.split(";")]
        name, _, value = first.partition("=")
        attributes = {}
        for part in rest:
            key, _, val = part.partition("=")
            attributes[key.lower()] = val
        found.append(Cookie(name, value.strip('"'), attributes))
    return found


class Asker:
    """Requests to the application on one loopback port, as a browser on this machine sends them."""

    def __init__(self, client: AsyncHTTPClient, port: int) -> None:
        self.client, self.port = client, port
        self.own = f"http://127.0.0.1:{port}"

    async def __call__(
        self,
        method: str,
        path: str,
        body: str | None = None,
        *,
        cookie: str | None = None,
        origin: str | None = "own",
        headers: dict[str, str] | None = None,
    ) -> HTTPResponse:
        sent = dict(headers or {})
        if cookie:
            sent["Cookie"] = cookie
        if origin and method == "POST":
            sent["Origin"] = self.own if origin == "own" else origin
        if method == "POST" and body is None:
            body = ""
        return await self.client.fetch(
            self.own + path, method=method, body=body, headers=sent,
            follow_redirects=False, raise_error=False, request_timeout=20,
        )  # fmt: skip

    async def sign_in(self, base: str = "") -> str:
        """The cookie header the printed address (``?token=``) leaves the browser with."""
        answer = await self("GET", f"{base}/console?token={TOKEN}")
        assert answer.code in (302, 303), f"the token's address answered {answer.code}"
        (cookie,) = cookies_of(answer)
        return cookie.header


def talk(application: tornado.web.Application, scenario: Callable[[Asker], Awaitable[T]], **server: Any) -> T:
    """``scenario`` run against ``application`` served on a free loopback port (``server``: the HTTP
    server's own arguments, e.g. ``xheaders``), within :data:`SECONDS`."""

    async def run() -> T:
        sock, port = tornado.testing.bind_unused_port()
        http = tornado.httpserver.HTTPServer(application, **server)
        http.add_sockets([sock])
        client = AsyncHTTPClient(force_instance=True)
        try:
            return await asyncio.wait_for(scenario(Asker(client, port)), SECONDS)
        finally:
            client.close()
            http.stop()

    return run_async(run())


def console_app(db: Path, base: str = "", **settings: Any) -> tornado.web.Application:
    """The console's routes as the server routes them (:func:`quiet_routes`), with its access log."""
    routes = quiet_routes(console_routes(TOKEN, db, DEFAULT_TABLES, base=base))
    return tornado.web.Application(routes, log_function=server_logs.log_request, **settings)


def live_table(db: Path) -> str:
    """A three-card table played in the last hours: the console counts it among the class's."""
    with TableStore(db) as store:
        table_id = store.new_table("three-card-loo")
        store.append(table_id, 0, [{"type": "start", "code": "l3.peel.s0.n1"}])
    return table_id


def pending(db: Path, table_id: str) -> str | None:
    with TableStore(db) as store:
        return SeatBook(store).pending(table_id)


def test_the_token_address_redirects_to_one_without_it_and_sets_a_strict_httponly_cookie(tmp_path: Path) -> None:
    table_id = live_table(tmp_path / "t.sqlite3")

    async def scenario(ask: Asker) -> list[HTTPResponse]:
        return [
            await ask("GET", f"/console?token={TOKEN}"),
            await ask("GET", f"/console/table/{table_id}?hand=1&token={TOKEN}&step=0"),
            await ask("GET", f"/console?token={TOKEN}", headers={"X-Forwarded-Proto": "https"}),
        ]

    home, table, secure = talk(console_app(tmp_path / "t.sqlite3"), scenario, xheaders=True)
    assert home.code == 303 and home.headers["Location"] == "/console"
    assert table.code == 303 and table.headers["Location"] == f"/console/table/{table_id}?hand=1&step=0"
    for answer in (home, table, secure):
        assert TOKEN not in answer.headers.get("Location", "") and TOKEN not in answer.body.decode()
        (cookie,) = cookies_of(answer)
        assert cookie.value and cookie.value != TOKEN and TOKEN not in cookie.value
        assert "httponly" in cookie.attributes and cookie.attributes.get("samesite", "").lower() == "strict"
        assert cookie.attributes.get("path") == "/console"
        assert "expires" not in cookie.attributes and "max-age" not in cookie.attributes, "gone with the browser"
    assert "secure" not in cookies_of(home)[0].attributes and "secure" in cookies_of(secure)[0].attributes
    assert len({cookies_of(a)[0].value for a in (home, table, secure)}) == 3, "a session of its own each time"


def test_the_cookie_is_limited_to_the_console_under_the_servers_base_url(tmp_path: Path) -> None:
    async def scenario(ask: Asker) -> HTTPResponse:
        return await ask("GET", f"/loo/console/?token={TOKEN}")

    answer = talk(console_app(tmp_path / "t.sqlite3", base="/loo", base_url="/loo/"), scenario)
    assert answer.code == 303 and answer.headers["Location"] == "/loo/console/"
    assert cookies_of(answer)[0].attributes.get("path") == "/loo/console"


def test_the_console_works_with_its_cookie_alone_and_no_page_carries_the_token(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    table_id = live_table(db)

    async def scenario(ask: Asker) -> list[HTTPResponse]:
        cookie = await ask.sign_in()
        return [
            await ask("GET", "/console", cookie=cookie),
            await ask("GET", f"/console/results?code={DEAL}", cookie=cookie),
            await ask("GET", "/console/records.jsonl", cookie=cookie),
            await ask("GET", f"/console/table/{table_id}", cookie=cookie),
            await ask("GET", "/console/anything/else", cookie=cookie),
            await ask("POST", "/console/deal", f"code={DEAL}", cookie=cookie),
            await ask("POST", "/console/open", f"game=three-card-loo&count=2&people=2&code={DEAL}", cookie=cookie),
        ]

    home, results, records, face_up, nothing, dealt, opened = talk(console_app(db), scenario)
    assert [home.code, results.code, records.code, face_up.code, nothing.code] == [200, 200, 200, 200, 404]
    assert [dealt.code, opened.code] == [200, 200]
    assert b"class-tables" in home.body and table_id[:6].encode() in home.body
    assert f'href="/console/table/{table_id}"'.encode() in home.body, "a link between console pages: no token"
    assert pending(db, table_id) == DEAL and opened.body.count(b'class="link seat-link"') == 2 * 5
    for answer in (home, results, records, face_up, nothing, dealt, opened):
        assert TOKEN.encode() not in answer.body and b"token=" not in answer.body
        assert answer.headers.get("Cache-Control") == "no-store"


def test_a_forged_cookie_is_refused_as_a_missing_token_is(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"

    async def scenario(ask: Asker) -> list[HTTPResponse]:
        real = await ask.sign_in()
        name = real.split("=", 1)[0]
        value = real.split("=", 1)[1]
        other = "B" if value.endswith("A") else "A"  # the session's last letter changed (it was "A" 1 run in 64)
        forged = [f"{name}={secrets.token_urlsafe(32)}", f"{name}={TOKEN}", f"{name}={value[:-1]}{other}"]
        return [
            await ask("GET", "/console"),
            await ask("GET", "/console?token=not-the-token"),
            *[await ask("GET", "/console", cookie=cookie) for cookie in forged],
            *[await ask("POST", "/console/deal", f"code={DEAL}", cookie=cookie) for cookie in forged],
        ]

    answers = talk(console_app(db), scenario)
    assert [a.code for a in answers] == [403] * len(answers)
    assert len({a.body for a in answers}) == 1, "the same refusal, with no word on what was wrong"
    assert b"class-tables" not in answers[0].body and not any(cookies_of(a) for a in answers)


def test_a_cookie_from_before_the_server_restarted_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    cookie = talk(console_app(db), lambda ask: ask.sign_in())

    async def scenario(ask: Asker) -> HTTPResponse:
        return await ask("GET", "/console", cookie=cookie)

    assert talk(console_app(db), scenario).code == 403, "a new start (console_routes again) forgets every session"


def test_the_token_pasted_into_the_refusals_form_opens_the_console_without_an_address(tmp_path: Path) -> None:
    async def scenario(ask: Asker) -> list[HTTPResponse]:
        refused = await ask("GET", "/console/results")
        signed = await ask("POST", "/console", urlencode({"token": TOKEN}))
        cookie = cookies_of(signed)[0].header if cookies_of(signed) else ""
        return [
            refused,
            signed,
            await ask("GET", "/console", cookie=cookie),
            await ask("POST", "/console", urlencode({"token": "wrong"})),
            await ask("POST", "/console", urlencode({"token": TOKEN}), origin="https://evil.example"),
        ]

    refused, signed, home, wrong, elsewhere = talk(console_app(tmp_path / "t.sqlite3"), scenario)
    assert refused.code == 403 and b'method="post"' in refused.body and b'name="token"' in refused.body
    assert b'action="/console"' in refused.body
    assert signed.code == 303 and signed.headers["Location"] == "/console"
    assert home.code == 200 and b"A duplicate lesson" in home.body
    assert wrong.code == 403 and elsewhere.code == 403
    assert not cookies_of(wrong) and not cookies_of(elsewhere)


def test_a_console_get_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    table_id = live_table(db)

    async def scenario(ask: Asker) -> list[HTTPResponse]:
        cookie = await ask.sign_in()
        return [
            await ask("GET", f"/console/deal?code={DEAL}", cookie=cookie),
            await ask("GET", f"/console/open?game=three-card-loo&count=3&people=2&code={DEAL}", cookie=cookie),
            await ask("GET", f"/console/deal?code={DEAL}&token={TOKEN}"),
            await ask("GET", f"/console/open?game=three-card-loo&count=3&people=2&token={TOKEN}"),
        ]

    answers = talk(console_app(db), scenario)
    assert [a.code for a in answers[:2]] == [405, 405]
    assert [a.code for a in answers[2:]] == [303, 303], "the token's address is a sign-in, and only that"
    assert pending(db, table_id) is None and reserved(db) == 1


def test_a_cross_origin_console_post_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    table_id = live_table(db)
    opening = f"game=three-card-loo&count=2&people=2&code={DEAL}"

    async def scenario(ask: Asker) -> list[HTTPResponse]:
        cookie = await ask.sign_in()
        return [
            await ask("POST", "/console/deal", f"code={DEAL}", cookie=cookie, origin="https://evil.example"),
            await ask("POST", "/console/open", opening, cookie=cookie, origin="https://evil.example"),
            await ask("POST", "/console/deal", f"code={DEAL}", cookie=cookie, origin=None),  # no Origin, no Referer
            await ask("POST", "/console/open", opening, cookie=cookie, origin=f"http://127.0.0.1:{ask.port ^ 1}"),
            await ask(
                "POST", "/console/deal", f"code={DEAL}&token={TOKEN}", origin="https://evil.example"
            ),  # the token in the form, from another site
        ]

    answers = talk(console_app(db), scenario)
    assert [a.code for a in answers] == [403] * len(answers)
    assert pending(db, table_id) is None and reserved(db) == 1


def test_a_same_origin_post_named_by_its_referer_alone_is_the_consoles(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    table_id = live_table(db)

    async def scenario(ask: Asker) -> HTTPResponse:
        cookie = await ask.sign_in()
        referer = {"Referer": f"{ask.own}/console"}
        return await ask("POST", "/console/deal", f"code={DEAL}", cookie=cookie, origin=None, headers=referer)

    assert talk(console_app(db), scenario).code == 200
    assert pending(db, table_id) == DEAL


def test_leaving_the_console_ends_the_browsers_session(tmp_path: Path) -> None:
    async def scenario(ask: Asker) -> list[HTTPResponse]:
        cookie = await ask.sign_in()
        return [
            await ask("POST", "/console/sign-out", cookie=cookie, origin="https://evil.example"),
            await ask("GET", "/console", cookie=cookie),
            await ask("POST", "/console/sign-out", cookie=cookie),
            await ask("GET", "/console", cookie=cookie),
        ]

    elsewhere, still, left, after = talk(console_app(tmp_path / "t.sqlite3"), scenario)
    assert elsewhere.code == 403 and still.code == 200 and b'class="sign-out"' in still.body
    assert left.code == 200 and b'name="token"' in left.body
    (cleared,) = cookies_of(left)
    assert cleared.value == "" and cleared.attributes.get("path") == "/console"
    assert after.code == 403


def failing_store(_db: object) -> Any:
    """Not a database's error (that one gets the plain 503 page, widgets.server.database): a bug's."""
    raise RuntimeError("the tables' database cannot be reached")


def test_a_failed_console_request_logs_neither_the_token_nor_a_token_argument(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A console request that fails with a 500 (here, a bug where its database is asked), its access line, its error
    line and its traceback, however the console's routes are served: as the server serves them, or
    as :func:`console_routes` gives them, with tornado's own logging."""
    monkeypatch.setattr(server_errors, "traceback_log", ClientLog(logging.getLogger("lanterloo.server"), 60))
    monkeypatch.setattr(server_logs, "quiet_log", ClientLog(logging.getLogger("lanterloo.server")))
    db = tmp_path / "t.sqlite3"
    live_table(db)
    monkeypatch.setattr(server_database, "table_store", failing_store)  # on the console's database threads
    applications = [
        console_app(db),
        tornado.web.Application(console_routes(TOKEN, db, DEFAULT_TABLES)),
        tornado.web.Application(console_routes(TOKEN, db, DEFAULT_TABLES), log_function=server_logs.log_request),
    ]

    async def scenario(ask: Asker) -> list[int]:
        codes = []
        for path in (f"/console?token={TOKEN}", f"/console/results?code={DEAL}&token={TOKEN}"):
            first = await ask("GET", path)
            codes.append(first.code)
            cookie = cookies_of(first)[0].header if cookies_of(first) else None
            after = await ask("GET", first.headers.get("Location", path), cookie=cookie)
            codes.append(after.code)
        posted = await ask("POST", "/console/deal", f"code={DEAL}", cookie=cookie)
        return [*codes, posted.code]

    with caplog.at_level(logging.DEBUG):
        for application in applications:
            assert 500 in talk(application, scenario)
    text = caplog.text + "\n".join(repr(r.args) for r in caplog.records)
    assert "database cannot be reached" in text, "the failure was logged"
    assert TOKEN not in text
    assert "token=" not in text


def test_the_access_log_hides_a_token_in_any_address(caplog: pytest.LogCaptureFixture) -> None:
    """Not the console's only: any failed request's address is logged with its ``token=`` hidden."""

    class Missing(tornado.web.RequestHandler):
        def get(self) -> None:
            raise tornado.web.HTTPError(404)

    application = tornado.web.Application(quiet_routes([(r"/.*", Missing)]), log_function=server_logs.log_request)

    async def scenario(ask: Asker) -> int:
        return (await ask("GET", f"/somewhere?table=x&token={TOKEN}&seat=1")).code

    with caplog.at_level(logging.INFO):
        assert talk(application, scenario) == 404
    (line,) = [r.getMessage() for r in caplog.records if r.name == "tornado.access"]
    assert TOKEN not in line and "/somewhere?table=x&token=" in line


def test_every_line_through_the_servers_log_hides_a_token_tornados_own_too() -> None:
    """The net under the console: tornado's line for an exception a handler did not catch names the
    request's whole address (``uri='/console?token=...'``); the server's log handlers hide it."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    voila = logging.getLogger("test-voila-tokens")
    voila.handlers = [Collect()]
    saved = {n: (logging.getLogger(n).handlers, logging.getLogger(n).level, logging.getLogger(n).propagate)
             for n in server_logs.SERVER_LOGGERS}  # fmt: skip
    try:
        server_logs.share_server_log(voila)
        try:
            raise RuntimeError(f"failed at /console?token={TOKEN}")
        except RuntimeError:
            logging.getLogger("tornado.application").error(
                "Uncaught exception %s\n%r", f"GET /console?token={TOKEN}", {"uri": f"/console?%74oken={TOKEN}"},
                exc_info=True,
            )  # fmt: skip
        voila.warning("asked for /tables/nap?table=x&token=%s&seat=1", TOKEN)
    finally:
        for name, (handlers, level, propagate) in saved.items():
            target = logging.getLogger(name)
            target.handlers, target.propagate = handlers, propagate
            target.setLevel(level)
    text = "\n".join(lines)
    assert len(lines) == 2 and "Traceback" in text and TOKEN not in text
    for hidden in ("GET /console?token=[hidden]", "'/console?%74oken=[hidden]'", "RuntimeError: failed at "
                   "/console?token=[hidden]", "/tables/nap?table=x&token=[hidden]&seat=[hidden]"):  # fmt: skip
        assert hidden in text


def test_the_servers_start_output_never_holds_the_consoles_token_and_says_where_its_owner_finds_it(
    tmp_path: Path,
) -> None:
    """A teacher's terminal is often on the projector. Before, the server printed the console's
    address with its token (``/console?token=...``) as it started; now it prints how to open the
    console, and the address with its token is in a file only its owner may read, which opens the
    console and is gone when the server stops."""
    tables = tmp_path / "tables"
    tables.mkdir()
    shutil.copy(ROOT / "book" / "tables" / "three-card-loo.ipynb", tables)
    with serve_server(tmp_path, tables=tables) as served:
        address = served.console_address()
        token = served.console_token()
        kept = tmp_path / f"console-{urllib.parse.urlsplit(served.base).port}.txt"
        output = served.ready()
        assert token not in output and re.search(r"token=[\w-]", output) is None, output
        assert f"{served.base}/console" in output and str(kept) in output and f'"$(cat {kept})"' in output
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600, "readable by its owner alone"
        assert address == f"{served.base}/console?token={token}"
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # keeps the session's cookie
        with browser.open(address, timeout=30) as opened:  # the address opens the console
            assert opened.status == 200 and opened.url == f"{served.base}/console"
    assert not kept.exists(), "its token opens nothing once the server has stopped"


def test_the_teacher_frees_a_held_seat_and_the_next_browser_to_open_its_link_has_it(tmp_path: Path) -> None:
    """Issue 29: a student whose browser crashed was locked out of their seat until it came free by itself.
    The face-up table lists the people's seats, held or free, each held one with a button that frees it;
    after it, the seat's link opens for another browser, and the browser that held it no longer does."""
    db = tmp_path / "t.sqlite3"
    with TableStore(db) as store:
        table_id, tokens, _players = open_shared(store, "three-card-loo", 2)
        store.append(table_id, 0, [{"type": "start", "code": "l3.peel.s0.n1"}])  # its first hand dealt
        book = SeatBook(store)
        assert book.claim(table_id, tokens[0], "crashed-browser")
        assert not book.claim(table_id, tokens[0], "new-browser"), "held while its page is here"

    async def scenario(ask: Asker) -> list[HTTPResponse]:
        cookie = await ask.sign_in()
        return [
            await ask("GET", f"/console/table/{table_id}", cookie=cookie),
            await ask("POST", f"/console/table/{table_id}/free", "seat=0", cookie=cookie),
            await ask("POST", f"/console/table/{table_id}/free", "seat=0", cookie=cookie, origin="http://evil.test"),
            await ask("POST", f"/console/table/{table_id}/free", "seat=9", cookie=cookie),
            await ask("POST", f"/console/table/{table_id}/free", "seat=Ann", cookie=cookie),
            await ask("GET", f"/console/table/{table_id}", cookie=cookie),
        ]

    before, freed, forged, no_seat, not_a_seat, after = talk(console_app(db), scenario)
    assert before.code == 200 and before.body.count(b'class="free-seat"') == 1, "one held seat, one button"
    assert b"held, its page is open" in before.body
    assert b"free (the next browser to open its link has it)" in before.body
    assert freed.code == 303 and freed.headers["Location"] == f"/console/table/{table_id}"
    assert [forged.code, no_seat.code, not_a_seat.code] == [403, 404, 400]
    assert after.body.count(b'class="free-seat"') == 0
    with TableStore(db) as store:
        book = SeatBook(store)
        assert book.claim(table_id, tokens[0], "new-browser"), "the next browser to open the link has it"
        assert not book.claim(table_id, tokens[0], "crashed-browser"), "and holds it while its page is here"


def test_a_refused_seats_page_says_when_it_comes_free_and_asks_again_by_itself() -> None:
    taken = taken_page()
    assert f"about {round(AWAY_SECONDS)} seconds after that page has gone" in taken
    assert "ask the teacher to free this one from the console" in taken
    assert f"Asking again in {RETRY_SECONDS} s." in taken and "location.reload()" in taken
    assert '<button id="loo-retry-stop" type="button">Stop asking</button>' in taken
