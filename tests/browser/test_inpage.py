"""Tables in the reader's own browser, on the static build with no Lanterloo server: each game's
play page starts its table, a whole hand is played by clicking (a forbidden card refused with its
law, a hint, a take-back, and a reload that resumes), with no request outside the book's origin
and a clean console."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_page import page_complains, started_from_the_snapshot
from tests.browser.test_accessibility import table_passes_axe
from tests.browser.test_play import (
    CLICKED,
    KEYED,
    WAIT,
    Table,
    no_pointer,
    play_a_whole_hand_by_clicking,
    play_a_whole_hand_from_the_keyboard,
)
from tests.conftest import ROOT
from widgets.table.model import TableModel

STARTS = 60_000  # Pyodide's first start on a busy machine


@dataclass
class InpageTable(Table):
    """The in-browser table as the whole-hand test drives it: the game read from the browser's
    storage instead of the server's database, and "done" when Python has answered every message."""

    site: str = ""
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.set_default_timeout(WAIT)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on(
            "console",
            lambda m: self.errors.append(f"{m.type}: {m.text}") if page_complains(m.type, m.text) else None,
        )
        self.page.on("response", lambda r: self.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("websocket", lambda ws: self.requests.append(ws.url))

    def open(self, code: str) -> None:
        response = self.page.goto(f"{self.site}/play/{self.game}.html?deal={code}", timeout=WAIT)
        assert response is not None and response.ok
        self.ready()
        assert self.events()[0]["type"] == "start" and self.events()[0]["code"] == code
        # dealt: the address no longer carries the code, so that a reload resumes the game
        assert "deal=" not in self.page.url

    def ready(self) -> None:
        expect(self.page.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
        expect(self.page.locator(".loo-board")).to_be_visible(timeout=WAIT)

    def saved(self) -> dict[str, Any]:
        text = self.page.evaluate(f"localStorage.getItem('lanterloo-inpage:{self.game}')")
        assert text, "the game is not kept in the browser's storage"
        return dict(json.loads(text))

    @property
    def table_id(self) -> str:
        return str(self.saved()["table_id"])

    def events(self) -> list[dict[str, Any]]:
        return list(self.saved()["events"])

    def count(self) -> int:
        return int(self.saved()["count"])

    def do(self, act: Callable[[], None], *, check: bool = True, adds: int = 0) -> TableModel:
        """Take one action; wait until Python has answered every message the page sent it (by then the
        page has written the game to the browser's storage: ``adds`` needs no wait here)."""
        sent = self.page.evaluate("window.lanterlooSent")
        act()
        self.page.wait_for_function(
            "(sent) => window.lanterlooIdle === window.lanterlooSent && window.lanterlooSent >= sent",
            arg=sent,
        )
        return self.check_frames()

    def check_frames(self) -> TableModel:
        # A table in the reader's browser hides nothing (the page says so): there is no wire to search.
        self.checks += 1
        return self.model()

    def reload_mid_hand(self) -> TableModel:
        board, saved, table_id = self.board(), self.count(), self.table_id
        self.page.reload(timeout=WAIT)
        self.ready()
        expect(self.page.locator(".loo-board")).to_have_text(board, use_inner_text=True, timeout=WAIT)
        assert self.table_id == table_id and self.count() == saved
        return self.model()

    def done(self) -> None:
        assert self.errors == [], self.errors
        # Every module the hand, its hints and its tabs imported was in the book's compiled cut of the
        # standard library (web/compile_inpage.py): none came from the whole one (widgets.kernel.stdlib).
        log = self.page.evaluate("window.lanterlooLog")
        assert not [line for line in log if "standard library" in line], log
        outside = [u for u in self.requests if urlparse(u).scheme not in ("data", "blob", "about")]
        outside = [u for u in outside if urlparse(u).netloc != urlparse(self.site).netloc]
        assert outside == [], f"requests left the book's origin: {outside}"


# The in-browser table runs the server's own Python, and test_play plays a whole hand of every game at
# the server: here what the page's bridge carries for each kind of table, by clicking: Loo's (three-card,
# and with Pam's exchanges), Nap's calling, and Rounce's dummies and points. Irish Loo's exchanges are
# five-card Loo's; Domino Loo is played here from the keyboard (below) and in the server's tests.
CLICKED_HERE = [case for case in CLICKED if case[0] not in ("irish-loo", "domino-loo")]


@pytest.mark.parametrize(("game", "code", "_extra"), CLICKED_HERE, ids=[g for g, _, _ in CLICKED_HERE])
def test_a_whole_hand_in_the_readers_browser(again: Page, static_site: str, game: str, code: str, _extra: str) -> None:
    page = again
    table = InpageTable(page, served=None, game=game, site=static_site)  # type: ignore[arg-type]
    table.open(code)
    started_from_the_snapshot(page)
    expect(page.locator(".loo-inpage-where")).to_contain_text("This table runs in your browser")
    expect(page).to_have_title(f"{page.locator('h1').inner_text()}: a live table in your browser · Lanterloo")
    # axe, on the table as it opened, with a hint shown, and on its Ledger and Rules tabs: one start
    # of Python in the page serves both this and the hand (the in-browser tables are every game's)
    table_passes_axe(page)
    page.get_by_role("tab", name="Table", exact=True).click()
    expect(page.locator(".loo-board")).to_be_visible()
    play_a_whole_hand_by_clicking(table, reload=True)
    table.shot(f"inpage-{game}")
    table.done()


def test_a_chapters_table_starts_when_the_focus_or_pointer_reaches_play_here_and_shows_at_once(
    again: Page, static_site: str
) -> None:
    """On a static host, the chapter's in-browser table starts out of sight when the reader's focus or
    pointer reaches "Play here" (never merely as the page is read): the page does not move, the focus
    stays on the button and cannot go into the hidden table, and the press shows the table already
    drawn, the very frame that was started."""
    page = again
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{static_site}/book/loo/play.html", timeout=WAIT)
    box = page.locator(".loo-offer").first
    play_here = box.get_by_role("button", name="Play here", exact=True)
    play_here.scroll_into_view_if_needed()
    expect(play_here).to_be_visible()
    expect(box.get_by_text("cannot hide the other hands")).to_be_visible()  # the static host is known
    expect(box.locator("iframe")).to_have_count(0)  # read, scrolled to: nothing started
    scrolled = page.evaluate("scrollY")

    # By the keyboard: the focus starts it, out of sight and out of the tab order.
    play_here.focus()
    warming = box.locator("iframe.loo-offer-warming")
    expect(warming).to_have_count(1)
    expect(warming).to_be_hidden()
    assert warming.get_attribute("inert") == "" and warming.get_attribute("aria-hidden") == "true"
    started = page.frame_locator(".loo-offer iframe.loo-offer-warming")
    expect(started.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
    expect(warming).to_be_hidden()
    assert page.evaluate("scrollY") == scrolled, "the table started out of sight moved the page"
    assert page.evaluate("document.activeElement.matches('[data-loo-play-here]')"), "the hidden table took the focus"
    page.keyboard.press("Tab")  # the box's link, then past the box: never into the hidden table
    assert page.evaluate("document.activeElement.matches('[data-loo-open-link]')")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") != "IFRAME", "Tab went into the hidden table"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.matches('[data-loo-play-here]')")
    warming.evaluate("f => f.setAttribute('data-test-started', '1')")
    page.keyboard.press("Enter")
    shown = box.locator("iframe.loo-offer-frame")
    expect(shown).to_have_count(1)
    expect(shown).to_be_visible(timeout=5_000)
    assert shown.get_attribute("data-test-started") == "1", "the press started a second table"
    table = page.frame_locator(".loo-offer iframe.loo-offer-frame")
    expect(table.locator(".loo-board")).to_be_visible(timeout=5_000)  # drawn before the press (ready was seen)
    frame_box, board = shown.bounding_box(), table.locator(".loo-board").bounding_box()
    assert frame_box and frame_box["width"] >= 600 and frame_box["height"] >= 400, frame_box
    assert board and board["width"] > 200 and board["height"] > 100, board
    expect(box.get_by_role("button", name="Close the table")).to_be_visible()

    # By the pointer: closed, then the pointer on the button starts it again, and the click shows it.
    box.get_by_role("button", name="Close the table").click()
    expect(box.locator("iframe")).to_have_count(0)
    page.mouse.move(0, 0)
    play_here.hover()
    expect(warming).to_have_count(1)
    warming.evaluate("f => f.setAttribute('data-test-started', '2')")
    play_here.click()
    expect(shown).to_be_visible()
    assert shown.get_attribute("data-test-started") == "2", "the click started a second table"
    expect(table.locator(".loo-board")).to_be_visible(timeout=STARTS)


def test_a_play_page_opened_as_a_file_says_how_to_serve_the_folder(page: Page) -> None:
    book = ROOT / "_build" / "html"
    page.goto((book / "play" / "nap.html").as_uri())
    status = page.locator("[data-loo-status]")
    expect(status).to_contain_text("opened as a file")
    expect(status).to_contain_text("python3 -m http.server 8000")
    expect(status).to_contain_text("http://localhost:8000/play/nap.html")
    assert page.locator(".loo-table-view").count() == 0


def test_a_browser_without_webassembly_is_told_so(page: Page, static_site: str) -> None:
    page.add_init_script("delete window.WebAssembly;")
    page.goto(f"{static_site}/play/irish-loo.html")
    expect(page.locator("[data-loo-status]")).to_contain_text("lacks WebAssembly or Web Workers")
    expect(page.locator(".loo-inpage-problem")).to_have_count(1)


# The same page script (table-keys.js) and widgets as at the server's tables, which play every game
# from the keyboard (tests/browser/test_play.py): here the script on the play page, with cards (Nap's
# calling and play) and with tiles (Domino Loo's suits announced on a lead).
KEYED_HERE = [(game, code) for game, code in KEYED if game in ("nap", "domino-loo")]


@pytest.mark.parametrize(("game", "code"), KEYED_HERE, ids=[g for g, _ in KEYED_HERE])
def test_a_whole_hand_from_the_keyboard_in_the_readers_browser(
    again: Page, static_site: str, game: str, code: str
) -> None:
    page = again
    no_pointer(page)
    table = InpageTable(page, served=None, game=game, site=static_site)  # type: ignore[arg-type]
    table.open(code)
    started_from_the_snapshot(page)
    play_a_whole_hand_from_the_keyboard(table)
    table.done()
