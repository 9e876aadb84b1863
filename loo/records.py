"""Hand records, format ``loo-record/1`` (docs/records.md), read and written, and the checker.

>>> rec = Record.from_json({"format": "loo-record/1", "game": "three-card-loo",
...     "seats": ["Ann", "Ben", "Cat"], "dealer": 2, "pool": 3, "deal": {"seed": 7}, "actions": []})
>>> hand = rec.start()
>>> hand.to_act
0
>>> Record.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import difflib
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from loo.core.actions import VERBS, Action, IllegalActionError, Verb
from loo.core.cards import Card, CardError
from loo.core.hand import TrickHand
from loo.core.rules import RecordError
from loo.games.loo.dealing import deal_cards
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import FirstDealMode, Game, Rules
from loo.games.loo.state import DealKind
from loo.registry import GAMES, Family, UnknownGame, entry, spec

FORMAT = "loo-record/1"
OTHER_GAMES = tuple(g.name for g in GAMES if g.family is not Family.LOO)  # read by their own modules
MAX_SEATS = 17  # the most players any game seats: Irish Loo's pack serves 17 hands of three (AMB-02)
# The verbs each Loo game's records may write (docs/records.md, Actions): the dealer's play of the miss
# for the pool at three-card Loo, which alone has a miss; exchanges and Pam's game's turn-up at five-card.
LOO_VERBS: dict[Game, tuple[Verb, ...]] = {
    Game.THREE_CARD: (Verb.DECLARE, Verb.FOR_POOL, Verb.PLAY),
    Game.FIVE_CARD: (Verb.DECLARE, Verb.TAKE_TURNUP, Verb.EXCHANGE, Verb.PLAY),
    Game.IRISH: (Verb.DECLARE, Verb.EXCHANGE, Verb.PLAY),
}
"""The most players at one table (a deal code's ``c10``); Nap's pack holds ten hands of five."""
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
FIELDS = ("format", "game", "rules", "seats", "dealer", "pool", "deal_kind", "deal", "actions")
"""The keys a record may have at its top level; any other is refused (a misspelt ``deal_kind`` would
otherwise deal an ordinary hand)."""


@dataclass(frozen=True)
class Record:
    """One deal of one game: rules, seats, cards and actions."""

    game: Game
    rules: Rules
    seats: tuple[str, ...]
    dealer: int
    pool: int
    hands: tuple[tuple[Card, ...] | None, ...]
    turnup: Card
    miss: tuple[Card, ...] = ()
    stock: tuple[Card, ...] | None = None
    seed: int | None = None
    deal_kind: DealKind = DealKind.NORMAL
    actions: tuple[Action, ...] = ()
    rules_given: bool = field(default=True, compare=False)

    # ----- reading -----------------------------------------------------------------------

    @classmethod
    def loads(cls, text: str) -> Record:
        return cls.from_json(parse_json(text))

    @classmethod
    def from_json(cls, obj: Any) -> Record:
        obj = read_header(obj)
        game_name = obj.get("game")
        if game_name in OTHER_GAMES:
            raise RecordError("game", f"{game_name!r} records are read by their own module: use records.load()")
        if not isinstance(game_name, str):
            raise RecordError("game", f"must be the name of a game, not {game_name!r}")
        rules = Rules.from_record(game_name, obj.get("rules"))
        game = rules.game
        seats, dealer, pool = read_table(
            obj,
            most=game.max_seats,
            why_most=f"at {game.value}, all the pack serves: AMB-02",
            least_pool=rules.deal_price,
            stake="chips of the deal price, which the dealer has just paid into it "
            + ("(L5-STK-01)" if game is Game.FIVE_CARD else "(L3-STK-07)"),
        )
        n = len(seats)
        kind_name = obj.get("deal_kind", "normal")
        try:
            deal_kind = DealKind(kind_name)
        except ValueError:
            kinds = ", ".join(k.value for k in DealKind)
            raise RecordError("deal_kind", f"must be one of {kinds}, not {kind_name!r}") from None
        if deal_kind is not DealKind.NORMAL and game is not Game.THREE_CARD:
            raise RecordError("deal_kind", f"{deal_kind.value} deals belong to three-card Loo only")
        deal = obj.get("deal")
        if not isinstance(deal, dict):
            raise RecordError("deal", "must be an object with the cards, or {'seed': N}")
        seed: int | None = None
        stock: tuple[Card, ...] | None
        if "seed" in deal:
            seed = deal["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise RecordError("deal.seed", f"must be a whole number, not {seed!r}")
            if len(deal) > 1:
                raise RecordError("deal", "a seeded deal has the seed alone")
            hands, miss, turnup, stock = _dealt_from_seed(rules, seed, n, dealer, deal_kind)
        else:
            hands, miss, turnup, stock = _read_cards(deal, rules, n, dealer, deal_kind)
        actions = read_actions(
            obj, n, game=entry(game.value).in_text, verbs=LOO_VERBS[game], pam=game is Game.FIVE_CARD
        )
        return cls(
            game=game,
            rules=rules,
            seats=seats,
            dealer=dealer,
            pool=pool,
            hands=hands,
            turnup=turnup,
            miss=miss,
            stock=stock,
            seed=seed,
            deal_kind=deal_kind,
            actions=actions,
            rules_given="rules" in obj,
        )

    # ----- writing -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": self.game.value}
        if self.rules_given or self.rules != Rules.from_record(self.game, None):
            out["rules"] = self.rules.to_record()
        out["seats"] = list(self.seats)
        out["dealer"] = self.dealer
        out["pool"] = self.pool
        if self.deal_kind is not DealKind.NORMAL:
            out["deal_kind"] = self.deal_kind.value
        if self.seed is not None:
            out["deal"] = {"seed": self.seed}
        else:
            deal: dict[str, Any] = {"hands": [[str(c) for c in h] if h is not None else None for h in self.hands]}
            if self.miss:
                deal["miss"] = [str(c) for c in self.miss]
            deal["turnup"] = str(self.turnup)
            if self.stock is not None:
                deal["stock"] = [str(c) for c in self.stock]
            out["deal"] = deal
        out["actions"] = [a.to_record() for a in self.actions]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def with_cards(self) -> Record:
        """The same record with the seeded deal written out card by card."""
        if self.seed is None:
            return self
        return Record(**{**self.__dict__, "seed": None})

    # ----- replaying -----------------------------------------------------------------------

    def start(self) -> LooHand:
        """The hand as dealt, before any action."""
        return LooHand(
            self.rules,
            hands=self.hands,
            turnup=self.turnup,
            dealer=self.dealer,
            pool=self.pool,
            miss=self.miss,
            stock=self.stock,
            deal_kind=self.deal_kind,
            names=self.seats,
        )

    def replay(self) -> LooHand:
        """The hand after every action; raises :class:`IllegalActionError` (with ``index``) at the first illegal one."""
        return replay_actions(self.start(), self.actions)

    @classmethod
    def of_hand(cls, hand: LooHand, *, seed: int | None = None) -> Record:
        """The record of a hand played in the engine (cards written out unless ``seed`` is given)."""
        return cls(
            game=hand.game,
            rules=hand.rules,
            seats=hand.names,
            dealer=hand.dealer,
            pool=hand.pool,
            hands=hand.dealt,
            turnup=hand.turnup,
            miss=hand.miss,
            stock=hand.stock,
            seed=seed,
            deal_kind=hand.deal_kind,
            actions=tuple(hand.actions),
        )


# ----- shared by every game's records (Loo here; Nap in loo.games.nap.record; dominoes in loo.games.dominoes) -----


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
    return obj


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


H = TypeVar("H", bound=TrickHand)


def replay_actions(hand: H, actions: Sequence[Action]) -> H:
    """Push a record's actions in order; an illegal one raises :class:`IllegalActionError` with its ``index``."""
    for i, action in enumerate(actions):
        try:
            hand.push(action)
        except IllegalActionError as error:
            error.index = i
            raise
    return hand


def record_type(game: Any) -> Any:
    """The record class that reads records of ``game`` (its descriptor's, :func:`loo.registry.spec`)."""
    try:
        package = entry(game).package
    except UnknownGame:
        return Record  # Record.from_json says what is wrong with the game's name
    try:
        return spec(game).record_type()
    except ModuleNotFoundError as error:  # a build of the engine without that game's package
        if not (error.name or "").startswith(package):
            raise
        raise RecordError("game", f"{game!r} is not yet supported by this version of the engine") from None


def load(text: str | bytes) -> Any:
    """Read a record of any game from JSON text (or UTF-8 bytes)."""
    obj = read_header(parse_json(text))
    game = obj.get("game")
    if not isinstance(game, str):
        raise RecordError("game", f"must be the name of a game, not {game!r}")
    return record_type(game).from_json(obj)


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(key, f"must be a whole number, not {value!r}")
    return value


def _hand_size(rules: Rules, kind: DealKind) -> int:
    if kind is DealKind.SINGLE and rules.first_deal_mode is FirstDealMode.PEEL_SINGLE:
        return 1
    return rules.game.hand_size


def _dealt_from_seed(
    rules: Rules, seed: int, n: int, dealer: int, kind: DealKind
) -> tuple[tuple[tuple[Card, ...] | None, ...], tuple[Card, ...], Card, tuple[Card, ...]]:
    try:
        hands, miss, turnup, stock = deal_cards(rules, random.Random(seed), seats=n, dealer=dealer, deal_kind=kind)
    except ValueError as error:  # more players than the pack serves (AMB-02), as Nap and dominoes refuse
        raise RecordError("seats", str(error)) from None
    return tuple(tuple(h) if h is not None else None for h in hands), tuple(miss), turnup, tuple(stock)


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    return read_pieces(value, where)


def _read_cards(
    deal: dict[str, Any], rules: Rules, n: int, dealer: int, kind: DealKind
) -> tuple[tuple[tuple[Card, ...] | None, ...], tuple[Card, ...], Card | Any, tuple[Card, ...] | None]:
    unknown = [k for k in deal if k not in ("hands", "miss", "turnup", "stock")]
    if unknown:
        raise RecordError(f"deal.{unknown[0]}", "unknown field; a deal has hands, miss, turnup and stock, or seed")
    raw_hands = deal.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError("deal.hands", "must be a list with one hand per seat")
    if len(raw_hands) != n:
        raise RecordError("deal.hands", f"has {len(raw_hands)} hands for {n} seats")
    size = _hand_size(rules, kind)
    hands: list[tuple[Card, ...] | None] = []
    for seat, raw in enumerate(raw_hands):
        if raw is None:
            if seat != dealer:
                raise RecordError(f"deal.hands[{seat}]", "only the dealer may be dealt no cards (L3-OUT-01, L3-WD-03)")
            hands.append(None)
            continue
        cards = _cards(raw, f"deal.hands[{seat}]")
        if len(cards) != size:
            raise RecordError(f"deal.hands[{seat}]", f"has {len(cards)} cards; each hand here has {size}")
        hands.append(cards)
    if sum(h is not None for h in hands) < 2:
        raise RecordError("deal.hands", "at least two players must be dealt cards")
    wants_miss = rules.game.has_miss and kind is DealKind.NORMAL
    miss = _cards(deal.get("miss", []), "deal.miss")
    if wants_miss and len(miss) != 3:
        raise RecordError("deal.miss", f"must hold 3 cards, not {len(miss)}")
    if not wants_miss and miss:
        raise RecordError("deal.miss", "this deal has no miss")
    if "turnup" not in deal:
        raise RecordError("deal.turnup", "is missing: the turned-up card fixes trumps")
    try:
        turnup = Card.parse(deal["turnup"])
    except CardError as error:
        raise RecordError("deal.turnup", str(error)) from None
    stock = _cards(deal["stock"], "deal.stock") if "stock" in deal else None
    places: list[tuple[str, tuple[Any, ...]]] = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands) if h]
    places += [("deal.miss", miss), ("deal.turnup", (turnup,)), ("deal.stock", stock or ())]
    no_duplicates(places)
    return tuple(hands), miss, turnup, stock


def check(text: str | bytes) -> tuple[int, dict[str, Any]]:
    """``python -m loo check``: (exit status, the JSON object to print) as docs/records.md defines them."""
    try:
        record = load(text)
    except RecordError as error:
        return 2, {"ok": False, "error": "invalid-record", "message": f"{error.field}: {error.message}"}
    try:
        hand = record.replay()
    except IllegalActionError as error:
        return 1, {
            "ok": False,
            "action": error.index,
            "seat": error.seat,
            "law": error.law,
            "message": error.message[:1].upper() + error.message[1:],
        }
    except RecordError as error:  # pragma: no cover - replay reads nothing new
        return 2, {"ok": False, "error": "invalid-record", "message": f"{error.field}: {error.message}"}
    settlement = hand.settlement
    if settlement is None:
        return 0, {
            "ok": True,
            "complete": False,
            "to_act": hand.to_act,
            "legal": [a.to_record() for a in hand.legal_actions()],
        }
    return 0, {"ok": True, "complete": True, **settlement.to_record()}
