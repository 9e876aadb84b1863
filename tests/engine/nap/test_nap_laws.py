"""Napoleon's laws as the bots and the engine cite them (the coverage account of every group is
tests/engine/test_law_coverage.py)."""

from __future__ import annotations

import re
from pathlib import Path

from loo.core.laws import LAWS
from tests.law_markers import markers_in


def test_the_advice_the_bots_follow_is_marked_on_their_tests() -> None:
    marked = {law for laws in markers_in(Path(__file__).parent / "test_nap_bots.py").values() for law in laws}
    for law_id in ("NAP-STR-01", "NAP-STR-02", "NAP-STR-03", "NAP-STR-04", "NAP-STR-05", "NAP-STR-06", "NAP-MIS-06",
                   "NAP-PEEP-06"):  # fmt: skip
        assert law_id in marked


def test_every_law_the_engine_cites_exists() -> None:
    package = Path(__file__).resolve().parents[3] / "loo" / "games" / "nap"
    source = "".join(path.read_text() for path in sorted(package.glob("*.py")))
    cited = set(re.findall(r"\b(?:NAP-[A-Z]+-\d\d|AMB-\d\d|CF-\d\d)\b", source))
    assert cited and cited <= set(LAWS), sorted(cited - set(LAWS))
