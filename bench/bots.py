"""Benchmark the SamplingBot: how long it thinks, and whether it wins more chips than the rule of thumb.

Run on demand (not a test):  .venv/bin/python bench/bots.py  [--help]

1. Decision time: the SamplingBot decides at every turn of 5-player games (the other seats
   play by rule of thumb) until 200 real decisions (more than one legal action) are timed;
   prints the median, the 95th percentile and the worst, for each preset asked for; and the
   same for the Nap and Domino Loo sampling bots (``--games``), whose target is a worst
   decision under 300 ms (``--timing-only`` stops there).
2. Strength: each deal is played twice, once with one SamplingBot seat among ThumbBots and
   once with ThumbBots only; the seat rotates, and so does the dealer, over every pairing.
   Prints that seat's mean net chips per hand (``settlement.net()``) in both games with a
   95% confidence interval, and the paired difference, which is what tells the bots apart.

The default run takes two to three minutes on two cores.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loo.core.protocols import Bot
from loo.games.loo.bots import SamplingBot, ThumbBot
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import Rules
from loo.games.loo.state import SeatView

SEATS = 5


def time_decisions(preset: str, decisions: int, samples: int) -> list[float]:
    """Seconds per SamplingBot decision, at every seat of thumb-played games, until ``decisions`` are timed."""
    rules = Rules.preset(preset)
    bot, thumb = SamplingBot(samples=samples), ThumbBot()
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        hand = LooHand.deal(rules, random.Random(seed), seats=SEATS, dealer=seed % SEATS, pool=rules.deal_price)
        rng = random.Random(seed)
        while not hand.is_over and len(times) < decisions:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            if len(view.legal) > 1:
                start = time.perf_counter()
                bot.choose(view, rng)
                times.append(time.perf_counter() - start)
            hand.push(thumb.choose(view, rng))
        seed += 1
    return times


def time_other_decisions(game: str, decisions: int) -> list[float]:
    """Seconds per sampling decision in Nap (four players, Wellington and Misery allowed) or Domino
    Loo (Celko's rules, four players), every seat deciding, until ``decisions`` are timed."""
    from loo.games.dominoes import DominoHand, DominoRules
    from loo.games.dominoes.bots import DominoSamplingBot
    from loo.games.nap.bots import NapSamplingBot
    from loo.games.nap.hand import NapHand
    from loo.games.nap.rules import NapRules

    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        rng = random.Random(seed)
        hand: Any
        if game == "nap":
            hand = NapHand.deal(NapRules(wellington=True, misery=True), rng, seats=4, dealer=seed % 4)
            bot: Any = NapSamplingBot()
        else:
            hand = DominoHand.deal(DominoRules.preset("celko"), rng, seats=4, dealer=seed % 4, pool=25)
            bot = DominoSamplingBot()
        while not hand.is_over and len(times) < decisions:
            view = hand.view(hand.to_act or 0)
            start = time.perf_counter()
            action = bot.choose(view, rng)
            if len(view.legal) > 1:
                times.append(time.perf_counter() - start)
            hand.push(action)
        seed += 1
    return times


def _play(rules: Rules, seed: int, dealer: int, bots: list[Bot[SeatView]]) -> tuple[int, ...]:
    hand = LooHand.deal(rules, random.Random(seed), seats=SEATS, dealer=dealer, pool=rules.deal_price)
    rng = random.Random(seed + 1_000_003)
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.push(bots[seat].choose(hand.view(seat), rng))
    assert hand.settlement is not None
    return hand.settlement.net()


def paired_hand(job: tuple[str, int, int]) -> tuple[int, int]:
    """(the sampling seat's net, a thumb seat's net in the same chair on the same cards) for deal ``i``."""
    preset, i, samples = job
    rules = Rules.preset(preset)
    dealer, seat = i % SEATS, (i // SEATS) % SEATS  # every 25 deals cover every seat against every dealer
    thumbs: list[Bot[SeatView]] = [ThumbBot() for _ in range(SEATS)]
    mixed = list(thumbs)
    mixed[seat] = SamplingBot(samples=samples)
    return _play(rules, i, dealer, mixed)[seat], _play(rules, i, dealer, thumbs)[seat]


def interval(xs: list[int] | list[float]) -> str:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{mean:+.3f} ± {half:.3f}  (95% CI {mean - half:+.3f} to {mean + half:+.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timing-presets", default="peel,pam,irish", help="presets to time decisions in")
    parser.add_argument("--decisions", type=int, default=200, help="decisions to time per preset (default 200)")
    parser.add_argument("--games", default="nap,dominoes", help="other games whose sampling bots to time")
    parser.add_argument("--timing-only", action="store_true", help="time the decisions only; no strength runs")
    parser.add_argument("--presets", default="peel,pam,irish", help="presets to compare strength in")
    parser.add_argument("--hands", default="3000,800,2000", help="deals per strength preset, in order")
    parser.add_argument("--samples", type=int, default=SamplingBot.DEFAULT_SAMPLES, help="samples per action")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count(), help="processes for strength")
    args = parser.parse_args()
    wall = time.perf_counter()

    print(f"SamplingBot, {args.samples} samples per action, {SEATS} players")
    print("\nDecision time (decisions with more than one legal action):")
    for preset in filter(None, args.timing_presets.split(",")):
        times = sorted(time_decisions(preset, args.decisions, args.samples))
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"  {preset:15} n={len(times)}  median {statistics.median(times) * 1e3:6.1f} ms   "
            f"95th {p95 * 1e3:6.1f} ms   worst {times[-1] * 1e3:6.1f} ms"
        )

    for game in filter(None, args.games.split(",")):
        times = sorted(time_other_decisions(game, args.decisions))
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"  {game:15} n={len(times)}  median {statistics.median(times) * 1e3:6.1f} ms   "
            f"95th {p95 * 1e3:6.1f} ms   worst {times[-1] * 1e3:6.1f} ms   (target: worst under 300 ms)"
        )
    if args.timing_only:
        return

    print("\nStrength: one SamplingBot among ThumbBots, against ThumbBots only on the same deals")
    presets = [p for p in args.presets.split(",") if p]
    counts = [int(h) for h in args.hands.split(",")]
    counts += counts[-1:] * (len(presets) - len(counts))
    with multiprocessing.Pool(args.workers) as pool:
        for preset, hands in zip(presets, counts, strict=False):
            start = time.perf_counter()
            jobs = [(preset, i, args.samples) for i in range(hands)]
            results = pool.map(paired_hand, jobs, chunksize=25)
            sampling = [r[0] for r in results]
            thumb = [r[1] for r in results]
            diff = [a - b for a, b in results]
            print(f"  {preset}: {hands} hands in {time.perf_counter() - start:.0f} s; mean net chips per hand")
            print(f"    sampling seat          {interval(sampling)}")
            print(f"    thumb in the same seat {interval(thumb)}")
            print(f"    difference (paired)    {interval(diff)}")
            low = statistics.fmean(diff) - 1.96 * statistics.stdev(diff) / math.sqrt(hands)
            high = statistics.fmean(diff) + 1.96 * statistics.stdev(diff) / math.sqrt(hands)
            verdict = "wins more" if low > 0 else "wins less" if high < 0 else "cannot be told apart from thumb"
            print(f"    => the SamplingBot {verdict} at {preset}")
    print(f"\ntotal {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
