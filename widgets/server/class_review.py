"""Where the class gave up most (issue 31, point 4): the students' decisions at a deal, weighed.

For the tables that began at a deal code, the teacher's console weighs every finished hand, the
students' own seats only (the reader's seat at a table of one, the seats no computer holds at a shared
table), with :func:`loo.review.review`, and lists the positions where the class gave up most
(:func:`loo.review.common_mistakes`): the tables dealt the same code meet the first decisions alike,
so "four of you threw up here; standing was worth about 2 chips more" is one line, one click from
the projector (the table's hand, face up, at that step).

A hand's review costs some seconds of sampling, so it runs in a process of its own (:class:`Weigher`),
one at a time: never on the server's event loop, nor on its database threads, where it would hold
the interpreter's lock while the class plays; the console's page says how many hands are weighed so
far and asks again every two seconds. A review is kept by its record's text and the seats weighed, so
a hand is weighed once however often the page is asked, and the class's records download carries
each weighed decision's review.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import threading
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from html import escape
from typing import Any

from loo.records import load
from loo.review import Common, HandReview, common_mistakes, review
from widgets.table.hints import describe, in_words, unit_name

log = logging.getLogger("lanterloo.server")

KEEP = 5000  # the reviews kept, the oldest dropped first: a class's day of hands
SHOWN = 12  # the positions a page lists


@dataclass(frozen=True)
class FinishedHand:
    """A finished hand of one of the class's tables, and the seats its students held."""

    table_id: str
    number: int  # the hand's place in the table's game, from 1
    record: dict[str, Any]
    seats: tuple[int, ...]

    @property
    def key(self) -> str:
        text = json.dumps([self.record, self.seats], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def weigh(record: dict[str, Any], seats: tuple[int, ...]) -> HandReview:
    """The review of ``seats``' decisions in ``record`` (run in the weighing process), its reasons in
    words as the table's review gives them."""
    return review(load(json.dumps(record)), seats, words=in_words)


class Weigher:
    """Reviews made in a process of their own, one hand at a time, and kept (see the module).

    ``pool`` makes the process pool on first use (a test may give one that runs in this process)."""

    def __init__(self, keep: int = KEEP, pool: Any = None) -> None:
        self.keep = keep
        self._pool = pool
        self._lock = threading.Lock()
        self._done: dict[str, HandReview | None] = {}  # None: the hand could not be weighed
        self._running: dict[str, Future[HandReview]] = {}

    def _executor(self) -> Any:
        if self._pool is None:
            # spawn, not fork: the server has threads (the database's), which a fork would copy mid-step
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def kept(self, hand: FinishedHand) -> HandReview | None:
        """The hand's review if it is weighed (None while it is not, or if it could not be)."""
        with self._lock:
            return self._done.get(hand.key)

    def ask(self, hands: Iterable[FinishedHand]) -> tuple[list[tuple[FinishedHand, HandReview]], int]:
        """The reviews of ``hands`` weighed so far, and how many are still to come; the others are
        started (each record once, whoever asks: tables dealt the same and played alike share one)."""
        hands = list(hands)
        for hand in hands:
            key = hand.key
            with self._lock:
                if key in self._done or key in self._running:
                    continue
                future = self._executor().submit(weigh, hand.record, hand.seats)
                self._running[key] = future
            future.add_done_callback(lambda f, key=key: self._finished(key, f))
        done, waiting = [], 0
        with self._lock:
            for hand in hands:
                if hand.key not in self._done:
                    waiting += 1
                elif (found := self._done[hand.key]) is not None:
                    done.append((hand, found))
        return done, waiting

    def _finished(self, key: str, future: Future[HandReview]) -> None:
        try:
            found: HandReview | None = future.result()
        except Exception:  # a record the engine refuses, or the process lost: said once, not weighed again
            log.exception("the console could not weigh a hand's decisions")
            found = None
        with self._lock:
            self._running.pop(key, None)
            self._done[key] = found
            while len(self._done) > self.keep:
                del self._done[next(iter(self._done))]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


WEIGHER = Weigher()
"""The server's weigher: one process, made when the console first asks."""


def review_fields(done: HandReview, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The review as a record carries it in the class's records (``"review"``: each decision weighed)."""
    names = list(record.get("seats", ()))
    return [d.to_record(names) for d in done.decisions]


def _chosen_words(common: Common) -> str:
    counts: dict[str, int] = {}
    for d in common.decisions:
        said = describe(d.chosen)
        counts[said] = counts.get(said, 0) + 1
    return "; ".join(f"{said}: {n}" for said, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def mistakes_html(commons: list[Common], hands: dict[str, FinishedHand], link: Any, unit: str) -> str:
    """The positions where the class gave up most, as a list: what was chosen there and by how many,
    the best choice and why, what was given up, and a link to the position face up (``link(table_id,
    hand, step)`` gives its address)."""
    items = []
    for common in commons[:SHOWN]:
        worst = max(common.decisions, key=lambda d: d.lost.mean)
        place = hands[common.places[common.decisions.index(worst)]]
        name = place.record.get("seats", [])[worst.seat] if worst.seat < len(place.record.get("seats", [])) else ""
        why = f" <span class='why'>{escape(worst.why)}</span>" if worst.why else ""
        faced = len(common.decisions)
        items.append(
            "<li class='class-mistake'>"
            f"<p><b>{faced} {'student' if faced == 1 else 'students'} faced this position</b> "
            f"({escape(_chosen_words(common))}). The best: <b>{escape(describe(common.best))}</b>; "
            f"given up here in all: about {common.given_up:.1f} {unit} by {common.costly} "
            f"{'decision' if common.costly == 1 else 'decisions'}.{why}</p>"
            f"<p><a class='show-position' href='{escape(link(place.table_id, place.number, worst.index))}'>"
            f"Show it face up</a> <span class='note'>(table {escape(place.table_id[:6])}, hand {place.number}, "
            f"{escape(str(name))} to choose; for the projector)</span></p></li>"
        )
    return "<ol class='class-mistakes'>" + "".join(items) + "</ol>"


def class_mistakes(done: list[tuple[FinishedHand, HandReview]]) -> tuple[list[Common], dict[str, FinishedHand]]:
    """The positions where the weighed hands gave up most, and each hand by the tag the positions name."""
    hands = {hand.key: hand for hand, _ in done}
    reviewed = [(hand.key, load(json.dumps(hand.record)), found) for hand, found in done]
    return common_mistakes(reviewed), hands


def unit_of(done: list[tuple[FinishedHand, HandReview]]) -> str:
    """What the hands' figures count ("chips", or "points" at the domino games scored in points)."""
    if not done:
        return "chips"
    return unit_name(load(json.dumps(done[0][0].record)).rules)


def student_seats(model: Any, shared: bool) -> tuple[int, ...]:
    """The seats the class's students held: the reader's at a table of one, every seat no computer
    holds at a shared table."""
    if shared:
        computers = frozenset(getattr(model, "computers", ()))
        return tuple(s for s in range(len(model.names)) if s not in computers)
    return (int(model.seat),)


def finished_hands(tables: Iterable[Any], began_at: Any) -> list[FinishedHand]:
    """The finished hands (with a choice in them) of the ``tables`` whose game ``began_at(model)`` says yes to."""
    hands = []
    for table in tables:
        model = table.model
        if model is None or not began_at(model):
            continue
        seats = student_seats(model, bool(table.seats))
        for number, record in enumerate(model.records, start=1):
            if record and record.get("actions"):
                hands.append(FinishedHand(table.table_id, number, record, seats))
    return hands


def decisions_page(done: list[tuple[FinishedHand, HandReview]], waiting: int, code: str, link: Any) -> str:
    """The page's body: how far the weighing has got, then the positions where the class gave up most."""
    total = len(done) + waiting
    if total == 0:
        return "<p>No table of the class has finished a hand at that deal yet.</p>"
    parts = []
    if waiting:
        parts.append(
            f'<p role="status" class="weighing">Weighing the class\'s decisions: {len(done)} of {total} hands done '
            f'<progress max="{total}" value="{len(done)}"></progress> (this page asks again every two seconds; '
            "each hand's decisions are played out over many deals that fit what each student knew).</p>"
        )
    commons, hands = class_mistakes(done)
    if commons:
        parts.append(
            f"<p>Where the class gave up most at {escape(code)}, the most first: each position with what was "
            "chosen there, the best choice, and what was given up beyond doubt.</p>"
            + mistakes_html(commons, hands, link, unit_of(done))
        )
    elif not waiting:
        parts.append(f"<p>No decision at {escape(code)} gave anything up beyond doubt: well played, all.</p>")
    return "".join(parts)
