"""Engine speed, run on demand: ``python bench/engine.py [--hands N]``.

Measures, on one core, complete five-player hands of three-card Loo (Peel's game by default) per
second with random-legal play (deal, declare, play, settle), each line through a different path:

* ``floor``: bench/floor.py, Peel's game in bare integers with every rule fixed in the code and
  nothing of the engine imported: how fast plain Python can play it at all;
* ``engine core``: :func:`loo.games.loo.simulate.play_random_hand`, random play driven on card
  indices through the engine's own rule functions (:mod:`loo.games.loo.play`: the declarations,
  the leader's and the follower's duties by :func:`loo.core.tricks.follower_choices`, the power
  that wins a trick, the loo, the order of the deal), the very functions :class:`loo.games.loo.hand.LooHand`
  asks what is legal; every three-card rule option is honoured (``--preset`` picks them); it is
  the path the book's statistics and ``loo simulate`` take, unchecked, with no objects or history;
* ``engine, checked``: a :class:`~loo.games.loo.hand.LooHand` per hand, each action chosen from
  ``legal_actions()`` and taken by ``push`` (every law checked, take-back history kept);
* ``engine, unchecked``: the same through ``push_unchecked`` (no check, no history);
* the cost of one ``LooHand.legal_actions()`` call, in microseconds;
* and each rate as a share of the floor's, measured in the same run: issue 19 asks the unchecked
  path (the engine core) for 50% of it and the checked path (``LooHand.push``) for 20%.

The floor and the engine core are timed in turn, five times each, and the fastest of each kept, so
that a machine busy with other work slows both alike; the checked and unchecked paths are timed
after them (bench/common.py). Before timing, the floor is checked to play the very hands the engine core plays (the same
choices from the same seeds and the same gains), so that it is a floor of the same game, not of an
easier one.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import time

from common import run
from floor import play_floor_hand

from loo.games.loo.hand import LooHand
from loo.games.loo.rules import Rules
from loo.games.loo.simulate import play_random_hand


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--preset", default="peel")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)

    def core(hands: int) -> None:
        rng = random.Random(1)
        for i in range(hands):
            play_random_hand(rules, rng, seats=5, dealer=i % 5, pool=9)

    def deal(rng: random.Random, i: int) -> LooHand:
        return LooHand.deal(rules, rng, seats=5, dealer=i % 5, pool=9)

    if args.preset == "peel":
        same = 0
        for i in range(2000):
            result = play_random_hand(rules, random.Random(i), seats=5, dealer=i % 5, pool=9)
            same += play_floor_hand(random.Random(i), 5, i % 5, 9) == tuple(
                pay - loo for pay, loo in zip(result.payouts, result.loos, strict=True)
            )
        if same != 2000:
            raise SystemExit(f"the floor plays another game than the engine core: {same} of 2000 hands the same")

    def floor(hands: int) -> None:
        rng = random.Random(1)
        for i in range(hands):
            play_floor_hand(rng, 5, i % 5, 9)

    fastest = {floor: float("inf"), core: float("inf")}
    for _ in range(5):
        for path in (floor, core):
            start = time.perf_counter()
            path(args.hands // 5)
            fastest[path] = min(fastest[path], time.perf_counter() - start)
    floor_rate = args.hands // 5 / fastest[floor]
    core_rate = args.hands // 5 / fastest[core]
    print(f"floor              : {floor_rate:10,.0f} hands/s  (bench/floor.py, Peel's game in bare integers)")
    print(f"engine core        : {core_rate:10,.0f} hands/s  (loo.games.loo.simulate: 5 players, {args.preset}, "
          "random-legal, one core; unchecked)")  # fmt: skip
    rates = run(None, deal, hands=args.hands, describe="", hand_name="LooHand")
    print(f"as a share of the floor: engine core (unchecked) {core_rate / floor_rate:.0%} (aim 50%), "
          f"LooHand checked {rates.checked / floor_rate:.0%} (aim 20%), "
          f"LooHand unchecked {rates.unchecked / floor_rate:.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
