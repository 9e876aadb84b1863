"""The table view driven by clicks, as a reader would, for every game; and after every click no
widget's synced state holds a card or tile the reader's seat may not see."""

from __future__ import annotations

import random
from collections.abc import Iterator

import ipywidgets as ipw
import pytest

from loo.cards import Card, full_pack
from loo.tiles import full_set
from widgets.board import piece_label
from widgets.model import TableModel
from widgets.table_view import TableView

GAMES = [
    ("three-card-loo", "peel"),
    ("three-card-loo", "britannica"),
    ("five-card-loo", "pam"),
    ("irish-loo", "irish"),
    ("nap", "hoffmann"),
    ("domino-loo", "celko"),
]


def walk(widget: ipw.Widget) -> Iterator[ipw.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def state_text(view: TableView) -> str:
    return repr([w.get_state() for w in walk(view)])


def visible_to_reader(table: TableModel) -> set[object]:
    v = table.view()
    seen: set[object] = set(v.hand or ())
    seen |= {c for t in v.tricks for _, c in t.plays} | {c for _, c in v.current}
    turnup = getattr(v, "turnup", None)
    if turnup is not None:
        seen.add(turnup)
    return seen


def forms(piece: object) -> list[str]:
    """How a piece could show up in a widget's state: its name, and its button label for cards."""
    out = [str(getattr(piece, "name", piece))]
    if isinstance(piece, Card):
        out.append(f'aria-label="{piece.name}"')
    return out


def assert_nothing_hidden(view: TableView, table: TableModel) -> None:
    text = state_text(view)
    pieces = full_pack() if table.game not in ("domino-loo", "domino-rounce") else full_set()
    hidden = set(pieces) - visible_to_reader(table)
    leaked = [p for p in hidden if any(f in text for f in forms(p))]
    assert leaked == [], f"hidden pieces reached a widget: {leaked}"


def click_through(view: TableView, rng: random.Random) -> None:
    """Click a random live choice (or, where cards must be picked, pick some and confirm)."""
    live = [b for b in view._choices.children if isinstance(b, ipw.Button) and b.button_style == "primary"]
    if view._picks.children and (not live or rng.random() < 0.5):
        for toggle in view._picks.children[:-1]:
            toggle.value = rng.random() < 0.3
        view._confirm.click()
        if view.model.message:  # too many picked for the stock, say: pick none instead
            for toggle in view._picks.children[:-1]:
                toggle.value = False
            view._confirm.click()
        return
    rng.choice(live).click()


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_whole_hands_by_clicking_with_nothing_hidden_in_any_widget(game: str, preset: str) -> None:
    for seed in range(3):
        table = TableModel(game, preset=preset, seed=seed, rng=random.Random(seed))
        view = TableView(table)
        rng = random.Random(seed)
        steps = 0
        while not table.hand.is_over:
            assert_nothing_hidden(view, table)
            assert "your turn" in view._board.value
            click_through(view, rng)
            steps += 1
            assert steps < 80
        assert_nothing_hidden(view, table)


def test_an_illegal_card_is_marked_and_clicking_it_says_why() -> None:
    table = TableModel("three-card-loo", preset="britannica", seed=1, rng=random.Random(1))
    view = TableView(table)
    from loo.actions import Action

    table.act(Action.declare(0, "stand"))
    marked = [b for b in view._choices.children if "loo-illegal" in b._dom_classes]
    assert marked, "seed 1 gives the reader cards the laws forbid"
    before = table.view()
    marked[0].click()
    assert "(L3-" in view._status.value and "Peel" in view._status.value
    assert table.view() == before


def test_controls_have_labels_and_cards_have_names() -> None:
    table = TableModel("three-card-loo", preset="britannica", seed=2, rng=random.Random(2))
    view = TableView(table)
    for widget in walk(view):
        if isinstance(widget, ipw.Button | ipw.ToggleButton):
            assert widget.description.strip(), "every control has a visible label"
            assert widget.tooltip, "and a longer description"
    assert 'aria-label="your hand:' in view._board.value  # declaring: the hand is drawn on the board
    assert piece_label(Card.parse("10H")) == "10♥"


def test_undo_and_hint_buttons() -> None:
    table = TableModel("three-card-loo", preset="britannica", seed=5, rng=random.Random(5))
    view = TableView(table)
    assert view._undo.disabled
    first = table.view()
    next(b for b in view._choices.children if b.button_style == "primary").click()
    assert not view._undo.disabled or table.hand.is_over
    view._undo.click()
    assert table.view() == first
    view._hint.click()
    assert "strong player would choose" in view._status.value
