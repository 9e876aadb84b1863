"""A newcomer's first minute, from the book's home page (issue 27), in chromium: one click on *Play a
hand now* reaches a dealt hand, on a static host (the table in the reader's browser) and on the
Lanterloo server (the server's table); a short guide says what to click and why, one prompt at a
time, and can be finished or skipped, which this browser remembers. A law ID in the book's text
opens its popover on a tap and on the keyboard. Every check is on what a person sees."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.browser.table_page import WAIT
from tests.conftest import ROOT, Served

SHOTS = ROOT / "test-results"
STARTS = 90_000  # Pyodide's first start on a busy machine
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}


@pytest.fixture
def reader(browser: Browser, request: pytest.FixtureRequest) -> Iterator[tuple[Page, list[str]]]:
    width, height = SIZES[getattr(request, "param", "laptop")]
    context: BrowserContext = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page, errors
    finally:
        context.close()


def in_viewport(page: Page, target: Locator) -> None:
    """``target`` is seen: visible, with a box of some size inside the window as it stands."""
    expect(target).to_be_visible()
    box = target.bounding_box()
    size = page.viewport_size
    assert box and size and box["width"] > 0 and box["height"] > 0, box
    assert 0 <= box["y"] and box["y"] + box["height"] <= size["height"], (box, size)
    assert 0 <= box["x"] and box["x"] + box["width"] <= size["width"], (box, size)


def starts_in_view(page: Page, target: Locator) -> None:
    """``target`` is seen at once: visible, its top inside the window (a tall table goes on below)."""
    expect(target).to_be_visible()
    box = target.bounding_box()
    size = page.viewport_size
    assert box and size and box["width"] > 0 and box["height"] > 0, box
    assert 0 <= box["y"] < size["height"] - 100, (box, size)


def guide(page: Page) -> Locator:
    return page.get_by_role("region", name="Guide to your first hand")


def play_to_the_end_with_the_guide(page: Page) -> list[str]:
    """Click what the guide points at until the hand is over; the guide's titles as they came."""
    titles: list[str] = []
    box = guide(page)
    for _ in range(40):
        expect(box).to_be_visible(timeout=WAIT)
        title = box.locator(".loo-guide-step strong").inner_text()
        if not titles or titles[-1] != title:
            titles.append(title)
        if title == "The hand is over":
            target = page.locator("button.loo-next")
            expect(target).to_have_class(_has("loo-guide-target"))
            return titles
        targets = page.locator(".loo-guide-target")
        if targets.count() == 0:  # the others are playing: wait for the table to need the reader again
            page.wait_for_function("() => document.querySelectorAll('.loo-guide-target').length > 0", timeout=WAIT)
            continue
        target = targets.first
        expect(target).to_be_visible()  # never a target hidden (as the reader's cards are while the others play)
        before = title
        target.click()
        page.wait_for_function(
            "(before) => { const t = document.querySelector('.loo-guide .loo-guide-step strong');"
            " return !t || t.textContent !== before || !document.querySelector('.loo-choices button[data-stale]'); }",
            arg=before,
        )
    raise AssertionError(f"the hand did not end: {titles}")


def _has(cls: str) -> re.Pattern[str]:
    return re.compile(rf"(^|\s){cls}(\s|$)")


# At a laptop's size the same first hand is walked in all three engines by
# tests/journeys/journeys.py::test_a_newcomers_guided_first_hand_from_the_home_page; here, a phone's.
@pytest.mark.parametrize("reader", ["phone"], indirect=True)
def test_a_newcomer_on_a_static_host_plays_a_guided_first_hand_in_one_click(
    reader: tuple[Page, list[str]], static_site: str
) -> None:
    page, errors = reader
    page.goto(f"{static_site}/book/index.html")
    play = page.get_by_role("link", name="Play a hand now")
    in_viewport(page, play)  # the first thing a newcomer can do, without scrolling
    size = "x".join(str(v) for v in (page.viewport_size or {}).values())
    page.screenshot(path=str(SHOTS / f"newcomer-home-static-{size}.png"))
    play.click()
    page.wait_for_url("**/play/three-card-loo.html*")
    expect(page.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
    starts_in_view(page, page.locator(".loo-board"))
    box = guide(page)
    in_viewport(page, box)
    expect(box).to_contain_text("Your first decision")
    page.screenshot(path=str(SHOTS / f"newcomer-guide-static-{size}.png"))
    titles = play_to_the_end_with_the_guide(page)
    assert titles[0] == "Your first decision" and titles[-1] == "The hand is over", titles
    page.screenshot(path=str(SHOTS / f"newcomer-guide-over-static-{size}.png"))
    box.get_by_role("button", name="Finish the guide").click()
    expect(box).to_have_count(0)
    # finished, and remembered: the table again, with no guide
    page.reload()
    expect(page.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
    expect(page.locator(".loo-board")).to_be_visible()
    expect(guide(page)).to_have_count(0)
    assert errors == [], errors


def test_a_newcomer_at_the_server_reaches_its_table_in_one_click_and_may_skip_the_guide(
    reader: tuple[Page, list[str]], served_site: Served
) -> None:
    page, errors = reader
    page.goto(f"{served_site.base}/book/index.html")
    play = page.get_by_role("link", name="Play a hand now")
    in_viewport(page, play)
    # served by the Lanterloo server, it goes to the server's table, which keeps the other hands hidden
    expect(play).to_have_attribute("href", "../tables/three-card-loo?guide=1")
    play.click()
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    # the address the reader sees, and may keep, is the table's own (issue 27), not Voila's
    page.wait_for_url(re.compile(r"/tables/three-card-loo\?table=[\w-]+$"))
    table_id = page.url.rsplit("=", 1)[1]
    box = guide(page)
    in_viewport(page, box)
    expect(box).to_contain_text("Your first decision")
    target = page.locator(".loo-guide-target").first
    expect(target).to_be_visible()
    page.screenshot(path=str(SHOTS / "newcomer-guide-server-1366x768.png"))
    box.get_by_role("button", name="Skip the guide").click()
    expect(box).to_have_count(0)
    expect(page.locator(".loo-guide-target")).to_have_count(0)
    # the kept address is the same game after a reload
    page.reload()
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    assert page.url.endswith(f"/tables/three-card-loo?table={table_id}"), page.url
    # skipped, and remembered: back from the home page, the table comes without it
    page.goto(f"{served_site.base}/book/index.html")
    assert page.evaluate("localStorage.getItem('lanterloo-guide')") == "off"
    page.goto(f"{served_site.base}/tables/three-card-loo")
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    expect(guide(page)).to_have_count(0)
    assert errors == [], errors


@pytest.mark.parametrize("reader", ["phone"], indirect=True)
def test_a_law_id_in_the_book_opens_its_popover_on_a_tap_and_from_the_keyboard(
    reader: tuple[Page, list[str]], static_site: str
) -> None:
    page, errors = reader
    page.goto(f"{static_site}/book/first-hand.html")
    law = page.locator("a.loo-law", has_text="L3-DEAL-10").first
    law.scroll_into_view_if_needed()
    expect(law).to_be_visible()
    law.click()
    pop = page.get_by_role("dialog", name="Law L3-DEAL-10")
    in_viewport(page, pop)
    expect(pop).to_contain_text("Peel, Round Games with Cards")  # the source by its title, not "000"
    page.screenshot(path=str(SHOTS / "law-popover-390x844.png"))
    assert "/book/first-hand.html" in page.url, "the tap opened the popover, not the index"
    page.keyboard.press("Escape")
    expect(pop).to_have_count(0)
    assert page.evaluate("document.activeElement.textContent.trim()") == "L3-DEAL-10"
    page.keyboard.press("Enter")  # from the keyboard too
    expect(pop).to_be_visible()
    pop.get_by_role("link", name="In the index of laws").click()
    page.wait_for_url("**/book/laws.html#*")
    assert errors == [], errors
