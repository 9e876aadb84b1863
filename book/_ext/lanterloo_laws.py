"""Law IDs in the book: a ``{law}`` role that links an ID to its entry, and a generated index of laws.

- ``{law}`L3-PLAY-04``` renders the ID as a link to its row in the index of laws, with the law's
  one-line statement and its sources, named by title, as the link's title; ``_static/law-popover.js``
  turns that into a popover that opens on a tap, a click or the keyboard (a title alone shows only
  to a mouse that hovers), with the index one link further. An ID the engine's catalogue (``loo.core.laws``) does not
  know is a build warning, so ``-W`` fails the build on a mistyped law.
- ``:::{law-index}`` (used once, on the index page) becomes a table per section of the catalogue: every
  law's ID, statement, status and sources, the pages of the book that cite it with the role, the
  page that offers the live table for its game, the code that cites it (every line of ``loo/`` and
  ``widgets/`` where the ID stands as a word) and the tests that carry its marker,
  ``@pytest.mark.law("L3-PLAY-04")`` (read by ``tests/law_markers.py``, as the coverage account does).

Which pages offer which live table is read from the pages themselves: the box made by
``widgets.book.live_table_offer`` carries ``data-loo-table="<game>"`` and ``id="live-<game>"``.
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from loo.core.laws import LAWS, Status, source_name

log = logging.getLogger(__name__)

INDEX_DOC = "book/laws"
OFFER = re.compile(r'data-loo-table="([a-z0-9-]+)"')
ROOT = Path(__file__).resolve().parents[2]
# Where the code that enforces the laws lives, and a law ID standing as a word in it ("L3-PLAY-04",
# not "XL3-PLAY-045"); a match counts only if the catalogue knows it.
CODE_FOLDERS = ("loo", "widgets")
LAW_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Z][A-Z0-9]*(?:-[A-Z]+)?-\d\d(?![A-Za-z0-9_])")
# A law with many sites shows the first few and how many there are.
SHOWN_SITES = 3

# Which live table can show a law, by the ID's first part (laws of conflicts, ambiguities, the
# glossary and history are not tied to one table).
TABLE_OF_PREFIX = {
    "L3": "three-card-loo",
    "L5": "five-card-loo",
    "IRL": "irish-loo",
    "UL": "three-card-loo",
    "NAP": "nap",
    "DL": "domino-loo",
    "DR": "domino-rounce",
}
STATUS_WORDS = {
    Status.MANDATORY: "law",
    Status.MANDATORY_DEFAULT: "law (default)",
    Status.OPTIONAL: "option",
    Status.RECOMMENDATION: "recommendation",
    Status.ADVICE: "advice",
    Status.DEFINITION: "definition",
    Status.HISTORY: "history",
    Status.CONFLICT: "conflict",
    Status.AMBIGUITY: "ambiguity",
}


class law_reference(nodes.Inline, nodes.TextElement):
    """A law ID in the text, made a link once the index page's address is known."""


class law_index(nodes.General, nodes.Element):
    """Where the index of laws goes."""


def source_title(source: str) -> str:
    """A law's source as a reader knows it, with its place: ``"000 p.20"`` is "Peel, Round Games with
    Cards, p.20"."""
    code, _, place = source.partition(" ")
    try:
        name = source_name(code)
    except KeyError:
        return source
    return f"{name}, {place}" if place else name


def anchor(law_id: str) -> str:
    return "law-" + law_id.lower()


def law_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: Any = None, content: Any = None
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    law_id = text.strip()
    if law_id not in LAWS:
        message = inliner.reporter.warning(f"unknown law ID {law_id!r} (not in loo.core.laws)", line=lineno)
        return [nodes.literal(rawtext, law_id)], [message]
    env = inliner.document.settings.env
    uses: dict[str, set[str]] = env.lanterloo_law_uses if hasattr(env, "lanterloo_law_uses") else {}
    uses.setdefault(law_id, set()).add(env.docname)
    env.lanterloo_law_uses = uses
    node = law_reference(rawtext, law_id, law_id=law_id)
    return [node], []


class LawIndexDirective(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        return [law_index("")]


def note_offers(app: Sphinx, doctree: nodes.document) -> None:
    """Remember which live tables this page offers (from the offer boxes in its cell outputs)."""
    env = app.env
    offers: dict[str, set[str]] = getattr(env, "lanterloo_offers", {})
    for raw in doctree.findall(nodes.raw):
        for game in OFFER.findall(raw.astext()):
            offers.setdefault(game, set()).add(env.docname)
    env.lanterloo_offers = offers


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for attr in ("lanterloo_law_uses", "lanterloo_offers"):
        for docs in getattr(env, attr, {}).values():
            docs.discard(docname)


def merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    for attr in ("lanterloo_law_uses", "lanterloo_offers"):
        mine: dict[str, set[str]] = getattr(env, attr, {})
        for key, docs in getattr(other, attr, {}).items():
            mine.setdefault(key, set()).update(docs)
        setattr(env, attr, mine)


def _doc_link(app: Sphinx, fromdoc: str, todoc: str, fragment: str = "") -> nodes.reference:
    title = app.env.titles[todoc].astext() if todoc in app.env.titles else todoc
    uri = app.builder.get_relative_uri(fromdoc, todoc) + (f"#{fragment}" if fragment else "")
    return nodes.reference("", title, internal=True, refuri=uri)


def _doc_order(app: Sphinx) -> dict[str, int]:
    """Each page's place in the book's reading order (the table of contents, depth first)."""
    order: list[str] = []

    def walk(doc: str) -> None:
        if doc in order:
            return
        order.append(doc)
        for child in app.env.toctree_includes.get(doc, []):
            walk(child)

    walk(app.config.root_doc)
    return {doc: i for i, doc in enumerate(order)}


def _cell(*children: nodes.Node) -> nodes.entry:
    entry = nodes.entry()
    para = nodes.paragraph()
    for child in children:
        para += child
    entry += para
    return entry


def _links(app: Sphinx, fromdoc: str, docs: list[str], fragment: str = "") -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for i, doc in enumerate(docs):
        if i:
            out.append(nodes.Text("; "))
        out.append(_doc_link(app, fromdoc, doc, fragment))
    return out


GENERAL_PAGES = ("book/first-hand", "book/history", "book/numbers", "book/teaching", "book/sources")


def _try_it(offering: list[str], explained: list[str]) -> list[str]:
    """The one page to try a law at: the first that both explains it and offers its table, else
    the first game chapter offering the table, else any page offering it (all in reading order)."""
    for choice in (
        [d for d in offering if d in explained],
        [d for d in offering if d not in GENERAL_PAGES],
        offering,
    ):
        if choice:
            return choice[:1]
    return []


def _law_markers_module() -> ModuleType:
    """tests/law_markers.py, loaded from its file (the tests are not an installed package)."""
    spec = importlib.util.spec_from_file_location("lanterloo_law_markers", ROOT / "tests" / "law_markers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _code_files() -> list[Path]:
    return sorted(path for folder in CODE_FOLDERS for path in (ROOT / folder).rglob("*.py"))


@cache
def code_sites() -> dict[str, list[str]]:
    """``{law ID: ["loo/games/loo/hand.py:123", ...]}``: every line of the engine and the widgets citing the ID."""
    sites: dict[str, list[str]] = {}
    for path in _code_files():
        name = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for law_id in dict.fromkeys(LAW_TOKEN.findall(line)):
                if law_id in LAWS:
                    sites.setdefault(law_id, []).append(f"{name}:{number}")
    return sites


@cache
def marked_tests() -> dict[str, list[str]]:
    """``{law ID: ["tests/.../test_x.py::test_y", ...]}``: the tests that carry the law's marker."""
    found: dict[str, list[str]] = _law_markers_module().marked_tests_by_law()
    return found


def sites_digest() -> str:
    """A digest of the code and the tests the index reads: when it changes, the index is written again."""
    digest = hashlib.sha1()
    for path in [*_code_files(), *sorted((ROOT / "tests").rglob("*.py"))]:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _sites_cell(sites: list[str]) -> nodes.entry:
    """The first few sites, one a line, and how many there are in all when some are left out."""
    if not sites:
        return _cell(nodes.Text("\u2014"))
    entry = nodes.entry(classes=["loo-law-sites"])
    shown = sites if len(sites) <= SHOWN_SITES + 1 else sites[:SHOWN_SITES]  # never "and 1 more"
    for site in shown:  # wrapped by the stylesheet where the column is too narrow (no <wbr>: see it)
        code = nodes.raw("", f'<code class="docutils literal">{html.escape(site)}</code>', format="html")
        entry += nodes.paragraph("", "", code)
    if len(sites) > len(shown):
        more = f"and {len(sites) - len(shown)} more ({len(sites)} in all)"
        entry += nodes.paragraph("", "", nodes.emphasis("", more))
    return entry


def _index_tables(app: Sphinx, fromdoc: str) -> list[nodes.Node]:
    uses: dict[str, set[str]] = getattr(app.env, "lanterloo_law_uses", {})
    offers: dict[str, set[str]] = getattr(app.env, "lanterloo_offers", {})
    order = _doc_order(app)
    ranked = lambda docs: sorted(docs, key=lambda d: (order.get(d, 10**6), d))  # noqa: E731
    groups: dict[str, list[Any]] = {}
    for entry in LAWS.values():
        groups.setdefault(entry.group, []).append(entry)
    out: list[nodes.Node] = []
    for group, entries in groups.items():
        section = nodes.section(ids=["laws-" + nodes.make_id(group)])
        section += nodes.rubric("", group)
        table = nodes.table(classes=["loo-law-index"])
        tgroup = nodes.tgroup(cols=7)
        for width in (10, 30, 11, 11, 8, 13, 17):
            tgroup += nodes.colspec(colwidth=width)
        head = nodes.thead()
        row = nodes.row()
        for title in ("ID", "What it says", "Sources", "Explained in", "Try it", "Code", "Tests"):
            row += _cell(nodes.Text(title))
        head += row
        tgroup += head
        body = nodes.tbody()
        for entry in entries:
            row = nodes.row(ids=[anchor(entry.id)])
            row += _cell(nodes.strong("", entry.id))
            status = STATUS_WORDS.get(entry.status, entry.status.value)
            row += _cell(nodes.Text(entry.statement + " "), nodes.emphasis("", f"({status})"))
            sources = "; ".join(f"{source_name(s.split()[0])} {' '.join(s.split()[1:])}".strip() for s in entry.sources)
            row += _cell(nodes.Text(sources or "\u2014"))
            explained = ranked(uses.get(entry.id, set()))
            row += _cell(*(_links(app, fromdoc, explained) or [nodes.Text("\u2014")]))
            game = TABLE_OF_PREFIX.get(entry.id.split("-")[0])
            tables = _try_it(ranked(offers.get(game, set())) if game else [], explained)
            row += _cell(*(_links(app, fromdoc, tables, f"live-{game}") or [nodes.Text("\u2014")]))
            row += _sites_cell(code_sites().get(entry.id, []))
            row += _sites_cell(marked_tests().get(entry.id, []))
            body += row
        tgroup += body
        table += tgroup
        section += table
        out.append(section)
    return out


def resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    index_known = INDEX_DOC in app.env.all_docs
    for node in list(doctree.findall(law_reference)):
        law_id = node["law_id"]
        text = nodes.literal("", law_id)
        if index_known and app.builder.format == "html":
            uri = app.builder.get_relative_uri(fromdoc, INDEX_DOC) + "#" + anchor(law_id)
            law = LAWS[law_id]
            named = "; ".join(source_title(source) for source in law.sources)
            title = f"{law.statement} ({named})" if named else law.statement
            ref = nodes.reference("", "", internal=True, refuri=uri, reftitle=title)
            ref["classes"].append("loo-law")
            ref += text
            node.replace_self(ref)
        else:
            node.replace_self(text)
    for node in list(doctree.findall(law_index)):
        node.replace_self(_index_tables(app, fromdoc))


def outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """The index lists every page's citations, and the code's and the tests': write it again whenever
    any page changes, or the code or the tests do."""
    digest = sites_digest()
    sites_changed = getattr(env, "lanterloo_sites_digest", None) != digest
    env.lanterloo_sites_digest = digest
    return [INDEX_DOC] if (added | changed | removed or sites_changed) and INDEX_DOC in env.found_docs else []


def check_counts(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn about a page that offers a live table for a game the server does not serve."""
    from widgets.book import TABLES

    for game, docs in getattr(env, "lanterloo_offers", {}).items():
        if game not in TABLES:
            log.warning("pages %s offer a live table for %r, which is not one of %s", sorted(docs), game, TABLES)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_node(law_reference)
    app.add_node(law_index)
    app.add_role("law", law_role)
    app.add_directive("law-index", LawIndexDirective)
    app.connect("doctree-read", note_offers)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-check-consistency", check_counts)
    app.connect("env-get-outdated", outdated)
    app.connect("doctree-resolved", resolve)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
