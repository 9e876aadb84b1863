"""Every game the engine plays, in one place: the only module that names them all.

Each game has an entry (:class:`GameEntry`): its record name, its title for a reader, its family
(the engine module that plays it: Loo's cards, Nap's, or dominoes), the seats its table sets out
unless told otherwise, and its word in deal codes. The command line, the options, the record
reader, the widgets and the deal codes all ask this module; adding a game starts here. What differs
between the games beyond that (their rules, records, pieces, words and parts to play them) each
game package says once, in its descriptor (:func:`spec`, :class:`loo.core.spec.GameSpec`).

>>> entry("domino-rounce").title, entry("domino-rounce").family is Family.DOMINOES
('Domino Rounce', True)
>>> [g.code for g in GAMES]
['l3', 'l5', 'il', 'nap', 'dl', 'dr']
>>> entry("whist")
Traceback (most recent call last):
loo.registry.UnknownGame: unknown game 'whist'; the games are three-card-loo, five-card-loo, irish-loo, nap, ...
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loo.core.spec import GameSpec

__all__ = ["GAMES", "NAMES", "Family", "GameEntry", "UnknownGame", "entry", "spec"]


class UnknownGame(ValueError):
    """A game name the engine does not know."""


class Family(Enum):
    """Which of the engine's modules plays a game: its pieces and the shape of its hands."""

    LOO = "loo"  # cards; three- and five-card Loo, Irish Loo (loo.games.loo.hand, loo.games.loo.game)
    NAP = "nap"  # cards; calling for tricks (loo.games.nap)
    DOMINOES = "dominoes"  # tiles; Domino Loo and Rounce (loo.games.dominoes)


@dataclass(frozen=True)
class GameEntry:
    """One game: what every part of the project needs to know of it before asking its engine."""

    name: str  # as records and addresses write it
    title: str  # as a reader is shown it
    family: Family
    usual_seats: int  # the players at a new table unless a deal code or the reader says otherwise
    code: str  # its word in a deal code (widgets.table.dealcode)
    in_text: str  # as a sentence names it ("a hand of three-card Loo")

    spare: str = "miss"  # the spare hand a player may take instead of their own ("dummy" at Rounce)

    @property
    def package(self) -> str:
        """The package that plays the game (its descriptor is that package's ``spec.SPEC``)."""
        return f"loo.games.{self.family.value}"

    @property
    def pieces(self) -> str:
        """What the game is played with, in a plain word: "cards" or "tiles" (its descriptor's piece)."""
        return f"{spec(self.name).piece}s"


GAMES: tuple[GameEntry, ...] = (
    GameEntry("three-card-loo", "Three-card Loo", Family.LOO, 5, "l3", "three-card Loo"),
    GameEntry("five-card-loo", "Five-card Loo (Pam)", Family.LOO, 5, "l5", "five-card Loo"),
    GameEntry("irish-loo", "Irish Loo", Family.LOO, 5, "il", "Irish Loo"),
    GameEntry("nap", "Napoleon (Nap)", Family.NAP, 4, "nap", "Nap"),
    GameEntry("domino-loo", "Domino Loo", Family.DOMINOES, 4, "dl", "Domino Loo"),
    GameEntry("domino-rounce", "Domino Rounce", Family.DOMINOES, 4, "dr", "Domino Rounce", spare="dummy"),
)
NAMES: tuple[str, ...] = tuple(g.name for g in GAMES)
_BY_NAME = {g.name: g for g in GAMES}


def entry(name: object) -> GameEntry:
    """The game called ``name``; :class:`UnknownGame` names the games if there is none."""
    found = _BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownGame(f"unknown game {name!r}; the games are {', '.join(NAMES)}")
    return found


def spec(name: object) -> GameSpec:
    """The descriptor of the game called ``name`` (:class:`UnknownGame` if there is none). Only that
    game's package is imported: its rules, not its hand or bots (see :mod:`loo.core.spec`)."""
    module = importlib.import_module(f"{entry(name).package}.spec")
    found: GameSpec = module.SPEC
    return found
