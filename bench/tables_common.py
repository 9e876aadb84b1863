"""What the live-table benchmarks share: the server they start, its processes read from /proc, and
the figures they print. See bench/tables.py for what is measured."""

from __future__ import annotations

import contextlib
import os
import re
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402  (tests.conftest reports a server that will not start with pytest.fail)

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, Served, serve_server  # noqa: E402

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "Served", "serve_server"]

TABLES = sorted(p.stem for p in (ROOT / "book" / "tables").glob("*.ipynb"))
# A deal code per table (widgets/table/dealcode.py): the game and its primary rules, the reader at seat 0.
CODES = {
    "three-card-loo": "l3.peel",
    "five-card-loo": "l5.pam",
    "irish-loo": "il.irish",
    "nap": "nap.hoffmann",
    "domino-loo": "dl.celko",
    "domino-rounce": "dr.rounce",
}
KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})\.json")
TICKS = 100  # USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second on Linux
ServerFailed = pytest.fail.Exception


def deal_code(table: str, seed: int) -> str:
    return f"{CODES[table]}.s0.n{seed}"


# ----- processes, from /proc -------------------------------------------------------------------


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in task.read_text().split()]
    return found


def kernels(server_pid: int) -> dict[str, int]:
    """The server's kernels: kernel id -> pid (the connection file named in each kernel's command line)."""
    found = {}
    for pid in children(server_pid):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        match = KERNEL_FILE.search(cmdline)
        if match and ("widgets.kernel.table_kernel" in cmdline or "ipykernel" in cmdline):
            found[match.group(1)] = pid
    return found


@dataclass(frozen=True)
class Memory:
    """A process's memory in MB: resident (RSS), proportional (PSS: shared pages split among their
    users) and unique (USS: pages no other process has, what its exit would free)."""

    rss: float
    pss: float
    uss: float

    def __add__(self, other: Memory) -> Memory:
        return Memory(self.rss + other.rss, self.pss + other.pss, self.uss + other.uss)

    def __str__(self) -> str:
        return f"RSS {self.rss:6.1f}  PSS {self.pss:6.1f}  USS {self.uss:6.1f} MB"


ZERO = Memory(0.0, 0.0, 0.0)


def memory(pid: int) -> Memory:
    """From /proc/<pid>/smaps_rollup; zero for a process that has gone."""
    fields: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return ZERO
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            fields[parts[0].rstrip(":")] = int(parts[1])
    uss = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0) + fields.get("Private_Hugetlb", 0)
    return Memory(fields.get("Rss", 0) / 1024, fields.get("Pss", 0) / 1024, uss / 1024)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far; 0 for a process that has gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / TICKS


def descendants(pid: int) -> list[int]:
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def _machine_cpu() -> tuple[float, float]:
    """The machine's busy and total CPU seconds so far, over every core (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal (guest time is within user)
    return (total - fields[3] - fields[4]) / TICKS, total / TICKS


@dataclass
class CpuMeter:
    """CPU time used, from :meth:`start` to :meth:`stop`, by the server, its kernels, this benchmark
    (with its chromium) and everything else on the machine: figures a busy machine cannot distort."""

    served: Served
    marks: dict[int, float] = field(default_factory=dict)
    machine: tuple[float, float] = (0.0, 0.0)
    wall: float = 0.0
    used: dict[str, float] = field(default_factory=dict)

    def _groups(self) -> dict[str, list[int]]:
        server = self.served.process.pid
        kernel_pids = list(kernels(server).values())
        mine = [p for p in [os.getpid(), *descendants(os.getpid())] if p != server and p not in descendants(server)]
        return {"server": [server], "kernels": kernel_pids, "benchmark": mine}

    def start(self) -> CpuMeter:
        self.marks = {p: cpu_seconds(p) for pids in self._groups().values() for p in pids}
        self.machine = _machine_cpu()
        self.wall = time.monotonic()
        return self

    def stop(self) -> CpuMeter:
        self.used = {
            group: sum(max(0.0, cpu_seconds(p) - self.marks.get(p, 0.0)) for p in pids)
            for group, pids in self._groups().items()
        }
        busy, total = (b - a for a, b in zip(self.machine, _machine_cpu(), strict=True))
        self.used["other processes"] = max(0.0, busy - sum(self.used.values()))
        self.used["idle"] = max(0.0, total - busy)
        self.wall = time.monotonic() - self.wall
        return self

    def report(self, actions: int = 0) -> str:
        parts = ", ".join(f"{k} {v:.1f} s" for k, v in self.used.items())
        line = f"CPU over {self.wall:.0f} s on {os.cpu_count()} cores: {parts}"
        if actions:
            per = ", ".join(f"{k} {self.used[k] / actions * 1000:.1f} ms" for k in ("server", "kernels", "benchmark"))
            line += f"\n  CPU per action: {per}"
        return line


def _sockets(pid: int) -> set[int]:
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = str(fd.readlink())
                if target.startswith("socket:["):
                    inodes.add(int(target[8:-1]))
    return inodes


def waiting_kernels(served: Served) -> list[int]:
    """Kernels preheated and waiting for a reader: each holds its websocket to the server's
    request-details endpoint open until a request comes (widgets/kernel/request.py), and no kernel in use
    has a TCP connection to the server (they talk to it over Unix sockets)."""
    port = int(served.base.rsplit(":", 1)[1])
    connected = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                parts = line.split()
                if parts[3] == "01" and int(parts[2].rsplit(":", 1)[1], 16) == port:  # established, to the port
                    connected.add(int(parts[9]))
    return [pid for pid in kernels(served.process.pid).values() if _sockets(pid) & connected]


def wait_quiet(pids: list[int], *, window: float = 0.5, busy: float = 0.05, timeout: float = 60.0) -> float:
    """Wait until ``pids`` together use less than ``busy`` of a core over ``window`` seconds; return the wait."""
    start = time.monotonic()
    before = sum(cpu_seconds(p) for p in pids)
    while time.monotonic() - start < timeout:
        time.sleep(window)
        now = sum(cpu_seconds(p) for p in pids)
        if now - before < busy * window:
            break
        before = now
    return time.monotonic() - start


def wait_pool_warm(served: Served, *, timeout: float = 120.0) -> float:
    """Wait until every table has a preheated kernel waiting and the server and its kernels are idle.

    Returns the seconds waited. The server refills a table's pool a few seconds after its kernel
    is taken (``widgets.server.seats.REFILL_DELAY_SECONDS``); the count of waiting kernels is already
    one short before then, since a kernel in use no longer waits for a request.
    """
    start = time.monotonic()
    while len(waiting_kernels(served)) < len(TABLES):
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"the kernel pool was not refilled within {timeout:.0f} s")
        time.sleep(0.2)
    wait_quiet([served.process.pid, *kernels(served.process.pid).values()])
    return time.monotonic() - start


def load_average() -> str:
    try:
        one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
    except (OSError, ValueError):
        return "load unknown"
    return f"load average {one}, {five}, {fifteen}"


# ----- figures ----------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0 < q < 1), interpolated between the samples nearest it."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    at = q * (len(ordered) - 1)
    below = int(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)


@dataclass
class Row:
    """One line of a part's table: a name, samples in ms, and what they are measured against."""

    name: str
    samples: list[float] = field(default_factory=list)

    def summary(self) -> str:
        if not self.samples:
            return f"{self.name:34} (no samples)"
        s = self.samples
        return (
            f"{self.name:34} n={len(s):4}  median {statistics.median(s):8.1f}  p95 {percentile(s, 0.95):8.1f}  "
            f"worst {max(s):8.1f}  ms"
        )


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "MISSES the target"


@dataclass
class Outcome:
    """What a part found wrong: errors (exceptions, page errors, logged tracebacks) and lost actions."""

    errors: list[str] = field(default_factory=list)
    lost: int = 0

    def error(self, message: str) -> None:
        self.errors.append(message)
        print(f"  error: {message}", flush=True)


def log_marks(served: Served) -> dict[Path, int]:
    """Where the server's and kernels' logs stand now (file -> size), for :func:`new_problems`."""
    marks = {}
    for path in [*served.folder.glob("*.log"), served.folder / "server.out"]:
        with contextlib.suppress(OSError):
            marks[path] = path.stat().st_size
    return marks


PROBLEM = re.compile(r"Traceback|\bERROR\b|\] ERROR|withheld|exception", re.IGNORECASE)


def new_problems(served: Served, marks: dict[Path, int]) -> list[str]:
    """Lines of the logs written since ``marks`` that report an error or a traceback."""
    lines = []
    for path in sorted([*served.folder.glob("*.log"), served.folder / "server.out"]):
        with contextlib.suppress(OSError), path.open("rb") as f:
            f.seek(marks.get(path, 0))
            for line in f.read().decode(errors="replace").splitlines():
                if PROBLEM.search(line):
                    lines.append(f"{path.name}: {line.strip()[:300]}")
    return lines


@contextlib.contextmanager
def server(folder: Path, *extra: str) -> Iterator[Served]:
    """``python -m widgets.server`` as the browser tests start it (tests/conftest.py): a free port,
    its own database and logs in ``folder``; waits until every table has a preheated kernel."""
    with serve_server(folder, *extra) as served:
        wait_pool_warm(served, timeout=300)
        yield served
