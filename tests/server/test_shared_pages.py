"""Opening a shared table on the server (issues 21 and 28), without kernels: the form, the invitation links
and their seats in the database, bad input answered plainly, opened by a POST from the server's own page
only, within the client's share of tables; and the tables list's links to it."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.testing
import tornado.web
from tornado.httpclient import AsyncHTTPClient

from tests.conftest import run_async
from tests.server.test_server import fetch_at_once, reserved
from widgets.server import classroom
from widgets.server import pages as server_pages
from widgets.server.pages import DEFAULT_TABLES
from widgets.server.seats import TableSeats
from widgets.server.shared_pages import JoinHandler, SharedTableHandler
from widgets.store.seating import CODE_ALPHABET, JOIN_HOURS, SeatBook, typed_code
from widgets.store.sqlite import TableStore


def app(db: Path, seats: TableSeats | None = None) -> tornado.web.Application:
    return tornado.web.Application(
        [
            (r"/tables/?", server_pages.TablesListHandler, {"tables": DEFAULT_TABLES}),
            (
                r"/tables/([a-z0-9-]+)/shared/?",
                SharedTableHandler,
                {"tables": DEFAULT_TABLES, "db": db, "seats": seats},
            ),
        ]
    )


def ask(application: tornado.web.Application, requests: list[tuple[str, str, str | None, str | None]]) -> list[Any]:
    """Each (method, path, form body, Origin) asked of ``application`` in turn, on a free port."""

    async def run() -> list[Any]:
        sock, port = tornado.testing.bind_unused_port()
        http = tornado.httpserver.HTTPServer(application)
        http.add_sockets([sock])
        client = AsyncHTTPClient(force_instance=True)
        answers = []
        try:
            for method, path, body, origin in requests:
                headers = {"Origin": origin.replace("PORT", str(port))} if origin else {}
                url = f"http://127.0.0.1:{port}{path}"
                answers.append(
                    await client.fetch(
                        url, method=method, body=body, headers=headers, follow_redirects=False, raise_error=False
                    )
                )
        finally:
            client.close()
            http.stop()
        return answers

    return run_async(run())


OWN = "http://127.0.0.1:PORT"  # the server's own page, as a browser names it in Origin


def test_a_shared_table_is_opened_by_its_forms_post_with_a_link_per_seat(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    form, opened, bad, unknown, listing = ask(
        app(db),
        [
            ("GET", "/tables/nap/shared", None, None),
            ("POST", "/tables/nap/shared", "people=2&deal=nap.hoffmann.s0.n7", OWN),
            ("POST", "/tables/nap/shared", "people=2&deal=nonsense", OWN),
            ("POST", "/tables/poker/shared", "people=2", OWN),
            ("GET", "/tables/", None, None),
        ],
    )
    assert form.code == 200 and b'name="people"' in form.body and b'method="post"' in form.body
    links = re.findall(r'class="link seat-link" href="([^"]*)"', opened.body.decode())
    assert len(links) == 4 and not any("deal=" in link or "hoffmann" in link for link in links), "the server's"
    table_id = re.search(r"table=([A-Za-z0-9_-]{22})", links[0])
    assert table_id is not None
    with TableStore(db) as store:
        rows = SeatBook(store).seats(table_id[1])
        assert [r.player for r in rows] == ["person", "person", "computer", "computer"]
        assert [f"seat={r.token}" in link for r, link in zip(rows, links, strict=True)] == [True] * 4
        assert SeatBook(store).opening(table_id[1]) == "nap.hoffmann.s0.n7"
    assert bad.code == 400 and b"cannot be opened" in bad.body and b"Traceback" not in bad.body
    assert unknown.code == 404
    assert b'href="/tables/nap/shared"' in listing.body


def test_a_get_of_a_shared_tables_address_opens_no_table(tmp_path: Path) -> None:
    """Repeated GETs of /tables/<game>/shared opened 16,820 tables in 20 s, and an image on any site
    could open them too: a GET now shows the form, filled in, and writes nothing."""
    db = tmp_path / "t.sqlite3"
    answers = ask(app(db), [("GET", "/tables/nap/shared?people=2&deal=nap.hoffmann.s0.n7", None, None)] * 5)
    assert all(a.code == 200 and b"seat-link" not in a.body for a in answers)
    assert b'<option value="2" selected>' in answers[0].body
    assert reserved(db) == 0


def test_a_shared_table_is_not_opened_by_a_post_from_another_site(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    elsewhere, unnamed, other_port = ask(
        app(db),
        [
            ("POST", "/tables/nap/shared", "people=2", "https://evil.example"),
            ("POST", "/tables/nap/shared", "people=2", None),
            ("POST", "/tables/nap/shared", "people=2", "http://127.0.0.1:1"),
        ],
    )
    assert [elsewhere.code, unnamed.code, other_port.code] == [403, 403, 403]
    assert b"seat-link" not in elsewhere.body and reserved(db) == 0


def test_shared_tables_count_against_the_clients_share_of_tables(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    seats = TableSeats(10, lambda: [], per_client=2)
    answers = ask(app(db, seats), [("POST", "/tables/nap/shared", "people=2", OWN)] * 3)
    assert [a.code for a in answers] == [200, 200, 503]
    assert b"The tables are full" in answers[2].body
    assert reserved(db) == 2 and seats.taken_by("127.0.0.1") == 2


def test_a_refused_console_request_is_logged_without_its_token(tmp_path: Path) -> None:
    from widgets.server.console import ConsoleHandler
    from widgets.server.console_routes import console_routes

    token = "a-console-token-for-this-test-only"
    routes = console_routes(token, tmp_path / "t.sqlite3", DEFAULT_TABLES)
    logged: list[str] = []
    application = tornado.web.Application(routes, log_function=lambda h: logged.append(h._request_summary()))
    refused, taken = fetch_at_once(application, ["/console?token=wrong", f"/console/nothing?token={token}"])
    assert refused.code == 403 and taken.code == 303 and taken.headers["Location"] == "/console/nothing"
    assert logged and not any("token" in line for line in logged)
    assert ConsoleHandler.token == token


def test_the_console_knows_one_deal_written_for_any_seat() -> None:
    from widgets.server.console import same_deal
    from widgets.table.dealcode import parse_deal_code

    at_ann, at_cat = parse_deal_code("l3.peel.s0.n5.d4"), parse_deal_code("l3.peel.s2.n5.d4")
    assert same_deal(at_ann, at_cat)
    assert same_deal(parse_deal_code("l3.peel.s0.n5"), parse_deal_code("l3.peel.s1.n5.d4"))
    assert not same_deal(at_ann, parse_deal_code("l3.peel.s0.n6.d4"))


def test_a_teacher_on_loopback_hands_out_links_at_the_address_students_reach(tmp_path: Path) -> None:
    """Issue 29: a teacher on the server's own computer (127.0.0.1) opened a shared table and its links
    named 127.0.0.1, which on a student's device is the student's own machine. With the server reachable
    on the network (its first student address, set as it starts), every link handed out names that."""
    lan = "http://192.0.2.7:8000"
    classroom.set_public_origin(lan + "/")
    try:
        (opened,) = ask(app(tmp_path / "t.sqlite3"), [("POST", "/tables/nap/shared", "people=2", OWN)])
    finally:
        classroom.set_public_origin(None)
    body = opened.body.decode()
    links = re.findall(r'class="link seat-link" href="([^"]*)">([^<]*)<', body)
    assert opened.code == 200 and len(links) == 4
    assert all(href.startswith(f"{lan}/tables/nap?") and text == href for href, text in links), links
    assert "127.0.0.1" not in body and "localhost" not in body


def test_a_student_joins_a_seat_by_its_code_typed_as_read_off_the_teachers_screen(tmp_path: Path) -> None:
    """Issue 29: a seat's link was some 100 characters to copy by hand. Each seat now has a six-character
    join code, shown beside its link with a QR code of the link; the students' landing (/join) names
    the class's game, takes the code (any case, with or without its hyphen) to the seat, and offers
    playing alone and the book."""
    db = tmp_path / "t.sqlite3"
    application = tornado.web.Application(
        [
            (r"/tables/([a-z0-9-]+)/shared/?", SharedTableHandler, {"tables": DEFAULT_TABLES, "db": db, "seats": None}),
            (r"/join/?", JoinHandler, {"db": db, "games": ["nap"]}),
        ]
    )
    (opened,) = ask(application, [("POST", "/tables/nap/shared", "people=2", OWN)])
    body = opened.body.decode()
    codes = re.findall(r'<td class="seat-code"><strong>([A-Z0-9]{3}-[A-Z0-9]{3})</strong></td>', body)
    links = [h.replace("&amp;", "&") for h in re.findall(r'class="link seat-link" href="([^"]*)"', body)]
    assert len(codes) == len(set(codes)) == 4 and len(links) == 4
    assert body.count('class="loo-class-qr"') == 4 and "/join</strong> and types their seat" in body
    assert all(typed_code(c) is not None and set(c.replace("-", "")) <= set(CODE_ALPHABET) for c in codes)

    typed = codes[1].lower()  # as a student types it on a phone
    landing, joined, spaced, unknown, nonsense = ask(
        application,
        [
            ("GET", "/join", None, None),
            ("GET", f"/join?code={typed}", None, None),
            ("GET", f"/join?code=+{codes[2].replace('-', '+')}+", None, None),
            ("GET", "/join?code=AAA-AAA", None, None),
            ("GET", "/join?code=hello", None, None),
        ],
    )
    page = landing.body.decode()
    assert landing.code == 200 and "Today: Nap" in page and 'action="/join"' in page and 'name="code"' in page
    assert 'href="/tables/nap">Play Nap on your own</a>' in page and 'class="join-book" href="/"' in page
    assert joined.code == 303 and links[1].endswith(joined.headers["Location"]), (joined.headers, links[1])
    assert spaced.code == 303 and links[2].endswith(spaced.headers["Location"])
    assert unknown.code == 404 and b"No table has the code AAA-AAA just now" in unknown.body
    assert nonsense.code == 400 and b"is not a seat code" in nonsense.body
    for answer in (unknown, nonsense):
        assert b"Traceback" not in answer.body and b'name="code"' in answer.body  # the form again, to try again

    # A code opens its seat only while its table is live; the link's token always does.
    with TableStore(db) as store:
        book = SeatBook(store)
        code = typed_code(codes[0])
        assert code is not None and book.by_join_code(code) is not None
        assert book.by_join_code(code, now=time.time() + (JOIN_HOURS + 1) * 3600) is None
