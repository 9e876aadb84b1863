"""Domino Loo speed, run on demand: ``taskset -c 0 python bench/dominoes.py [--hands N]``.

Measures, on one core, for four players with random-legal play (every seat choosing uniformly
among its legal actions: declarations, the dealer's rights, announced leads, follows):
* complete hands per second in the fast simulator (loo/dominoes_fast.py), the figure the book's
  simulations use; the target is at least 20,000;
* the same through the checked engine (DominoHand.push) and its unchecked path;
* the cost of one DominoHand.legal_actions() call, in microseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loo.dominoes import DominoHand, DominoRules, play_random_domino_hand

TARGET = 20_000


def best_of(runs: int, fn: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--preset", default="celko")
    args = parser.parse_args()
    rules = DominoRules.preset(args.preset)
    n = args.hands

    def fast() -> None:
        rng = random.Random(1)
        for i in range(n):
            play_random_domino_hand(rules, rng, seats=4, dealer=i % 4, pool=25)

    def engine(checked: bool) -> None:
        rng = random.Random(1)
        for i in range(n // 10):
            hand = DominoHand.deal(rules, rng, seats=4, dealer=i % 4, pool=25)
            while not hand.is_over:
                legal = hand.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                if checked:
                    hand.push(action)
                else:
                    hand.push_unchecked(action)

    t_fast = best_of(3, fast)
    t_checked = best_of(3, lambda: engine(True))
    t_unchecked = best_of(3, lambda: engine(False))

    # legal_actions() on positions met in real play
    rng = random.Random(2)
    positions = []
    while len(positions) < 2000:
        hand = DominoHand.deal(rules, rng, seats=4, dealer=3, pool=25)
        while not hand.is_over:
            positions.append(hand.clone())
            legal = hand.legal_actions()
            hand.push_unchecked(legal[int(rng.random() * len(legal))])
    samples = []
    for hand in positions:
        start = time.perf_counter_ns()
        for _ in range(20):
            hand.legal_actions()
        samples.append((time.perf_counter_ns() - start) / 20 / 1000)
    rate = n / t_fast
    verdict = "meets" if rate >= TARGET else "MISSES"
    print(f"fast simulator     : {rate:10,.0f} hands/s  (Domino Loo, 4 players, {args.preset}, random-legal, one core;"
          f" {verdict} the {TARGET:,} target)")  # fmt: skip
    print(f"engine, checked    : {n // 10 / t_checked:10,.0f} hands/s  (DominoHand.push, every law checked)")
    print(f"engine, unchecked  : {n // 10 / t_unchecked:10,.0f} hands/s  (DominoHand.push_unchecked)")
    print(
        f"legal_actions()    : median {statistics.median(samples):.1f} µs, "
        f"95th percentile {sorted(samples)[int(0.95 * len(samples))]:.1f} µs over {len(samples)} positions"
    )


if __name__ == "__main__":
    main()
