"""The words a reader is shown when a choice is refused or explained (issue 27, point 7): every card or
tile is named with its article ("holds the nine of hearts"), no player is called "he", each game is named
as a sentence names it, and the law each refusal cites is kept."""

from __future__ import annotations

import random
import re

import pytest

from loo.core.actions import Action
from loo.registry import NAMES
from tests.server.test_server import fetch_at_once
from tests.server.test_shared_pages import app
from widgets.server.console import dealt_to
from widgets.table.dealcode import parse_deal_code
from widgets.table.model import TableModel, in_words

# A piece's name straight after a verb or a comma, with no article: "holds nine of hearts", "lead six-three".
_BARE = re.compile(
    r"\b(?:holds|lead|play|plays|with|discard|not|beats?|,)\s+"
    r"(?!the\b|a\b|an\b|any\b|one\b|two\b|three\b|four\b|five\b)"
    r"(?:(?:ace|king|queen|knave|jack|ten|nine|eight|seven|six|five|four|three|two) of \w+|double \w+|\w+-\w+)\b"
)
_HE = re.compile(r"\b(?:he|him|his|himself)\b", re.I)


def _words_of(game: str, seeds: range) -> list[tuple[str, str]]:
    """(law, sentence) for every explanation and every refused play, over random hands of ``game``."""
    said: list[tuple[str, str]] = []
    for seed in seeds:
        rng = random.Random(seed)
        model = TableModel(game, seed=seed + 1, rng=random.Random(seed))
        for _ in range(40):
            if model.hand.is_over:
                model.new_hand()
                continue
            said += [(e.law, in_words(e.reason)) for e in model.hand.explain()]
            for piece in model.view().hand or ():
                action = Action(model.seat, "play", piece)
                refused = model.hand.why_illegal(action)
                if refused is not None:
                    said.append((refused[0], model.why(action)))
            legal = model.legal()
            if not legal:
                break
            model.act(rng.choice(legal))
    return said


@pytest.mark.parametrize("game", NAMES)
def test_refusals_name_pieces_with_their_article_and_no_player_as_he(game: str) -> None:
    said = _words_of(game, range(6))
    assert len(said) > 50
    bare = [s for _law, s in said if _BARE.search(s)]
    assert bare == [], f"a piece named without its article: {bare[:3]}"
    he = [s for _law, s in said if _HE.search(s)]
    assert he == [], f"a player called he: {he[:3]}"
    assert all(re.fullmatch(r"[A-Z0-9]+(?:-[A-Z0-9]+)+", law) for law, _s in said)


def test_a_refused_card_keeps_its_law_and_reads_as_english() -> None:
    said = [s for law, s in _words_of("three-card-loo", range(12)) if law == "L3-PLAY-02" and s.startswith("Not")]
    assert said, "no refusal to follow suit was met"
    assert all(re.search(r"holds the \w+ of \w+", s) and "(L3-PLAY-02" in s for s in said), said[:2]
    tiles = [s for law, s in _words_of("domino-loo", range(6)) if law == "DL-DECL-01" and "tiles" in s]
    assert tiles and all("may play the tiles dealt to them" in s or "their tiles" in s for s in tiles), tiles[:2]


def test_in_words_adds_an_article_only_where_none_is() -> None:
    assert in_words("Ann holds 9H, so 4S may not be played") == (
        "Ann holds the nine of hearts, so the four of spades may not be played"
    )
    assert (
        in_words("the 9H follows; Ann holds the trump 6-3")
        == "the nine of hearts follows; Ann holds the trump six-three"
    )
    assert in_words("QH follows suit") == "the queen of hearts follows suit"


def test_the_teachers_console_counts_its_tables_in_words() -> None:
    code = parse_deal_code("l3.peel.s0.n12345")
    assert dealt_to(code, 1).startswith("The deal l3.peel.s0.n12345 goes to 1 table of three-card Loo:")
    assert "goes to 2 tables of three-card Loo" in dealt_to(code, 2)
    assert "1 tables" not in dealt_to(code, 1)


def test_a_shared_tables_page_names_its_game_as_a_sentence_does(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (form,) = fetch_at_once(app(tmp_path / "t.sqlite3"), ["/tables/three-card-loo/shared"])
    body = form.body.decode()
    assert "Play three-card Loo with others" in body
    assert "three card loo" not in body
