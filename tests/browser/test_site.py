"""The served site in a real browser: the book page and its widget, and every live table opened (played by mouse
and keyboard in test_play.py).

Every request the pages make is recorded; any that leaves 127.0.0.1 fails the test.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.browser.table_page import page_complains
from tests.browser.test_accessibility import (
    FULLY_CHECKED,
    axe_problems,
    fits_a_phone_and_shows_its_focus,
    table_passes_axe,
)
from tests.conftest import Served

SHOTS = Path(__file__).resolve().parents[2] / "test-results"
# Pages that are reference or landing pages, not chapters: no example hand is asked of them.
TABLES = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "book" / "tables").glob("*.ipynb"))
REFERENCE_PAGES = {"index.html", "glossary.html", "bibliography.html", "laws.html"}


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
    # a hand comes before any code: the chapter's code is folded under its examples (issue 20)
    expect(page.locator("article .cell_input:visible")).to_have_count(0)
    expect(page.get_by_text("Show code cell source").first).to_be_visible()

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


def watch(page: Page) -> tuple[list[str], list[str]]:
    """Page errors, console errors and warnings, and failed responses, filled in as the page runs."""
    errors: list[str] = []
    failed: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def console(message: ConsoleMessage) -> None:
        # A resource that fails is logged with no address in its text: name the address and the page.
        # A warning counts as much as an error: the console of every page is to stay clean.
        if page_complains(message.type, message.text):
            errors.append(f"{message.type}: {message.text} ({message.location.get('url', '?')}, on {page.url})")

    page.on("console", console)
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return errors, failed


# A new three-card table opens on Peel's single, every card face up and settled at the deal: a later
# hand of the game, with a pool and the backs of the others' cards, is opened instead.
OPENED_AT = {"three-card-loo": "?deal=l3.peel.s0.n987654.d2.p9.knormal"}


@pytest.mark.parametrize("table", TABLES)
def test_every_live_table_opens_with_the_readers_hand_only_fits_a_phone_and_passes_axe(
    page: Page, site: str, requests: list[str], table: str
) -> None:
    errors, failed = watch(page)
    page.goto(site + f"/tables/{table}" + OPENED_AT.get(table, ""))
    view = page.locator(".loo-table-view")
    expect(view).to_be_visible(timeout=30_000)
    expect(view).to_contain_text("Ann (you)")
    # The other seats' hands are backs: every face-down drawing is named so, and no seat but the
    # reader's shows a hand face up while the hand is in play.
    expect(page.locator("[aria-label$='face down']").first).to_be_visible()
    assert page.locator("[aria-label*='face up for teaching']").count() == 0
    # tests/browser/test_accessibility.py's checks, on the table as it opened (one game's with a hint
    # and its Ledger and Rules tabs too)
    fits_a_phone_and_shows_its_focus(page)
    if table == FULLY_CHECKED:
        table_passes_axe(page)
    else:
        problems = axe_problems(page)
        assert not problems, "\n".join(problems)
    for tab in ("Review", "Ledger", "Rules"):
        page.get_by_role("tab", name=tab).click()
    expect(page.get_by_role("combobox", name="Game")).to_be_visible()
    shot(page, f"table-{table}")
    assert failed == [] and errors == [], (failed, errors)


def step_through_the_first_hand(page: Page) -> None:
    """The first chapter's viewer, stepped by button and by key: Forward, End, ArrowLeft, Home."""
    # The chapter's own viewer comes first; its closing question's replay is a second one.
    expect(page.locator("[data-loo-steps]")).to_have_count(2)
    viewer = page.locator("[data-loo-steps]").first
    shown = viewer.locator("[data-loo-frame]:not([hidden]) .loo-steps-head")
    expect(shown).to_contain_text("Step 0 of 11")
    viewer.get_by_role("button", name="Forward").click()
    expect(shown).to_contain_text("Step 1 of 11")
    viewer.focus()
    page.keyboard.press("End")
    expect(shown).to_contain_text("Step 11 of 11")
    expect(viewer.locator("[data-loo-frame]:not([hidden])")).to_contain_text("looed")
    page.keyboard.press("ArrowLeft")
    expect(shown).to_contain_text("Step 10 of 11")
    page.keyboard.press("Home")
    expect(shown).to_contain_text("Step 0 of 11")


def test_the_books_step_viewer_steps_by_keyboard_in_the_static_build(
    page: Page, static_site: str, requests: list[str]
) -> None:
    """The book as any static host serves it: the viewer steps with buttons and keys, with no server behind it."""
    errors, failed = watch(page)
    page.goto(static_site + "/book/first-hand.html")
    step_through_the_first_hand(page)
    viewer = page.locator("[data-loo-steps]")
    # the cards drawn once and reused are still there to see, named for a screen reader
    frame = viewer.locator("[data-loo-frame]:not([hidden])")
    expect(frame.locator("g[role=img][aria-label*=' of ']").first).to_be_visible()
    assert frame.locator("use").count() > 0
    assert not [url for url in requests if url.startswith("ws")]
    # with no Lanterloo server, the live-table offer's one button opens the table that runs in the
    # reader's browser, which says what it cannot hide; how to start a server is folded away
    offer = page.locator("#live-three-card-loo")
    expect(offer.get_by_role("button", name="Play here")).to_be_visible()
    expect(offer.get_by_text("cannot hide the other hands")).to_be_visible()
    expect(offer.get_by_text("Tables that keep the other hands hidden")).to_be_visible()
    expect(offer.get_by_text("make serve")).to_be_hidden()
    expect(offer.get_by_role("button", name="play it in your browser instead")).to_be_hidden()
    assert failed == [] and errors == [], (failed, errors)


def embedded_table_id(page: Page) -> str:
    """The table id in the address of the table embedded in the first-hand page."""
    page.wait_for_function(
        "() => { const f = document.querySelector('#live-three-card-loo iframe');"
        " try { return f && /[?&]table=/.test(f.contentWindow.location.search); } catch (e) { return false; } }",
        timeout=30_000,
    )
    search = page.evaluate("document.querySelector('#live-three-card-loo iframe').contentWindow.location.search")
    return parse_qs(search.lstrip("?"))["table"][0]


# The page asks the server whether it serves the tables with a HEAD request for itself; here that
# answer is held back, as a busy server's would be, until the test lets it go (window.answerNow()):
# held for a fixed time, it came before the click on a loaded machine.
SLOW_ANSWER = """
(() => {
  const fetchNow = window.fetch;
  const held = new Promise((done) => { window.answerNow = done; });
  window.fetch = (what, how) => how && how.method === "HEAD"
    ? held.then(() => fetchNow(what, how))
    : fetchNow(what, how);
})();
"""


def test_play_here_pressed_before_a_busy_server_has_answered_opens_the_servers_table(
    page: Page, served_site: Served
) -> None:
    """A reader who presses *Play here* at once, before the busy server has said that it serves the
    tables, waits for its answer and gets the server's table, which hides the other hands; it once
    gave them the in-browser table, which cannot (a journey test met it on a loaded machine)."""
    page.add_init_script(SLOW_ANSWER)
    page.goto(served_site.base + "/book/first-hand.html")
    offer = page.locator("#live-three-card-loo")
    play_here = offer.get_by_role("button", name="Play here", exact=True)
    expect(play_here).to_be_visible()
    play_here.click()
    expect(offer.get_by_role("button", name="Opening…")).to_be_visible()
    page.evaluate("window.answerNow()")
    frame = offer.locator("iframe")
    expect(frame).to_be_visible(timeout=10_000)
    assert page.evaluate("new URL(document.querySelector('#live-three-card-loo iframe').src).pathname") == (
        "/tables/three-card-loo"
    )
    table = page.frame_locator("#live-three-card-loo iframe")
    expect(table.locator(".loo-table-view")).to_be_visible(timeout=30_000)
    offer.get_by_role("button", name="Close the table").click()
    expect(frame).to_have_count(0)


def test_a_book_page_served_with_the_tables_offers_and_embeds_its_table(
    page: Page, served_site: Served, requests: list[str]
) -> None:
    """The first-hand page offers its table and plays it in the page. Closing the table shuts its
    kernel down at once (its page is unloaded first, so it says goodbye); opening it again comes
    back to the same game, and so does the new-tab link; "Start a new table" gives a new one."""
    errors, failed = watch(page)
    page.goto(served_site.base + "/book/first-hand.html")
    offer = page.locator("#live-three-card-loo")
    play_here = offer.get_by_role("button", name="Play here", exact=True)
    expect(play_here).to_be_visible()
    # served by the Lanterloo server, the button opens the server's table, which hides the other
    # hands; the browser's table is a plain-text alternative, and no word about starting a server
    expect(offer.get_by_text("keeps the other hands hidden")).to_be_visible()
    expect(offer.get_by_text("make serve")).to_be_hidden()
    expect(offer.get_by_text("Tables that keep the other hands hidden")).to_be_hidden()
    expect(offer.get_by_role("button", name="play it in your browser instead")).to_be_visible()
    new_tab = offer.get_by_role("link", name="Open it on a page of its own")
    expect(new_tab).to_have_attribute("href", "/tables/three-card-loo")
    expect(offer.get_by_role("button", name="Start a new table")).to_be_hidden()
    # The pointer or the focus on "Play here" starts no table in the reader's browser here: the
    # server's is the one it opens (the answer is in: the server's note is shown, so a start would
    # have been made in the event's handler itself).
    play_here.hover()
    play_here.focus()
    expect(offer.locator("iframe")).to_have_count(0)
    play_here.click()
    close = offer.get_by_role("button", name="Close the table")
    expect(close).to_have_attribute("aria-expanded", "true")
    table = page.frame_locator("#live-three-card-loo iframe")
    expect(page.locator("#live-three-card-loo iframe")).to_be_visible()
    expect(table.locator(".loo-table-view")).to_be_visible(timeout=30_000)
    expect(table.locator(".loo-table-view")).to_contain_text("Ann (you)")
    box = page.locator("#live-three-card-loo iframe").bounding_box()
    assert box and box["width"] > 600 and box["height"] > 500, box
    first = embedded_table_id(page)
    shot(page, "book-offer-embedded")
    kernel = page.evaluate(
        "JSON.parse(document.querySelector('#live-three-card-loo iframe').contentDocument"
        ".getElementById('jupyter-config-data').textContent).kernelId"
    )
    assert kernel in served_site.kernel_ids()
    close.click()
    expect(offer.locator("iframe")).to_have_count(0)
    deadline = time.monotonic() + 30
    while kernel in served_site.kernel_ids():
        assert time.monotonic() < deadline, "closing the embedded table left its kernel running"
        time.sleep(0.2)
    # Back to the same game, in the page and by the new-tab link.
    back = offer.get_by_role("button", name="Back to your game")
    expect(back).to_be_visible()
    expect(new_tab).to_have_attribute("href", re.compile(rf"\?table={first}$"))
    back.click()
    expect(table.locator(".loo-table-view")).to_be_visible(timeout=30_000)
    assert embedded_table_id(page) == first
    # A new table on request.
    offer.get_by_role("button", name="Start a new table").click()
    expect(table.locator(".loo-table-view")).to_be_visible(timeout=30_000)
    page.wait_for_function(
        "(first) => { const f = document.querySelector('#live-three-card-loo iframe');"
        " try { return f && /[?&]table=/.test(f.contentWindow.location.search)"
        " && !f.contentWindow.location.search.includes(first); } catch (e) { return false; } }",
        arg=first,
        timeout=30_000,
    )
    assert embedded_table_id(page) != first
    offer.get_by_role("button", name="Close the table").click()
    expect(offer.locator("iframe")).to_have_count(0)
    assert failed == [] and errors == [], (failed, errors)


def test_the_books_step_viewer_switches_with_no_kernel(page: Page, site: str, requests: list[str]) -> None:
    errors, failed = watch(page)
    page.goto(site + "/book/first-hand.html")
    step_through_the_first_hand(page)
    # Nothing here talks to a kernel: the page opened no websocket.
    assert not [url for url in requests if url.startswith("ws")]
    assert failed == [] and errors == [], (failed, errors)


def test_every_book_page_opens_with_no_broken_link_or_image(page: Page, site: str, requests: list[str]) -> None:
    errors, failed = watch(page)
    book = Path(__file__).resolve().parents[2] / "_build" / "html"
    pages = sorted(p.relative_to(book).as_posix() for p in (book / "book").rglob("*.html"))
    assert "book/first-hand.html" in pages and "book/glossary.html" in pages and "book/laws.html" in pages
    fetched: dict[str, str] = {}
    page.goto(f"{site}/index.html")  # the site's root sends the reader to the book's first page
    page.wait_for_url(re.compile(r"/book/index\.html$"))
    # The root's redirect page names no icon, so a browser may ask for /favicon.ico before it
    # leaves (sometimes, by timing: a 404 there once failed this test now and then).
    icon = page.request.get(f"{site}/favicon.ico")
    assert icon.status == 200 and icon.body()[:4] == b"\x00\x00\x01\x00", "no /favicon.ico at the site's root"
    for path in pages:
        page.goto(f"{site}/{path}")
        expect(page.locator("article h1").first).to_be_visible()
        broken = page.evaluate(
            "[...document.images].filter(i => i.complete && i.naturalWidth === 0 && i.src).map(i => i.src)"
        )
        assert broken == [], f"{path}: broken images {broken}"
        for href in set(page.evaluate("[...document.querySelectorAll('main a[href]')].map(a => a.href)")):
            if not href.startswith(site):
                continue
            name = href.removeprefix(site + "/tables/").partition("?")[0]
            if href.startswith(site + "/tables/") and name:
                # a live table's link: each GET starts a kernel, so it is checked by name here and
                # opened for real by the table tests (the list of tables, /tables/, is fetched below)
                assert name in TABLES, f"{path}: link to unknown table {href}"
                continue
            target, _, fragment = href.partition("#")
            if target not in fetched:
                response = page.request.get(target)
                assert response.status == 200, f"{path}: link to {href} answers {response.status}"
                fetched[target] = response.text()
            if fragment:
                assert f'id="{fragment}"' in fetched[target], f"{path}: link to {href}: no such anchor"
        if path.removeprefix("book/") not in REFERENCE_PAGES:
            # every chapter has a hand to step through, and it works with no kernel
            assert page.locator("[data-loo-steps]").count() >= 1, f"{path}: no example hand"
            expect(page.locator("[data-loo-steps] [data-loo-bar]").first).to_be_visible()
    assert failed == [] and errors == [], (failed, errors)


def test_what_would_you_do_reveals_the_verdict_on_the_readers_choice_with_no_server(
    page: Page, static_site: str, requests: list[str]
) -> None:
    errors, failed = watch(page)
    page.goto(static_site + "/book/loo/declaring.html")
    box = page.locator(".loo-choice")
    expect(box).to_have_count(1)
    # before choosing: Ann's three cards face up, the other hands face down, no verdict showing
    expect(box.locator("[data-loo-outcome]:visible")).to_have_count(0)
    expect(box.locator("[data-loo-verdict]")).to_be_hidden()
    assert box.locator("[aria-label^='Ben'][aria-label$='face down']").count() >= 1
    stand = box.get_by_role("button", name="Stand", exact=True)
    stand.focus()
    page.keyboard.press("Enter")
    expect(stand).to_have_attribute("aria-pressed", "true")
    shown = box.locator("[data-loo-outcome]:visible")
    expect(shown).to_have_count(1)
    expect(shown).to_contain_text("You chose stand: it costs")
    expect(shown).to_be_focused()
    # the verdict: every choice's value with its interval, the best named, and the replay of its line
    verdict = box.locator("[data-loo-verdict]")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text("Take the miss is the best choice")
    expect(verdict.locator("li")).to_have_count(3)
    expect(verdict.locator("li").first).to_contain_text("95% interval")
    viewer = verdict.locator("[data-loo-steps]")
    expect(viewer.locator("[data-loo-frame]:not([hidden]) .loo-steps-head")).to_contain_text("Ann takes the miss")
    viewer.get_by_role("button", name="Last").click()
    expect(viewer.locator("[data-loo-frame]:not([hidden]) .loo-steps-settle")).to_have_count(1)
    box.get_by_role("button", name="Take the miss").click()
    expect(box.locator("[data-loo-outcome]:visible")).to_contain_text("the best choice")
    assert axe_problems(page) == [], "the answered question passes axe too"
    shot(page, "book-what-would-you-do")
    assert failed == [] and errors == [], (failed, errors)


def test_the_server_gzips_its_pages_and_scripts_and_serves_the_class_page(site: str) -> None:
    """Issue 21: what the real server sends compresses for a browser that accepts gzip (Voila's own
    tornado setting would not), and /class tells a teacher how a class reaches the server."""
    import gzip
    import urllib.request

    from widgets.draw.card_style import SHEET_PATH

    for path, kind in (
        ("/tables/voila-startup.js", "javascript"),
        ("/book/index.html", "html"),
        ("/tables/", "html"),
        (SHEET_PATH, "css"),
    ):
        request = urllib.request.Request(site + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.headers["Content-Encoding"] == "gzip", path
            assert kind in response.headers["Content-Type"], path
            body = gzip.decompress(response.read())
        with urllib.request.urlopen(site + path, timeout=30) as plain:
            assert plain.headers["Content-Encoding"] is None and plain.read() == body, path
    with urllib.request.urlopen(site + "/class", timeout=30) as response:
        page = response.read().decode()
    assert "Join the class" in page and "lanterloo --class" in page  # this test server answers 127.0.0.1 only
