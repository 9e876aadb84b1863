"""Nap speed, run on demand: ``python bench/nap.py [--hands N]`` (``taskset -c 0`` for one core).

Measures, for four players with random-legal play (deal, call, play until the call is made or
beaten, settle):
* hands per second in the fast simulator (loo.nap_fast), the figure the statistics use;
* the same through the checked engine (NapHand.push) and its unchecked path;
* the cost of one NapHand.legal_actions() call, in microseconds, on positions met in play.
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

from loo.nap import NapHand, NapRecord, NapRules
from loo.nap_fast import play_random_nap

SEATS = 4


def best_of(runs: int, fn: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--preset", default="hoffmann")
    args = parser.parse_args()
    rules = NapRules.preset(args.preset)
    n = args.hands

    def fast() -> None:
        rng = random.Random(1)
        for i in range(n):
            play_random_nap(rules, rng, seats=SEATS, dealer=i % SEATS)

    def engine(checked: bool) -> None:
        rng = random.Random(1)
        for i in range(n // 10):
            hand = NapHand.deal(rules, rng, seats=SEATS, dealer=i % SEATS)
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

    rng = random.Random(2)
    positions: list[NapHand] = []
    while len(positions) < 2000:
        hand = NapHand.deal(rules, rng, seats=SEATS, dealer=SEATS - 1)
        while not hand.is_over:
            positions.append(NapRecord.of_hand(hand).replay())
            legal = hand.legal_actions()
            hand.push(legal[int(rng.random() * len(legal))])
    samples = []
    for hand in positions:
        start = time.perf_counter_ns()
        for _ in range(20):
            hand.legal_actions()
        samples.append((time.perf_counter_ns() - start) / 20 / 1000)
    print(f"fast simulator     : {n / t_fast:10,.0f} hands/s  ({SEATS} players, {args.preset}, random-legal, one core)")
    print(f"engine, checked    : {n // 10 / t_checked:10,.0f} hands/s  (NapHand.push with every law checked)")
    print(f"engine, unchecked  : {n // 10 / t_unchecked:10,.0f} hands/s  (NapHand.push_unchecked)")
    print(
        f"legal_actions()    : median {statistics.median(samples):.1f} µs, "
        f"95th percentile {sorted(samples)[int(0.95 * len(samples))]:.1f} µs over {len(samples)} positions"
    )


if __name__ == "__main__":
    main()
