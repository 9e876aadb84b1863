"""A table whose kernel died (issue 28, point 10): its page said nothing, and its clicks did nothing.

Killed here as a crash would end it (SIGKILL to the kernel's process, found in ``/proc`` by the
kernel id the page names in its config). The server restarts a kernel that died, empty, and tells
the page it is restarting; the page now says plainly that the table stopped, dims it, and offers to
reopen the saved game, which its address does: a new kernel resumes it from the saved games.
"""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_page import WAIT, act, board
from tests.conftest import Served

pytestmark = pytest.mark.browser


def kernel_process(kernel_id: str) -> int:
    """The process id of the table kernel ``kernel_id`` (its command line names its connection file)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:  # it has just exited
                continue
            if f"kernel-{kernel_id}.json" in argv and "widgets.kernel.table_kernel" in argv:
                return int(entry.name)
    raise AssertionError(f"no process for kernel {kernel_id}")


def test_a_table_whose_kernel_was_killed_says_so_and_reopens_its_saved_game(page: Page, served_site: Served) -> None:
    page.goto(served_site.base + "/tables/three-card-loo")
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    act(page)
    act(page)
    before = board(page)
    kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    os.kill(kernel_process(kernel_id), signal.SIGKILL)

    stopped = page.locator(".loo-table-stopped")
    expect(stopped).to_be_visible(timeout=30_000)
    expect(stopped.get_by_text("This table has stopped.")).to_be_visible()
    reopen = stopped.get_by_role("link", name="Reopen the saved game")
    expect(reopen).to_be_visible()
    expect(reopen).to_be_focused()  # a keyboard reader is taken to it
    reopen.click()

    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    expect(page.locator(".loo-board")).to_have_text(before, use_inner_text=True)  # the game as it was saved
    expect(page.locator(".loo-table-stopped")).to_have_count(0)
    act(page)  # and it plays on


def test_a_table_whose_kernel_was_gone_before_its_page_reached_it_says_so(page: Page, served_site: Served) -> None:
    """The server answers that the page's kernel is not there (ended between serving the page and the
    page's first word to it, as the culler did in CI with a 10 s --max-idle and a slow page). Voila's
    widget manager then gives up and the table's plain-text stand-in ("VBox(children=...") was all a
    reader saw; now the page says the table stopped, and its link opens the table again."""
    gone = re.compile(r"/api/kernels/[^/?]+(\?.*)?$")
    page.route(gone, lambda route: route.fulfill(status=404, body="{}"))
    page.goto(served_site.base + "/tables/three-card-loo")
    stopped = page.locator(".loo-table-stopped")
    expect(stopped).to_be_visible(timeout=WAIT)
    expect(stopped.get_by_text("This table has stopped.")).to_be_visible()
    expect(page.locator(".loo-board")).to_have_count(0)
    page.unroute(gone)
    reopen = stopped.get_by_role("link", name="Reopen the saved game")  # the server gave it a table id
    expect(reopen).to_be_focused()
    reopen.click()
    expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
    expect(page.locator(".loo-table-stopped")).to_have_count(0)
    act(page)
