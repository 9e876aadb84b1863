"""Each game's descriptor (issue 30, point 1): one ``spec`` per game package says what the rest of the
project asks of a game, and nothing outside the registry and the game packages asks which family a
game is."""

from __future__ import annotations

import ast
import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import pytest

from loo.core.actions import Action
from loo.records import record_type
from loo.registry import GAMES, NAMES, UnknownGame, entry, spec

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", NAMES)
def test_a_games_descriptor_answers_for_its_game(game: str) -> None:
    """The descriptor's parts agree with one another on a dealt hand: its kit reads the game's rules
    as the descriptor's rules class, from its presets; its pieces read back from their text; its
    rule-of-thumb player chooses a legal action; its advice speaks of it; its record reads back."""
    found = spec(game)
    assert found.package == entry(game).package and found is spec(game)
    the_kit = found.kit()
    rules = the_kit.read_rules(game, None)
    assert isinstance(rules, found.rules_class)
    assert any(p.to_record() == rules.to_record() for p in found.presets.values())
    seats = entry(game).usual_seats
    hand = the_kit.deal(rules, random.Random(5), seats, seats - 1, the_kit.pool(rules, seats))
    for piece in (p for dealt in hand.dealt if dealt for p in dealt):
        assert found.parse_piece(str(piece)) == piece and type(piece).__name__.lower() == found.piece
    view = hand.view(hand.to_act)
    choice = found.thumb().choose(view, random.Random(0))
    assert choice in view.legal
    assert all(found.offered(rules, action) for action in view.legal)
    said = found.advice().reason(view, choice)
    assert said is None or said.endswith((".", ")"))
    assert record_type(game) is found.record_type()


def test_nap_offers_only_the_calls_its_rules_play() -> None:
    nap = spec("nap")
    plain = nap.rules_class.preset("hoffmann")
    with_misery = dataclasses.replace(plain, misery=True)
    misery = Action(0, "call", "misery")
    assert not plain.misery and not nap.offered(plain, misery) and nap.offered(with_misery, misery)
    assert nap.offered(plain, Action(0, "call", "3")) and not nap.offered(plain, Action(0, "peep", True))
    assert spec("three-card-loo").offered(None, misery)  # no Loo rule leaves a kind of action out


def test_an_unknown_game_has_no_descriptor() -> None:
    with pytest.raises(UnknownGame, match="the games are three-card-loo"):
        spec("whist")


def test_a_descriptor_imports_its_own_game_only() -> None:
    """Asking a Loo game's descriptor, its kit and its advice loads none of Nap's or the dominoes' modules."""
    code = (
        "import sys\n"
        "from loo.registry import spec\n"
        "s = spec('three-card-loo'); s.kit(); s.advice(); s.thumb(); s.record_type()\n"
        "print(sorted(m for m in sys.modules if m.startswith(('loo.games.nap', 'loo.games.dominoes'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


# What a module may name to tell the games apart: the registry (which says each game's family) and
# the game packages themselves.
MAY_NAME_FAMILIES = ("loo/registry.py",)


def test_no_module_branches_on_a_games_family() -> None:
    """Outside the registry and the game packages, no module of the engine or the widgets asks which
    family a game is: each asks its descriptor."""
    asking = []
    for package in ("loo", "widgets"):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative in MAY_NAME_FAMILIES or relative.startswith("loo/games/"):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Family":
                    asking.append(f"{relative}:{node.lineno}")
                if isinstance(node, ast.Attribute) and node.attr == "family":
                    asking.append(f"{relative}:{node.lineno}")
    assert not asking, asking
    assert {g.family for g in GAMES}  # the registry still knows them
