"""The live-table benchmark's class part: a class opening one table at the same moment, then playing.

The server runs as a teacher starts it for a class (``--class-size N --class-table
three-card-loo``: N kernels of that table preheated). The script waits until they are all
waiting and the machine is quiet (the students arrive after the teacher started the server),
then N scripted readers (tests/kernel_client.py) each open a table of it at the same instant,
all with the same deal code, as a class given one code does. Opening is timed from the request
for ``/tables/<name>`` to a playable table: the page, the kernel websocket, every widget's state,
and the table dealt (the preheated kernel deals when the request's details reach it). Where the
time goes is split per reader: the page's HTML (the redirect included), the websocket and the
kernel's first reply, every widget's state, the deal. Then all N play at once
(bench/tables_load.py's readers). See bench/tables.py.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tables_common import (
    TABLES,
    Outcome,
    Row,
    Served,
    kernels,
    percentile,
    verdict,
    wait_quiet,
    waiting_kernels,
)
from tables_load import OPEN_TIMEOUT, Reader, TimedClient, report_play

CLASS_TABLE = "three-card-loo"
CLASS_CODE = "l3.peel.s0.n482910233"  # the README's deal code: the whole class gets the same cards


class PhasedClient(TimedClient):
    """A :class:`TimedClient` that notes when each phase of opening its table ended (perf_counter)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.marks: dict[str, float] = {"html": time.perf_counter()}  # made once the page's HTML is in

    async def connect(self, *, timeout: float = 60.0) -> None:
        await super().connect(timeout=timeout)
        self.marks["socket"] = time.perf_counter()

    async def load_widgets(self, *args: Any, **kwargs: Any) -> None:
        await super().load_widgets(*args, **kwargs)
        self.marks["widgets"] = time.perf_counter()


def wait_class_pool(served: Served, readers: int, timeout: float = 600.0) -> float:
    """Wait until the class's kernels (and one per other table) are preheated, and all is quiet."""
    start = time.monotonic()
    # A server without --class-size (an older one, for a figure from before) preheats one per table.
    want = readers + len(TABLES) - 1 if served.process.args and "--class-size" in served.process.args else len(TABLES)
    while len(waiting_kernels(served)) < want:
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{len(waiting_kernels(served))} of {want} kernels preheated after {timeout:.0f} s")
        time.sleep(0.5)
    wait_quiet([served.process.pid, *kernels(served.process.pid).values()], timeout=120)
    return time.monotonic() - start


async def _open_one(r: Reader, served: Served, phases: dict[str, list[float]], out: Outcome) -> None:
    start = time.perf_counter()
    try:
        client = await PhasedClient.open(served.base, CLASS_TABLE, f"deal={CLASS_CODE}", timeout=OPEN_TIMEOUT)
    except Exception as error:
        out.error(f"student {r.number} could not open the class's table: {type(error).__name__}: {error}")
        return
    r.client = client
    r.opened = time.perf_counter() - start
    marks = {"start": start, **client.marks, "dealt": start + r.opened}
    for (_, before), (name, after) in zip(list(marks.items()), list(marks.items())[1:], strict=False):
        phases.setdefault(name, []).append((after - before) * 1000)
    if not client.roots:
        out.error(f"student {r.number}: the page came without its table, after {r.opened:.1f} s")


async def _run(served: Served, readers: int, hands: int, think: float, out: Outcome) -> bool:
    everyone = [Reader(n, CLASS_TABLE) for n in range(readers)]
    phases: dict[str, list[float]] = {}
    start = time.perf_counter()
    await asyncio.gather(*(_open_one(r, served, phases, out) for r in everyone))
    opened = [r for r in everyone if r.client is not None]
    took = time.perf_counter() - start
    times = [r.opened * 1000 for r in opened]
    print(f"  {len(opened)} of {readers} tables open and playable in {took:.1f} s, all asked for at once")
    print(f"  {Row('request -> playable table', times).summary()}")
    labels = {
        "html": "  the page's HTML",
        "socket": "  kernel websocket, first reply",
        "widgets": "  every widget's state",
        "dealt": "  the deal shown",
    }
    for key, label in labels.items():
        print(f"  {Row(label, phases.get(key, [])).summary()}")
    open_ok = len(opened) == readers and bool(times) and percentile(times, 0.95) < 3000
    print(
        f"  target: p95 to a playable table < 3 s, no error: {verdict(open_ok and not out.errors)} "
        f"(p95 {percentile(times, 0.95) if times else 0:.0f} ms, errors {len(out.errors)})"
    )
    play_ok = await report_play(served, opened, hands, think, out)
    return open_ok and play_ok


def part_class(served: Served, readers: int, hands: int, think: float, out: Outcome) -> bool:
    print(f"\n== 5. a class of {readers} opening {CLASS_TABLE} at once, then playing {hands} hands ==", flush=True)
    waited = wait_class_pool(served, readers)
    print(f"  {readers} kernels of {CLASS_TABLE} preheated and the machine quiet after {waited:.0f} s", flush=True)
    errors_before, lost_before = len(out.errors), out.lost
    mine = Outcome()
    ok = asyncio.run(_run(served, readers, hands, think, mine))
    out.errors += mine.errors
    out.lost += mine.lost
    return ok and len(out.errors) == errors_before and out.lost == lost_before
