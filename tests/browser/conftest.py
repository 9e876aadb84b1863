"""What several browser test files share: a returning reader's chromium, whose first visit to a table
in the reader's own browser kept its snapshot of Python.

A test of a table that runs in the reader's browser that is not about the first visit opens it in
this browser (:func:`again`), where Python starts from the kept snapshot in a few seconds rather
than afresh (ten or more on a busy machine). The first visit itself, and the snapshot's making and
use, are tested on fresh profiles: by the journeys (tests/journeys: a chapter's table, reloaded
mid-hand, comes back from the snapshot), the newcomer's first hand and the first minute's phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, BrowserType, Page, expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, INSTANT_PACE

OPENS = 60_000  # a page of the static build, on a busy machine
STARTS = 120_000  # Pyodide's first start on a busy machine


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """The pages of these tests register no service worker (the offline copy, web/sw.js): it keeps every
    page and table file a fresh context opens, which cost the whole run about a minute of a core and
    tests nothing these tests are about. tests/browser/test_offline.py allows it
    (``@pytest.mark.browser_context_args(service_workers="allow")``), and so do the three engines'
    journeys (tests/journeys), which open their own browsers."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def returning(
    browser_type: BrowserType, static_site: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrowserContext]:
    """A reader's browser that has visited a table before: a chromium profile of its own (one for each
    test process) whose Cache Storage holds the snapshot of Python the first visit kept."""
    context = browser_type.launch_persistent_context(
        tmp_path_factory.mktemp("returning"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        viewport={"width": 1280, "height": 720},
        service_workers="block",  # as browser_context_args
    )
    context.add_init_script(INSTANT_PACE)
    first = context.new_page()
    first.goto(f"{static_site}/play/nap.html", timeout=OPENS)
    expect(first.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
    first.wait_for_function("() => window.lanterlooLog.some((l) => l.startsWith('kept a snapshot'))", timeout=STARTS)
    first.close()
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def again(returning: BrowserContext, static_site: str) -> Iterator[Page]:
    """A page in the returning reader's browser, with no game kept from an earlier test: the
    browser's local storage is emptied (the snapshot is in Cache Storage, and stays), and the window
    at 1280x720 whatever the test before made it."""
    page = returning.new_page()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{static_site}/favicon.ico", timeout=OPENS)  # a document of the origin that goes nowhere
    page.evaluate("localStorage.clear(); sessionStorage.clear()")
    try:
        yield page
    finally:
        page.close()
