"""Engine speed, run on demand: ``python bench/engine.py [--hands N]``.

Measures, on one core, complete five-player hands of three-card Loo (Peel's game by default) per
second with random-legal play (deal, declare, play, settle), each line through a different path:

* ``floor``: bench/floor.py, Peel's game in bare integers with every rule fixed in the code and
  nothing of the engine imported: how fast plain Python can play it at all;
* ``engine core``: :func:`loo.games.loo.simulate.play_random_hand`, random play driven on card
  indices through the engine's own rule functions (:mod:`loo.games.loo.play`: the order of the
  deal and of turns, the declarations, the pool won without play, the leader's and the follower's
  duties by :func:`loo.core.tricks.follower_choices`, the power that wins a trick, the sharing of
  the pool and the loo), the very functions :class:`loo.games.loo.hand.LooHand` asks; it states no law itself;
  every three-card rule option is honoured (``--preset`` picks them); it is the path the book's
  statistics and ``loo simulate`` take, unchecked, with no objects or history;
* ``engine, checked``: a :class:`~loo.games.loo.hand.LooHand` per hand, each action chosen from
  ``legal_actions()`` and taken by ``push`` (every law checked, take-back history kept);
* ``engine, unchecked``: the same through ``push_unchecked`` (no check, no history);
* the cost of one ``LooHand.legal_actions()`` call, in microseconds;
* and each rate as a share of the floor's, measured in the same run: issue 19 asks the unchecked
  path (the engine core) for 50% of it and the checked path (``LooHand.push``) for 20%.

The four paths are timed in turn, five times each, and the fastest of each kept, so that a machine
busy with other work slows them alike (the hand's two paths over a tenth as many hands); each line
gives its rate as a share of the floor's. Before timing, the floor is checked to play the very
hands the engine core plays (the same choices from the same seeds and the same gains), so that it
is a floor of the same game, not of an easier one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import time

from common import legal_actions_cost, play_randomly
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

    def checked(hands: int) -> None:
        play_randomly(deal, hands, checked=True)

    def unchecked(hands: int) -> None:
        play_randomly(deal, hands, checked=False)

    # Each path is timed in turn with the others, five times, and its fastest run kept, so that a
    # machine busy with other work slows them alike; the hand's paths play a tenth as many hands.
    paths = {floor: args.hands // 5, core: args.hands // 5, checked: args.hands // 50, unchecked: args.hands // 50}
    fastest = dict.fromkeys(paths, float("inf"))
    for _ in range(5):
        for path, hands in paths.items():
            start = time.perf_counter()
            path(hands)
            fastest[path] = min(fastest[path], time.perf_counter() - start)
    rate = {path: paths[path] / fastest[path] for path in paths}
    floor_rate = rate[floor]

    def line(label: str, path: object, what: str, aim: str = "") -> None:
        share = rate[path] / floor_rate
        print(f"{label:<19}: {rate[path]:10,.0f} hands/s  {share:4.0%} of the floor{aim}  ({what})")

    line("floor", floor, "bench/floor.py: Peel's game in bare integers, every rule fixed in the code")
    line("engine core", core, f"loo.games.loo.simulate on loo.games.loo.play: random-legal, {args.preset}, unchecked",
         ", aim 50%")  # fmt: skip
    line("engine, checked", checked, "a LooHand: legal_actions() and push, every law checked, take-back kept",
         ", aim 20%")  # fmt: skip
    line("engine, unchecked", unchecked, "a LooHand: legal_actions() and push_unchecked, no check, no history")
    samples = sorted(legal_actions_cost(deal))
    print(
        f"legal_actions()    : median {statistics.median(samples):.1f} µs, "
        f"95th percentile {samples[int(0.95 * len(samples))]:.1f} µs over {len(samples)} positions met in play"
    )
    print(
        f"shares of the floor: engine core {rate[core] / floor_rate:.0%} (aim 50%), "
        f"LooHand checked {rate[checked] / floor_rate:.0%} (aim 20%), "
        f"LooHand unchecked {rate[unchecked] / floor_rate:.0%}"
    )


if __name__ == "__main__":
    main()
