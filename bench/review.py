"""Benchmark the review of a finished hand (issue 31) side by side with a hint, in one run.

Run on demand (not a test):  .venv/bin/python bench/review.py [--hands N]
                              .venv/bin/python bench/review.py --calibrate [--hands N]

For each game, N seeded hands are played by the rule of thumb at every seat; for each, the time of one
hint at seat 0's first decision (``widgets.table.hints.hint_for``, the server's effort) and of the review of
all of seat 0's decisions (``loo.review.review``, the server's rounds) are measured on the same
machine in the same run, and their ratio. Target (issue 31): a three-card hand's review within five
hints' time. Also printed: the decisions reviewed, how many were decided before the last round, and
the verdicts given.

``--calibrate`` checks the verdicts' honesty (issue 31): in N seeded hands of each game, seat 0 plays at
random (so that it errs often) and the others by the rules of thumb; every decision of seat 0 the review
grades an inaccuracy, a mistake or a blunder is estimated afresh on ten times the deals the review
drew, from another seed. Printed for each game: the graded decisions, how many the ten-fold estimate
confirms (its interval too lies wholly above zero: the choice did give something up), how many it
grades the same, and how many decisions stayed "too close to call".
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
from loo.review import GRADES, ROUNDS, grade, recheck, review, unit
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


def erring(game: str, seed: int, seats: int = 4) -> Any:
    """A seeded hand in which seat 0 plays at random and the others by the rules of thumb, as a record."""
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    pool = game_kit.pool(rules, seats)
    hand = game_kit.deal(rules, random.Random(seed), seats, seats - 1, pool)
    thumb, rng = game_kit.make_bot("thumb"), random.Random(seed)
    actions = []
    while not hand.is_over:
        view = hand.view(hand.to_act)
        action = rng.choice(hand.legal_actions()) if hand.to_act == 0 else thumb.choose(view, rng)
        actions.append(action.to_record())
        hand.push(action)
    obj = {
        "format": "loo-record/1",
        "game": game,
        "rules": rules.to_record(),
        "seats": ["Ann", "Ben", "Cat", "Dan"],
        "dealer": seats - 1,
        "pool": pool,
        "deal": {"seed": seed},
        "actions": actions,
    }
    return load(json.dumps(obj))


def calibrate(hands: int) -> None:
    """Each graded verdict of seat 0's random play, checked on ten times the deals (see the module)."""
    print(f"{'game':15} {'decisions':>9} {'graded':>6} {'confirmed':>9} {'same grade':>10} {'too close':>9}  check s")
    for game in GAMES:
        player = kit(game).make_bot("sampling")
        assert isinstance(player, SamplingPlayer)
        decisions = graded = confirmed = same = close = 0
        start = time.perf_counter()
        for seed in range(hands):
            record = erring(game, 1000 + seed)
            done = review(record, [0])
            hand, stake = record.start(), unit(record.rules)
            marks = {d.index: d for d in done.decisions}
            for index, action in enumerate(record.actions):
                d = marks.get(index)
                if d is not None:
                    decisions += 1
                    close += d.verdict == "too close to call"
                    if d.verdict in dict(GRADES):
                        graded += 1
                        lost = recheck(player, hand.view(0), d.chosen, 10 * d.deals, seed=987_654 + index)
                        confirmed += lost.low > 0
                        same += grade(lost, stake) == d.verdict
                hand.push(action)
        took = time.perf_counter() - start
        share = f"{confirmed / graded:.0%}" if graded else "-"
        print(f"{game:15} {decisions:9d} {graded:6d} {confirmed:5d} {share:>4} {same:10d} {close:9d}  {took:7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5, help="hands of each game (default 5)")
    parser.add_argument("--calibrate", action="store_true", help="check graded verdicts on ten times the deals")
    args = parser.parse_args()
    if args.calibrate:
        calibrate(args.hands)
        return
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
