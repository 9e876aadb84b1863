"""The player every game has: one who chooses uniformly among the legal actions."""

from __future__ import annotations

import random

from loo.core.actions import Action
from loo.core.protocols import View

__all__ = ["RandomBot", "legal_choices"]


def legal_choices(view: View) -> tuple[Action, ...]:
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn to act (to act: {view.to_act})")
    return view.legal


class RandomBot:
    """Chooses uniformly among the legal actions: a baseline, and a fuzzer for the engine."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:  # any game's view: it needs only ``legal``
        return rng.choice(legal_choices(view))
