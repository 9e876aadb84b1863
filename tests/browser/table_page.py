"""A live table's page as the browser tests drive it: read its board, take a move and wait for it."""

from __future__ import annotations

from playwright.sync_api import Page

# Generous: a table's kernel may still be starting when the server first answers, on a busy machine.
WAIT = 90_000


def board(page: Page) -> str:
    return page.locator(".loo-board").inner_text()


def act(page: Page, timeout: float = WAIT, *, prefer: str = "") -> None:
    """Take the reader's first legal choice (or deal the next hand) and wait until the table is redrawn:
    the board changed and every choice button replaced (the board goes out first, the buttons after).
    ``prefer`` names a choice to take instead whenever it is offered (``"Stand"``)."""
    before = board(page)
    page.evaluate("document.querySelectorAll('.loo-choices button').forEach(b => b.dataset.stale = '1')")
    next_hand = page.locator(".loo-next")
    preferred = page.locator(".loo-choices button.mod-primary", has_text=prefer) if prefer else None
    if next_hand.is_enabled():
        next_hand.click()
    elif preferred is not None and preferred.count():
        preferred.first.click()
    else:
        page.locator(".loo-choices button.mod-primary").first.click()
    page.wait_for_function(
        "(before) => { const b = document.querySelector('.loo-board');"
        " return b && b.innerText !== before && !document.querySelector('.loo-choices button[data-stale]'); }",
        arg=before,
        timeout=timeout,
    )


def started_from_the_snapshot(page: Page) -> None:
    """The in-browser table on ``page`` started Python from the snapshot a returning reader's browser
    kept (tests/browser/conftest.py::returning)."""
    log = page.evaluate("window.lanterlooLog")
    assert "started Python from the kept snapshot" in log, log
