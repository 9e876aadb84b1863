"""A shared table's page in its seat's kernel: the live table at that seat, the seats around it, and the
:class:`Follower` that keeps the kernel up with the table's journal.

:func:`served_shared` is what :func:`widgets.kernel.table_router.served_table` gives a request whose
address carries a seat's token (``?table=<id>&seat=<token>``, an invitation link). The server
has claimed the seat for the page's browser (:mod:`widgets.server.shared_pages`) and tells the
kernel which browser that is; the kernel checks it against the database before it deals a card,
and again every second while it serves the seat: a seat that passed to another browser is no
longer shown here. The table's deal, if it was opened at one, is the database's
(:meth:`~widgets.store.seating.SeatBook.opening`), never the address's.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as ipw

from widgets.multiseat.shared_table import POLL_SECONDS, SharedTableModel
from widgets.store.lifeboat import keep_on_exit
from widgets.store.seating import COMPUTER, PERSON, SeatBook, SeatRow
from widgets.table.dealcode import DealCodeError, parse_deal_code
from widgets.table.journal import Journals, Saved, StoreError, server_store
from widgets.table.model import TableModel
from widgets.table.save_writer import Done
from widgets.table.saving import RETRY_SECONDS
from widgets.views.live_table import LiveTable, notice
from widgets.views.safety import guarded
from widgets.views.shared import ROW, lean
from widgets.views.shared import is_shared as is_shared_part

log = logging.getLogger("lanterloo.widgets.multiseat.shared_view")

SHARED_NEEDS_SEAT = (
    "This table is shared by several players, and each opens it with the invitation link of their own seat "
    "(its address ends in &seat=...). Ask whoever opened the table for yours."
)
NO_SEAT = "This invitation link opens no seat at this table. Ask for the link again: it may have been cut short."
NOT_YOURS = (
    "This seat is held by another browser. If that was you on another computer, close that page: the seat comes "
    "free here half a minute later, when you reload this page. Otherwise ask for the link of your own seat."
)
SEAT_BROWSER_ENV = "HTTP_X_LANTERLOO_SEAT_BROWSER"
"""Where the server's word on the browser that holds the seat reaches the kernel (Voila puts the
request's header ``X-Lanterloo-Seat-Browser`` there: widgets.server.shared_pages.SEAT_HEADER)."""
SEATS_EVERY = 10  # the seats are read every tenth look at the journal (once a second)
PENDING_EVERY = 10


class Follower:
    """Every :data:`POLL_SECONDS`: the events the other seats wrote, applied; every second, the seats
    (who plays which, and whether this seat is still ``browser``'s: if not, ``on_lost`` and no more),
    the teacher's pending deal, and the computers' moves now due. The seat's heartbeat (its page is
    here) is the server's, sent only while the page's websocket is open (:mod:`widgets.server.presence`):
    a kernel runs on for a while after its page went, and its heartbeat held the seat as long."""

    def __init__(
        self,
        model: SharedTableModel,
        book: SeatBook,
        table_id: str,
        on_seats: Callable[[list[SeatRow]], None] = lambda _rows: None,
        *,
        browser: str | None = None,
        on_lost: Callable[[], None] = lambda: None,
    ) -> None:
        self.model, self.book, self.table_id, self.on_seats = model, book, table_id, on_seats
        self.browser, self.on_lost = browser, on_lost
        self.lost = False
        self.ticks = 0
        self._seats: list[SeatRow] | None = None
        self._callback: Any = None
        self._failed = 0.0
        self._retry_at = 0.0
        self._asking = False  # a look at the table is under way on the writer's thread
        self._seats_tick = self._pending_tick = -SEATS_EVERY  # the ticks the seats, the deal were last asked at
        self._seat_looks = 0

    def start(self) -> None:
        from tornado.ioloop import PeriodicCallback

        self._callback = PeriodicCallback(self.tick, POLL_SECONDS * 1000)
        self._callback.start()

    def stop(self) -> None:
        if self._callback is not None:
            self._callback.stop()

    def tick(self) -> None:
        try:
            self._tick()
        except Exception as error:
            self._failed_now(error)

    def _failed_now(self, error: BaseException) -> None:
        if time.monotonic() - self._failed <= 60:  # one line a minute at most
            return
        if isinstance(error, StoreError):  # a database away, a full disk: said in a line, no traceback
            log.warning("table %s: could not follow the shared game just now (%s)", self.table_id, error)
        else:
            log.error("table %s: could not follow the shared game", self.table_id, exc_info=error)
        self._failed = time.monotonic()

    def _tick(self) -> None:
        model = self.model
        if self.lost:
            return
        self.ticks += 1
        store = model.store
        if store is None:
            return
        if not model.saving and time.monotonic() >= self._retry_at:
            # The store failed (a full disk, a database away): this seat's move waits in memory; once
            # saved, the others see it.
            self._retry_at = time.monotonic() + RETRY_SECONDS
            model.save_again()
        if self._asking:
            return
        seats = self.ticks - self._seats_tick >= SEATS_EVERY  # once a second (a look may take longer)
        pending = self.ticks - self._pending_tick >= PENDING_EVERY and (model.hand.is_over or not model.hand.actions)
        self._seats_tick = self.ticks if seats else self._seats_tick
        self._pending_tick = self.ticks if pending else self._pending_tick
        if not model.saves_off_thread:  # outside a table's kernel: asked here
            book, table_id = self.book, self.table_id
            seated = book.seats(table_id) if seats else None
            self._look(Look(store.count(table_id), None, seated, book.pending(table_id) if pending else None))
            return
        # In a table's kernel, asked on the writer's thread (widgets.table.save_writer), after this seat's
        # writes: a database that hangs holds none of this seat's clicks.
        table_id, known = self.table_id, model.saved_events

        def question(db: Journals) -> Look:
            count = db.count(table_id)
            book = SeatBook(db)  # type: ignore[arg-type]
            saved = db.load(table_id) if count != known else None
            return Look(
                count, saved, book.seats(table_id) if seats else None, book.pending(table_id) if pending else None
            )

        self._asking = model.ask_off_thread(question, self._answered)

    def _answered(self, done: Done) -> None:
        self._asking = False
        try:
            if done.error is not None:
                raise done.error
            self._look(done.result)
        except Exception as error:
            self._failed_now(error)

    def _look(self, look: Look) -> None:
        """What the journal and the seats are now: the other seats' moves applied, the seats shown,
        the teacher's deal dealt, the computers' moves made."""
        model = self.model
        if self.lost or model.store is None:
            return
        if look.count > model.saved_events and not model.unsaved:  # a count only grows: an older look says nothing
            model.catch_up(look.saved if look.saved is not None and look.saved.count == look.count else None)
        if look.seats is not None:
            rows = look.seats
            if self.browser is not None and not any(
                r.seat == model.seat and r.claimed_by == self.browser for r in rows
            ):  # the seat passed to another browser: this page shows it no more
                self.lost = True
                self.stop()
                self.on_lost()
                return
            computers = frozenset(r.seat for r in rows if r.player == COMPUTER)
            if computers != model.computers:
                model.computers = computers
            self._seat_looks += 1
            if rows != self._seats or self._seat_looks % 5 == 1:  # and every five seconds: who is here
                self._seats = rows
                self.on_seats(rows)
        if look.pending is not None and (model.hand.is_over or not model.hand.actions):
            code = self.book.take_pending(self.table_id)
            if code is not None:
                model.deal_pending(code)
        model.computers_move()


@dataclass(frozen=True)
class Look:
    """What a :class:`Follower` read of the table: the journal's count (and the saved game, if it
    moved on from what the seat had seen), the seats, and the teacher's pending deal (None if not asked)."""

    count: int
    saved: Saved | None
    seats: list[SeatRow] | None
    pending: str | None


class SharedLiveTable(LiveTable):
    """The live table at one seat of a shared table: no take-back, teaching switch, deal codes, new
    game or records, and the seats above the table, with a way to give an absent player's seat to a
    computer (or to take one's own back)."""

    def __init__(self, model: SharedTableModel, book: SeatBook, table_id: str) -> None:
        super().__init__(model, saved=True, shared=True)  # no deal codes, take-back, teaching switch, new game
        self.shared_model, self.book, self.table_id = model, book, table_id
        view = self.table
        view.leave_out_key(" U takes back,")  # no take-backs here
        self.seats_html = lean(ipw.HTML, _dom_classes=["loo-seats"])
        self.seat_buttons = lean(ipw.HBox, layout=ROW, _dom_classes=["loo-seat-controls"])
        first = self.tabs.children[0]
        first.children = (self.seats_html, self.seat_buttons, *first.children)
        self._rows: list[SeatRow] = []
        model.observe(guarded(view.say)(lambda _change: self._draw_seats()), names=["version"])

    def show_seats(self, rows: list[SeatRow]) -> None:
        self._rows = rows
        self._draw_seats()
        buttons: list[ipw.Widget] = []
        now = time.time()
        for row in rows:
            name = self.model.names[row.seat]
            if row.seat == self.model.seat and row.player == COMPUTER:
                tip = "A computer player has been playing your seat: play it yourself again"
                button = lean(ipw.Button, description="Take my seat back", _dom_classes=["loo-seat-back"], tooltip=tip)
                button.on_click(guarded(self.table.say)(lambda _b, s=row.seat: self._give(s, PERSON)))
                buttons.append(button)
            elif row.seat != self.model.seat and row.player == PERSON and not row.here(now):
                tip = f"{name}'s page is not here: let a computer player take the seat"
                button = lean(
                    ipw.Button, description=f"A computer plays {name}", _dom_classes=["loo-seat-computer"], tooltip=tip
                )
                button.on_click(guarded(self.table.say)(lambda _b, s=row.seat: self._give(s, COMPUTER)))
                buttons.append(button)
        old = self.seat_buttons.children
        self.seat_buttons.children = tuple(buttons)
        for widget in old:
            widget.close()

    def leave_seat(self) -> None:
        """The seat is another browser's now: nothing of the table stays in this page, nor in this kernel."""
        gone = [self.tabs]  # the whole table is in its tabs
        self.children = (notice(NOT_YOURS, self.model.game, title="This seat is taken"),)
        for widget in gone:
            _close_tree(widget)

    def _give(self, seat: int, player: str) -> None:
        self.book.set_player(self.table_id, seat, player)
        self.show_seats(self.book.seats(self.table_id))

    def _draw_seats(self) -> None:
        model, now = self.model, time.time()
        to_act = None if model.hand.is_over else model.hand.to_act
        items = []
        for row in self._rows:
            name = escape(model.names[row.seat])
            if row.player == COMPUTER:
                who = "a computer player"
            elif row.seat == model.seat:
                who = "you"
            elif row.here(now):
                who = "a player, here"
            else:
                who = "a player, not here" if row.seen is not None else "a player, not come yet"
            turn = ", to play" if row.seat == to_act else ""
            items.append(f"<li><b>{name}</b> ({who}{turn})</li>")
        self.seats_html.value = (
            '<div class="loo-seats-list"><p style="margin:4px 0">A shared table: each player sees only their own '
            "cards. Take-backs are off.</p>"
            '<ul aria-label="the seats" style="margin:0 0 6px;padding:0;font-size:14px;list-style:none;display:flex;'
            f'flex-wrap:wrap;gap:2px 14px">{"".join(items)}</ul></div>'
        )


def is_shared(store: Journals, table_id: str) -> bool:
    """Whether ``table_id`` is a shared table (it has seats): a server's store only."""
    return server_store(store) and bool(SeatBook(store).seats(table_id))  # type: ignore[arg-type]


def _close_tree(widget: ipw.Widget) -> None:
    """Close ``widget`` and every widget under it, but the layouts and styles widgets share."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    for name in ("layout", "style"):
        part = getattr(widget, name, None)
        if isinstance(part, ipw.Widget) and not is_shared_part(part):
            part.close()
    widget.close()


def served_shared(
    game: str,
    preset: str | None,
    table_id: str,
    token: str,
    store: Journals,
    *,
    browser: str | None,
    follow: bool = True,
) -> ipw.Widget:
    """The seat ``token`` opens at the shared table ``table_id``, for ``browser`` (the browser the
    server says holds it), following the others' moves. A seat the database does not give to
    ``browser`` (or no ``browser`` at all) is not shown: a plain notice, and no card is dealt."""
    assert server_store(store), "a shared table is the server's"
    book = SeatBook(store)  # type: ignore[arg-type]
    seat = book.seat_of(table_id, token)
    if seat is None:
        return notice(NO_SEAT, game, title="No such seat")
    if browser is None or book.claimed_by(table_id, seat) != browser:
        log.warning("table %s: seat %d asked for by a browser that does not hold it", table_id, seat)
        return notice(NOT_YOURS, game, title="This seat is taken")
    opening = book.opening(table_id)
    try:
        code = parse_deal_code(opening, game=game) if opening else None
    except DealCodeError:
        log.warning("table %s: its opening deal %r cannot be dealt; a new deal instead", table_id, opening)
        code = None
    rows = book.seats(table_id)
    computers = frozenset(r.seat for r in rows if r.player == COMPUTER)
    model = SharedTableModel.at_seat(store, table_id, seat, computers, game=game, preset=preset, code=code)
    table = SharedLiveTable(model, book, table_id)
    try:
        book.heartbeat(table_id, seat, browser=browser)
    except StoreError as error:  # a full disk: the seat shows the game as saved, and waits for the disk
        log.warning("table %s: seat %d opened while its database cannot be written (%s)", table_id, seat, error)
        model.store_failed()
    table.show_seats(book.seats(table_id))
    keep_on_exit(model)  # a move the disk would not take outlives the kernel (widgets.store.lifeboat)
    saves_off_thread(model, store)  # a seat's move is shown at once; the other seats see it once saved
    follower = Follower(model, book, table_id, table.show_seats, browser=browser, on_lost=table.leave_seat)
    table.follower = follower
    if follow:
        follower.start()
    return table


PENDING_SECONDS = 2.0
SAVED_MEANWHILE_MESSAGE = (
    "The game was saved meanwhile with moves this table had not seen (moves kept when the disk was full, "
    "or played in another tab): the table now shows the game as saved."
)


class PendingDeals:
    """At a reader's own saved table: every :data:`PENDING_SECONDS`, the teacher's pending deal
    (:meth:`SeatBook.set_pending`), dealt as a new game between hands or before the hand's first move;
    and, while the store fails (a full disk, a read-only file, a database that does not answer),
    another try at saving the game (:meth:`~widgets.table.saving.SavingTable.save_again`), so that it is
    saved once the store is back even if the reader makes no move meanwhile; the teacher's deal waits
    till then."""

    def __init__(self, model: TableModel, book: SeatBook, table_id: str) -> None:
        self.model, self.book, self.table_id = model, book, table_id
        self._failed = 0.0
        self._asking = False  # the teacher's deal is being looked for on the writer's thread

    def start(self) -> None:
        from tornado.ioloop import PeriodicCallback

        PeriodicCallback(self.tick, PENDING_SECONDS * 1000).start()

    def tick(self) -> None:
        model = self.model
        try:
            if not model.saving:
                if not model.save_again():  # still not saved: the teacher's deal waits too
                    return
                if model.store is not None and model.store.count(self.table_id) != model.saved_events:
                    model.reload_saved(SAVED_MEANWHILE_MESSAGE)  # saved meanwhile: a lifeboat, another tab
            if model.store is None or not (model.hand.is_over or not model.hand.actions):
                return
            table_id = self.table_id
            # In a table's kernel the question goes to the writer's thread: a database that hangs
            # holds no click of the reader's (widgets.table.save_writer).
            if not self._asking and model.ask_off_thread(lambda s: SeatBook(s).pending(table_id), self._answered):  # type: ignore[arg-type]
                self._asking = True
            elif not model.saves_off_thread and self.book.pending(table_id) is not None:
                self._deal()
        except StoreError as error:  # a database away, a full disk: said in a line, no traceback
            self._failed_now(error)
        except Exception as error:
            self._failed_now(error)

    def _answered(self, done: Done) -> None:
        self._asking = False
        model = self.model
        try:
            if done.error is not None:
                raise done.error
            if done.result is not None and model.store is not None and (model.hand.is_over or not model.hand.actions):
                self._deal()
        except Exception as error:
            self._failed_now(error)

    def _deal(self) -> None:
        if code := self.book.take_pending(self.table_id):
            self.model.play_code(code)

    def _failed_now(self, error: Exception) -> None:
        if time.monotonic() - self._failed <= 60:  # one line a minute at most
            return
        if isinstance(error, StoreError):  # a database away, a full disk: said in a line, no traceback
            log.warning("table %s: could not look for the teacher's deal just now (%s)", self.table_id, error)
        else:
            log.error("table %s: could not deal the teacher's deal, or save again", self.table_id, exc_info=error)
        self._failed = time.monotonic()


def saves_off_thread(model: TableModel, store: Journals) -> None:
    """In a table's kernel, ``model`` saves on a thread of its own (:mod:`widgets.table.save_writer`), with
    a connection of its own to the server's database: the reader's click never waits for it. Outside
    a kernel (a test, a script) the saves stay where they are made."""
    kernel_app = sys.modules.get("ipykernel.kernelapp")
    if kernel_app is None or not kernel_app.IPKernelApp.initialized() or not server_store(store):
        return
    from tornado.ioloop import IOLoop

    from widgets.table.save_writer import SaveWriter

    loop = IOLoop.current()
    model.save_off_thread(SaveWriter(store.reopened, wake=lambda: loop.add_callback(model.saves_done)))  # type: ignore[attr-defined]


def follow_pending(model: TableModel, store: Journals, table_id: str) -> None:
    """Deal the teacher's pending deals at this saved table, and try again to save what the store would
    not take, in this kernel and after it (a server's store only: :mod:`widgets.store.lifeboat`)."""
    if server_store(store):
        keep_on_exit(model)
        saves_off_thread(model, store)
        try:
            PendingDeals(model, SeatBook(store), table_id).start()  # type: ignore[arg-type]
        except Exception:
            log.exception("table %s: pending deals are not followed", table_id)
