"""The first minute at a table (issue 20): each table page's title, its links to the book, its
introduction that folds away once read, and the lists of tables."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from loo.registry import NAMES
from widgets.draw.table_pages import HOW_TO_PLAY, INTRO_KEY, PAGES, links_html, page_title, tables_list_html

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "widgets/share/jupyter/voila/templates/lanterloo/index.html.j2"


def notebook(game: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((ROOT / "book/tables" / f"{game}.ipynb").read_text())
    return data


def introduction(game: str) -> str:
    cells = notebook(game)["cells"]
    assert isinstance(cells, list)
    return "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


@pytest.mark.parametrize("game", NAMES)
def test_each_table_page_is_titled_for_its_game_and_links_the_book(game: str) -> None:
    metadata = notebook(game)["metadata"]
    assert isinstance(metadata, dict)
    assert metadata["title"] == page_title(game) and PAGES[game].title in page_title(game)
    text = introduction(game)
    assert links_html(game) in text, "the chapter, how to play and every table, under the heading"
    # relative to the table's page (<base>voila/render/<game>.ipynb), so they hold under any --base-url
    assert f'href="../../{PAGES[game].chapter}"' in text and f'href="../../{HOW_TO_PLAY}"' in text
    assert links_html(game).count('target="_top"') == 3, "from a table embedded in a chapter, the whole window"
    # the heading and a short lead stay; the rest is in a <details> the page folds once it was read
    before, _, folded = text.partition(f'<details class="loo-intro" data-loo-intro="{game}" open>')
    assert folded.rstrip().endswith("</details>") and "<summary>" in folded
    assert len(before) < len(links_html(game)) + 420, "little above the table besides the fold"


@pytest.mark.parametrize("game", NAMES)
def test_each_chapter_linked_is_a_page_of_the_book(game: str) -> None:
    path, _, anchor = PAGES[game].chapter.partition("#")
    source = ROOT / path.replace(".html", ".md")
    assert source.is_file()
    assert path.removesuffix(".html") in (ROOT / "_toc.yml").read_text()
    if anchor:  # a section's own anchor: its heading, as Sphinx names it
        headings = re.findall(r"^#+ (.+)$", source.read_text(), re.M)
        assert anchor in [re.sub(r"[^a-z0-9]+", "-", h.lower()).strip("-") for h in headings]


def test_how_to_play_is_a_section_of_the_teaching_chapter() -> None:
    path, _, label = HOW_TO_PLAY.partition("#")
    text = (ROOT / path.replace(".html", ".md")).read_text()
    section = text.split(f"({label})=\n", 1)[1].split("\n## ", 1)[0]
    for what in ("Take back", "Why?", "Hint", "Ledger", "Enter", "single"):
        assert what in section, what


def test_the_template_folds_the_introduction_once_read() -> None:
    page = TEMPLATE.read_text()
    assert f'var KEY = "{INTRO_KEY}"' in page and "details[data-loo-intro]" in page
    assert "localStorage.setItem" in page and "intro.open = false" in page


def test_the_list_names_each_game_once_with_a_sentence_and_its_chapter() -> None:
    html = tables_list_html(lambda game: f"/tables/{game}")
    assert html.count("<li>") == len(NAMES)
    for page in PAGES.values():
        assert f'href="/tables/{page.game}">{page.title}</a>' in html.replace("&#x27;", "'")
        assert page.about.endswith(".") and len(page.about) < 140
    assert tables_list_html(lambda game: game, games=["nap"]).count("<li>") == 1


def test_the_in_browser_tables_link_the_book_and_are_listed() -> None:
    spec = importlib.util.spec_from_file_location("build_inpage", ROOT / "web/build_inpage.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    scripts = dict.fromkeys(("inpage.css", "inpage.js", "offline.js", "table-keys.js", "guide.js"), "x")
    pages = build.play_pages(scripts, "m")
    assert set(pages) == {f"{game}.html" for game in NAMES} | {"index.html"}
    for game in NAMES:
        page = pages[f"{game}.html"]
        assert f'href="../{PAGES[game].chapter}"' in page and f'href="../{HOW_TO_PLAY}"' in page
        assert 'href="index.html"' in page and f"<title>{PAGES[game].title}" in page.replace("&#x27;", "'")
        assert f'href="{game}.html"' in pages["index.html"]
