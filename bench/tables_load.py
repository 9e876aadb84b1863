"""The live-table benchmark's load part: many readers at once, each at a table of its own, through
scripted kernel-websocket clients (tests/kernel_client.py). See bench/tables.py."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tables_common import (
    TABLES,
    ZERO,
    CpuMeter,
    Outcome,
    Row,
    Served,
    deal_code,
    kernels,
    memory,
    percentile,
    verdict,
)

from tests.kernel_client import TableClient
from widgets.store.sqlite import TableStore
from widgets.views.safety import READER_MESSAGE

OPEN_TIMEOUT = 300.0  # thirty tables opened at once start most of their kernels cold, on two cores
CLICK_TIMEOUT = 30.0  # a click not answered in this long is lost


class TimedClient(TableClient):
    """A :class:`TableClient` that notes when each message arrived: ``arrived[i]`` is ``frames[i]``'s
    (wall-clock time, to compare with the kernel's own time stamps in the messages' headers)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrived: list[float] = []

    def _apply(self, frame: Any) -> None:  # called once per message, just after it joins self.frames
        self.arrived.append(time.time())
        super()._apply(frame)


def _stamp(frame: Any) -> float:
    """When the kernel made a message (its header's date), in seconds since the epoch."""
    return datetime.fromisoformat(str(frame.header["date"]).replace("Z", "+00:00")).timestamp()


@dataclass
class Reader:
    """One scripted reader at a table of its own, and what it measured."""

    number: int
    table: str
    client: TimedClient | None = None
    opened: float = 0.0  # seconds to open the table (page, websocket, every widget's state)
    responses: list[float] = field(default_factory=list)  # ms, click sent -> the update reflecting it
    settled: list[float] = field(default_factory=list)  # ms, click sent -> the kernel idle again
    # ms: click sent -> the kernel starts on it; -> the kernel sends the update; -> the update arrives
    sent: list[float] = field(default_factory=list)  # when each measured click was sent (time.time())
    inbound: list[float] = field(default_factory=list)
    kernel: list[float] = field(default_factory=list)
    outbound: list[float] = field(default_factory=list)
    answered: int = 0  # clicks the engine took (each saved as one event)
    refused: int = 0  # clicks the engine refused, saying why (an exchange of the wrong size, a game over)
    new_games: int = 0  # each saved as one event


def _target(client: TimedClient, rng: random.Random) -> tuple[str, str] | None:
    """What a reader would click now: Next hand, else a random legal choice, else the exchange's confirm."""
    nexts = client.find("ButtonModel", "loo-next")
    if nexts and client.enabled(nexts[0]):
        return nexts[0], "next"
    choices = client.choices()
    if choices:
        return rng.choice(choices), "choice"
    for box in client.find("HBoxModel", "loo-picks"):
        kids = client.children(box)
        if kids and client.enabled(kids[-1]):
            return kids[-1], "picks"
    return None


def _status(client: TimedClient) -> str | None:
    """The table's status line (the first HTML widget saying ``role="status" aria-live``)."""
    for w in client.find("HTMLModel"):
        if '<div role="status" aria-live="polite">' in str(client.widgets[w].get("value")):
            return w
    return None


def _said(client: TimedClient) -> str:
    status = _status(client)
    text = str(client.widgets[status].get("value", "")) if status else ""
    return text.replace('<div role="status" aria-live="polite">', "").replace("</div>", "").strip()


def _watched(client: TimedClient) -> dict[str, str]:
    """The widgets whose change shows a click's answer: the board's (the HTML widget drawing
    ``.loo-board``: its value), the boxes of choices and picks (their children), the status line."""
    watched = {w: "children" for w in client.find("HBoxModel", "loo-choices") + client.find("HBoxModel", "loo-picks")}
    for w in client.find("HTMLModel"):
        if 'class="loo-board"' in str(client.widgets[w].get("value")):
            watched[w] = "value"
    status = _status(client)
    if status:
        watched[status] = "value"
    return watched


async def _press(client: TimedClient, button: str) -> None:
    """Click ``button`` and wait until the kernel has handled it (its idle status), unmeasured."""
    scan = len(client.frames)
    msg_id = await client.click(button)

    def idle() -> bool:  # reads only the frames that arrived since the last look
        nonlocal scan
        while scan < len(client.frames):
            f = client.frames[scan]
            scan += 1
            if f.parent_id == msg_id and f.msg_type == "status" and f.content.get("execution_state") == "idle":
                return True
        return False

    await client.wait_for(idle, CLICK_TIMEOUT, "the kernel to be idle")


async def _new_game(r: Reader) -> None:
    """The game is over: New game, then Yes, new game, as a reader starts one (unmeasured)."""
    client = r.client
    assert client is not None
    for name in ("New game", "Yes, new game"):
        await _press(client, client.find("ButtonModel", description=name)[0])
    r.new_games += 1


async def _click(r: Reader, rng: random.Random, k: int, out: Outcome) -> tuple[str, bool] | None:
    """One click (after picking ``k`` pieces, for an exchange) and its timings: what was clicked and
    whether the engine took it; None if nothing could be clicked."""
    client = r.client
    assert client is not None
    found = _target(client, rng)
    if found is None:
        return None
    target, kind = found
    if kind == "picks":
        box = client.find("HBoxModel", "loo-picks")[0]
        for toggle in rng.sample(client.children(box)[:-1], k):
            await client.set_state(toggle, value=True)
    watched = _watched(client)
    scan = len(client.frames)
    start = time.time()
    msg_id = await client.click(target)
    marks: dict[str, int] = {}

    def seen() -> bool:  # reads only the frames that arrived since the last look
        nonlocal scan
        while scan < len(client.frames):
            f = client.frames[scan]
            if f.parent_id == msg_id:
                if f.msg_type == "error":
                    out.error(f"reader {r.number}: the kernel sent an error: {f.content.get('ename')}")
                key = watched.get(f.comm_id or "")
                if f.msg_type == "comm_msg" and key and key in (f.data.get("state") or {}):
                    marks.setdefault("update", scan)
                if f.msg_type == "status" and f.content.get("execution_state") == "busy":
                    marks["busy"] = scan
                if f.msg_type == "status" and f.content.get("execution_state") == "idle":
                    marks["idle"] = scan
                    return True
            scan += 1
        return False

    try:
        await client.wait_for(seen, CLICK_TIMEOUT, f"the answer to a click on {kind}")
    except (TimeoutError, RuntimeError) as error:
        out.lost += 1
        out.error(f"reader {r.number} ({r.table}): a click on {kind} was lost: {error}")
        return kind, False
    if "update" not in marks:
        out.lost += 1
        out.error(f"reader {r.number} ({r.table}): a click on {kind} changed neither the board nor the choices")
        return kind, False
    update, arrived = client.frames[marks["update"]], client.arrived[marks["update"]]
    r.responses.append((arrived - start) * 1000)
    r.sent.append(start)
    r.settled.append((client.arrived[marks["idle"]] - start) * 1000)
    if "busy" in marks:
        began = _stamp(client.frames[marks["busy"]])
        r.inbound.append((began - start) * 1000)
        r.kernel.append((_stamp(update) - began) * 1000)
        r.outbound.append((arrived - _stamp(update)) * 1000)
    said = _said(client)
    if READER_MESSAGE[:30] in said:
        out.error(f"reader {r.number} ({r.table}): the table said something went wrong")
    accepted = not said
    r.answered += accepted
    r.refused += not accepted
    return kind, accepted


async def _open(r: Reader, served: Served, gate: asyncio.Semaphore, out: Outcome) -> None:
    async with gate:
        start = time.perf_counter()
        try:
            r.client = await TimedClient.open(
                served.base, r.table, f"deal={deal_code(r.table, 3000 + r.number)}", timeout=OPEN_TIMEOUT
            )
        except Exception as error:
            out.error(f"reader {r.number} ({r.table}) could not open its table: {type(error).__name__}: {error}")
            return
        r.opened = time.perf_counter() - start
    if not r.client.roots:
        # The page came without its table: Voila stopped waiting for the notebook's output (nbclient's
        # iopub_timeout, 4 s, runs out when the server is slow to read the kernel's messages). A reader
        # sees an empty page; the kernel holds the table, so the benchmark plays it all the same.
        out.error(f"reader {r.number} ({r.table}): the page came without its table, after {r.opened:.1f} s")
        tables = [w for w, state in r.client.widgets.items() if "loo-live-table" in state.get("_dom_classes", ())]
        r.client.roots = tables


async def _play(r: Reader, hands: int, think: float, out: Outcome) -> None:
    if r.client is None:
        return
    rng = random.Random(r.number)
    await asyncio.sleep(rng.uniform(0, think))  # readers do not all click in the same instant
    dealt, k = 0, 0
    for _ in range(hands * 80):  # a bound, in case a hand never ends
        try:
            done = await _click(r, rng, k, out)
            if done is None:
                out.error(f"reader {r.number} ({r.table}): nothing to click")
                return
            kind, accepted = done
            # An exchange refused: give up one piece more (Rounce's miss means throwing out the extra tiles).
            k = k + 1 if kind == "picks" and not accepted else 0
            if kind == "next" and not accepted:  # the game is over
                await _new_game(r)
        except Exception as error:
            out.error(f"reader {r.number} ({r.table}): {type(error).__name__}: {error}")
            return
        if kind == "next":
            dealt += 1
            if dealt >= hands:
                return
        if think:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))


async def _run(served: Served, readers: int, hands: int, think: float, at_once: int, out: Outcome) -> bool:
    everyone = [Reader(n, TABLES[n % len(TABLES)]) for n in range(readers)]
    start = time.perf_counter()
    gate = asyncio.Semaphore(at_once)
    await asyncio.gather(*(_open(r, served, gate, out) for r in everyone))
    opened = [r for r in everyone if r.client is not None]
    took = time.perf_counter() - start
    print(f"  {len(opened)} of {readers} tables open in {took:.1f} s, opened {at_once} at a time")
    print(f"  {Row('opening a table', [r.opened * 1000 for r in opened]).summary()}")
    return await report_play(served, opened, hands, think, out)


async def report_play(served: Served, opened: list[Reader], hands: int, think: float, out: Outcome) -> bool:
    """``opened`` readers play ``hands`` hands each at once; print the figures; whether the target was met."""
    start = time.perf_counter()
    meter = CpuMeter(served).start()
    await asyncio.gather(*(_play(r, hands, think, out) for r in opened))
    meter.stop()
    took = time.perf_counter() - start
    pids = kernels(served.process.pid)
    server_mem, kernel_mem = memory(served.process.pid), ZERO
    for pid in pids.values():
        kernel_mem = kernel_mem + memory(pid)
    store = TableStore(served.db)
    for r in opened:
        assert r.client is not None
        saved = store.count(r.client.table_id or "")
        # At least the start and one event per action: a table may deal on by itself as well (after
        # Peel's single, L3-SGL-01, the next hand is dealt at once, and saved as an event of its own).
        if saved < 1 + r.answered + r.new_games:
            out.lost += max(0, 1 + r.answered + r.new_games - saved)
            out.error(
                f"reader {r.number} ({r.table}): {saved} events saved for the start, {r.answered} actions and "
                f"{r.new_games} new games"
            )
    store.close()
    await asyncio.gather(*(r.client.close(shutdown=True) for r in opened if r.client is not None))

    actions = sum(r.answered + r.refused for r in opened)
    responses = [x for r in opened for x in r.responses]
    settled = [x for r in opened for x in r.settled]
    refused = sum(r.refused for r in opened)
    print(
        f"  {actions} clicks answered in {took:.1f} s ({actions / took:.1f} a second; {refused} refused by the "
        f"engine with a reason), {len(out.errors)} errors so far"
    )
    for table in TABLES:
        mine = [x for r in opened if r.table == table for x in r.responses]
        print(f"  {Row(f'{table}: response', mine).summary()}")
    print(f"  {Row('every table: response', responses).summary()}")
    print(f"  {Row('every table: kernel idle again', settled).summary()}")
    began = min((x for r in opened for x in r.sent), default=0.0)
    windows: dict[int, list[float]] = {}
    for r in opened:
        for at, ms in zip(r.sent, r.responses, strict=True):
            windows.setdefault(int((at - began) // 5), []).append(ms)
    timeline = ", ".join(f"{percentile(windows[w], 0.95):.0f}" for w in sorted(windows))
    print(f"  p95 response in each 5 s of play, ms: {timeline}")
    print("  where the response's time goes (the kernel's clock is this machine's):")
    print(f"  {Row('  click sent -> kernel starts', [x for r in opened for x in r.inbound]).summary()}")
    print(f"  {Row('  kernel starts -> sends update', [x for r in opened for x in r.kernel]).summary()}")
    print(f"  {Row('  update sent -> received', [x for r in opened for x in r.outbound]).summary()}")
    print(f"  {meter.report(actions)}")
    print(f"  the server process:            {server_mem}")
    print(f"  its {len(pids):3} kernels together:    {kernel_mem}")
    print(f"  server and kernels:            {server_mem + kernel_mem}")
    ok = bool(responses) and percentile(responses, 0.95) < 250
    print(
        f"  target: no error, no lost action, p95 response < 250 ms: "
        f"{verdict(ok and not out.errors and not out.lost)} (p95 {percentile(responses, 0.95) if responses else 0:.0f} "
        f"ms, errors {len(out.errors)}, lost {out.lost})"
    )
    return ok


def part_load(served: Served, readers: int, hands: int, think: float, at_once: int, out: Outcome) -> bool:
    pause = f"pausing {think * 0.5:.1f}-{think * 1.5:.1f} s between clicks" if think else "clicking without pause"
    print(f"\n== 4. {readers} readers at once, each at its own table, {hands} hands each, {pause} ==", flush=True)
    errors_before, lost_before = len(out.errors), out.lost
    mine = Outcome()
    ok = asyncio.run(_run(served, readers, hands, think, at_once, mine))
    out.errors += mine.errors
    out.lost += mine.lost
    return ok and len(out.errors) == errors_before and out.lost == lost_before
