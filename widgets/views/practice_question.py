"""A practice position as one of the book's "What would you do?" questions (issue 31, point 2): the
part of :mod:`widgets.views.practice_view` that needs :mod:`widgets.book.quiz`, imported when a position is
first asked (the book's questions ship to the reader's browser too: web/build_inpage.py).

The question is at the hand's own deal, whatever it was (a seed, a deal code's, a loaded record's
cards), as the item's record holds it up to the decision; it is judged by :func:`~widgets.book.quiz.judge`,
answered in :func:`~widgets.book.quiz.pick_words` and :func:`~widgets.book.quiz.verdict_words`, and its
best line replayed as the book's questions replay it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from loo.core.actions import Action
from loo.core.protocols import Hand
from loo.kits import kit
from loo.records import load, replay_actions
from widgets.book import ExampleError, record_of
from widgets.book.quiz import Judged, Question, describe, judge, pick_words, verdict_words
from widgets.table.practice import Item
from widgets.views.step_viewer import StepViewer

__all__ = ["PracticeQuestion", "best_line", "choices", "describe", "judged_item", "pick_words", "verdict_words"]


@dataclass(frozen=True)
class PracticeQuestion(Question):
    """A :class:`~widgets.book.quiz.Question` at a position of a hand the reader played: ``record`` is
    the hand's record up to the decision (a practice item's), its own deal whatever it was."""

    record: Mapping[str, Any] = field(default_factory=dict)

    def position(self) -> Hand:
        read = load(json.dumps(dict(self.record)))
        hand: Hand = replay_actions(read.start(), read.actions)
        if hand.to_act is None or len(hand.legal_actions()) < 2:
            raise ExampleError(f"the position after {len(read.actions)} moves offers no choice to make")
        return hand

    def played_on(self, choice: Action) -> Hand:
        """The hand's own deal played to its end from ``choice`` by the computer players (seeded)."""
        hand = self.position()
        hand.push(choice)
        players = kit(self.game).make_bot("thumb")
        choices = random.Random(0)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None  # a hand in play always has a seat to act
            hand.push(players.choose(hand.view(seat), choices))
        return hand


def judged_item(item: Item) -> Judged:
    """The item's position as a question, judged (:func:`~widgets.book.quiz.judge`)."""
    return judge(PracticeQuestion(item.game, record=item.record))


def choices(judged: Judged) -> list[Action]:
    """The choices a practice question offers: those the engine weighed, in the order the laws list
    them (an exchange of cards is weighed for the worst cards first, not every set)."""
    weighed = {e.action for e in judged.figures.values}
    return [a for a in judged.hand.legal_actions() if a.seat == judged.seat and a in weighed]


def best_line(judged: Judged) -> StepViewer:
    """The actual deal played on from the best choice, from the reader's seat, opened at the choice."""
    seat, names = judged.seat, list(judged.hand.names)
    best = describe(judged.best, judged.view).lower()
    at = len(judged.hand.actions) + 1
    return StepViewer(
        record_of(judged.question.played_on(judged.best)),
        seat=seat,
        title=f"The best line, {best}, played on in this deal, as {names[seat]} sees it",
        commentary={at: f"{names[seat]} chooses: {best}."},
        start=at,
    )
