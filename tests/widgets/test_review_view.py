"""The Review tab weighs the reader's own decisions once the hand is over (issue 31)."""

from __future__ import annotations

import json
import random

from tests.engine.test_review import THROWN_UP
from widgets.table.model import TableModel
from widgets.views.live_table import LiveTable


def test_the_review_tab_names_a_thrown_up_hand_that_should_have_stood_with_chips_and_why() -> None:
    table = LiveTable(TableModel("three-card-loo", seed=1, rng=random.Random(1)))
    assert table._weigh_button is None  # built when the Review tab is first opened
    table.tabs.selected_index = 1
    step, weigh = table._review_controls()
    assert weigh.disabled and step.disabled  # nothing to weigh while a hand is in play
    assert table.model.import_record(json.dumps(THROWN_UP))  # Ann threw up two trumps and a king
    moves = 0
    while not table.model.hand.is_over and moves < 30:  # Ann is out: the others finish the hand
        table.model.act(table.model.legal()[0])
        moves += 1
    assert table.model.hand.is_over and not weigh.disabled
    weigh.click()
    said = table._weighed.value
    assert "Your decisions, weighed" in said and "The best was Stand" in said, said
    assert "a mistake" in said or "a blunder" in said
    assert "L3-DECL-02" in said and "gave up about" in said
    assert "loo-review-costliest" in said
    assert table._review.children, "the hand's steps open at the costliest decision"
    steps = table._review.children[0]  # the step viewer opens at Ann's throw, saying what it gave up
    shown = " ".join(output["data"]["text/html"] for output in steps.outputs)
    assert "Your decision here, weighed: Throw up" in shown and "The best was Stand" in shown, shown
    table.model.new_hand()  # the next hand: the last one's weighing goes
    assert table._weighed.value == "" and weigh.disabled

