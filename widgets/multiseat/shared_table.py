"""A shared table: several readers at one game, each at their own seat, computer players at the rest.

Each seat's page has its own kernel and its own :class:`SharedTableModel`, which sits at that
seat and shows only that seat's view. The table's journal in the store (:mod:`widgets.store.sqlite`) is
the one truth they share: a seat's move is appended with the store's optimistic check (the
count of events the kernel has seen), with the computer players' replies it caused; every kernel
watches the count (:class:`Follower`, every :data:`POLL_SECONDS`) and applies the events the
others wrote, so each page shows the others' moves a moment after they are made. A write the
store refuses (another seat moved first) is not made: the model becomes the game as saved.

Which seats computer players take is kept with the table's seats (:mod:`widgets.store.seating`); when
it is a computer's turn and no seat's move brought it about (a seat just given to a computer, say),
whichever kernel sees it first makes the move, and each computer chooses from a generator seeded
by the hand's secret seed and the move's number, so every kernel would choose the same move.

Take-backs are off (they would take back the others' moves too), and so are the teaching switch,
the hand's deal code (it tells every card), new games, rules and loaded records: those are the
teacher's, through the console's pending deals (:meth:`SeatBook.set_pending`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any, Self

from loo.core.actions import Action
from loo.core.protocols import Piece
from widgets.table.dealcode import DealCode
from widgets.table.journal import START, Event, Journals, Saved, StaleTable
from widgets.table.model import TableModel
from widgets.table.saving import GAME_STATE, WAITING_MESSAGE

log = logging.getLogger("lanterloo.widgets.multiseat.shared_table")

POLL_SECONDS = 0.1
MOVED_FIRST_MESSAGE = "Another player moved first, so that was not done: the table shows the game as it is now."
NO_UNDO_MESSAGE = "Take-backs are off at a shared table: they would take back the other players' moves too."
TEACHERS_MESSAGE = "At a shared table a new game, new rules or a record is the teacher's to start, from the console."
BOTS = "bots"  # the event of computer players' moves that no seat's move brought about


class SharedTableModel(TableModel):
    """A :class:`TableModel` at one seat of a shared table; ``computers`` are the seats computer players take."""

    # A game rebuilt from the journal is taken at this kernel's own seat, its computer players made afresh.
    game_state = (*(name for name in GAME_STATE if name != "seat"), "_computer_bots")

    def __init__(self, *args: Any, computers: frozenset[int] = frozenset(), **kwargs: Any) -> None:
        self.computers = frozenset(computers)
        self._computer_bots: dict[int, Any] = {}
        self._quiet = False  # a refused write reloads the game without a word (the computers' moves)
        super().__init__(*args, **kwargs)

    # ----- playing: any seat's move replayed, the computers' moves made ------------------------

    def _start_code(self, code: DealCode, names: Sequence[str] | None = None) -> None:
        mine = self.seat
        super()._start_code(code, names)
        self.seat = mine  # the code names its writer's seat; this kernel keeps its own

    def act(self, action: Action) -> bool:
        if self._replaying and action.seat != self.seat:  # another seat's move, from the journal
            self.hand.push(action)
            self._pushed = []
            self._advance()
            return self._journal({"type": "act", "action": action.to_record()})
        if not self._replaying and self.hand.to_act != self.seat and not self.hand.is_over:
            self._say(f"It is {self.names[self.hand.to_act or 0]}'s turn, not yours.")
            return False
        return super().act(action)

    def _advance(self) -> None:
        """The computer players' moves until a person's turn (or, replaying, the saved ones)."""
        while not self.hand.is_over:
            seat = self.hand.to_act
            assert seat is not None
            if self._script is not None:
                if not self._script:
                    break
                action = Action.from_record(self._script.pop(0), seats=len(self.names), piece=self._piece)
            elif seat in self.computers:
                bot = self._computer_bots.get(seat)
                if bot is None:
                    bot = self._computer_bots[seat] = self.kit.make_bot(self.bot_name)
                seeded = random.Random(f"{self._seed}:{len(self.table_game.results)}:{len(self.hand.actions)}")
                action = bot.choose(self.hand.view(seat), seeded)
            else:
                break
            self.hand.push(action)
            self._pushed.append(action)
        if self.hand.is_over:
            self._settle()

    def computers_move(self) -> bool:
        """Make the computer players' moves now due (a seat just given to one); False if none was due
        or another kernel made them first."""
        to_act = self.hand.to_act
        if self.hand.is_over or to_act is None or to_act not in self.computers:
            return False
        self._pushed = []
        self._advance()
        self._quiet = True
        try:
            return self._journal({"type": BOTS})
        finally:
            self._quiet = False

    def _apply(self, event: Event) -> bool:
        if event["type"] == BOTS:
            self._advance()
            return True
        return super()._apply(event)

    def _saving_note(self) -> str:
        """A seat whose store fails with no move of its own waiting (a seat reloaded while the disk was
        full) is told the table waits for the disk: another seat's move may be waiting to be saved."""
        if self._failing and not self._unsaved:
            return WAITING_MESSAGE
        return super()._saving_note()

    # ----- what a shared table does not do ------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return False

    def undo(self) -> bool:
        if self._replaying:  # never written at a shared table; a journal that has one replays as saved
            return super().undo()
        self._say(NO_UNDO_MESSAGE)
        return False

    def open_hands(self) -> tuple[tuple[Piece, ...] | None, ...] | None:
        if not self.hand.is_over:  # the teaching switch shows nothing here
            return None
        return super().open_hands()

    def new_game(self, game: str | None = None, *, rules: Any = None, seed: int | None = None) -> bool:
        self._say(TEACHERS_MESSAGE)
        return False

    def play_code(self, text: str) -> bool:
        self._say(TEACHERS_MESSAGE)
        return False

    def import_record(self, text: str) -> bool:
        if self._replaying:
            return super().import_record(text)
        self._say(TEACHERS_MESSAGE)
        return False

    def deal_pending(self, code: str) -> bool:
        """Deal the teacher's ``code`` (a new game at that hand), between hands or before the hand's first move."""
        return TableModel.play_code(self, code)

    # ----- keeping up with the others ---------------------------------------------------------

    def reload_saved(self, message: str) -> None:
        """Another seat wrote first: become the game as saved, quietly if it was only the computers' move."""
        assert self._store is not None and self.table_id is not None
        self._unsaved = []
        self._forget_writes()
        try:
            self.rebuild(self._store.load(self.table_id))
        except Exception:
            log.exception("table %s: could not reload the shared game", self.table_id)
        self._say("" if self._quiet else MOVED_FIRST_MESSAGE)

    def _stale(self, stale: StaleTable) -> None:
        """Another seat wrote first; said only if a move of this seat's was refused (a write saved on
        the kernel's writer thread is refused after the computers' move was drawn, not during it)."""
        quiet = self._quiet
        self._quiet = quiet or all(event.get("type") == BOTS for event in self._unsaved)
        try:
            super()._stale(stale)
        finally:
            self._quiet = quiet

    def replayed(self, events: Sequence[Event]) -> Self:
        """The game ``events`` describe, at this seat, with these computer players."""
        return type(self)(journal=events, rng=self._rng, seat=self.seat, computers=self.computers)

    def catch_up(self, saved: Saved | None = None) -> bool:
        """Apply the events the other seats wrote since this kernel last looked (``saved``, the game as
        just read, or read now); True if there were any."""
        assert self._store is not None and self.table_id is not None
        if saved is None:
            saved = self._store.load(self.table_id)
        if saved.count == self._count:
            return False
        new = saved.count - self._count
        fresh = saved.events[-new:] if 0 < new <= len(saved.events) else []
        if not fresh or any(e.get("type") == START for e in fresh) or self._unsaved:
            self.rebuild(saved)
        else:
            try:
                self._apply_events(fresh)
                self._count = saved.count
            except Exception:  # anything odd: the whole game again, from the journal
                log.exception("table %s: rebuilding from the journal", self.table_id)
                self.rebuild(saved)
        self._say("")
        return True

    def _apply_events(self, events: Sequence[Event]) -> None:
        self._replaying = True
        try:
            for event in events:
                self._script = list(event.get("then", []))
                if not self._apply(event) or self._script:
                    raise ValueError(f"event {event.get('type')} does not replay")
        finally:
            self._script = None
            self._replaying = False

    @classmethod
    def at_seat(
        cls,
        store: Journals,
        table_id: str,
        seat: int,
        computers: frozenset[int],
        *,
        game: str,
        preset: str | None,
        code: DealCode | None,
        rng: random.Random | None = None,
    ) -> SharedTableModel:
        """The model of ``seat`` at the shared table ``table_id``: its saved game, or a new one saved
        (``code``'s deal, if given); if another seat started it meanwhile, that game."""
        saved = store.load(table_id)
        if saved.count:
            return cls.resume(store, table_id, rng=rng, saved=saved, seat=seat, computers=computers)
        model = cls(game, preset=preset, code=code, seat=seat, computers=computers, rng=rng)
        model._attach_quietly(store, table_id)
        return model

    def _attach_quietly(self, store: Journals, table_id: str) -> None:
        """:meth:`attach`, with no word if another seat began the game meanwhile (this one becomes it)."""
        self._quiet = True
        self.attach(store, table_id)
        self._quiet = False
        self._say("")
