"""The catalogue of laws, options and facts of Loo and its relatives, read from ``loo/core/laws.toml``.

The data file carries every ID of the catalogue (LAWS.md), in its order, with a one-line
paraphrase, its sources (code and locator) and its status, so that the engine, its errors, the
tests and the book can name the law they apply.  Conflicts (``CF-xx``) and ambiguities
(``AMB-xx``) are included: their line states the engine's default.  The file is read once, at
import; docs/laws.md describes it, and ``tools/check-catalogue`` compares it with LAWS.md.

>>> law("L3-LEAD-03").status
<Status.MANDATORY: 'M'>
>>> law("L3-LEAD-04").status_note
'M (000 only)'
>>> cite("L3-LEAD-03")
'L3-LEAD-03 (Peel p.20; Enquire Within §97.iv)'
>>> source_name("002")
"Hoffmann, Hoyle's Games Modernized"
>>> sum(1 for entry in LAWS.values() if entry.status is Status.CONFLICT)
38
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from importlib.resources import files

__all__ = ["LAWS", "Law", "Status", "cite", "law", "source_name"]


class Status(str, Enum):  # noqa: UP042 - the agreed API is a str-valued Enum, compared with "M", "O", ...
    """A law's status, as in the status key of LAWS.md, plus the two kinds of decision entry."""

    MANDATORY = "M"
    MANDATORY_DEFAULT = "M/d"
    OPTIONAL = "O"
    RECOMMENDATION = "R"
    ADVICE = "A"
    DEFINITION = "D"
    HISTORY = "H"
    CONFLICT = "CF"
    AMBIGUITY = "AMB"


@dataclass(frozen=True, slots=True)
class Law:
    """One catalogue entry.

    ``statement`` is a one-line paraphrase (never a quotation); ``sources`` are source codes
    with their locators (``"000 p.20"``); ``status`` is the primary status and ``status_note``
    the status column as LAWS.md writes it (empty for conflicts and ambiguities).
    """

    id: str
    group: str
    statement: str
    sources: tuple[str, ...]
    status: Status
    status_note: str


# The statuses a status column may start with; conflicts and ambiguities get theirs from their group.
_COLUMN_STATUSES: Mapping[str, Status] = {s.value: s for s in Status if s not in (Status.CONFLICT, Status.AMBIGUITY)}
_GROUP_STATUSES: Mapping[str, Status] = {"CF": Status.CONFLICT, "AMB": Status.AMBIGUITY}
_LAW_ID = re.compile(r"[A-Z0-9]+(?:-[A-Z0-9]+)+")
_LAW_KEYS = ("id", "status", "sources", "statement")


def _parse(text: str, where: str = "laws.toml") -> tuple[dict[str, Law], dict[str, tuple[str, str]]]:
    """The catalogue in ``text`` (TOML, laid out as in loo/core/laws.toml): the laws by ID in the file's
    order, and each source's (name, short name) by code.

    Anything malformed raises a ``ValueError`` naming ``where`` and the entry at fault.

    >>> laws, sources = _parse('''
    ... [sources]
    ... "000" = { name = "Peel, Round Games with Cards", short = "Peel" }
    ... [[group]]
    ... name = "A.7 Leading"
    ... [[group.law]]
    ... id = "L3-LEAD-04"
    ... status = "M (000 only)"
    ... sources = ["000 p.20"]
    ... statement = "With the ace turned up, the holder of the king leads it."
    ... ''')
    >>> laws["L3-LEAD-04"].status, sources["000"][1]
    (<Status.MANDATORY: 'M'>, 'Peel')
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{where}: not valid TOML: {error}") from None
    try:
        _only(data, ("sources", "group"))
        sources = _read_sources(data.get("sources"))
        return _read_groups(data.get("group"), sources), sources
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _read_sources(value: object) -> dict[str, tuple[str, str]]:
    sources: dict[str, tuple[str, str]] = {}
    for code, item in _table(value, "[sources]").items():
        where = f"source {code!r}"
        if not re.fullmatch(r"\d{3}", code):
            raise ValueError(f"{where}: a source code is three digits")
        entry = _table(item, where)
        _only(entry, ("name", "short"), where)
        sources[code] = (_text(entry.get("name"), f"{where}: name"), _text(entry.get("short"), f"{where}: short"))
    return sources


def _read_groups(value: object, sources: Mapping[str, tuple[str, str]]) -> dict[str, Law]:
    laws: dict[str, Law] = {}
    for number, item in enumerate(_list(value, "[[group]]"), start=1):
        group = _table(item, f"group {number}")
        name = _text(group.get("name"), f"group {number}: name")
        where = f"group {name!r}"
        _only(group, ("name", "status", "law"), where)
        fixed = None
        if "status" in group:
            fixed = _GROUP_STATUSES.get(_text(group["status"], f"{where}: status"))
            if fixed is None:
                raise ValueError(f"{where}: a group's status is CF or AMB, not {group['status']!r}")
        for index, law_item in enumerate(_list(group.get("law"), f"{where}: [[group.law]]"), start=1):
            entry = _table(law_item, f"{where}, law {index}")
            law_id = _text(entry.get("id"), f"{where}, law {index}: id")
            try:
                if law_id in laws:
                    raise ValueError(f"duplicate ID (first in group {laws[law_id].group!r})")
                laws[law_id] = _read_law(entry, law_id, name, fixed, sources)
            except ValueError as error:
                raise ValueError(f"law {law_id!r} in {where}: {error}") from None
    return laws


def _read_law(
    entry: dict[str, object], law_id: str, group: str, fixed: Status | None, sources: Mapping[str, tuple[str, str]]
) -> Law:
    if not _LAW_ID.fullmatch(law_id):
        raise ValueError("an ID is capital letters and digits in two or more parts joined by '-'")
    _only(entry, _LAW_KEYS)
    if fixed is not None:
        if "status" in entry:
            raise ValueError(f"no status here: every law of the group is {fixed.value}")
        status, note = fixed, ""
    else:
        note = _text(entry.get("status"), "status")
        first = note.split(" ", 1)[0]
        if first not in _COLUMN_STATUSES:
            raise ValueError(f"unknown status {first!r}; a status starts with one of {', '.join(_COLUMN_STATUSES)}")
        status = _COLUMN_STATUSES[first]
    cited = tuple(_text(source, "a source") for source in _list(entry.get("sources"), "sources"))
    for source in cited:
        code, _, locator = source.partition(" ")
        if code not in sources:
            raise ValueError(f"unknown source code {code!r} in {source!r}; the codes are {', '.join(sources)}")
        if locator != locator.strip():
            raise ValueError(f"source {source!r}: one space between the code and its locator")
    return Law(law_id, group, _text(entry.get("statement"), "statement"), cited, status, note)


def _only(table: Mapping[str, object], keys: tuple[str, ...], where: str = "") -> None:
    if unknown := [key for key in table if key not in keys]:
        prefix = f"{where}: " if where else ""
        raise ValueError(f"{prefix}unknown key {unknown[0]!r} (the keys are {', '.join(keys)})")


def _table(value: object, what: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a table, not {value!r}")
    return value


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"{what} must be a non-empty list, not {value!r}")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value or value != value.strip() or "\n" in value or "\r" in value:
        raise ValueError(f"{what} must be text on one line, without spaces at either end, not {value!r}")
    return value


_CATALOGUE = _parse(files("loo.core").joinpath("laws.toml").read_text(encoding="utf-8"), "loo/core/laws.toml")

LAWS: Mapping[str, Law] = _CATALOGUE[0]
"""Every catalogue ID, in the catalogue's order, mapped to its entry."""

# The source texts (the seeds) by code: their full names, and the short names used in citations.
_SOURCES: Mapping[str, tuple[str, str]] = _CATALOGUE[1]


def law(law_id: str) -> Law:
    """The entry for ``law_id``; a ``KeyError`` naming the ID if the catalogue has no such ID.

    >>> law("NAP-CALL-02").group
    'E.2 Calling'
    """
    try:
        return LAWS[law_id]
    except KeyError:
        raise KeyError(f"unknown law ID {law_id!r}") from None


def source_name(code: str) -> str:
    """The full name of a source text from its code (``"000"`` to ``"004"``).

    >>> source_name("000")
    'Peel, Round Games with Cards'
    """
    try:
        return _SOURCES[code][0]
    except KeyError:
        raise KeyError(f"unknown source code {code!r}; the codes are {', '.join(_SOURCES)}") from None


def _short_source(source: str) -> str:
    code, _, locator = source.partition(" ")
    name = _SOURCES[code][1]
    return f"{name} {locator}" if locator else name


def cite(law_id: str) -> str:
    """The ID followed by its sources with short human names, for error messages and the book.

    >>> cite("CF-05")
    'CF-05 (Encyclopedia; Enquire Within)'
    """
    entry = law(law_id)
    return f"{entry.id} ({'; '.join(_short_source(source) for source in entry.sources)})"
