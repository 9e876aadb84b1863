"""A finished hand's chips as a reader sees them: the numbers the Table tab shows each player (its
settlement table and the result line under the table) are the numbers the Ledger tab shows for that
hand. The three-card hand is the one issue 27 reported: Ann deals and is looed, so she puts in her
stake of 3 and pays a loo of 6, and both tabs must say −9; at Rounce the scores are the Ledger's table.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.table_page import WAIT, act
from tests.conftest import ROOT, Served

SHOTS = ROOT / "test-results"
MINUS = "\u2212"
HANDS = [
    # Eve's single settles at the deal; Ann (the reader) deals hand 2, stands and is looed
    ("three-card-loo", "l3.peel.s0.n1", "2", "Net chips", f"Ann: put 3 in as dealer, looed 6: {MINUS}9"),
    # the reader is Cat; Rounce moves no chips, each score counts down from 15
    ("domino-rounce", "dr.rounce.s2.n3", "1", "Score now (lower is better)", "lower is better"),
]


@pytest.fixture(scope="module")
def served(served_site: Served) -> Served:
    """The test process's server (tests/conftest.py::served_site); each test opens tables of its own."""
    return served_site


def number(text: str) -> int:
    found = re.match(r"[+\-\u2212]?\d+", text.strip())
    assert found is not None, text
    return int(found.group().replace(MINUS, "-"))


def seen(cell: Locator) -> int:
    """A cell's leading number, once the cell is on the reader's screen."""
    cell.scroll_into_view_if_needed()
    expect(cell).to_be_visible()
    box = cell.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0
    return number(cell.inner_text())


@pytest.mark.browser
@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["wide", "phone"])
@pytest.mark.parametrize(("game", "code", "hand", "head", "words"), HANDS, ids=[h[0] for h in HANDS])
def test_the_table_and_the_ledger_show_each_player_the_same_numbers(
    page: Page, served: Served, game: str, code: str, hand: str, head: str, words: str, size: tuple[int, int]
) -> None:
    page.set_default_timeout(WAIT)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{served.base}/tables/{game}?deal={code}", timeout=WAIT)
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    for _ in range(40):
        if page.locator(".loo-next").is_enabled():
            break
        act(page, prefer="Stand")
    expect(page.locator(".loo-next")).to_be_enabled()
    result = page.locator(".loo-result")
    result.scroll_into_view_if_needed()
    expect(result).to_be_visible()
    assert words in result.inner_text() and "Traceback" not in page.content()
    # The Table tab: the finished hand's settlement table, a row a player.
    settle = page.locator(".loo-summary .loo-steps-settle table")
    heads = settle.locator("thead th").all_inner_texts()
    at = heads.index(head) - 1  # the player's name is the row's heading, not a cell
    on_table = {}
    for row in settle.locator("tbody tr").all():
        on_table[row.locator("th").inner_text()] = seen(row.locator("td").nth(at))
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"chips-{game}-{size[0]}-table.png"))
    # The Ledger tab: the same hand's row, a cell a player under the players' names.
    page.get_by_role("tab", name="Ledger").click()
    ledger = page.locator(".loo-ledger-view table.loo-ledger").first
    expect(ledger).to_be_visible()
    names = ledger.locator("thead tr").nth(1).locator("th").all_inner_texts()[: len(on_table)]
    row = ledger.locator("tbody tr").filter(has=page.locator(f'th:text-is("{hand}")'))
    first = 2 if head == "Net chips" else 1  # after the dealer and the pool played for, or the dealer alone
    in_ledger = {name: seen(row.locator("td").nth(first + k)) for k, name in enumerate(names)}
    page.screenshot(path=str(SHOTS / f"chips-{game}-{size[0]}-ledger.png"))
    assert in_ledger == on_table and len(on_table) >= 4
    if game == "three-card-loo":
        assert on_table["Ann"] == -9
    assert errors == []
