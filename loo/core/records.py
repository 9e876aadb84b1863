"""What every game's hand record shares (``loo-record/1``, docs/records.md): the bounds on what is read,
the JSON parser that enforces them, the readers of the header, the table, the deal's seed, the pieces and
the actions, the replay, and :class:`RecordBase`, from which each game's record class (in its own
package) takes its reading, writing and replaying. :mod:`loo.records` finds a game's record class.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from loo.core.actions import VERBS, Action, IllegalActionError, Verb
from loo.core.cards import Card
from loo.core.hand import TrickHand
from loo.core.rules import RecordError

FORMAT = "loo-record/1"
MAX_SEATS = 17
"""The most players any game seats, at one table or in a deal code's ``c``: Irish Loo's pack serves 17
hands of three (AMB-02). A game whose pack serves fewer says so when it reads its records."""
MAX_NAME_CHARS = 40
"""The longest player's name a record may give."""
MAX_RECORD_CHARS = 256 * 1024
"""The longest text read as a record. A legal hand record is far shorter: ten seats of 40-character
names and the 64 actions of a five-card hand, written out card by card and indented, come to some
4,300 characters (under 10,000 even with every name's letters escaped)."""
MAX_RECORD_BYTES = 4 * MAX_RECORD_CHARS
"""The most bytes read from a file or standard input: ``MAX_RECORD_CHARS`` characters of UTF-8 at most."""
MAX_DEPTH = 10
"""How deep a record's lists and objects may nest. A legal record nests four deep (the record, its
``deal``, the ``hands``, a hand); deeper text is refused before it is parsed, so that no reader recurses
without bound."""
MAX_POOL = 10**15
"""The most chips a record's pool may hold: beyond any game (a loo is paid in chips a table can count),
and below 2**53, so a browser reads every pool and the sums made from it exactly."""
FIELDS = ("format", "game", "rules", "seats", "dealer", "pool", "deal_kind", "deal", "actions", "review")
"""The keys a record may have at its top level; any other is refused (a misspelt ``deal_kind`` would
otherwise deal an ordinary hand). ``review`` is what a review said of the hand's decisions (the
teacher's console writes it, as ``loo review`` prints them): read for its shape, never replayed."""


@dataclass(frozen=True)
class HugeNumber:
    """A whole number in a record's JSON with more digits than Python turns into an ``int`` (4,300).

    The parser keeps its place in the record so that the field holding it is refused by name, as any value
    of the wrong kind is: ``pool: must be a whole number, not a number of 5,000 digits``.
    """

    digits: int

    def __repr__(self) -> str:
        return f"a number of {self.digits:,} digits"


def _whole_number(text: str) -> int | HugeNumber:
    try:
        return int(text)
    except ValueError:  # beyond sys.get_int_max_str_digits()
        return HugeNumber(len(text.lstrip("-")))


def decode(data: bytes) -> str:
    """The text of a record read as bytes (a file, standard input); bytes that are not UTF-8 are refused."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError("record", f"is more than {MAX_RECORD_BYTES:,} bytes long, more than any hand record")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(
            "record", f"is not UTF-8 text: at byte {error.start:,} (0x{data[error.start]:02x}): {error.reason}"
        ) from None


# A JSON string, or one of the characters that open, close or separate lists and objects.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[][{},]')


def _refuse_deep_nesting(text: str) -> None:
    """Refuse JSON text that nests lists and objects more than :data:`MAX_DEPTH` deep, before it is parsed
    (Python's parser, and every reader after it, recurse), naming the top-level field where it does."""
    depth = 0
    field = "record"  # the key last seen at the top level of the record
    expect_key = False  # the next string at the top level is a key
    in_object = False  # the text is an object, as a record is
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            if depth >= MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - text.rfind("\n", 0, match.start())
                raise RecordError(
                    field if depth else "record",
                    f"is nested too deeply: more than {MAX_DEPTH} lists or objects within one another at line "
                    f"{line} column {column} (a hand record nests four deep at most)",
                )
            depth += 1
            if depth == 1:
                in_object = expect_key = token == "{"
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
        elif token == ",":
            expect_key = depth == 1 and in_object
        elif depth == 1 and expect_key:
            field, expect_key = token[1:-1], False


def parse_json(text: str | bytes) -> Any:
    """The JSON of a record, or a :class:`RecordError` saying where it stopped being JSON.

    Input is bounded here, where it enters, so that no reader after it meets what no record holds:
    bytes must be UTF-8 (:func:`decode`); text longer than :data:`MAX_RECORD_CHARS` is refused unread;
    text nested more than :data:`MAX_DEPTH` deep is refused unparsed; and a number too long for an
    ``int`` is read as a :class:`HugeNumber`, refused by the field that holds it.
    """
    if isinstance(text, bytes):
        text = decode(text)
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(
            "record", f"is {len(text):,} characters long, more than any hand record (at most {MAX_RECORD_CHARS:,})"
        )
    _refuse_deep_nesting(text)
    try:
        return json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as error:
        raise RecordError("record", f"not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:  # pragma: no cover - refused above
        raise RecordError("record", "is nested too deeply to be a hand record (lists within lists)") from None


def read_header(obj: Any) -> dict[str, Any]:
    """Check that a record is an object in format ``loo-record/1``; return it."""
    if not isinstance(obj, dict):
        raise RecordError("record", "must be a JSON object")
    if obj.get("format") != FORMAT:
        raise RecordError("format", f"must be {FORMAT!r}, not {obj.get('format')!r}")
    unknown = [key for key in obj if key not in FIELDS]
    if unknown:
        key = str(unknown[0])
        near = difflib.get_close_matches(key, FIELDS, n=1) if len(key) <= MAX_NAME_CHARS else []
        meant = f" ({near[0]!r} is meant?)" if near else ""
        raise RecordError(key, f"unknown field{meant}; a record has {', '.join(FIELDS)}")
    if "review" in obj:
        read_review(obj["review"], obj.get("actions"))
    return obj


def read_review(review: Any, actions: Any) -> None:
    """Check a record's ``review``: a list of objects, each naming by ``action`` the place in the
    record's actions of the decision it weighed (the rest is what the review said, not checked)."""
    if not isinstance(review, list):
        raise RecordError("review", "must be a list of the weighed decisions")
    count = len(actions) if isinstance(actions, list) else 0
    for i, item in enumerate(review):
        if not isinstance(item, dict):
            raise RecordError(f"review[{i}]", "must be an object")
        place = item.get("action")
        if isinstance(place, bool) or not isinstance(place, int) or not 0 <= place < count:
            raise RecordError(f"review[{i}].action", f"must be the place of one of the record's {count} actions")


def read_table(
    obj: dict[str, Any], *, least_pool: int = 0, stake: str = "", most: int = MAX_SEATS, why_most: str = ""
) -> tuple[tuple[str, ...], int, int]:
    """The seats, the dealer and the pool of a record, each checked; raises :class:`RecordError`.

    Every game's records, ``loo check`` and a table's loaded record alike, are read by this one
    rule: two to ``most`` players (:data:`MAX_SEATS` unless the game seats fewer, which ``why_most``
    says), each named by a different name of one to :data:`MAX_NAME_CHARS` characters; a pool of no
    more than :data:`MAX_POOL` chips, and of at least ``least_pool``, the stake ``stake`` says was
    just paid for this deal.
    """
    seats = obj.get("seats")
    if not isinstance(seats, list):
        raise RecordError("seats", "must be a list of player names")
    if not 2 <= len(seats) <= most:
        because = f" ({why_most})" if why_most else ""
        raise RecordError("seats", f"a table seats two to {most} players{because}, not {len(seats)}")
    first: dict[str, int] = {}
    for i, name in enumerate(seats):
        if not isinstance(name, str) or not name.strip():
            raise RecordError(f"seats[{i}]", f"must be a player's name, not {name!r}")
        if len(name) > MAX_NAME_CHARS:
            raise RecordError(f"seats[{i}]", f"is {len(name)} characters long; a name has at most {MAX_NAME_CHARS}")
        if name in first:
            raise RecordError(
                f"seats[{i}]", f"{name!r} is the name at seats[{first[name]}] too: each player needs a different name"
            )
        first[name] = i
    n = len(seats)
    dealer = _int(obj, "dealer")
    if not 0 <= dealer < n:
        raise RecordError("dealer", f"seat {dealer} does not exist; seats are 0 to {n - 1}")
    pool = _int(obj, "pool")
    if pool < 0:
        raise RecordError("pool", f"cannot be negative: {pool}")
    if pool > MAX_POOL:
        raise RecordError("pool", f"holds {pool:,} chips, more than any table's pool (at most {MAX_POOL:,})")
    if pool < least_pool:
        raise RecordError("pool", f"holds {pool}, less than the {least_pool} {stake}")
    return tuple(seats), dealer, pool


def read_actions(
    obj: dict[str, Any],
    n: int,
    piece: Callable[[str], Any] = Card.parse,
    *,
    game: str = "this game",
    verbs: Sequence[Verb] = VERBS,
    pam: bool = False,
) -> tuple[Action, ...]:
    """A record's actions, each read. An action ``game`` never has, a verb not of ``verbs`` or a
    "Pam be civil" where there is no Pam (``pam``), is refused as a record of another game, naming the
    field: an unreadable record (``loo check`` exits 2). An action of the game where its laws forbid it
    is an illegal action (exit 1), found by replaying the record."""
    raw_actions = obj.get("actions", [])
    if not isinstance(raw_actions, list):
        raise RecordError("actions", "must be a list")
    actions = []
    for i, raw in enumerate(raw_actions):
        action = Action.from_record(raw, where=f"actions[{i}]", seats=n, piece=piece)
        if action.verb not in verbs:
            said = f"{game} has no {str(action.verb)!r}: its actions are {', '.join(map(str, verbs))}"
            raise RecordError(f"actions[{i}].{action.verb}", said)
        if action.civil and not pam:
            raise RecordError(f"actions[{i}].civil", f"{game} has no Pam: no action says 'Pam be civil'")
        actions.append(action)
    return tuple(actions)


def read_pieces(value: Any, where: str, piece: Callable[[str], Any] = Card.parse) -> tuple[Any, ...]:
    """A list of cards (or tiles), each read with ``piece``; errors name the list item at fault."""
    if not isinstance(value, list):
        raise RecordError(where, f"must be a list, not {value!r}")
    out = []
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise RecordError(f"{where}[{i}]", f"must be written as text, not {text!r}")
        try:
            out.append(piece(text))
        except ValueError as error:
            raise RecordError(f"{where}[{i}]", str(error)) from None
    return tuple(out)


def no_duplicates(places: list[tuple[str, tuple[Any, ...]]]) -> None:
    """Refuse a card or tile dealt twice, naming both places."""
    seen: dict[Any, str] = {}
    for where, pieces in places:
        for item in pieces:
            if item in seen:
                raise RecordError(where, f"{item} is dealt twice (also in {seen[item]})")
            seen[item] = where


H = TypeVar("H", bound=TrickHand[Any, Any, Any])


def replay_actions(hand: H, actions: Sequence[Action]) -> H:
    """Push a record's actions in order; an illegal one raises :class:`IllegalActionError` with its ``index``."""
    for i, action in enumerate(actions):
        try:
            hand.push(action)
        except IllegalActionError as error:
            error.index = i
            raise
    return hand


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(key, f"must be a whole number, not {value!r}")
    return value


def read_deal(obj: dict[str, Any], pieces: str = "cards") -> tuple[dict[str, Any], int | None]:
    """A record's ``deal`` object and its seed (None for a deal written out piece by piece); a seeded
    deal holds its seed, a whole number, and nothing else. ``pieces`` names what a deal holds."""
    deal = obj.get("deal")
    if not isinstance(deal, dict):
        raise RecordError("deal", f"must be an object with the {pieces}, or {{'seed': N}}")
    if "seed" not in deal:
        return deal, None
    seed = deal["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("deal.seed", f"must be a whole number, not {seed!r}")
    if len(deal) > 1:
        raise RecordError("deal", "a seeded deal has the seed alone")
    return deal, seed


def read_hands(
    deal: dict[str, Any], n: int, fields: Sequence[str], *, named: str = "a deal", hand: str = "hand"
) -> list[Any]:
    """A deal written out: its fields checked against ``fields`` (``named`` says whose deal has them), and
    its ``hands``, one ``hand`` for each of ``n`` seats, as the record gives them (each game reads them)."""
    unknown = [key for key in deal if key not in fields]
    if unknown:
        has = ", ".join(fields[:-1]) + " and " + fields[-1]
        raise RecordError(f"deal.{unknown[0]}", f"unknown field; {named} has {has}, or seed")
    raw_hands = deal.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError("deal.hands", f"must be a list with one {hand} per seat")
    if len(raw_hands) != n:
        raise RecordError("deal.hands", f"has {len(raw_hands)} hands for {n} seats")
    return raw_hands


class RecordBase(Generic[H]):
    """What every game's record class (a frozen dataclass) takes from here: reading (:meth:`from_json`,
    :meth:`loads`), writing (:meth:`to_json` in the format's order, :meth:`dumps`, :meth:`with_cards`),
    the hand as dealt (:meth:`start`) and after every action (:meth:`replay`), and the record of a hand
    (:meth:`of_hand`). A game's class says what is its own: its rules, table, deal and actions as read
    (:meth:`_read_rules`, :meth:`_read_table`, :meth:`_read_deal`, :meth:`_read_actions`), its hand class
    (``_hand``) and the pieces of the deal that record and hand name alike (``_DEALT``), its deal written
    out (:meth:`_written_deal`), its default rules (:meth:`_default_rules`) and any field of its own
    (:meth:`_own_fields`, :meth:`_own_of_hand`)."""

    seats: tuple[str, ...]
    dealer: int
    pool: int
    hands: tuple[Any, ...]
    seed: int | None
    actions: tuple[Any, ...]
    rules: Any
    rules_given: bool
    _hand: ClassVar[Callable[..., Any]]
    """The game's hand class, which :meth:`start` deals."""
    _DEALT: ClassVar[tuple[str, ...]] = ()
    """The deal's pieces besides the hands, named alike in the record and in its hand (``turnup``, ``stock``)."""

    @property
    def game_name(self) -> str:
        """The game's name as its records write it (``three-card-loo``, ``nap``, ``domino-loo``)."""
        raise NotImplementedError

    # ----- reading -------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Any) -> Self:
        """Read a record; one that cannot be read raises :class:`RecordError` naming the field.

        Every game's records are read in the same steps, in this order (which decides the error a record
        with several faults gets): the header, the rules (which check the game), the table, the deal
        (from its seed or written out, with the fields of the game's own) and the actions."""
        obj = read_header(obj)
        rules = cls._read_rules(obj)
        seats, dealer, pool = cls._read_table(obj, rules)
        dealt, seed = cls._read_deal(obj, rules, len(seats), dealer)
        actions = cls._read_actions(obj, rules, len(seats))
        make: Callable[..., Self] = cls
        return make(
            rules=rules,
            seats=seats,
            dealer=dealer,
            pool=pool,
            seed=seed,
            actions=actions,
            rules_given="rules" in obj,
            **dealt,
        )

    @classmethod
    def loads(cls, text: str) -> Self:
        return cls.from_json(parse_json(text))

    @classmethod
    def _read_rules(cls, obj: dict[str, Any]) -> Any:
        """The record's rules, once its ``game`` is checked to be this class's."""
        raise NotImplementedError

    @classmethod
    def _read_table(cls, obj: dict[str, Any], rules: Any) -> tuple[tuple[str, ...], int, int]:
        """The seats, the dealer and the pool (:func:`read_table`), within the game's bounds."""
        return read_table(obj)

    @classmethod
    def _read_deal(cls, obj: dict[str, Any], rules: Any, n: int, dealer: int) -> tuple[dict[str, Any], int | None]:
        """The record's fields of the game's own, its deal among them, and the deal's seed (None if written out)."""
        raise NotImplementedError

    @classmethod
    def _read_actions(cls, obj: dict[str, Any], rules: Any, n: int) -> tuple[Action, ...]:
        """The actions (:func:`read_actions`), each one of the game's."""
        raise NotImplementedError

    # ----- replaying -----------------------------------------------------------------------------

    def _dealing(self) -> dict[str, Any]:
        """What the game's hand class is dealt from (but its rules): this record's deal and table."""
        own = {name: getattr(self, name) for name in self._DEALT}
        return {"hands": self.hands, "dealer": self.dealer, "pool": self.pool, "names": self.seats, **own}

    def start(self) -> H:
        """The hand as dealt, before any action."""
        hand: H = self._hand(self.rules, **self._dealing())
        return hand

    def replay(self) -> H:
        """The hand after every action; raises :class:`IllegalActionError` (with ``index``) at the first illegal one."""
        return replay_actions(self.start(), self.actions)

    @classmethod
    def of_hand(cls, hand: H, *, seed: int | None = None) -> Self:
        """The record of a hand played in the engine (its deal written out unless ``seed`` is given)."""
        own = {name: getattr(hand, name) for name in cls._DEALT}
        make: Callable[..., Self] = cls
        return make(
            rules=hand.rules,
            seats=hand.names,
            dealer=hand.dealer,
            pool=hand.pool,
            hands=hand.dealt,
            seed=seed,
            **(own | cls._own_of_hand(hand)),
        )

    @classmethod
    def _own_of_hand(cls, hand: H) -> dict[str, Any]:
        """The record's fields of ``hand`` that are the game's own, its actions among them."""
        return {"actions": tuple(hand.actions)}

    # ----- writing -------------------------------------------------------------------------------

    def _default_rules(self) -> Any:
        raise NotImplementedError

    def _written_deal(self) -> dict[str, Any]:
        raise NotImplementedError

    def _own_fields(self) -> dict[str, Any]:
        """Fields of the game's own between the pool and the deal (Loo's ``deal_kind``); none here."""
        return {}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": self.game_name}
        if self.rules_given or self.rules != self._default_rules():
            out["rules"] = self.rules.to_record()
        out["seats"] = list(self.seats)
        out["dealer"] = self.dealer
        out["pool"] = self.pool
        out |= self._own_fields()
        out["deal"] = {"seed": self.seed} if self.seed is not None else self._written_deal()
        out["actions"] = [a.to_record() for a in self.actions]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def with_cards(self) -> Self:
        """The same record with a seeded deal written out piece by piece."""
        return self if self.seed is None else dataclasses.replace(self, seed=None)  # type: ignore[type-var]
