"""The reader's practice shelf and progress (issue 31, points 2 and 3): what a table keeps of its
reviewed hands, as plain data that goes to and from JSON.

When the reader weighs a finished hand's decisions (:func:`loo.review.review`), each decision graded
an inaccuracy, a mistake or a blunder goes on the shelf as a position to practise: the hand's record
with its actions before the decision only, the seat, the choice made, the best, and what the choice
gave up. The shelf keeps the :data:`MOST_ITEMS` that gave up most (the worst grade first, then the
most chips), so inaccuracies come back only while the list is short. A position answered well comes
off (:func:`solved`). Beside it, per game, the figures of the last :data:`MOST_HANDS` hands
reviewed: for each kind of decision (:data:`KINDS`), how many were made and what they gave up, for
the reader's progress.

Every change is a plain dictionary (:func:`weighed`, :func:`solved`, :data:`CLEARED`) that
:meth:`Shelf.changed` applies: a table keeps each as an event of its journal (type
:data:`PRACTICE`), so the shelf is saved where the game is (the server's store, the browser's storage)
and a replay of the journal rebuilds it; a new game's start event carries the whole shelf
(:meth:`Shelf.to_json`), since the stores keep only the events from the last start.

>>> shelf = Shelf().changed({"clear": True})
>>> shelf.items, Shelf.from_json(shelf.to_json()) == shelf
((), True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from loo.review import GRADES, Decision, HandReview, position_key

__all__ = [
    "CLEARED",
    "KINDS",
    "KIND_WORDS",
    "MOST_HANDS",
    "MOST_ITEMS",
    "PRACTICE",
    "HandFigures",
    "Item",
    "Shelf",
    "kind_of",
    "solved",
    "weighed",
]

PRACTICE = "practice"
"""The type of a table's journal event that changes its shelf (its other keys are the change)."""
MOST_ITEMS = 20
MOST_HANDS = 50
"""The hands of each game whose figures are kept (the oldest go first)."""
KINDS = ("declare", "exchange", "call", "play")
KIND_WORDS = {
    "declare": "Standing or throwing up",
    "exchange": "Exchanging, the miss and the turn-up",
    "call": "Calling",
    "play": "Playing a card or tile",
}
_KIND_OF_VERB = {
    "declare": "declare",
    "for-pool": "declare",
    "exchange": "exchange",
    "take-turnup": "exchange",
    "garnet": "exchange",
    "purchase": "exchange",
    "peep": "exchange",
    "call": "call",
    "play": "play",
}
_SEVERITY = {name: len(GRADES) - i for i, (name, _size) in enumerate(GRADES)}  # blunder 3 ... inaccuracy 1
CLEARED: dict[str, Any] = {"clear": True}
"""The change that empties the shelf and forgets every game's figures."""


def kind_of(verb: str, value: Any = None) -> str:
    """The kind of decision an action is (:data:`KINDS`): taking the miss is a declaration by its verb,
    but an exchange of one's hand for another by what it does."""
    if verb == "declare" and value == "miss":
        return "exchange"
    return _KIND_OF_VERB.get(str(verb), "play")


def _need(obj: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = obj[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ValueError(f"a practice {name} must be a {kind}, not {value!r}")
    return value


@dataclass(frozen=True)
class Item:
    """A position to practise: ``record`` is the hand's record up to the decision (its actions before it),
    ``seat`` the reader's; ``chosen`` and ``best`` are actions as a record writes them; ``lost`` what the
    choice gave up against the best (chips, or points), graded ``verdict``."""

    key: str  # loo.review.position_key: the same position dealt again is the same item
    game: str
    record: dict[str, Any]
    seat: int
    chosen: dict[str, Any]
    best: dict[str, Any]
    lost: float
    verdict: str

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "game": self.game,
            "record": self.record,
            "seat": self.seat,
            "chosen": self.chosen,
            "best": self.best,
            "lost": self.lost,
            "verdict": self.verdict,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Item:
        verdict = _need(obj, "verdict", str)
        if verdict not in _SEVERITY:
            raise ValueError(f"a practice item's verdict is a grade, not {verdict!r}")
        return cls(
            _need(obj, "key", str),
            _need(obj, "game", str),
            dict(_need(obj, "record", dict)),
            _need(obj, "seat", int),
            dict(_need(obj, "chosen", dict)),
            dict(_need(obj, "best", dict)),
            float(_need(obj, "lost", (int, float))),
            verdict,
        )

    @property
    def order(self) -> tuple[int, float, str]:
        """Where the item stands on the shelf: the worst grade first, then the most given up."""
        return (-_SEVERITY[self.verdict], -self.lost, self.key)


@dataclass(frozen=True)
class HandFigures:
    """One reviewed hand of a game: for each kind of decision, how many the reader made and the chips
    (or points) they gave up beyond doubt (the graded ones only, as :attr:`loo.review.HandReview.given_up`)."""

    hand: str  # a digest of the hand's record: a hand weighed twice counts once
    kinds: dict[str, tuple[int, float]] = field(default_factory=dict)

    @property
    def decisions(self) -> int:
        return sum(n for n, _ in self.kinds.values())

    @property
    def given_up(self) -> float:
        return sum(lost for _, lost in self.kinds.values())

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "kinds": {k: [n, lost] for k, (n, lost) in self.kinds.items()}}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> HandFigures:
        kinds = {}
        for kind, pair in dict(_need(obj, "kinds", dict)).items():
            if kind not in KINDS or not isinstance(pair, list) or len(pair) != 2:
                raise ValueError(f"a reviewed hand's figures for {kind!r} must be [decisions, given up]")
            n, lost = pair
            if not isinstance(n, int) or not isinstance(lost, int | float) or n < 0:
                raise ValueError(f"a reviewed hand's figures for {kind!r} must be [decisions, given up]")
            kinds[kind] = (n, float(lost))
        return cls(_need(obj, "hand", str), kinds)


@dataclass(frozen=True)
class Shelf:
    """The positions to practise, the costliest first, and each game's reviewed hands, the latest last."""

    items: tuple[Item, ...] = ()
    hands: Mapping[str, tuple[HandFigures, ...]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.items or self.hands)

    def changed(self, change: Mapping[str, Any]) -> Shelf:
        """The shelf after ``change`` (:func:`weighed`, :func:`solved`, :data:`CLEARED`, or a journal
        event holding one); a :class:`ValueError` for a change it cannot read."""
        if change.get("clear"):
            return Shelf()
        if "solved" in change:
            key = _need(change, "solved", str)
            return Shelf(tuple(i for i in self.items if i.key != key), self.hands)
        if "weighed" in change:
            done = _need(change, "weighed", dict)
            game = _need(done, "game", str)
            figures = HandFigures.from_json(_need(done, "hand", dict))
            new = [Item.from_json(obj) for obj in _need(done, "items", list)]
            return self._with(game, figures, new)
        raise ValueError(f"a practice change must clear, solve or add a weighed hand, not {sorted(change)}")

    def _with(self, game: str, figures: HandFigures, new: list[Item]) -> Shelf:
        fresh = {i.key for i in new}
        items = sorted([*(i for i in self.items if i.key not in fresh), *new], key=lambda i: i.order)
        hands = dict(self.hands)
        kept = hands.get(game, ())
        if all(h.hand != figures.hand for h in kept):
            hands[game] = (*kept, figures)[-MOST_HANDS:]
        return Shelf(tuple(items[:MOST_ITEMS]), hands)

    def item(self, key: str) -> Item | None:
        return next((i for i in self.items if i.key == key), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "items": [i.to_json() for i in self.items],
            "hands": {game: [h.to_json() for h in hands] for game, hands in self.hands.items()},
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | None) -> Shelf:
        """The shelf :meth:`to_json` gave (None: an empty one, as a journal from before shelves has)."""
        if obj is None:
            return cls()
        items = [Item.from_json(i) for i in _need(obj, "items", list)]
        hands = {
            str(game): tuple(HandFigures.from_json(h) for h in figures)[-MOST_HANDS:]
            for game, figures in dict(_need(obj, "hands", dict)).items()
            if isinstance(figures, list)
        }
        return cls(tuple(sorted(items, key=lambda i: i.order)[:MOST_ITEMS]), hands)


def weighed(record: Any, done: HandReview) -> dict[str, Any]:
    """The change a weighed hand makes: its graded decisions as positions to practise, and its figures.

    ``record`` is the hand's record (:func:`loo.records.load`'s), ``done`` its review."""
    whole = dict(record.to_json())
    game = str(whole["game"])
    kinds: dict[str, tuple[int, float]] = {}
    items = []
    for d in done.decisions:
        kind = kind_of(str(d.chosen.verb), d.chosen.value)
        n, lost = kinds.get(kind, (0, 0.0))
        graded = d.verdict in _SEVERITY
        kinds[kind] = (n + 1, round(lost + (d.lost.mean if graded else 0.0), 3))
        if graded:
            items.append(_item(record, whole, game, d).to_json())
    digest = hashlib.sha256(json.dumps(whole, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return {"weighed": {"game": game, "hand": HandFigures(digest, kinds).to_json(), "items": items}}


def _item(record: Any, whole: dict[str, Any], game: str, d: Decision) -> Item:
    before = {**whole, "actions": list(whole.get("actions", ()))[: d.index]}
    return Item(
        position_key(record, d.index, d.seat),
        game,
        before,
        d.seat,
        d.chosen.to_record(),
        d.best.to_record(),
        round(d.lost.mean, 3),
        d.verdict,
    )


def solved(item: Item) -> dict[str, Any]:
    """The change that takes ``item`` off the shelf: it was answered well."""
    return {"solved": item.key}
