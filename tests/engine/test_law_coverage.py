"""The coverage account: every mandatory law and option of groups A to F is checked by a test that
carries its law marker (``@pytest.mark.law("L3-PLAY-03")``), or is listed below with the reason no
engine test can check it. Only markers count (tests/law_markers.py reads them from every test file
under tests/): a law ID in a comment, a test's name or its docstring does not."""

from __future__ import annotations

import re

import pytest

from loo.core.laws import LAWS
from tests.law_markers import law_markers, marked_tests_by_law

# Laws that no engine test can check, and why. Everything else in scope must carry a test's marker.
NOT_ENFORCED = {
    # groups A to D: Loo (three-card, five-card, Irish, unlimited)
    "L3-DEAL-05": "Peel defers to his Nap chapter, which is not in the corpus; the game uses Enquire Within's cut",
    "L3-DEAL-06": "who shuffles and who cuts is cosmetic here: the shuffle is the seeded generator (CF-30)",
    "L3-DEAL-13": "lax dealing is a discouraged custom; the engine always deals in the regular order",
    "L5-FL-07": "001's exemption-free flush conflicts with its own §100.ii; the engine follows CF-23 reading (a)",
    # group E: Napoleon
    "NAP-DEAL-02": "who shuffles and who cuts is table ceremony: the shuffle is the injected generator (CF-30); "
    "a deal made without a cut is a misdeal claim (NAP-MISD-01)",
    # group F: Domino Loo and Domino Rounce. None is needed: every mandatory law and option of group F
    # is played by the engine and marked on a test. (The definitions, status D, are not required here,
    # though DL-SC-06 and DL-DLR-06 are tested too.)
}

# The groups the account covers, by the IDs' first part, and the fewest laws each must require (so
# that a catalogue read wrongly cannot make the account pass by requiring nothing).
SCOPES = {
    "groups A to D": (r"(L3|L5|IRL|UL)-", 150),
    "group E": (r"NAP-", 60),
    "group F": (r"(DL|DR)-", 40),
}
REQUIRED_STATUSES = ("M", "M/d", "O")


@pytest.mark.parametrize("scope", list(SCOPES))
def test_every_mandatory_law_and_option_is_tested_or_explained(scope: str) -> None:
    pattern, fewest = SCOPES[scope]
    required = [
        law_id for law_id, law in LAWS.items() if re.match(pattern, law_id) and law.status.value in REQUIRED_STATUSES
    ]
    assert len(required) > fewest
    covered = set(marked_tests_by_law())
    missing = [law_id for law_id in required if law_id not in covered and law_id not in NOT_ENFORCED]
    assert missing == [], f"{scope}: no test carries @pytest.mark.law for these (or explain them in NOT_ENFORCED)"
    exempted = {law_id for law_id in NOT_ENFORCED if re.match(pattern, law_id)}
    assert not exempted & covered, "an exempted law is tested after all: drop its exemption"


def test_the_exemptions_are_laws_in_scope() -> None:
    assert set(NOT_ENFORCED) <= set(LAWS)
    for law_id in NOT_ENFORCED:
        assert any(re.match(pattern, law_id) for pattern, _ in SCOPES.values()), law_id
        assert LAWS[law_id].status.value in REQUIRED_STATUSES, law_id


def test_the_markers_are_read_from_every_test_file() -> None:
    """The reader finds the markers of several files (not only this one's folder), each a catalogue law."""
    markers = law_markers()
    assert len(markers) > 200
    assert len({test.split("::")[0] for test in markers}) > 10
    assert {law for laws in markers.values() for law in laws} <= set(LAWS)
