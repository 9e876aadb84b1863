"""The game in a minute and law references that open on a tap (issue 27, point 2): each game's rules
in brief without a law ID, the laws behind them one click away, and one helper for every law cited."""

from __future__ import annotations

import random
import re
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from loo.core.laws import LAWS, law, source_name
from loo.registry import NAMES
from widgets.draw import law_refs
from widgets.draw.law_refs import law_ref_html, source_titles, with_law_refs
from widgets.draw.minute import FOLD_SCRIPT, MINUTE_KEY, MINUTES, minute_html, rules_in_brief_html

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "widgets/share/jupyter/voila/templates/lanterloo/index.html.j2"
KEYS = ROOT / "widgets/share/jupyter/voila/templates/lanterloo/static/table-keys.js"
LAW_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")
SOURCE_CODE = re.compile(r"\b00[0-4]\b")


class Tags(HTMLParser):
    """The start tags of a fragment, with their attributes, and the text inside each <summary>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.summaries: list[str] = []
        self._in_summary = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "summary":
            self._in_summary = True
            self.summaries.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "summary":
            self._in_summary = False

    def handle_data(self, data: str) -> None:
        if self._in_summary:
            self.summaries[-1] += data


def parsed(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


@pytest.mark.parametrize("game", NAMES)
def test_each_game_has_a_minute_in_plain_words_with_its_laws_one_click_away(game: str) -> None:
    minute = MINUTES[game]
    words = " ".join(text for _lead, text in minute.lines())
    assert LAW_ID.findall(words) == [], "no law ID in the minute itself"
    assert not SOURCE_CODE.search(words)
    assert 20 <= len(words.split()) <= 60, "read in a minute"
    assert all(len(lead) + len(text) <= 78 for lead, text in minute.lines()), "a line each beside a page's heading"
    assert [lead for lead, _ in minute.lines()] == ["To win", "You decide", "In play"]
    assert minute.laws and all(law_id in LAWS for law_id in minute.laws)
    html = minute_html(game)
    tags = parsed(html)
    outer = [a for t, a in tags.tags if t == "details" and a.get("data-loo-minute") == game]
    assert len(outer) == 1 and "open" in outer[0], "open as sent: only a later visit folds it"
    assert tags.summaries[:2] == ["The game in a minute", "The laws behind this"]
    assert sum(1 for t, a in tags.tags if t == "details" and a.get("class") == "loo-law") == len(minute.laws)
    assert "laws.html" in html
    brief = rules_in_brief_html(game)
    assert "the rules in brief" in brief and all(escape_free in brief for escape_free in ("To win", "In play"))


def test_the_games_minutes_say_what_differs_between_them() -> None:
    """Not one text six times: each names the duty its own laws lay down."""
    assert "beat" not in MINUTES["nap"].duty and "trumps" in MINUTES["nap"].duty
    assert "else trump" in MINUTES["domino-loo"].duty and "no one has to trump" in MINUTES["domino-rounce"].duty
    assert "beating the best card" in MINUTES["three-card-loo"].duty and "third" in MINUTES["irish-loo"].win
    assert "Pam" in MINUTES["five-card-loo"].duty and "start on 15" in MINUTES["domino-rounce"].win
    assert len({m.duty for m in MINUTES.values()}) >= 5


def test_a_law_reference_is_a_keyboard_control_naming_its_source_by_title() -> None:
    html = law_ref_html("L3-PLAY-03")
    tags = parsed(html)
    assert [t for t, _ in tags.tags][:2] == ["details", "summary"], "a <summary>: Tab reaches it, Enter opens it"
    assert tags.summaries == ["L3-PLAY-03"]
    assert "tabindex" not in dict(tags.tags[1][1]) and "title" not in html, "no tooltip: the panel says it"
    assert law("L3-PLAY-03").statement.replace("'", "&#x27;") in html
    assert "Peel, Round Games with Cards" in html and ">Source: 000" not in html
    assert 'href="/book/laws.html#law-l3-play-03"' in html
    assert not SOURCE_CODE.search(html.replace("law-l3", "")), "no bare source number anywhere"


def test_every_source_is_named_by_its_title_with_its_place() -> None:
    assert source_titles("L3-LEAD-03") == ["Peel, Round Games with Cards, p.20", "Enquire Within, §97.iv"]
    for law_id in LAWS:
        for named in source_titles(law_id):
            assert any(named.startswith(source_name(code)) for code in ("000", "001", "002", "003", "004"))


def test_the_index_address_follows_where_the_page_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOILA_BASE_URL", "/loo/")
    assert law_refs.index_address("CF-05") == "/loo/book/laws.html#law-cf-05"
    monkeypatch.setattr(law_refs, "index_root", "../")
    assert law_refs.index_address("CF-05") == "../book/laws.html#law-cf-05"


def test_a_sentence_citing_laws_gets_references_and_stays_escaped() -> None:
    said = with_law_refs("Not allowed: you must head the trick <now> (L3-PLAY-03: Peel p.20; Enquire Within §97.v)")
    assert said.startswith("Not allowed: you must head the trick &lt;now&gt; (<details")
    assert said.endswith("</details>)") and "Peel p.20" not in said
    assert with_law_refs("A-1 and XX-99 are not laws") == "A-1 and XX-99 are not laws"
    assert law_ref_html("XX-99") == "<code>XX-99</code>", "an unknown ID shown, not a failed page"


def test_the_why_list_and_a_refusal_at_the_table_cite_laws_with_the_one_helper() -> None:
    from widgets.table.model import TableModel
    from widgets.views.table_view import TableView

    view = TableView(TableModel("three-card-loo", preset="enquire-within", rng=random.Random(4)))
    view._explain()
    why = view._explained.value
    assert why.count('<details class="loo-law">') >= 2 and "Enquire Within" in why
    assert not re.search(r"\([A-Z0-9-]+: [^)]*\)", why), "no ID-and-codes citation left in brackets"
    refused = next((a for a in view.model.hand.explain() if not a.legal and a.action.seat == view.model.seat), None)
    if refused is not None:
        view.say(view.model.why(refused.action))
        assert '<details class="loo-law">' in view._status.value


def test_the_rules_tab_begins_with_the_rules_in_brief() -> None:
    from widgets.table.model import TableModel
    from widgets.views.rules_picker import RulesPicker

    picker = RulesPicker(TableModel("nap", preset="hoffmann", rng=random.Random(1)))
    first = picker.children[0]
    assert (
        "Napoleon" in first.value and "the rules in brief" in first.value and "Nap is a bid of all five" in first.value
    )
    picker.model.new_game("domino-rounce")
    assert "start on 15" in picker.children[0].value, "a new game's rules when the game changes"


def test_later_visits_fold_the_minute_on_both_kinds_of_page() -> None:
    """The server's pages (the Voila template) and the in-browser pages (FOLD_SCRIPT) remember the minute
    was shown by the same key, and neither folds it for a short window."""
    template = TEMPLATE.read_text()
    assert MINUTE_KEY in template and MINUTE_KEY in FOLD_SCRIPT
    minute_part = template[template.index(MINUTE_KEY) :]
    assert "innerHeight" not in minute_part[: minute_part.index("})();")]
    assert "innerHeight" not in FOLD_SCRIPT
    keys = KEYS.read_text()
    assert 'e.key === "Escape"' in keys and "details.loo-law[open]" in keys, "Escape closes a law's panel"


def test_the_single_is_told_in_plain_words_with_its_laws_as_references() -> None:
    from widgets.table.model import TableModel
    from widgets.views.opening import opening_html, settled_at_deal, single_sentence

    table = TableModel("three-card-loo", preset="peel", rng=random.Random(0))
    found = settled_at_deal(table)
    assert found is not None
    said = single_sentence(*found, "Ann")
    assert LAW_ID.findall(said) == [] and "single's turn-up" in said
    html = opening_html(table)
    assert 'Single\'s<span class="loo-opening-break"> </span>turn-up' in html, "named as the single's"
    assert ">Turn-up<" not in html, "never a bare Turn-up beside the hand's own"
    assert html.count('<details class="loo-law">') >= 2 and "L3-SGL-01" in html
    # on a phone the same sentence is folded under a line saying what the single came to
    brief = re.search(r'<details class="loo-opening-brief"><summary>(.*?)</summary>(.*?)</details>$', html[:-6], re.S)
    assert brief, html
    _record, line = found
    taker = next((n for n, amount in line.net.items() if amount > 0), None)
    assert ("took" if taker else "everyone paid") in brief[1] and "The single:" in brief[1]
    assert escape(said) in brief[2] and escape(said) in html.split('<details class="loo-opening-brief">')[0]


@pytest.mark.parametrize("game", NAMES)
def test_each_server_table_page_shows_its_minute_beside_its_heading(game: str) -> None:
    """The table notebook displays its own game's minute in the cell the template lays out (tagged
    loo-minute), between the heading's cell and the introduction's, before the table's."""
    import json

    cells = json.loads((ROOT / "book/tables" / f"{game}.ipynb").read_text())["cells"]
    kinds = [(c["cell_type"], c["metadata"].get("tags", [])) for c in cells]
    at = kinds.index(("code", ["loo-minute"]))
    assert kinds[at - 1][0] == "markdown" and "".join(cells[at - 1]["source"]).startswith("# ")  # the heading
    assert "".join(cells[at + 1]["source"]).startswith('<details class="loo-intro"')  # then the introduction
    assert "table_for_request" in "".join(cells[at + 2]["source"])  # then the table
    assert f'display(HTML(minute_html("{game}")))' in "".join(cells[at]["source"])
    template = TEMPLATE.read_text()
    assert ".celltag_loo-minute" in template and "grid-column: 2" in template
