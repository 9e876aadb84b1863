"""The game in a minute and law references that open on a tap (issue 27, point 2), in chromium: on a
first visit to a server table and to an in-browser play page, at a phone's and a laptop's size, the
minute is open and seen with the table still in reach; a tap on a law's ID shows its panel (the law's
words and its source's title), and Escape or a tap elsewhere closes it; a later visit folds the minute."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.browser.table_page import WAIT
from tests.browser.test_first_minute import in_view, still
from tests.conftest import ROOT, Served

SHOTS = ROOT / "test-results"
SIZES = [(390, 844), (1366, 768)]
STARTS = 60_000  # Pyodide's first start on a busy machine


@pytest.fixture(scope="module")
def served(served_site: Served) -> str:
    """The test process's server (tests/conftest.py::served_site)."""
    return served_site.base


def fresh(browser: Browser, width: int, height: int) -> BrowserContext:
    """A first visit: a new browser profile (nothing in its storage), touch on a phone."""
    phone = width < 700
    return browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)


def tap(page: Page, target: str | Locator) -> None:
    """A tap on a phone (a touch screen), a click elsewhere."""
    locator = page.locator(target) if isinstance(target, str) else target
    if page.viewport_size is not None and page.viewport_size["width"] < 700:
        locator.tap()
    else:
        locator.click()


def a_law_opens_and_closes(page: Page, law: Locator, name: str) -> None:
    """Tap ``law`` (a details.loo-law): its panel is seen, naming its source by title; Escape closes it,
    the focus back on its ID; tapped again and then a tap elsewhere closes it too."""
    panel = law.locator(".loo-law-panel")
    expect(panel).to_be_hidden()
    tap(page, law.locator("summary"))
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 20
    assert page.viewport_size is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    text = panel.inner_text()
    assert "Source:" in text and any(title in text for title in ("Peel,", "Enquire Within", "Hoffmann", "Domino Loo"))
    page.screenshot(path=str(SHOTS / f"{name}-law-open.png"))
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    tap(page, law.locator("summary"))
    expect(panel).to_be_visible()
    tap(page, "h1")
    expect(panel).to_be_hidden()


def the_laws_behind_the_minute(page: Page) -> Locator:
    minute = page.locator("details[data-loo-minute]")
    tap(page, minute.locator("details.loo-minute-laws > summary"))
    law = minute.locator("details.loo-law").first
    expect(law.locator("summary")).to_be_visible()
    return law


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_server_table_opens_with_the_minute_and_its_laws_open_on_a_tap(
    browser: Browser, served: str, width: int, height: int
) -> None:
    SHOTS.mkdir(exist_ok=True)
    context = fresh(browser, width, height)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{served}/tables/three-card-loo", wait_until="commit", timeout=WAIT)
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        minute = page.locator("details[data-loo-minute]")
        expect(minute.locator("summary").first).to_be_visible()
        assert minute.evaluate("d => d.open"), "open on a first visit, whatever the window's height"
        expect(minute.get_by_text("To win:")).to_be_visible()
        expect(minute.get_by_text("In play:")).to_be_visible()
        still(page)
        page.screenshot(path=str(SHOTS / f"minute-server-{width}x{height}.png"))
        assert in_view(page, ".loo-board"), "the table still in reach below the minute"
        # the single's laws, in its plain sentence, open on a tap too
        brief = page.locator(".loo-opening-brief > summary")
        if width <= 600:  # on a phone the single's sentence is folded under one line: opened by a tap
            expect(brief).to_be_visible()
            brief.click()
        else:
            expect(brief).to_be_hidden()
        single = page.locator(".loo-opening details.loo-law:visible").first
        expect(single.locator("summary")).to_be_visible()
        a_law_opens_and_closes(page, single, f"minute-server-single-{width}x{height}")
        a_law_opens_and_closes(page, the_laws_behind_the_minute(page), f"minute-server-{width}x{height}")
        page.reload(wait_until="commit")
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        expect(minute.locator("summary").first).to_be_visible()
        assert not minute.evaluate("d => d.open"), "folded on a later visit"
        assert errors == []
    finally:
        context.close()


def test_the_rules_tab_begins_with_the_rules_in_brief(browser: Browser, served: str) -> None:
    context = fresh(browser, 1366, 768)
    try:
        page = context.new_page()
        page.goto(f"{served}/tables/nap", wait_until="commit", timeout=WAIT)
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        page.get_by_role("tab", name="Rules").click()
        brief = page.locator(".loo-rules-brief")
        expect(brief).to_be_visible(timeout=WAIT)
        expect(brief.get_by_text("Nap is a bid of all five")).to_be_visible()
        options = page.locator(
            ".loo-rules-picker .jupyter-widget-Collapse-header, .loo-rules-picker .p-Collapse-header"
        )
        brief_box, options_box = brief.bounding_box(), options.first.bounding_box()
        assert brief_box is not None and options_box is not None and brief_box["y"] < options_box["y"]
        page.screenshot(path=str(SHOTS / "minute-rules-tab-1366x768.png"))
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_an_in_browser_play_page_opens_with_the_minute_and_its_laws_open_on_a_tap(
    browser: Browser, static_site: str, width: int, height: int
) -> None:
    SHOTS.mkdir(exist_ok=True)
    context = fresh(browser, width, height)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{static_site}/play/three-card-loo.html", timeout=WAIT)
        minute = page.locator("details[data-loo-minute]")
        expect(minute.get_by_text("To win:")).to_be_visible()  # at once, while the table is made ready
        assert minute.evaluate("d => d.open")
        expect(page.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        still(page)
        page.screenshot(path=str(SHOTS / f"minute-play-{width}x{height}.png"))
        assert in_view(page, ".loo-board"), "the table still in reach below the minute"
        a_law_opens_and_closes(page, the_laws_behind_the_minute(page), f"minute-play-{width}x{height}")
        page.reload()
        expect(minute.locator("summary").first).to_be_visible()
        assert not minute.evaluate("d => d.open"), "folded on a later visit"
        assert errors == []
    finally:
        context.close()
