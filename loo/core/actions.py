"""Actions: what a seat does, written as in docs/records.md.

>>> a = Action.from_record({"seat": 0, "play": "as"})
>>> a, a.to_record()
(Action(seat=0, verb=<Verb.PLAY: 'play'>, value=Card.parse('AS')), {'seat': 0, 'play': 'AS'})
>>> a.verb == "play", Action(0, "play", a.value) == a
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from loo.core.cards import Card, CardError
from loo.core.rules import RecordError
from loo.core.tiles import NUMBER_PLURALS, Tile

DECLARATIONS = ("stand", "miss", "throw")
CALLS = ("pass", "1", "2", "3", "misery", "4", "nap", "wellington")  # AMB-36: in rising order


class Verb(StrEnum):
    """What an action does. A member is its record word, so it compares equal to that string
    (``Verb.PLAY == "play"``) and a record writes it unchanged."""

    DECLARE = "declare"  # Loo and dominoes: stand, miss or throw
    EXCHANGE = "exchange"  # Loo: cards given for the stock
    PLAY = "play"  # every game: a card or tile to the trick
    TAKE_TURNUP = "take-turnup"  # the dealer takes the turn-up into his hand
    FOR_POOL = "for-pool"  # the dealer plays for the pool alone
    CALL = "call"  # Nap: a call or a pass
    PEEP = "peep"  # Nap: a look at the top card for a fee
    GARNET = "garnet"  # Nap (Sir Garnet): the extra cards thrown out
    PURCHASE = "purchase"  # Nap (purchase): cards bought from the stock
    # A teaching table's bookkeeping, kept in a hand's history for take-back; never in a record:
    CLAIM = "claim"  # a claim of an offence (a revoke, a wrong count, a misdeal, a replay)
    PENALTY = "penalty"  # a penalty laid on a seat


VERBS: tuple[Verb, ...] = tuple(v for v in Verb if v not in (Verb.CLAIM, Verb.PENALTY))  # what records write
PIECE_LISTS = (Verb.EXCHANGE, Verb.GARNET, Verb.PURCHASE)  # verbs whose value is a list of cards (or tiles)
_VERB_OF: dict[str, Verb] = {v.value: v for v in Verb}  # a word, or a Verb itself, to its Verb (a fast lookup)


class IllegalActionError(ValueError):
    """An action the laws do not allow here. ``law`` is the catalogue ID it breaks."""

    def __init__(self, law: str, message: str, *, seat: int | None = None) -> None:
        super().__init__(f"{message} ({law})")
        self.law = law
        self.message = message
        self.seat = seat
        self.index: int | None = None  # set by a record's replay: which action of the record broke the law


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """One action: a seat and one verb with its value.

    ``value`` is a declaration string for ``declare``, a call string for ``call``, a
    :class:`Card` (or a domino :class:`~loo.core.tiles.Tile`) for ``play`` and ``take-turnup``, a
    tuple of them for ``exchange``, ``garnet`` and ``purchase``, and ``True`` for ``for-pool``
    and ``peep``. ``civil`` marks a lead of the ace of trumps with "Pam be civil" said (CF-22,
    on-announce mode); ``suit`` is the end a domino leader announces (AMB-46).
    """

    seat: int
    verb: Verb
    value: Any
    civil: bool = dataclasses.field(default=False, repr=False)
    suit: int | None = dataclasses.field(default=None, repr=False)

    def __init__(self, seat: int, verb: Verb | str, value: Any, civil: bool = False, suit: int | None = None) -> None:
        """``verb`` may be given as its word (``"play"``); it is kept as its :class:`Verb`."""
        try:
            word = _VERB_OF[verb]
        except KeyError:
            raise ValueError(f"unknown verb {verb!r}; the verbs are {', '.join(Verb)}") from None
        set_field = object.__setattr__
        set_field(self, "seat", seat)
        set_field(self, "verb", word)
        set_field(self, "value", value)
        set_field(self, "civil", civil)
        set_field(self, "suit", suit)

    @classmethod
    def declare(cls, seat: int, what: str) -> Action:
        return cls(seat, Verb.DECLARE, what)

    @classmethod
    def play(cls, seat: int, card: Card | str) -> Action:
        return cls(seat, Verb.PLAY, card if isinstance(card, Card) else Card.parse(card))

    @classmethod
    def exchange(cls, seat: int, cards: tuple[Card, ...] | list[Card]) -> Action:
        return cls(seat, Verb.EXCHANGE, tuple(cards))

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        word = self.verb.value  # a plain string key, as a record writes it
        if self.verb in PIECE_LISTS:
            out[word] = [str(c) for c in self.value]
        elif isinstance(self.value, (Card, Tile)):
            out[word] = str(self.value)
        else:
            out[word] = self.value
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
        verb = _VERB_OF[verbs[0]]
        raw = obj[verb]
        civil = obj.get("civil", False)
        if not isinstance(civil, bool):
            raise RecordError(f"{where}.civil", f"must be true or false, not {civil!r}")
        suit = obj.get("suit")
        if suit is not None and (not isinstance(suit, int) or isinstance(suit, bool) or not 0 <= suit <= 6):
            raise RecordError(f"{where}.suit", f"must be a domino number from 0 to 6, not {suit!r}")
        if suit is not None and verb is not Verb.PLAY:
            raise RecordError(f"{where}.suit", "only a play (a domino lead) announces a suit")
        try:
            if verb is Verb.DECLARE:
                if raw not in DECLARATIONS:
                    raise RecordError(f"{where}.declare", f"must be one of {', '.join(DECLARATIONS)}, not {raw!r}")
                return cls(seat, verb, raw)
            if verb is Verb.CALL:
                if raw not in CALLS:
                    raise RecordError(f"{where}.call", f"must be one of {', '.join(CALLS)} (a string), not {raw!r}")
                return cls(seat, verb, raw)
            if verb in (Verb.PLAY, Verb.TAKE_TURNUP):
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
