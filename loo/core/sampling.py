"""One Monte Carlo driver for every game's sampling player.

A sampling player does not see the other seats' pieces. For each of its samples it deals them at
random in a way consistent with what its view shows (the game's own ``world``: Loo's, Nap's and the
dominoes' ``determinize``), plays every candidate action out to the end of the hand (the game's own
``play_out``), and keeps the candidate whose average gain for its seat is highest. Every candidate
is played out in the same sampled worlds, so the comparison between them is paired. A game's player
says only what differs: which actions are worth trying, how to deal the unseen pieces, and how the
other seats play a hand out.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from typing import ClassVar, Generic, TypeVar

from loo.core.actions import Action
from loo.core.protocols import Hand, View

__all__ = ["SamplingPlayer", "deal_avoiding"]

V = TypeVar("V", bound=View)


class SamplingPlayer(Generic[V]):
    """Determinized Monte Carlo over a game's view: subclasses give :meth:`candidates`, :meth:`world`
    and :meth:`play_out`.

    ``samples`` worlds are dealt per decision; with a ``budget`` in seconds, no new world is started
    once the budget is spent (at least one always is). Ties go to the earlier candidate, so a game
    lists its rule of thumb's choice first.
    """

    name = "sampling"
    DEFAULT_SAMPLES: ClassVar[int] = 20

    def __init__(self, samples: int | None = None, budget: float | None = None) -> None:
        samples = self.DEFAULT_SAMPLES if samples is None else samples
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples!r}")
        self.samples = samples
        self.budget = budget
        # How often a world that contradicts what the others' choices said is dealt again before one is
        # taken anyway (a game's ``determinize``); None: the game's own number. Fewer is quicker and
        # less faithful: the reader's browser asks for fewer (widgets.table.hints.IN_BROWSER).
        self.tries: int | None = None

    def candidates(self, view: V, rng: random.Random) -> list[Action]:
        """The actions worth playing out, best guess first; raises ValueError if the seat has none."""
        raise NotImplementedError

    def world(self, view: V, rng: random.Random) -> Hand:
        """A hand dealt at random, consistent with everything ``view`` shows, at the view's position."""
        raise NotImplementedError

    def consistent(self, view: V, world: Hand) -> bool:
        """Whether ``world`` agrees with what the other seats' choices so far say of their pieces (a
        hint redeals a world that does not, a few times; :meth:`values` and :meth:`choose` never ask)."""
        return True

    def caveat(self, view: V) -> str:
        """What the sampled worlds do not weigh of what ``view`` reveals, in a sentence a hint shows
        (empty when they weigh it all, as far as this player knows)."""
        return ""

    def play_out(self, hand: Hand, rng: random.Random) -> None:
        """Play ``hand`` to its settlement as the other seats (and this one, later) would."""
        raise NotImplementedError

    def gains(self, view: V, world: Hand, candidates: Sequence[Action], rng: random.Random) -> list[float]:
        """What ``view``'s seat nets after each of ``candidates`` in the sampled ``world``, each played
        out from a copy of it (``settlement.net()``): the same world for all, so they compare paired."""
        found = []
        for action in candidates:
            sim = world.clone()
            sim.push_unchecked(action)
            self.play_out(sim, rng)
            settlement = sim.settlement
            assert settlement is not None
            found.append(float(settlement.net()[view.seat]))
        return found

    def values(self, view: V, rng: random.Random) -> list[tuple[Action, float]]:
        """Each candidate with the mean this seat nets after it (``settlement.net()``) over the samples."""
        candidates = self.candidates(view, rng)
        totals = [0.0] * len(candidates)
        done = 0
        start = time.perf_counter()
        for _ in range(self.samples):
            if self.budget is not None and done and time.perf_counter() - start > self.budget:
                break
            for j, gain in enumerate(self.gains(view, self.world(view, rng), candidates, rng)):
                totals[j] += gain
            done += 1
        return [(a, t / done) for a, t in zip(candidates, totals, strict=True)]

    def choose(self, view: V, rng: random.Random) -> Action:
        """The candidate with the best mean (the first of equals); the only legal action at once."""
        if len(view.legal) == 1:
            return view.legal[0]
        scored = self.values(view, rng)
        best = max(range(len(scored)), key=lambda j: (scored[j][1], -j))
        return scored[best][0]


P = TypeVar("P", bound=Hashable)


def deal_avoiding(
    unseen: Sequence[P],
    sizes: Mapping[int, int],
    banned: Mapping[int, Collection[Hashable]],
    rng: random.Random,
    *,
    mark: Callable[[P], Hashable] = lambda piece: piece,
    attempts: int = 20,
) -> tuple[dict[int, list[P]], list[P]]:
    """Deal ``unseen`` (shuffled here) to the seats in ``sizes``, none a piece whose ``mark`` is in its
    ``banned`` set (a suit it has shown out of, a tile it cannot hold); the most constrained seat
    first, trying again up to ``attempts`` times, the last ignoring the bans (a view that contradicts
    itself). Each seat's pieces, and the rest. Nap's and the dominoes' worlds are dealt so.

    >>> deal_avoiding([1, 2, 3, 4], {0: 2, 1: 1}, {0: {1, 2}}, random.Random(3))
    ({0: [4, 3], 1: [1]}, [2])
    """
    order = sorted(sizes, key=lambda p: (-len(banned.get(p, ())), p))
    for attempt in range(attempts):
        pool = list(unseen)
        rng.shuffle(pool)
        dealt: dict[int, list[P]] = {}
        for p in order:
            barred = banned.get(p, ()) if attempt < attempts - 1 else ()
            mine = [piece for piece in pool if mark(piece) not in barred][: sizes[p]]
            if len(mine) < sizes[p]:
                break
            taken = set(mine)
            pool = [piece for piece in pool if piece not in taken]
            dealt[p] = mine
        else:
            return dealt, pool
    raise ValueError("the view's hand sizes do not fit the unseen pieces")  # pragma: no cover
