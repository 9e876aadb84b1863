"""Engine speed, run on demand: ``python bench/engine.py [--hands N]``.

Measures, on one core:
* complete five-player three-card hands per second with random-legal play (deal, declare,
  play, settle) in the fast simulator (the figure the book's simulations use);
* the same through the checked engine (LooHand.push) and its unchecked path;
* the cost of one LooHand.legal_actions() call, in microseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loo.fastsim import play_random_hand
from loo.hand import LooHand
from loo.rules import Rules


def best_of(runs: int, fn: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--preset", default="peel")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    n = args.hands

    def fast() -> None:
        rng = random.Random(1)
        for i in range(n):
            play_random_hand(rules, rng, seats=5, dealer=i % 5, pool=9)

    def engine(checked: bool) -> None:
        rng = random.Random(1)
        for i in range(n // 10):
            hand = LooHand.deal(rules, rng, seats=5, dealer=i % 5, pool=9)
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
        hand = LooHand.deal(rules, rng, seats=5, dealer=4, pool=9)
        while not hand.is_over:
            positions.append(hand)
            legal = hand.legal_actions()
            hand = _copy_then_push(hand, legal[int(rng.random() * len(legal))])
    samples = []
    for hand in positions:
        start = time.perf_counter_ns()
        for _ in range(20):
            hand.legal_actions()
        samples.append((time.perf_counter_ns() - start) / 20 / 1000)
    print(f"fast simulator     : {n / t_fast:10,.0f} hands/s  (5 players, {args.preset}, random-legal, one core)")
    print(f"engine, checked    : {n // 10 / t_checked:10,.0f} hands/s  (push with every law checked)")
    print(f"engine, unchecked  : {n // 10 / t_unchecked:10,.0f} hands/s  (push_unchecked)")
    print(
        f"legal_actions()    : median {statistics.median(samples):.1f} µs, "
        f"95th percentile {sorted(samples)[int(0.95 * len(samples))]:.1f} µs over {len(samples)} positions"
    )


def _copy_then_push(hand: LooHand, action: object) -> LooHand:
    from loo.records import Record

    again = Record.of_hand(hand).replay()
    again.push(action)  # type: ignore[arg-type]
    return again


if __name__ == "__main__":
    main()
