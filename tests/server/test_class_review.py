"""Where the class gave up most (issue 31, point 4): the console weighs the students' decisions at a
deal, in a process of its own, and lists the positions where they gave up most."""

from __future__ import annotations

import random
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from loo.core.actions import Action
from widgets.server.class_review import (
    FinishedHand,
    Weigher,
    decisions_page,
    finished_hands,
    review_fields,
    student_seats,
    weigh,
)
from widgets.server.class_tables import class_tables
from widgets.store.sqlite import TableStore
from widgets.table.model import TableModel

# Ann, eldest of three (seed 5), holds the kings of spades, trumps, and of clubs: she should stand.
DEAL = "l3.peel_first-deal-mode~none.s0.n5.d2.p3.c3"


class InlinePool:
    """A pool that weighs at once in this process: the page's figures without a second process."""

    def __init__(self) -> None:
        self.submitted = 0

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        self.submitted += 1
        future: Future[Any] = Future()
        future.set_result(fn(*args))
        return future


def table_at_deal(store: TableStore, declare: str) -> str:
    """A table of one reader, dealt :data:`DEAL`, where Ann declares ``declare`` and the hand is played out."""
    table_id = store.new_table("three-card-loo")
    model = TableModel("three-card-loo", rng=random.Random(1))
    model.attach(store, table_id)
    assert model.play_code(DEAL)
    assert model.act(Action.declare(0, declare))
    while not model.hand.is_over:  # Ann plays her cards, if she stood, the first she may each time
        assert model.act(model.legal()[0])
    return table_id


def link(table_id: str, hand: int, step: int) -> str:
    return f"/console/table/{table_id}?hand={hand}&step={step}"


def test_the_class_s_thrown_up_hands_are_one_position_named_with_its_cost_and_a_link_to_show_it(
    tmp_path: Path,
) -> None:
    with TableStore(tmp_path / "tables.db") as store:
        thrown = [table_at_deal(store, "throw") for _ in range(2)]
        stood = table_at_deal(store, "stand")
        tables = class_tables(store)
    hands = finished_hands(tables, lambda model: True)
    assert sorted(h.table_id for h in hands) == sorted([*thrown, stood])
    assert all(h.seats == (0,) and h.number == 1 for h in hands)

    pool = InlinePool()
    weigher = Weigher(pool=pool)
    done, waiting = weigher.ask(hands)
    assert waiting == 0 and len(done) == 3
    assert pool.submitted == 2  # the two thrown-up hands are the same record: weighed once
    assert weigher.ask(hands)[1] == 0 and pool.submitted == 2  # and not again when asked again

    said = decisions_page(done, 0, DEAL, link)
    assert "3 students faced this position" in said
    assert "Throw up: 2" in said and "Stand: 1" in said
    assert "The best: <b>Stand</b>" in said
    assert "L3-DECL-02" in said  # why, with the law
    shown = [t for t in thrown if f"/console/table/{t}?hand=1&amp;step=0" in said]
    assert len(shown) == 1  # the costliest decision's table, face up at the position
    assert "Weighing" not in said

    fields = review_fields(done[0][1], done[0][0].record)
    assert fields and {"action", "chose", "best", "gave_up", "interval", "verdict", "why"} <= set(fields[0])


def test_the_page_says_how_far_the_weighing_has_got_while_hands_wait() -> None:
    said = decisions_page([], 4, DEAL, link)
    assert "0 of 4 hands done" in said and '<progress max="4" value="0">' in said
    assert "No table" in decisions_page([], 0, DEAL, link)


def test_a_hand_is_weighed_in_a_process_of_its_own_and_kept(tmp_path: Path) -> None:
    """The server's own weigher: a spawned process, the review as the engine gives it in this process."""
    with TableStore(tmp_path / "tables.db") as store:
        table_at_deal(store, "throw")
        (hand,) = finished_hands(class_tables(store), lambda model: True)
    weigher = Weigher()
    try:
        done, waiting = weigher.ask([hand])
        assert (done, waiting) == ([], 1)
        deadline = 60.0
        start = time.monotonic()
        while weigher.kept(hand) is None and time.monotonic() - start < deadline:
            time.sleep(0.1)
        found = weigher.kept(hand)
        assert found is not None, "the weighing process gave no review within a minute"
        assert found == weigh(hand.record, hand.seats)
        assert weigher.ask([hand]) == ([(hand, found)], 0)
    finally:
        weigher.close()


def test_a_record_the_engine_refuses_is_said_once_and_not_weighed_again() -> None:
    broken = FinishedHand("x" * 22, 1, {"format": "loo-record/1", "game": "no-such-game", "actions": [{}]}, (0,))

    class Failing(InlinePool):
        def submit(self, fn: Any, *args: Any) -> Future[Any]:
            self.submitted += 1
            future: Future[Any] = Future()
            try:
                future.set_result(fn(*args))
            except Exception as error:  # as a process pool hands back the worker's exception
                future.set_exception(error)
            return future

    failing = Failing()
    weigher = Weigher(pool=failing)
    assert weigher.ask([broken]) == ([], 0)  # known unweighable at once: not waited for
    assert weigher.ask([broken]) == ([], 0) and failing.submitted == 1  # nor tried again


def test_the_students_seats_are_the_readers_or_those_no_computer_holds() -> None:
    class Single:
        seat, names = 2, ["A", "B", "C"]

    class Shared:
        computers, names = frozenset({1}), ["A", "B", "C", "D"]

    assert student_seats(Single(), False) == (2,)
    assert student_seats(Shared(), True) == (0, 2, 3)


def test_the_console_weighs_the_class_at_a_deal_then_lists_what_cost_most_and_the_records_carry_it(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """From the console's page: the first answer says the hands are being weighed and asks again in two
    seconds; once they are, the positions that cost the class most, each linked face up; the class's
    records then carry each weighed hand's review, and every line still reads as its hand."""
    import json

    from loo.records import check, load
    from tests.server.test_console import console_app, talk
    from widgets.server import console_results

    pending: list[tuple[Future[Any], Any, tuple[Any, ...]]] = []

    class LaterPool(InlinePool):  # weighs only when the test says: the page is seen while it waits
        def submit(self, fn: Any, *args: Any) -> Future[Any]:
            self.submitted += 1
            future: Future[Any] = Future()
            pending.append((future, fn, args))
            return future

    monkeypatch.setattr(console_results, "WEIGHER", Weigher(pool=LaterPool()))
    db = tmp_path / "tables.db"
    with TableStore(db) as store:
        thrown = [table_at_deal(store, "throw") for _ in range(2)]
        table_at_deal(store, "stand")

    async def scenario(ask: Any) -> tuple[Any, Any, Any]:
        cookie = await ask.sign_in()
        first = await ask("GET", f"/console/decisions?code={DEAL}", cookie=cookie)
        for future, fn, args in pending:
            future.set_result(fn(*args))
        second = await ask("GET", f"/console/decisions?code={DEAL}", cookie=cookie)
        records = await ask("GET", "/console/records.jsonl", cookie=cookie)
        return first, second, records

    first, second, records = talk(console_app(db), scenario)
    waiting = first.body.decode()
    assert first.code == 200 and "0 of 3 hands done" in waiting and 'http-equiv="refresh"' in waiting
    listed = second.body.decode()
    assert second.code == 200 and "refresh" not in listed
    assert "3 students faced this position" in listed and "Throw up: 2" in listed
    assert any(f"/console/table/{t}?hand=1&amp;step=0" in listed for t in thrown)
    lines = records.body.decode().splitlines()
    assert len(lines) == 3 and all("review" in json.loads(line) for line in lines)
    assert all(check(line)[0] == 0 for line in lines)
    said = {json.loads(line)["review"][0]["verdict"] for line in lines}
    assert said == {"best", "mistake"} or said == {"best", "blunder"}, said
    assert all(load(line) is not None for line in lines)
