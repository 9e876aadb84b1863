"""A live table fits the screen it is played on (issue 27, points 3, 5 and 6), measured in a real browser.

At 1366x768 and at 390x844, for three-card Loo, Nap and Domino Loo: each time the reader must choose
after the computer players have played to the trick, the trick in progress, the reader's hand, every
live choice, and Hint and Why? are all inside the window at once; and the page never scrolled by
itself (neither the window nor Voila's scrolling box of cells) between the reader's click and that
moment. The cloth's near edge is as wide as the cloth, while the computer players' moves are shown
and after; a take-back leaves no move said that is off the table; New game and Play this deal ask
first and can be undone, and the game brought back is the one saved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.table_page import WAIT, started_from_the_snapshot
from tests.conftest import ROOT, serve_book

SHOTS = ROOT / "test-results"
SIZES = [(1366, 768), (390, 844)]
DEALS = [("three-card-loo", "l3.peel.s0.n12345"), ("nap", "nap.hoffmann.s0.n7"), ("domino-loo", "dl.celko.s0.n77")]
SCROLLED = "[window.scrollY, (document.getElementById('rendered_cells') || {scrollTop: 0}).scrollTop]"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_book(tmp_path_factory.mktemp("fits")) as address:
        yield address


def open_at(browser: Browser, url: str, size: tuple[int, int], pace: str = "Faster") -> Page:
    """A new window of ``size`` at ``url``, the pace of the computer players' moves set, the game's
    introduction already read (folded), once the table is drawn."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    game = url.split("/tables/")[-1].split("?")[0]
    context.add_init_script(
        f"try {{ localStorage.setItem('lanterloo-pace', '{pace}');"
        f" localStorage.setItem('lanterloo-intro-read:{game}', '1'); }} catch (e) {{}}"
    )
    page = context.new_page()
    page.goto(url, wait_until="commit", timeout=WAIT)
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    expect(page.locator(".loo-choices button.mod-primary").first).to_be_visible(timeout=WAIT)
    return page


def within(locator: Locator, size: tuple[int, int]) -> dict[str, float]:
    """``locator``'s box, asserted seen: not empty, and wholly inside the window."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0
    width, height = size
    assert box["x"] >= -1 and box["x"] + box["width"] <= width + 1, f"off the side: {box}"
    assert box["y"] >= -1 and box["y"] + box["height"] <= height + 1, f"out of the window: {box}"
    return box


def take_first_choice(page: Page) -> None:
    """Click the reader's first live choice (or the next hand) as a person would, but from the page
    itself, so that the test's own clicking scrolls nothing; wait until the table stands again."""
    page.evaluate("document.querySelectorAll('.loo-choices button').forEach(b => b.dataset.stale = '1')")
    page.evaluate(
        "(document.querySelector('.loo-next:not([disabled])')"
        " || document.querySelector('.loo-choices button.mod-primary')).click()"
    )
    page.wait_for_function(
        "!document.querySelector('.loo-choices button[data-stale]') && !document.querySelector('.loo-playing')"
        " && document.querySelector('.loo-choices button.mod-primary, .loo-next:not([disabled])')",
        timeout=WAIT,
    )


def check_in_view(page: Page, size: tuple[int, int]) -> None:
    within(page.locator(".loo-standing .loo-board .loo-trick"), size)
    hand = page.locator(".loo-near.loo-standing .loo-choices")
    within(hand, size)
    live = page.locator(".loo-choices button.mod-primary")
    assert live.count() >= 1
    for k in range(live.count()):
        within(live.nth(k), size)
    within(page.locator(".loo-hint"), size)
    within(page.locator(".loo-why"), size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "code"), DEALS, ids=[g for g, _c in DEALS])
def test_the_trick_the_hand_and_the_choices_are_seen_together_without_scrolling(
    browser: Browser, base: str, game: str, code: str, size: tuple[int, int]
) -> None:
    page = open_at(browser, f"{base}/tables/{game}?deal={code}", size)
    assert page.evaluate(SCROLLED) == [0, 0]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"fits-open-{game}-{size[0]}x{size[1]}.png"))
    # The reader's first choice (a declaration, a call) is in view at once, with the hand.
    within(page.locator(".loo-choices button.mod-primary").first, size)
    within(page.locator(".loo-hint"), size)
    checked = 0
    for _ in range(14):
        before = page.evaluate(SCROLLED)
        take_first_choice(page)
        assert page.evaluate(SCROLLED) == before, "the page scrolled by itself"
        others_played = page.locator(".loo-standing .loo-board .loo-trick .loo-play").count() >= 1
        if others_played and page.locator(".loo-choices .loo-piece").count():
            if not checked:  # (taken before the check, to be looked at when it fails)
                page.screenshot(path=str(SHOTS / f"fits-{game}-{size[0]}x{size[1]}.png"))
            check_in_view(page, size)
            checked += 1
            if checked == 2:
                break
    assert checked, "the reader never chose after the computer players had played to the trick"
    felt, near = (
        page.locator(".loo-standing .loo-board .loo-felt").bounding_box(),
        page.locator(".loo-near.loo-standing").bounding_box(),
    )
    assert felt and near and abs(felt["width"] - near["width"]) <= 1, (felt, near)
    page.context.close()


def test_the_moves_shown_one_by_one_keep_the_cloth_one_width(browser: Browser, base: str) -> None:
    """While the computer players' moves are shown the near edge of the cloth was a few pixels narrower."""
    size = (1366, 768)
    page = open_at(browser, f"{base}/tables/nap?deal=nap.hoffmann.s0.n7", size, pace="Slow")
    page.evaluate("document.querySelector('.loo-choices button.mod-primary').click()")  # pass: the others call and lead
    frame = page.locator(".loo-playing .loo-film .loo-frame:not([hidden]) .loo-felt")
    expect(frame).to_be_visible(timeout=WAIT)
    felt, near = frame.bounding_box(), page.locator(".loo-playing .loo-film .loo-reel-near").bounding_box()
    assert felt and near and abs(felt["width"] - near["width"]) <= 1, (felt, near)
    assert abs(felt["x"] - near["x"]) <= 1
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "fits-nap-reel-1366x768.png"))
    page.context.close()


def test_a_take_back_leaves_no_move_said_that_is_off_the_table(browser: Browser, base: str) -> None:
    page = open_at(browser, f"{base}/tables/nap?deal=nap.hoffmann.s0.n7", (1366, 768))
    for _ in range(8):  # until a card of the reader's is answered by the others' cards, shown one by one
        take_first_choice(page)
        pieces = page.locator(".loo-choices .loo-piece").count()
        if 0 < pieces < 5 and page.locator(".loo-standing .loo-board .loo-trick .loo-play").count():
            break
    said = page.locator(".loo-announce")
    expect(said).to_be_visible()
    assert re.search(r"plays|leads", said.inner_text()), said.inner_text()
    cards_before = page.locator(".loo-choices .loo-piece").count()
    page.locator(".loo-undo").click()
    expect(page.locator(".loo-choices .loo-piece")).to_have_count(cards_before + 1, timeout=WAIT)
    expect(page.locator(".loo-choices .loo-piece").first).to_be_visible()
    # (the line comes in its own message, after the cards: waited for, as a reader would see it change)
    expect(said).not_to_have_text(re.compile(r"plays|leads"), timeout=10_000)
    page.context.close()


# The cloth as it stands (not a frame of the moves shown one by one), in words, less the line on the
# trick just won (compared across an undo, which may leave the trick just won otherwise).
CLOTH = (
    "(() => { const b = document.querySelector('.loo-standing .loo-board').cloneNode(true);"
    " b.querySelectorAll('.loo-just').forEach(e => e.remove()); return b.textContent; })()"
)


def board(page: Page) -> str:
    return str(page.evaluate(CLOTH))


def replace_and_undo(page: Page, start: Any, confirm: str) -> str:
    """Confirm the replacement ``start()`` asks for, check the undo is offered, undo, and return the board."""
    kept = board(page)
    start()
    asking = page.locator(".loo-replace-ask:visible")
    expect(asking).to_be_visible(timeout=WAIT)
    assert asking.bounding_box() is not None
    expect(asking.locator(".loo-replace-words")).to_be_visible()
    assert "This game goes" in asking.inner_text() and "undo" in asking.inner_text()
    assert board(page) == kept  # nothing replaced yet
    asking.get_by_role("button", name=confirm).click()
    undo = page.locator(".loo-replace-undone:visible")
    expect(undo).to_be_visible(timeout=WAIT)
    expect(undo.get_by_text("Game replaced.")).to_be_visible()
    page.wait_for_function(f"(kept) => {CLOTH} !== kept", arg=kept, timeout=WAIT)
    undo.get_by_role("button", name="Undo").click()
    page.wait_for_function(f"(kept) => {CLOTH} === kept", arg=kept, timeout=WAIT)
    expect(page.locator(".loo-replace-undone:visible")).to_have_count(0)
    return kept


def test_new_game_and_play_this_deal_ask_first_and_are_undone_on_the_server(browser: Browser, base: str) -> None:
    page = open_at(browser, f"{base}/tables/nap?deal=nap.hoffmann.s0.n7", (1366, 768))
    take_first_choice(page)
    take_first_choice(page)
    kept = replace_and_undo(
        page, page.locator(".loo-controls .jupyter-button", has_text="New game").click, "Yes, new game"
    )
    page.locator(".loo-code-input input").fill("nap.hoffmann.s0.n9")
    replace_and_undo(page, page.locator(".loo-play-code").click, "Yes, play this deal")
    page.reload(wait_until="commit")  # the game brought back is the one the server keeps
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    page.wait_for_function(f"(kept) => {CLOTH} === kept", arg=kept, timeout=WAIT)
    page.context.close()


def test_new_game_is_undone_in_the_readers_browser(again: Page, static_site: str) -> None:
    """In a returning reader's browser (tests/browser/conftest.py): New game asks first and is undone,
    and the game brought back is the one a reload resumes."""
    page = again
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{static_site}/play/nap.html?deal=nap.hoffmann.s0.n7", timeout=WAIT)
    expect(page.locator("[data-loo-ready]")).to_have_count(1, timeout=120_000)
    started_from_the_snapshot(page)
    expect(page.locator(".loo-choices button.mod-primary").first).to_be_visible(timeout=WAIT)
    take_first_choice(page)
    kept = replace_and_undo(
        page, page.locator(".loo-controls .jupyter-button", has_text="New game").click, "Yes, new game"
    )
    page.wait_for_function(
        "() => { const s = JSON.parse(localStorage.getItem('lanterloo-inpage:nap') || '{}');"
        " return (s.events || []).length > 1 && s.events[0].code === 'nap.hoffmann.s0.n7'; }",
        timeout=WAIT,
    )  # the browser keeps the game brought back, from its own start
    page.reload()
    expect(page.locator("[data-loo-ready]")).to_have_count(1, timeout=120_000)
    page.wait_for_function(f"(kept) => {CLOTH} === kept", arg=kept, timeout=WAIT)


def test_the_table_at_a_wide_screen_still_shows_it_all(browser: Browser, base: str, tmp_path: Path) -> None:
    size = (1920, 1080)
    page = open_at(browser, f"{base}/tables/three-card-loo?deal=l3.peel.s0.n12345", size)
    for _ in range(6):
        take_first_choice(page)
        if (
            page.locator(".loo-standing .loo-board .loo-trick .loo-play").count()
            and page.locator(".loo-choices .loo-piece").count()
        ):
            check_in_view(page, size)
            break
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "fits-three-card-loo-1920x1080.png"))
    page.context.close()
