"""The live-table benchmarks in a browser (Debian's chromium driven by Playwright): click to updated
table, request to playable table, and a table kernel's memory. See bench/tables.py."""

from __future__ import annotations

import contextlib
import random
import re
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from tables_common import (
    CHROMIUM,
    CHROMIUM_ARGS,
    TABLES,
    CpuMeter,
    Memory,
    Outcome,
    Row,
    Served,
    deal_code,
    kernels,
    memory,
    percentile,
    verdict,
    wait_pool_warm,
    wait_quiet,
    waiting_kernels,
)

from widgets.store.sqlite import TableStore
from widgets.views.safety import READER_MESSAGE

WAIT_MS = 90_000  # a table may take long to open on a busy machine; a lost click is one not answered in:
CLICK_TIMEOUT_MS = 10_000

# Installed before any of the page's own scripts: notes when the table first becomes playable (a
# visible, enabled choice: a legal choice, a piece to pick, or Next hand), in ms since the navigation
# began (performance.now(); the redirect from /tables/<name> is included).
PLAYABLE_JS = """
(() => {
  const selector = '.loo-choices button.mod-primary, .loo-picks button, .loo-next';
  const playable = () => Array.from(document.querySelectorAll(selector)).some(
    (b) => !b.disabled && b.offsetParent !== null && b.getClientRects().length > 0);
  const seen = () => {
    if (window.__lanterlooTable === undefined && document.querySelector('.loo-table-view')) {
      window.__lanterlooTable = performance.now();  // the table's widgets are drawn, not yet its choices
    }
    if (window.__lanterlooPlayable === undefined && playable()) {
      window.__lanterlooPlayable = performance.now();
      observer.disconnect();
      ready();
    }
  };
  let ready;
  // Awaited once by the script (open_table): polling the page from outside would take the page's
  // own thread every few ms, a cost no reader pays.
  window.__lanterlooReady = new Promise((resolve) => { ready = resolve; });
  const observer = new MutationObserver(seen);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();
"""

# One click, dispatched in the page on a legal choice (or Next hand, or the confirm of an exchange,
# after selecting ``k`` random pieces), timed from the click event (a capturing listener, run before
# the button's own) to the first change in the board or the choices (a MutationObserver set up
# before the click), and to the last change in the table once it has been quiet for QUIET ms. An
# action the engine refuses (an exchange of the wrong number of pieces) redraws the choices and
# says why in the table's status line; an accepted one empties it.
CLICK_JS = """
async ([r, timeoutMs, k]) => {
  const QUIET = 80, PARTIAL = 2000;
  const view = document.querySelector('.loo-table-view');
  const next = view.querySelector('.loo-next:not([disabled])');
  const legal = Array.from(
    view.querySelectorAll('.loo-choices button.mod-primary:not([disabled]):not(.loo-show-rest)'));
  const picks = Array.from(view.querySelectorAll('.loo-picks button:not([disabled])'));
  let target, kind;
  if (next && next.offsetParent !== null) { target = next; kind = 'next'; }
  else if (legal.length) { target = legal[Math.floor(r * legal.length)]; kind = 'choice'; }
  else if (picks.length) {
    target = picks.pop();  // the confirm button, after the pieces' toggles
    kind = 'picks';
    const pool = picks.slice();
    for (let i = 0; i < k && pool.length; i++) pool.splice(Math.floor(Math.random() * pool.length), 1)[0].click();
    await new Promise((resolve) => setTimeout(resolve, 50));  // the toggles' changes reach the kernel first
  } else { return { kind: 'none' }; }
  const label = target.innerText;
  // the table as it stands (not a frame of the last reel), and the reel of the computer players' moves
  const boardHost = Array.from(view.querySelectorAll('.loo-board')).find((b) => !b.closest('.loo-film')).parentElement;
  const filmHost = view.querySelector('.loo-film');
  const choiceHosts = [view.querySelector('.loo-choices'), view.querySelector('.loo-picks')].filter((h) => h);
  const statusLine = () => Array.from(view.querySelectorAll('[role=status][aria-live]'))
    .find((e) => !e.closest('.loo-board'));  // the table's own line, not the board's result
  const statusHost = statusLine() ? statusLine().parentElement : null;
  const statusText = () => (statusLine() ? statusLine().innerText.trim() : '');
  return await new Promise((resolve) => {
    let t0 = null, board = null, choices = null, said = null, last = null, quiet = null, partial = null;
    const finish = (extra) => {
      observer.disconnect();
      [timer, quiet, partial].forEach(clearTimeout);
      const since = (t) => (t === null || t0 === null ? null : t - t0);
      const first = board === null ? choices : choices === null ? board : Math.min(board, choices);
      const status = statusText();
      resolve({ kind, label, first: since(first), board: since(board), choices: since(choices),
                said: since(said), last: since(last), status, accepted: status === '', ...extra });
    };
    const observer = new MutationObserver((records) => {
      if (t0 === null) return;
      const now = performance.now();
      last = now;
      for (const record of records) {
        const shown = boardHost.contains(record.target) || (filmHost && filmHost.contains(record.target));
        if (board === null && shown) board = now;
        if (choices === null && choiceHosts.some((h) => h.contains(record.target))) choices = now;
        if (said === null && statusHost && statusHost.contains(record.target)) said = now;
      }
      if (choices !== null && (board !== null || said !== null)) {
        clearTimeout(quiet);
        quiet = setTimeout(() => finish({}), QUIET);
      } else if (partial === null) {  // only the status line (a refusal), or the board or choices alone
        partial = setTimeout(() => finish({ partial: true }), PARTIAL);
      }
    });
    observer.observe(view, { childList: true, subtree: true, characterData: true, attributes: true });
    const timer = setTimeout(() => finish({ timeout: true }), timeoutMs);
    window.addEventListener('click', () => { t0 = performance.now(); }, { capture: true, once: true });
    target.click();
  });
}
"""


@dataclass
class Session:
    """One browser page at one table, and what happened there."""

    page: Page
    errors: list[str] = field(default_factory=list)
    new_games: int = 0

    @property
    def table_id(self) -> str:
        return parse_qs(urlparse(self.page.url).query).get("table", [""])[0]

    def kernel_id(self) -> str | None:
        found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', self.page.content())
        return found.group(1) if found else None


@contextmanager
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@contextmanager
def session(chromium: Browser, pace: str | None = None) -> Iterator[Session]:
    """A fresh browser context (a first visit: nothing cached) with one page, at the reader's ``pace``
    if one is given (as the page keeps it: widgets.views.pacing); closing it lets the page's shutdown
    beacon stop the table's kernel."""
    context = chromium.new_context()
    context.add_init_script(PLAYABLE_JS)
    if pace is not None:
        context.add_init_script(f"try {{ localStorage.setItem('lanterloo-pace', {pace!r}); }} catch (e) {{}}")
    page = context.new_page()
    found = Session(page)
    page.on("pageerror", lambda e: found.errors.append(f"page error: {e}"))
    page.on("console", lambda m: found.errors.append(f"console: {m.text}") if m.type == "error" else None)
    try:
        yield found
    finally:
        with contextlib.suppress(PlaywrightError):
            page.goto("about:blank")  # fires beforeunload: the page's beacon shuts its kernel down
        context.close()


def open_table(s: Session, url: str) -> dict[str, float]:
    """Go to ``url`` and wait for a playable table; the timings in ms (see :data:`PLAYABLE_JS`)."""
    start = time.perf_counter()
    s.page.goto(url, wait_until="commit", timeout=WAIT_MS)
    s.page.wait_for_function("window.__lanterlooReady !== undefined", timeout=WAIT_MS)  # the new page's
    s.page.evaluate(
        "(ms) => Promise.race([window.__lanterlooReady, new Promise((_, no) => setTimeout(() => no(new Error("
        "`no playable table after ${ms} ms`)), ms))])",
        WAIT_MS,
    )
    wall = (time.perf_counter() - start) * 1000
    timing = s.page.evaluate(
        """() => { const n = performance.getEntriesByType('navigation')[0];
                   return { playable: window.__lanterlooPlayable, table: window.__lanterlooTable,
                            firstByte: n.responseStart - n.startTime, html: n.responseEnd - n.startTime,
                            redirect: n.redirectEnd - n.redirectStart,
                            dom: n.domContentLoadedEventEnd - n.startTime, load: n.loadEventEnd - n.startTime }; }"""
    )
    return {**timing, "wall": wall}


def click(s: Session, rng: random.Random, out: Outcome, k: int = 0) -> dict[str, Any] | None:
    """One click on a legal choice (``k`` pieces picked first, for an exchange); its timings, or None
    if nothing could be clicked or the click was lost. The reader's own move is timed; the computer
    players' moves after it, played by the page at the reader's pace (widgets.views.pacing), are waited for first."""
    s.page.wait_for_function("!document.querySelector('.loo-playing')", timeout=WAIT_MS)
    result: dict[str, Any] = s.page.evaluate(CLICK_JS, [rng.random(), CLICK_TIMEOUT_MS, k])
    if result["kind"] == "none":
        return None
    if result.get("timeout"):
        out.lost += 1
        out.error(f"click on {result['label']!r} ({result['kind']}) got no update within {CLICK_TIMEOUT_MS} ms")
        return None
    if READER_MESSAGE[:20] in result["status"]:
        out.error(f"click on {result['label']!r}: the table said: {result['status'][:200]}")
    return result


def play(s: Session, hands: int, rng: random.Random, out: Outcome) -> list[dict[str, Any]]:
    """Click legal choices until ``hands`` hands have been dealt after the first; every click's timings.

    An exchange is tried keeping every piece, then giving up one piece more each time the engine
    refuses it (in Domino Rounce, taking the miss means throwing out exactly the extra tiles).
    """
    results: list[dict[str, Any]] = []
    dealt, k = 0, 0
    for _ in range(hands * 80):  # a bound, in case a game never ends its hand
        result = click(s, rng, out, k)
        if result is None:
            if not out.lost:
                out.error(f"{s.page.url}: nothing to click")
            break
        results.append(result)
        k = k + 1 if result["kind"] == "picks" and not result["accepted"] else 0
        if k > 12:
            out.error(f"{s.page.url}: no exchange was accepted: {result['status'][:200]}")
            break
        if result["kind"] == "next" and not result["accepted"]:  # the game is over (Rounce, Nap...)
            new_game(s)
            s.new_games += 1
        if result["kind"] == "next":
            dealt += 1
            if dealt >= hands:
                break
    return results


def new_game(s: Session) -> None:
    """Start a new game as a reader does (New game, then Yes, new game), unmeasured."""
    s.page.get_by_role("button", name="New game", exact=True).click()
    s.page.get_by_role("button", name="Yes, new game").click()
    s.page.wait_for_function(
        "() => (document.querySelector('.loo-table-view').innerText || '').includes('A new game')", timeout=WAIT_MS
    )


def check_saved(s: Session, served: Served, clicks: list[dict[str, Any]], out: Outcome) -> None:
    """Every action taken is in the database: the start, then one event per accepted click (and any
    hand the table dealt by itself, as after Peel's single, L3-SGL-01: so at least that many)."""
    saved = TableStore(served.db).count(s.table_id)
    accepted = sum(1 for c in clicks if c["accepted"])
    if saved < 1 + accepted + s.new_games:
        out.lost += max(0, 1 + accepted + s.new_games - saved)
        out.error(
            f"table {s.table_id}: {saved} events saved for the start, {accepted} actions and {s.new_games} new games"
        )


# ----- part 1 -----------------------------------------------------------------------------------


def part_click(served: Served, games: list[str], hands: int, out: Outcome) -> bool:
    """Each game played twice, from the same deal and the same choices: at the Normal pace (each change
    of more than one move comes with its reel of frames, widgets.views.pacing: the figure the target is
    about) and, as the reference in the same run, at the Instant pace (no reel)."""
    print(f"\n== 1. click to updated table ({hands} hands per game, clicks dispatched in the page) ==", flush=True)
    everything_first: list[float] = []
    reference: list[float] = []
    for number, game in enumerate(games):
        for pace in ("Normal", "Instant"):
            rng = random.Random(1 + number)
            with browser() as chromium:
                wait_pool_warm(served)
                with session(chromium, pace) as s:
                    open_table(s, f"{served.base}/tables/{game}?deal={deal_code(game, 1000 + number)}")
                    meter = CpuMeter(served).start()
                    clicks = play(s, hands, rng, out)
                    meter.stop()
                    check_saved(s, served, clicks, out)
                    for e in s.errors:
                        out.error(e)
            first = Row(f"{game}, {pace}: first change", [c["first"] for c in clicks if c["first"] is not None])
            last = Row(f"{game}, {pace}: all redrawn", [c["last"] for c in clicks if c["first"] is not None])
            (everything_first if pace == "Normal" else reference).extend(first.samples)
            refused = sum(1 for c in clicks if not c["accepted"])
            partial = sum(1 for c in clicks if c.get("partial"))
            print(f"  {first.summary()}\n  {last.summary()}\n  {meter.report(len(clicks))}", flush=True)
            print(f"  {len(clicks)} clicks, {refused} refused by the engine, saying why; {partial} redrew only part")
    every = Row("every game, Normal (reels): first change", everything_first)
    plain = Row("every game, Instant (no reel, the reference): first change", reference)
    print(f"  {every.summary()}\n  {plain.summary()}")
    ok = bool(everything_first) and percentile(everything_first, 0.5) < 30 and percentile(everything_first, 0.95) < 100
    print(f"  target: median < 30 ms and p95 < 100 ms from the click to the first change, at Normal: {verdict(ok)}")
    return ok


# ----- part 2 -----------------------------------------------------------------------------------


def part_open(served: Served, samples: int, out: Outcome) -> bool:
    print(f"\n== 2. request to playable table, pool warm ({samples} visits per table, each a first visit) ==")
    print("  before each visit: every table has a preheated kernel waiting and the server and kernels are idle")
    playable = {t: Row(f"{t}: playable") for t in TABLES}
    first_byte = {t: Row(f"{t}: HTML first byte") for t in TABLES}
    html = {t: Row(f"{t}: HTML complete") for t in TABLES}
    again = Row("a returning reader: playable")
    waited: list[float] = []
    steps: list[dict[str, float]] = []
    with browser() as chromium:
        for _ in range(samples):
            for table in TABLES:
                waited.append(wait_pool_warm(served))
                with session(chromium) as s:
                    timing = open_table(s, f"{served.base}/tables/{table}")
                    # The same reader opens another table: the browser has the page's scripts cached.
                    with contextlib.suppress(PlaywrightError):
                        s.page.goto("about:blank")  # the page's beacon shuts its kernel down
                    wait_pool_warm(served)
                    again.samples.append(open_table(s, f"{served.base}/tables/{table}")["playable"])
                    for e in s.errors:
                        out.error(e)
                steps.append(timing)
                playable[table].samples.append(timing["playable"])
                first_byte[table].samples.append(timing["firstByte"])
                html[table].samples.append(timing["html"])
    for table in TABLES:
        print(f"  {playable[table].summary()}\n  {first_byte[table].summary()}\n  {html[table].summary()}")
    every = [x for r in playable.values() for x in r.samples]
    print(f"  {Row('every table: playable', every).summary()}")
    print(f"  {again.summary()}  (the same browser, its cache warm)")
    print(f"  (waited {sum(waited) / len(waited):.1f} s on average for the pool to refill before a visit)")
    named = {"redirect": "redirect", "firstByte": "HTML first byte", "html": "HTML complete", "dom": "DOMContentLoaded",
             "load": "load event", "table": "table drawn", "playable": "playable"}  # fmt: skip
    print("  medians, ms from the request: " + ", ".join(
        f"{label} {statistics.median(t[key] for t in steps if t.get(key) is not None):.0f}"
        for key, label in named.items() if any(t.get(key) is not None for t in steps)
    ))  # fmt: skip
    ok = bool(every) and percentile(every, 0.95) < 2000
    print(
        "  target: playable in under 2 s, from the request to a visible enabled choice, judged on the 95th "
        f"percentile of first visits: {verdict(ok)}"
    )
    return ok


# ----- part 3 -----------------------------------------------------------------------------------


KERNEL_TARGET_MB = 50  # issue 21: room for a class's tables on a laptop (it was 150 before)


def part_memory(served: Served, hands: int, out: Outcome) -> bool:
    print(f"\n== 3. one table's kernel memory (after the page loads, then after {hands} hands) ==")
    wait_pool_warm(served)
    waiting = [memory(pid) for pid in waiting_kernels(served)]
    if waiting:
        print(f"  a preheated kernel, waiting: {max(waiting, key=lambda m: m.pss)} (the largest of {len(waiting)})")
    print(f"  the server process:           {memory(served.process.pid)}")
    worst = Memory(0, 0, 0)
    rng = random.Random(3)
    with browser() as chromium:
        for number, table in enumerate(TABLES):
            wait_pool_warm(served)
            with session(chromium) as s:
                open_table(s, f"{served.base}/tables/{table}?deal={deal_code(table, 2000 + number)}")
                kernel_id = s.kernel_id()
                pid = kernels(served.process.pid).get(kernel_id or "")
                if pid is None:
                    out.error(f"{table}: no kernel process for kernel {kernel_id}")
                    continue
                wait_quiet([pid])
                loaded = memory(pid)
                clicks = play(s, hands, rng, out)
                wait_quiet([pid])
                played = memory(pid)
                check_saved(s, served, clicks, out)
                for e in s.errors:
                    out.error(e)
            print(f"  {table:15} loaded: {loaded}\n  {'':15} played: {played}  ({len(clicks)} clicks)")
            worst = Memory(max(worst.rss, played.rss, loaded.rss), max(worst.pss, played.pss, loaded.pss), 0)
    ok = 0 < worst.rss < KERNEL_TARGET_MB
    print(f"  largest: RSS {worst.rss:.1f} MB, PSS {worst.pss:.1f} MB")
    print(f"  target: under {KERNEL_TARGET_MB} MB per table's kernel (judged on RSS, the larger figure): {verdict(ok)}")
    return ok
