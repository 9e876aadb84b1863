"""A reader's journeys through the book, the same in every engine: each starts at the book's home page
and goes where a reader goes, by clicking only what is visible (the sidebar, the next link, the
chapter's buttons, the table's buttons), and checks what the reader must see by its box on screen.

Each ``test_<engine>.py`` beside this file runs these journeys in its engine (see
:mod:`tests.journeys.engines` for the driver), so that ``--dist loadfile`` gives each engine's
journeys to one process with one browser; each file has one server of its own for its module.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.test_review_tab import DEAL as COSTLY_DEAL
from tests.conftest import INSTANT_PACE, Served
from tests.journeys.engines import Page, Target, launched

GAME = "three-card-loo"
BOX = f"#live-{GAME}"
FRAME = f"{BOX} iframe.loo-offer-frame"
SIZES = {"laptop": (1366, 768), "desktop": (1920, 1080), "phone": (390, 844)}
STARTS = 120.0  # Pyodide's first start in a busy machine's slowest engine (WebKit: 8-18 s measured)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
# The cards on the board shown (each card's name, in order), which a reload must bring back as they were:
# the board's words may differ (the line on the trick just won is said once, after the move).
BOARD_CARDS = (
    "(a, doc) => { const b = [...doc.querySelectorAll('.loo-board')].find((e) => e.getClientRects().length"
    " && e.getBoundingClientRect().width > 0); return b ? [...b.querySelectorAll('[aria-label]')]"
    ".map((c) => c.getAttribute('aria-label')).join('|') : ''; }"
)
# The board shown, of several (a reel keeps hidden copies): the visible one.
BOARD_TEXT = (
    "(a, doc) => { const b = [...doc.querySelectorAll('.loo-board')].find((e) => e.getClientRects().length"
    " && e.getBoundingClientRect().width > 0); return b ? b.innerText : ''; }"
)


@pytest.fixture(scope="module")
def open_page(request: pytest.FixtureRequest, engine: str) -> Iterator[Any]:
    """The module's browser (one per engine per process): a maker of fresh pages at 1366x768."""
    with launched(engine, lambda: request.getfixturevalue("browser")) as new:
        yield new


@pytest.fixture
def reader(open_page: Any) -> Iterator[Page]:
    """A fresh page with storage of its own; the journey fails on any error the page reported."""
    fresh: Page = open_page(*SIZES["laptop"])
    try:
        yield fresh
        assert fresh.errors() == [], f"{fresh.engine}: errors in the page: {fresh.errors()}"
    finally:
        lost = getattr(fresh, "lost_clicks", [])
        if lost:  # said at the end of the run, where a driver's fault that grows is seen
            warnings.warn(f"{fresh.engine}'s driver lost {len(lost)} click(s), made again: {lost}", stacklevel=1)
        fresh.close()


@pytest.fixture(scope="module")
def served(served_site: Served) -> Served:
    """The test process's Lanterloo server (tests/conftest.py::served_site)."""
    return served_site


# ----- moving about the book -------------------------------------------------------------------------


def home(page: Page, site: str) -> None:
    """The book's home page, with the computer players' moves shown at once (a pace a reader may choose)."""
    page.goto(site + "/book/index.html")
    page.visible(Target.role("heading", "Lanterloo", match="start"))
    page.evaluate(f"() => {{ {INSTANT_PACE} return 1; }}")


def to_first_chapter_by_next(page: Page) -> None:
    page.click(Target.of("a.right-next"))
    page.visible(Target.role("heading", "How to use this book", match="start", within="main"))


def to_chapter_by_sidebar(page: Page, title: str) -> None:
    page.click(Target.role("link", title, within="nav.bd-docs-nav"))
    page.visible(Target.of(f"h1, {BOX}"))


def play_here(page: Page) -> None:
    """Press the chapter box's one visible "Play here" button: the table appears where it was pressed,
    in view, with a board and a choice for the reader."""
    buttons = Target.role("button", "Play here", match="start", within=BOX)
    assert page.visible(buttons).shown == 1, f"{page.engine}: the box shows more than one Play here"
    assert page.find(buttons).text == "Play here", page.find(buttons).text
    page.click(buttons)
    frame = page.visible(Target.of(FRAME), in_view=True)
    assert frame.box["width"] >= 300 and frame.box["height"] >= 300, frame.box
    table_ready(page, FRAME)


def table_ready(page: Page, frame: str | None) -> None:
    page.visible(Target.of(".loo-board", frame=frame), timeout=STARTS)
    page.visible(Target.of(".loo-choices button.mod-primary, .loo-result", frame=frame), timeout=STARTS)


def shots(page: Page, name: str, frame: str | None, *, whole: bool = True) -> None:
    """Screenshots at every size, the table (or the whole page) scrolled to where a reader has it; at
    each size the table is checked visible (``whole``: all of it in view, as a table just opened is).
    Back to the laptop's size after."""
    for size, (width, height) in SIZES.items():
        page.viewport(width, height)
        if frame:
            page.evaluate("(css) => { document.querySelector(css).scrollIntoView({block: 'start'}); return 1; }", frame)
        wide = page.evaluate("() => innerWidth")
        # The layout reflows to the new size a moment after the window has it (Firefox's frames later
        # than the rest): wait for a board that fits, then check below that it does.
        shown = page.visible(Target.of(".loo-board", frame=frame), in_view=whole, within=wide + 1)
        if page.engine == "webkit" and size == "phone":
            # Named, not skipped: MiniBrowser's window cannot be made narrower than its toolbar
            # (about 447 CSS px here), so WebKit's "phone" is that wide.
            assert wide <= 460, wide
        else:
            assert wide == width, (size, wide)
        assert 0 < shown.box["width"] <= wide + 1, shown.box
        # The book's sidebars slide to their new places when the window crosses a width (CSS
        # transitions): the shot waits for them to end, or it shows both half-way, the page askew.
        page.wait_for(
            "(a, doc) => doc.getAnimations().every((x) => !(x instanceof CSSTransition) || x.playState !== 'running')",
            timeout=10,
        )
        page.shot(f"{name}-{size}-{wide}x{height}")
    page.viewport(*SIZES["laptop"])


# ----- at a table ------------------------------------------------------------------------------------


def act(page: Page, frame: str | None, button: Target) -> str:
    """Click ``button`` and wait until the table is drawn again (or the hand is over); the board before."""
    before = page.evaluate(BOARD_TEXT, frame=frame)
    page.evaluate(
        "(a, doc) => { doc.querySelectorAll('.loo-choices button').forEach((b) => { b.dataset.stale = '1'; });"
        " return 1; }",
        frame=frame,
    )
    page.click(button)
    try:
        page.wait_for(
            f"(before, doc) => !!doc.querySelector('.loo-result') || (({BOARD_TEXT})(0, doc) !== before"
            " && !doc.querySelector('.loo-choices button[data-stale]'))",
            before,
            frame=frame,
            timeout=60,
        )
    except AssertionError as failure:  # what the table was doing, for whoever reads the failure
        raise AssertionError(f"{failure}\n{page.evaluate(TABLE_STATE, frame=frame)}") from None
    return str(before)


# The table's state when a click seemed to go unanswered: its buttons, a reel playing, Python's log.
TABLE_STATE = (
    "(_a, doc, win) => JSON.stringify({buttons: [...doc.querySelectorAll('.loo-choices button')].map((b) =>"
    " [b.innerText, !!b.dataset.stale, b.disabled, b.getClientRects().length > 0]),"
    " playing: !!doc.querySelector('.loo-playing'), status: (doc.querySelector('.loo-status') || {}).innerText,"
    " log: (win.lanterlooLog || []).slice(-12), sent: win.lanterlooSent, idle: win.lanterlooIdle})"
)


def play_a_hand(page: Page, frame: str | None, *, take_back: bool, reload_at: int = 0) -> list[str]:
    """Play the hand to its end by clicking the table's visible buttons: Stand when asked, else the first
    card the table offers. With ``take_back``, the first card played is taken back with the visible
    Take back button and the board must be as it was. With ``reload_at``, the page is reloaded after
    that many of the reader's moves and the table must come back at the same point. The moves' names."""
    moves: list[str] = []
    taken_back = reloaded = False
    result = Target.of(".loo-result", frame=frame)
    stand = Target.role("button", "Stand", within=".loo-choices", frame=frame)
    first = Target.of(".loo-choices button.mod-primary", frame=frame)
    for _move in range(20):
        page.visible(Target.of(".loo-choices button.mod-primary, .loo-result", frame=frame), timeout=60)
        if page.find(result).visible:
            break
        button = stand if page.find(stand).visible else first
        name = page.find(button).text
        try:
            before = act(page, frame, button)
        except AssertionError as failure:
            raise AssertionError(f"{failure}\nclicking {name!r} after {moves}") from None
        moves.append(name)
        if take_back and not taken_back and name != "Stand":
            taken_back = True
            page.click(Target.role("button", "Take back", frame=frame))
            page.wait_for(f"(before, doc) => ({BOARD_TEXT})(0, doc) === before", before, frame=frame)
            page.visible(Target.role("button", name, within=".loo-choices", frame=frame))
            moves.append("Take back")
        if reload_at and not reloaded and len(moves) >= reload_at and not page.find(result).visible:
            reloaded = True
            reload_and_resume(page, frame)
    assert page.find(result).visible, f"{page.engine}: the hand did not end: {moves}"
    assert not take_back or taken_back, f"{page.engine}: no card was played to take back: {moves}"
    assert not reload_at or reloaded, f"{page.engine}: the hand ended before the reload: {moves}"
    return moves


# The in-browser table's log (web/inpage/inpage.js keeps it as window.lanterlooLog), read in its frame.
PYTHON_LOG = "(_a, _doc, win) => (win.lanterlooLog || []).join('\\n')"
NO_SNAPSHOT_IN_WEBKIT = (
    "WebKitGTK under WebDriver keeps no Cache Storage from one visit to the next, so the return visit's"
    " start from the kept snapshot of Python is not checked there"
)


def reload_and_resume(page: Page, frame: str | None) -> None:
    """Reload the page: the table comes back at the same point (a chapter's box is pressed again if it
    does not reopen by itself, as a reader would). An in-browser table comes back from the snapshot of
    Python its first visit kept (but in WebKit: :data:`NO_SNAPSHOT_IN_WEBKIT`)."""
    board = page.evaluate(BOARD_CARDS, frame=frame)
    assert board, f"{page.engine}: no card on the board before the reload"
    in_browser = bool(page.evaluate("(_a, _doc, win) => Array.isArray(win.lanterlooLog)", frame=frame))
    snapshot = in_browser and page.engine != "webkit"
    if snapshot:
        page.wait_for("(_a, _doc, win) => (win.lanterlooLog || []).some((l) => l.startsWith('kept a snapshot'))",
                      frame=frame, timeout=STARTS)  # fmt: skip
    page.reload()
    page.evaluate(f"() => {{ {INSTANT_PACE} return 1; }}")
    if frame:
        deadline = time.monotonic() + 5
        while not page.find(Target.of(frame)).visible and time.monotonic() < deadline:
            time.sleep(0.2)
        if not page.find(Target.of(frame)).visible:
            page.click(Target.of("button[data-loo-play-here]", within=BOX))  # "Play here", or "Back to your game"
        page.visible(Target.of(frame), in_view=True, timeout=STARTS)
    table_ready(page, frame)
    page.wait_for(f"(board, doc) => ({BOARD_CARDS})(0, doc) === board", board, frame=frame, timeout=STARTS)
    if snapshot:
        log = page.evaluate(PYTHON_LOG, frame=frame)
        assert "started Python from the kept snapshot" in log, f"{page.engine}: the return visit started afresh: {log}"


def chips_shown(page: Page, frame: str | None) -> tuple[dict[str, int], dict[str, int]]:
    """The finished hand's chips as the reader sees them: the result line under the table ("Hand 1 is
    over. Chips this hand: Ann: put 3 in as dealer, looed 6: −9; Ben: took 9 from the pool: +9; ...",
    every player with the net last) and the Ledger tab's row for that hand; each player's net chips."""
    line = page.visible(Target.of(".loo-result", frame=frame)).text  # seen (WebKit may not scroll it into view)
    said = re.match(r"Hand (\d+) is over\. Chips this hand: (.*?)\.(?: The pool|$)", line)
    assert said, f"{page.engine}: the result line reads {line!r}"
    summary: dict[str, int] = {}
    for part in said[2].split("; "):
        name, _, words = part.partition(": ")
        summary[name] = int(words.rsplit(": ", 1)[-1].replace("\u2212", "-").replace("+", ""))
    page.click(Target.role("tab", "Ledger", frame=frame))
    page.reveal(Target.of("table.loo-ledger", frame=frame))
    rows = page.evaluate(
        "(a, doc) => { const t = [...doc.querySelectorAll('table.loo-ledger')].find((e) =>"
        " e.getBoundingClientRect().width > 0); if (!t) return null;"
        " const cells = (r) => [...r.querySelectorAll('th, td')].map((c) => c.innerText.trim());"
        " return [...t.querySelectorAll('tr')].map(cells); }",
        frame=frame,
    )
    assert rows, f"{page.engine}: the Ledger tab shows no table"
    head = next(r for r in rows if "Ann" in r)
    hand = next((r for r in rows if r and r[0] == said[1]), None)
    assert hand is not None, f"{page.engine}: no row for hand {said[1]} in the ledger: {rows}"
    # The names' row lists each name twice (net this hand, then the balance); a hand's row begins with its
    # number, dealer and pool played for, then the nets.
    players = head[: len(head) // 2]
    nets = hand[3 : 3 + len(players)]
    ledger = {name: int(cell.replace("\u2212", "-").replace("+", "")) for name, cell in zip(players, nets, strict=True)}
    return summary, ledger


# The Review tab's weighing, finished: its region shown and its summary no longer says it is weighing.
WEIGHED = (
    "(a, doc) => { const b = [...doc.querySelectorAll('section.loo-review-box')].find((e) =>"
    " e.getBoundingClientRect().width > 0); const said = b ? b.querySelector('p').innerText : '';"
    " return said && !said.startsWith('Weighing') ? said : null; }"
)


# How a weighed hand's summary begins, whatever the reader chose.
WEIGHED_SUMMARY = r"(Your decisions gave up about|No decision of yours gave|You had no choice)"


def weighed(page: Page, frame: str | None) -> str:
    """The finished hand weighed on the Review tab (issue 31) as a reader asks for it: the tab, then
    "Weigh my decisions"; the summary the reader sees once every decision is decided."""
    page.click(Target.role("tab", "Review", frame=frame))
    page.click(Target.role("button", "Weigh my decisions", frame=frame))
    said = str(page.wait_for(WEIGHED, frame=frame, timeout=STARTS))
    page.visible(Target.of("section.loo-review-box", frame=frame))
    page.visible(Target.of("section.loo-review-box li", frame=frame))  # each decision, with its verdict
    return said


def agree(summary: dict[str, int], ledger: dict[str, int]) -> bool:
    """The result line names every player with the net the ledger books for them."""
    return bool(ledger) and summary == ledger


# ----- the journeys ----------------------------------------------------------------------------------


def test_a_chapters_table_in_the_readers_browser_on_a_static_host(reader: Page, static_site: str) -> None:
    """No server: from the home page by the next link to the first chapter, "Play here" starts the table
    in the reader's browser where they pressed it; a whole hand by clicking, a reload mid-hand resumes."""
    page = reader
    home(page, static_site)
    to_first_chapter_by_next(page)
    # With no server to ask, the box says plainly that this table cannot hide the other hands, and
    # leaves the server's tables as folded words (no "make serve" in view); its own page is a link away.
    page.visible(Target.of(f"{BOX} *", name="cannot hide the other hands", match="contains"))
    folded = page.find(Target.of(f"{BOX} code", name="make serve", match="contains"))
    assert folded.count == 1 and folded.shown == 0, f"{page.engine}: {folded}"
    page.visible(Target.role("link", "Open it on a page of its own", within=BOX))
    href = page.evaluate("(css, doc) => doc.querySelector(css).getAttribute('href')", f"{BOX} a[data-loo-open-link]")
    assert href == f"../play/{GAME}.html", href
    play_here(page)
    shots(page, "static-chapter-table", FRAME)
    moves = play_a_hand(page, FRAME, take_back=False, reload_at=2)
    assert "Stand" in moves and len(moves) >= 3, moves
    page.reveal(Target.of(".loo-result", frame=FRAME))
    shots(page, "static-finished-hand", FRAME, whole=False)
    # Closed, the table goes, and the box offers it again.
    page.click(Target.role("button", "Close the table", within=BOX))
    page.wait_for("(css, doc) => !doc.querySelector(css)", FRAME)
    page.visible(Target.role("button", "Play here", match="start", within=BOX))


def test_a_chapters_server_table(reader: Page, served: Served) -> None:
    """With the server: from the home page by the sidebar to the first chapter, "Play here" opens the
    server's table in the page; a whole hand with a take-back; the chips in the summary and the Ledger."""
    page = reader
    home(page, served.base)
    to_chapter_by_sidebar(page, "How to use this book")
    play_here(page)
    src = page.evaluate("(css) => new URL(document.querySelector(css).src).pathname", FRAME)
    assert src.startswith("/tables/"), f"{page.engine}: the chapter opened {src}, not the server's table"
    shots(page, "server-chapter-table", FRAME)
    moves = play_a_hand(page, FRAME, take_back=True)
    assert "Take back" in moves, moves
    shots(page, "server-finished-hand", FRAME, whole=False)
    summary, ledger = chips_shown(page, FRAME)
    assert summary, f"{page.engine}: the summary names no player's chips"
    assert agree(summary, ledger), f"{page.engine}: the summary says {summary}, the Ledger {ledger}"


def test_a_server_table_from_the_tables_page(reader: Page, served: Served) -> None:
    """The server's list of tables, then a game's table on a page of its own: a whole hand, a take-back,
    the finished hand's chips in the summary and the Ledger, and the reader's decisions weighed on the
    Review tab."""
    page = reader
    home(page, served.base)
    page.goto(served.base + "/tables/")
    page.click(Target.of("a.loo-table-link", name="Three-card Loo", match="start"))
    table_ready(page, None)
    play_a_hand(page, None, take_back=True)
    page.shot("tables-finished-hand")
    summary, ledger = chips_shown(page, None)
    assert summary and agree(summary, ledger), f"{page.engine}: summary {summary}, Ledger {ledger}"
    said = weighed(page, None)
    assert re.match(WEIGHED_SUMMARY, said), said
    page.shot("tables-hand-weighed")


# COSTLY_DEAL (tests/browser/test_review_tab.py's): Ann holds two trumps with a king and should stand (L3-DECL-02).
PRACTICE = ".loo-practice"  # a widget box (a div), below the review


def test_a_thrown_up_hand_weighed_and_practised_in_the_readers_browser(reader: Page, static_site: str) -> None:
    """A deal code a teacher handed out, at the table in the reader's own browser: the reader throws up
    a hand that should have stood; weighed on the Review tab, the throw is named, in words, with the
    better choice; the position comes back under "Practise your mistakes", and answering Stand there
    takes it off the list (issue 31)."""
    page = reader
    page.goto(f"{static_site}/play/{GAME}.html?deal={COSTLY_DEAL}")
    table_ready(page, None)
    act(page, None, Target.role("button", "Throw up", within=".loo-choices"))
    page.visible(Target.of(".loo-result"), timeout=STARTS)  # the others play the hand out
    said = weighed(page, None)
    assert said.startswith("Your decisions gave up about"), said
    named = page.visible(Target.of("section.loo-review-box li", name="Throw up:", match="contains"))
    assert ("a mistake" in named.text or "a blunder" in named.text) and "The best was Stand" in named.text, named.text
    page.visible(Target.role("heading", "Practise your mistakes (1)", within=PRACTICE))
    page.reveal(Target.of(f"{PRACTICE} .loo-board"))  # the position, drawn, scrolled to
    page.shot("practice-question")
    page.click(Target.role("button", "Stand", within=PRACTICE))
    verdict = page.reveal(Target.of(f"{PRACTICE} .loo-practice-verdict"))  # scrolled to, as a reader would
    assert "Answered well" in verdict.text, verdict.text
    page.visible(Target.role("heading", "Practise your mistakes (0)", within=PRACTICE))
    page.shot("practice-answered")


def test_the_step_viewer_and_a_question(reader: Page, static_site: str) -> None:
    """The first chapter's step-through hand, forward and back with its buttons, the step's cards on
    screen; then its "What would you do?" question answered, the verdict on screen."""
    page = reader
    home(page, static_site)
    to_first_chapter_by_next(page)
    viewer = "[data-loo-steps]"
    head = Target.of("[data-loo-frame]:not([hidden]) .loo-steps-head", within=viewer)
    assert page.visible(head).text.startswith("Step 0 of 11"), page.find(head).text
    page.click(Target.role("button", "Forward one step", match="start", within=viewer))
    page.wait_for("(a, doc) => !!doc.querySelector('[data-loo-steps] [data-loo-frame=\"1\"]:not([hidden])')")
    assert page.visible(head, in_view=True).text.startswith("Step 1 of 11"), page.find(head).text
    cards = Target.of("[data-loo-frame]:not([hidden]) [role=img]", within=viewer)
    found = page.visible(cards, in_view=True)
    assert found.shown >= 3, f"{page.engine}: {found.shown} cards on screen at step 1"
    page.click(Target.role("button", "Back one step", match="start", within=viewer))
    assert page.visible(head).text.startswith("Step 0 of 11"), page.find(head).text
    page.shot("step-viewer")
    question = ".loo-choice"
    page.click(Target.role("button", "Ace of hearts", within=f"{question} .loo-choice-picks"))
    outcome = page.visible(Target.of("[data-loo-outcome]", within=question), in_view=True)
    assert outcome.text.startswith("You chose ace of hearts: it costs"), outcome.text
    verdict = page.visible(Target.of("[data-loo-verdict]", within=question))
    assert verdict.text.startswith("Verdict: Two of clubs is the best choice"), verdict.text[:300]
    page.shot("question-answered")


def test_a_newcomers_guided_first_hand_from_the_home_page(reader: Page, static_site: str) -> None:
    """A newcomer on a static host: the home page's *Play a hand now*, in view as the page opens, deals
    a hand in one click; the guide's first prompt is on screen with the table, a whole hand is played
    by clicking, and at its end the guide says so and is finished (and stays finished on a reload); the
    hand is weighed on the Review tab."""
    page = reader
    home(page, static_site)
    page.visible(Target.role("link", "Play a hand now"), in_view=True)  # seen at once, with no scrolling
    page.click(Target.role("link", "Play a hand now"))
    table_ready(page, None)
    guide = Target.of("section.loo-guide")
    prompt = page.visible(guide, in_view=True, timeout=STARTS)
    assert prompt.text.startswith("Your first decision"), prompt.text
    page.visible(Target.of(".loo-guide-target"))
    page.shot("newcomer-guide")
    play_a_hand(page, None, take_back=False)
    page.wait_for(
        "(a, doc) => { const g = doc.querySelector('section.loo-guide strong'); return !!g"
        " && g.textContent === 'The hand is over'; }"
    )
    done = page.visible(guide, in_view=True)
    assert done.text.startswith("The hand is over"), done.text
    page.shot("newcomer-guide-over")
    page.click(Target.role("button", "Finish the guide", within="section.loo-guide"))
    page.wait_for("(a, doc) => !doc.querySelector('section.loo-guide')")
    # The hand just played, weighed on the Review tab: from the home page by clicks alone (issue 31).
    said = weighed(page, None)
    assert re.match(WEIGHED_SUMMARY, said), said
    page.shot("newcomer-hand-weighed")
    page.reload()
    table_ready(page, None)
    assert page.find(guide).count == 0, f"{page.engine}: the guide came back after it was finished"
