"""A reader who makes a costly first choice (throws up a hand that should have stood, passes where a call
was due) sees it named on the Review tab once the hand is over, with the chips it gave up and why (issue
31): in every game, at the server's table and at the table in the reader's own browser; at a laptop's
1366x768, and three-card Loo's server table on a phone's 390x844 (screenshots in test-results/)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.table_page import browser_table, server_table
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

WAIT = 120_000
# Ann, eldest of three (seed 5), holds the kings of spades, trumps, and of clubs: she throws up.
DEAL = "l3.peel_first-deal-mode~none.s0.n5.d2.p3.c3"
SHOTS = ROOT / "test-results"


# Issue 31, for every game: a deal where the reader's first choice at the table gives up chips beyond
# doubt (found by weighing each seed's first decision: bench-style, 300 deals), the costly choice, and
# the best the review must name. At Nap the reader passes and then plays the hand out.
COSTLY = {
    "three-card-loo": (DEAL, "Throw up", "Stand"),
    "five-card-loo": ("l5.pam.s0.n36", "Throw up", "Stand"),
    "irish-loo": ("il.irish.s0.n1.p12", "Throw up", "Stand"),
    "nap": ("nap.hoffmann.s0.n1", "Pass", "Call"),
    "domino-loo": ("dl.celko.s0.n4", "Throw up", "Stand"),
    "domino-rounce": ("dr.rounce.s0.n11", "Throw up", "Stand"),
}

# The law the review's reason cites, where the test knows it; and the game whose server table is
# weighed on a phone (the others at a laptop's size: the Review tab is every game's).
LAW = {"three-card-loo": "L3-DECL-02"}
ON_A_PHONE, PHONE = "three-card-loo", (390, 844)


def choose_badly_and_weigh(page: Page, game: str, choice: str, best: str, name: str) -> None:
    """Make ``choice`` at the table, play on with the first choice offered until the hand is over, weigh,
    and see ``choice`` named with what it gave up and the best."""
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    costly = page.locator(".loo-choices button", has_text=choice).first
    expect(costly).to_be_visible(timeout=WAIT)
    costly.click()
    result = page.locator(".loo-result")
    offered = page.locator(".loo-choices button:not([disabled])")
    for _ in range(60):  # the reader's own cards or tiles, if the hand asks for them: the first one allowed
        if result.is_visible():
            break
        for i in range(offered.count()):
            before = offered.count()
            try:
                offered.nth(i).click(timeout=5_000)
            except Exception:  # the hand moved on meanwhile: look again
                break
            page.wait_for_timeout(300)
            if result.is_visible() or offered.count() != before:
                break  # played (one card fewer), or the hand is over; a refused card leaves them all
        else:
            page.wait_for_timeout(300)  # the computers' turn
    expect(result).to_be_visible(timeout=WAIT)
    page.get_by_role("tab", name="Review").click()
    weigh = page.get_by_role("button", name="Weigh my decisions")
    expect(weigh).to_be_visible()
    weigh.click()
    box = page.get_by_role("region", name="Your decisions, weighed")
    expect(box.get_by_text("Your decisions gave up about")).to_be_visible(timeout=WAIT)
    named = box.locator("li", has_text=f"{choice}:").first
    expect(named).to_be_visible()
    said = named.inner_text()
    assert ("a mistake" in said or "a blunder" in said) and f"The best was {best}" in said, said
    if game in LAW:  # the reason given cites the law it rests on
        costliest = box.locator("li.loo-review-costliest")
        expect(costliest).to_be_visible()
        expect(costliest).to_contain_text(choice)
        expect(costliest).to_contain_text(LAW[game])
    expect(page.locator("[data-loo-steps]").first).to_be_visible()  # the hand's steps, at that decision
    SHOTS.mkdir(exist_ok=True)
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"review-{name}.png"))


@pytest.mark.parametrize("game", sorted(COSTLY))
def test_every_games_review_names_a_costly_first_choice_at_the_servers_table(
    browser: Browser, site: str, game: str
) -> None:
    code, choice, best = COSTLY[game]
    width, height = PHONE if game == ON_A_PHONE else (1366, 768)
    with server_table(browser, site, game, code, width=width, height=height, timeout=WAIT) as page:
        choose_badly_and_weigh(page, game, choice, best, f"server-{game}-{width}x{height}")


@pytest.mark.parametrize("game", sorted(COSTLY))
def test_every_games_review_names_a_costly_first_choice_in_the_readers_browser(
    again: Page, static_site: str, game: str
) -> None:
    code, choice, best = COSTLY[game]
    browser_table(again, static_site, game, code, timeout=WAIT)
    choose_badly_and_weigh(again, game, choice, best, f"in-browser-{game}-1366x768")
