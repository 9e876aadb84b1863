"""The two homes of a table side by side, in one run: the Voila server's table and the table that
runs in the reader's browser (Pyodide in a worker, on the static build).

Targets (issue 17), each measured in Debian's chromium driven by Playwright, for both homes:

1. ``open``: time from opening the page to a playable table (a visible, enabled choice), median
   under 4 s with nothing cached (a fresh browser context for each visit) and under 1.5 s with the
   browser's cache warm (the same context opens the table again). The in-browser table's page is
   ``/play/<game>.html`` of the built book, served by ``python -m http.server``; the server's is
   ``/tables/<game>`` of ``python -m widgets.server`` with its kernels preheated.
2. ``click``: click to updated table (first change of the board or the choices) with the
   rule-of-thumb computer players: median under 30 ms, 95th percentile under 100 ms. The same
   click script as bench/tables.py (bench/tables_browser.py), on fixed deals.
3. ``hint``: a hint from the sampling player, from the click on Hint to its words on the table:
   under 1.5 s.
4. ``long tasks``: while the in-browser table is opened and played, no task on the page's own
   thread over 200 ms (the Long Tasks API, observed from before the page's first script).
5. ``bytes``: what a first visit to the in-browser table transfers, each response as a static host
   would send it gzipped (gzip level 6 of its body; the wasm file is counted so too): aim under 6 MB;
   and as a host sending the build's compressed copies (``name.gz``, ``name.br``) sends it.

Run it on the whole machine (the browser, the static server and the Voila server share its cores)::

    taskset -c 0,1 .venv/bin/python bench/inpage.py --visits 5 --hands 6

Needs a built book with the in-browser tables (``make book``). Prints a table per part; exits 1 if
anything errored (a page error, a console error or warning, a request outside the origin), else 0.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tables_browser import PLAYABLE_JS, WAIT_MS, Session, browser, click, open_table, play
from tables_common import (
    ROOT,
    Outcome,
    Row,
    deal_code,
    load_average,
    percentile,
    server,
    verdict,
    wait_pool_warm,
)

BOOK = ROOT / "_build" / "html"
GAMES = ("three-card-loo", "nap", "domino-loo")

# Long tasks on the page's own thread, from before its first script (the Long Tasks API).
LONG_TASKS_JS = """
(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__longTasks = null; }
})();
"""


@contextlib.contextmanager
def static_host() -> Iterator[str]:
    """The built book from ``python -m http.server`` on a free port (no Lanterloo server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(BOOK)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the static server did not start")
        time.sleep(0.1)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextlib.contextmanager
def visit(chromium: Any, origin: str, out: Outcome, *, watch_bytes: bool = False) -> Iterator[tuple[Session, dict]]:
    """A fresh browser context (nothing cached) with one page; errors, outside requests and, if
    asked, the gzipped size of every response, collected as it runs."""
    context = chromium.new_context()
    context.add_init_script(PLAYABLE_JS)
    context.add_init_script(LONG_TASKS_JS)
    page = context.new_page()
    s = Session(page)
    seen: dict[str, Any] = {"bytes": 0, "raw": 0, "files": 0, ".gz": 0, ".br": 0}
    host = urlparse(origin).netloc
    page.on("pageerror", lambda e: out.error(f"page error: {e}"))
    page.on(
        "console",
        lambda m: out.error(f"console {m.type}: {m.text[:200]}") if m.type in ("error", "warning") else None,
    )

    def request(r: Any) -> None:
        if urlparse(r.url).scheme in ("http", "https", "ws", "wss") and urlparse(r.url).netloc != host:
            out.error(f"a request outside the origin: {r.url}")

    def response(r: Any) -> None:
        if not watch_bytes or r.status != 200:
            return
        with contextlib.suppress(Exception):
            body = r.body()
            seen["raw"] += len(body)
            level6 = len(gzip.compress(body, compresslevel=6))
            seen["bytes"] += level6
            seen["files"] += 1
            # As a host that sends the build's compressed copies (web/precompress.py) sends it: the
            # copy where there is one, else the file compressed on the fly at level 6.
            path = BOOK / urlparse(r.url).path.lstrip("/")
            for suffix in (".gz", ".br"):
                copy = path.with_name(path.name + suffix)
                seen[suffix] += copy.stat().st_size if copy.is_file() else level6

    page.on("request", request)
    page.on("response", response)
    try:
        yield s, seen
    finally:
        with contextlib.suppress(Exception):
            page.goto("about:blank")
        context.close()


# The parts of an in-browser table's opening, in order (web/inpage/worker.mjs and inpage.js mark each
# one's end in window.lanterlooPhases): the worker's script running; Python's runtime and standard
# library downloaded; the runtime compiled and Python started (or restored from the kept snapshot);
# the widgets' and the project's code unpacked; the table's modules imported (a first visit only: the
# snapshot holds them); the page's kernel ready; the widget manager's bundle parsed and run on the
# page; the table drawn.
PHASES = (
    "worker started", "downloaded", "python started", "python restored", "code unpacked", "imported",
    "kernel ready", "widget manager", "drawn",
)  # fmt: skip


def phases(s: Session, visit: str, row: Any) -> None:
    for part, at in (s.page.evaluate("window.lanterlooPhases || {}") or {}).items():
        row(f"browser: {visit}, {part}").samples.append(float(at))


def inpage_ready(s: Session) -> None:
    s.page.wait_for_selector("[data-loo-ready]", state="attached", timeout=WAIT_MS)


def time_hint(s: Session) -> float | None:
    """ms from the click on Hint to the hint's words in the table's status line ("Hint: stand. ...")."""
    hint = s.page.locator(".loo-hint")
    if not hint.is_enabled():
        return None
    return float(
        s.page.evaluate(
            """async (timeout) => {
          const status = () => Array.from(document.querySelectorAll('.loo-table-view [role=status][aria-live]'))
            .map((e) => e.innerText).join(' ');
          const t0 = performance.now();
          document.querySelector('.loo-hint').click();
          while (!/(^| )Hint: /.test(status())) {  // the status line names the hint's choice (widgets.views.table_view)
            if (performance.now() - t0 > timeout) return NaN;
            await new Promise((r) => setTimeout(r, 5));
          }
          return performance.now() - t0;
        }""",
            WAIT_MS,
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=5, help="first visits per game and home (5)")
    parser.add_argument("--hands", type=int, default=6, help="hands played per game and home in the click part (6)")
    args = parser.parse_args()
    if not (BOOK / "play" / "nap.html").is_file():
        print("bench/inpage.py: no built book with the in-browser tables: run `make book` first", file=sys.stderr)
        return 2
    print(f"{time.strftime('%Y-%m-%d %H:%M')}  {os.cpu_count()} CPUs; at the start: {load_average()}", flush=True)
    out = Outcome()
    rows: dict[str, Row] = {}

    def row(name: str) -> Row:
        return rows.setdefault(name, Row(name))

    folder = Path(tempfile.mkdtemp(prefix="lanterloo-bench-inpage-"))
    long_tasks: list[float] = []
    opening_tasks: list[float] = []
    sizes: list[dict[str, Any]] = []
    with static_host() as static, server(folder, "--max-idle", "3600") as served, browser() as chromium:
        homes = {
            "browser": (static, lambda g, q="": f"{static}/play/{g}.html{q}", inpage_ready),
            "server": (served.base, lambda g, q="": f"{served.base}/tables/{g}{q}", lambda s: None),
        }
        print("\n== 1. opening a table: first visits (nothing cached), then the same browser again ==", flush=True)
        for _ in range(args.visits):
            for game in GAMES:
                for home, (origin, address, ready) in homes.items():  # the homes in turn: the same moments
                    if home == "server":
                        wait_pool_warm(served)  # as bench/tables.py: a preheated kernel waits for each visit
                    with visit(chromium, origin, out, watch_bytes=home == "browser") as (s, seen):
                        cold = open_table(s, address(game))
                        ready(s)
                        row(f"{home}: cold, playable").samples.append(cold["playable"])
                        if home == "browser":
                            phases(s, "cold", row)
                            sizes.append(dict(seen))
                            # a reader stays a moment: long enough for the page to keep its snapshot of Python
                            s.page.wait_for_function(
                                "() => (window.lanterlooLog || []).some((l) => l.includes('snapshot'))", timeout=WAIT_MS
                            )
                        s.page.goto("about:blank")  # the server's page shuts its kernel down as it goes
                        if home == "server":
                            wait_pool_warm(served)
                        warm = open_table(s, address(game))
                        row(f"{home}: warm, playable").samples.append(warm["playable"])
                        if home == "browser":
                            phases(s, "warm", row)
        for home in homes:
            print(f"  {row(f'{home}: cold, playable').summary()}\n  {row(f'{home}: warm, playable').summary()}")
        print("  where the in-browser table's opening goes: each part's end, ms from the page's start (median)")
        print(f"  {'part':<18}{'first visit':>13}{'return visit':>14}")
        for part in PHASES:
            ends = [row(f"browser: {visit}, {part}").samples for visit in ("cold", "warm")]
            print(f"  {part:<18}" + "".join(f"{percentile(e, 0.5):>13.0f} " if e else f"{'-':>13} " for e in ends))
        cold_ok = percentile(row("browser: cold, playable").samples, 0.5) < 4000
        warm_ok = percentile(row("browser: warm, playable").samples, 0.5) < 1500
        print(
            f"  target (in the browser): median cold < 4 s: {verdict(cold_ok)}; median warm < 1.5 s: {verdict(warm_ok)}"
        )
        mb = [s["bytes"] / 1e6 for s in sizes]
        raw = [s["raw"] / 1e6 for s in sizes]
        print("\n== 5. bytes of a first visit to the in-browser table, gzipped as a static host sends them ==")
        print(
            f"  median {percentile(mb, 0.5):.2f} MB gzipped ({percentile(raw, 0.5):.2f} MB as files), "
            f"{sizes[0]['files']} files; aim under 6 MB: {verdict(percentile(mb, 0.5) < 6)}"
        )
        for suffix, what in ((".gz", "gzip copies (level 9)"), (".br", "brotli copies")):
            sent = percentile([s[suffix] / 1e6 for s in sizes], 0.5)
            print(f"  from a host sending the build's {what}: median {sent:.2f} MB")

        print(f"\n== 2. click to updated table, rule-of-thumb players ({args.hands} hands a game) ==", flush=True)
        hints: dict[str, list[float]] = {home: [] for home in homes}
        for number, game in enumerate(GAMES):
            for home, (origin, address, ready) in homes.items():
                rng = random.Random(number)
                with visit(chromium, origin, out) as (s, _seen):
                    open_table(s, address(game, f"?deal={deal_code(game, 2000 + number)}"))
                    ready(s)
                    if home == "browser":  # the opening's long tasks apart from the play's
                        opening_tasks += s.page.evaluate("window.__longTasks ? window.__longTasks.splice(0) : []")
                    for _ in range(3):  # the sampling player's hint, at the first decisions
                        took = time_hint(s)
                        if took is not None and took == took:
                            hints[home].append(took)
                        click(s, rng, out)
                    clicks = play(s, args.hands, rng, out)
                    firsts = [c["first"] for c in clicks if c["first"] is not None]
                    row(f"{home}: click, first change").samples += firsts
                    if home == "browser":
                        found = s.page.evaluate("window.__longTasks")
                        if found is None:
                            out.error("the Long Tasks API is not available in this browser")
                        else:
                            long_tasks += found
        for home in homes:
            print(f"  {row(f'{home}: click, first change').summary()}")
        clicks = row("browser: click, first change").samples
        click_ok = percentile(clicks, 0.5) < 30 and percentile(clicks, 0.95) < 100
        print(f"  target (in the browser): median < 30 ms and p95 < 100 ms: {verdict(click_ok)}")
        print("\n== 3. a hint from the sampling player ==")
        for home in homes:
            print(f"  {Row(f'{home}: hint', hints[home]).summary()}")
        hint_ok = bool(hints["browser"]) and max(hints["browser"]) < 1500
        print(f"  target (in the browser): every hint under 1.5 s: {verdict(hint_ok)}")
        print("\n== 4. long tasks (over 50 ms) on the in-browser page's own thread ==")
        worst = max(long_tasks, default=0.0)
        print(f"  opening the table: {len(opening_tasks)}, the longest {max(opening_tasks, default=0.0):.0f} ms")
        print(
            f"  playing (hints included): {len(long_tasks)}, the longest {worst:.0f} ms; over 200 ms: "
            f"{sum(1 for t in long_tasks if t > 200)}"
        )
        print(f"  target: none over 200 ms during play: {verdict(worst <= 200)}")
    print(f"\nat the end: {load_average()}")
    if out.errors:
        print(f"{len(out.errors)} errors (see above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
