"""Hand records of every game, format ``loo-record/1`` (docs/records.md): :func:`load` reads one of any
game (its game's record class, found by the game's descriptor: :func:`record_type`), and :func:`check`
answers for ``loo check``. What every game's records share is :mod:`loo.core.records` (named here too);
each game's record class is in its own package (Loo's :class:`~loo.games.loo.record.Record`, also
named here, Nap's and the dominoes').

>>> record = load('{"format": "loo-record/1", "game": "nap", "seats": ["Ann", "Ben", "Cat"], "dealer": 2,'
...               ' "pool": 0, "deal": {"seed": 7}, "actions": [{"seat": 0, "call": "2"}]}')
>>> type(record).__name__, check(record.dumps())[0]
('NapRecord', 0)
"""

from __future__ import annotations

import json
from typing import Any

from loo.core.actions import IllegalActionError
from loo.core.records import (
    FORMAT,
    MAX_DEPTH,
    MAX_NAME_CHARS,
    MAX_POOL,
    MAX_RECORD_BYTES,
    MAX_RECORD_CHARS,
    MAX_SEATS,
    HugeNumber,
    RecordBase,
    decode,
    no_duplicates,
    parse_json,
    read_actions,
    read_header,
    read_pieces,
    read_table,
    replay_actions,
)
from loo.core.rules import RecordError
from loo.games.loo.record import Record
from loo.registry import UnknownGame, entry, spec

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_NAME_CHARS",
    "MAX_POOL",
    "MAX_RECORD_BYTES",
    "MAX_RECORD_CHARS",
    "MAX_SEATS",
    "HugeNumber",
    "Record",
    "RecordBase",
    "RecordError",
    "check",
    "decode",
    "json_line",
    "load",
    "no_duplicates",
    "parse_json",
    "read_actions",
    "read_header",
    "read_pieces",
    "read_table",
    "record_type",
    "replay_actions",
]


# What Python's str.splitlines (and other readers of Unicode text) take for the end of a line, besides
# the control characters JSON escapes anyway: escaped too, so that one result is one line to any reader.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def json_line(result: Any, *, ascii_only: bool = False) -> str:
    r"""``result`` as JSON on one line, whatever its strings hold: a record may quote a line break
    (NEL, or a line or paragraph separator), which JSON may carry unescaped.

    >>> json_line({"message": "rules.\x85: unknown option"}).splitlines()
    ['{"message": "rules.\\u0085: unknown option"}']
    """
    line = json.dumps(result, ensure_ascii=ascii_only)
    for char, escaped in _LINE_BREAKS.items():
        line = line.replace(char, escaped)
    return line


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
