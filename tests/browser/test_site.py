"""The served site in a real browser: the book page, its widget, and a live table's Deal button.

Every request the pages make is recorded; any that leaves 127.0.0.1 fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "test-results"


@pytest.fixture
def requests(page: Page) -> Iterator[list[str]]:
    """Every URL the page asks for, websockets included; checked after the test body."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    page.on("websocket", lambda ws: seen.append(ws.url))
    yield seen
    outside = [
        url
        for url in seen
        if urlparse(url).scheme not in ("data", "blob", "about") and urlparse(url).hostname != "127.0.0.1"
    ]
    assert outside == [], f"requests left 127.0.0.1: {outside}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_book_page_shows_the_svg_hand_and_a_working_widget(page: Page, site: str, requests: list[str]) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    page.goto(site + "/book/first-hand.html")
    expect(page.get_by_role("heading", name="A first hand")).to_be_visible()
    # The seeded deal, drawn as SVG, each card named for screen readers.
    deal = page.locator(".cell_output .loo-deal").first
    expect(deal).to_be_visible()
    expect(deal.locator('g[role="img"][aria-label*=" of "]').first).to_be_visible()
    assert deal.locator('g[role="img"]').count() >= 5 * 3 + 3 + 1

    # The widget: rendered once by the offline bundle, and switching deals works with no kernel.
    browser_box = page.locator(".loo-deal-browser")
    expect(browser_box).to_have_count(1)
    buttons = browser_box.get_by_role("button", name=re.compile(r"^Deal \d+$"))
    expect(buttons).to_have_count(6)
    visible_deal = browser_box.locator(".loo-deal:visible")
    expect(visible_deal).to_have_count(1)
    first = visible_deal.inner_html()
    browser_box.get_by_role("button", name="Deal 15").click()
    page.wait_for_function(
        "(first) => { const v = [...document.querySelectorAll('.loo-deal-browser .loo-deal')]"
        ".filter(e => e.offsetParent !== null); return v.length === 1 && v[0].innerHTML !== first; }",
        arg=first,
    )
    shot(page, "book-first-hand")
    assert failed == [], f"failed requests: {failed}"
    assert errors == [], f"errors in the page: {errors}"


def test_live_table_deals_a_different_hand_on_click(page: Page, site: str, requests: list[str]) -> None:
    page.goto(site + "/tables/three-card-loo")
    deal_button = page.get_by_role("button", name="Deal")
    expect(deal_button).to_be_visible(timeout=30_000)
    heading = page.locator(".loo-heading")
    expect(heading).to_contain_text("Deal number")
    my_hand = page.locator("svg[aria-label^='your hand:']")
    expect(my_hand).to_have_count(1)
    before_heading, before_hand = heading.inner_text(), my_hand.get_attribute("aria-label")
    # Only the reader's own hand and the turn-up are face up.
    face_up = page.locator(".loo-table g[role='img']:not([aria-label*='face down'])")
    expect(face_up).to_have_count(4)

    deal_button.click()
    expect(heading).not_to_have_text(before_heading)
    assert before_hand is not None
    # Heading and hand arrive in one update: by the time the number changed, the cards have too.
    assert my_hand.get_attribute("aria-label") != before_hand
    expect(face_up).to_have_count(4)
    shot(page, "live-table")
