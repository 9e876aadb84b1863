"""The live table's model, driven as a reader would: every game, refusals with their law, undo,
hints, and nothing hidden reaching the reader."""

from __future__ import annotations

import random

import pytest

from loo.actions import Action
from loo.cards import full_pack
from widgets.model import TableModel

GAMES = [
    ("three-card-loo", "peel"),
    ("three-card-loo", "enquire-within"),
    ("three-card-loo", "britannica"),
    ("five-card-loo", "pam"),
    ("irish-loo", "irish"),
    ("nap", "hoffmann"),
    ("domino-loo", "celko"),
    ("domino-rounce", "rounce"),
]


def dealt(seed: int, game: str = "three-card-loo", **kw: object) -> TableModel:
    """A table whose hand is in play: Peel's first deal into an empty pool is a single, settled as dealt."""
    table = TableModel(game, seed=seed, rng=random.Random(seed), **kw)  # type: ignore[arg-type]
    if table.hand.is_over:
        assert table.new_hand(seed)
    return table


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_whole_hands_of_every_game_through_the_model(game: str, preset: str) -> None:
    for seed in range(6):
        table = TableModel(game, preset=preset, seed=seed, rng=random.Random(seed))
        chooser = random.Random(seed + 100)
        steps = 0
        while not table.hand.is_over:
            view = table.view()
            assert view.to_act == 0 and table.legal(), "the model waits only for the reader"
            # The reader's view holds its own pieces, never another seat's.
            if view.hand is not None:
                assert set(view.hand) == set(table.hand.holding(0))
            assert table.seed is None and table.record() is None  # nothing that reveals the deal
            assert table.act(chooser.choice(table.legal()))
            steps += 1
            assert steps < 60
        assert table.seed == seed and table.record() is not None


def test_same_deal_code_same_deal() -> None:
    a = TableModel("three-card-loo", preset="britannica", seed=77, rng=random.Random(1))
    b = TableModel("three-card-loo", preset="britannica", seed=77, rng=random.Random(2))
    assert a.view().hand == b.view().hand and a.view().turnup == b.view().turnup


def test_an_illegal_action_is_refused_with_its_law_and_source_and_changes_nothing() -> None:
    table = dealt(1)
    table.act(Action.declare(0, "stand"))
    while table.legal() and table.legal()[0].verb == "declare":
        table.act(table.legal()[0])
    assert not table.hand.is_over, "seed 1 reaches the play"
    before = (table.view(), table.version)
    held = table.view().hand
    assert held is not None
    wrong = [Action.play(0, c) for c in held if Action.play(0, c) not in table.legal()]
    assert wrong, "this position has cards the laws forbid"
    stranger = next(c for c in full_pack() if c not in held)
    assert not table.act(Action.play(0, stranger))
    assert "does not hold" in table.message and "(L3-" in table.message
    assert table.view() == before[0]
    for action in wrong:
        assert not table.act(action)
        assert "(L3-PLAY-" in table.message or "(L3-LEAD-" in table.message


def test_an_action_for_another_seat_is_refused_plainly() -> None:
    table = TableModel("nap", seed=4)
    assert not table.act(Action(1, "call", "pass"))
    assert "another seat" in table.message


def test_undo_takes_back_the_readers_move_and_the_bots_replies() -> None:
    table = dealt(8)
    start = table.view()
    assert not table.can_undo and not table.undo()
    table.act(table.legal()[0])
    assert table.can_undo
    assert table.undo()
    assert table.view() == start and table.message == "Taken back."


def test_why_explains_with_the_law_and_its_source() -> None:
    table = dealt(8)
    text = table.why(Action.declare(0, "stand"))
    assert text.startswith("Allowed:") and "L3-DECL-02" in text


def test_a_hint_is_a_legal_action_with_its_expected_value() -> None:
    table = dealt(9)
    hint = table.hint()
    assert hint is not None and hint[0] in table.legal() and isinstance(hint[1], float)


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="not at this table"):
        TableModel("nap", seat=7)
