"""Domino Loo speed, run on demand: ``taskset -c 0 python bench/dominoes.py [--hands N]``.

Measures, on one core, for four players with random-legal play (every seat choosing uniformly
among its legal actions: declarations, the dealer's rights, announced leads, follows):
* complete hands per second in the fast simulator (loo/games/dominoes/fast.py), the figure the book's
  simulations use; the target is at least 20,000;
* the same through the checked engine (DominoHand.push) and its unchecked path;
* the cost of one DominoHand.legal_actions() call, in microseconds.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import run

from loo.games.dominoes import DominoHand, DominoRules, play_random_domino_hand

TARGET = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--preset", default="celko")
    args = parser.parse_args()
    rules = DominoRules.preset(args.preset)

    def fast(hands: int) -> None:
        rng = random.Random(1)
        for i in range(hands):
            play_random_domino_hand(rules, rng, seats=4, dealer=i % 4, pool=25)

    def deal(rng: random.Random, i: int) -> DominoHand:
        return DominoHand.deal(rules, rng, seats=4, dealer=i % 4, pool=25)

    rate = run(
        fast, deal, hands=args.hands, describe=f"Domino Loo, 4 players, {args.preset}", hand_name="DominoHand"
    ).fast
    print(f"target             : {TARGET:,} hands/s, {'met' if rate >= TARGET else 'MISSED'}")


if __name__ == "__main__":
    main()
