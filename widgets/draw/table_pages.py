"""What a reader needs around a live table: its page's title, the chapter it comes from, how to play,
and the list of every table (the server's ``/tables/``, the static book's ``play/index.html``).

One entry per game (:data:`PAGES`), read by the server's list of tables (``widgets.server.pages``),
by the in-browser tables' pages (``web/build_inpage.py``), and checked against the table notebooks'
introductions (``tests/widgets/test_table_pages.py``), so a chapter moved is a test failed, not a
dead link.

>>> page_title("nap")
'Napoleon (Nap): a live table · Lanterloo'
>>> PAGES["domino-rounce"].chapter
'book/domino-loo.html#domino-rounce'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape

from loo.registry import NAMES, entry

HOW_TO_PLAY = "book/teaching.html#how-to-play"
"""The book's short section on playing at a live table: clicks and keys, take-back, Why?, hints, the ledger."""
INTRO_KEY = "lanterloo-intro-read:"
"""The browser's ``localStorage`` key, followed by the game, marking a table's introduction read."""


@dataclass(frozen=True)
class TablePage:
    """A table game's place in the book."""

    game: str
    chapter: str  # the chapter's address from the site's root
    chapter_title: str
    about: str  # one sentence for the list of tables

    @property
    def title(self) -> str:
        return entry(self.game).title


PAGES: dict[str, TablePage] = {
    page.game: page
    for page in (
        TablePage(
            "three-card-loo",
            "book/loo/stakes.html",
            "Stakes, the pool and the first deal",
            "Three cards each and a spare hand, the miss: stand, take the miss or throw up, and each trick takes "
            "a third of the pool.",
        ),
        TablePage(
            "five-card-loo",
            "book/pam.html",
            "Five-card Loo and Pam",
            "Five cards each, exchanges from the stock, Pam (the knave of clubs) as the highest trump, and "
            "flushes that sweep the pool.",
        ),
        TablePage(
            "irish-loo",
            "book/irish-loo.html",
            "Irish Loo and Loo the Board",
            "Three cards each, no miss, and exchanges as at five-card Loo; the pool is shared by tricks.",
        ),
        TablePage(
            "nap",
            "book/nap/orthodox.html",
            "Napoleon: the orthodox game",
            "Five cards each: bid how many tricks you will take alone against the table, up to all five (Nap).",
        ),
        TablePage(
            "domino-loo",
            "book/domino-loo.html",
            "Domino Loo and Domino Rounce",
            "Loo played with a double-six set of dominoes; the turned-up tile names the trump suit.",
        ),
        TablePage(
            "domino-rounce",
            "book/domino-loo.html#domino-rounce",
            "Domino Rounce",
            "Domino Loo with easier laws and a score: everyone starts at 15 points, and the first to reach "
            "nothing wins.",
        ),
    )
}
assert tuple(PAGES) == NAMES, "a table page for every game, in the registry's order"


def page_title(game: str) -> str:
    """What the browser's tab says for ``game``'s live table."""
    return f"{PAGES[game].title}: a live table · Lanterloo"


def links_html(game: str, root: str = "../../", *, tables: str = "../../tables/") -> str:
    """The line of links under a table's heading: its chapter, how to play, every table.

    ``root`` is the site's root as the page reaches it: "../../" from the server's table page
    (``<base>voila/render/<game>.ipynb``, so the links hold under any ``--base-url``), "../" from
    ``play/``. The links open in the whole window, also from a table embedded in a chapter's page (an iframe).
    """
    page = PAGES[game]
    return (
        '<nav class="loo-table-links" aria-label="About this table">'
        f'<a href="{escape(root + page.chapter)}" target="_top">The chapter on {escape(page.title)}</a> · '
        f'<a href="{escape(root + HOW_TO_PLAY)}" target="_top">How to play this table</a> · '
        f'<a href="{escape(tables)}" target="_top">All the tables</a></nav>'
    )


def tables_list_html(link: Callable[[str], str], root: str = "/", games: Iterable[str] = NAMES) -> str:
    """The list of ``games``' tables: each game's title (a link to its table), a sentence, and its chapter."""
    offered = set(games)
    items = "".join(
        f'<li><a class="loo-table-link" href="{escape(link(page.game))}">{escape(page.title)}</a>: '
        f'{escape(page.about)} <span class="loo-table-chapter">(<a href="{escape(root + page.chapter)}">'
        f"the chapter</a>)</span></li>"
        for page in PAGES.values()
        if page.game in offered
    )
    return f'<ul class="loo-tables-list">{items}</ul>'


TABLES_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The live tables · Lanterloo</title>
<style>
body {{ font-family: system-ui, sans-serif; background: #f4f1ea; color: #1f1f1f; margin: 0; }}
main {{ max-width: 46em; margin: 0 auto; padding: 1em 1.2em 2em; line-height: 1.5; }}
h1 {{ font-size: 1.6em; margin: .4em 0; }}
li {{ margin: .6em 0; }}
a {{ color: #1d5a3c; }}
a:focus-visible {{ outline: 3px solid #e0a000; outline-offset: 2px; }}
.loo-table-link {{ font-weight: 600; }}
</style>
</head>
<body>
<main>
<h1>The live tables</h1>
<p>Play whole games against computer players, the pool carried from hand to hand. {where}
<a href="{how}">How to play at a table</a>; <a href="{book}">the book</a>.</p>
{tables}
</main>
</body>
</html>
"""


def tables_page(link: Callable[[str], str], root: str = "/", *, where: str = "", games: Iterable[str] = NAMES) -> str:
    """A whole page listing ``games``' tables (``where``: a sentence on where they run)."""
    return TABLES_PAGE.format(
        where=escape(where),
        how=escape(root + HOW_TO_PLAY),
        book=escape(root + "book/index.html" if root != "/" else "/"),
        tables=tables_list_html(link, root, games),
    )
