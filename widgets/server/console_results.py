"""The console's pages of what the class played (issue 21, issue 31): the results of a deal side by
side (``/console/results``), where the class gave up most at it (``/console/decisions``, weighed by
:mod:`widgets.server.class_review`), and every finished hand as a record (``/console/records.jsonl``,
each hand weighed so far carrying its review). Like the rest of the console (:mod:`widgets.server.console`),
each page reads the tables' database on one of the server's database threads.
"""

from __future__ import annotations

import html
import json
from typing import Any

from loo.records import load, replay_actions
from widgets.draw.board import action_label
from widgets.server.class_review import (
    WEIGHER,
    FinishedHand,
    decisions_page,
    finished_hands,
    review_fields,
    student_seats,
)
from widgets.server.class_tables import ClassTable, class_tables
from widgets.server.console import ConsoleHandler, as_dealt, same_deal, start_code
from widgets.server.database import DatabaseAway, send_database_away
from widgets.server.plain_page import page
from widgets.store.sqlite import TableStore
from widgets.table.chips import seat_words
from widgets.table.dealcode import DealCode, DealCodeError, parse_deal_code
from widgets.table.model import TableModel


def began_at(model: TableModel, wanted: DealCode) -> bool:
    """Whether the table's game began at ``wanted`` (dealt for whichever seat)."""
    code = start_code(model)
    return code is not None and same_deal(code, wanted)


def hand_rows(record: dict[str, Any]) -> tuple[list[str], list[str], list[int], list[int]]:
    """A finished hand's record, for the results: each seat's declarations, tricks won and chips."""
    loaded = load(json.dumps(record))
    hand = replay_actions(loaded.start(), loaded.actions)
    names = list(hand.names)
    said = [[] for _ in names]  # type: list[list[str]]
    for action in loaded.actions:
        if action.verb.value != "play":
            said[action.seat].append(action_label(action))
    tricks = [0] * len(names)
    for trick in hand.view(0).tricks:
        tricks[trick.winner] += 1
    net = list(hand.settlement.net()) if hand.settlement is not None else [0] * len(names)
    return names, [", ".join(s) or "-" for s in said], tricks, net


class DealPage(ConsoleHandler):
    """A console page about one deal, ``?code=``: the code read (a 400 page naming what is wrong with it),
    what the page needs read from the database on one of its threads (:meth:`read`), then answered."""

    title = "Results"

    async def get(self) -> None:
        text = self.get_argument("code", "").strip()
        try:
            wanted = as_dealt(parse_deal_code(text))
        except DealCodeError as error:
            self.set_status(400)
            self.finish(page(self.title, f"<p>That deal code cannot be used: {html.escape(error.message)}.</p>"))
            return
        try:
            found = await self.database(lambda store: self.read(store, wanted))
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        self.answer(text, found)

    def read(self, store: TableStore, wanted: DealCode) -> Any:
        raise NotImplementedError

    def answer(self, text: str, found: Any) -> None:
        raise NotImplementedError

    def back(self) -> str:
        return f'<p><a href="{html.escape(self.link("/console"))}">Back</a></p>'


class ConsoleResults(DealPage):
    """``/console/results?code=``: every table whose game began at that deal, hand by hand, side by side."""

    def answer(self, text: str, found: Any) -> None:
        sections: list[str] = found
        layout = '<div style="display:flex;flex-wrap:wrap;gap:1.5rem">' + "".join(sections) + "</div>"
        none = "<p>No table of the class began at that deal.</p>"
        self.finish(page(f"Results of {text}", (layout if sections else none) + self.back()))

    def read(self, store: TableStore, wanted: DealCode) -> list[str]:
        """A section per table whose game began at ``wanted``: its finished hands (on a database thread)."""
        sections = []
        for table in class_tables(store):
            model = table.model
            if model is None or not began_at(model, wanted):
                continue
            hands = []
            lines = model.hand_lines()  # the game's accounts: the dealer's stake counted as on the table
            for number, record in enumerate(model.records, start=1):
                if not record.get("actions"):
                    continue  # a hand settled as it was dealt: nobody chose anything
                names, said, tricks, net = hand_rows(record)
                line = lines[number - 1] if len(lines) == len(model.records) else None
                shown = [
                    seat_words(line, n) if line is not None else f"{c:+d}" for n, c in zip(names, net, strict=True)
                ]
                cells = "".join(
                    f"<tr><td>{html.escape(n)}</td><td>{html.escape(s)}</td><td>{t}</td><td>{html.escape(c)}</td></tr>"
                    for n, s, t, c in zip(names, said, tricks, shown, strict=True)
                )
                step = html.escape(self.link(f"/console/table/{table.table_id}", hand=number, step=0))
                hands.append(
                    f'<h3>Hand {number} <a class="step" href="{step}">step through</a></h3><table class="result">'
                    "<tr><th>Player</th><th>Stood or called</th><th>Tricks</th><th>This hand</th></tr>"
                    f"{cells}</table>"
                )
            body = "".join(hands) or "<p>No hand finished yet.</p>"
            sections.append(
                f'<section class="table-result"><h2>Table {html.escape(table.table_id[:6])}</h2>{body}</section>'
            )
        return sections


class ConsoleDecisions(DealPage):
    """``/console/decisions?code=``: where the class's students gave up most at the tables that began at
    that deal (:mod:`widgets.server.class_review`); while hands are still being weighed, the page says
    how far it has got and asks again every two seconds."""

    title = "Decisions"

    def read(self, store: TableStore, wanted: DealCode) -> tuple[str, int]:
        """The page's body and how many hands wait, made here on a database thread: a class's reviews
        read back and ranked take the event loop no time."""
        hands = finished_hands(class_tables(store), lambda model: began_at(model, wanted))
        done, waiting = WEIGHER.ask(hands)
        return decisions_page(done, waiting, self.get_argument("code", "").strip(), self.position_link), waiting

    def answer(self, text: str, found: Any) -> None:
        body, waiting = found
        refresh = '<meta http-equiv="refresh" content="2">' if waiting else ""
        self.finish(page(f"Where the class gave up most at {text}", refresh + body + self.back()))

    def position_link(self, table_id: str, hand: int, step: int) -> str:
        """The address of a table's finished hand face up, at the position before action ``step``."""
        return self.link(f"/console/table/{table_id}", hand=hand, step=step)


def records_lines(tables: list[ClassTable]) -> str:
    """Every finished hand of ``tables`` as a loo-record/1 line, each the console has weighed carrying
    its review (its students' decisions: ``review``, as ``loo review`` prints them)."""
    lines = []
    for table in tables:
        model = table.model
        if model is None:
            continue
        seats = student_seats(model, bool(table.seats))
        for number, record in enumerate(model.records, start=1):
            if not record:
                continue
            found = WEIGHER.kept(FinishedHand(table.table_id, number, record, seats))
            shown = {**record, "review": review_fields(found, record)} if found is not None else record
            lines.append(json.dumps(shown, ensure_ascii=False, separators=(",", ":")) + "\n")
    return "".join(lines)


class ConsoleRecords(ConsoleHandler):
    """``/console/records.jsonl``: every finished hand of the class's tables, one loo-record/1 a line."""

    async def get(self) -> None:
        try:
            lines = await self.database(lambda store: records_lines(class_tables(store)))
        except DatabaseAway as away:
            send_database_away(self, away)
            return
        self.set_header("Content-Type", "application/x-ndjson; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="class-records.jsonl"')
        self.finish(lines)
