"""A live table's page as the browser tests drive it: read its board, take a move and wait for it."""

from __future__ import annotations

from playwright.sync_api import Page

# Generous: a table's kernel may still be starting when the server first answers, on a busy machine.
WAIT = 90_000


def board(page: Page) -> str:
    return page.locator(".loo-board").inner_text()


def act(page: Page, timeout: float = WAIT) -> None:
    """Take the reader's first legal choice (or deal the next hand) and wait until the table is redrawn:
    the board changed and every choice button replaced (the board goes out first, the buttons after)."""
    before = board(page)
    page.evaluate("document.querySelectorAll('.loo-choices button').forEach(b => b.dataset.stale = '1')")
    next_hand = page.locator(".loo-next")
    if next_hand.is_enabled():
        next_hand.click()
    else:
        page.locator(".loo-choices button.mod-primary").first.click()
    page.wait_for_function(
        "(before) => { const b = document.querySelector('.loo-board');"
        " return b && b.innerText !== before && !document.querySelector('.loo-choices button[data-stale]'); }",
        arg=before,
        timeout=timeout,
    )
