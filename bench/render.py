"""How long the live table takes to redraw itself after an action, in the kernel.

The target (issue 5): a full five-seat table rendered in under 20 ms. Each sample is one
``TableView._render()`` (the board's HTML, a button per card or choice, the reasons for the
choices not open, the toggles) followed by serialising every widget's synced state to JSON, the
work the kernel does before the comm messages leave. The positions are those met in play: a
reader at seat 0 clicking random legal choices through whole hands, the bots answering.

    taskset -c 0 python bench/render.py            # three-card and five-card Loo, five seats
    taskset -c 0 python bench/render.py --hands 40 --games nap domino-loo

Figures on the project's machine are in the issue notes, not asserted by any test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ipywidgets as ipw

from widgets.table.model import TableModel
from widgets.views.table_view import TableView

PRESETS = {"three-card-loo": "peel", "five-card-loo": "pam", "irish-loo": "irish", "nap": "hoffmann",
           "domino-loo": "celko", "domino-rounce": "rounce"}  # fmt: skip


def walk(widget: ipw.Widget):  # type: ignore[no-untyped-def]
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def render_once(view: TableView) -> float:
    """Seconds for one full redraw plus the serialisation of every widget's state."""
    start = time.perf_counter()
    view._render()
    for widget in walk(view):
        state = widget.get_state()
        json.dumps({k: v for k, v in state.items() if not isinstance(v, bytes | memoryview)}, default=str)
    return time.perf_counter() - start


def measure(game: str, hands: int) -> list[float]:
    table = TableModel(game, preset=PRESETS[game], seed=1, rng=random.Random(1))
    view = TableView(table)
    rng = random.Random(2)
    samples: list[float] = []
    for _ in range(hands):
        while not table.hand.is_over:
            samples.append(render_once(view))
            legal = table.legal()
            picks = [a for a in legal if a.verb in ("exchange", "purchase", "garnet")]
            table.act(rng.choice(picks or legal))
        samples.append(render_once(view))
        table.new_hand()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--games", nargs="+", default=["three-card-loo", "five-card-loo"], choices=sorted(PRESETS))
    args = parser.parse_args()
    for game in args.games:
        ms = sorted(s * 1000 for s in measure(game, args.hands))
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(
            f"{game:15} {len(TableModel(game, preset=PRESETS[game], seed=1).names)} seats, {len(ms)} renders: "
            f"median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, worst {ms[-1]:.2f} ms"
        )


if __name__ == "__main__":
    main()
