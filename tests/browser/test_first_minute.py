"""The first minute at a live table (issue 20), in chromium: the tab names the game, the page links
the book, the introduction folds away once read with the table in view, Peel's single is shown and
the reader has a decision to make, and ``/tables/`` lists the tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.table_page import WAIT
from tests.browser.test_accessibility import axe_problems
from tests.conftest import ROOT, Served
from widgets.draw.table_pages import PAGES, page_title

SHOTS = ROOT / "test-results"


@pytest.fixture(scope="module")
def served(served_site: Served) -> tuple[str, Path]:
    """The test process's server (tests/conftest.py::served_site) and its database."""
    return served_site.base, served_site.db


def open_table(page: Page, url: str) -> None:
    page.goto(url, wait_until="commit", timeout=WAIT)
    expect(page.locator(".loo-table-view")).to_be_visible(timeout=WAIT)
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)


# Every animation in the page that ends has ended (Peel's single: its cards turned one by one, then
# its sentence unfolded, which moves the table down): the page as a reader sees it once it is still.
STILL = """() => document.getAnimations().every(a => a.playState !== 'running'
  || a.effect === null || a.effect.getComputedTiming().iterations === Infinity)"""


def still(page: Page) -> None:
    page.wait_for_function(STILL, timeout=WAIT)


def in_view(page: Page, selector: str) -> bool:
    """Whether the top of ``selector`` is inside the window as the page opens (no scrolling)."""
    top = page.evaluate(f"() => document.querySelector({selector!r}).getBoundingClientRect().top")
    return bool(0 <= top < page.viewport_size["height"] - 120) if page.viewport_size else False


def wholly_in_view(page: Page, selector: str) -> bool:
    """Whether all of the first visible ``selector`` is inside the window as the page opens (no scrolling):
    the reader's choices, whose place below the table depends on the deal (a new table's is random, and
    the single's sentence above the cloth is longer for some deals than others)."""
    box = page.locator(selector).locator("visible=true").first.bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    return box is not None and box["height"] > 0 and 0 <= box["y"] and box["y"] + box["height"] <= height


def test_a_new_table_is_titled_linked_and_folds_its_introduction_once_read(
    browser: Browser, served: tuple[str, Path]
) -> None:
    base, _db = served
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1366, "height": 1024})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_table(page, f"{base}/tables/three-card-loo")
        assert page.title() == page_title("three-card-loo")
        links = page.locator("nav.loo-table-links a")
        # relative to the table's page, so that they hold under a base URL too (test_base_url.py)
        assert links.nth(0).evaluate("a => new URL(a.href).pathname") == f"/{PAGES['three-card-loo'].chapter}"
        assert links.nth(1).inner_text() == "How to play this table"
        intro = page.locator("details[data-loo-intro]")
        assert intro.evaluate("d => d.open"), "open on the first visit, on a big screen"
        # Peel's single: shown as an event, and the reader has a decision to make
        expect(page.locator(".loo-opening")).to_contain_text("L3-SGL-0", timeout=WAIT)
        expect(page.locator(".loo-choices button.mod-primary").first).to_be_enabled(timeout=WAIT)
        still(page)  # the single's cards turned
        page.screenshot(path=str(SHOTS / "first-minute-1366x1024-first-visit.png"))
        assert in_view(page, ".loo-board"), "the table in view below the introduction"
        assert in_view(page, ".loo-choices")
        page.screenshot(path=str(SHOTS / "first-minute-1366x1024-first-visit.png"))
        page.reload(wait_until="commit")
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        assert not intro.evaluate("d => d.open"), "folded once read"
        assert in_view(page, ".loo-board")
        still(page)
        page.screenshot(path=str(SHOTS / "first-minute-1366x1024-again.png"))
        intro.locator("summary").click()
        assert intro.evaluate("d => d.open"), "a click opens it again"
        assert axe_problems(page) == [], "the links, the fold and the single pass axe"
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_on_a_laptop_or_a_phone_the_table_is_in_view_at_once(
    browser: Browser, served: tuple[str, Path], width: int, height: int
) -> None:
    base, _db = served
    SHOTS.mkdir(exist_ok=True)
    phone = width < 700
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    try:
        page = context.new_page()
        open_table(page, f"{base}/tables/three-card-loo")
        assert page.title() == page_title("three-card-loo")
        assert not page.locator("details[data-loo-intro]").evaluate("d => d.open"), "folded: the table first"
        still(page)
        page.screenshot(path=str(SHOTS / f"first-minute-{width}x{height}.png"))
        assert in_view(page, ".loo-board")
        if not phone:
            assert wholly_in_view(page, ".loo-choices"), "the choices too"
    finally:
        context.close()


def test_tables_lists_the_tables_and_leads_to_one(page: Page, served: tuple[str, Path]) -> None:
    base, _db = served
    response = page.goto(f"{base}/tables/", timeout=WAIT)
    assert response is not None and response.status == 200
    assert page.title() == "The live tables · Lanterloo"
    assert page.locator("a.loo-table-link").count() == len(PAGES)
    assert axe_problems(page) == []
    page.locator("a.loo-table-link", has_text="Napoleon").click()
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    assert page.title() == page_title("nap")
