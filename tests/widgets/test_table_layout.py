"""The live table's parts, as issue 27 asks (points 3 and 7): what the reader needs to choose comes
just under the hand, an exchange says what to do, a hint points the keyboard at its choice, and a
domino table offers no option that only means something for cards."""

from __future__ import annotations

import random

import ipywidgets as ipw

from tests.widgets.test_table_view import walk
from widgets.table.model import TableModel
from widgets.views.table_view import TableView


def described(view: TableView) -> set[str]:
    return {w.description for w in walk(view) if isinstance(w, ipw.Checkbox)}


def test_whose_turn_hint_and_why_come_just_under_the_hand_and_the_rest_below() -> None:
    view = TableView(TableModel("three-card-loo", preset="peel", seed=3, rng=random.Random(3)))
    parts = list(view.children)
    near = next(i for i, w in enumerate(parts) if "loo-near" in w._dom_classes)
    assert parts[near - 1] is view._board  # the hand is the cloth's near edge: nothing between them
    assert parts[near + 1] is view._status
    controls = parts[near + 2]
    assert "loo-controls" in controls._dom_classes
    assert {view._hint, view._why, view._undo, view.watching.last} <= set(controls.children)
    later = parts[near + 3 :]
    assert view._unavailable in later and view._records in later and view.watching.summary in later


def test_a_domino_table_offers_no_deck_options_and_a_card_table_does() -> None:
    dominoes = TableView(TableModel("domino-loo", seed=2, rng=random.Random(2)))
    assert described(dominoes) == set()
    assert not any("Four-colour" in str(getattr(w, "description", "")) for w in walk(dominoes))
    cards = TableView(TableModel("nap", seed=2, rng=random.Random(2)))
    assert described(cards) == {"Four-colour deck", "Cards as text"}


def test_an_exchange_says_to_pick_and_then_press_the_button() -> None:
    model = TableModel("five-card-loo", seed=4, rng=random.Random(4))
    view = TableView(model)
    while not view._picks.children:  # stand, until the exchange
        assert not model.hand.is_over
        next(b for b in view._choices.children if b.description == "Stand").click()
    said = view._pick_say.value
    assert view._pick_say.layout.display is None
    assert "Pick the cards to exchange, then press <b>Exchange</b>" in said and "keep them all" in said
    view._confirm.click()  # exchange none
    assert view._pick_say.layout.display == "none"


def test_a_hint_marks_its_choice_for_the_keyboard() -> None:
    """At Nap the first choice is Pass, where the keyboard's focus goes; a hint to call two marks Call 2,
    and the page's script takes the focus there (table-keys.js)."""
    model = TableModel("nap", seed=1, rng=random.Random(1))
    view = TableView(model)
    hint = model.hint()
    assert hint is not None and hint.choice.value == "2"
    assert not any("loo-hinted" in b._dom_classes for b in view._choices.children)
    view._hint.click()
    marked = [b for b in view._choices.children if "loo-hinted" in b._dom_classes]
    assert [b.description for b in marked] == ["Call 2"] and view._by_action[hint.choice] is marked[0]
