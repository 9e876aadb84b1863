"""Deal codes: one short, URL-safe line that names a deal exactly, so a class can all play the same hand.

A deal code is the header of a ``loo-record/1`` record whose deal is ``{"seed": N}`` (docs/records.md),
plus the seat the reader takes. Its parts are separated by dots::

    l3.peel.s0.n482910233              three-card Loo, Peel's rules, seat 0 (Ann), seed 482910233
    l3.peel_loo-mode~unlimited.s2.n7   the same game with one option changed, at seat 2
    nap.hoffmann.s0.n31.d2.p4          dealt by seat 2 into a pool of 4

1. the game: ``l3`` three-card Loo, ``l5`` five-card Loo (Pam), ``il`` Irish Loo, ``nap`` Nap,
   ``dl`` Domino Loo, ``dr`` Domino Rounce (the full names are read too);
2. the rules: a preset's name, then each option that differs from it as ``_option~value``
   (``true`` / ``false`` for a switch, a whole number, or an enumerated value), exactly the
   record's ``rules`` written in one word;
3. then tagged parts, each a letter and its value: ``s`` the reader's seat (from 0, as in records)
   and ``n`` the seed, always; and only when they differ from a new game's first deal, ``d`` the
   dealer's seat, ``p`` the chips in the pool as dealt (the dealer's payment included), ``k`` the
   kind of deal (``knormal``, ``ksingle``, ``kfinal``: the last two three-card Loo's only) and ``c``
   the number of seats.

Every character is one a URL carries unescaped (letters, digits, ``.``, ``_``, ``~``, ``-``);
capitals are read as small letters. Without ``d``, ``p`` and ``k`` the code is the first hand
of a new game: the reader is the eldest hand, the dealer sits on the reader's right.

A code reveals every card of its deal to anyone with the engine: a table shows one only when
the reader asks for it, as with the "Show all hands" switch.

>>> code = parse_deal_code("L3.peel_loo-mode~unlimited.s0.n12")
>>> code.game, code.rules, code.seat, code.seed, str(code)
('three-card-loo', {'preset': 'peel', 'loo-mode': 'unlimited'}, 0, 12, 'l3.peel_loo-mode~unlimited.s0.n12')
>>> try:
...     parse_deal_code("l3.peel.s7.n12")
... except DealCodeError as refused:
...     print(refused)
the seat s7 does not exist: this game has seats s0 to s4
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from loo.core.rules import MAX_OPTION_NUMBER, RecordError
from loo.kits import kit
from loo.options import game_options, presets
from loo.records import MAX_SEATS, load
from loo.registry import GAMES, NAMES

GAME_CODES = {g.name: g.code for g in GAMES}  # each game's word in a code (loo.registry)
GAME_OF_CODE = {short: game for game, short in GAME_CODES.items()}
# The seats at a table of each game unless a code says otherwise.
USUAL_SEATS = {g.name: g.usual_seats for g in GAMES}
KINDS = ("normal", "single", "final")
TAGS = {
    "s": "the seat",
    "n": "the seed",
    "d": "the dealer",
    "p": "the pool",
    "k": "the kind of deal",
    "c": "the number of seats",
}
MAX_SEED_DIGITS = 18
MAX_POOL = MAX_OPTION_NUMBER  # a pool as large as the largest deal price, which a record's pool must hold
_WORD = re.compile(r"^[a-z0-9-]+$")
_ALLOWED = re.compile(r"^[a-z0-9._~-]*$")


def longest_code_length(game: str) -> int:
    """The most characters a legal deal code of ``game`` can have: its longest preset with every option
    changed to its longest value, and every tagged part at its longest. A code the engine deals, and
    so the start of every saved game, is never longer."""
    options = sum(
        len(f"_{o.key}~") + max(len(c) for c in o.choices)
        if o.choices
        else len(f"_{o.key}~") + (len("false") if o.kind is bool else len(str(MAX_OPTION_NUMBER)))
        for o in game_options(game)
    )
    tagged = (
        len(f".s{MAX_SEATS - 1}.n{'9' * MAX_SEED_DIGITS}.d{MAX_SEATS - 1}.p{MAX_POOL}.c{MAX_SEATS}")
        + len(".k")
        + max(len(k) for k in KINDS)
    )
    return len(GAME_CODES[game]) + 1 + max(len(p) for p in presets(game)) + options + tagged


MAX_LENGTH = max(longest_code_length(game) for game in GAME_CODES)
"""Longer text is refused before it is read: no legal code is longer (:func:`longest_code_length`)."""


class DealCodeError(ValueError):
    """A deal code that cannot be used; the message says in plain words which part is wrong."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class DealCode:
    """One deal: the game, its rules (a record's ``rules``), the reader's seat and the seed, and,
    when they are not a new game's first deal's, the dealer, the pool as dealt and the kind of deal."""

    game: str
    rules: str | dict[str, Any]
    seat: int
    seed: int
    dealer: int | None = None
    pool: int | None = None
    kind: str | None = None
    seats: int | None = None

    @property
    def n_seats(self) -> int:
        return self.seats if self.seats is not None else USUAL_SEATS[self.game]

    @property
    def first_dealer(self) -> int:
        """The dealer's seat: as given, or the seat on the reader's right (the reader is eldest)."""
        return self.dealer if self.dealer is not None else (self.seat - 1) % self.n_seats

    def __str__(self) -> str:
        parts = [GAME_CODES[self.game], rules_word(self.rules), f"s{self.seat}", f"n{self.seed}"]
        if self.dealer is not None:
            parts.append(f"d{self.dealer}")
        if self.pool is not None:
            parts.append(f"p{self.pool}")
        if self.kind is not None:
            parts.append(f"k{self.kind}")
        if self.seats is not None:
            parts.append(f"c{self.seats}")
        return ".".join(parts)

    def record(self, names: Sequence[str], pool: int) -> dict[str, Any]:
        """The ``loo-record/1`` record of this deal with no actions, its deal written as ``{"seed": N}``."""
        out: dict[str, Any] = {
            "format": "loo-record/1",
            "game": self.game,
            "rules": self.rules,
            "seats": list(names),
            "dealer": self.first_dealer,
            "pool": pool,
            "deal": {"seed": self.seed},
            "actions": [],
        }
        if self.kind is not None and self.kind != "normal":
            out["deal_kind"] = self.kind
        return out


def rules_word(rules: str | dict[str, Any]) -> str:
    """A record's ``rules`` in one word: ``peel`` or ``peel_loo-mode~unlimited_club-law~true``."""
    if isinstance(rules, str):
        return rules
    words = [str(rules["preset"])]
    for key, value in rules.items():
        if key == "preset":
            continue
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        words.append(f"{key}~{text}")
    return "_".join(words)


def _read_rules(game: str, word: str) -> str | dict[str, Any]:
    preset, *options = word.split("_")
    if not preset:
        raise DealCodeError("the rules are missing: the second part names a preset, like peel")
    if not options:
        value: str | dict[str, Any] = preset
    else:
        value = {"preset": preset}
        for option in options:
            key, tilde, text = option.partition("~")
            if not key or not tilde or not text:
                raise DealCodeError(
                    f"the option {option!r} needs a name and a value joined by ~, like loo-mode~unlimited"
                )
            if key in value:
                raise DealCodeError(f"the option {key} is given twice")
            value[key] = True if text == "true" else False if text == "false" else int(text) if text.isdigit() else text
    try:
        kit(game).read_rules(game, value)
    except RecordError as error:
        where = error.field.removeprefix("rules.").removeprefix("rules")
        raise DealCodeError(f"the rules are wrong: {where + ': ' if where else ''}{error.message}") from None
    return value


def _number(tag: str, text: str, *, digits: int = 6) -> int:
    if not text.isdigit() or len(text) > digits:
        example = "n12345" if tag == "n" else f"{tag}0"
        raise DealCodeError(f"{TAGS[tag]} must be {tag} followed by a whole number, like {example}, not {tag + text!r}")
    return int(text)


def code_from_text(text: str) -> str:
    """The deal code in what a reader pasted: the code itself, or a link holding ``deal=...``."""
    text = text.strip()
    if "deal=" in text:
        query = urlsplit(text).query if "?" in text else text
        found = parse_qs(query).get("deal")
        if found:
            return found[0].strip()
    return text


def parse_deal_code(text: str, *, game: str | None = None, rules: Any = None) -> DealCode:
    """Read a deal code; refuse a bad one with a :class:`DealCodeError` naming the part at fault.

    With ``game`` (and ``rules``, else the game's default preset) a bare number is read too: that
    seed for that game, the reader at seat 0, as a new game's first deal.
    """
    code = code_from_text(text).lower()
    if not code:
        raise DealCodeError("the deal code is empty")
    if len(code) > MAX_LENGTH:
        raise DealCodeError(f"the deal code is too long ({len(code)} characters; at most {MAX_LENGTH})")
    if not _ALLOWED.match(code):
        bad = next(ch for ch in code if not _ALLOWED.match(ch))
        raise DealCodeError(f"{bad!r} cannot be part of a deal code: it holds letters, digits and . _ ~ - only")
    if code.isdigit():
        if game is None:
            raise DealCodeError("a bare number is a seed: the code needs its game and rules too, like l3.peel.s0.n12")
        word = rules_word(rules if rules is not None else kit(game).read_rules(game, None).to_record())
        code = f"{GAME_CODES[game]}.{word}.s0.n{code}"
    parts = code.split(".")
    if len(parts) < 4 or any(not p for p in parts):
        raise DealCodeError(
            "a deal code has at least four parts joined by dots (game.rules.seat.seed), like l3.peel.s0.n12345"
        )
    game_word, rules_text, *tagged = parts
    found_game = GAME_OF_CODE.get(game_word) or (game_word if game_word in NAMES else None)
    if found_game is None:
        raise DealCodeError(
            f"{game_word!r} is not a game: the games are " + ", ".join(f"{c} ({g})" for g, c in GAME_CODES.items())
        )
    read_rules = _read_rules(found_game, rules_text)
    values: dict[str, Any] = {}
    for part in tagged:
        tag, text = part[0], part[1:]
        if tag not in TAGS:
            raise DealCodeError(
                f"{part!r} is not a part of a deal code: after the rules come "
                + ", ".join(f"{t} ({what})" for t, what in TAGS.items())
            )
        if tag in values:
            raise DealCodeError(f"{TAGS[tag]} is given twice")
        if tag == "k":
            if text not in KINDS:
                kinds = ", ".join("k" + k for k in KINDS)
                raise DealCodeError(f"the kind of deal must be one of {kinds}, not {part!r}")
            values[tag] = text
        else:
            values[tag] = _number(tag, text, digits={"n": MAX_SEED_DIGITS, "p": len(str(MAX_POOL))}.get(tag, 6))
    for tag in ("s", "n"):
        if tag not in values:
            raise DealCodeError(f"{TAGS[tag]} is missing: a deal code names it as {tag}…, like l3.peel.s0.n12345")
    seats = values.get("c")
    n = seats if seats is not None else USUAL_SEATS[found_game]
    game_kit = kit(found_game)
    game_rules = game_kit.read_rules(found_game, read_rules)
    most = game_kit.max_seats(game_rules)
    if not 2 <= n <= most:
        raise DealCodeError(
            f"the number of seats must be from c2 to c{most}, all that {found_game} serves here (AMB-02), not c{n}"
        )
    for tag in ("s", "d"):
        if tag in values and not 0 <= values[tag] < n:
            raise DealCodeError(
                f"{TAGS[tag]} {tag}{values[tag]} does not exist: this game has seats {tag}0 to {tag}{n - 1}"
            )
    if values.get("p", 0) > MAX_POOL:
        raise DealCodeError(f"the pool p{values['p']} is more than any table holds (at most p{MAX_POOL})")
    deal = DealCode(
        game=found_game,
        rules=read_rules,
        seat=values["s"],
        seed=values["n"],
        dealer=values.get("d"),
        pool=values.get("p"),
        kind=values.get("k"),
        seats=seats,
    )
    # Last, the engine itself must deal it: a kind of deal the game lacks, a pool it cannot hold. A code
    # without a pool is checked with one deal's stakes (a record's pool holds at least the dealer's).
    try:
        pool = deal.pool if deal.pool is not None else game_kit.pool(game_rules, n)
        load(json.dumps(deal.record([f"Seat {i}" for i in range(n)], pool)))
    except RecordError as error:
        raise DealCodeError(f"the engine cannot deal this code: {error.field}: {error.message}") from None
    return deal
