"""Benchmark the table's hint (issue 20): how long it takes, how wide its intervals are, and whether
its estimates match what the positions go on to yield.

Run on demand (not a test):  .venv/bin/python bench/hints.py  [--help]

1. Time and width: at the reader's first decisions in a few deals of each game, the time to a hint
   (``TableModel.hint``, wall clock), the deals it sampled, and the width of the best choice's 95%
   interval and of the widest choice's. Prints the median and the worst.
2. Calibration (``--calibrate N``): N hands each of three-card Loo, Domino Loo and Nap played by
   the rule of thumb at every seat; at seat 0's first declaration (or call) and first card, the
   estimate of the action the rule of thumb takes (200 sampled deals) is set against what the hand
   then paid seat 0. Averaged over hands, an honest estimator's error is 0 within its interval: the
   outcome is one draw from the very thing the estimate averages, what the position yields when the
   hidden pieces lie as the seat's view allows (the others' declarations and plays included, which
   the rule of thumb makes) and every seat plays on by the rule of thumb. A bias here means the
   sampled deals do not match what the view reveals, or the play-outs do not play as the table does.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loo.core.estimates import estimate
from loo.games.dominoes.bots import DominoSamplingBot, DominoThumbBot
from loo.games.dominoes.hand import DominoHand
from loo.games.dominoes.rules import DominoRules
from loo.games.loo.bots import SamplingBot, ThumbBot
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import Rules
from loo.games.nap.bots import NapSamplingBot, NapThumbBot
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import NapRules
from widgets.table.model import TableModel

GAMES = ("three-card-loo", "five-card-loo", "irish-loo", "nap", "domino-loo", "domino-rounce")
CALIBRATED = ("three-card-loo", "domino-loo", "nap")


def time_hints(game: str, deals: int, asks: int) -> None:
    times: list[float] = []
    widths: list[float] = []
    widest: list[float] = []
    samples: list[int] = []
    for seed in range(1, deals + 1):
        table = TableModel(game, seed=seed, rng=random.Random(seed))
        if table.hand.is_over:
            table.new_hand()
        for _ in range(asks):
            if table.hand.is_over or not table.legal():
                break
            start = time.perf_counter()
            hint = table.hint()
            times.append(time.perf_counter() - start)
            assert hint is not None
            widths.append(hint.figures.best.width)
            widest.append(max(e.width for e in hint.figures.values))
            samples.append(hint.figures.samples)
            table.act(hint.choice)
    print(
        f"{game:15} {len(times):3} hints: time median {statistics.median(times):.2f} s, worst {max(times):.2f} s; "
        f"best's interval median {statistics.median(widths):.2f}, worst {max(widths):.2f}; "
        f"widest of any choice {max(widest):.2f}; deals sampled median {statistics.median(samples):.0f}, "
        f"most {max(samples)}"
    )


def calibrate(game: str, hands: int) -> None:
    errors: dict[str, list[float]] = {"declare": [], "call": [], "play": []}
    for seed in range(hands):
        hand: Any
        if game == "three-card-loo":
            rules = Rules.preset("enquire-within")
            hand = LooHand.deal(rules, random.Random(seed), seats=5, dealer=seed % 5, pool=rules.deal_price * 5)
            thumb: Any = ThumbBot()
            player: Any = SamplingBot()
        elif game == "nap":
            hand = NapHand.deal(NapRules.preset("hoffmann"), random.Random(seed), seats=4, dealer=seed % 4)
            thumb, player = NapThumbBot(), NapSamplingBot()
        else:
            hand = DominoHand.deal(DominoRules.preset("celko"), random.Random(seed), seats=4, dealer=seed % 4, pool=12)
            thumb, player = DominoThumbBot(), DominoSamplingBot()
        rng = random.Random(seed)
        pending: list[tuple[str, float]] = []
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            action = thumb.choose(view, rng)
            phase = str(view.phase)
            if seat == 0 and len(view.legal) > 1 and phase in errors and all(k != phase for k, _ in pending):
                figures = estimate(player, view, least=200, most=200, seed=seed)
                pending.append((phase, next(e.mean for e in figures.values if e.action == action)))
            hand.push(action)
        for phase, mean in pending:
            errors[phase].append(mean - hand.settlement.net()[0])
    for phase, found in errors.items():
        if len(found) > 2:
            half = 1.96 * statistics.stdev(found) / math.sqrt(len(found))
            print(f"{game:15} {phase:8} {len(found):4} positions: mean(estimate - outcome) "
                  f"{statistics.mean(found):+.2f} chips (95% interval ±{half:.2f})")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (all six)")
    parser.add_argument("--deals", type=int, default=6, help="deals per game (6)")
    parser.add_argument("--asks", type=int, default=4, help="hints asked per deal (4)")
    parser.add_argument("--calibrate", type=int, default=0, help="hands per game for the calibration (0: skip)")
    args = parser.parse_args()
    print("== 1. time to a hint, and its intervals ==")
    for game in args.games.split(","):
        time_hints(game, args.deals, args.asks)
    if args.calibrate:
        print("== 2. calibration: each estimate against what the hand then paid ==")
        for game in CALIBRATED:
            if game in args.games.split(","):
                calibrate(game, args.calibrate)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
