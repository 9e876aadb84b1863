"""What every game's rules share: the error a record that cannot be read raises, and reading and
writing a rules value (a preset, or a preset and the options that differ from it) in records.

A game's rules are a frozen dataclass whose fields are its options (``loo.games.loo.rules.Rules``,
``loo.games.nap.rules.NapRules``, ``loo.games.dominoes.rules.DominoRules``), each documented in its
field's metadata with the laws behind it; :func:`read_rules` and :func:`rules_to_record` read and
write any of them.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Callable, Mapping
from enum import Enum, StrEnum
from typing import Any, ClassVar, TypeVar

__all__ = [
    "MAX_FIELD_CHARS",
    "MAX_MESSAGE_CHARS",
    "MAX_OPTION_NUMBER",
    "PresetRules",
    "RecordError",
    "RevokeReplay",
    "clip",
    "clip_input",
    "option_fields",
    "option_key",
    "preset_named",
    "read_rules",
    "rules_to_record",
    "variant_named",
]

MAX_FIELD_CHARS = 80
"""The longest field path, or word, an error gives whole: a record's own paths and the engine's words are
far shorter, so a longer one quotes the input (a key or a string of ten megabytes, say), which is cut."""
MAX_MESSAGE_CHARS = 600
"""The longest explanation an error gives whole: the engine's own (a list of every option) are shorter,
so a longer one quotes the input at length (a long list, a string with spaces), which is cut."""
_LONG_WORD = re.compile(rf"\S{{{MAX_FIELD_CHARS + 1},}}")


def clip(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters; else its two ends with the middle cut out, saying
    how much was cut, so that an error about a huge input stays short.

    >>> clip("must be a name, not " + repr("x" * 1000), 60)
    "must be a name, not 'xxxxxxxxxxxxxxxxxxx…[962 characters cut]…xxxxxxxxxxxxxxxxxxx'"
    """
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head
    return f"{text[:head]}…[{len(text) - head - tail:,} characters cut]…{text[len(text) - tail :]}"


def clip_input(message: str) -> str:
    """``message`` with every word (a run without spaces) longer than :data:`MAX_FIELD_CHARS` cut, and the
    whole cut to :data:`MAX_MESSAGE_CHARS`: what a message quotes of a huge input, and no more.

    >>> message = clip_input("must be a player's name, not " + repr("x" * 10_000_000))
    >>> len(message), message[-50:]
    (137, "99,922 characters cut]…xxxxxxxxxxxxxxxxxxxxxxxxxx'")
    """
    return clip(_LONG_WORD.sub(lambda word: clip(word.group(), MAX_FIELD_CHARS), message), MAX_MESSAGE_CHARS)


class RevokeReplay(StrEnum):
    """CF-19, for every card game with a table mode: after an irregularity, is the hand replayed at
    once or only when claimed?"""

    MANDATORY = "mandatory"  # 000 pp.21-22
    ON_DEMAND = "on-demand"  # 002 law 16


class RecordError(ValueError):
    """A record that cannot be read: names the field at fault (``check`` exits with status 2).

    A field or message made long by the input it quotes is cut (:func:`clip_input`): the error of a record
    holding a ten-megabyte string is a line, not twenty megabytes.
    """

    def __init__(self, field: str, message: str) -> None:
        field = clip(field, MAX_FIELD_CHARS)
        message = clip_input(message)
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# ----- reading and writing any game's rules in records (Loo, Nap and the domino games share these) -----

R = TypeVar("R")

MAX_OPTION_NUMBER = 1_000_000
"""The largest whole number any option takes (chips, points, tricks): more than any table plays for,
and small enough that every rules value, and so every deal code, has a length known in advance."""


def option(default: Any, doc: str, **metadata: Any) -> Any:
    """An option field of a game's rules (a frozen dataclass): its default and ``doc``, the catalogue IDs it
    settles and what it decides (the rules picker shows it); ``metadata`` holds anything more of the game's own
    (Loo's ``games``, those it applies to)."""
    return dataclasses.field(default=default, metadata={**metadata, "doc": doc})


def option_fields(cls: type[Any]) -> list[dataclasses.Field[Any]]:
    """The option fields of a rules dataclass: every field but ``game`` and ``preset_name``."""
    return [f for f in dataclasses.fields(cls) if f.name not in ("game", "preset_name")]


def preset_named(presets: Mapping[str, R], name: str, game: StrEnum | None = None) -> R:
    """The preset called ``name`` of a game's ``presets``, which must be a preset of ``game`` where one is
    named; else a :class:`RecordError` naming ``rules.preset`` and the presets there are."""
    if name not in presets:
        raise RecordError("rules.preset", f"unknown preset {name!r}; the presets are {', '.join(sorted(presets))}")
    rules = presets[name]
    found: Any = rules  # a rules dataclass of a game of several variants, with its ``game``
    if game is not None and found.game is not game:
        games = [p for p, r in presets.items() if getattr(r, "game", None) is game]
        raise RecordError("rules.preset", f"preset {name!r} is for {found.game.value}, not {game.value}; use {games}")
    return rules


E = TypeVar("E", bound=StrEnum)


def variant_named(kind: type[E], game: E | str, family: str) -> E:
    """The game of ``kind`` (Loo's three, the two domino games) that ``game`` names, or a
    :class:`RecordError` on ``game`` that lists ``family``'s games."""
    if isinstance(game, kind):
        return game
    try:
        return kind(game)
    except ValueError:
        known = ", ".join(member.value for member in kind)
        raise RecordError("game", f"unknown game {game!r}; {family} are {known}") from None


class PresetRules:
    """What every game's rules class (a frozen dataclass) shares: its option fields and its record form, the
    preset it was made from and the options that differ. The game's module sets ``presets`` to its presets
    by name once it has made them."""

    presets: ClassVar[Mapping[str, Any]]
    preset_name: str

    @classmethod
    def options(cls) -> list[dataclasses.Field[Any]]:
        """The option fields: every field but ``game`` and ``preset_name``."""
        return option_fields(cls)

    def to_record(self) -> str | dict[str, Any]:
        """The shortest record form: the preset's name, or the preset and the options that differ from it."""
        return rules_to_record(self, self.presets[self.preset_name])


def read_rules(
    cls: type[R],
    value: Any,
    *,
    default: str,
    preset: Callable[[str], R],
    label: str = "the options",
    check: Callable[[dataclasses.Field[Any], str], None] | None = None,
) -> R:
    """A record's ``rules``: absent (the default preset), a preset's name, or ``preset`` plus overrides.

    Option names are written with ``-`` for ``_``; each value is read by the field's own type
    (bool, int or an enumeration, whose values are written in lower case with ``-``). Every
    problem is a :class:`RecordError` naming ``rules.<option>``.
    """
    if value is None:
        return preset(default)
    if isinstance(value, str):
        return preset(value)
    if not isinstance(value, dict):
        raise RecordError("rules", f"must be a preset name or an object, not {type(value).__name__}")
    name = value.get("preset", default)
    if not isinstance(name, str):
        raise RecordError("rules.preset", f"must be a preset name, not {name!r}")
    rules = preset(name)
    fields = {option_key(f.name): f for f in option_fields(cls)}
    types = typing.get_type_hints(cls)
    changes: dict[str, Any] = {}
    for key, raw in value.items():
        if key == "preset":
            continue
        f = fields.get(key)
        if f is None:
            raise RecordError(f"rules.{key}", f"unknown option; {label} are {', '.join(sorted(fields))}")
        if check is not None:
            check(f, key)
        changes[f.name] = _read_value(f"rules.{key}", types[f.name], raw)
    return dataclasses.replace(rules, **changes)  # type: ignore[type-var]


def rules_to_record(rules: Any, base: Any) -> str | dict[str, Any]:
    """The shortest record form of ``rules``: its preset's name, or the preset and what differs from ``base``."""
    out: dict[str, Any] = {"preset": rules.preset_name}
    for f in option_fields(type(rules)):
        mine, theirs = getattr(rules, f.name), getattr(base, f.name)
        if mine != theirs:
            out[option_key(f.name)] = mine.value if isinstance(mine, Enum) else mine
    return out if len(out) > 1 else str(rules.preset_name)


def option_key(name: str) -> str:
    """An option's name as records write it: ``first_lead_rule`` is ``first-lead-rule``."""
    return name.replace("_", "-")


def _read_value(field: str, kind: Any, raw: Any) -> Any:
    if kind is bool:
        if not isinstance(raw, bool):
            raise RecordError(field, f"must be true or false, not {raw!r}")
        return raw
    if kind is int:
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise RecordError(field, f"must be a whole number, not {raw!r}")
        if raw > MAX_OPTION_NUMBER:
            raise RecordError(field, f"must be at most {MAX_OPTION_NUMBER}, not {raw}")
        return raw
    allowed = [m.value for m in kind]
    if raw not in allowed:
        raise RecordError(field, f"must be one of {', '.join(allowed)}, not {raw!r}")
    return kind(raw)
