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
    assert len(links) == 4 and all("deal=nap.hoffmann.s0.n7" in link for link in links)
    table_id = re.search(r"table=([A-Za-z0-9_-]{22})", links[0])
    assert table_id is not None
    with TableStore(db) as store:
        rows = SeatBook(store).seats(table_id[1])
        assert [r.player for r in rows] == ["person", "person", "computer", "computer"]
        assert [f"seat={r.token}" in link for r, link in zip(rows, links, strict=True)] == [True] * 4
    assert bad.code == 400 and b"cannot be opened" in bad.body and b"Traceback" not in bad.body
    assert unknown.code == 404
    assert b'href="/tables/nap/shared"' in listing.body
