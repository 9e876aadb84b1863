"""The server under a path of its own (``lanterloo --base-url /loo/``), as a reverse proxy that
passes the path on as it came serves it: the book, the list of tables, a table page, what the page
loads and its kernel websocket all answer under the path, and nothing the pages link leaves it.

HTTP and the kernel websocket (:class:`tests.kernel_client.TableClient`), and a book page's table
box in the browser. The server runs one table notebook, so that it preheats one kernel only.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import ROOT, Served, run_async, serve_server
from tests.kernel_client import TableClient, fetch

TABLE = "three-card-loo"
PREFIX = "/loo/"
OPEN_WAIT = 120.0


@pytest.fixture(scope="module")
def under_prefix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tables = tmp_path_factory.mktemp("one-table")
    shutil.copy(ROOT / "book" / "tables" / f"{TABLE}.ipynb", tables)
    with serve_server(tmp_path_factory.mktemp("base-url"), tables=tables, base_url=PREFIX) as served:
        yield served


def origin(served: Served) -> str:
    parts = urlsplit(served.base)
    return f"{parts.scheme}://{parts.netloc}"


def test_the_book_and_the_tables_answer_under_the_base_url_and_nowhere_else(under_prefix: Served) -> None:
    site = origin(under_prefix)

    async def scenario() -> None:
        book = await fetch(f"{site}{PREFIX}")
        assert book.code == 200 and TABLE in book.headers.get("X-Lanterloo-Tables", "").split(",")
        chapter = await fetch(f"{site}{PREFIX}book/teaching.html")
        assert chapter.code == 200
        bare = await fetch(site + PREFIX.rstrip("/"), follow_redirects=False)
        assert bare.code in (301, 302) and bare.headers["Location"] == PREFIX
        for outside in ("/", "/tables/", f"/tables/{TABLE}", f"/voila/render/{TABLE}.ipynb"):
            assert (await fetch(site + outside, follow_redirects=False)).code == 404, outside
        listing = (await fetch(f"{site}{PREFIX}tables/")).body.decode()
        assert f'href="{PREFIX}tables/{TABLE}"' in listing
        assert f'href="{PREFIX}book/teaching.html#how-to-play"' in listing
        new = await fetch(f"{site}{PREFIX}tables/{TABLE}", follow_redirects=False)
        assert new.code == 302
        assert re.fullmatch(rf"{PREFIX}voila/render/{TABLE}\.ipynb\?table=[\w-]{{22}}", new.headers["Location"])

    run_async(scenario())


def test_a_table_under_the_base_url_loads_plays_and_links_under_it(under_prefix: Served) -> None:
    site = origin(under_prefix)

    async def scenario() -> None:
        client = await TableClient.open(under_prefix.base, TABLE, "deal=l3.peel.s0.n12", timeout=OPEN_WAIT)
        try:
            assert urlsplit(client.url).path == f"{PREFIX}voila/render/{TABLE}.ipynb"
            # Everything the page loads by an absolute path is under the prefix, and answers.
            loaded = set(re.findall(r'(?:src|href)="(/[^"]*)"', client.page))
            assert loaded and all(path.startswith(PREFIX) for path in loaded), sorted(loaded)
            for path in sorted(loaded):
                assert (await fetch(site + path)).code == 200, path
            assert f'"fullMathjaxUrl": "{PREFIX}tables/no-math.js"' in client.page
            # The links under the table's heading lead to the book and the tables, under the prefix.
            nav = re.search(r'<nav class="loo-table-links".*?</nav>', client.page, re.DOTALL)
            assert nav is not None
            links = [urljoin(client.url, href) for href in re.findall(r'href="([^"]+)"', nav.group(0))]
            assert len(links) == 3
            for link in links:
                assert urlsplit(link).path.startswith(PREFIX) and (await fetch(link)).code == 200, link
            # The kernel websocket under the prefix: a move is made, and the table answers it.
            before = client.board()
            msg_id = await client.click(client.choices()[0])
            await client.settled(msg_id)
            await client.wait_for(lambda: client.board() != before, 30, "the board to change")
            # The kernel's own links (a new table at this hand's code) are under the prefix too.
            msg_id = await client.click(client.button("loo-show-code"))
            await client.settled(msg_id)
            shown = next(v for v in client.html_values() if "a new table with this deal" in v)
            (link,) = re.findall(r'href="([^"]+)"', shown)
            assert link.startswith(f"{PREFIX}tables/{TABLE}?deal=l3.peel."), link
        finally:
            await client.close(shutdown=True)

    run_async(scenario())


def test_a_book_page_under_the_base_url_embeds_its_table_from_under_it(page: Page, under_prefix: Served) -> None:
    page.goto(f"{under_prefix.base}/book/first-hand.html")
    offer = page.locator(f"#live-{TABLE}")
    expect(offer.get_by_role("link", name="Open it on a page of its own")).to_have_attribute(
        "href", f"{PREFIX}tables/{TABLE}"
    )
    offer.get_by_role("button", name="Play here", exact=True).click()
    table = page.frame_locator(f"#live-{TABLE} iframe")
    expect(table.locator(".loo-table-view")).to_be_visible(timeout=60_000)
    expect(table.locator(".loo-table-view")).to_contain_text("Ann (you)")
    # the table's address is its own, under the prefix (issue 27), and its links still hold there
    framed = page.evaluate(f"document.querySelector('#live-{TABLE} iframe').contentWindow.location.pathname")
    assert framed == f"{PREFIX}tables/{TABLE}"
    chapter = table.locator("nav.loo-table-links a").first
    assert chapter.evaluate("a => new URL(a.href).pathname").startswith(f"{PREFIX}book/")
    offer.get_by_role("button", name="Close the table").click()  # its kernel is shut down as it goes
    expect(offer.locator("iframe")).to_have_count(0)
