"""The server's part in saved tables: fresh ids reserved for new tables, the render route that adds
one, and a database that is never put where the book (or Voila) would serve it."""

from __future__ import annotations

import socket
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from tests.conftest import run_async
from widgets import server
from widgets.server.app import LanterlooServer, server_config
from widgets.server.errors import QuietErrors, quiet_handler
from widgets.server.pages import DEFAULT_TABLES, TEMPLATES, TableLinkHandler, TableRenderHandler
from widgets.server.seats import with_table_id
from widgets.store.sqlite import TableStore, valid_id


def with_id(page: str, query: str, db: Path) -> str | None:
    return run_async(with_table_id(page, query, db))  # the id reserved on a database thread


def test_a_new_table_gets_a_fresh_reserved_id_and_keeps_its_deal_code(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    query = with_id("nap", "deal=nap.hoffmann.s0.n7", db)
    assert query is not None
    params = parse_qs(query)
    assert params["deal"] == ["nap.hoffmann.s0.n7"] and valid_id(params["table"][0])
    saved = TableStore(db).load(params["table"][0])
    assert saved.page == "nap" and saved.count == 0, "reserved, not yet played"
    assert with_id("nap", "", db) != with_id("nap", "", db)


def test_without_a_database_a_table_still_opens_unsaved(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert with_id("nap", "", blocked / "t.sqlite3") is None


def test_the_render_route_adds_table_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "html"
    book.mkdir()
    (book / "index.html").write_text("<p>book</p>")
    monkeypatch.setenv("JUPYTER_PATH", str(TEMPLATES))
    monkeypatch.setattr(LanterlooServer, "book_dir", book)
    monkeypatch.setattr(LanterlooServer, "db_path", tmp_path / "t.sqlite3")
    config = server_config(tables=DEFAULT_TABLES, port=_free_port(), ip="127.0.0.1", max_idle=60)
    config.VoilaConfiguration.preheat_kernel = False  # routing only (see test_server)
    app = LanterlooServer(config=config)
    app.initialize([])
    app.init_settings()
    handlers = app.init_handlers()
    render = [spec for spec in handlers if isinstance(spec[0], str) and spec[0].endswith("/voila/render/(.*)")]
    # Every route's handler is made quiet (widgets.server.errors.quiet_routes): the server's own class
    # with QuietErrors before it, so the route holds a subclass of it, not the class itself.
    assert len(render) == 1 and render[0][1] is quiet_handler(TableRenderHandler)
    assert issubclass(render[0][1], TableRenderHandler) and issubclass(render[0][1], QuietErrors)
    assert render[0][1].db == TableRenderHandler.db == tmp_path / "t.sqlite3"
    (link,) = [spec for spec in handlers if spec[1] is quiet_handler(TableLinkHandler)]
    assert link[0].startswith("/tables/") and link[2]["db"] == tmp_path / "t.sqlite3"


def test_the_database_may_not_live_inside_the_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "html"
    book.mkdir()
    (book / "index.html").write_text("<p>book</p>")
    assert server.main(["--book", str(book), "--db", str(book / "games.sqlite3"), "--port", str(_free_port())]) == 2
    assert "must not be inside the built book" in capsys.readouterr().err
    assert not (book / "games.sqlite3").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
