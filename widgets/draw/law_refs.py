"""A law of the catalogue cited where a reader can open it: one helper for every place a table names a law.

A citation used to be an ID and source codes in brackets, its words only in a ``title`` (a
tooltip, which a touch screen never shows). :func:`law_ref_html` makes it a ``<details>`` element
instead: its ``<summary>`` (the law's ID) is a control a tap, a click or the keyboard (Tab, then
Enter or Space) opens, and the small panel it opens says the law in the project's catalogue
(:mod:`loo.core.laws`), names each source by its title (``Peel, Round Games with Cards, p.20`` rather
than ``000``) and links the law's row in the book's index of laws. A second tap closes it; at a
table the page's script (``table-keys.js``) also closes it on Escape or on a tap elsewhere.

:func:`with_law_refs` turns the law IDs in a plain sentence (the engine's refusals and
explanations, which cite ``(L3-PLAY-02: Peel p.20; ...)``) into such references, escaping the rest.

No ``<details>`` may sit in a ``<p>`` (the browser would close the paragraph before it), so the
places that cite put their sentences in a ``<div>`` or an ``<li>``.

>>> html = law_ref_html("L3-PLAY-02")
>>> html.startswith('<details class="loo-law">') and "<summary" in html
True
>>> "Peel, Round Games with Cards" in html and "laws.html#law-l3-play-02" in html
True
>>> "Peel p.20" in with_law_refs("No (L3-PLAY-02: Peel p.20; Enquire Within §97.i)")
False
"""

from __future__ import annotations

import os
import re
from html import escape

from loo.core.laws import LAWS, Status, law, source_name

__all__ = ["LAW_STYLE", "index_address", "law_ref_html", "source_titles", "with_law_refs"]

INDEX_PAGE = "book/laws.html"
"""The book's index of laws, from the site's root; each law's row has the anchor ``law-<id, lower case>``."""

index_root: str | None = None
"""The site's root as a table page reaches it; None: the server's base URL (``VOILA_BASE_URL``, else "/").
:mod:`widgets.kernel.inpage` sets it to "../" (its pages are ``play/<game>.html``)."""

_KINDS = {
    Status.MANDATORY: "a law",
    Status.MANDATORY_DEFAULT: "a law, unless the table agrees otherwise",
    Status.OPTIONAL: "an option a table may agree on",
    Status.RECOMMENDATION: "a recommendation",
    Status.ADVICE: "advice, never enforced",
    Status.DEFINITION: "a definition or example",
    Status.HISTORY: "a fact of history",
    Status.CONFLICT: "where the sources disagree; this is the table's choice",
    Status.AMBIGUITY: "where the sources are unclear; this is the table's reading",
}

# A law ID as the catalogue spells one, and a citation in brackets: the ID, perhaps with its short sources.
_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")
_CITATION = re.compile(r"(?P<id>\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b)(?P<sources>:[^()]*)?(?=\))")

LAW_STYLE = (
    "<style>"
    # inline-block, not inline: a closed <details> keeps an empty block for its content, which would
    # break the line around an inline one; open, it takes the width of the text, its panel under its ID
    "details.loo-law{display:inline-block;vertical-align:baseline}"
    "details.loo-law[open]{display:block;margin:.2em 0}"
    "details.loo-law>summary{display:inline;list-style:none;cursor:pointer;white-space:nowrap;"
    "font:600 .9em/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#1d5a3c;background:#eef5f0;"
    "border:1px solid #8fb3a0;border-radius:4px;padding:0 .3em}"
    "details.loo-law>summary::-webkit-details-marker{display:none}"
    "details.loo-law>summary:hover{background:#dcebe1}"
    "details.loo-law>summary:focus-visible{outline:3px solid #e0a000;outline-offset:2px}"
    "details.loo-law[open]>summary{background:#1d5a3c;color:#fff}"
    ".loo-law-panel{display:block;margin:.3em 0 .4em;padding:.4em .6em;max-width:34em;background:#fff;"
    "border:1px solid #8fb3a0;border-left:4px solid #1d5a3c;border-radius:4px;box-shadow:0 2px 6px rgba(0,0,0,.15);"
    "font:400 13px/1.4 system-ui,sans-serif;color:#1f1f1f;white-space:normal;text-align:left}"
    ".loo-law-panel a{color:#1d5a3c}"
    ".loo-law-kind{color:#4a4a4a}"
    "</style>"
)
"""How a reference and its panel look; sent once with what holds references (the game in a minute does)."""


def index_address(law_id: str) -> str:
    """The address of ``law_id``'s row in the book's index of laws, as the table's page reaches it."""
    root = index_root if index_root is not None else (os.environ.get("VOILA_BASE_URL") or "/")
    return f"{root}{INDEX_PAGE}#law-{law_id.lower()}"


def source_titles(law_id: str) -> list[str]:
    """Each source of ``law_id`` named by its title, with its place in it: ``Peel, Round Games with Cards, p.20``.

    >>> source_titles("CF-05")
    ['encyclopedia article on Loo', 'Enquire Within']
    """
    named = []
    for source in law(law_id).sources:
        code, _, locator = source.partition(" ")
        title = source_name(code)
        named.append(f"{title}, {locator}" if locator else title)
    return list(dict.fromkeys(named))


def law_ref_html(law_id: str) -> str:
    """A reference to ``law_id`` that opens, on a tap or from the keyboard, a panel with its words and sources.

    An ID the catalogue does not know is shown as it is, in ``<code>``, rather than failing a page.
    """
    if law_id not in LAWS:
        return f"<code>{escape(law_id)}</code>"
    entry = law(law_id)
    sources = "; ".join(source_titles(law_id)) or "none named"
    label = f"Law {law_id}: show what it says and its source"
    return (
        '<details class="loo-law">'
        f'<summary aria-label="{escape(label)}">{escape(law_id)}</summary>'
        f'<span class="loo-law-panel" role="note"><b>{escape(law_id)}</b> '
        f'<span class="loo-law-kind">({escape(_KINDS[entry.status])})</span>: {escape(entry.statement)}<br>'
        f"Source: {escape(sources)}. "
        f'<a href="{escape(index_address(law_id))}" target="_top">In the index of laws</a></span>'
        "</details>"
    )


def with_law_refs(text: str) -> str:
    """``text`` escaped for HTML, each law ID of the catalogue in it made a reference (:func:`law_ref_html`).

    A citation's short sources after the ID, ``(L3-PLAY-02: Peel p.20; Enquire Within §97.iv)``, go:
    the reference names the sources in full. Anything that only looks like an ID stays as it is.
    """
    text = _CITATION.sub(lambda m: m["id"] if m["id"] in LAWS else m[0], text)
    out, at = [], 0
    for match in _ID.finditer(text):
        if match[0] in LAWS:
            out += [escape(text[at : match.start()]), law_ref_html(match[0])]
            at = match.end()
    out.append(escape(text[at:]))
    return "".join(out)
