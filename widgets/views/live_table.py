"""A whole live table: the table itself, a step-through of the finished hand, the ledger and the rules.

Each part is a view of the one :class:`~widgets.table.model.TableModel`; this module only lays them
out in tabs and wires the review button and the deal codes (the hand's code, shown when asked
for, and a box to play a code's deal). The constructor never displays.
Which table a request gets is :mod:`widgets.kernel.table_router`'s.

>>> table = live_table("nap", seed=3, rng=random.Random(3))
>>> [table.tabs.get_title(i) for i in range(len(table.tabs.children))]
['Table', 'Review', 'Ledger', 'Rules']
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import escape
from typing import Any
from urllib.parse import quote

import ipywidgets as ipw

from loo.core.protocols import Hand
from loo.records import record_type
from loo.review import HandReview
from widgets.draw.law_refs import with_law_refs
from widgets.table.dealcode import DealCodeError, parse_deal_code
from widgets.table.model import TableModel
from widgets.views.ledger_view import LedgerView
from widgets.views.practice_view import PracticeView
from widgets.views.replacing import Replacing
from widgets.views.review_view import HandWeighing, review_notes, weighing_hand
from widgets.views.rules_picker import RulesPicker
from widgets.views.safety import guarded
from widgets.views.shared import AUTO_WIDTH, ROW, button, lean, own_layout, shared_layout
from widgets.views.step_viewer import StepViewer
from widgets.views.table_view import TableView

log = logging.getLogger("lanterloo.widgets.views.live_table")

REVIEW_WAIT = "The review opens when the hand is over: until then it would show the other hands."
CODE_WARNING = (
    "Anyone with this code can deal this very hand, every card of it: give it to a class before the "
    "hand is played, never to someone you are playing against."
)
NO_TABLE = (
    "There is no table at this address. The link may be mistyped or cut short, or the game was "
    "left unplayed so long that it has been cleared away."
)
DATABASE_AWAY = (
    "The server cannot reach the database where the games are kept just now, so this table cannot be "
    "opened. Nothing saved is lost: reload this page in a minute."
)
STORE_AWAY = (
    "This table's game cannot be read just now: the server cannot reach the disk where it keeps the "
    "games (its log says why). Nothing saved is lost: reload this page in a minute."
)
SERVER_DB_ENV = "LANTERLOO_DB"
"""Where the server names its database to its kernels (``widgets.server.app``): a table page with no
table id in a kernel that has it is one the server could not give a place among its saved games."""


REVIEW_TAB, LEDGER_TAB, RULES_TAB = 1, 2, 3  # the tabs' places, as LiveTable lays them out


def server_address(game: str, deal: str | None = None) -> str:
    """The address of a new table of ``game`` (at ``deal``'s hand, if given) on the Lanterloo server,
    under its base URL (``lanterloo --base-url``; Voila tells its kernels as ``VOILA_BASE_URL``)."""
    base = os.environ.get("VOILA_BASE_URL") or "/"
    return f"{base}tables/{quote(game)}" + (f"?deal={quote(deal)}" if deal else "")


@dataclass(frozen=True)
class Home:
    """Where the tables run, as far as their pages tell: the server's tables, or the reader's browser."""

    address: Callable[[str, str | None], str]
    """The address of a new table of a game, at a deal code's hand if one is given."""
    saved_note: str
    """What a saved table says about how the game is kept."""


SERVER = Home(
    server_address,
    "This game is saved as you play: this page's address brings it back, after a reload or another day.",
)
home = SERVER
"""The tables' home in this process: :data:`SERVER`, unless :mod:`widgets.kernel.inpage` made it the browser."""


class LiveTable(ipw.VBox):  # type: ignore[misc]
    """The table, the review of the last hand, the game's ledger and the rules picker, in tabs."""

    def __init__(
        self,
        model: TableModel,
        *,
        saved: bool = False,
        shared: bool = False,
        weigh: Callable[[Any, int], Iterator[HandReview]] = weighing_hand,
    ) -> None:
        """``shared``: a seat of a shared table, which has no deal codes (the hand's code names every
        card of it; a deal is the teacher's) and none of the controls of a reader's own table.
        ``weigh``: how the Review tab weighs a finished hand (:func:`~widgets.views.review_view.weighing_hand`)."""
        self.model = model
        self.table = TableView(model, shared=shared)
        self.codes: DealCodes | None = None if shared else DealCodes(model, saved=saved)
        # The Ledger and Rules tabs are hidden until asked for: the ledger is kept current only
        # while it is shown (its chart is the slowest thing a table draws), and the rules picker,
        # the biggest tab, is built the first time its tab is opened, so a table opens quicker.
        self.ledger = LedgerView(model, shown=False)
        self.picker: RulesPicker | None = None
        self._rules = lean(ipw.VBox, [lean(ipw.HTML, "<p>The rules are being laid out…</p>")])
        # The Review tab's controls are built the first time it is opened, as the rules picker is.
        self._review_note = lean(ipw.HTML, f"<p>{REVIEW_WAIT}</p>")
        self._review_tab = lean(ipw.VBox, [self._review_note])
        self._review_button: ipw.Button | None = None
        self._weigh_button: ipw.Button | None = None
        self._weighed = lean(ipw.HTML, _dom_classes=["loo-review-weighed"])
        self._weighing = HandWeighing(self._weighed, self._weighed_all, self._update, weigh)
        self._to_costliest: ipw.Button | None = None  # built with the tab's other controls
        self._costliest_at = 0
        self._notes: dict[int, str] = {}
        self._review = lean(ipw.VBox)
        self.practice: PracticeView | None = None  # a reader's own table's, built with the tab's controls
        self.tabs = lean(
            ipw.Tab,
            [
                lean(ipw.VBox, [self.table, *([self.codes] if self.codes is not None else [])]),
                self._review_tab,
                self.ledger,
                self._rules,
            ],
            titles=("Table", "Review", "Ledger", "Rules"),
        )
        super().__init__([self.tabs], layout=shared_layout(), _dom_classes=["loo-live-table"])
        self._wire()
        self._update()

    def _wire(self) -> None:
        report = self.table.say
        self.model.observe(guarded(report)(lambda _change: self._update()), names=["version"])
        self.tabs.observe(guarded(report)(lambda change: self._tab_chosen(change["new"])), names=["selected_index"])

    def _tab_chosen(self, index: int | None) -> None:
        self.ledger.set_shown(index == LEDGER_TAB)
        if index == REVIEW_TAB:
            self._review_controls()
        if index == RULES_TAB and self.picker is None:
            self.picker = RulesPicker(self.model)
            self._rules.children = (self.picker,)

    def _review_controls(self) -> tuple[ipw.Button, ipw.Button]:
        """The Review tab's two buttons, built and laid out the first time they are needed."""
        if self._review_button is None or self._weigh_button is None:
            report = self.table.say
            self._review_button = lean(
                ipw.Button,
                description="Step through this hand",
                tooltip="Every step of the finished hand, with every hand face up",
                layout=AUTO_WIDTH,
            )
            self._weigh_button = lean(
                ipw.Button,
                description="Weigh my decisions",
                tooltip="Each of your decisions played out over many deals that fit what you knew: what it gave up",
                layout=AUTO_WIDTH,
            )
            self._review_button.on_click(guarded(report)(lambda _b: self._show_review()))
            self._weigh_button.on_click(guarded(report)(lambda _b: self._weigh()))
            to_costliest = button("Step to the costliest decision", "Open the hand's steps at it", "loo-to-costliest")
            own = own_layout(to_costliest)  # its own: the shared layout is every widget's
            own.display, own.width = "none", "auto"  # its whole label, on a phone too
            to_costliest.on_click(guarded(report)(lambda _b: self._show_review(self._costliest_at, self._notes)))
            self._to_costliest = to_costliest
            buttons = (self._review_button, self._weigh_button)
            if self.codes is not None:  # not at a shared table, whose seats share one journal
                self.practice = PracticeView(self.model, report)
            practice = (self.practice,) if self.practice is not None else ()
            parts = (self._review_note, *buttons, self._weighed, to_costliest, self._review, *practice)
            self._review_tab.children = parts
            self._update()
        return self._review_button, self._weigh_button

    def _update(self) -> None:
        over = self.model.hand.is_over
        if self._review_button is not None and self._weigh_button is not None:
            self._review_button.disabled = not over
            self._weigh_button.disabled = not over or self._weighing.busy
        if not over and (self._review.children or self._weighed.value):
            self._weighing.stop()  # the next hand is in play: the last one's review goes
            self._review.children = ()
            self._weighed.value = ""
            self._show_costliest(False)
            self._notes = {}
        self._review_note.value = "<p>The hand is over: step through it.</p>" if over else f"<p>{REVIEW_WAIT}</p>"

    def _show_review(self, start: int = 0, notes: dict[int, str] | None = None) -> None:
        record = self.model.record()
        if record is None:  # pragma: no cover - the button is disabled while the hand is in play
            self._review_note.value = f"<p>{REVIEW_WAIT}</p>"
            return
        viewer = StepViewer(record, title="The hand just played", start=start, commentary=notes or self._notes)
        self._review.children = (viewer.widget(),)

    def _weigh(self) -> None:
        """The reader's decisions weighed (:mod:`widgets.views.review_view`), filling in while the hand's
        steps are open to step through; once whole, the steps say at each decision what it was weighed at."""
        record = self.model.record()
        if record is None:  # pragma: no cover - the button is disabled while the hand is in play
            return
        self._show_costliest(False)
        self._show_review()
        self._weighing.start(record_type(record["game"]).from_json(record), self.model.seat)
        self._update()

    def _weighed_all(self, done: HandReview, read: Any) -> None:
        self._notes = review_notes(done, read)
        if self.practice is not None:  # its costly decisions to practise, its figures to the progress
            self.practice.weighed(read, done)
        costliest = done.costliest
        self._costliest_at = costliest.index if costliest is not None else 0
        self._show_review(self._costliest_at)
        self._show_costliest(costliest is not None)
        self._update()

    def _show_costliest(self, shown: bool) -> None:
        if self._to_costliest is not None:
            self._to_costliest.layout.display = "" if shown else "none"


class DealCodes(ipw.VBox):  # type: ignore[misc]
    """The hand's deal code, shown only when the reader asks, and a box to deal a code's hand.

    The code tells every card of the hand to anyone with the engine, so it reaches the page only
    on a click, like the teaching switch; it goes again when the next hand is dealt.
    """

    def __init__(self, model: TableModel, *, saved: bool = False) -> None:
        self.model = model
        self._show = button("This hand's code", "Show this hand's deal code, to give others this deal", "loo-show-code")
        self._shown = lean(ipw.HTML)
        self._code = lean(
            ipw.Text,
            placeholder="a deal code, such as l3.peel.s0.n12345",
            description="Deal code",
            # sent when the reader leaves the box or presses Enter, not on every key: the kernel's echo of
            # each key could otherwise overwrite the keys typed after it on a slow connection
            continuous_update=False,
            layout=ipw.Layout(width="28em"),
            _dom_classes=["loo-code-input"],
        )
        self._play = button("Play this deal", "Start a new game at the deal this code names", "loo-play-code")
        self._status = lean(ipw.HTML)
        note = (
            f'<p class="loo-saved-note" style="font-size:12px;color:#555;margin:2px 0">{escape(home.saved_note)}</p>'
            if saved
            else ""
        )
        row = lean(ipw.HBox, [self._show, self._code, self._play], layout=ROW)
        self._replacing = Replacing(model, self._say)  # asks before the deal replaces the game, offers to undo it
        super().__init__(
            [row, self._replacing, self._shown, self._status, lean(ipw.HTML, note)],
            layout=shared_layout(),
            _dom_classes=["loo-deal-codes"],
        )
        self._hand: Hand | None = None
        self._wire()

    def _wire(self) -> None:
        say = self._say
        self._show.on_click(guarded(say)(lambda _b: self.show()))
        self._play.on_click(guarded(say)(lambda _b: self.play()))
        self.model.observe(guarded(say)(lambda _change: self._update()), names=["version"])

    def _say(self, message: str) -> None:
        self._status.value = f'<div role="status" aria-live="polite">{with_law_refs(message)}</div>' if message else ""

    def _update(self) -> None:
        if self._hand is not None and self.model.hand is not self._hand:
            self._hand = None  # another hand: the code shown was the last one's
            self._shown.value = ""

    def show(self) -> None:
        code = self.model.deal_code()
        if code is None:
            self._shown.value = "<p>This hand was loaded from a record: it has no deal code.</p>"
            return
        self._hand = self.model.hand
        link = home.address(code.game, str(code))
        self._shown.value = (
            f'<p class="loo-code-shown">Deal code for this hand: <code style="user-select:all">{escape(str(code))}'
            f'</code> (<a href="{escape(link)}" target="_blank" rel="noopener">a new table with this deal</a>)</p>'
            f'<p style="font-size:12px;color:#555;margin:2px 0">{escape(CODE_WARNING)}</p>'
        )

    def play(self) -> None:
        """Deal the code's hand as a new game, once the reader has said the game in play may go."""
        text = self._code.value
        if not text.strip():
            self._say("Type or paste a deal code first, such as l3.peel.s0.n12345.")
            return
        model = self.model
        try:  # a bad code is refused before anything is asked
            parse_deal_code(text, game=model.game, rules=model.rules.to_record())
        except DealCodeError as error:
            self._say(f"That deal code cannot be used: {error.message}.")
            return
        self._replacing.ask("Play this deal as a new game", "Yes, play this deal", lambda: self._deal_code(text))

    def _deal_code(self, text: str) -> bool:
        if not self.model.play_code(text):
            self._say(self.model.message)
            return False
        self._code.value = ""
        self._say("")
        return True


def live_table(
    game: str = "three-card-loo",
    preset: str | None = None,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    **kwargs: Any,
) -> LiveTable:
    """A live table of ``game`` under ``preset`` (its primary source's rules by default)."""
    return LiveTable(TableModel(game, preset=preset, seed=seed, rng=rng, **kwargs))


def notice(message: str, page: str, *, title: str = "This table cannot be opened") -> ipw.HTML:
    """A plain message in place of a table, with a link to a new table of ``page``."""
    return ipw.HTML(
        f'<div class="loo-table-notice" role="alert"><h2 style="font-size:1.2em">{escape(title)}</h2>'
        f"<p>{escape(message)}</p>"
        f'<p><a href="{escape(home.address(page, None))}">Start a new table</a></p></div>'
    )
