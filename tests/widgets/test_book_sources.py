"""The chapter "The sources compared" (book/sources.md) keeps up with the engine's conflicts.

The chapter's convention: every conflict between the sources (status CONFLICT in ``loo.core.laws``)
has a section of its own, a level-3 heading whose first line of text is the conflict's ID in
the ``{law}`` role. In that section a line starting ``**The engine:**`` says what the engine
does by default, and a line starting ``**At the table:**`` (in every game section) says which
preset or option of the Rules tab gives another reading. Every option that the engine says
settles a conflict (``loo.options``) is named by its key in that conflict's section, and every
option key or preset the chapter names in backticks exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loo.core.laws import LAWS, Status
from loo.options import GAME_NAMES, game_options, presets

PAGE = Path(__file__).resolve().parents[2] / "book" / "sources.md"
CONFLICTS = sorted(law_id for law_id, law in LAWS.items() if law.status is Status.CONFLICT)
ROLE = re.compile(r"\{law\}`([A-Z0-9-]+)`")
OPENING = re.compile(r"\{law\}`(CF-\d{2})`")
FENCE = re.compile(r"^(`{3,}|~{3,})")
OPTION_KEYS = {o.key for game in GAME_NAMES for o in game_options(game)}
PRESETS = {p for game in GAME_NAMES for p in presets(game)}
HISTORY = ("CF-35", "CF-36", "CF-37", "CF-38")  # the past: no option to offer, and no table


def prose(text: str) -> str:
    """The page without its fenced blocks (code cells, directives), which are blanked line for line."""
    out: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            out.append("")
        elif fence is not None:
            if line.strip() == fence:
                fence = None
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def sections(text: str) -> dict[str, list[str]]:
    """Each conflict's section (its lines, heading first), found by the ID that opens it."""
    found: dict[str, list[str]] = {}
    blocks = re.split(r"(?m)^(?=#{1,3} )", prose(text))
    for block in blocks:
        if not block.startswith("### "):
            continue
        lines = block.splitlines()
        first = next((line.strip() for line in lines[1:] if line.strip()), "")
        match = OPENING.match(first)
        if match:
            assert match.group(1) not in found, f"{match.group(1)} opens two sections"
            found[match.group(1)] = lines
    return found


@pytest.fixture(scope="module")
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def by_conflict(page: str) -> dict[str, list[str]]:
    return sections(page)


def test_the_engine_knows_thirty_eight_conflicts() -> None:
    assert CONFLICTS == [f"CF-{n:02d}" for n in range(1, 39)]


@pytest.mark.parametrize("law_id", CONFLICTS)
def test_every_conflict_is_cited_with_the_law_role(page: str, law_id: str) -> None:
    assert f"{{law}}`{law_id}`" in page, f"{law_id} is not cited with the {{law}} role in {PAGE.name}"


@pytest.mark.parametrize("law_id", CONFLICTS)
def test_every_conflict_has_a_section_naming_the_engines_default(
    by_conflict: dict[str, list[str]], law_id: str
) -> None:
    assert law_id in by_conflict, f"no ### section opens with {{law}}`{law_id}`"
    engine = [line for line in by_conflict[law_id] if line.startswith("**The engine:**")]
    assert len(engine) == 1, f"the {law_id} section needs exactly one line starting **The engine:**"
    assert len(engine[0].removeprefix("**The engine:**").split()) >= 3, f"{law_id}: say what the engine does"


@pytest.mark.parametrize("law_id", [c for c in CONFLICTS if c not in HISTORY])
def test_every_game_conflict_says_what_the_table_offers(by_conflict: dict[str, list[str]], law_id: str) -> None:
    lines = by_conflict.get(law_id, [])
    assert any(line.startswith("**At the table:**") for line in lines), f"{law_id}: no **At the table:** line"


def test_every_option_that_settles_a_conflict_is_named_in_its_section(by_conflict: dict[str, list[str]]) -> None:
    missing = []
    for game in GAME_NAMES:
        for opt in game_options(game):
            for law_id in opt.settles:
                if law_id.startswith("CF-") and f"`{opt.key}`" not in "\n".join(by_conflict.get(law_id, [])):
                    missing.append(f"{game}: {opt.key} settles {law_id}")
    assert not missing, "options not named in their conflict's section:\n" + "\n".join(missing)


def test_every_option_or_preset_named_exists(page: str) -> None:
    named = set(re.findall(r"(?<![}`])`([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`", prose(page)))  # not a role's target
    unknown = sorted(n for n in named if n not in OPTION_KEYS | PRESETS)
    assert not unknown, f"not an option key or a preset of any game: {unknown}"


def test_every_law_cited_exists(page: str) -> None:
    unknown = sorted({law_id for law_id in ROLE.findall(page) if law_id not in LAWS})
    assert not unknown, f"unknown law IDs: {unknown}"


def test_the_convention_is_checked_on_a_broken_page() -> None:
    broken = "## Game\n\n### A conflict\n\n{law}`CF-01`\n\n- Peel: one thing.\n\n```python\n### not a heading\n```\n"
    found = sections(broken)
    assert list(found) == ["CF-01"]
    assert not any(line.startswith("**The engine:**") for line in found["CF-01"])
