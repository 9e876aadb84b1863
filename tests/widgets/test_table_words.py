"""Issue 20's details at a live table, without a browser: only choices the table has, pieces named in
words, each law cited once in one pair of brackets, the trumps named, the table drawn round a cloth."""

from __future__ import annotations

import random
import re

import pytest

from loo.core.actions import Action
from loo.core.tiles import NUMBER_PLURALS
from widgets.draw.table_board import miss_words, places
from widgets.table.model import TableModel
from widgets.table.table_words import cited
from widgets.views.table_view import TableView

CARD_CODE = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b")
TILE_CODE = re.compile(r"\b[0-6]-[0-6]\b")


def table(game: str, seed: int = 1, **kw: object) -> TableView:
    return TableView(TableModel(game, seed=seed, rng=random.Random(seed), **kw))  # type: ignore[arg-type]


def shown_text(view: TableView) -> str:
    return view._unavailable.value + view._explained.value + view._status.value


@pytest.mark.parametrize(
    ("game", "missing"),
    [("five-card-loo", "Take the miss"), ("irish-loo", "Take the miss"), ("nap", "Misery"), ("nap", "Wellington")],
)
def test_a_choice_the_table_does_not_have_is_never_listed(game: str, missing: str) -> None:
    view = table(game)
    assert view.model.legal(), "the reader has a choice to make"
    view._why.click()
    assert f"<b>{missing}</b>" not in shown_text(view)
    assert "There is no miss" not in shown_text(view) and "does not play" not in shown_text(view)
    assert missing not in {b.description for b in view._choices.children}


def test_a_choice_closed_now_is_still_listed_with_its_reason() -> None:
    view = table("three-card-loo", seed=3)  # Cat has taken the miss before the reader's turn
    assert "<b>Take the miss</b>: not now. The miss has already been taken by Cat" in view._unavailable.value


@pytest.mark.parametrize("game", ["three-card-loo", "nap", "domino-loo"])
def test_why_names_every_piece_in_words_and_cites_each_law_once(game: str) -> None:
    view = table(game, seed=2)
    rng = random.Random(2)
    for _ in range(12):  # on into the play, where the reasons name cards and tiles
        legal = [b for b in view._choices.children if b.button_style == "primary"]
        if view.model.hand.is_over or not legal or (view.model.view().current and view.model.view().hand):
            break
        rng.choice(legal).click()
    view._why.click()
    text = view._explained.value
    assert text.count("<li>") >= 2
    assert not CARD_CODE.search(text) and not TILE_CODE.search(text), text
    assert "((" not in text and "))" not in text and "[[" not in text
    # A refused card says why in the same words.
    wrong = [b for b in view._choices.children if "loo-illegal" in b._dom_classes]
    if wrong:
        wrong[0].click()
        said = view._status.value
        assert "Not allowed" in said and not CARD_CODE.search(said) and not TILE_CODE.search(said)
        # the law cited once, in one pair of brackets around its reference (whose panel has words of its own)
        words = re.sub(r"<details.*?</details>", "LAW", said, flags=re.S)
        assert "((" not in words and words.count("(") == words.count(")") == 1 and words.count("LAW") == 1, words


def test_a_law_is_cited_with_its_sources_in_one_pair_of_brackets() -> None:
    assert cited("L3-PLAY-02").startswith("L3-PLAY-02: Peel p.20")
    assert "(" not in cited("L3-PLAY-02") and ")" not in cited("L3-PLAY-02")


def test_domino_choice_buttons_name_their_tile_in_full_and_differ() -> None:
    view = table("domino-loo")
    hand = view.model.view().hand
    assert hand
    seat = view.model.seat
    buttons = [view._button(Action(seat, "take-turnup", tile), legal=True, pam=None) for tile in hand]
    names = [b.description for b in buttons]
    assert len(set(names)) == len(names)
    for button, tile in zip(buttons, hand, strict=True):
        assert button.description == f"Take the turn-up, discard the {tile.name}"
        assert not TILE_CODE.search(button.description)


@pytest.mark.parametrize("game", ["three-card-loo", "domino-loo"])
def test_the_board_names_the_trumps_and_the_miss_in_words(game: str) -> None:
    view = table(game)
    turnup = view.model.view().turnup  # type: ignore[attr-defined]
    board = view._board.value
    named = turnup.suit.plural if game == "three-card-loo" else NUMBER_PLURALS[turnup.high]  # DL-DEAL-04
    assert f"Trumps: <b>{named}</b>" in board
    assert "1 miss face down" not in board and "misses face down" not in board
    assert 'class="loo-felt loo-round"' in board and "loo-at-bottom" in board


def test_the_miss_in_words() -> None:
    assert miss_words(1, tiles=True) == "1 spare hand face down"
    assert miss_words(3, tiles=False) == "3 cards face down"


def test_the_other_seats_sit_round_the_cloth_in_the_order_they_play() -> None:
    for seats in range(2, 11):
        for seat in range(seats):
            at = places(seats, seat)
            order = [*at["left"], *at["top"], *at["right"]]
            assert order == [(seat + k) % seats for k in range(1, seats)]


def test_an_exchange_is_made_by_clicking_the_cards_themselves() -> None:
    view = table("five-card-loo")
    stand = next(b for b in view._choices.children if b.description == "Stand")
    stand.click()
    toggles = [b for b in view._picks.children if "loo-pick" in b._dom_classes]
    hand = view.model.view().hand
    assert hand and [t.description for t in toggles] == [card.name for card in hand]
    assert all("loo-card-button" in t._dom_classes for t in toggles)
    toggles[0].value = True
    view._confirm.click()
    assert view.model.view().put_out == (hand[0],)
