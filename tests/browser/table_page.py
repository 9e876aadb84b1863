"""A live table's page as the browser tests drive it: open one at a deal, read its board, take a move
and wait for it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, Page

from tests.conftest import INSTANT_PACE

# Generous: a table's kernel may still be starting when the server first answers, on a busy machine.
WAIT = 90_000
# What chromium says when a page asks for its service worker under tests/browser/conftest.py's
# service_workers="block": the tests' own doing, not the page's, so no test counts it against a page.
BLOCKED_BY_THE_TESTS = "Service Worker registration blocked by Playwright"


def page_complains(kind: str, text: str) -> bool:
    """Whether a console message is a page's error or warning (every page's console is to stay clean)."""
    return kind in ("error", "warning") and not text.startswith(BLOCKED_BY_THE_TESTS)


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


@contextmanager
def server_table(
    browser: Browser, site: str, game: str, deal: str, *, width: int = 1366, height: int = 768, timeout: float = WAIT
) -> Iterator[Page]:
    """A new reader's page (a browser context of its own, ``width`` by ``height``, the computer players'
    moves shown at once, no service worker: as tests/browser/conftest.py's browser_context_args) at a new
    table of ``game`` on the server at ``site``, dealt ``deal``'s hand; the context is closed afterwards.
    The page is asked for, not waited for: the test waits for what it needs."""
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    context.add_init_script(INSTANT_PACE)
    try:
        page = context.new_page()
        page.goto(f"{site}/tables/{game}?deal={deal}", wait_until="commit", timeout=timeout)
        yield page
    finally:
        context.close()


def browser_table(page: Page, static_site: str, game: str, deal: str, *, timeout: float = WAIT) -> None:
    """``page`` (a returning reader's, tests/browser/conftest.py::again) at 1366x768 at the static host's
    table of ``game`` that runs in the reader's browser, dealt ``deal``'s hand."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{static_site}/play/{game}.html?deal={deal}", timeout=timeout)
