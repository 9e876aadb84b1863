"""The Review tab's practice (issue 31, points 2 and 3): a reviewed mistake comes back as a question, and
answering it well takes it off the list; a wrong answer keeps it there. Progress is drawn per game."""

from __future__ import annotations

import json
import random
from typing import Any

from loo.records import load
from tests.engine.test_review import THROWN_UP
from widgets.table.journal import MemoryJournals
from widgets.table.model import TableModel
from widgets.table.practice import HandFigures, Shelf
from widgets.views.live_table import REVIEW_TAB, LiveTable
from widgets.views.practice_view import PracticeView, progress_html
from widgets.views.review_view import weigh_hand


def thrown_up_table() -> tuple[TableModel, MemoryJournals, str]:
    """A saved table where Ann has thrown up a hand that should have stood, and the hand is over."""
    journals = MemoryJournals()
    model = TableModel("three-card-loo", seed=1, rng=random.Random(1))
    table_id = journals.new_table("three-card-loo")
    assert model.attach(journals, table_id)
    assert model.import_record(json.dumps(THROWN_UP))
    while not model.hand.is_over:  # Ann is out: the others finish the hand
        model.act(model.legal()[0])
    return model, journals, table_id


def weighed_view() -> tuple[PracticeView, TableModel, MemoryJournals, str, list[str]]:
    model, journals, table_id = thrown_up_table()
    said: list[str] = []
    view = PracticeView(model, said.append)
    assert "Practise your mistakes (0)" in view._title.value
    record = load(json.dumps(model.record()))
    view.weighed(record, weigh_hand(record, model.seat))
    return view, model, journals, table_id, said


def picks(view: PracticeView) -> dict[str, Any]:
    return {b.description: b for b in view._picks.children}


def test_a_reviewed_mistake_comes_back_as_a_question_and_a_wrong_answer_keeps_it() -> None:
    view, model, journals, table_id, said = weighed_view()
    assert "Practise your mistakes (1)" in view._title.value
    assert "What would you do? You are Ann" in view._question.value and "<svg" in view._question.value
    buttons = picks(view)
    assert set(buttons) == {"Stand", "Take the miss", "Throw up"}, set(buttons)
    buttons["Throw up"].click()  # the same mistake again
    answer = view._answer.value
    assert "You chose throw up" in answer and "it costs" in answer and "stays on your list" in answer, answer
    assert "Verdict:" in answer and "Stand is the best choice" in answer
    assert all(b.disabled for b in buttons.values())
    assert len(model.practice.items) == 1 and "Practise your mistakes (1)" in view._title.value
    assert view._replay.children, "the best line is replayed"
    assert view._next.layout.display == ""  # to try it, or the next, again
    view._next.click()
    assert view._answer.value == "" and not any(b.disabled for b in picks(view).values())
    assert len(TableModel.resume(journals, table_id).practice.items) == 1
    assert not said


def test_answering_a_mistake_well_takes_it_off_the_list_and_the_journal_says_so() -> None:
    view, model, journals, table_id, said = weighed_view()
    picks(view)["Stand"].click()
    answer = view._answer.value
    assert "You chose stand: the best choice" in answer and "comes off your list" in answer, answer
    assert model.practice.items == () and "Practise your mistakes (0)" in view._title.value
    assert view._replay.children and view._next.layout.display == "none"
    resumed = TableModel.resume(journals, table_id)  # a reload: the list is empty, the progress kept
    assert resumed.practice.items == () and len(resumed.practice.hands["three-card-loo"]) == 1
    again = PracticeView(resumed, said.append)
    assert "Practise your mistakes (0)" in again._title.value and "answered well" in again._question.value
    assert "Hands reviewed: 1" in again._progress.value
    assert not said


def test_clearing_asks_first_and_then_forgets_the_list_and_the_progress() -> None:
    view, model, journals, table_id, _said = weighed_view()
    assert view._clear.layout.display == "" and view._confirm.layout.display == "none"
    view._clear.click()
    assert view._confirm.layout.display == "" and "cannot be brought back" in view._warning.value
    view._keep.click()
    assert view._confirm.layout.display == "none" and model.practice.items
    view._clear.click()
    view._yes.click()
    assert model.practice == Shelf() and TableModel.resume(journals, table_id).practice == Shelf()
    assert "Practise your mistakes (0)" in view._title.value and view._clear.layout.display == "none"
    assert "No hand reviewed yet" in view._progress.value


def test_progress_is_a_chart_of_the_last_hands_with_each_kind_of_decisions_average() -> None:
    hands = tuple(
        HandFigures(f"h{i}", {"declare": (1, 1.0 if i < 3 else 0.0), "play": (3, 0.6 if i < 3 else 0.3)})
        for i in range(8)
    )
    html = progress_html(Shelf((), {"three-card-loo": hands}), "three-card-loo", "chips")
    assert "Hands reviewed: 8" in html
    assert '<svg class="loo-progress-chart"' in html and 'role="img"' in html
    assert "<title" in html and "<desc" in html and "oldest to latest" in html and "chips a decision" in html
    assert html.count("<circle") == 8
    assert "0.40, 0.40, 0.40, 0.07" in html  # (1 + 0.6) / 4 a decision, then 0.3 / 4
    assert "Standing or throwing up</th><td>8</td><td>0.38</td><td>0.00</td>" in html  # 3 chips over 8; none lately
    assert "Playing a card or tile</th><td>24</td><td>0.14</td><td>0.10</td>" in html  # 3.3 over 24
    assert "Calling" not in html  # no decision of that kind made
    other = progress_html(Shelf((), {"three-card-loo": hands}), "nap", "chips")
    assert "No hand reviewed yet" in other and "<svg" not in other


def test_the_review_tab_puts_a_weighed_mistake_on_the_list_and_a_good_answer_takes_it_off() -> None:
    model, journals, table_id = thrown_up_table()
    table = LiveTable(model)
    table.tabs.selected_index = REVIEW_TAB
    _step, weigh = table._review_controls()
    view = table.practice
    assert view is not None and view in table._review_tab.children
    assert "Practise your mistakes (0)" in view._title.value
    weigh.click()  # no event loop here: weighed at once
    assert "Practise your mistakes (1)" in view._title.value
    assert "Hands reviewed: 1" in view._progress.value
    picks(view)["Stand"].click()
    assert "comes off your list" in view._answer.value and model.practice.items == ()
    assert TableModel.resume(journals, table_id).practice.items == ()


def test_a_shared_tables_seat_has_no_practice_list() -> None:
    table = LiveTable(TableModel("three-card-loo", seed=1, rng=random.Random(1)), shared=True)
    table._review_controls()
    assert table.practice is None
