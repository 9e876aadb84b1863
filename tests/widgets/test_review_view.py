"""The Review tab weighs the reader's own decisions once the hand is over (issue 31)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

from loo.records import load
from loo.review import HandReview
from tests.engine.test_review import THROWN_UP
from widgets.table.model import TableModel
from widgets.views.live_table import LiveTable
from widgets.views.review_view import weigh_hand, weighing_hand


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


def finished_throw(**kwargs: Any) -> LiveTable:
    """A table whose hand is over: Ann threw up two trumps and a king (THROWN_UP), the others played on."""
    table = LiveTable(TableModel("three-card-loo", seed=1, rng=random.Random(1)), **kwargs)
    table.tabs.selected_index = 1
    assert table.model.import_record(json.dumps(THROWN_UP))
    while not table.model.hand.is_over:
        table.model.act(table.model.legal()[0])
    return table


def test_a_reason_that_names_the_rule_of_thumbs_choice_names_it_in_words() -> None:
    """Ann stood with seed 6's cards, where throwing up was better: the reason says what the rule of thumb
    would have done as the reader's button says it ("stand"), not as the record writes it ("seat 0
    declare stand"), at both of the tab's weighings."""
    stood = {"format": "loo-record/1", "game": "three-card-loo", "seats": ["Ann", "Ben", "Cat"], "dealer": 2,
             "pool": 3, "deal": {"seed": 6}, "actions": [{"seat": 0, "declare": "stand"}]}  # fmt: skip
    record = load(json.dumps(stood))
    for done in (weigh_hand(record, 0), list(weighing_hand(record, 0))[-1]):
        [decision] = done.decisions
        assert decision.verdict in ("mistake", "blunder") and decision.best.value == "throw", decision
        assert decision.why == (
            "The usual rule of thumb would choose stand, but in the deals sampled here this choice does better."
        )


def test_on_the_event_loop_the_weighing_fills_in_while_the_reader_steps_through_the_hand() -> None:
    """Issue 31: the hand's steps open at once; the review fills in a decision a turn of the event
    loop (the kernel's, or the worker's in the reader's browser), saying how far it has got; the
    reader's clicks are answered meanwhile; once whole it names the costliest, one click from it."""

    async def scenario() -> None:
        table = finished_throw()
        step, weigh = table._review_controls()
        seen: list[str] = []
        table._weighed.observe(lambda change: seen.append(change["new"]), names="value")
        weigh.click()
        assert table._review.children, "the steps open before the weighing is done"
        assert table._weighing.busy and weigh.disabled  # one weighing at a time
        step.click()  # answered at once, the weighing going on
        assert table._review.children and table._weighing.busy
        for _ in range(2000):
            if not table._weighing.busy:
                break
            await asyncio.sleep(0.005)
        assert not table._weighing.busy and not weigh.disabled
        assert any("decided so far" in value for value in seen), seen[:3]
        said = table._weighed.value
        assert "The best was Stand" in said and "loo-review-costliest" in said and "step to it below" in said
        assert table._to_costliest.layout.display == ""
        table._to_costliest.click()
        shown = " ".join(output["data"]["text/html"] for output in table._review.children[0].outputs)
        assert "Your decision here, weighed: Throw up" in shown

    asyncio.run(scenario())


def test_the_next_hand_drops_a_weighing_in_progress() -> None:
    async def scenario() -> None:
        table = finished_throw()
        _step, weigh = table._review_controls()
        weigh.click()
        assert table._weighing.busy
        table.model.new_hand()  # before the loop's first turn: nothing of the last hand is shown again
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert table._weighed.value == "" and not table._review.children and not table._weighing.busy
        assert table._to_costliest.layout.display == "none"

    asyncio.run(scenario())


def failing_weigh(record: Any, seat: int) -> Iterator[HandReview]:
    """A weighing that breaks after its first step, as a bug in the engine would."""
    yield from islice(weighing_hand(record, seat), 1)
    raise RuntimeError("the engine broke mid-review")


def test_a_weighing_that_fails_says_so_and_lets_the_reader_try_again() -> None:
    """On the event loop: the tab says the weighing failed and asks for another try, and the Weigh
    button is enabled again at once, not only once the table next changes."""

    async def scenario() -> None:
        table = finished_throw(weigh=failing_weigh)
        _step, weigh = table._review_controls()
        weigh.click()
        assert weigh.disabled
        for _ in range(2000):
            if not table._weighing.busy:
                break
            await asyncio.sleep(0.005)
        assert "could not be weighed" in table._weighed.value and "Try again" in table._weighed.value
        assert not weigh.disabled, "the reader may weigh the hand again"

    asyncio.run(scenario())


def test_a_weighing_that_fails_with_no_event_loop_lets_the_reader_try_again() -> None:
    table = finished_throw(weigh=failing_weigh)
    _step, weigh = table._review_controls()
    weigh.click()
    assert "could not be weighed" in table._weighed.value and "Try again" in table._weighed.value
    assert not weigh.disabled and not table._weighing.busy
