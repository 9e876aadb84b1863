"""Each game's parts to play it, by the game's name: rules, a seeded deal, one deal's stakes, bots and a fast path.

The command line, the widgets and the live tables reach a game through :func:`kit`; each game
package's descriptor (:func:`loo.registry.spec`) makes its :class:`~loo.core.spec.Kit`.

>>> kit("nap").read_rules("nap", None).preset_name
'hoffmann'
"""

from __future__ import annotations

from loo.core.spec import Deal, Kit
from loo.registry import NAMES, UnknownGame, spec

__all__ = ["GAMES", "ArgumentError", "Deal", "Kit", "UnknownGame", "kit", "loo_kit"]

GAMES = NAMES  # every game, in the registry's order (loo.registry)


def kit(game: str) -> Kit:
    """The parts of ``game``; :class:`~loo.registry.UnknownGame` names the games if there is none."""
    return spec(game).kit()


def loo_kit() -> Kit:
    """Loo's parts (three-card, five-card and Irish Loo share them)."""
    return kit("three-card-loo")


class ArgumentError(ValueError):
    """A command-line argument that cannot be used; reported in one line with exit status 2."""
