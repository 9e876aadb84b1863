"""Watching the play at a live table (issue 20), in the browser at the default pace: the reader's card
shows at once, a computer player's card follows, the finished trick stays with its winner named,
and the key L shows the last trick. The pace chosen is kept through a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.browser.table_page import WAIT

pytestmark = pytest.mark.browser


def test_the_computer_players_cards_come_in_turn_and_the_last_trick_is_one_key_away(
    browser: Browser, site: str
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 1000})  # no stored pace: the default
    try:
        page = context.new_page()
        page.goto(f"{site}/tables/nap?deal=nap.hoffmann.s0.n3", wait_until="commit", timeout=WAIT)
        expect(page.locator(".loo-pace button.mod-active")).to_have_text("Normal", timeout=WAIT)
        page.locator(".loo-choices button", has_text="Call 2").click()  # the others pass: Ann leads
        card = page.locator(".loo-choices .loo-card-button.mod-primary").first
        expect(card).to_be_visible(timeout=WAIT)
        card.click()
        trick = page.locator(".loo-board .loo-trick")  # on the cloth, each card a figure named for its player

        def laid_by(player: str) -> Locator:
            return trick.get_by_role("figure", name=player, exact=True)

        expect(laid_by("Ann")).to_be_visible(timeout=5_000)  # the reader's own card, at once
        expect(page.locator(".loo-show-rest")).to_be_visible()
        expect(laid_by("Ben")).to_have_count(0)  # the computer players' cards come after
        expect(laid_by("Ben")).to_be_visible(timeout=5_000)
        expect(page.locator(".loo-announce")).to_contain_text("Ben plays")
        panel = page.locator(".loo-trick-panel")
        expect(panel).to_contain_text("Dan won it with the seven of diamonds", timeout=10_000)
        expect(laid_by("Dan")).to_be_visible()  # the finished trick stays on the table
        expect(page.locator(".loo-choices .loo-card-button.mod-primary").first).to_be_visible(timeout=10_000)
        page.locator(".loo-choices .loo-card-button").first.focus()
        page.keyboard.press("l")
        expect(panel).to_contain_text("Last trick, trick 1: Dan won it", timeout=5_000)
        expect(page.locator(".loo-last")).to_have_class(re.compile(r"\bmod-active\b"))
        page.locator(".loo-pace button", has_text="Faster").click()
        page.reload(wait_until="commit")
        expect(page.locator(".loo-pace button.mod-active")).to_have_text("Faster", timeout=WAIT)
    finally:
        context.close()
