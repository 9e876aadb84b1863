"""The values a hand of dominoes is made of: the actions, what one seat may know (the view), and the
state that changes as the hand goes on (copied for take-back)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loo.core.actions import Action
from loo.core.hand import Phase, PublicView
from loo.core.tiles import Tile
from loo.games.dominoes.rules import DominoRules
from loo.games.dominoes.settle import DominoSettlement, DominoTrick

__all__ = ["HAND_SIZE", "PLAYERS", "DominoAction", "DominoState", "DominoView", "act", "dummy_sizes"]

HAND_SIZE = 5  # DL-DEAL-03
PLAYERS = range(2, 5)  # DL-EQP-02


def dummy_sizes(players: int) -> tuple[int, ...]:
    """DR-03: two dummies of six tiles for two or three players, one of seven for four."""
    return (6, 6) if players <= 3 else (7,)


# Domino actions are plain :class:`~loo.core.actions.Action` values; the name stays for readability.
DominoAction = Action


def act(seat: int, verb: str, value: Any, suit: int | None = None) -> DominoAction:
    """A domino action (never "Pam be civil": dominoes have no Pam)."""
    return DominoAction(seat, verb, value, False, suit)


@dataclass(frozen=True)
class DominoView(PublicView[DominoRules, Phase]):
    """What one seat may know: its own tiles, the turn-up and the public table, nothing else.

    Never the boneyard, the misses or dummies, another seat's tiles or what others put out.
    """

    turnup: Tile  # face up for the whole hand (DL-DEAL-05), even once the dealer takes it
    hand: tuple[Tile, ...]
    turnup_taken: bool
    put_out: tuple[Tile, ...]  # the tiles this seat itself put out of play
    declared: tuple[str | None, ...]
    misses_taken: tuple[int, ...]  # seats that took a miss (a dummy at Rounce), in order
    misses_left: int
    for_pool: bool
    hand_sizes: tuple[int, ...]
    tricks: tuple[DominoTrick, ...]
    current: tuple[tuple[int, Tile], ...]
    led: int | None  # the suit of the trick in progress
    legal: tuple[DominoAction, ...]
    settlement: DominoSettlement | None

    @property
    def trump(self) -> int:
        """DL-DEAL-04: the higher end of the turn-up."""
        return self.turnup.high


@dataclass
class DominoState:
    """Everything that changes during a hand, kept by the hand (and read by no one else); copied for take-back."""

    phase: Phase
    to_act: int | None
    declared: list[str | None]
    holding: list[list[Tile]]
    put_out: list[list[Tile]]
    misses_taken: list[int] = field(default_factory=list)
    stock_pos: int = 0
    for_pool: bool = False
    turnup_taken: bool = False
    announcing: bool = False  # the dealer took the turn-up and must still say for whom he plays
    dead: list[Tile] = field(default_factory=list)
    players: tuple[int, ...] = ()
    tricks: list[DominoTrick] = field(default_factory=list)
    current: list[tuple[int, Tile]] = field(default_factory=list)
    led: int | None = None
    leader: int | None = None
    settlement: DominoSettlement | None = None

    def copy(self) -> DominoState:
        return DominoState(
            self.phase,
            self.to_act,
            list(self.declared),
            [list(h) for h in self.holding],
            [list(p) for p in self.put_out],
            list(self.misses_taken),
            self.stock_pos,
            self.for_pool,
            self.turnup_taken,
            self.announcing,
            list(self.dead),
            self.players,
            list(self.tricks),
            list(self.current),
            self.led,
            self.leader,
            self.settlement,
        )
