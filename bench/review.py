"""Benchmark the review of a finished hand (issue 31) side by side with a hint, in one run.

Run on demand (not a test):  .venv/bin/python bench/review.py [--hands N]

For each game, N seeded hands are played by the rule of thumb at every seat; for each, the time of one
hint at seat 0's first decision (``widgets.table.hints.hint_for``, the server's effort) and of the review of
all of seat 0's decisions (``loo.review.review``, the server's rounds) are measured on the same
machine in the same run, and their ratio. Target (issue 31): a three-card hand's review within five
hints' time. Also printed: the decisions reviewed, how many were decided before the last round, and
the verdicts given.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loo.core.sampling import SamplingPlayer
from loo.kits import kit
from loo.records import load
from loo.review import ROUNDS, review
from widgets.table.hints import hint_for

GAMES = ("three-card-loo", "five-card-loo", "irish-loo", "nap", "domino-loo", "domino-rounce")


def played(game: str, seed: int, seats: int = 4) -> tuple[Any, Any]:
    """A seeded hand played by the rules of thumb: (its record, the view of seat 0's first decision)."""
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    pool = game_kit.pool(rules, seats)
    hand = game_kit.deal(rules, random.Random(seed), seats, seats - 1, pool)
    bot, rng = game_kit.make_bot("thumb"), random.Random(seed)
    actions, first = [], None
    while not hand.is_over:
        view = hand.view(hand.to_act)
        if first is None and hand.to_act == 0 and len(hand.legal_actions()) > 1:
            first = view
        action = bot.choose(view, rng)
        actions.append(action.to_record())
        hand.push(action)
    obj = {"format": "loo-record/1", "game": game, "rules": rules.to_record(), "seats": ["Ann", "Ben", "Cat", "Dan"],
           "dealer": seats - 1, "pool": pool, "deal": {"seed": seed}, "actions": actions}  # fmt: skip
    return load(json.dumps(obj)), first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5, help="hands of each game (default 5)")
    args = parser.parse_args()
    print(f"rounds of deals: {ROUNDS}")
    print(f"{'game':15} {'hint s (median)':>16} {'review s (median)':>18} {'ratio':>6} {'decisions':>9}  verdicts")
    for game in GAMES:
        hint_times, review_times, decisions, verdicts = [], [], 0, Counter()
        for seed in range(args.hands):
            record, first = played(game, seed)
            if first is None:
                continue
            player = kit(game).make_bot("sampling")
            assert isinstance(player, SamplingPlayer)
            start = time.perf_counter()
            hint_for(player, first)
            hint_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            done = review(record, [0])
            review_times.append(time.perf_counter() - start)
            decisions += len(done.decisions)
            verdicts.update(d.verdict for d in done.decisions)
        if not hint_times:
            print(f"{game:15} (seat 0 had no choice in these hands)")
            continue
        hint, whole = statistics.median(hint_times), statistics.median(review_times)
        shown = ", ".join(f"{v} {n}" for v, n in verdicts.most_common())
        print(f"{game:15} {hint:16.2f} {whole:18.2f} {whole / hint:6.1f} {decisions:9d}  {shown}")


if __name__ == "__main__":
    main()
