"""How fast and how large the live tables are, served as `make serve` serves them.

The targets (from the issue), each measured against a server this script starts for itself
(``python -m widgets.server`` on a free port, with its own database and logs in a temporary
folder, as the browser tests start it: tests/conftest.py):

1. ``click``: click to updated table in the browser, median under 30 ms and 95th percentile under
   100 ms on loopback. Debian's chromium (Playwright) plays whole hands of three-card Loo, Nap
   and Domino Loo, from fixed deal codes, clicking a random legal choice (or Next hand). Each
   click is dispatched in the page and timed there with ``performance.now()``: from the click
   event to the first change of the board or of the choices, seen by a MutationObserver set up
   before the click ("first change", the figure the target is about), and to the last change of
   the table once it has been quiet for 80 ms ("all redrawn": every new button drawn). A click
   must be answered within 10 s, and every action the engine took must be in the database at
   the end, else it counts as lost.
2. ``open``: request to a playable table with the kernels preheated, under 2 s. Each visit is a
   first visit (a fresh browser context) to ``/tables/<name>``, for each of the six tables, timed
   in the page from the start of the navigation (the redirect to the table's id included) to the
   first visible, enabled choice ("playable"; the 95th percentile must be under 2 s, and the worst
   is shown). The same reader then opens the table again, its browser's cache warm ("a returning
   reader", as when a reader comes back to a table, or a class opens its tables again). Before each visit
   the script waits until every table has a preheated kernel waiting for a reader (it holds its
   websocket to the server open: widgets/kernel/request.py) and the server and kernels are idle, so
   each visit finds the pool warm. "HTML first byte" and "HTML complete" are the page's own
   response, from the Navigation Timing API. A preheated kernel has run its notebook before the
   request (the table cell shows "Dealing the cards…" and deals when the request comes), so
   Voila sends the page whole at once, and the kernel deals while the browser loads the page's
   scripts; a kernel started for its request deals before the page is complete. A line of
   medians then splits the wait: HTML, DOMContentLoaded (Voila's page script and its chunks, which
   come in one script: VOILA_STARTUP_CHUNKS in widgets/server/pages.py, compiled and run), load (Voila
   then starts), table drawn.
3. ``memory``: one table's kernel under 50 MB resident (issue 21). The kernel of each of the six tables (the
   server's child process whose connection file names the page's kernel id) is read from
   /proc/<pid>/smaps_rollup once the table is playable and again after some hands: RSS
   (resident), PSS (shared pages split among the processes sharing them: the fair share) and USS
   (pages its exit would free). RSS counts the shared libraries in full, so it is the larger.
4. ``load``: thirty simultaneous readers playing hands, each at a table of its own (its own
   kernel), through scripted websocket clients (tests/kernel_client.py), on the 2-core machine:
   no error, no lost action, 95th-percentile response under 250 ms. The readers open their
   tables two at a time (``--open-at-once``), then all play at once, each pausing 0.5 to 1.5 s
   between clicks (``--think``, the mean; 0 clicks as fast as the answers come). Response: from
   the click's message sent to the first message that changes the board, the choices or the
   status line. Lost: a click not answered in 30 s, or an action missing from the server's
   database at the end (its event count per table). Also printed: the memory of the server and
   of all its kernels with the thirty tables open.
5. ``class``: a class of thirty opening one table (three-card Loo, one deal code) at the same
   instant, on a server started as for a class (``--class-size 30``), after its kernels are
   preheated: p95 from the request to a playable table under 3 s, no error, with the wait split
   into its phases (bench/tables_class.py); then the thirty play at once, as in ``load``.

Every part that plays also prints the CPU time the server, the kernels, the benchmark itself
(with chromium) and the machine's other processes used meanwhile, and per click: the figures a
busy machine cannot distort. An exchange the engine refuses (Rounce's miss needs exactly the
extra tiles thrown out) is tried again giving up one more piece; a finished game (Rounce, Nap)
is followed by a new one.

Run it on the whole machine: the server and its kernels need both cores, and so does chromium,
which shares them::

    taskset -c 0,1 .venv/bin/python bench/tables.py                # every part, 30 readers
    taskset -c 0,1 .venv/bin/python bench/tables.py --part click --hands 12
    taskset -c 0,1 .venv/bin/python bench/tables.py --part load --readers 30 --hands 3 --think 0
    taskset -c 0,1 .venv/bin/python bench/tables.py --part class --readers 30 --hands 2

It prints a table of figures per part and the target beside it, and the machine's load average
when it started and ended: figures from a busy machine are slower than the tables are. It exits
1 if anything errored (an exception, an error in a page, a table page without its table, a
traceback in the server's or kernels' logs) or an action was lost, and 0 otherwise, whether or
not the targets are met: a benchmark, not a test. The server's folder is kept when it exits 1.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tables_common import (
    ROOT,
    TABLES,
    Outcome,
    Served,
    ServerFailed,
    kernels,
    load_average,
    log_marks,
    memory,
    new_problems,
    server,
)

PARTS = ("click", "open", "memory", "load", "class")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=(*PARTS, "all"), default="all")
    parser.add_argument("--readers", type=int, default=30, help="simultaneous readers in the load and class parts (30)")
    parser.add_argument("--hands", type=int, default=None, help="hands per table (click 8, memory 5, load 3)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="a reader's mean pause between clicks, in s, in the load part (1)"
    )
    parser.add_argument(
        "--open-at-once", type=int, default=2, help="readers opening their tables at once in the load part (2)"
    )
    parser.add_argument("--visits", type=int, default=4, help="visits per table in the open part (4)")
    parser.add_argument(
        "--games", nargs="+", default=["three-card-loo", "nap", "domino-loo"], choices=TABLES, help="click part"
    )
    parser.add_argument("--keep", action="store_true", help="keep the server's folder (logs, database)")
    args = parser.parse_args()
    parts = PARTS if args.part == "all" else (args.part,)

    print(f"{time.strftime('%Y-%m-%d %H:%M')}  {os.cpu_count()} CPUs, {len(os.sched_getaffinity(0))} allowed")
    print(f"at the start: {load_average()}", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-bench-tables-"))
    out = Outcome()
    met: dict[str, bool] = {}
    try:
        extra = ["--max-idle", "3600"]
        if "--max-tables" in server_help():  # room for every reader, besides the preheated kernels
            extra += ["--max-tables", str(max(40, args.readers + 10))]
        if "class" in parts and "--class-size" in server_help():  # as a teacher starts it for a class
            extra += ["--class-size", str(args.readers), "--class-table", "three-card-loo"]
        with server(folder, *extra) as served:
            print(f"server: {served.base} (pid {served.process.pid}), logs and database in {folder}", flush=True)
            marks = log_marks(served)
            for part in parts:
                try:
                    met[part] = run_part(part, served, args, out)
                except Exception as error:  # report it and go on to the next part
                    out.error(f"part {part} failed: {type(error).__name__}: {error}")
            total = memory(served.process.pid)
            for pid in kernels(served.process.pid).values():
                total = total + memory(pid)
            print(f"\nserver and its {len(kernels(served.process.pid))} kernels at the end: {total}")
            for line in new_problems(served, marks):
                out.error(f"logged: {line}")
    except ServerFailed as failed:
        out.error(str(failed))
    print(f"at the end: {load_average()}")
    print("\nsummary: " + ", ".join(f"{p} {'met' if ok else 'MISSED'}" for p, ok in met.items()))
    print(f"errors: {len(out.errors)}, lost actions: {out.lost}")
    keep = args.keep or out.errors or out.lost
    if keep:
        print(f"the server's logs and database are kept in {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if out.errors or out.lost else 0


def server_help() -> str:
    done = subprocess.run([sys.executable, "-m", "widgets.server", "--help"], capture_output=True, text=True, cwd=ROOT)
    return done.stdout


def run_part(part: str, served: Served, args: argparse.Namespace, out: Outcome) -> bool:
    if part == "class":
        import tables_class

        return tables_class.part_class(served, args.readers, args.hands or 3, args.think, out)
    if part == "load":
        import tables_load

        return tables_load.part_load(served, args.readers, args.hands or 3, args.think, args.open_at_once, out)
    import tables_browser

    if part == "click":
        return tables_browser.part_click(served, args.games, args.hands or 8, out)
    if part == "open":
        return tables_browser.part_open(served, args.visits, out)
    return tables_browser.part_memory(served, args.hands or 5, out)


if __name__ == "__main__":
    sys.exit(main())
