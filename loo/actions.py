"""Actions: what a seat does, written as in docs/records.md.

>>> a = Action.from_record({"seat": 0, "play": "as"})
>>> a, a.to_record()
(Action(seat=0, verb='play', value=Card.parse('AS')), {'seat': 0, 'play': 'AS'})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from loo.cards import Card, CardError
from loo.rules import RecordError
from loo.tiles import NUMBER_PLURALS, Tile

DECLARATIONS = ("stand", "miss", "throw")
CALLS = ("pass", "1", "2", "3", "misery", "4", "nap", "wellington")  # AMB-36: in rising order
VERBS = ("declare", "exchange", "play", "take-turnup", "for-pool", "call", "peep", "garnet", "purchase")
PIECE_LISTS = ("exchange", "garnet", "purchase")  # verbs whose value is a list of cards (or tiles)


class IllegalActionError(ValueError):
    """An action the laws do not allow here. ``law`` is the catalogue ID it breaks."""

    def __init__(self, law: str, message: str, *, seat: int | None = None) -> None:
        super().__init__(f"{message} ({law})")
        self.law = law
        self.message = message
        self.seat = seat
        self.index: int | None = None  # set by a record's replay: which action of the record broke the law


@dataclass(frozen=True, slots=True)
class Action:
    """One action: a seat and one verb with its value.

    ``value`` is a declaration string for ``declare``, a call string for ``call``, a
    :class:`Card` (or a domino :class:`~loo.tiles.Tile`) for ``play`` and ``take-turnup``, a
    tuple of them for ``exchange``, ``garnet`` and ``purchase``, and ``True`` for ``for-pool``
    and ``peep``. ``civil`` marks a lead of the ace of trumps with "Pam be civil" said (CF-22,
    on-announce mode); ``suit`` is the end a domino leader announces (AMB-46).
    """

    seat: int
    verb: str
    value: Any
    civil: bool = dataclasses.field(default=False, repr=False)
    suit: int | None = dataclasses.field(default=None, repr=False)

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
        if self.verb in PIECE_LISTS:
            out[self.verb] = [str(c) for c in self.value]
        elif isinstance(self.value, (Card, Tile)):
            out[self.verb] = str(self.value)
        else:
            out[self.verb] = self.value
        if self.civil:
            out["civil"] = True
        if self.suit is not None:
            out["suit"] = self.suit
        return out

    def __str__(self) -> str:
        value = " ".join(str(c) for c in self.value) if self.verb in PIECE_LISTS else str(self.value)
        if self.verb in PIECE_LISTS and not self.value:
            value = "nothing"
        announced = f" as {NUMBER_PLURALS[self.suit]}" if self.suit is not None else ""
        return f"seat {self.seat} {self.verb} {value}{announced}".strip()

    @classmethod
    def from_record(
        cls,
        obj: Any,
        *,
        where: str = "action",
        seats: int | None = None,
        piece: Callable[[str], Any] = Card.parse,
    ) -> Action:
        """Read one action of a record. ``piece`` reads a card (the default) or a domino tile."""
        if not isinstance(obj, dict):
            raise RecordError(where, f"must be an object such as {{'seat': 0, 'play': 'AS'}}, not {obj!r}")
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RecordError(f"{where}.seat", f"must be a seat number, not {seat!r}")
        if seats is not None and not 0 <= seat < seats:
            raise RecordError(f"{where}.seat", f"seat {seat} does not exist; seats are 0 to {seats - 1}")
        verbs = [k for k in obj if k in VERBS]
        extra = [k for k in obj if k not in VERBS and k not in ("seat", "civil", "suit")]
        if extra:
            raise RecordError(f"{where}.{extra[0]}", f"unknown verb; an action has one of {', '.join(VERBS)}")
        if len(verbs) != 1:
            raise RecordError(where, f"must have exactly one verb of {', '.join(VERBS)}, found {verbs or 'none'}")
        verb = verbs[0]
        raw = obj[verb]
        civil = obj.get("civil", False)
        if not isinstance(civil, bool):
            raise RecordError(f"{where}.civil", f"must be true or false, not {civil!r}")
        suit = obj.get("suit")
        if suit is not None and (not isinstance(suit, int) or isinstance(suit, bool) or not 0 <= suit <= 6):
            raise RecordError(f"{where}.suit", f"must be a domino number from 0 to 6, not {suit!r}")
        if suit is not None and verb != "play":
            raise RecordError(f"{where}.suit", "only a play (a domino lead) announces a suit")
        try:
            if verb == "declare":
                if raw not in DECLARATIONS:
                    raise RecordError(f"{where}.declare", f"must be one of {', '.join(DECLARATIONS)}, not {raw!r}")
                return cls(seat, verb, raw)
            if verb == "call":
                if raw not in CALLS:
                    raise RecordError(f"{where}.call", f"must be one of {', '.join(CALLS)} (a string), not {raw!r}")
                return cls(seat, verb, raw)
            if verb in ("play", "take-turnup"):
                if not isinstance(raw, str):
                    raise RecordError(f"{where}.{verb}", f"must be written as text, not {raw!r}")
                return cls(seat, verb, piece(raw), civil, suit)
            if verb in PIECE_LISTS:
                if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
                    raise RecordError(f"{where}.{verb}", f"must be a list, not {raw!r}")
                pieces = tuple(piece(c) for c in raw)
                if len(set(pieces)) != len(pieces):
                    raise RecordError(f"{where}.{verb}", "names the same piece twice")
                return cls(seat, verb, pieces)
            if raw is not True:
                raise RecordError(f"{where}.{verb}", f"must be true, not {raw!r}")
            return cls(seat, verb, True)
        except (CardError, ValueError) as error:
            if isinstance(error, RecordError):
                raise
            raise RecordError(f"{where}.{verb}", str(error)) from None
