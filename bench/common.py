"""What the engine benchmarks share: timing, random play through a checked hand, and the cost of
``legal_actions()`` at positions met in play. Each game's script supplies its deal and fast path."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any, NamedTuple

Deal = Callable[[random.Random, int], Any]  # (rng, hand number) -> a fresh hand of the game


def best_of(runs: int, fn: Callable[[], None]) -> float:
    """The fastest of ``runs`` timings of ``fn``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def play_randomly(deal: Deal, hands: int, *, checked: bool) -> None:
    """Play ``hands`` hands choosing uniformly among the legal actions, through push or push_unchecked."""
    rng = random.Random(1)
    for i in range(hands):
        hand = deal(rng, i)
        push = hand.push if checked else hand.push_unchecked
        while not hand.is_over:
            legal = hand.legal_actions()
            push(legal[int(rng.random() * len(legal))])


def legal_actions_cost(deal: Deal, positions: int = 2000, repeats: int = 20) -> list[float]:
    """Microseconds per ``legal_actions()`` call at each of ``positions`` positions met in random play."""
    rng = random.Random(2)
    samples: list[float] = []
    i = 0
    while len(samples) < positions:
        hand = deal(rng, i)
        i += 1
        while not hand.is_over:
            start = time.perf_counter_ns()
            for _ in range(repeats):
                legal = hand.legal_actions()
            samples.append((time.perf_counter_ns() - start) / repeats / 1000)
            hand.push(legal[int(rng.random() * len(legal))])
    return samples


class Rates(NamedTuple):
    """Hands per second of a game's three paths, as :func:`run` measured them."""

    fast: float
    checked: float
    unchecked: float


def run(fast: Callable[[int], None] | None, deal: Deal, *, hands: int, describe: str, hand_name: str) -> Rates:
    """Time the fast path over ``hands`` hands and the checked hand over a tenth as many; print the figures.

    Returns the three paths' hands per second. With ``fast`` None the caller times its fast path
    itself (bench/engine.py, in turn with the floor) and its rate here is not a number.
    """
    t_fast = best_of(3, lambda: fast(hands)) if fast is not None else float("nan")
    t_checked = best_of(3, lambda: play_randomly(deal, hands // 10, checked=True))
    t_unchecked = best_of(3, lambda: play_randomly(deal, hands // 10, checked=False))
    samples = sorted(legal_actions_cost(deal))
    rate = hands / t_fast
    if fast is not None:
        print(f"fast simulator     : {rate:10,.0f} hands/s  ({describe}, random-legal, one core)")
    print(f"engine, checked    : {hands // 10 / t_checked:10,.0f} hands/s  ({hand_name}.push, every law checked)")
    print(f"engine, unchecked  : {hands // 10 / t_unchecked:10,.0f} hands/s  ({hand_name}.push_unchecked)")
    print(
        f"legal_actions()    : median {statistics.median(samples):.1f} µs, "
        f"95th percentile {samples[int(0.95 * len(samples))]:.1f} µs over {len(samples)} positions"
    )
    return Rates(rate, hands // 10 / t_checked, hands // 10 / t_unchecked)
