"""Small accessibility repairs to the theme's and extensions' markup, made to every built page.

axe-core (tests/browser/test_accessibility.py) finds three faults that are not in our pages but
in what the theme and sphinxcontrib-bibtex write around them:

- the search field's button is named "Search" while it shows "Search Ctrl+K": a voice-control
  user saying what they see would miss it (WCAG 2.5.3, label in name). Its own text names it.
- the colour-mode button holds three icons carrying titles ("Light", "Dark"...), read as its
  visible text though only one is shown and none is text; they are hidden from assistive
  technology, and the button keeps its name.
- the bibliography is marked ``role="list"`` with entries that are not list items;
- a folded code cell's summary is named "Toggle hidden content" while it shows "Show code cell
  source".

Each repair is a plain text substitution on the written HTML; a substitution that no longer
matches anything (after a theme upgrade) is reported as a build warning, so it is never
silently dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

log = logging.getLogger(__name__)

REPAIRS = (
    (
        '<button class="btn search-button-field search-button__button pst-js-only" title="Search" aria-label="Search"',
        '<button class="btn search-button-field search-button__button pst-js-only" title="Search"',
    ),
    ('data-mode="light" title="Light"></i>', 'data-mode="light" aria-hidden="true"></i>'),
    ('data-mode="dark"  title="Dark"></i>', 'data-mode="dark" aria-hidden="true"></i>'),
    ('data-mode="auto"  title="System Settings"></i>', 'data-mode="auto" aria-hidden="true"></i>'),
    ('<div role="list" class="citation-list">', '<div class="citation-list">'),
    # myst-nb's folded code cells: the summary shows "Show code cell source" but was named "Toggle
    # hidden content"; its own text names it.
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
)


def repair(app: Sphinx, error: Exception | None) -> None:
    if error is not None or app.builder.format != "html":
        return
    used = [0] * len(REPAIRS)
    for page in Path(app.outdir).rglob("*.html"):
        text = original = page.read_text(encoding="utf-8")
        for i, (old, new) in enumerate(REPAIRS):
            if old in text:
                text = text.replace(old, new)
            if new in text:  # repaired now, or by an earlier build of an unchanged page
                used[i] += 1
        if text != original:
            page.write_text(text, encoding="utf-8")
    for (old, _), count in zip(REPAIRS, used, strict=True):
        if not count:
            log.warning("a11y_fixes: no page has %r any more; check the repair", old[:60])


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", repair)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
