"""New game and Play this deal ask before they replace the game in play, and offer to undo it after
(issue 27, point 6): the question says what would go, Keep playing changes nothing, and Undo brings
back the game as it was, in the model and in the store (the server's database, or the browser's)."""

from __future__ import annotations

import random

import ipywidgets as ipw

from loo.core.protocols import View
from tests.server.test_store import same_game, store  # noqa: F401 (store: the fixture of each home of a table)
from widgets.table.journal import Journals
from widgets.table.model import TableModel
from widgets.table.saving import NOTHING_TO_RESTORE, RESTORED_MESSAGE
from widgets.views.live_table import LiveTable
from widgets.views.replacing import REPLACED, at_stake
from widgets.views.table_view import TableView


def played(model: TableModel, moves: int, seed: int = 0) -> TableModel:
    """``model`` after ``moves`` of the reader's (dealing on when a hand ends)."""
    rng = random.Random(seed)
    for _ in range(moves):
        if model.hand.is_over:
            model.new_hand()
        else:
            model.act(rng.choice(model.legal()))
    return model


def copy_of(model: TableModel) -> TableModel:
    return TableModel(journal=[dict(e) for e in model._history], rng=random.Random(0))


def shown(row: ipw.HBox) -> bool:
    return row.layout.display is None


def test_a_new_game_is_undone_to_the_game_as_it_was(store: Journals) -> None:  # noqa: F811
    table_id = store.new_table("three-card-loo")
    model = TableModel("three-card-loo", preset="peel", seed=4, rng=random.Random(4))
    model.attach(store, table_id)
    played(model, 9)
    before, view = copy_of(model), model.view()
    assert model.records and not model.can_restore
    assert model.new_game()
    assert model.can_restore and model.view() != view and model.records != before.records
    assert model.restore_replaced() and model.message.startswith(RESTORED_MESSAGE)
    same_game(model, before)
    same_game(TableModel.resume(store, table_id), before)  # saved: a reload finds the old game
    assert not model.can_restore and not model.restore_replaced() and NOTHING_TO_RESTORE in model.message
    # the game goes on from where it was, and is saved as it goes
    played(model, 3, seed=1)
    same_game(TableModel.resume(store, table_id), model)


def test_a_deal_code_is_undone_too_until_the_first_move_in_the_new_game(store: Journals) -> None:  # noqa: F811
    table_id = store.new_table("nap")
    model = TableModel("nap", seed=2, rng=random.Random(2))
    model.attach(store, table_id)
    played(model, 4)
    before = copy_of(model)
    assert model.play_code("dl.celko.s0.n77") and model.game == "domino-loo"
    assert model.restore_replaced()
    same_game(model, before)
    same_game(TableModel.resume(store, table_id), before)
    assert model.play_code("dl.celko.s0.n77")
    assert model.act(model.legal()[0])  # the reader plays on in the new game: the old one is let go
    assert not model.can_restore and not model.restore_replaced()
    assert TableModel.resume(store, table_id).game == "domino-loo"


def test_new_game_asks_saying_what_goes_and_keep_playing_changes_nothing() -> None:
    view = TableView(played(TableModel("three-card-loo", preset="britannica", seed=5, rng=random.Random(5)), 8))
    model, replacing = view.model, view._replacing
    hands = len(model.records)
    assert hands and not shown(replacing.ask_row) and not shown(replacing.undo_row)
    view._new_game.click()
    words = replacing._asked.value
    assert shown(replacing.ask_row) and "Start a new game? This game goes" in words
    assert f"the ledger of {hands} finished hand" in words and "chips" in words and "undo" in words
    replacing._no.click()
    assert not shown(replacing.ask_row) and len(model.records) == hands
    view._new_game.click()
    replacing._yes.click()
    assert model.records == [] and "new game" in view._status.value
    assert shown(replacing.undo_row) and REPLACED in replacing._done.value
    replacing._undo.click()
    assert len(model.records) == hands and not shown(replacing.undo_row)
    assert RESTORED_MESSAGE in view._status.value


def test_play_this_deal_asks_before_it_replaces_and_refuses_a_bad_code_at_once() -> None:
    table = LiveTable(played(TableModel("nap", seed=3, rng=random.Random(3)), 3))
    codes, model = table.codes, table.model
    start: View = model.view()
    codes._code.value = "nonsense"
    codes._play.click()
    assert "cannot be used" in codes._status.value and not shown(codes._replacing.ask_row)
    codes._code.value = "nap.hoffmann.s0.n7"
    codes._play.click()
    assert shown(codes._replacing.ask_row) and "Play this deal as a new game?" in codes._replacing._asked.value
    assert model.view() == start  # nothing changed until the reader says yes
    codes._replacing._yes.click()
    assert str(model.deal_code()) == "nap.hoffmann.s0.n7" and shown(codes._replacing.undo_row)
    assert not shown(table.table._replacing.undo_row)  # the undo is offered where the game was replaced
    codes._replacing._undo.click()
    assert model.view() == start and not shown(codes._replacing.undo_row)


def test_a_game_with_nothing_to_lose_is_replaced_without_asking_and_can_still_be_undone() -> None:
    view = TableView(TableModel("domino-loo", seed=5, rng=random.Random(5)))
    start = view.model.view()
    assert at_stake(view.model) == ""
    view._new_game.click()
    assert not shown(view._replacing.ask_row) and shown(view._replacing.undo_row)
    view._replacing._undo.click()
    assert view.model.view() == start


def test_what_a_new_game_would_put_away_in_words() -> None:
    model = TableModel("three-card-loo", preset="britannica", seed=5, rng=random.Random(5))
    assert at_stake(model) == ""
    model.act(model.legal()[0])
    if not model.hand.is_over:
        assert at_stake(model) == "the hand in play"
    played(model, 10)
    assert "finished hand" in at_stake(model) and "you stand at" in at_stake(model)
    points = played(TableModel("domino-rounce", seed=2, rng=random.Random(2)), 12)
    if points.records:
        assert "points" in at_stake(points)
