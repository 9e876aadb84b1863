"""The coverage account of group F: every mandatory law and option of Domino Loo and Domino Rounce is
named by a test, or listed below with the reason no engine test can check it."""

from __future__ import annotations

import re
from pathlib import Path

from loo.laws import LAWS

# Laws of group F that no engine test can check, and why. Everything else must be named by a test.
# None is needed: every mandatory law and option of group F is played by the engine and named by a
# test. (The definitions, status D, are not required here, though DL-SC-06 and DL-DLR-06 are tested
# too: the worked example as golden records and a game, the purpose of playing for the pool as a hand.)
NOT_ENFORCED: dict[str, str] = {}


def covered_ids() -> set[str]:
    text = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
    covered = set()
    for m in re.finditer(r"(?<![A-Za-z0-9])DL[-_]([A-Z]+)[-_](\d\d(?:[-_]\d\d)*)", text):
        for number in re.split(r"[-_]", m.group(2)):
            covered.add(f"DL-{m.group(1)}-{number}")
    for m in re.finditer(r"(?<![A-Za-z0-9])DR[-_](\d\d(?:[-_]\d\d)*)", text):
        for number in re.split(r"[-_]", m.group(1)):
            covered.add(f"DR-{number}")
    return covered


def test_every_mandatory_law_and_option_of_group_f_is_tested_or_explained() -> None:
    """Each ID must appear in a test's name or body (tests/unit/test_*.py), or be exempted above."""
    required = [
        law_id
        for law_id, law in LAWS.items()
        if re.match(r"(DL|DR)-", law_id) and law.status.value in ("M", "M/d", "O")
    ]
    assert len(required) > 40
    covered = covered_ids()
    missing = [law_id for law_id in required if law_id not in covered and law_id not in NOT_ENFORCED]
    assert missing == []
    assert set(NOT_ENFORCED) <= set(LAWS)
    assert not set(NOT_ENFORCED) & covered, "an exempted law is tested after all: drop its exemption"
