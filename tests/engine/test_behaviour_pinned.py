"""The engine's answers are pinned (tools/behaviour.py): ``loo check`` on every golden record and
on the first block of random records of each game gives what ``tools/behaviour.json`` recorded.

The whole comparison (10,000 random records a game, about 90 s) is run on demand around any
change to the engine that must not change what it does: ``.venv/bin/python tools/behaviour.py``.
When a change is meant to change behaviour (a defect fixed), pin the new answers with ``--write``
and say so in the commit.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("behaviour", ROOT / "tools" / "behaviour.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


behaviour = _tool()
PINNED = json.loads((ROOT / "tools" / "behaviour.json").read_text())


def test_every_golden_record_gets_the_pinned_answer() -> None:
    assert behaviour.golden_answers() == PINNED["golden"]


@pytest.mark.parametrize("game", sorted(PINNED["games"]))
def test_the_first_random_records_of_each_game_get_the_pinned_answers(game: str) -> None:
    assert PINNED["block"] == behaviour.BLOCK
    assert behaviour.block_digest(game, 0) == PINNED["games"][game][0], (
        f"loo check answers differently on {game}'s first {behaviour.BLOCK} random records: "
        f"see them with tools/behaviour.py --show {game}:0"
    )


def test_random_records_are_the_same_on_every_run_and_cover_every_answer() -> None:
    """The records are seeded (the pin means nothing otherwise), and they reach all three exit
    statuses of every game: a hand checked, a law broken, a record refused."""
    for game in PINNED["games"]:
        texts = [behaviour.random_record(game, i) for i in range(100)]
        assert texts == [behaviour.random_record(game, i) for i in range(100)]
        statuses = {json.loads(behaviour.answer(text))[0] for text in texts}
        assert statuses == {0, 1, 2}, (game, statuses)
