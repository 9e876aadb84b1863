"""Nothing in a shared seat's reach names a hidden card (issue 28, points 1 and 2).

A seat's page is driven as a browser, or a reader at its developer tools, can drive it: every
control of the kernel, visible or not, gets a click, a value or a choice through its own comm, and
every message the kernel sent the page on its comms (a widget opened, a state changed) is searched
for what the seat may not see while its hand is in play: a hidden card under any name, the hand's
seed, and any deal code, which is decoded (:mod:`widgets.table.dealcode`) and the hands it deals compared
with the hands hidden from the seat. The controls of a reader's own table that would tell them (the
hand's code, the teaching switch, take-back, new game, records loaded) must not exist at all.

A duplicate lesson deals one hand at every table from a code the server keeps: no invitation link
carries it, and a ``deal=`` added to a seat's link changes nothing.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import comm
import ipywidgets as ipw
import pytest
from comm import DummyComm

from loo.core.cards import Card, full_pack
from loo.core.tiles import Tile, full_set
from tests.helpers.seen import visible_to_reader
from widgets.draw.board import piece_label
from widgets.draw.card_style import card_class, card_stylesheet, tile_class
from widgets.kernel.table_router import served_table
from widgets.multiseat.shared_view import SharedLiveTable
from widgets.store.seating import COMPUTER, PERSON, SeatBook
from widgets.store.sqlite import TableStore
from widgets.table.dealcode import DealCode, DealCodeError, parse_deal_code
from widgets.table.model import TableModel

DEAL = "l3.peel.s0.n482910233"  # Peel's single first (settled as dealt), then a hand played on from it
CODE_LIKE = re.compile(r"[A-Za-z0-9-]+\.[A-Za-z0-9_~-]+\.s\d+\.n\d+(?:\.[a-z][a-z0-9]*)*")
SHEETS = (card_stylesheet(), card_stylesheet(four_colour=True))
OWN_TABLE_ONLY = ("This hand's code", "Play this deal", "Take back", "Show all hands", "New game", "Load record")


class Wire:
    """Every comm the kernel opens, and every message it sends on them: what the page receives."""

    def __init__(self) -> None:
        self.comms: dict[str, DummyComm] = {}
        self.sent: list[str] = []

    def create_comm(self, **kwargs: Any) -> DummyComm:
        wire = self

        class Recorded(DummyComm):  # type: ignore[misc]
            def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                            **keys: Any) -> None:  # fmt: skip
                state = (data or {}).get("state") or {}
                if state.get("value") in SHEETS:  # every face drawn, for every reader alike: it tells nothing
                    data = {**data, "state": {**state, "value": "the card sheet"}}
                texts = [bytes(b).decode("utf-8", "replace") for b in buffers or ()]
                wire.sent.append("\n".join([json.dumps([msg_type, data], ensure_ascii=False, default=str), *texts]))

        made = Recorded(**kwargs)
        self.comms[made.comm_id] = made
        return made

    def take(self) -> str:
        text, self.sent = "\n".join(self.sent), []
        return text


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    recording = Wire()
    monkeypatch.setattr(comm, "create_comm", recording.create_comm)
    return recording


def send(widget: ipw.Widget, data: dict[str, Any]) -> None:
    """A message from the page to ``widget``, through its comm, as ipywidgets' front end sends it."""
    if widget.comm is None:  # closed since: the page's message would reach nothing
        return
    widget.comm.handle_msg(
        {"header": {}, "parent_header": {}, "metadata": {}, "buffers": [],
         "content": {"comm_id": widget.comm.comm_id, "data": data}}
    )  # fmt: skip


def pushes(widget: ipw.Widget) -> Iterator[dict[str, Any]]:
    """What a page can send a control of this kind: a click, a switch both ways, each choice, any text."""
    if isinstance(widget, ipw.Button):
        yield {"method": "custom", "content": {"event": "click"}}
    elif isinstance(widget, ipw.ToggleButton | ipw.Checkbox):
        yield {"method": "update", "state": {"value": True}, "buffer_paths": []}
        yield {"method": "update", "state": {"value": False}, "buffer_paths": []}
    elif isinstance(widget, ipw.Tab | ipw.Accordion):
        for index in range(len(widget.children)):
            yield {"method": "update", "state": {"selected_index": index}, "buffer_paths": []}
        yield {"method": "update", "state": {"selected_index": 0}, "buffer_paths": []}
    elif isinstance(widget, ipw.Dropdown | ipw.Select | ipw.RadioButtons | ipw.ToggleButtons):
        for index in range(len(widget.options)):
            yield {"method": "update", "state": {"index": index}, "buffer_paths": []}
    elif isinstance(widget, ipw.Text | ipw.Textarea):
        yield {"method": "update", "state": {"value": "l3.peel.s1.n12345"}, "buffer_paths": []}


def forms(piece: Card | Tile) -> list[re.Pattern[str]]:
    """How a piece may be named in a message: its name, its face's class, its label, its short form."""
    found = [re.escape(piece.name)]
    if isinstance(piece, Card):
        found += [re.escape(card_class(piece)) + r"(?![0-9A-Z])", rf"(?<![0-9A-Za-z]){re.escape(piece_label(piece))}"]
    else:
        found.append(re.escape(tile_class(piece)) + r"(?![0-9])")
    found.append(rf"(?:^|(?<=[\s,(:\"'>\[])){re.escape(str(piece))}(?=$|[\s,.;:)\"'<\]])")
    return [re.compile(f) for f in found]


def holdings(hand: Any, seats: int) -> set[frozenset[str]]:
    return {frozenset(map(str, h)) for s in range(seats) if (h := hand.holding(s))}


def dealt_by(code: DealCode) -> set[frozenset[str]]:
    """Every seat's hand the code lets anyone work out: its deal, and the hands a table deals on from it."""
    model = TableModel(code.game, code=code, rng=random.Random(0))
    found = holdings(model.hand, len(model.names))
    for record in model.records:
        found |= {frozenset(h) for h in record["deal"]["hands"]}
    return found


def leaks(model: TableModel, text: str) -> list[str]:
    """What in ``text`` tells the seat of ``model`` a card it may not see now (nothing once the hand is over)."""
    if model.hand.is_over:
        return []
    pieces: list[Any] = list(full_set()) if model.game.startswith("domino") else list(full_pack())
    hidden = set(pieces) - visible_to_reader(model)
    found = [f"the {p.name}" for p in hidden if any(f.search(text) for f in forms(p))]
    seed = model._seed
    if seed is not None and re.search(rf"(?<!\d){seed}(?!\d)", text):
        found.append(f"the hand's seed {seed}")
    others = {
        frozenset(map(str, h)) for s in range(len(model.names)) if s != model.seat and (h := model.hand.holding(s))
    }
    for match in CODE_LIKE.finditer(text):
        try:
            code = parse_deal_code(match.group())
        except DealCodeError:
            continue
        if dealt_by(code) & others:
            found.append(f"the deal code {match.group()}, which deals another seat's hand")
    return found


def open_seat(store: TableStore, deal: str | None, people: int = 2) -> tuple[str, list[str]]:
    book = SeatBook(store)
    table = store.new_table("three-card-loo")
    return table, book.open_seats(table, [PERSON] * people + [COMPUTER] * (5 - people), deal)


def seat_page(store: TableStore, table: str, token: str, query: str = "") -> SharedLiveTable:
    assert SeatBook(store).claim(table, token, "browser-of-" + token)
    page = served_table("three-card-loo", None, f"table={table}&seat={token}{query}", store=store,
                        browser="browser-of-" + token)  # fmt: skip
    assert isinstance(page, SharedLiveTable), getattr(page, "value", page)
    return page


def test_every_control_of_a_shared_seat_driven_through_its_comm_tells_no_hidden_card(
    wire: Wire, tmp_path: Path
) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    table, tokens = open_seat(store, DEAL)
    page = seat_page(store, table, tokens[0])
    model, follower = page.model, page.follower
    assert follower is not None
    labels = {getattr(w, "description", "") for w in wire_widgets(wire)}
    assert not labels & set(OWN_TABLE_ONLY), (
        f"a reader's own table's controls exist here: {labels & set(OWN_TABLE_ONLY)}"
    )
    assert not any(isinstance(w, ipw.FileUpload) for w in wire_widgets(wire))
    problems = leaks(model, wire.take())
    hands, pushed = {model.hand}, 0
    for _round in range(6):  # every control, again and again, as the game goes on
        done: set[int] = set()
        while pushed < 3000 and (todo := [w for w in wire_widgets(wire) if id(w) not in done]):
            widget = todo[0]  # those made since (the next position's buttons) are driven too
            done.add(id(widget))
            for data in pushes(widget):
                send(widget, data)
                follower.tick()  # the kernel's poll: the other seats, the computers' moves
                pushed += 1
                problems += leaks(model, wire.take())
                hands.add(model.hand)
    assert problems == [], f"a seat was told hidden cards: {sorted(set(problems))[:8]}"
    assert pushed > 200 and len(hands) >= 3, "the page was driven through several hands"


def wire_widgets(wire: Wire) -> list[ipw.Widget]:
    """Every widget whose comm is open: every control in the kernel, shown on the page or not."""
    from ipywidgets.widgets.widget import _instances

    return [w for w in list(_instances.values()) if w.comm is not None and w.comm.comm_id in wire.comms]


def test_the_search_finds_a_deal_code_that_names_the_hidden_cards(wire: Wire, tmp_path: Path) -> None:
    """The search is not blind: a reader's own table that shows its hand's code is caught."""
    from widgets.views.live_table import LiveTable

    table = LiveTable(TableModel("three-card-loo", code=DEAL, rng=random.Random(2)))
    wire.take()
    assert table.codes is not None
    send(table.codes._show, {"method": "custom", "content": {"event": "click"}})
    found = leaks(table.model, wire.take())
    assert any("deal code" in f for f in found) and not table.model.hand.is_over


def test_a_duplicate_lessons_links_carry_no_deal_and_every_table_deals_it(tmp_path: Path) -> None:
    from tests.server.test_console import Asker, console_app, talk

    db = tmp_path / "t.sqlite3"
    body = f"game=three-card-loo&count=3&people=2&code={DEAL}"

    async def scenario(ask: Asker) -> Any:
        return await ask("POST", "/console/open", body, cookie=await ask.sign_in())  # as the console's own form

    opened = talk(console_app(db), scenario)
    assert opened.code == 200
    links = [
        a.replace("&amp;", "&") for a in re.findall(r'class="link seat-link" href="([^"]*)"', opened.body.decode())
    ]
    assert len(links) == 15
    assert not any("deal" in link or "482910233" in link for link in links), "an invitation link names the deal"
    store = TableStore(db)
    dealt = []
    for link in links[::5]:  # each table's first seat, a student who added a deal of their own to the link
        table, seat = re.findall(r"table=([^&]+)&seat=([^&]+)", link)[0]
        page = seat_page(store, table, seat, "&deal=l3.peel.s0.n1")
        dealt.append(holdings(page.model.hand, 5))
    assert dealt[0] == dealt[1] == dealt[2], "every table of the lesson deals the same hands"
    assert dealt[0] & dealt_by(parse_deal_code(DEAL)), "the teacher's deal, not the one added to the link"
