"""A reader who throws up a hand that should have stood, and weighs it on the Review tab, is asked the
position again under "Practise your mistakes"; answering Stand takes it off the list (issue 31, point 2),
at the server's table and at the table in the reader's own browser; at a laptop's 1366x768 and a phone's
390x844 (screenshots in test-results/)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.table_page import browser_table, server_table
from tests.browser.test_review_tab import DEAL, SHOTS, WAIT

pytestmark = pytest.mark.browser


def practise_the_throw(page: Page, name: str) -> None:
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    throw = page.locator(".loo-choices button", has_text="Throw up")
    expect(throw).to_be_visible(timeout=WAIT)
    throw.click()
    expect(page.locator(".loo-result")).to_be_visible(timeout=WAIT)  # the others play the hand out
    page.get_by_role("tab", name="Review").click()
    practice = page.locator(".loo-practice")
    expect(practice.get_by_role("heading", name="Practise your mistakes (0)")).to_be_visible(timeout=WAIT)
    weigh = page.get_by_role("button", name="Weigh my decisions")
    expect(weigh).to_be_enabled()
    weigh.click()
    expect(practice.get_by_role("heading", name="Practise your mistakes (1)")).to_be_visible(timeout=WAIT)
    question = practice.get_by_role("group", name="What would you do? You are Ann")
    expect(question).to_be_visible()
    expect(question.locator(".loo-board")).to_be_visible()
    stand = practice.get_by_role("button", name="Stand", exact=True)
    expect(stand).to_be_visible()
    expect(practice.get_by_role("button", name="Throw up", exact=True)).to_be_visible()
    expect(
        practice.get_by_role("img", name="Your chips given up a decision, hand by hand, at Three-card Loo")
    ).to_be_visible()
    SHOTS.mkdir(exist_ok=True)
    question.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"practice-question-{name}.png"))
    stand.focus()
    page.keyboard.press("Enter")  # reachable from the keyboard
    verdict = practice.locator(".loo-practice-verdict")
    expect(verdict).to_be_visible(timeout=WAIT)
    expect(verdict).to_contain_text("You chose stand: the best choice")
    expect(verdict).to_contain_text("Answered well: it comes off your list.")
    expect(practice.get_by_role("heading", name="Practise your mistakes (0)")).to_be_visible()
    expect(practice.locator("[data-loo-steps]")).to_be_visible()  # the best line, replayed
    verdict.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"practice-answered-{name}.png"))


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_a_thrown_up_hand_comes_back_to_practise_and_standing_takes_it_off_at_the_servers_table(
    browser: Browser, site: str, width: int, height: int
) -> None:
    with server_table(browser, site, "three-card-loo", DEAL, width=width, height=height, timeout=WAIT) as page:
        practise_the_throw(page, f"server-{width}x{height}")
        page.reload()  # kept in the store: the list stays empty, the hand's figures stay
        page.get_by_role("tab", name="Review").click(timeout=WAIT)
        practice = page.locator(".loo-practice")
        expect(practice.get_by_role("heading", name="Practise your mistakes (0)")).to_be_visible(timeout=WAIT)
        expect(practice).to_contain_text("Hands reviewed: 1")


def test_a_thrown_up_hand_comes_back_to_practise_and_standing_takes_it_off_in_the_readers_browser(
    again: Page, static_site: str
) -> None:
    browser_table(again, static_site, "three-card-loo", DEAL, timeout=WAIT)
    practise_the_throw(again, "in-browser-1366x768")
