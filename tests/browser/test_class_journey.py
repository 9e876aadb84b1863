"""A class as it meets Lanterloo (issue 29, point 7): the teacher at the server's own computer
(127.0.0.1), three students on other devices reaching it by the machine's network address.

The server runs as `lanterloo --class` runs it (every address, a class table preheated). The teacher
opens the console by its token file and opens a table at one deal: every address it hands out names
the network address, never the loopback one. The students land on their page at the address they
were given, join by a seat's code typed as read, or by its printed link; each sees their own cards in
their place from the start; they play the whole hand with computer players in the other two seats;
one student's tablet fails mid-hand and they pick up another device, which waits, asking again by
itself, until the teacher frees the seat from the console, and then has the same seat and game. Then the teacher
deals one code to every table and compares the results, and the table and the face-up view are
shown on a projector at 1920x1080 (screenshots in test-results/, looked at).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_play import Wire
from tests.browser.test_shared import DEAL, SeatPage, check_frames, saved, seat_model
from tests.conftest import ROOT, Served, serve_server, table_folder

WAIT = 90_000
SHOTS = ROOT / "test-results"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    """The class's server (``--class``: every address, two three-card tables preheated), and the
    address students reach it at: the first the server printed for them."""
    folder = tmp_path_factory.mktemp("class")
    tables = table_folder(folder / "tables", "three-card-loo")
    with serve_server(folder, "--class", "--class-size", "2", "--log-level", "warning", tables=tables) as served:
        said = served.ready()
        found = re.search(r"Students on this network open Lanterloo at:\n\s+(http://[0-9.]+:\d+)/", said)
        if found is None:
            pytest.fail(f"the server printed no network address for students (this machine has none?):\n{said}")
        assert "127.0.0.1" not in found[1]
        yield served, found[1]


def own_cards(page: Page) -> None:
    """The reader's own cards are drawn in their place, face up or (before their turn to declare) face down."""
    mine = page.locator(".loo-at-bottom svg.loo-cards").first
    expect(mine).to_be_visible(timeout=WAIT)
    box = mine.bounding_box()
    assert box is not None and box["width"] > 20 and box["height"] > 20, box


def test_a_class_joins_by_code_and_link_plays_a_hand_and_the_teacher_compares_and_projects(
    browser: Browser, classroom: tuple[Served, str]
) -> None:
    served, lan = classroom
    SHOTS.mkdir(exist_ok=True)
    teacher = browser.new_context(viewport={"width": 1366, "height": 900})
    console = teacher.new_page()
    console.set_default_timeout(WAIT)
    console.goto(served.console_address())  # as the token file's address opens it, on 127.0.0.1
    console.fill(".open-tables input[name=count]", "1")
    console.select_option(".open-tables select[name=game]", "three-card-loo")
    console.fill(".open-tables input[name=people]", "3")
    console.fill(".open-tables input[name=code]", DEAL)
    console.get_by_role("button", name="Open them").click()
    expect(console.locator("a.seat-link").first).to_be_visible()
    links = [a.get_attribute("href") or "" for a in console.locator("a.seat-link").all()]
    codes = [c.inner_text() for c in console.locator(".seat-code strong").all()]
    assert len(links) == len(codes) == 5 and all(link.startswith(f"{lan}/tables/three-card-loo?") for link in links)
    expect(console.locator(".seat-qr svg").first).to_be_visible()
    expect(console.get_by_text(f"{lan}/join", exact=True).first).to_be_visible()
    assert "127.0.0.1" not in console.locator("main").inner_text(), "a loopback address handed out"
    console.screenshot(path=str(SHOTS / "class-console-opened.png"), full_page=True)
    # Printed: a slip for each player (table, seat, the address, the code, a QR code), and nothing else.
    expect(console.get_by_role("button", name="Print the slips")).to_be_visible()
    console.emulate_media(media="print")
    slips = console.locator(".slip")
    expect(slips).to_have_count(3)
    for i in range(3):
        expect(slips.nth(i)).to_be_visible()
        expect(slips.nth(i).locator(".slip-code")).to_have_text(codes[i])
        expect(slips.nth(i).locator("svg")).to_be_visible()
    expect(console.locator("table.seat-links")).to_be_hidden()
    printed = console.locator(".slips").inner_text()
    assert f"{lan}/join" in printed and "127.0.0.1" not in printed and "localhost" not in printed
    console.screenshot(path=str(SHOTS / "class-slips-printed.png"), full_page=True)
    console.emulate_media(media="screen")
    expect(console.locator(".slip").first).to_be_hidden()
    # On the projector: the codes and QR codes large, the links (for copying) left out.
    console.set_viewport_size({"width": 1920, "height": 1080})
    console.get_by_role("button", name="Projector view").click()
    expect(console.locator(".seat-code strong").first).to_be_visible()
    expect(console.locator("a.seat-link").first).to_be_hidden()
    assert console.evaluate("() => getComputedStyle(document.body).zoom") == "2.4"
    console.screenshot(path=str(SHOTS / "class-projector-codes.png"))
    console.set_viewport_size({"width": 1366, "height": 900})
    table_id = re.search(r"table=([A-Za-z0-9_-]{22})", links[0])
    assert table_id is not None

    # Three students, each on a device of their own, at the network address.
    phones = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(3)]
    seats: list[SeatPage] = []
    for i, phone in enumerate(phones):
        page = phone.new_page()
        page.set_default_timeout(WAIT)
        wire = Wire(page)
        if i == 1:  # by the printed link
            page.goto(links[1])
        else:  # by the address they were given, then the code as read off the screen
            page.goto(f"{lan}/")
            assert page.url == f"{lan}/join"
            expect(page.get_by_role("heading", name="Join your table")).to_be_visible()
            expect(page.get_by_text("Today: Three-card Loo")).to_be_visible()
            box = page.get_by_label("Seat code")
            expect(box).to_be_visible()
            box.fill(codes[i].lower() if i == 0 else codes[i].replace("-", " "))
            page.get_by_role("button", name="Join").click()
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        assert page.url.startswith(f"{lan}/tables/three-card-loo?")
        expect(page.locator(".loo-seats-list")).to_contain_text("you", timeout=WAIT)
        seats.append(SeatPage(i, page, wire, links[i]))
    for seat in seats:
        own_cards(seat.page)  # from the start, whose turn it is or not
    seats[0].page.screenshot(path=str(SHOTS / "class-student-phone.png"))

    moves, dropped = 0, False
    while True:
        game = saved(served, table_id[1])
        model = seat_model(game, 0)
        if model.hand.is_over:
            break
        assert model.hand.to_act in (0, 1, 2), "a computer's turn was left unplayed"
        if moves == 2 and not dropped:  # a student's tablet fails (its page gone with no word) ...
            lost = seats[2]
            board = lost.board()
            lost.page.close(run_before_unload=False)
            # ... and they pick up another device: its browser is refused while the seat is still held
            # for the page gone, and waits, asking again by itself, while the teacher frees the seat.
            phones[2].close()
            phones[2] = browser.new_context(viewport={"width": 390, "height": 844})
            back = phones[2].new_page()
            back.set_default_timeout(WAIT)
            response = back.goto(lost.link)
            assert response is not None and response.status == 409
            expect(back.get_by_text("Asking again in")).to_be_visible()
            console.goto(f"{served.base}/console/table/{table_id[1]}")
            free = console.get_by_role("button", name="Free Cat's seat")
            expect(free).to_be_visible()
            free.click()
            expect(console.locator("ul.seats")).to_be_visible()  # the face-up view again (Cat's seat free, or
            # already taken by the waiting device, whose ask may come first)
            # No click on the waiting device: its next ask finds the seat free, and the game as it was.
            expect(back.locator(".loo-board")).to_have_text(board, use_inner_text=True, timeout=30_000)
            expect(back.locator(".loo-seats-list")).to_contain_text("you")
            back.screenshot(path=str(SHOTS / "class-student-back-on-another-device.png"))
            seats[2] = SeatPage(2, back, Wire(back), lost.link)
            dropped = True
        mover = seats[model.hand.to_act or 0]
        before = [s.board() for s in seats]
        mover.page.locator(".loo-choices button.mod-primary").first.click()
        for seat, board in zip(seats, before, strict=True):
            seat.page.wait_for_function(
                "(b) => document.querySelector('.loo-board').innerText !== b", arg=board, timeout=30_000
            )
        moves += 1
        time.sleep(0.2)
        check_frames(seats, saved(served, table_id[1]))
        assert moves < 40
    assert dropped and moves >= 4
    for seat in seats:
        expect(seat.page.locator(".loo-result")).to_be_visible(timeout=WAIT)

    # The teacher compares the tables' results at the deal they began at, then deals one code to every
    # table: a table between hands deals it at once, as a new game (so its game no longer began at DEAL).
    console.goto(f"{served.base}/console")
    console.fill(".results input[name=code]", DEAL)
    console.get_by_role("button", name="Compare the tables").click()
    expect(console.locator("section.table-result", has_text=table_id[1][:6])).to_be_visible()
    # Then where the class gave up most at that deal (issue 31, point 4): the page fills in as the hands
    # are weighed, and the costliest position is a click away, face up, for the projector.
    console.goto(f"{served.base}/console")
    console.fill(".decisions input[name=code]", DEAL)
    console.get_by_role("button", name="Weigh their decisions").click()
    expect(console.get_by_role("heading", name=re.compile("^Where the class gave up most"))).to_be_visible()
    expect(console.locator(".weighing")).to_have_count(0, timeout=WAIT)  # asked again every two seconds
    costliest = console.locator("li.class-mistake").first
    expect(costliest).to_be_visible()
    expect(costliest).to_contain_text("faced this position")
    said = costliest.inner_text()
    assert not re.search(r"\bseat \d+ (declare|play|exchange|call)", said), f"a choice in record words: {said}"
    console.screenshot(path=str(SHOTS / "class-gave-up-most.png"), full_page=True)
    costliest.get_by_role("link", name="Show it face up").click()
    expect(console.locator(".loo-board")).to_be_visible(timeout=WAIT)
    console.screenshot(path=str(SHOTS / "class-gave-up-most-face-up.png"))
    console.goto(f"{served.base}/console")
    console.fill(".deal-every input[name=code]", "l3.peel.s0.n12345")
    console.get_by_role("button", name="Deal it").click()
    expect(console.locator(".dealt")).to_be_visible()
    for seat in seats:  # the new hand reaches every student's table
        expect(seat.page.locator(".loo-result")).to_have_count(0, timeout=WAIT)
        expect(seat.page.locator(".loo-board")).to_be_visible()

    # On a projector: the student's table and the teacher's face-up view, at 1920x1080.
    for name, address in (
        ("class-projector-table", f"{seats[0].link}&projector=1"),
        ("class-projector-face-up", f"{served.base}/console/table/{table_id[1]}?projector=1"),
    ):
        if "console" in address:
            console.set_viewport_size({"width": 1920, "height": 1080})
            page = console
        else:
            page = seats[0].page
            page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(address)
        expect(page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        toggle = page.get_by_role("button", name="Projector view")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(toggle).to_be_visible()
        tallest = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('.loo-board svg.loo-cards')]"
            ".map(e => e.getBoundingClientRect().height))"
        )
        words = page.evaluate(
            "() => { const z = parseFloat(getComputedStyle(document.body).zoom) || 1;"
            " return Math.min(...[...document.querySelectorAll('.loo-board .loo-seat-name, .loo-board p')]"
            ".filter(e => e.getBoundingClientRect().height > 0)"
            ".map(e => parseFloat(getComputedStyle(e).fontSize) * z)); }"
        )
        assert tallest >= 120 and words >= 24, (name, tallest, words)
        page.screenshot(path=str(SHOTS / f"{name}.png"))
        toggle.click()  # and back to the reader's own size, the address without it
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert "projector=1" not in page.url
    for context in (teacher, *phones):
        context.close()
