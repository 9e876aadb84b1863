"""The coverage account for group E: every mandatory law and option of Napoleon is tested or explained."""

from __future__ import annotations

import re
from pathlib import Path

from loo.laws import LAWS

# Laws the engine does not enforce, each with its reason.
NOT_ENFORCED = {
    "NAP-DEAL-02": "who shuffles and who cuts is table ceremony: the shuffle is the injected generator (CF-30); "
    "a deal made without a cut is a misdeal claim (NAP-MISD-01)",
}


def _covered(text: str) -> set[str]:
    """IDs named in test names and text: NAP_CALL_01_02 names NAP-CALL-01 and NAP-CALL-02."""
    covered = set()
    for m in re.finditer(r"(?<![A-Za-z0-9])NAP[-_]([A-Z]+)[-_](\d\d(?:[-_]\d\d)*)", text):
        for number in re.split(r"[-_]", m.group(2)):
            covered.add(f"NAP-{m.group(1)}-{number}")
    return covered


def test_every_mandatory_law_and_option_of_group_e_is_tested_or_explained() -> None:
    text = "".join(p.read_text() for p in Path(__file__).parent.glob("test_nap*.py") if p.name != Path(__file__).name)
    covered = _covered(text)
    required = [
        law_id for law_id, law in LAWS.items() if law_id.startswith("NAP-") and law.status.value in ("M", "M/d", "O")
    ]
    assert len(required) > 60
    missing = [law_id for law_id in required if law_id not in covered and law_id not in NOT_ENFORCED]
    assert missing == []
    assert set(NOT_ENFORCED) <= set(LAWS)
    assert not set(NOT_ENFORCED) & covered, "an exempted law is tested after all: drop its exemption"


def test_the_advice_the_bots_follow_is_named_in_their_tests() -> None:
    text = (Path(__file__).parent / "test_nap_bots.py").read_text()
    for law_id in ("NAP-STR-01", "NAP-STR-02", "NAP-STR-03", "NAP-STR-04", "NAP-STR-05", "NAP-STR-06", "NAP-MIS-06",
                   "NAP-PEEP-06"):  # fmt: skip
        assert law_id in _covered(text)


def test_every_law_the_engine_cites_exists() -> None:
    root = Path(__file__).resolve().parents[2] / "loo"
    source = "".join((root / name).read_text() for name in ("nap.py", "nap_bots.py", "nap_fast.py"))
    cited = set(re.findall(r"\b(?:NAP-[A-Z]+-\d\d|AMB-\d\d|CF-\d\d)\b", source))
    assert cited and cited <= set(LAWS), sorted(cited - set(LAWS))
