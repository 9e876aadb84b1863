"""axe-core in chromium: no serious or critical accessibility violation on any book page or live table
(the server's tables are checked by tests/browser/test_site.py as it opens each, with the checks here).

axe-core comes pinned from the npm registry with the widget bundle (web/package.json); it is
injected by the test and never published with the site.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
BOOK = ROOT / "_build" / "html"
TABLES = sorted(p.stem for p in (ROOT / "book" / "tables").glob("*.ipynb"))
# Only serious and critical violations fail a test, so the rules axe itself rates moderate or minor
# whatever they find (region, the landmark rules, heading-order, ...) are not run: "region" alone was
# a fifth of axe's time on a long page.
OPTIONS = (
    "{resultTypes: ['violations'], rules: Object.fromEntries(axe._audit.rules"
    ".filter((r) => ['moderate', 'minor'].includes(r.impact)).map((r) => [r.id, {enabled: false}]))}"
)


# The colour rules (colour contrast, and links told from text by more than colour) are over half of
# axe's time on a book page. The pages share one theme and one set of drawings (cards, tiles, step
# viewers, questions, law popovers, figures, tables), so they are checked on the pages that between
# them show every kind: the home page, the first chapter (a step viewer and a question), the laws
# (long tables), Nap's variants (the most drawings of any page) and the numbers (the figures); on the
# rest every other rule runs.
CONTRAST_PAGES = {
    "book/index.html",
    "book/first-hand.html",
    "book/laws.html",
    "book/nap/variants.html",
    "book/numbers.html",
}
WITHOUT_CONTRAST = OPTIONS.replace(
    "rules: Object.fromEntries(",
    "rules: Object.assign({'color-contrast': {enabled: false}, 'link-in-text-block': {enabled: false}}, "
    "Object.fromEntries(",
)
WITHOUT_CONTRAST = WITHOUT_CONTRAST[: -len(")}")] + "))}"


def axe_problems(page: Page, *, contrast: bool = True) -> list[str]:
    """The serious and critical violations axe finds on the page as it stands, one line each (with
    ``contrast`` False, all but the colour rules)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `bash web/vendor.sh` (make test does)")
    page.add_script_tag(content=AXE.read_text())
    result: dict[str, Any] = page.evaluate(f"() => axe.run(document, {OPTIONS if contrast else WITHOUT_CONTRAST})")
    problems = []
    for violation in result["violations"]:
        if violation["impact"] in ("serious", "critical"):
            where = [" ".join(map(str, n["target"])) for n in violation["nodes"][:3]]
            why = " ".join(violation["nodes"][0].get("failureSummary", "").split())
            problems.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {where}: {why}")
    return problems


def book_pages() -> list[str]:
    return sorted(p.relative_to(BOOK).as_posix() for p in (BOOK / "book").rglob("*.html"))


def test_every_book_page_passes_axe(page: Page, static_site: str) -> None:
    # A walk of its own, on the static build: joined to test_site.py's walk of the same pages through
    # the server, the one walk took 167 s of a fresh run against 138 s for the two apart.
    pages = book_pages()
    assert CONTRAST_PAGES <= set(pages), CONTRAST_PAGES - set(pages)
    found = {}
    for path in pages:
        page.goto(f"{static_site}/{path}")
        expect(page.locator("article h1").first).to_be_visible()
        problems = axe_problems(page, contrast=path in CONTRAST_PAGES)
        if problems:
            found[path] = problems
    assert not found, "\n".join(f"{path}: {p}" for path, ps in found.items() for p in ps)


# The server's page around a table (its template: the minute, the introduction, the projector button) is
# every game's; the table's own widgets, with a hint and the Ledger and Rules tabs, are the same at the
# server and in the reader's browser, where tests/browser/test_inpage.py checks them for every game.
# tests/browser/test_site.py opens every game's server table and checks it with these, as it opens, and
# the tabs and a hint at one game's (the hint's words come from the server's own player): one opening
# of each table serves both that test and these checks.
FULLY_CHECKED = "nap"
assert FULLY_CHECKED in TABLES


def fits_a_phone_and_shows_its_focus(page: Page) -> None:
    """At a phone's 390 px the table fits with no sideways scrolling; the first Tab stop is a link to the
    reader's choices, and Enter on it puts the focus there, ringed so it shows (not the blue of a legal one)."""
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".loo-felt")).to_be_visible()
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390, f"the page scrolls sideways at 390 px: {wide} px wide"
    page.keyboard.press("Tab")
    expect(page.locator(".loo-skip")).to_be_focused()
    page.keyboard.press("Enter")
    focused = page.locator(".loo-near button:focus")
    expect(focused).to_have_count(1)
    ring = focused.evaluate(
        "b => { const s = getComputedStyle(b); return [s.outlineStyle, parseFloat(s.outlineWidth), s.boxShadow]; }"
    )
    assert ring[0] != "none" and ring[1] >= 3 and "255, 194, 26" in ring[2], ring  # black ring, amber halo
    page.set_viewport_size({"width": 1280, "height": 800})


def table_passes_axe(page: Page) -> None:
    """The table as it opened, with a hint shown if the reader has a choice to make, then with the Rules
    and Ledger tabs open, whose controls are not drawn (nor, for the rules, built) until shown: each
    waited for first."""
    problems = axe_problems(page)
    assert not problems, "\n".join(problems)
    hint = page.locator(".loo-hint")
    if hint.is_enabled():
        hint.click()
        expect(page.locator(".loo-hint-box")).to_be_visible(timeout=30_000)
        problems = axe_problems(page)
        assert not problems, "with a hint shown:\n" + "\n".join(problems)
    drawn = {"Ledger": page.locator(".loo-ledger-view table"), "Rules": page.get_by_role("combobox", name="Game")}
    for tab in ("Ledger", "Rules"):
        page.get_by_role("tab", name=tab).click()
        expect(drawn[tab]).to_be_visible(timeout=30_000)
        problems = axe_problems(page)
        assert not problems, f"{tab} tab:\n" + "\n".join(problems)


# The tables that run in the reader's browser pass the same checks (table_passes_axe) in
# tests/browser/test_inpage.py, at the start of each game's whole hand: one start of Python for both.
