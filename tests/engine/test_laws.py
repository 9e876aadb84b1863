"""loo.core.laws reads the catalogue from the package's own loo/core/laws.toml, and checks it as it reads.

Everything here is asserted from the repository's own data.  Whether the data still matches the
upstream catalogue (LAWS.md) is a maintainer's question, answered by ``tools/check-catalogue``.
"""

from __future__ import annotations

import re
from collections import Counter
from importlib.resources import files

import pytest

from loo.core.laws import LAWS, Law, Status, _parse, cite, law, source_name

_CODES = ("000", "001", "002", "003", "004")

# The catalogue's headings in order, by part, with how many entries each part holds (the counts
# of the catalogue's closing section) and the ID families it uses.
_PARTS = {
    "A": (148, {"L3"}),
    "B": (39, {"L5"}),
    "C": (6, {"IRL"}),
    "D": (10, {"UL"}),
    "E": (87, {"NAP"}),
    "F": (45 + 10, {"DL", "DR"}),
    "G": (51 + 33, {"GL", "HI"}),
    "Conflicts": (38, {"CF"}),
    "Ambiguities": (56, {"AMB"}),
}


def part(group: str) -> str:
    """``"A"`` for ``"A.7 Leading"``, ``"B"`` for ``"B. Five-card Loo (Pam-Loo)"``; the decision groups as they are."""
    return group.split(".")[0] if group[1:2] == "." else group


def groups_in_order() -> list[str]:
    found: list[str] = []
    for entry in LAWS.values():
        if not found or found[-1] != entry.group:
            found.append(entry.group)
    return found


# ----- the catalogue as shipped -------------------------------------------------------------


def test_the_catalogue_is_read_from_the_package_data() -> None:
    text = files("loo.core").joinpath("laws.toml").read_text(encoding="utf-8")
    laws, sources = _parse(text)
    assert laws == dict(LAWS)
    assert list(laws) == list(LAWS)
    assert list(sources) == list(_CODES)


def test_the_catalogue_has_its_stated_size() -> None:
    # The catalogue's closing section: 429 catalogued items, 38 conflicts, 56 ambiguities.
    statuses = [entry.status for entry in LAWS.values()]
    assert statuses.count(Status.CONFLICT) == 38
    assert statuses.count(Status.AMBIGUITY) == 56
    assert len(LAWS) == 429 + 38 + 56


def test_each_part_has_its_stated_size_and_id_families() -> None:
    sizes = Counter(part(entry.group) for entry in LAWS.values())
    assert sizes == {name: size for name, (size, _) in _PARTS.items()}
    for entry in LAWS.values():
        family = entry.id.split("-")[0]
        assert family in _PARTS[part(entry.group)][1], entry.id


def test_groups_come_in_the_catalogues_order_each_in_one_run() -> None:
    groups = groups_in_order()
    assert len(groups) == len(set(groups)) == 41
    assert [part(group) for group in groups] == sorted((part(group) for group in groups), key=list(_PARTS).index)
    assert groups[-2:] == ["Conflicts", "Ambiguities"]
    for letter, count in {"A": 17, "E": 12, "F": 5, "G": 2}.items():
        numbers = [int(group.split()[0].split(".")[1]) for group in groups if part(group) == letter]
        assert numbers == list(range(1, count + 1)), letter
    assert [group for group in groups if part(group) in "BCD"] == [
        "B. Five-card Loo (Pam-Loo)",
        "C. Irish Loo",
        "D. Unlimited Loo / Loo the Board",
    ]


def test_each_id_family_is_numbered_from_01_in_one_run() -> None:
    runs: list[str] = []
    numbers: dict[str, list[int]] = {}
    for law_id in LAWS:
        family, _, number = law_id.rpartition("-")
        assert re.fullmatch(r"\d\d", number), law_id
        if not runs or runs[-1] != family:
            runs.append(family)
        numbers.setdefault(family, []).append(int(number))
    assert len(runs) == len(set(runs)), "a family of IDs is split"
    for family, found in numbers.items():
        assert found == list(range(1, len(found) + 1)), family


def test_conflicts_and_ambiguities_close_the_catalogue() -> None:
    ids = list(LAWS)
    assert ids[429:467] == [f"CF-{n:02}" for n in range(1, 39)]
    assert ids[467:] == [f"AMB-{n:02}" for n in range(1, 57)]


def test_statements_are_single_short_lines() -> None:
    for entry in LAWS.values():
        text = entry.statement
        assert text, entry.id
        assert text == text.strip(), entry.id
        assert "\n" not in text and "\r" not in text, entry.id
        assert len(text) <= 200, f"{entry.id}: {len(text)} characters"
        # Paraphrases only: no quotation marks, so no quotation.
        assert not set(text) & set('"“”'), entry.id


def test_primary_status_is_the_first_in_the_status_column() -> None:
    for entry in LAWS.values():
        if entry.id.startswith("CF-"):
            assert (entry.group, entry.status, entry.status_note) == ("Conflicts", Status.CONFLICT, ""), entry.id
        elif entry.id.startswith("AMB-"):
            assert (entry.group, entry.status, entry.status_note) == ("Ambiguities", Status.AMBIGUITY, ""), entry.id
        else:
            first = re.match(r"(M/d|M|O|R|A|D|H)(?: |$)", entry.status_note)
            assert first is not None, entry.id
            assert entry.status is Status(first.group(1)), entry.id


def test_every_status_of_the_key_is_used() -> None:
    assert {entry.status for entry in LAWS.values()} == set(Status)


@pytest.mark.parametrize(
    ("law_id", "status", "note"),
    [
        ("L3-GEN-02", Status.MANDATORY, "M (52) / O (32)"),
        ("NAP-PUR-07", Status.RECOMMENDATION, "R / A"),
        ("L3-STK-04", Status.RECOMMENDATION, "R (000) / M (003)"),
        ("L3-LEAD-04", Status.MANDATORY, "M (000 only)"),
    ],
)
def test_mixed_statuses_take_the_first(law_id: str, status: Status, note: str) -> None:
    assert (law(law_id).status, law(law_id).status_note) == (status, note)


def test_every_source_is_a_known_code_with_an_optional_locator() -> None:
    used: set[str] = set()
    for entry in LAWS.values():
        assert entry.sources, entry.id
        assert isinstance(entry.sources, tuple), entry.id
        for source in entry.sources:
            code, _, locator = source.partition(" ")
            assert code in _CODES, f"{entry.id}: {source!r}"
            assert locator == locator.strip(), f"{entry.id}: {source!r}"
            used.add(code)
    assert used == set(_CODES)


def test_source_names() -> None:
    assert source_name("000") == "Peel, Round Games with Cards"
    assert source_name("001") == "Enquire Within"
    assert source_name("002") == "Hoffmann, Hoyle's Games Modernized"
    assert source_name("003") == "encyclopedia article on Loo"
    assert source_name("004") == "Domino Loo (Celko, revised McLeod)"
    with pytest.raises(KeyError, match="005"):
        source_name("005")


def test_law_returns_the_entry() -> None:
    entry = law("L5-FL-06")
    assert entry is LAWS["L5-FL-06"]
    assert entry.group == "B. Five-card Loo (Pam-Loo)"
    assert entry.sources == ("001 §100.ii", '003 "Winning combinations"')


@pytest.mark.parametrize("bad", ["L3-LEAD-99", "l3-lead-03", "", "CF-39"])
def test_law_raises_key_error_naming_the_id(bad: str) -> None:
    with pytest.raises(KeyError) as raised:
        law(bad)
    assert raised.value.args == (f"unknown law ID {bad!r}",)
    with pytest.raises(KeyError) as raised:
        cite(bad)
    assert raised.value.args == (f"unknown law ID {bad!r}",)


def test_cite_format() -> None:
    assert cite("L3-LEAD-03") == "L3-LEAD-03 (Peel p.20; Enquire Within §97.iv)"
    assert cite("DL-PLAY-02") == "DL-PLAY-02 (Celko/McLeod The Play, rule 4)"
    assert cite("CF-31") == "CF-31 (Hoffmann)"
    assert cite("HI-32") == "HI-32 (Peel; Enquire Within; Hoffmann; Encyclopedia; Celko/McLeod)"
    short = "Peel|Enquire Within|Hoffmann|Encyclopedia|Celko/McLeod"
    part = rf"(?:{short})(?: [^;]+)?"
    for law_id, entry in LAWS.items():
        text = cite(law_id)
        assert re.fullmatch(rf"{re.escape(law_id)} \({part}(?:; {part})*\)", text), text
        assert text.count("; ") == len(entry.sources) - 1, text


# ----- the loader's checks, on small catalogues -------------------------------------------

_SOURCES = """
[sources]
"000" = { name = "Peel, Round Games with Cards", short = "Peel" }
"001" = { name = "Enquire Within", short = "Enquire Within" }
"""

_GOOD = (
    _SOURCES
    + """
[[group]]
name = "A.7 Leading"

[[group.law]]
id = "L3-LEAD-03"
status = "M"
sources = ["000 p.20", "001 §97.iv"]
statement = "A leader with two or three trumps leads the highest."

[[group.law]]
id = "L3-LEAD-04"
status = "M/d (000)"
sources = ["000"]
statement = "With the ace turned up, the holder of the king leads it."

[[group]]
name = "Conflicts"
status = "CF"

[[group.law]]
id = "CF-01"
sources = ["000", "001"]
statement = "The sources differ on who leads first."
"""
)


def test_a_small_catalogue_reads() -> None:
    laws, sources = _parse(_GOOD)
    assert list(laws) == ["L3-LEAD-03", "L3-LEAD-04", "CF-01"]
    assert laws["L3-LEAD-03"] == Law(
        "L3-LEAD-03",
        "A.7 Leading",
        "A leader with two or three trumps leads the highest.",
        ("000 p.20", "001 §97.iv"),
        Status.MANDATORY,
        "M",
    )
    assert (laws["L3-LEAD-04"].status, laws["L3-LEAD-04"].status_note) == (Status.MANDATORY_DEFAULT, "M/d (000)")
    assert (laws["CF-01"].group, laws["CF-01"].status, laws["CF-01"].status_note) == (
        "Conflicts",
        Status.CONFLICT,
        "",
    )
    assert sources == {"000": ("Peel, Round Games with Cards", "Peel"), "001": ("Enquire Within", "Enquire Within")}


def _law(law_id: str = "L3-GEN-01", **fields: str) -> str:
    """A one-law catalogue; ``fields`` replace (or, given as "", drop) the law's TOML lines."""
    lines = {
        "id": f'id = "{law_id}"',
        "status": 'status = "D"',
        "sources": 'sources = ["000 p.17"]',
        "statement": 'statement = "A hand is three tricks."',
    }
    lines.update(fields)
    body = "\n".join(line for line in lines.values() if line)
    return _SOURCES + f'\n[[group]]\nname = "A.1 General"\n\n[[group.law]]\n{body}\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _GOOD + '\n[[group.law]]\nid = "L3-LEAD-03"\nsources = ["000"]\nstatement = "Again."\n',
            "law 'L3-LEAD-03' in group 'Conflicts': duplicate ID (first in group 'A.7 Leading')",
        ),
        (_law(status='status = "X (000)"'), "law 'L3-GEN-01' in group 'A.1 General': unknown status 'X'"),
        (_law(status='status = "M/D"'), "unknown status 'M/D'; a status starts with one of M, M/d, O, R, A, D, H"),
        (_law(status='status = "CF"'), "law 'L3-GEN-01' in group 'A.1 General': unknown status 'CF'"),
        (_law(status=""), "law 'L3-GEN-01' in group 'A.1 General': status must be text on one line"),
        (
            _law(sources='sources = ["000 p.17", "005 p.3"]'),
            "law 'L3-GEN-01' in group 'A.1 General': unknown source code '005' in '005 p.3'; the codes are 000, 001",
        ),
        (_law(sources='sources = ["Peel p.17"]'), "unknown source code 'Peel' in 'Peel p.17'"),
        (_law(sources='sources = ["000  p.17"]'), "source '000  p.17': one space between the code and its locator"),
        (_law(sources="sources = []"), "law 'L3-GEN-01' in group 'A.1 General': sources must be a non-empty list"),
        (_law(sources=""), "law 'L3-GEN-01' in group 'A.1 General': sources must be a non-empty list, not None"),
        (_law(statement=""), "law 'L3-GEN-01' in group 'A.1 General': statement must be text on one line"),
        (_law(statement='statement = "Two\\nlines."'), "statement must be text on one line"),
        (_law(statement='statement = " Padded."'), "statement must be text on one line, without spaces at either end"),
        (_law(statement="statement = 3"), "statement must be text on one line, without spaces at either end, not 3"),
        (_law(extra='statment = "typo"'), "law 'L3-GEN-01' in group 'A.1 General': unknown key 'statment'"),
        (_law("l3-gen-01"), "law 'l3-gen-01' in group 'A.1 General': an ID is capital letters and digits"),
        (_law(id=""), "laws.toml: group 'A.1 General', law 1: id must be text on one line"),
    ],
)
def test_a_malformed_law_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        _parse(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[sources\n", "laws.toml: not valid TOML: "),
        ('[[group]]\nname = "A.1 General"\n', "laws.toml: [sources] must be a table, not None"),
        (_SOURCES, "laws.toml: [[group]] must be a non-empty list, not None"),
        (_SOURCES + '[[group]]\nname = "A.1 General"\n', "laws.toml: group 'A.1 General': [[group.law]] must be"),
        (_SOURCES + "[[group]]\n[[group.law]]\n", "laws.toml: group 1: name must be text on one line"),
        (
            _law().replace('name = "A.1 General"', 'name = "A.1 General"\nversion = 1'),
            "laws.toml: group 'A.1 General': unknown key 'version' (the keys are name, status, law)",
        ),
        ('title = "Laws"\n' + _law(), "laws.toml: unknown key 'title' (the keys are sources, group)"),
        (_law().replace('name = "A.1 General"', 'name = "A.1 General"\nstatus = "M"'), "a group's status is CF or AMB"),
        (
            _GOOD.replace('id = "CF-01"', 'id = "CF-01"\nstatus = "CF"'),
            "law 'CF-01' in group 'Conflicts': no status here: every law of the group is CF",
        ),
        (
            _GOOD.replace('status = "CF"\n', ""),
            "law 'CF-01' in group 'Conflicts': status must be text on one line",
        ),
        (_law().replace('"001" = {', '"01" = {'), "laws.toml: source '01': a source code is three digits"),
        (
            _law().replace(', short = "Peel"', ""),
            "source '000': short must be text on one line, without spaces at either end, not None",
        ),
        (_law().replace('short = "Peel" ', 'short = "Peel", year = 1880 '), "source '000': unknown key 'year'"),
    ],
)
def test_a_malformed_catalogue_is_refused_saying_where(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        _parse(text)


def test_errors_name_the_file_read() -> None:
    with pytest.raises(
        ValueError, match=r"^loo/core/laws\.toml: law 'L3-GEN-01' in group 'A\.1 General': unknown status"
    ):
        _parse(_law(status='status = "Q"'), "loo/core/laws.toml")
