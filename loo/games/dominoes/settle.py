"""How a hand of dominoes ends and scores: the tricks, the settlement, and the one scoring rule the
hand and the fast simulator share (DL-SC-03/04, DL-SC-08, DL-DLR-02/05, AMB-14, AMB-49/50,
DL-PTS-01, DR-06..09)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loo.core.hand import PoolSettlement
from loo.core.reasons import Reason
from loo.core.tiles import Tile
from loo.games.dominoes.rules import DominoRules, DominoScoring

__all__ = ["TRICKS", "DominoSettlement", "DominoTrick", "settle_play", "settle_uncontested"]

TRICKS = 5


@dataclass(frozen=True)
class DominoTrick:
    """One trick: who led, the tiles in the order played, the suit led, and who won it."""

    leader: int
    plays: tuple[tuple[int, Tile], ...]
    winner: int
    suit: int

    def to_record(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [[s, str(t)] for s, t in self.plays],
            "winner": self.winner,
            "suit": self.suit,
        }


@dataclass(frozen=True)
class DominoSettlement(PoolSettlement[DominoTrick]):
    """How a finished hand scores; the shape of :class:`loo.games.loo.state.Settlement`, plus ``points``.

    With chips, ``payouts`` are what each seat takes from this pool and ``loos`` what each pays
    into the next one. With points or Rounce scoring no chips move (those lists are zeros and the
    pool passes on untouched) and ``points`` is each seat's change of score this hand.
    """

    scoring: DominoScoring = DominoScoring.CHIPS
    points: tuple[int, ...] | None = None

    @property
    def loo_free(self) -> bool:
        """A hand that was played and in which nobody was looed (CF-34)."""
        return self.reason is Reason.PLAYED and not self.looed

    def net(self) -> tuple[int, ...]:
        """Each seat's gain this hand, higher always better: chips won less chips paid, or points;
        at Rounce, where scores count down, the points taken off."""
        if self.scoring is DominoScoring.CHIPS:
            return tuple(p - loo for p, loo in zip(self.payouts, self.loos, strict=True))
        assert self.points is not None
        sign = -1 if self.scoring is DominoScoring.ROUNCE else 1
        return tuple(sign * p for p in self.points)

    def to_record(self) -> dict[str, Any]:
        out = super().to_record()
        if self.points is not None:
            out["points"] = list(self.points)
        return out


def settle_uncontested(rules: DominoRules, *, seats: int, pool: int, winner: int, reason: Reason) -> DominoSettlement:
    """DL-DLR-02, AMB-49: the pool to one player without play; DR-07 at Rounce, five off his score.

    With points scoring (which 004 does not cover here) he scores five, as for all five tricks.
    """
    zero = (0,) * seats
    scoring = rules.domino_scoring
    if scoring is DominoScoring.CHIPS:
        payouts = [0] * seats
        payouts[winner] = pool
        return DominoSettlement(reason, (), zero, (), tuple(payouts), zero, 0)
    points = [0] * seats
    points[winner] = -TRICKS if scoring is DominoScoring.ROUNCE else TRICKS
    return DominoSettlement(reason, (), zero, (), zero, zero, pool, scoring, tuple(points))


def settle_play(
    rules: DominoRules,
    *,
    seats: int,
    pool: int,
    players: Sequence[int],
    winners: Sequence[int],
    for_pool: int | None,
    tricks: tuple[DominoTrick, ...] = (),
) -> DominoSettlement:
    """The settlement of a hand played out: ``winners`` are the five tricks' winners in order,
    ``for_pool`` the dealer playing for the pool if one is (DL-SC-03/04, DL-SC-08, DL-DLR-05,
    AMB-14, AMB-50; DL-PTS-01; DR-06, DR-08, DR-09). ``tricks`` are kept in the settlement as given."""
    won = [0] * seats
    for w in winners:
        won[w] += 1
    looed = tuple(sorted(p for p in players if won[p] == 0 and p != for_pool))  # in seat order (docs/records.md)
    scoring = rules.domino_scoring
    zero = (0,) * seats
    if scoring is not DominoScoring.CHIPS:
        sign = -1 if scoring is DominoScoring.ROUNCE else 1
        points = [0] * seats
        for p in players:
            if p != for_pool:
                points[p] = sign * won[p] - sign * 5 * (p in looed)
        return DominoSettlement(Reason.PLAYED, tricks, tuple(won), looed, zero, zero, pool, scoring, tuple(points))
    payouts = [0] * seats
    share, remainder = divmod(pool, TRICKS)
    for i, w in enumerate(winners):
        if w != for_pool:  # DL-SC-08: the for-pool dealer's share stays in the pool
            payouts[w] += share + (1 if i < remainder else 0)
    amount = rules.loo_for(pool, seats)
    loos = tuple(amount if p in looed else 0 for p in range(seats))
    next_pool = pool - sum(payouts) + sum(loos)
    return DominoSettlement(Reason.PLAYED, tricks, tuple(won), looed, tuple(payouts), loos, next_pool)
