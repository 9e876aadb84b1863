"""Benchmark the review of a finished hand (issue 31) side by side with a hint, in one run.

Run on demand (not a test):  .venv/bin/python bench/review.py [--hands N]
                              .venv/bin/python bench/review.py --calibrate [--hands N]
                              .venv/bin/python bench/review.py --in-browser [--hands N]

For each game, N seeded hands are played by the rule of thumb at every seat; for each, the review of all
of seat 0's decisions (``loo.review.review``, the server's rounds) and a hint (``widgets.table.hints.hint_for``,
the server's effort) at each of those decisions, the positions the review weighs, are timed on the same
machine in the same run. A hint's time, for a hand, is the mean of its hints; the ratio is the review's
time over it, and the median ratio over the hands is printed (target, issue 31: a review within five
hints' time). So is the ratio against the hint at seat 0's first decision alone, a declaration or a
call that is often the cheapest hint of the hand (at the domino games a tenth of the later ones, whose
hints sample to their most). Also printed: the decisions reviewed and the verdicts given.

``--calibrate`` checks the verdicts' honesty (issue 31): in N seeded hands of each game, seat 0 plays at
random (so that it errs often) and the others by the rules of thumb; every decision of seat 0 the review
grades an inaccuracy, a mistake or a blunder is estimated afresh on ten times the deals the review
drew, from another seed. Printed for each game: the graded decisions, how many the ten-fold estimate
confirms (its interval too lies wholly above zero: the choice did give something up), how many it
grades the same, and how many decisions stayed "too close to call".

``--in-browser`` measures the page while the review runs in the reader's browser (issue 31: no task
on the page's own thread over 200 ms): for each game, N times, the built book's in-browser table
(``/play/<game>.html`` from ``python -m http.server``, in Debian's chromium driven by Playwright) is
dealt a fixed deal code (tests/browser/test_review_tab.py's: the reader's first choice is costly), the
costly choice is made and the hand played out with the first choice offered, the Review tab opened
and Weigh my decisions clicked; the Long Tasks API's entries on the page's own thread are gathered
from that click until the review has filled in (its summary no longer says it is weighing) and for
1.5 s after, while the hand's steps and the practice list are redrawn. Printed for each game: the
time to fill in, the long tasks (over 50 ms) and the longest, and the review's summary as the page
showed it. Needs a built book (``make book``) with the code to measure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loo.core.sampling import SamplingPlayer
from loo.kits import kit
from loo.records import load
from loo.review import GRADES, ROUNDS, grade, recheck, review, unit
from widgets.table.hints import hint_for

GAMES = ("three-card-loo", "five-card-loo", "irish-loo", "nap", "domino-loo", "domino-rounce")


def played(game: str, seed: int, seats: int = 4) -> tuple[Any, Any]:
    """A seeded hand played by the rules of thumb: (its record, the view of seat 0's first decision)."""
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    pool = game_kit.pool(rules, seats)
    hand = game_kit.deal(rules, random.Random(seed), seats, seats - 1, pool)
    bot, rng = game_kit.make_bot("thumb"), random.Random(seed)
    actions, first = [], None
    while not hand.is_over:
        view = hand.view(hand.to_act)
        if first is None and hand.to_act == 0 and len(hand.legal_actions()) > 1:
            first = view
        action = bot.choose(view, rng)
        actions.append(action.to_record())
        hand.push(action)
    obj = {"format": "loo-record/1", "game": game, "rules": rules.to_record(), "seats": ["Ann", "Ben", "Cat", "Dan"],
           "dealer": seats - 1, "pool": pool, "deal": {"seed": seed}, "actions": actions}  # fmt: skip
    return load(json.dumps(obj)), first


def erring(game: str, seed: int, seats: int = 4) -> Any:
    """A seeded hand in which seat 0 plays at random and the others by the rules of thumb, as a record."""
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    pool = game_kit.pool(rules, seats)
    hand = game_kit.deal(rules, random.Random(seed), seats, seats - 1, pool)
    thumb, rng = game_kit.make_bot("thumb"), random.Random(seed)
    actions = []
    while not hand.is_over:
        view = hand.view(hand.to_act)
        action = rng.choice(hand.legal_actions()) if hand.to_act == 0 else thumb.choose(view, rng)
        actions.append(action.to_record())
        hand.push(action)
    obj = {
        "format": "loo-record/1",
        "game": game,
        "rules": rules.to_record(),
        "seats": ["Ann", "Ben", "Cat", "Dan"],
        "dealer": seats - 1,
        "pool": pool,
        "deal": {"seed": seed},
        "actions": actions,
    }
    return load(json.dumps(obj))


def calibrate(hands: int) -> None:
    """Each graded verdict of seat 0's random play, checked on ten times the deals (see the module)."""
    print(f"{'game':15} {'decisions':>9} {'graded':>6} {'confirmed':>9} {'same grade':>10} {'too close':>9}  check s")
    for game in GAMES:
        player = kit(game).make_bot("sampling")
        assert isinstance(player, SamplingPlayer)
        decisions = graded = confirmed = same = close = 0
        start = time.perf_counter()
        for seed in range(hands):
            record = erring(game, 1000 + seed)
            done = review(record, [0])
            hand, stake = record.start(), unit(record.rules)
            marks = {d.index: d for d in done.decisions}
            for index, action in enumerate(record.actions):
                d = marks.get(index)
                if d is not None:
                    decisions += 1
                    close += d.verdict == "too close to call"
                    if d.verdict in dict(GRADES):
                        graded += 1
                        lost = recheck(player, hand.view(0), d.chosen, 10 * d.deals, seed=987_654 + index)
                        confirmed += lost.low > 0
                        same += grade(lost, stake) == d.verdict
                hand.push(action)
        took = time.perf_counter() - start
        share = f"{confirmed / graded:.0%}" if graded else "-"
        print(f"{game:15} {decisions:9d} {graded:6d} {confirmed:5d} {share:>4} {same:10d} {close:9d}  {took:7.1f}")


# Each game's fixed deal, the reader's costly first choice there (tests/browser/test_review_tab.py).
COSTLY = {
    "three-card-loo": ("l3.peel_first-deal-mode~none.s0.n5.d2.p3.c3", "Throw up"),
    "five-card-loo": ("l5.pam.s0.n36", "Throw up"),
    "irish-loo": ("il.irish.s0.n1.p12", "Throw up"),
    "nap": ("nap.hoffmann.s0.n1", "Pass"),
    "domino-loo": ("dl.celko.s0.n4", "Throw up"),
    "domino-rounce": ("dr.rounce.s0.n11", "Throw up"),
}
WAIT_MS = 180_000
INSTANT = "try { localStorage.setItem('lanterloo-pace', 'Instant'); } catch (e) {}"
# The page's long tasks (the Long Tasks API), kept from the page's first script on; emptied at the click.
LONG_TASKS = """
(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__longTasks = null; }
})();
"""
# From the click on Weigh my decisions until the review has filled in: ms, and the long tasks meanwhile.
WEIGH_JS = """
async (timeout) => {
  const box = () => document.querySelector('.loo-review-box');
  const weighing = () => !box() || box().querySelector('p[role=status]') !== null
    || /^Weighing/.test(document.querySelector('.loo-review-weighed')?.innerText || '');
  window.__longTasks.splice(0);
  const t0 = performance.now();
  Array.from(document.querySelectorAll('button')).find((b) => b.innerText.trim() === 'Weigh my decisions').click();
  await new Promise((r) => setTimeout(r, 50));
  while (weighing()) {
    if (performance.now() - t0 > timeout) return { took: NaN, tasks: window.__longTasks.splice(0) };
    await new Promise((r) => setTimeout(r, 20));
  }
  const took = performance.now() - t0;
  // the redraws that follow the summary: the hand's steps opened at the costliest, the practice list
  await new Promise((r) => setTimeout(r, 1500));
  return { took, tasks: window.__longTasks.splice(0).filter(([at]) => at >= t0),
           said: box().querySelector('p').innerText };
}
"""


def play_costly(page: Any, choice: str, error: type[Exception]) -> None:
    """Make ``choice``, then at each of the reader's turns the first choice offered that the table takes
    (a card that must not be played is refused, and the choices stay), until the hand is over."""
    page.wait_for_selector("[data-loo-ready]", state="attached", timeout=WAIT_MS)
    costly = page.locator(".loo-choices button", has_text=choice).first
    costly.wait_for(timeout=WAIT_MS)
    costly.click()
    result, offered = page.locator(".loo-result"), page.locator(".loo-choices button:not([disabled])")
    for _ in range(100):
        if result.is_visible():
            return
        for i in range(offered.count()):
            before = offered.count()
            try:
                offered.nth(i).click(timeout=5_000)
            except error:  # the hand moved on meanwhile: look again
                break
            page.wait_for_timeout(300)
            if result.is_visible() or offered.count() != before:
                break
        else:
            page.wait_for_timeout(300)  # the computer players' turn
    raise RuntimeError(f"{page.url}: the hand did not end")


def in_browser(hands: int) -> int:
    """The page's long tasks while the review fills in, in the reader's browser (see the module)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from inpage import BOOK, static_host
    from playwright.sync_api import Error as PlaywrightError
    from tables_browser import browser

    if not (BOOK / "play" / "nap.html").is_file():
        print("bench/review.py: no built book with the in-browser tables: run `make book` first", file=sys.stderr)
        return 2
    print(f"{time.strftime('%Y-%m-%d %H:%M')}  the review in the reader's browser, {hands} hands a game")
    print(f"{'game':15} {'fill in s (median)':>18} {'long tasks':>10} {'longest ms':>10}  each over 100 ms")
    errors: list[str] = []
    worst_all = 0.0
    with static_host() as static, browser() as chromium:
        for game, (code, choice) in COSTLY.items():
            took, tasks, said = [], [], set()
            for _ in range(hands):
                context = chromium.new_context(viewport={"width": 1366, "height": 768})
                context.add_init_script(INSTANT)
                context.add_init_script(LONG_TASKS)
                page = context.new_page()
                page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
                try:
                    page.goto(f"{static}/play/{game}.html?deal={code}", timeout=WAIT_MS)
                    play_costly(page, choice, PlaywrightError)
                    page.get_by_role("tab", name="Review").click()
                    page.get_by_role("button", name="Weigh my decisions").wait_for(timeout=WAIT_MS)
                    found = page.evaluate(WEIGH_JS, WAIT_MS)
                finally:
                    context.close()
                took.append(found["took"] / 1000)
                said.add(found.get("said", "(not filled in)")[:70])
                tasks += [duration for _at, duration in found["tasks"]]
            longest = max(tasks, default=0.0)
            worst_all = max(worst_all, longest)
            big = " ".join(f"{t:.0f}" for t in sorted(tasks, reverse=True) if t > 100)
            print(f"{game:15} {statistics.median(took):18.1f} {len(tasks):10d} {longest:10.0f}  {big}", flush=True)
            print(f"{'':15} said: {' / '.join(sorted(said))}")
    met = "met" if worst_all <= 200 else "MISSED"
    print(f"the longest task on the page's own thread while a review filled in: {worst_all:.0f} ms (target 200: {met})")
    for error in errors:
        print(error)
    return 1 if errors else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5, help="hands of each game (default 5)")
    parser.add_argument("--calibrate", action="store_true", help="check graded verdicts on ten times the deals")
    parser.add_argument("--in-browser", action="store_true", help="the page's long tasks while the browser reviews")
    args = parser.parse_args()
    if args.calibrate:
        calibrate(args.hands)
        return
    if args.in_browser:
        sys.exit(in_browser(args.hands))
    print(f"rounds of deals: {ROUNDS}")
    print(
        f"{'game':15} {'hint s':>7} {'first s':>7} {'review s':>8} {'ratio':>5} {'to first':>8}"
        f" {'decisions':>9}  verdicts"
    )
    for game in GAMES:
        hint_times, first_times, review_times, ratios, to_first = [], [], [], [], []
        decisions, verdicts = 0, Counter[str]()
        for seed in range(args.hands):
            record, first = played(game, seed)
            if first is None:
                continue
            player = kit(game).make_bot("sampling")
            assert isinstance(player, SamplingPlayer)
            start = time.perf_counter()
            done = review(record, [0])
            took = time.perf_counter() - start
            hints = []
            for view in decision_views(record, [d.index for d in done.decisions]):
                start = time.perf_counter()
                hint_for(player, view)
                hints.append(time.perf_counter() - start)
            hint = statistics.mean(hints)
            review_times.append(took)
            hint_times.append(hint)
            first_times.append(hints[0])
            ratios.append(took / hint)
            to_first.append(took / hints[0])
            decisions += len(done.decisions)
            verdicts.update(d.verdict for d in done.decisions)
        if not hint_times:
            print(f"{game:15} (seat 0 had no choice in these hands)")
            continue
        shown = ", ".join(f"{v} {n}" for v, n in verdicts.most_common())
        print(
            f"{game:15} {statistics.median(hint_times):7.2f} {statistics.median(first_times):7.2f}"
            f" {statistics.median(review_times):8.2f} {statistics.median(ratios):5.1f}"
            f" {statistics.median(to_first):8.1f} {decisions:9d}  {shown}",
            flush=True,
        )
    print("hint s: a hint's time in a hand (the mean of the hints at its reviewed decisions), median over the hands;")
    print("first s: the hint at seat 0's first decision; ratio: the review's time over a hint's, median over the")
    print("hands (target 5); to first: over the first decision's hint.")


def decision_views(record: Any, indexes: list[int]) -> list[Any]:
    """The view of the seat to act before each action at ``indexes`` in ``record``: the positions weighed."""
    hand, wanted, views = record.start(), set(indexes), []
    for index, action in enumerate(record.actions):
        if index in wanted:
            views.append(hand.view(action.seat))
        hand.push(action)
    return views


if __name__ == "__main__":
    main()
