"""Opening a shared table on the server (issue 21), without kernels: the form, the invitation links and
their seats in the database, bad input answered plainly; and the tables list's links to it."""

from __future__ import annotations

import re
from pathlib import Path

import tornado.web

from tests.server.test_server import fetch_at_once
from widgets.seating import SeatBook
from widgets.server import pages as server_pages
from widgets.server.pages import DEFAULT_TABLES
from widgets.server.shared_pages import SharedTableHandler
from widgets.store import TableStore


def app(db: Path) -> tornado.web.Application:
    return tornado.web.Application(
        [
            (r"/tables/?", server_pages.TablesListHandler, {"tables": DEFAULT_TABLES}),
            (r"/tables/([a-z0-9-]+)/shared/?", SharedTableHandler, {"tables": DEFAULT_TABLES, "db": db}),
        ]
    )


def test_a_shared_table_is_opened_with_a_link_per_seat(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    form, opened, bad, unknown, listing = fetch_at_once(
        app(db),
        [
            "/tables/nap/shared",
            "/tables/nap/shared?people=2&deal=nap.hoffmann.s0.n7",
            "/tables/nap/shared?people=2&deal=nonsense",
            "/tables/poker/shared?people=2",
            "/tables/",
        ],
    )
    assert form.code == 200 and b'name="people"' in form.body
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


def test_a_failed_console_request_is_logged_without_its_token(tmp_path: Path) -> None:
    from widgets.server.console import ConsoleHandler, console_routes

    token = "a-console-token-for-this-test-only"
    routes = console_routes(token, tmp_path / "t.sqlite3", DEFAULT_TABLES)
    logged: list[str] = []
    application = tornado.web.Application(routes, log_function=lambda h: logged.append(h._request_summary()))
    refused, missing = fetch_at_once(application, ["/console?token=wrong", f"/console/nothing?token={token}"])
    assert refused.code == 403 and missing.code == 404
    assert logged and not any("token" in line for line in logged)
    assert ConsoleHandler.token == token


def test_the_console_knows_one_deal_written_for_any_seat() -> None:
    from widgets.dealcode import parse_deal_code
    from widgets.server.console import same_deal

    at_ann, at_cat = parse_deal_code("l3.peel.s0.n5.d4"), parse_deal_code("l3.peel.s2.n5.d4")
    assert same_deal(at_ann, at_cat)
    assert same_deal(parse_deal_code("l3.peel.s0.n5"), parse_deal_code("l3.peel.s1.n5.d4"))
    assert not same_deal(at_ann, parse_deal_code("l3.peel.s0.n6.d4"))
