"""Deal codes and saved games in a real browser: a code deals its hand, a reload continues the game,
an unknown table gets a plain message, and two tabs on one table cannot corrupt it.

The server runs with its own database in a temporary folder (``--db``), which the tests read to
check what was saved.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from loo.records import load
from tests.browser.table_page import WAIT, act, board, page_complains
from tests.conftest import ROOT, Served
from widgets.draw.board import piece_name
from widgets.draw.card_style import SHEET_PATH
from widgets.server.pages import NO_MATH_PATH, STARTUP_BUNDLE_PATH
from widgets.store.sqlite import TableStore
from widgets.table.dealcode import parse_deal_code
from widgets.table.model import TableModel, code_record
from widgets.table.saving import STALE_MESSAGE

SHOTS = ROOT / "test-results"


@pytest.fixture(scope="module")
def served(served_site: Served) -> tuple[str, Path]:
    """The test process's ``python -m widgets.server`` (tests/conftest.py::served_site), with a database
    of its own: its address and the database, which each test reads for its own tables."""
    return served_site.base, served_site.db


def watch(page: Page) -> list[str]:
    """Errors in the page, and console errors and warnings, collected as the page runs."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if page_complains(m.type, m.text) else None)
    return errors


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def open_table(page: Page, url: str) -> None:
    page.goto(url, wait_until="commit", timeout=WAIT)
    expect(page.locator(".loo-table-view")).to_be_visible(timeout=WAIT)
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)


def table_id_of(page: Page) -> str:
    found = parse_qs(urlparse(page.url).query).get("table")
    assert found, f"no table id in {page.url}"
    return found[0]


def board_shows(page: Page, text: str) -> None:
    """Wait until the board reads ``text`` (as a reader sees it: its inner text)."""
    page.wait_for_function(
        "(text) => { const b = document.querySelector('.loo-board'); return b && b.innerText === text; }",
        arg=text,
        timeout=WAIT,
    )


def status(page: Page) -> str:
    return page.locator(".loo-table-view [role=status]").first.inner_text()


def own_hand(page: Page) -> list[str]:
    """The names of the reader's own cards, as the page draws them (face up in the board, or as buttons)."""
    drawn = page.locator("[aria-label^='your hand: ']")
    if drawn.count():
        label = drawn.first.get_attribute("aria-label") or ""
        return sorted(label.removeprefix("your hand: ").split(", "))
    return sorted(page.locator(".loo-choices .loo-piece").all_inner_texts())


@pytest.mark.parametrize(
    ("table", "code"),
    [
        ("nap", "nap.hoffmann.s1.n4242"),  # a first deal, the reader at seat 1
        ("three-card-loo", "l3.peel.s0.n987654.d2.p9.knormal"),  # a later hand: another dealer, a pool
    ],
)
def test_a_deal_code_deals_that_seeds_deal(page: Page, served: tuple[str, Path], table: str, code: str) -> None:
    base, _db = served
    errors = watch(page)
    open_table(page, f"{base}/tables/{table}?deal={code}")
    assert table_id_of(page), "the new table has its id in the address"
    deal = parse_deal_code(code)
    names = TableModel(code=deal).names
    engine = load(json.dumps(code_record(deal, names))).start()  # the engine's own deal of that seed
    expected = sorted(piece_name(c) for c in engine.holding(deal.seat))
    assert own_hand(page) == expected
    expect(page.locator(".loo-table-view")).to_contain_text(f"{names[deal.seat]} (you)")
    # The table offers this hand's code to copy, only when asked for.
    assert code.split(".n")[1].split(".")[0] not in page.locator(".loo-deal-codes").inner_text()
    page.get_by_role("button", name="This hand's code").click()
    shown = page.locator(".loo-code-shown code")
    expect(shown).to_be_visible(timeout=WAIT)
    assert parse_deal_code(shown.inner_text()) == parse_deal_code(str(TableModel(code=deal).deal_code()))
    shot(page, f"deal-code-{table}")
    assert errors == []


PROBE = """(cls) => {
  let probe = document.getElementById('probe');
  if (!probe) {  // a card's button, as the table draws one, in the table (where the sheets apply)
    probe = document.createElement('button');
    probe.id = 'probe';
    document.querySelector('.loo-table-view').appendChild(probe);
  }
  probe.className = 'loo-card-button ' + cls;
  return getComputedStyle(probe).backgroundImage;
}"""


# A chunk of Voila's front end or of a widget extension, fetched as a script of its own (the
# extensions' remoteEntry scripts are not chunks: Voila loads them itself).
CHUNK = re.compile(r"/voila/static/\d+\.voila\.js|/voila/labextensions/.+/static/\d+\.[0-9a-f]+\.js")


def test_the_cards_are_drawn_from_the_pages_own_sheet_and_the_page_loads_no_mathjax(
    page: Page, served: tuple[str, Path]
) -> None:
    """The table page links the card sheet from its head, so no table's widgets carry it; the
    four-colour deck, asked for, comes with the table. MathJax is replaced by a stand-in. Voila's
    startup chunks come in one script (widgets/server/pages.py, VOILA_STARTUP_CHUNKS): the page fetches
    none on its own, from its start to the four-colour deck and back."""
    base, _db = served
    errors = watch(page)
    asked: list[str] = []
    failed: list[str] = []
    page.on("request", lambda r: asked.append(urlparse(r.url).path))
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    open_table(page, f"{base}/tables/three-card-loo?deal=l3.peel.s0.n987654")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=WAIT)  # the page is fully started
    assert SHEET_PATH in asked
    queen = page.evaluate(PROBE, "loo-card-QH")
    assert queen.startswith('url("data:image/svg+xml'), queen
    plain_diamond = page.evaluate(PROBE, "loo-card-QD")
    assert plain_diamond.startswith('url("data:image/svg+xml') and plain_diamond != queen
    # No copy of the sheet in the table: its style element is empty until the four-colour deck is asked for
    # (the only other, Peel's single shown above the hand, is about 1 kB: widgets/views/opening.py).
    sheets_in_table = (
        "() => Array.from(document.querySelectorAll('.loo-table-view style')).map(s => s.textContent.length)"
        ".filter(n => n > 10000)"
    )
    assert sum(page.evaluate(sheets_in_table)) == 0
    page.get_by_role("checkbox", name="Four-colour deck").check()
    page.wait_for_function(f"() => ({sheets_in_table})().some(n => n > 100000)", timeout=WAIT)
    four_diamond = page.evaluate(PROBE, "loo-card-QD")
    assert four_diamond.startswith('url("data:image/svg+xml') and four_diamond != plain_diamond
    page.get_by_role("checkbox", name="Four-colour deck").uncheck()
    page.wait_for_function(f"() => ({sheets_in_table})().every(n => n === 0)", timeout=WAIT)
    assert page.evaluate(PROBE, "loo-card-QD") == plain_diamond
    # Voila's page would fetch MathJax as the first widget was drawn; it asks for the stand-in instead.
    assert NO_MATH_PATH in asked
    assert page.evaluate("() => typeof window.MathJax.Hub.Queue") == "function"
    assert STARTUP_BUNDLE_PATH in asked
    alone = [path for path in asked if CHUNK.fullmatch(path)]
    assert alone == [], f"fetched on their own: add them to VOILA_STARTUP_CHUNKS or WIDGET_STARTUP_CHUNKS: {alone}"
    assert failed == [] and errors == []


# Every text the loading screen and the table's placeholder show, sampled once a frame (just before
# it is painted) until the table is drawn: what a reader sees while a table opens.
LOADING_TEXTS_JS = """
(() => {
  const texts = window.__loadingTexts = [];
  const note = (text) => { text = text.trim(); if (text && !texts.includes(text)) { texts.push(text); } };
  const sample = () => {
    const loading = document.getElementById('loading_text');
    if (loading && loading.offsetParent !== null && getComputedStyle(loading).visibility === 'visible') {
      note(loading.textContent);
    }
    for (const output of document.querySelectorAll('.jp-OutputArea-output')) {
      if (!output.firstElementChild) { note(output.textContent); }
    }
    if (!document.querySelector('.loo-table-view')) { requestAnimationFrame(sample); }
  };
  requestAnimationFrame(sample);
})();
"""


def test_while_a_table_opens_the_page_says_so_in_plain_words(page: Page, served: tuple[str, Path]) -> None:
    """Voila's loading screen counts cells ("Executing 3 of 3") and its placeholder says "Loading
    widget...": the reader is told that the table is being opened, then dealt."""
    base, _db = served
    page.add_init_script(LOADING_TEXTS_JS)
    open_table(page, f"{base}/tables/nap")
    seen = page.evaluate("() => window.__loadingTexts")
    assert seen[0] == "Opening the table…", seen
    assert set(seen) <= {"Opening the table…", "Dealing the cards…"}, seen


def saved_after(db: Path, table_id: str, count: int) -> int:
    """How many events the table's saved game holds, once it holds more than ``count`` (10 s at most):
    the table may be drawn a moment before its kernel has written the move."""
    deadline = time.monotonic() + 10
    while (saved := TableStore(db).count(table_id)) <= count and time.monotonic() < deadline:
        time.sleep(0.1)
    return saved


def test_a_reload_continues_the_game_at_the_same_point(page: Page, served: tuple[str, Path]) -> None:
    base, db = served
    errors = watch(page)
    open_table(page, f"{base}/tables/three-card-loo")
    table_id = table_id_of(page)
    for _ in range(4):
        act(page)
    before, hand = board(page), own_hand(page)
    saved = saved_after(db, table_id, 4)
    assert saved >= 5, "the start and every action are saved as they happen"
    page.reload(wait_until="commit", timeout=WAIT)
    expect(page.locator(".loo-table-view")).to_be_visible(timeout=WAIT)
    board_shows(page, before)
    assert own_hand(page) == hand and table_id_of(page) == table_id
    act(page)  # and it plays on from there, saving as it goes
    # One event, the reader's move; or, when that move dealt a hand settled as dealt (Peel: a single
    # after a hand in which every stander took a trick, L3-SGL-08), that deal and the one after it.
    saved_after(db, table_id, saved)
    added = [event["type"] for event in TableStore(db).load(table_id).events[saved:]]
    assert len(added) == 1 or added == ["deal", "deal"], added
    assert errors == []


@pytest.mark.parametrize("table_id", ["AAAAAAAAAAAAAAAAAAAAAA", "..%2F..%2Fetc", "x"])
def test_an_unknown_table_id_gets_a_plain_message(page: Page, served: tuple[str, Path], table_id: str) -> None:
    base, _db = served
    errors = watch(page)
    page.goto(f"{base}/tables/nap?table={table_id}", wait_until="commit", timeout=WAIT)
    notice = page.locator(".loo-table-notice")
    expect(notice).to_be_visible(timeout=WAIT)
    expect(notice).to_contain_text("There is no table at this address")
    expect(notice.get_by_role("link", name="Start a new table")).to_have_attribute("href", "/tables/nap")
    assert page.locator(".loo-table-view").count() == 0
    assert "Traceback" not in page.content()
    assert errors == []


def test_a_bad_deal_code_gets_a_message_naming_what_is_wrong(page: Page, served: tuple[str, Path]) -> None:
    base, _db = served
    page.goto(f"{base}/tables/three-card-loo?deal=l3.peel.s9.n12", wait_until="commit", timeout=WAIT)
    notice = page.locator(".loo-table-notice")
    expect(notice).to_contain_text("the seat s9 does not exist", timeout=WAIT)


def test_two_tabs_on_one_table_the_stale_one_is_told_and_nothing_is_corrupted(
    context: BrowserContext, served: tuple[str, Path]
) -> None:
    base, db = served
    first, second = context.new_page(), context.new_page()
    errors_first, errors_second = watch(first), watch(second)
    open_table(first, f"{base}/tables/nap")
    url = first.url
    table_id = table_id_of(first)
    open_table(second, url)
    board_shows(second, board(first))
    act(first)
    count = TableStore(db).count(table_id)
    # The second tab still shows the old position; its move there is refused, and it is told.
    second.locator(".loo-choices button.mod-primary").last.click()
    expect(second.locator(".loo-table-view [role=status]").first).to_contain_text(
        "played on in another tab", timeout=WAIT
    )
    assert status(second) == STALE_MESSAGE
    assert TableStore(db).count(table_id) == count, "the stale write left nothing in the database"
    # It now shows the game as saved, which is the first tab's; the saved game replays whole.
    board_shows(second, board(first))
    resumed = TableModel.resume(TableStore(db), table_id)
    assert sorted(piece_name(c) for c in resumed.view().hand) == own_hand(first)
    shot(second, "two-tabs-stale")
    # Either tab can play on from the saved game; the other is then the stale one.
    act(second)
    assert TableStore(db).count(table_id) == count + 1
    assert errors_first == [] and errors_second == []
