"""A student's journey at a class's table (issue 29), the same in every engine: classrooms have iPads
(WebKit) and laptops with Firefox as well as Chromium. tests/browser/test_class_journey.py walks the
whole class in Chromium (the teacher's console, three students, the results, the projector); here one
student, on a phone, does what every student does:

the address the class was given (the machine's network address, never 127.0.0.1) lands on the
students' page; the seat's code, typed as read off the teacher's screen, joins the table; the
student's own cards are in their place from the start; the whole hand is played against the computer
players, with a reload in the middle that comes back to the same seat and point; and the table's
"Projector view" makes it large on a 1920x1080 screen. Screenshots in test-results/.
"""

from __future__ import annotations

import html
import http.cookiejar
import re
import urllib.parse
import urllib.request
from typing import Any

from tests.browser.test_class_journey import classroom  # noqa: F401  (the class's server, a fixture)
from tests.browser.test_shared import DEAL  # three-card Loo, five seats: the deal the class tests play
from tests.conftest import Served
from tests.journeys.engines import Page, Target
from tests.journeys.journeys import SIZES, STARTS, play_a_hand, table_ready

# The student's own cards, at their place at the bottom of the cloth (face down before their turn to
# declare, CF-17), and the largest cards on the page (the projector's measure, as the class test's).
OWN_CARDS = Target.of(".loo-at-bottom svg.loo-cards")
# Measured on the screen: WebKit gives an element's box under CSS zoom before the zoom (Chromium and
# Firefox after it), so the box is scaled by how much wider the zoomed body is drawn than its box says
# (the body fills the window's width in the projector view).
TALLEST_CARDS = (
    "() => { const drawn = document.documentElement.clientWidth / document.body.getBoundingClientRect().width;"
    " return drawn * Math.max(0, ...[...document.querySelectorAll('.loo-table-view svg.loo-cards')]"
    ".map((e) => e.getBoundingClientRect().height)); }"
)


def open_seats(served: Served, people: int) -> tuple[list[str], list[str]]:
    """What the teacher does at the console (walked by clicks in Chromium's class journey): one table of
    three-card Loo at :data:`DEAL` for ``people`` students, the computer players in the other seats.
    Every seat's code as shown ("ABC-DEF") and link, the students' first, from the page the console answers."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(served.console_address(), timeout=30) as signed_in:  # the token, then its cookie
        assert signed_in.status == 200
    form = {"count": "1", "game": "three-card-loo", "people": str(people), "code": DEAL}
    posted = urllib.request.Request(  # as the console's own form posts it: from the server's own page
        f"{served.base}/console/open", urllib.parse.urlencode(form).encode(), headers={"Origin": served.base}
    )
    with browser.open(posted, timeout=30) as opened:
        page = opened.read().decode()
    codes = [html.unescape(c) for c in re.findall(r'class="seat-code"[^>]*>.*?<strong>([^<]+)</strong>', page, re.S)]
    links = [html.unescape(a) for a in re.findall(r'<a class="link seat-link" href="([^"]+)"', page)]
    assert len(codes) == len(links) == 5, page[-2000:]  # every seat's, a computer's too (a person may take it)
    return codes, links


def test_a_student_joins_by_code_plays_a_hand_and_the_table_goes_on_the_projector(
    open_page: Any, classroom: tuple[Served, str]  # noqa: F811  (the fixture imported above)
) -> None:
    served, lan = classroom
    codes, _links = open_seats(served, 1)
    student: Page = open_page(*SIZES["phone"])
    try:
        student.goto(f"{lan}/")  # the address on the board
        assert student.url() == f"{lan}/join", student.url()
        student.visible(Target.role("heading", "Join your table"))
        student.visible(Target.of(".join-game", name="Today: Three-card Loo"))
        student.type(Target.of("input[name=code]"), codes[0].lower().replace("-", ""))  # as a student types it
        student.click(Target.role("button", "Join"))
        table_ready(student, None)
        assert student.url().startswith(f"{lan}/tables/three-card-loo?"), student.url()
        mine = student.visible(OWN_CARDS, timeout=STARTS)  # the student's cards, whoever is to act
        assert mine.box["width"] > 20 and mine.box["height"] > 20, mine.box
        student.visible(Target.of(".loo-seats-list", name="you", match="contains"))
        student.shot("class-student-joined")
        moves = play_a_hand(student, None, take_back=False, reload_at=2)  # a reload mid-hand: same seat
        assert len(moves) >= 3, moves
        student.visible(Target.of(".loo-result"))
        student.shot("class-student-hand-over")

        # The same table on the classroom's projector: large enough for the back row.
        student.viewport(*SIZES["desktop"])
        toggle = Target.role("button", "Projector view")
        student.click(toggle)
        student.wait_for("() => document.documentElement.classList.contains('loo-projector')")
        assert student.evaluate("(_a, doc) => doc.querySelector('.loo-projector-toggle').ariaPressed") == "true"
        tallest = student.wait_for(f"() => {{ const h = ({TALLEST_CARDS})(); return h >= 120 ? h : 0; }}")
        assert tallest >= 120, tallest
        student.visible(Target.of(".loo-result"))
        student.shot("class-student-projector")
        # And back, from the keyboard: under CSS zoom WebKit gives the button's box before the zoom, so a
        # click at the centre it gives would land elsewhere (a person's tap lands on the button drawn).
        student.evaluate("() => { document.querySelector('.loo-projector-toggle').focus(); return 1; }")
        student.press("Enter")
        student.wait_for("() => !document.documentElement.classList.contains('loo-projector')")
        assert "projector=1" not in student.url()
        assert student.errors() == [], f"{student.engine}: errors in the page: {student.errors()}"
    finally:
        student.close()
