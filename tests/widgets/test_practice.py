"""The practice shelf and the progress figures (issue 31, points 2 and 3): widgets.table.practice."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from loo.core.actions import Action
from loo.core.estimates import Estimate
from loo.records import load
from loo.review import Decision, HandReview, review
from tests.engine.test_review import THROWN_UP
from widgets.table import practice
from widgets.table.journal import MemoryJournals
from widgets.table.model import TableModel
from widgets.table.practice import CLEARED, MOST_HANDS, MOST_ITEMS, Item, Shelf, kind_of, solved, weighed


def hand(seed: int, *decisions: tuple[str, Any, str, float]) -> tuple[Any, HandReview]:
    """A three-card hand dealt from ``seed`` and a review of Ann's decisions in it, made up: each
    (verb, value, verdict, chips given up), the i-th at the record's action i."""
    record = load(json.dumps({**THROWN_UP, "deal": {"seed": seed}, "actions": []}))
    made = tuple(
        Decision(
            i,
            0,
            Action(0, verb, value),
            Action(0, "declare", "stand"),
            Estimate(Action(0, verb, value), lost, lost - 0.3, lost + 0.3),
            verdict,
            None,
            300,
        )
        for i, (verb, value, verdict, lost) in enumerate(decisions)
    )
    return record, HandReview(made, 1.0)


def test_a_weighed_hand_puts_its_graded_decisions_on_the_shelf_and_its_figures_by_kind() -> None:
    record, done = hand(
        5,
        ("declare", "miss", "mistake", 1.2),
        ("declare", "throw", "good", 0.05),
        ("declare", "stand", "inaccuracy", 0.3),
        ("declare", "throw", "too close to call", 0.4),
    )
    shelf = Shelf().changed(weighed(record, done))
    assert [(i.verdict, i.chosen) for i in shelf.items] == [
        ("mistake", {"seat": 0, "declare": "miss"}),
        ("inaccuracy", {"seat": 0, "declare": "stand"}),
    ]
    first = shelf.items[0]
    assert first.record["actions"] == [] and first.seat == 0 and first.best == {"seat": 0, "declare": "stand"}
    assert shelf.items[1].record["actions"] == list(record.to_json()["actions"])[:2]
    (figures,) = shelf.hands["three-card-loo"]
    # only what was given up beyond doubt counts: the good and the undecided choices gave up nothing
    assert figures.kinds == {"exchange": (1, 1.2), "declare": (3, 0.3)}
    assert figures.decisions == 4 and figures.given_up == pytest.approx(1.5)


def test_the_worst_grade_comes_first_then_the_most_given_up() -> None:
    shelf = Shelf()
    for seed, verdict, lost in [(1, "inaccuracy", 0.9), (2, "blunder", 2.0), (3, "mistake", 1.1), (4, "blunder", 3.0)]:
        shelf = shelf.changed(weighed(*hand(seed, ("declare", "throw", verdict, lost))))
    assert [(i.verdict, i.lost) for i in shelf.items] == [
        ("blunder", 3.0),
        ("blunder", 2.0),
        ("mistake", 1.1),
        ("inaccuracy", 0.9),
    ]


def test_the_shelf_keeps_the_costliest_twenty_and_the_last_hands_of_each_game() -> None:
    shelf = Shelf()
    for seed in range(MOST_HANDS + 10):
        verdict = "mistake" if seed % 2 else "inaccuracy"
        shelf = shelf.changed(weighed(*hand(seed, ("declare", "throw", verdict, 0.5 + seed / 100))))
    assert len(shelf.items) == MOST_ITEMS
    # the inaccuracies went first: the list keeps them only while it is short
    assert {i.verdict for i in shelf.items} == {"mistake"}
    assert [i.lost for i in shelf.items] == sorted((i.lost for i in shelf.items), reverse=True)
    kept = shelf.hands["three-card-loo"]
    assert len(kept) == MOST_HANDS
    assert kept[-1].kinds["declare"][1] == pytest.approx(0.5 + (MOST_HANDS + 9) / 100)  # the latest is last
    assert kept[0].kinds["declare"][1] == pytest.approx(0.5 + 10 / 100)  # and the oldest went


def test_a_hand_weighed_twice_counts_once_and_the_same_position_is_kept_once() -> None:
    change = weighed(*hand(5, ("declare", "throw", "mistake", 1.0)))
    shelf = Shelf().changed(change).changed(change)
    assert len(shelf.items) == 1 and len(shelf.hands["three-card-loo"]) == 1


def test_answered_well_takes_the_position_off_and_clearing_forgets_everything() -> None:
    shelf = Shelf()
    for seed in (1, 2):
        shelf = shelf.changed(weighed(*hand(seed, ("declare", "throw", "mistake", seed))))
    first, second = shelf.items
    after = shelf.changed(solved(first))
    assert after.items == (second,) and after.hands == shelf.hands
    assert after.changed(solved(first)) == after  # already off: nothing changes
    assert not shelf.changed(CLEARED) and Shelf().changed(CLEARED) == Shelf()


def test_the_shelf_goes_to_json_and_back_as_it_was() -> None:
    shelf = Shelf()
    for seed in range(6):
        shelf = shelf.changed(
            weighed(*hand(seed, ("declare", "miss", "blunder", 2 + seed), ("declare", "throw", "good", 0.0)))
        )
    text = json.dumps(shelf.to_json())
    again = Shelf.from_json(json.loads(text))
    assert again == shelf and json.dumps(again.to_json()) == text
    assert Shelf.from_json(None) == Shelf()
    # a change goes through JSON as a journal event does, and does the same
    change = weighed(*hand(9, ("play", "AS", "mistake", 0.7)))
    assert shelf.changed(json.loads(json.dumps({"type": practice.PRACTICE, **change}))) == shelf.changed(change)


def test_a_change_the_shelf_cannot_read_is_refused() -> None:
    shelf = Shelf().changed(weighed(*hand(5, ("declare", "throw", "mistake", 1.0))))
    item = shelf.items[0].to_json()
    figures = {"hand": "x", "kinds": {}}
    for bad in (
        {"type": practice.PRACTICE},
        {"solved": 3},
        {"weighed": {"game": "three-card-loo", "hand": {"hand": "x", "kinds": {"bid": [1, 0.0]}}, "items": []}},
        {"weighed": {"game": "three-card-loo", "hand": figures, "items": [{**item, "verdict": "good"}]}},
        {"weighed": {"game": "three-card-loo", "hand": figures, "items": [{**item, "seat": "0"}]}},
    ):
        with pytest.raises((ValueError, KeyError)):
            shelf.changed(bad)
    assert Item.from_json(item) == shelf.items[0]


def test_each_verb_is_a_kind_of_decision() -> None:
    assert kind_of("declare", "stand") == kind_of("declare", "throw") == kind_of("for-pool", True) == "declare"
    assert kind_of("declare", "miss") == kind_of("exchange", ()) == kind_of("take-turnup", "AS") == "exchange"
    assert kind_of("call", "nap") == "call" and kind_of("play", "AS") == "play"


def test_a_real_review_of_a_thrown_up_hand_goes_on_the_shelf() -> None:
    record = load(json.dumps(THROWN_UP))
    shelf = Shelf().changed(weighed(record, review(record, [0])))
    (item,) = shelf.items
    assert item.chosen == {"seat": 0, "declare": "throw"} and item.best == {"seat": 0, "declare": "stand"}
    assert item.verdict in ("mistake", "blunder") and item.lost > 0
    assert load(json.dumps(item.record)).actions == ()  # the position: the deal, before Ann's declaration


# ----- kept by a table: its journal's events, saved where the game is -------------------------------


def test_the_shelf_is_saved_with_the_table_survives_a_new_game_and_comes_back_from_the_journal() -> None:
    journals = MemoryJournals()
    table = TableModel("three-card-loo", seed=1, rng=random.Random(1))
    table_id = journals.new_table("three-card-loo")
    assert table.attach(journals, table_id)
    first, second = (weighed(*hand(seed, ("declare", "throw", "mistake", seed))) for seed in (1, 2))
    assert table.practise(first) and table.practise(second)
    assert [i.lost for i in table.practice.items] == [2.0, 1.0]
    assert TableModel.resume(journals, table_id).practice == table.practice  # a reload rebuilds it
    assert table.new_game()  # the store forgets the last game's events; the start event carries the shelf
    assert journals.load(table_id).events[0]["type"] == "start"
    assert len(journals.load(table_id).events) <= 2
    kept = table.practice
    assert kept.items and TableModel.resume(journals, table_id).practice == kept
    assert table.practise(solved(kept.items[0]))  # answered well: off the list, and saved so
    assert [i.lost for i in TableModel.resume(journals, table_id).practice.items] == [1.0]
    assert table.import_record(json.dumps(THROWN_UP))  # a loaded record begins a new game too
    assert TableModel.resume(journals, table_id).practice == table.practice
    assert table.practise(CLEARED)
    resumed = TableModel.resume(journals, table_id)
    assert resumed.practice == Shelf() and resumed.hand.actions == table.hand.actions


def test_a_table_without_a_shelf_starts_as_it_did() -> None:
    """A start event carries no shelf while there is none: a table's journal is as before."""
    table = TableModel("three-card-loo", seed=1, rng=random.Random(1))
    assert practice.PRACTICE not in table.journal[0] and not table.practice
