"""loo.laws carries every ID of shared/LAWS.md, and nothing else, as plain data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loo.laws import LAWS, Status, cite, law, source_name

# The repo sits beside ../shared, which holds the catalogue itself.
LAWS_MD = Path(__file__).resolve().parents[2].parent / "shared" / "LAWS.md"

_HEADING = re.compile(r"^#{2,3} ([A-G](?:\.\d+|\.)? .*)$")
_ROW = re.compile(r"^\|\s*([A-Z0-9]+(?:-[A-Z0-9]+)+)\s*\|.*\|\s*([^|]*?)\s*\|\s*$")
_CONFLICT = re.compile(r"^### (CF-\d+):")
_AMBIGUITY = re.compile(r"^\*\*(AMB-\d+):")
_CODES = ("000", "001", "002", "003", "004")


def catalogue() -> list[tuple[str, str, str]]:
    """(ID, group, status column) for every table row, CF heading and AMB heading of LAWS.md, in order."""
    if not LAWS_MD.is_file():
        pytest.fail(f"LAWS.md not found at {LAWS_MD}: the catalogue must sit in ../shared beside the repo")
    found: list[tuple[str, str, str]] = []
    group = ""
    for line in LAWS_MD.read_text(encoding="utf-8").splitlines():
        if (heading := _HEADING.match(line)) is not None:
            group = heading.group(1).strip()
        elif (row := _ROW.match(line)) is not None:
            found.append((row.group(1), group, row.group(2)))
        elif (conflict := _CONFLICT.match(line)) is not None:
            found.append((conflict.group(1), "Conflicts", ""))
        elif (ambiguity := _AMBIGUITY.match(line)) is not None:
            found.append((ambiguity.group(1), "Ambiguities", ""))
    return found


def test_every_id_of_laws_md_is_carried_in_order_and_no_other() -> None:
    expected = [law_id for law_id, _, _ in catalogue()]
    assert len(expected) == len(set(expected)), "LAWS.md repeats an ID"
    missing = [law_id for law_id in expected if law_id not in LAWS]
    extra = [law_id for law_id in LAWS if law_id not in set(expected)]
    assert not missing, f"IDs in LAWS.md but not in loo.laws: {missing}"
    assert not extra, f"IDs in loo.laws but not in LAWS.md: {extra}"
    assert list(LAWS) == expected


def test_groups_and_status_columns_match_laws_md() -> None:
    for law_id, group, status_note in catalogue():
        entry = LAWS[law_id]
        assert entry.id == law_id
        assert entry.group == group, law_id
        assert entry.status_note == status_note, law_id


def test_the_catalogue_has_its_stated_size() -> None:
    # LAWS.md section 11: 429 catalogued items, 38 conflicts, 56 ambiguities.
    statuses = [entry.status for entry in LAWS.values()]
    assert statuses.count(Status.CONFLICT) == 38
    assert statuses.count(Status.AMBIGUITY) == 56
    assert len(LAWS) == 429 + 38 + 56


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
            assert (entry.group, entry.status, entry.status_note) == ("Conflicts", Status.CONFLICT, "")
        elif entry.id.startswith("AMB-"):
            assert (entry.group, entry.status, entry.status_note) == ("Ambiguities", Status.AMBIGUITY, "")
        else:
            first = re.match(r"M/d|M|O|R|A|D|H", entry.status_note)
            assert first is not None, entry.id
            assert entry.status is Status(first.group()), entry.id


@pytest.mark.parametrize(("law_id", "status"), [("L3-GEN-02", Status.MANDATORY), ("NAP-PUR-07", Status.RECOMMENDATION)])
def test_mixed_statuses_take_the_first(law_id: str, status: Status) -> None:
    assert law(law_id).status is status


def test_every_source_is_a_known_code_with_an_optional_locator() -> None:
    for entry in LAWS.values():
        assert entry.sources, entry.id
        for source in entry.sources:
            code, _, locator = source.partition(" ")
            assert code in _CODES, f"{entry.id}: {source!r}"
            assert locator == locator.strip(), f"{entry.id}: {source!r}"


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
