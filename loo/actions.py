"""Actions: what a seat does, written as in spec/RECORDS.md.

>>> a = Action.from_record({"seat": 0, "play": "as"})
>>> a, a.to_record()
(Action(seat=0, verb='play', value=Card.parse('AS')), {'seat': 0, 'play': 'AS'})
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from loo.cards import Card, CardError
from loo.rules import RecordError

DECLARATIONS = ("stand", "miss", "throw")
VERBS = ("declare", "exchange", "play", "take-turnup", "for-pool")


class IllegalActionError(ValueError):
    """An action the laws do not allow here. ``law`` is the LAWS.md ID it breaks."""

    def __init__(self, law: str, message: str, *, seat: int | None = None) -> None:
        super().__init__(f"{message} ({law})")
        self.law = law
        self.message = message
        self.seat = seat


@dataclass(frozen=True, slots=True)
class Action:
    """One action: a seat and one verb with its value.

    ``value`` is a declaration string for ``declare``, a :class:`Card` for ``play`` and
    ``take-turnup``, a tuple of cards for ``exchange`` and ``True`` for ``for-pool``.
    ``civil`` marks a lead of the ace of trumps with "Pam be civil" said (CF-22, on-announce mode).
    """

    seat: int
    verb: str
    value: Any
    civil: bool = dataclasses.field(default=False, repr=False)

    @classmethod
    def declare(cls, seat: int, what: str) -> Action:
        return cls(seat, "declare", what)

    @classmethod
    def play(cls, seat: int, card: Card | str) -> Action:
        return cls(seat, "play", card if isinstance(card, Card) else Card.parse(card))

    @classmethod
    def exchange(cls, seat: int, cards: tuple[Card, ...] | list[Card]) -> Action:
        return cls(seat, "exchange", tuple(cards))

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        if self.verb == "exchange":
            out["exchange"] = [str(c) for c in self.value]
        elif isinstance(self.value, Card):
            out[self.verb] = str(self.value)
        else:
            out[self.verb] = self.value
        if self.civil:
            out["civil"] = True
        return out

    def __str__(self) -> str:
        value = " ".join(str(c) for c in self.value) if self.verb == "exchange" else str(self.value)
        if self.verb == "exchange" and not self.value:
            value = "nothing"
        return f"seat {self.seat} {self.verb} {value}".strip()

    @classmethod
    def from_record(cls, obj: Any, *, where: str = "action", seats: int | None = None) -> Action:
        if not isinstance(obj, dict):
            raise RecordError(where, f"must be an object such as {{'seat': 0, 'play': 'AS'}}, not {obj!r}")
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RecordError(f"{where}.seat", f"must be a seat number, not {seat!r}")
        if seats is not None and not 0 <= seat < seats:
            raise RecordError(f"{where}.seat", f"seat {seat} does not exist; seats are 0 to {seats - 1}")
        verbs = [k for k in obj if k in VERBS]
        extra = [k for k in obj if k not in VERBS and k not in ("seat", "civil")]
        if extra:
            raise RecordError(f"{where}.{extra[0]}", f"unknown verb; an action has one of {', '.join(VERBS)}")
        if len(verbs) != 1:
            raise RecordError(where, f"must have exactly one verb of {', '.join(VERBS)}, found {verbs or 'none'}")
        verb = verbs[0]
        raw = obj[verb]
        civil = obj.get("civil", False)
        if not isinstance(civil, bool):
            raise RecordError(f"{where}.civil", f"must be true or false, not {civil!r}")
        try:
            if verb == "declare":
                if raw not in DECLARATIONS:
                    raise RecordError(f"{where}.declare", f"must be one of {', '.join(DECLARATIONS)}, not {raw!r}")
                return cls(seat, verb, raw)
            if verb in ("play", "take-turnup"):
                return cls(seat, verb, Card.parse(raw), civil)
            if verb == "exchange":
                if not isinstance(raw, list):
                    raise RecordError(f"{where}.exchange", f"must be a list of cards, not {raw!r}")
                cards = tuple(Card.parse(c) for c in raw)
                if len(set(cards)) != len(cards):
                    raise RecordError(f"{where}.exchange", "names a card twice")
                return cls(seat, verb, cards)
            if raw is not True:
                raise RecordError(f"{where}.for-pool", f"must be true, not {raw!r}")
            return cls(seat, verb, True)
        except CardError as error:
            raise RecordError(f"{where}.{verb}", str(error)) from None
