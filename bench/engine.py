"""Engine speed, run on demand: ``python bench/engine.py [--hands N]``.

Measures, on one core:
* complete five-player three-card hands per second with random-legal play (deal, declare,
  play, settle) in the floor (bench/floor.py: Peel's game in bare integers, every rule fixed in
  the code: how fast plain Python can play it at all);
* the same in the fast simulator (the figure the book's simulations use);
* the same through the checked engine (LooHand.push) and its unchecked path;
* the cost of one LooHand.legal_actions() call, in microseconds;
* and each rate as a share of the floor's, measured in the same run (issue 19 asks the engine's
  unchecked path for 50% of it and its checked path for 20%).

Before timing, the floor is checked to play the very hands the fast simulator plays (the same
choices from the same seeds), so that it is a floor of the same game, not of an easier one.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_of, run
from floor import play_floor_hand

from loo.fastsim import play_random_hand
from loo.hand import LooHand
from loo.rules import Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--preset", default="peel")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)

    def fast(hands: int) -> None:
        rng = random.Random(1)
        for i in range(hands):
            play_random_hand(rules, rng, seats=5, dealer=i % 5, pool=9)

    def deal(rng: random.Random, i: int) -> LooHand:
        return LooHand.deal(rules, rng, seats=5, dealer=i % 5, pool=9)

    if args.preset == "peel":
        same = 0
        for i in range(2000):
            fast_result = play_random_hand(rules, random.Random(i), seats=5, dealer=i % 5, pool=9)
            same += play_floor_hand(random.Random(i), 5, i % 5, 9) == tuple(
                pay - loo for pay, loo in zip(fast_result.payouts, fast_result.loos, strict=True)
            )
        if same != 2000:
            raise SystemExit(f"the floor plays another game than the fast simulator: {same} of 2000 hands the same")

    def floor(hands: int) -> None:
        rng = random.Random(1)
        for i in range(hands):
            play_floor_hand(rng, 5, i % 5, 9)

    t_floor = best_of(3, lambda: floor(args.hands))
    floor_rate = args.hands / t_floor
    print(f"floor              : {floor_rate:10,.0f} hands/s  (bench/floor.py, Peel's game in bare integers)")
    rates = run(fast, deal, hands=args.hands, describe=f"5 players, {args.preset}", hand_name="LooHand")
    fast_rate, checked, unchecked = rates.fast, rates.checked, rates.unchecked
    print(f"as a share of the floor: fast simulator {fast_rate / floor_rate:.0%}, engine unchecked "
          f"{unchecked / floor_rate:.0%} (aim 50%), engine checked {checked / floor_rate:.0%} (aim 20%)")  # fmt: skip


if __name__ == "__main__":
    main()
