"""The book's studies, timed at the sizes chapter 13 uses: ``python bench/studies.py`` (``taskset -c 0`` for one core).

Runs each study of loo.analysis.studies exactly as book/numbers.md does (sizes and seeds from
loo.analysis.studies.BOOK) and prints its wall time, its processor time (which other work on a shared
machine does not inflate), its rate, and its headline estimate, then the totals. The whole page
must execute in under 60 seconds on one core; the studies are most of that.
``--scale 0.5`` runs every study at half the book's size (for a quick look).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loo.analysis.studies import BOOK, NAP_KINDS, eldest_miss_sweep, nap_hands, nap_study, pool_growth_study

BUDGET = 60.0  # seconds: the page's limit on one core


CPU = [0.0]  # processor seconds, summed over the studies


def timed(label: str, units: int, unit: str, fn: Callable[[], Any]) -> tuple[float, Any]:
    """Run ``fn`` once; print its wall and processor seconds and its rate. Returns (wall seconds, result)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = fn()
    seconds, used = time.perf_counter() - start, time.process_time() - cpu
    CPU[0] += used
    print(f"{label:44} {seconds:6.2f} s wall {used:6.2f} s cpu  {units / used:9,.0f} {unit}/s")
    return seconds, result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every sample size by this (default 1)")
    args = parser.parse_args()
    scale = args.scale
    total = 0.0

    print(f"1. The eldest hand and the miss: {len(BOOK.eldest_pools)} pools priced from one playing per arm")
    deals = max(10, round(BOOK.eldest_deals * scale))
    for preset in BOOK.eldest_presets:
        seconds, sweep = timed(
            f"   {preset}, {deals:,} deals x 2 arms",
            2 * deals,
            "hands",
            lambda p=preset: eldest_miss_sweep(deals, BOOK.eldest_seed, BOOK.eldest_pools, preset=p),
        )
        total += seconds
        first = sweep[0]
        print(f"   {'':41} pool {first.pool}: miss - rule {first.estimate:+.2f} (95% CI {first.low:+.2f} to "
              f"{first.high:+.2f}) chips a deal")  # fmt: skip

    games = max(10, round(BOOK.pool_games * scale))
    print(f"2. The pool: {games} games of {BOOK.pool_hands} hands, five players, Peel's stakes")
    for mode in ("limited", "unlimited"):
        seconds, growth = timed(
            f"   {mode}",
            games * BOOK.pool_hands,
            "hands",
            lambda m=mode: pool_growth_study(games, BOOK.pool_hands, BOOK.pool_seed, mode=m),
        )
        total += seconds
        print(f"   {'':41} median pool at the last hand {growth.final.estimate:g}, largest {max(growth.peaks):,}")

    print("3. Nap on the three-handed advice's hands")
    seconds, _ = timed("   listing the hands of each kind", 3, "kinds", lambda: [nap_hands(k) for k in NAP_KINDS])
    total += seconds
    for kind in NAP_KINDS:
        for players, calls in BOOK.nap_hands:
            n = max(10, round(calls * scale))
            seconds, study = timed(
                f"   {kind}, {players} players, {n:,} calls",
                n,
                "hands",
                lambda k=kind, p=players, n=n: nap_study(n, BOOK.nap_seed, kind=k, seats=p),
            )
            total += seconds
            print(f"   {'':41} made {study.estimate:.1%} (95% CI {study.low:.1%} to {study.high:.1%})")

    verdict = "within" if CPU[0] < BUDGET else "OVER"
    print(f"\ntotal {total:.1f} s wall, {CPU[0]:.1f} s cpu for the studies: {verdict} the page's {BUDGET:.0f} s "
          "on one core")  # fmt: skip


if __name__ == "__main__":
    main()
