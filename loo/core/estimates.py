"""What a sampling player expects of every choice, with a 95% interval, seeded from the position.

A hint must answer the same way for the same position, in any process, and say how sure it is.
:func:`estimate` takes its seed from a digest of what the seat's view shows (:func:`position_seed`:
SHA-256 of a canonical text, never Python's ``hash()``, which changes from run to run), deals worlds
in batches as :class:`~loo.core.sampling.SamplingPlayer` does (every candidate played out in the same
worlds), and stops once the best candidate's interval is at most ``width`` wide and the best is
either clearly ahead of the runner-up or every interval is that narrow (or at ``most`` worlds).
Each candidate's interval is its mean plus or minus 1.96 standard errors of its samples; the
margin of the best over the runner-up is taken from the paired differences, so it is much
narrower than either interval when the worlds matter more than the choice.

>>> import random
>>> from loo.games.loo.bots import SamplingBot
>>> from loo.games.loo.hand import LooHand
>>> from loo.games.loo.rules import Rules
>>> hand = LooHand.deal(Rules.preset("peel"), random.Random(7), seats=5, dealer=4, pool=3)
>>> a = estimate(SamplingBot(), hand.view(0))
>>> a == estimate(SamplingBot(), hand.view(0))
True
>>> a.values[0].low <= a.values[0].mean <= a.values[0].high
True
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from loo.core.actions import Action
from loo.core.cards import Card
from loo.core.protocols import View
from loo.core.sampling import SamplingPlayer
from loo.core.tiles import Tile

__all__ = ["Estimate", "Estimates", "estimate", "position_seed", "position_text"]

REDEALS = 30  # a world that contradicts what the others' choices say is dealt again, up to this often
Z95 = 1.959963984540054  # the two-sided 95% point of the normal distribution
V = TypeVar("V", bound=View)

# What a view holds that is not the position: the table's names, and the settlement (None in play).
_NOT_POSITION = frozenset({"names", "settlement"})


@dataclass(frozen=True)
class Estimate:
    """One choice's mean gain for the seat over the worlds dealt, and its 95% interval."""

    action: Action
    mean: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


@dataclass(frozen=True)
class Estimates:
    """A hint's figures: the best choice, every candidate's estimate (the player's order, its rule of
    thumb's choice first), and the best one's margin over the runner-up (paired; None when there is
    one candidate)."""

    choice: Action
    values: tuple[Estimate, ...]
    margin: Estimate | None
    samples: int
    seed: int
    over_first: Estimate | None = None  # the best's lead over the first candidate (paired), if it is another
    behind: tuple[
        Estimate, ...
    ] = ()  # by candidate, as ``values``: how far it trails the best (paired; 0 for the best)

    @property
    def first_as_good(self) -> bool:
        """Whether the first candidate (a player's rule of thumb) may be as good as the best: their
        paired difference's interval reaches 0."""
        return self.over_first is None or self.over_first.low <= 0

    @property
    def best(self) -> Estimate:
        return next(e for e in self.values if e.action == self.choice)

    @property
    def clear(self) -> bool:
        """Whether the best choice is better than the runner-up beyond doubt (its margin's interval is above 0)."""
        return self.margin is None or self.margin.low > 0


def _canon(value: Any) -> Any:
    """``value`` as plain JSON data that reads the same in every process."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, enum.Enum):
        return _canon(value.value)
    if isinstance(value, Card | Tile):
        return str(value)  # as a record writes it: "QH", "6-3"
    if isinstance(value, Action):
        return value.to_record()
    if isinstance(value, list | tuple):
        return [_canon(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(json.dumps(_canon(v), sort_keys=True) for v in value)
    if isinstance(value, dict):
        return {str(k): _canon(v) for k, v in value.items()}
    to_record = getattr(value, "to_record", None)
    if callable(to_record):
        return _canon(to_record())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _canon(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


def position_text(view: View) -> str:
    """A canonical text of everything ``view`` shows of the position (not the players' names)."""
    if not dataclasses.is_dataclass(view) or isinstance(view, type):
        raise TypeError(f"a position is read from a game's view, not {type(view).__name__}")
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view) if f.name not in _NOT_POSITION}
    return json.dumps(_canon(fields), sort_keys=True, separators=(",", ":"))


def position_seed(view: View) -> int:
    """A seed from a digest of the position ``view`` shows: the same in every process and every run."""
    digest = hashlib.sha256(position_text(view).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def _interval(action: Action, total: float, squares: float, n: int) -> Estimate:
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else math.inf
    half = Z95 * math.sqrt(variance / n)
    return Estimate(action, mean, mean - half, mean + half)


def _best(values: Sequence[Estimate]) -> int:
    """The best mean; the first of equals (a player lists its rule of thumb's choice first)."""
    return max(range(len(values)), key=lambda j: (values[j].mean, -j))


def estimate(
    player: SamplingPlayer[V],
    view: V,
    *,
    seed: int | None = None,
    width: float = 1.0,
    least: int = 100,
    most: int = 2000,
    batch: int = 50,
) -> Estimates:
    """Every candidate's mean and 95% interval, sampling in batches of ``batch`` worlds until the best
    candidate's interval is at most ``width`` wide (at least ``least`` worlds, at most ``most``).

    ``seed`` defaults to :func:`position_seed`; no clock is read, so the answer depends on the position
    alone. Raises ValueError when the seat has nothing to choose.
    """
    if least < 2 or most < least or batch < 1:
        raise ValueError(f"need 2 <= least <= most and batch >= 1, not least={least}, most={most}, batch={batch}")
    seed = position_seed(view) if seed is None else seed
    rng = random.Random(seed)
    candidates = player.candidates(view, rng)
    k = len(candidates)
    totals, squares = [0.0] * k, [0.0] * k
    gains: list[list[float]] = [[] for _ in range(k)]
    n = 0
    while True:
        for _ in range(batch):
            world = player.world(view, rng)
            for _ in range(REDEALS):
                if player.consistent(view, world):
                    break
                world = player.world(view, rng)
            for j, gain in enumerate(player.gains(view, world, candidates, rng)):
                totals[j] += gain
                squares[j] += gain * gain
                gains[j].append(gain)
            n += 1
            if n >= most:
                break
        values = [_interval(a, totals[j], squares[j], n) for j, a in enumerate(candidates)]
        top = _best(values)
        margin = _margin(candidates, gains, top, _runner(values, top), n)
        settled = margin is None or margin.low > 0 or all(v.width <= width for v in values)
        if n >= most or (n >= least and values[top].width <= width and settled):
            break
    over_first = _margin(candidates, gains, top, 0, n) if top else None
    behind = tuple(_trails(candidates[j], gains[top], gains[j], n) for j in range(k))
    return Estimates(candidates[top], tuple(values), margin, n, seed, over_first, behind)


def _runner(values: Sequence[Estimate], top: int) -> int | None:
    """The runner-up: the best mean but ``top``'s (the first of equals); None with one candidate."""
    rest = [j for j in range(len(values)) if j != top]
    return max(rest, key=lambda j: (values[j].mean, -j)) if rest else None


def _trails(action: Action, best: Sequence[float], gains: Sequence[float], n: int) -> Estimate:
    """How far ``action`` trails the best candidate, from the paired differences in the same worlds."""
    diffs = [a - b for a, b in zip(best, gains, strict=True)]
    return _interval(action, sum(diffs), sum(d * d for d in diffs), n)


def _margin(
    candidates: Sequence[Action], gains: Sequence[Sequence[float]], top: int, other: int | None, n: int
) -> Estimate | None:
    """The best candidate's lead over ``other``, from the paired differences in the same worlds."""
    if other is None:
        return None
    diffs = [a - b for a, b in zip(gains[top], gains[other], strict=True)]
    return _interval(candidates[top], sum(diffs), sum(d * d for d in diffs), n)
