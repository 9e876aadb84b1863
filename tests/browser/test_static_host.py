"""A static host as a school might run one: Debian's nginx with ``deploy/static-nginx.conf`` serving the
built book, no Lanterloo server. The chapter's table runs in the reader's browser, and the in-browser
tables' big files reach it as the compressed copies ``make book`` wrote beside them (web/precompress.py),
sent as they are: the bytes on the wire are the copy's, not a gzip made per reader."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Response, expect

from tests.browser.test_deploy import DEPLOY, running_nginx
from tests.conftest import ROOT, _free_port, need_book

BOOK = ROOT / "_build" / "html"
STARTS = 120_000  # Pyodide's first start on a busy machine
# The files of a table's first visit that are big enough to be worth a copy (each is checked to have one).
BIG = ("pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", "widgets/embed-amd.js")


def static_conf(root: Path, port: int) -> str:
    """deploy/static-nginx.conf with ``root`` for the folder and nginx at ``port`` on loopback."""
    text = (DEPLOY / "static-nginx.conf").read_text()
    assert text.count("root /srv/lanterloo;") == 1 and text.count("listen 8080;") == 1
    return text.replace("root /srv/lanterloo;", f"root {root};").replace("listen 8080;", f"listen 127.0.0.1:{port};")


@pytest.fixture(scope="module")
def static_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    need_book()
    port = _free_port()
    with running_nginx(tmp_path_factory.mktemp("static-nginx"), static_conf(BOOK, port), port):
        yield f"http://127.0.0.1:{port}"


def test_a_table_in_the_readers_browser_from_nginx_gets_the_compressed_copies(page: Page, static_host: str) -> None:
    for name in BIG:
        assert (BOOK / f"{name}.gz").is_file() and (BOOK / f"{name}.br").is_file(), (
            f"make book wrote no copies of {name}"
        )
    responses: dict[str, Response] = {}
    page.on("response", lambda r: responses.setdefault(r.url.split("?")[0].removeprefix(static_host + "/"), r))
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{static_host}/play/three-card-loo.html")
    expect(page.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
    board = page.locator(".loo-board")
    expect(board).to_be_visible()
    shown = board.bounding_box()
    assert shown and shown["width"] > 200 and shown["height"] > 100, shown
    # The reader plays: Python answers in the page.
    before = board.inner_text()
    page.locator(".loo-choices button.mod-primary").first.click()
    page.wait_for_function("(b) => document.querySelector('.loo-board').innerText !== b", arg=before, timeout=30_000)
    for name in BIG:
        response = responses.get(name)
        assert response is not None, f"the table's first visit did not fetch {name}: {sorted(responses)}"
        assert response.ok and response.header_value("content-encoding") == "gzip", (name, response.all_headers())
        sent = response.request.sizes()["responseBodySize"]
        assert sent == (BOOK / f"{name}.gz").stat().st_size, f"{name}: {sent} bytes sent, not its .gz copy"
    worker = responses.get("inpage/worker.mjs")
    assert worker is not None and "javascript" in (worker.header_value("content-type") or ""), (
        "a module sent as no script"
    )
