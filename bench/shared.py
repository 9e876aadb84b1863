"""How fast a shared table shows a move on every seat's page (issue 21's target: 300 ms).

Runs the browser test ``tests/browser/test_shared.py`` (three students' browsers and two computer
players at one five-seat table, a whole hand) and reads the times it prints: from a click on one
page to the board redrawn on all three. The median is set beside the target in the same run. Run
it on a quiet machine: ``.venv/bin/python bench/shared.py [runs]``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/browser/test_shared.py::test_three_students_and_two_computers_play_a_hand"
TARGET = 0.300  # seconds, click to every page's board, median of a hand's moves
LINE = re.compile(r"shared hand: (\d+) moves; click to every page's board ([\d.]+) s \(median\), ([\d.]+) s")


def one_run() -> tuple[int, float, float]:
    """One run of the test: (moves, median seconds, slowest seconds)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", TEST],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    found = LINE.search(done.stdout)
    if done.returncode != 0 or found is None:
        sys.exit(f"the shared-table test failed (exit {done.returncode}):\n{done.stdout[-3000:]}")
    return int(found[1]), float(found[2]), float(found[3])


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"{'run':>4} {'moves':>6} {'median ms':>10} {'slowest ms':>11} {'target ms':>10}")
    medians = []
    for run in range(1, runs + 1):
        moves, median, slowest = one_run()
        medians.append(median)
        print(f"{run:>4} {moves:>6} {median * 1000:>10.0f} {slowest * 1000:>11.0f} {TARGET * 1000:>10.0f}")
    best = sorted(medians)[len(medians) // 2]
    print(f"median of the runs' medians: {best * 1000:.0f} ms; {'meets' if best < TARGET else 'MISSES'} the target")


if __name__ == "__main__":
    main()
