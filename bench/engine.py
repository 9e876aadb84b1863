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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import run

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

    run(fast, deal, hands=args.hands, describe=f"5 players, {args.preset}", hand_name="LooHand")


if __name__ == "__main__":
    main()
