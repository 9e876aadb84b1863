"""Nap speed, run on demand: ``python bench/nap.py [--hands N]`` (``taskset -c 0`` for one core).

Measures, for four players with random-legal play (deal, call, play until the call is made or
beaten, settle):
* hands per second in the fast simulator (loo.games.nap.fast: integers, through the rule functions
  NapHand calls), the figure the statistics use;
* the same through the checked engine (NapHand.push) and its unchecked path;
* the cost of one NapHand.legal_actions() call, in microseconds, on positions met in play.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import run

from loo.games.nap.fast import play_random_nap
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import NapRules

SEATS = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--preset", default="hoffmann")
    args = parser.parse_args()
    rules = NapRules.preset(args.preset)

    def fast(hands: int) -> None:
        rng = random.Random(1)
        for i in range(hands):
            play_random_nap(rules, rng, seats=SEATS, dealer=i % SEATS)

    def deal(rng: random.Random, i: int) -> NapHand:
        return NapHand.deal(rules, rng, seats=SEATS, dealer=i % SEATS)

    run(fast, deal, hands=args.hands, describe=f"{SEATS} players, {args.preset}", hand_name="NapHand")


if __name__ == "__main__":
    main()
