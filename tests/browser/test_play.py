"""Whole hands of every game played in a real browser, as a reader plays them: by mouse, and by keyboard alone.

Each hand is dealt from a deal code, so the test knows the hand it is playing; what the reader
may do and see at each moment is worked out from the engine, by rebuilding the table from the
journal the server saved in its database (``Served.db``) after every action. The reader clicks
(or keys) through the whole hand: a choice or card at each turn, once a card the laws forbid
(the table must say why, naming the law), once a hint (it must name a legal choice), once a
take-back (the board must return to where it was); one game is reloaded mid-hand and played on.
At the end the settlement the table shows is checked against the engine's own result for the
hand (``loo.records.check`` of its record).

Every websocket frame the page receives is captured and decoded (the kernel websocket's binary
v1 protocol, or JSON) and, after every action and at the start, searched for any card or tile the
reader may not see at that moment (by name, face class, button label or the engine's short form).
Two things only are left out, each only where a string is exactly it: the card stylesheet, which
draws every face for everyone (and must come in one widget), and the Rules tab's own words, the
same whatever the deal ("The knave of clubs" names Pam's option; never a piece's name alone).
That the search can fail is shown by turning on the teaching switch, "Show all hands": the other
seats' cards must then be found. The page's HTML is searched too, but for the notebook's prose.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import parse_qs, urlparse

import ipywidgets as ipw
import pytest
from playwright.sync_api import Locator, Page, WebSocket, expect

from loo.core.actions import Action
from loo.core.cards import Card, full_pack
from loo.core.tiles import NUMBER_PLURALS, Tile, full_set
from loo.records import check
from tests.conftest import ROOT, Served
from tests.helpers.seen import visible_to_reader as seen_at_table
from widgets.draw.board import LIST_VERBS, action_label, pam_card, piece_label, piece_name
from widgets.draw.card_style import card_class, card_stylesheet, tile_class
from widgets.store.sqlite import TableStore
from widgets.table.chips import points_words, signed
from widgets.table.hints import describe
from widgets.table.model import TableModel, in_words
from widgets.views.rules_picker import RulesPicker
from widgets.views.table_view import UNDO_FINISHED_TIP

SHOTS = ROOT / "test-results"
WAIT = 90_000  # generous: a table's kernel may still be starting on a busy machine
# The notebook's markdown, as Voila's lab template renders it (headings and paragraphs, no inner div).
# The page's prose, the same for every deal: the notebook's markdown cells and the game in a minute
# (widgets/draw/minute.py: a box ending with its laws' box, "...</details></details>"), which Voila sends
# as an output in a script's JSON, its "<" written \u003c and its quotes \".
PROSE = re.compile(
    r'<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown[^"]*"[^>]*>.*?</div>'
    r'|(?:<|\\u003c)details class=\\?"loo-minute\\?" data-loo-minute=.*?'
    r"(?:</details></details>|\\u003c/details\\u003e\\u003c/details\\u003e)",
    re.DOTALL,
)
STYLESHEETS = frozenset({card_stylesheet(), card_stylesheet(four_colour=True)})
# The law catalogue's prefixes each game's refusals may cite (five-card and Irish Loo follow suit by L3's law).
LAWS = {
    "three-card-loo": ("L3",),
    "five-card-loo": ("L5", "L3"),
    "irish-loo": ("IRL", "L3"),
    "nap": ("NAP",),
    "domino-loo": ("DL",),
    "domino-rounce": ("DR", "DL"),
}


@pytest.fixture(scope="module")
def served(served_site: Served) -> Served:
    """The test process's ``python -m widgets.server`` (tests/conftest.py::served_site), with a database
    of its own; each test reads the journal of its own table."""
    return served_site


# ----- the kernel websocket, as the browser receives it ----------------------------------------


@dataclass
class Message:
    channel: str
    header: dict[str, Any]
    parent: dict[str, Any]
    content: Any
    buffers: list[bytes]


def decode(payload: str | bytes) -> Message:
    """A kernel websocket frame: JSON text, or the binary v1 protocol (widgets/server/sockets.py::_message_parts):
    a count, that many offsets (the last the end), then channel, header, parent header, metadata,
    content and any buffers."""
    if isinstance(payload, str):
        msg = json.loads(payload)
        return Message(msg.get("channel", ""), msg["header"], msg.get("parent_header") or {}, msg["content"], [])
    count = int.from_bytes(payload[:8], "little")
    assert 6 <= count < 1000, f"a frame the test cannot read ({len(payload)} bytes)"
    offsets = [int.from_bytes(payload[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    assert offsets[-1] == len(payload), "a v1 frame ends at its last offset"
    parts = [payload[a:b] for a, b in itertools.pairwise(offsets)]
    header, parent, _metadata, content = (json.loads(p) for p in parts[1:5])
    return Message(parts[0].decode(), header, parent, content, parts[5:])


class Wire:
    """Every frame on the page's kernel websockets, decoded as it arrives; what the page sent on the
    shell channel is answered once the kernel reports itself idle for it."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.inbox: list[Message] = []  # received since the last check
        self.received = 0
        self.sent = 0
        self.socket: WebSocket | None = None
        self._waiting: dict[int, set[str]] = {}  # per socket: shell messages not yet answered
        self.style_models: set[str] = set()  # the widgets whose value was the card stylesheet
        page.on("websocket", self._opened)

    def _opened(self, ws: WebSocket) -> None:
        if "/api/kernels/" not in ws.url:
            return
        self.socket = ws
        self._waiting[id(ws)] = set()
        self.style_models = set()  # a new page has a new kernel, and new widgets
        ws.on("framesent", lambda payload: self._on_sent(ws, payload))
        ws.on("framereceived", lambda payload: self._on_received(ws, payload))

    def _on_sent(self, ws: WebSocket, payload: str | bytes) -> None:
        message = decode(payload)
        self.sent += 1
        if message.channel == "shell":
            self._waiting[id(ws)].add(message.header["msg_id"])

    def _on_received(self, ws: WebSocket, payload: str | bytes) -> None:
        message = decode(payload)
        self.inbox.append(message)
        self.received += 1
        if message.header.get("msg_type") == "status" and message.content.get("execution_state") == "idle":
            self._waiting[id(ws)].discard(message.parent.get("msg_id", ""))

    def answered(self, sent_before: int | None = None) -> None:
        """Wait until the page has sent something since ``sent_before`` (if given) and the kernel has
        finished with every message the page sent it: then every frame it answered with is in."""
        if self.socket is None:
            self.page.wait_for_event("websocket", timeout=WAIT)
        assert self.socket is not None
        while sent_before is not None and self.sent <= sent_before:
            self.socket.wait_for_event("framesent", timeout=WAIT)
        while self._waiting[id(self.socket)]:
            self.socket.wait_for_event("framereceived", timeout=WAIT)

    def take(self) -> list[Message]:
        taken, self.inbox = self.inbox, []
        return taken

    def text(self, messages: list[Message], public: frozenset[str] = frozenset()) -> str:
        """All the messages say, as one text: every widget state and every buffer, with the card
        stylesheet's value left out wherever it is exactly that stylesheet, and any string exactly
        one of ``public`` (the rules' own words, the same for every deal) left out too."""
        out = []
        for message in messages:
            content = without(json.loads(json.dumps(message.content)), public)
            data = content.get("data") if isinstance(content, dict) else None
            states: list[tuple[str, dict[str, Any]]] = []
            if isinstance(data, dict) and isinstance(data.get("states"), dict):  # update_states: every widget
                states = [(mid, s.get("state") or {}) for mid, s in data["states"].items()]
            elif isinstance(data, dict) and isinstance(data.get("state"), dict):  # comm_open or update: one
                states = [(content.get("comm_id", ""), data["state"])]
            for model_id, state in states:
                if isinstance(state.get("value"), str) and state["value"] in STYLESHEETS:
                    self.style_models.add(model_id)
                    state["value"] = "(the card stylesheet)"
            out.append(json.dumps(content, ensure_ascii=False))
            out.extend(b.decode("utf-8", errors="replace") for b in message.buffers)
        assert len(self.style_models) <= 1, f"the card stylesheet is in more than one widget: {self.style_models}"
        return "\n".join(out)


def without(value: Any, public: frozenset[str]) -> Any:
    """``value`` (decoded JSON) with every string that is exactly one of ``public`` blanked."""
    if isinstance(value, str):
        return "(public)" if value in public else value
    if isinstance(value, list):
        return [without(v, public) for v in value]
    if isinstance(value, dict):
        return {k: without(v, public) for k, v in value.items()}
    return value


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)


def widgets_under(widget: ipw.Widget) -> Iterator[ipw.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from widgets_under(child)


@functools.cache
def rules_words(game: str, rules: str) -> frozenset[str]:
    """Every string the Rules tab holds for ``game`` and ``rules`` (JSON) whatever the deal, such as
    Pam's option, "The knave of clubs"; never a string that is a piece's name or label alone."""

    def strings(seed: int) -> set[str]:
        picker = RulesPicker(TableModel(game, rules=json.loads(rules), seed=seed))
        return {s for w in widgets_under(picker) for s in strings_in(w.get_state())}

    pieces = pieces_of(game)
    return frozenset(s for s in strings(1) & strings(2) if not any(f.fullmatch(s) for p in pieces for f in forms(p)))


def pieces_of(game: str) -> list[Card] | list[Tile]:
    return list(full_set()) if game.startswith("domino") else list(full_pack())


@functools.cache
def forms(piece: Card | Tile) -> tuple[re.Pattern[str], ...]:
    """How a piece could show up in a frame: its name ("queen of hearts", "six-three"), the class that
    paints its face, its button label ("Q♥"), or its short form in the engine's messages ("Ann holds
    QH, so ...", "not 6-3"), the last only between the marks that set off a word in a sentence."""
    found = [re.escape(piece.name)]
    if isinstance(piece, Card):
        found += [re.escape(card_class(piece)) + r"(?![0-9A-Z])", rf"(?<![0-9A-Za-z]){re.escape(piece_label(piece))}"]
    else:
        found.append(re.escape(tile_class(piece)) + r"(?![0-9])")
    found.append(rf"(?:^|(?<=[\s,(:\"'>])){re.escape(str(piece))}(?=$|[\s,.;:)\"'<])")
    return tuple(re.compile(f) for f in found)


def visible_to_reader(model: TableModel) -> set[object]:
    """What the reader's seat may see now (tests.helpers.seen); once the hand is over, every piece
    (its record is public)."""
    if model.hand.is_over:
        return set(pieces_of(model.game))
    return seen_at_table(model)


def named_in(text: str, pieces: list[Card] | list[Tile] | set[Any]) -> set[Any]:
    return {p for p in pieces if any(f.search(text) for f in forms(p))}


# ----- the table in the page, and the game as the server saved it -------------------------------


def picked(action: Action) -> bool:
    """Chosen by picking pieces and confirming (an exchange), as the table offers it."""
    return action.verb in LIST_VERBS and not (action.verb == "garnet" and not action.value)


def button_name(action: Action, pam: Card | None) -> str:
    """The name the table gives the button of ``action``: a piece's name, or the choice in words."""
    if action.verb != "play":
        return action_label(action)
    name = piece_name(action.value, pam)
    return f"{name}, led as {NUMBER_PLURALS[action.suit]}" if action.suit is not None else name


def choose(model: TableModel) -> Action:
    """The reader's choice: stand when asked, exchange the first card, play the first legal piece in
    hand order (the first way it may be led); otherwise the first choice offered."""
    view = model.view()
    legal = list(view.legal)
    picks = [a for a in legal if picked(a)]
    if picks:
        first = (view.hand[0],)
        return next((a for a in picks if a.value == first), next(a for a in picks if not a.value))
    stand = [a for a in legal if a.verb == "declare" and a.value == "stand"]
    if stand:
        return stand[0]
    plays = [a for a in legal if a.verb == "play"]
    for piece in view.hand or ():
        for action in plays:
            if action.value == piece:
                return action
    return legal[0]


def illegal_pieces(model: TableModel) -> list[Any]:
    """The pieces the reader holds but may not play now (none unless it is the reader's turn to play)."""
    view = model.view()
    playable = {a.value for a in view.legal if a.verb == "play"}
    return [p for p in view.hand or () if playable and p not in playable] if playable else []


@dataclass
class Table:
    page: Page
    served: Served
    game: str
    wire: Wire = field(init=False)
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    checks: int = 0

    def __post_init__(self) -> None:
        self.page.set_default_timeout(WAIT)
        self.wire = Wire(self.page)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("response", lambda r: self.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("websocket", lambda ws: self.requests.append(ws.url))

    def done(self) -> None:
        """No error in the page, no failed request, and no request to any host but the server's."""
        assert self.errors == [], self.errors
        outside = [u for u in self.requests if urlparse(u).scheme not in ("data", "blob", "about")]
        outside = [u for u in outside if urlparse(u).hostname != "127.0.0.1"]
        assert outside == [], f"requests left 127.0.0.1: {outside}"

    # --- the page ---

    def open(self, code: str) -> None:
        response = self.page.goto(f"{self.served.base}/tables/{self.game}?deal={code}", timeout=WAIT)
        assert response is not None and response.ok
        expect(self.page.locator(".loo-board")).to_be_visible(timeout=WAIT)
        self.wire.answered()
        model = self.model()
        # The page itself, as served, names no hidden piece either, but for its prose (the notebook's
        # markdown, the same for every deal: "Pam, the knave of clubs, is the highest trump").
        html, prose = PROSE.subn("", response.text())
        assert prose >= 1, "the table page's prose was not found: the pattern no longer fits the template"
        hidden = set(pieces_of(self.game)) - visible_to_reader(model)
        assert named_in(html, hidden) == set(), "a hidden piece is in the page's HTML"
        # The check can see pieces: the reader's own, which the frames name, are found by it.
        own = set(model.view().hand or ())
        assert own and named_in(self.wire.text(self.wire.inbox, self.public(model)), own) == own
        # The page links the plain card sheet, so no widget carries it (the four-colour one would come
        # in one widget, and only there would it be let by).
        assert self.wire.style_models == set(), "the plain card sheet came in a widget, not with the page"
        self.check_frames()

    @property
    def table_id(self) -> str:
        return parse_qs(urlparse(self.page.url).query)["table"][0]

    def board(self) -> str:
        return self.page.locator(".loo-board").inner_text()

    def status(self) -> Locator:
        return self.page.locator(".loo-table-view div[role=status][aria-live=polite]")

    def choices(self) -> Locator:
        return self.page.locator(".loo-choices")

    def events(self) -> list[dict[str, Any]]:
        with TableStore(self.served.db) as store:
            return store.load(self.table_id).events

    def count(self) -> int:
        with TableStore(self.served.db) as store:
            return store.count(self.table_id)

    def model(self) -> TableModel:
        """The game as the server saved it, rebuilt by the engine from its journal."""
        return TableModel(journal=self.events())

    # --- acting and checking ---

    def do(self, act: Callable[[], None], *, check: bool = True, adds: int = 0) -> TableModel:
        """Take one action in the page; wait for the kernel to finish with it, and for the store to hold
        the ``adds`` events it saves (a move, a take-back, the next deal: one); check what reached the page.
        The kernel writes on a thread of its own and answers a click once the write is done or after
        50 ms (widgets.table.saving.SAVE_WAIT_SECONDS): on a busy machine the write may land just after."""
        sent, before = self.wire.sent, self.count() if adds else 0
        act()
        self.wire.answered(sent)
        deadline = time.monotonic() + WAIT / 1000
        while adds and self.count() < before + adds:
            assert time.monotonic() < deadline, f"the store has {self.count()} events, not {before + adds}"
            time.sleep(0.02)
        return self.check_frames() if check else self.model()

    def public(self, model: TableModel) -> frozenset[str]:
        return rules_words(model.game, json.dumps(model.rules.to_record(), sort_keys=True))

    def check_frames(self) -> TableModel:
        """No frame received since the last check names a piece the reader may not see now."""
        model = self.model()
        messages = self.wire.take()
        hidden = set(pieces_of(self.game)) - visible_to_reader(model)
        leaked = named_in(self.wire.text(messages, self.public(model)), hidden)
        assert leaked == set(), f"hidden pieces reached the browser: {sorted(map(str, leaked))}"
        self.checks += 1
        return model

    def reload_mid_hand(self) -> TableModel:
        """Reload the page: the same game at the same point, from the saved journal, in a new kernel."""
        board, saved, table_id = self.board(), self.count(), self.table_id
        sent = self.wire.sent
        self.page.reload(timeout=WAIT)
        expect(self.page.locator(".loo-board")).to_have_text(board, use_inner_text=True, timeout=WAIT)
        self.wire.answered(sent)
        model = self.check_frames()  # the whole state again, in the new kernel's first frames
        assert self.table_id == table_id and self.count() == saved
        assert self.wire.style_models == set()
        return model

    def shows_the_turn_of(self, model: TableModel) -> None:
        """The page offers what the engine allows: a live button per legal choice, a marked one per
        piece held that may not be played, toggles to pick pieces where an exchange is picked."""
        view = model.view()
        pam = pam_card(view)
        legal = [a for a in view.legal if not picked(a)]
        plays = [a for a in legal if a.verb == "play"]
        live = [button_name(a, pam) for p in view.hand or () for a in plays if a.value == p] if plays else []
        live += [button_name(a, pam) for a in legal if a.verb != "play"]
        expect(self.choices().locator("button.mod-primary")).to_have_text(live)
        marked = [piece_name(p, pam) for p in illegal_pieces(model)]
        expect(self.choices().locator("button.loo-illegal")).to_have_text(marked)
        if any(picked(a) for a in view.legal):
            # the reader's own cards, each a toggle named for its card, then the button that confirms
            expect(self.page.locator(".loo-picks button")).to_have_text(
                [piece_name(p, pam) for p in view.hand] + [LIST_VERBS[next(a for a in view.legal if picked(a)).verb]]
            )

    def settlement_shown(self, model: TableModel) -> None:
        """The line the table shows at the end: each seat's chips won or paid and the pool carried,
        as the engine's replay of the hand's record settles it."""
        record = model.record()
        assert record is not None
        code, result = check(json.dumps(record))
        assert code == 0 and result["complete"], result
        names = model.names
        if "settlement" in result:  # Nap: what each seat is paid, stakes and all
            gain = list(result["settlement"])
        else:
            gain = [paid - looed for paid, looed in zip(result["payouts"], result["loos"], strict=True)]
        # What each seat put into the pool at the deal, as the game's ledger booked it: the pool dealt.
        staked = dict.fromkeys(names, 0)
        for entry in model.table_game.ledger:
            if entry.hand == 0 and entry.why in ("deal", "ante"):
                staked[entry.player] += entry.amount
        assert sum(staked.values()) == record["pool"], (staked, record["pool"])
        net = {name: gain[seat] - staked[name] for seat, name in enumerate(names)}
        # Each player named with the parts of their chips and the net, stakes included (widgets.table.chips).
        said = [
            rf"{name}: (no chips in or out: 0|[^;]*: {re.escape(signed(amount))})(;|\.)" for name, amount in net.items()
        ]
        tail = f"The pool carries {result.get('next_pool', 0)} chips to the next hand."
        if not (record["pool"] or result.get("next_pool") or "settlement" not in result):
            tail = ""  # Nap without a kitty: no pool
        if result.get("points") is not None:  # Rounce: no chip moves; each seat's score, from 15 down, does
            start = model.rules.game_points
            said = [
                rf"{name}: {re.escape(points_words(p, 'rounce'))}, now {start + p}"
                for name, p in zip(names, result["points"], strict=True)
            ]
            tail = "(lower is better: everyone starts on 15 and the first down to 0 wins)."
        result_line = self.page.locator(".loo-result")
        expect(result_line).to_be_visible()
        shown = result_line.inner_text()
        assert shown.startswith("Hand 1 is over. "), shown
        for pattern in said:
            assert re.search(pattern, shown), (shown, pattern)
        assert tail in shown, (shown, tail)

    def shot(self, name: str) -> None:
        SHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def refused_with_its_law(table: Table, model: TableModel, piece: Any, *, keyboard: bool = False) -> None:
    """The status says why ``piece`` may not be played, in the engine's words, naming the law."""
    status = table.status()
    why = model.why(Action(model.seat, "play", piece))
    cited = re.search(rf"\((?P<id>(?:{'|'.join(LAWS[table.game])})-[A-Z0-9-]+): [^()]+\)$", why)
    assert cited, why  # the engine names the law and its sources
    # On the table the law is a reference (its ID) that opens a panel with its words and sources.
    shown = why[: cited.start()] + f"({cited['id']})"
    expect(status).to_have_text(shown, use_inner_text=True)
    said = status.inner_text()
    assert said.startswith("Not allowed: "), said
    assert in_words(said) == said, f"a piece named by its record code, not in words: {said}"
    reference = status.locator("details.loo-law > summary")
    expect(reference).to_have_count(1)
    expect(reference).to_be_visible()
    panel = status.locator(".loo-law-panel")
    expect(panel).to_be_hidden()
    if keyboard:  # the reference is a control of its own: Enter opens and closes it
        focused = table.page.evaluate_handle("document.activeElement")
        reference.focus()
        table.page.keyboard.press("Enter")
    else:
        reference.click()
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Source: ")
    if keyboard:
        table.page.keyboard.press("Enter")
        was = focused.as_element()
        assert was is not None
        was.focus()  # back where the reader was (as Shift+Tab would take them)
    else:
        reference.click()
    expect(panel).to_be_hidden()


def hint_names_a_legal_choice(table: Table, model: TableModel) -> None:
    status = table.status()
    expect(status).to_contain_text("Hint: ")
    said = re.match(r"Hint: (.+?)\. The reasons and every choice's value are below\.$", status.inner_text())
    assert said, status.inner_text()
    pam = pam_card(model.view())
    assert said.group(1) in {describe(a, pam) for a in model.legal()}, said.group(1)
    box = table.page.locator(".loo-hint-box")  # and below the controls every choice, valued
    expect(box).to_contain_text(said.group(1))
    assert box.locator("li").count() >= 1


# ----- whole hands by clicking ---------------------------------------------------------------------

# Each deal puts a card or tile the reader may not play in the reader's hand at some turn, with the
# choices above (the finder that picked them replays them with the rule-of-thumb bots, which choose
# without chance, so the hand is the same every time; the test still works each turn out afresh).
CLICKED = [
    # a later hand of a game (Cat deals, nine chips in the pool); Ann must follow spades at trick one
    ("three-card-loo", "l3.peel.s0.n987654.d2.p9.knormal", "teach"),
    # Pam: Ann stands, exchanges a card, and later holds clubs and spades when hearts are led
    ("five-card-loo", "l5.pam.s0.n1", ""),
    # the reader is Cat (seat 2): she stands, exchanges, and must follow spades in the second trick
    ("irish-loo", "il.irish.s2.n1", ""),
    # the reader is Ben (seat 1), the eldest hand: he passes, then must follow diamonds
    ("nap", "nap.hoffmann.s1.n4242", ""),
    # the reader is Ben: he must lead a trump where he holds two, and follow suit later; reloaded mid-hand
    ("domino-loo", "dl.celko.s1.n6", "reload"),
    # the reader is Cat: the same duty to lead a trump, at Rounce, scored in points
    ("domino-rounce", "dr.rounce.s2.n3", ""),
]


@pytest.mark.parametrize(("game", "code", "extra"), CLICKED, ids=[g for g, _, _ in CLICKED])
def test_a_whole_hand_by_clicking_with_no_hidden_piece_in_any_frame(
    page: Page, served: Served, game: str, code: str, extra: str
) -> None:
    table = Table(page, served, game)
    table.open(code)
    play_a_whole_hand_by_clicking(table, reload=extra == "reload")
    table.shot(f"play-{game}")
    if extra == "teach":
        teaching_shows_every_hand(table, code)
    assert table.checks >= 6
    table.done()


def play_a_whole_hand_by_clicking(table: Table, *, reload: bool = False) -> TableModel:
    """Play the hand in play to its end by clicking, as a reader would: on the way a card the laws
    forbid is refused with its law, a hint names a legal choice, a card played is taken back, and
    (``reload``) the page is reloaded mid-hand and the game goes on from where it was. The table's
    page shows what the engine allows at every turn, and the settlement at the end."""
    page = table.page
    refused = hinted = taken_back = reloaded = False
    model = table.model()
    for _turn in range(40):
        if model.hand.is_over:
            break
        table.shows_the_turn_of(model)
        pam = pam_card(model.view())
        status = table.status()
        wrong = illegal_pieces(model)
        if wrong and not refused:
            # A card the laws forbid: refused with the reason and its law; nothing changes.
            before, saved = table.board(), table.count()
            model = table.do(table.choices().get_by_role("button", name=piece_name(wrong[0], pam), exact=True).click)
            refused_with_its_law(table, model, wrong[0])
            assert table.board() == before and table.count() == saved
            refused = True
            # A hint now names a legal choice (never the card just refused).
            model = table.do(page.locator(".loo-hint").click)
            hint_names_a_legal_choice(table, model)
            table.shot(f"hint-{table.game}")
            hinted = True
        action = choose(model)
        view_before, board_before, saved = model.view(), table.board(), table.count()
        if picked(action):
            for piece in action.value:
                toggle = page.locator(".loo-picks").get_by_role("button", name=piece_name(piece, pam), exact=True)
                table.do(toggle.click)
                expect(toggle).to_have_class(re.compile(r"\bmod-active\b"))
            name = LIST_VERBS[action.verb]
            model = table.do(page.locator(".loo-picks").get_by_role("button", name=name, exact=True).click, adds=1)
        else:
            button = table.choices().get_by_role("button", name=button_name(action, pam), exact=True)
            model = table.do(button.click, adds=1)
        last = table.events()[-1]
        assert last["type"] == "act" and last["action"] == action.to_record() and table.count() == saved + 1
        if not model.hand.is_over:
            expect(page.locator(".loo-board")).not_to_have_text(board_before, use_inner_text=True)
        if action.verb == "play" and not taken_back:
            # Take it back: the board, the choices and the game return to where they were.
            model = table.do(page.locator(".loo-undo").click, adds=1)
            expect(status).to_have_text("Taken back.")
            expect(page.locator(".loo-board")).to_have_text(board_before, use_inner_text=True)
            assert model.view() == view_before and table.events()[-1]["type"] == "undo"
            taken_back = True
            continue
        if reload and taken_back and not reloaded and not model.hand.is_over:
            # Reload mid-hand: the same game at the same point, from the saved journal; then play on.
            model = table.reload_mid_hand()
            reloaded = True
    assert model.hand.is_over, "the hand did not end"
    assert refused and hinted and taken_back, (refused, hinted, taken_back)
    assert reloaded or not reload
    expect(page.locator(".loo-next")).to_be_enabled()
    table.settlement_shown(model)
    return model


def teaching_shows_every_hand(table: Table, code: str) -> None:
    """The search for hidden pieces can fail: deal a hand from the code box (checked: nothing hidden
    shows), then turn on "Show all hands": every card the other seats hold must then be found."""
    page = table.page
    box = page.locator(".loo-code-input input")
    # typed key by key as fast as the browser takes them: the box sends its value on Enter (or on leaving
    # it), so no echo of an early key can overwrite a later one
    table.do(lambda: (box.press_sequentially(code), box.press("Enter")))
    expect(box).to_have_value(code)
    table.do(page.locator(".loo-play-code").click)
    # the hand played is in the ledger: the table asks before the deal replaces the game (issue 27)
    model = table.do(page.get_by_role("button", name="Yes, play this deal").click)
    expect(page.locator(".loo-result")).to_have_count(0)
    assert str(model.deal_code()) == code, (str(model.deal_code()), code)  # the deal typed, every key of it
    assert not model.hand.is_over and model.view().hand
    others = {c for p in range(len(model.names)) if p != model.seat for c in model.hand.holding(p)}
    table.do(page.get_by_role("button", name="Show all hands").click, check=False)
    expect(page.locator("[aria-label*='face up for teaching']").first).to_be_visible()
    hidden = set(pieces_of(table.game)) - visible_to_reader(model)
    found = named_in(table.wire.text(table.wire.take(), table.public(model)), hidden)
    assert others and found >= others, f"not found in the frames: {sorted(map(str, others - found))}"


# ----- whole hands from the keyboard alone ---------------------------------------------------------

KEYED = [
    # a later hand: Ann stands, then must follow suit twice
    ("three-card-loo", "l3.peel.s0.n12.d2.p9.knormal"),
    # Ann, the eldest hand, calls two (the third choice) and makes it; she must follow suit in the second trick
    ("nap", "nap.hoffmann.s0.n3"),
    # Ann leads the six-two, her first tile, as a two (key 1, then the arrow to its second suit), where
    # the six-five, her second, has a single button; she must follow suit in the third and fifth tricks
    ("domino-loo", "dl.celko.s0.n1"),
    # Pam: Ann stands, walks along her cards to the last, the eight of spades, picks it with Space and
    # exchanges it (Tab to Exchange, Enter); she must follow spades in the second trick
    ("five-card-loo", "l5.pam.s0.n4"),
    # the reader is Ben (seat 1): he stands, exchanges his last card, the eight of hearts, and must
    # follow hearts in the second trick
    ("irish-loo", "il.irish.s1.n3"),
    # Ann takes a dummy of seven tiles (the arrows, Enter) and throws out two to keep five: the five-two
    # by the arrows and Space, the five-three by its digit, 7; she must follow twos in the second trick
    ("domino-rounce", "dr.rounce.s0.n3"),
]
# What the arrow keys move along (table-keys.js): the choices, and in an exchange the pieces to pick
# and the button that confirms.
ALONG = ".loo-choices button:not([disabled]), .loo-picks button:not([disabled])"


def keyed_choice(model: TableModel) -> Action:
    """The keyboard reader's choice: as :func:`choose`, but a call of two tricks at Nap, a dummy taken
    at Rounce, in an exchange the fewest pieces and the last in the hand (so that the arrows walk to
    them), and a tile that may lead either of its suits led as its second, so that the arrow keys
    choose more than the first."""
    legal = model.legal()
    call = [a for a in legal if a.verb == "call" and a.value == "2"]
    if call:
        return call[0]
    held = list(model.view().hand or ())
    picks = [a for a in legal if picked(a) and a.value]
    if picks:
        return min(picks, key=lambda a: (len(a.value), sorted(-held.index(p) for p in a.value)))
    dummy = [a for a in legal if a.verb == "declare" and a.value == "miss"]
    if dummy and model.game == "domino-rounce":
        return dummy[0]
    action = choose(model)
    if action.verb == "play" and action.suit is not None:
        return [a for a in legal if a.verb == "play" and a.value == action.value][-1]
    return action


def walk_to(page: Page, target: Locator, *, wrap: bool = False) -> None:
    """Move the focus along the choices with the arrow keys until it rests on ``target``; with
    ``wrap``, first go left from the first choice round to the last."""
    script = f"(el) => [...document.querySelectorAll('{ALONG}')].indexOf(el)"
    along = page.locator(ALONG)
    want, count = target.evaluate(script), along.count()
    at = page.evaluate(f"({script})(document.activeElement)")
    if at < 0:  # nothing chosen yet: the first arrow key lands on the first choice
        page.keyboard.press("ArrowRight")
        at = 0
        expect(along.first).to_be_focused()
    if wrap:
        page.keyboard.press("ArrowLeft")
        at = count - 1
        expect(along.last).to_be_focused()
    for _ in range(abs(want - at)):
        page.keyboard.press("ArrowRight" if want > at else "ArrowLeft")
    expect(target).to_be_focused()


@pytest.mark.parametrize(("game", "code"), KEYED, ids=[g for g, _ in KEYED])
def test_a_whole_hand_from_the_keyboard_alone(page: Page, served: Served, game: str, code: str) -> None:
    no_pointer(page)
    table = Table(page, served, game)
    table.open(code)
    play_a_whole_hand_from_the_keyboard(table)
    table.shot(f"keys-{game}")
    table.done()


def no_pointer(page: Page) -> None:
    """Count any use of a pointer at all: the reader here has a keyboard only."""
    page.add_init_script(
        "window.__pointer = 0; for (const t of ['pointerdown', 'mousedown', 'wheel'])"
        " addEventListener(t, () => { window.__pointer += 1; }, true);"
    )


def exchange_from_the_keyboard(table: Table, action: Action, held: list[Any], pam: Card | None) -> TableModel:
    """Pick the pieces of ``action`` (an exchange, or Rounce's throw-out after a dummy) and confirm it,
    as a keyboard reader does: the focus is on the first piece to pick; the arrows walk to the first
    piece wanted and Space picks it (Enter puts it back, and picks it again); any other is picked by
    its digit; Tab goes on to the button that confirms (the last piece picked is the last in the
    hand), and Enter takes it."""
    page, keys = table.page, table.page.keyboard
    picks = page.locator(".loo-picks")
    expect(picks.get_by_role("button", name=piece_name(held[0], pam), exact=True)).to_be_focused()
    for n, piece in enumerate(action.value):
        toggle = picks.get_by_role("button", name=piece_name(piece, pam), exact=True)
        if n == 0:  # Space picks it, Enter puts it back, Enter picks it again
            walk_to(page, toggle)
            table.do(partial(keys.press, "Space"))
            expect(toggle).to_have_class(re.compile(r"\bmod-active\b"))
            table.do(partial(keys.press, "Enter"))
            expect(toggle).not_to_have_class(re.compile(r"\bmod-active\b"))
            table.do(partial(keys.press, "Enter"))
        else:
            table.do(partial(keys.press, str(held.index(piece) + 1)))
        expect(toggle).to_have_class(re.compile(r"\bmod-active\b"))
        expect(toggle).to_be_focused()  # picking redraws nothing: the focus stays where it was
    # only the pieces wanted are picked
    expect(picks.locator(".loo-pick.mod-active")).to_have_count(len(action.value))
    # the pieces wanted are the last in the hand (keyed_choice): one Tab from the last reaches the button
    keys.press("Tab")
    expect(picks.get_by_role("button", name=LIST_VERBS[action.verb], exact=True)).to_be_focused()
    return table.do(partial(keys.press, "Enter"), adds=1)


def play_a_whole_hand_from_the_keyboard(table: Table) -> TableModel:
    """Play the hand in play to its end with the keyboard alone: a forbidden card's digit refused with
    its law, H for a hint, the arrows and Enter for a declaration or call, the arrows, Space, a digit,
    Tab and Enter for an exchange (:func:`exchange_from_the_keyboard`), U to take a card back, and N
    to deal the next hand at the end; no pointer is used (see :func:`no_pointer`)."""
    page = table.page
    keys = page.keyboard
    status = table.status()
    refused = hinted = taken_back = False
    model = table.model()
    turns = 0
    for _turn in range(40):
        if model.hand.is_over:
            break
        table.shows_the_turn_of(model)
        if turns:  # after a move the focus is back on the choices (or the pieces to pick), with no Tab through the page
            expect(page.locator(".loo-choices button:focus, .loo-picks button:focus")).to_have_count(1)
        turns += 1
        pam = pam_card(model.view())
        held = list(model.view().hand or ())
        wrong = illegal_pieces(model)
        if wrong and not refused:
            # The digit of a card the laws forbid: refused, with the reason and its law.
            model = table.do(partial(keys.press, str(held.index(wrong[0]) + 1)))
            refused_with_its_law(table, model, wrong[0], keyboard=True)
            refused = True
        if not hinted and any(a.verb == "play" for a in model.legal()):
            model = table.do(partial(keys.press, "h"))
            hint_names_a_legal_choice(table, model)
            hinted = True
        action = keyed_choice(model)
        board_before, view_before, saved = table.board(), model.view(), table.count()
        digit = str(held.index(action.value) + 1) if action.verb == "play" else ""
        if digit and action.suit is None:
            model = table.do(partial(keys.press, digit), adds=1)
        elif picked(action):  # an exchange: pick the pieces, then confirm
            model = exchange_from_the_keyboard(table, action, held, pam)
        elif digit:  # a tile that may lead either suit: its digit picks it, the arrows choose the suit
            keys.press(digit)
            expect(page.locator(f".loo-choices .loo-slot-{digit}").first).to_be_focused()
            walk_to(page, table.choices().get_by_role("button", name=button_name(action, pam), exact=True))
            model = table.do(partial(keys.press, "Enter"), adds=1)
        else:  # a declaration or a call: walk to it with the arrow keys, take it with Enter
            target = table.choices().get_by_role("button", name=button_name(action, pam), exact=True)
            walk_to(page, target, wrap=turns == 1)
            model = table.do(partial(keys.press, "Enter"), adds=1)
        last = table.events()[-1]
        assert last["type"] == "act" and last["action"] == action.to_record() and table.count() == saved + 1
        if action.verb == "play" and not taken_back:
            model = table.do(partial(keys.press, "u"), adds=1)
            expect(status).to_have_text("Taken back.")
            expect(page.locator(".loo-board")).to_have_text(board_before, use_inner_text=True)
            assert model.view() == view_before and table.events()[-1]["type"] == "undo"
            taken_back = True
    assert model.hand.is_over, "the hand did not end"
    assert refused and hinted and taken_back, (refused, hinted, taken_back)
    table.settlement_shown(model)
    # U on a finished hand is refused, saying why: every card of it has been seen.
    keys.press("u")
    expect(status).to_have_text(UNDO_FINISHED_TIP)
    # N deals the next hand.
    model = table.do(partial(keys.press, "n"), adds=1)
    assert table.events()[-1]["type"] == "deal" and len(model.hand_lines()) >= 1
    assert page.evaluate("window.__pointer") == 0, "a pointer was used"
    return model
