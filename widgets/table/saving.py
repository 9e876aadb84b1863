"""How a live table's game is saved and rebuilt: its journal of events, the store, a replay.

:class:`SavingTable` is the part of :class:`~widgets.table.model.TableModel` that saves: the model
writes a journal of what happened, one event per change (a new game, the reader's action with
the bots' replies, a take-back, the next hand; a loaded record begins a new game, its start
event holding the record), each with every bot action it caused, so that replaying the journal
rebuilds the game exactly without asking a bot or a random generator anything.
:meth:`SavingTable.attach` saves it, as it happens, in a :class:`~widgets.table.journal.Journals`
(the server's database, or the browser's storage); :meth:`SavingTable.resume` rebuilds a saved
game. A change whose write the store refuses (another tab moved the game on) is not made: the
model reloads the game as saved and tells the reader so. A store that fails (a full disk, a file
made read-only, a database that does not answer in time) refuses nothing: the game goes on in
memory, the reader is told it is not being saved, and every event not yet saved is sent again at
the next change, or sooner: the table's kernel calls :meth:`SavingTable.save_again` every
:data:`RETRY_SECONDS` (``widgets.multiseat.shared_view``), so that the game is saved once the store works
again even if the reader waits, and hands what is still unsaved when it ends to
``widgets.store.lifeboat``. A game opened from a store that cannot be written says so at once
(:meth:`SavingTable.check_store`). In a table's kernel the writes are made on a thread of their own
(:meth:`SavingTable.save_off_thread`, :mod:`widgets.table.save_writer`): a click waits for its move's write
:data:`SAVE_WAIT_SECONDS` at most, so a database that hangs never holds the reader's table.

A new game (or a loaded record, or a deal code's game) replaces the game in play, and the stores
keep only the events since the last start. The model keeps the replaced game's events, in memory,
until the reader's first move in the new game; :meth:`SavingTable.restore_replaced` rebuilds that
game from them and writes them to the store again, its start event first: the store then holds the
old game as it was, and a reload finds it.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

from loo.core.actions import Action, IllegalActionError
from loo.core.cards import Card
from loo.core.rules import RecordError
from loo.core.tiles import Tile
from widgets.table.dealcode import DealCodeError, parse_deal_code
from widgets.table.journal import START, Event, Journals, Saved, StaleTable, StoreError
from widgets.table.practice import PRACTICE, Shelf
from widgets.table.save_writer import Done, SaveWriter

log = logging.getLogger("lanterloo.widgets.table.model")

STALE_MESSAGE = (
    "This game was played on in another tab or window, so that move was not made. The table now shows "
    "the game as it was saved there; reload this page to be sure you see it all."
)
STALE_NEW_GAME_MESSAGE = (
    "This game was played on in another tab or window, so the new game was not started. The table now shows "
    "the game as it was saved there; reload this page to be sure you see it all."
)
NOT_SAVING_MESSAGE = (
    "This game is not being saved just now (the server's log says why). It is kept here as you play, "
    "and saved again when it can: keep this page open until then."
)
SAVED_AGAIN_MESSAGE = "The game is being saved again: no move was lost."
RESTORED_MESSAGE = "The game you were playing is back, as it was."
NOTHING_TO_RESTORE = "There is no replaced game to bring back: a game is kept only until your first move in the next."
NEVER_SAVED_MESSAGE = (
    "This game is not being saved: the server cannot write its saved games just now (its log says why). "
    "You can play it here, but reloading the page will lose it."
)
WAITING_MESSAGE = (
    "This table is waiting for the server's disk: nothing can be saved just now, so a move just made at "
    "another seat shows here once it is saved. Keep this page open."
)
SAVING_NOTES = (NOT_SAVING_MESSAGE, SAVED_AGAIN_MESSAGE, NEVER_SAVED_MESSAGE, WAITING_MESSAGE)
"""The notes on saving the model adds to what it tells the reader (:meth:`SavingTable._saving_note`)."""
RETRY_SECONDS = 2.0
"""How often a table whose store failed tries again, with nothing else happening (:meth:`SavingTable.save_again`)."""
SAVE_WAIT_SECONDS = 0.05
"""How long a click waits for its move's write on the writer's thread (:meth:`SavingTable.save_off_thread`):
a store that answers within it (SQLite or PostgreSQL at work: a few milliseconds) has saved the move
when the table is redrawn; one that hangs holds the click this long at most."""
QUIET_SECONDS = 60.0
"""A store that keeps failing is logged once, then in one short line at most this often."""
SAVING_STOPPED_MESSAGE = (
    "This game can no longer be saved (the server's log says why). You can play on, but reloading the page "
    "will lose it."
)


class ReplayError(ValueError):
    """A saved journal that no longer replays (an event the engine now refuses, or a bot action out of turn)."""


# What a replayed journal rebuilds; a reload after a refused write takes exactly these from the saved game.
GAME_STATE = (
    "game",
    "kit",
    "rules",
    "names",
    "seat",
    "bot_name",
    "_bots",
    "table_game",
    "_records",
    "_lines",
    "_books",
    "_seed",
    "_reader_moves",
    "_history",
    "_replaced",
    "_moves",  # none: the moves of the refused change are not laid out (widgets.views.pacing)
    "practice",
)


class SavingTable:
    """The saving half of :class:`~widgets.table.model.TableModel` (a mixin: the model plays, this keeps
    its journal and its store). What it needs of the model is declared below for the type checker."""

    game_state: ClassVar[tuple[str, ...]] = GAME_STATE
    """What a model takes from the model its journal rebuilds (:meth:`rebuild`)."""
    practice: Shelf = Shelf()
    """The reader's positions to practise and progress (:mod:`widgets.table.practice`), changed by
    :meth:`practise`: kept in the journal as events of their own, and carried by each start event."""

    if TYPE_CHECKING:
        message: str
        seat: int
        bot_name: str
        names: tuple[str, ...]
        table_id: str | None
        _rng: random.Random
        _history: list[Event]
        _replaced: list[Event] | None
        _pushed: list[Action]
        _script: list[dict[str, Any]] | None
        _replaying: bool
        _store: Journals | None
        _count: int
        _unsaved: list[Event]
        _failing: bool
        _saved_note: str
        _never_saved: bool
        _logged_failure: float
        _writer: SaveWriter | None
        _in_flight: int
        _probing: bool
        _write_round: int
        _save_wait: float

        def __init__(
            self, *, journal: Sequence[Event] | None = None, rng: random.Random | None = None, **settings: Any
        ) -> None: ...
        def _say(self, message: str) -> None: ...
        def _begin(
            self, game: str, rules: Any, names: Any, seed: int | None, *, code: Any = None, bots: Any = None
        ) -> bool: ...
        def _piece(self, text: str) -> Card | Tile: ...
        def act(self, action: Action) -> bool: ...
        def undo(self) -> bool: ...
        def new_hand(self, seed: int | None = None) -> bool: ...
        def import_record(self, text: str) -> bool: ...

    def _journal(self, event: Event) -> bool:
        """Keep ``event`` (with the bot actions it caused) and save it; False if the store refused it
        (another tab moved the game on: the change is undone by reloading the saved game, and the
        reader is told). A store that fails is tried again at the next change (:meth:`_save`)."""
        if self._pushed:
            event["then"] = [a.to_record() for a in self._pushed]
        self._pushed = []
        if event["type"] == START and self.practice:  # the stores keep the events from here: the shelf goes on
            event[PRACTICE] = self.practice.to_json()
        self._history.append(event)
        if event["type"] == "act":  # the reader has played on in this game: the one it replaced is gone
            self._replaced = None
        if self._store is None or self._replaying or self.table_id is None:
            return True
        self._unsaved.append(event)
        return self._save()

    def practise(self, change: Event) -> bool:
        """Change the reader's practice shelf (a change of :mod:`widgets.table.practice`) and save it as
        an event of the journal; False if the store refused it (the table was played on elsewhere)."""
        self.practice = self.practice.changed(change)
        return self._journal({**change, "type": PRACTICE})

    def _replacing(self) -> None:
        """A new game is about to start: keep the game in play (its events), to bring back if asked."""
        if self._history:
            self._replaced = list(self._history)

    @property
    def can_restore(self) -> bool:
        """Whether the game the last new game replaced may still be brought back (:meth:`restore_replaced`)."""
        return bool(self._replaced)

    def restore_replaced(self) -> bool:
        """Bring back the game that the last new game (or loaded record, or deal code) replaced, as it
        was when it was replaced, and save that; False, with the reason said, if there is none."""
        events = self._replaced
        if not events:
            self._say(NOTHING_TO_RESTORE)
            return False
        self._become(events)  # its own events, so it replays
        self._replaced, self._pushed = None, []
        # Saved as a new game that is the old one: its events again, from its start (the store then
        # forgets the game that replaced it).
        if self._store is not None and self.table_id is not None:
            self._unsaved.extend(dict(event) for event in events)
            if not self._save():
                return False
        self._say(RESTORED_MESSAGE)
        return True

    def _save(self) -> bool:
        """Write the events the store does not hold yet; False only if another tab moved the game on.

        A store that fails (a full disk, a file made read-only, a database away) keeps nothing: the
        game goes on in memory, the reader is told it is not being saved, and the next change (or
        :meth:`save_again`) sends every event not yet saved, so no move is lost once the store works
        again. The log says why once, when it begins to fail, and again when it saves.

        A table saving on a thread of its own (:meth:`save_off_thread`) hands them to it and
        returns at once: what the store said is taken when it is done (:meth:`saves_done`).
        """
        assert self._store is not None and self.table_id is not None
        if self._writer is not None:
            return self._send()
        self._saved_note = ""
        try:
            count = self._store.append(self.table_id, self._count, self._unsaved)
        except StaleTable as stale:
            self._stale(stale)
            return False
        except (StoreError, OSError) as error:
            self._save_failed(error)
            return True
        self._saved(len(self._unsaved), count)
        return True

    def _saved(self, written: int, count: int, *, quiet: bool = False) -> None:
        """The store took the first ``written`` events not yet saved, and holds ``count`` now."""
        was_failing = self._failing
        self._count, self._unsaved, self._failing = count, self._unsaved[written:], False
        if was_failing:
            log.warning("table %s: saved again, %d events kept meanwhile among them", self.table_id, written)
            self._saved_note = SAVED_AGAIN_MESSAGE
            if not quiet:
                self._say(self.message)

    def _stale(self, stale: StaleTable) -> None:
        """The store refused the write (another tab moved the game on): become the game as saved."""
        log.info("table %s: a stale write was refused (%s)", self.table_id, stale)
        new_game = any(event.get("type") == START for event in self._unsaved)
        self._unsaved = []
        self.reload_saved(STALE_NEW_GAME_MESSAGE if new_game else STALE_MESSAGE)

    def _save_failed(self, error: BaseException) -> None:
        """The store failed the write: every event is kept to send again; the reader is told once."""
        self._log_failure(f"could not save {len(self._unsaved)} events; kept to send again", error)
        if not self._failing:  # the reader is told once, as long as it lasts: a retry redraws nothing
            self._failing = True
            self._say(self.message)

    # ----- saving on a thread of its own (widgets.table.save_writer) ---------------------------------

    def save_off_thread(self, writer: SaveWriter, wait: float = SAVE_WAIT_SECONDS) -> None:
        """From now on, save on ``writer``'s thread: a change is drawn at once, never waiting for the
        store (a database that hangs held the reader's click for the store's whole limit, issue 28).

        One write at a time, of every event not yet saved, from the count the store last gave: so
        they are saved in the order they were made, and each is kept until the store has it. A write
        that fails is sent again at the next change or :meth:`save_again`; a refused one reloads the
        game as saved, as the store's answer would have at once. Each write is waited for ``wait``
        seconds (:data:`SAVE_WAIT_SECONDS`): a store that answers in time has the move before the
        click is answered, as before; one that does not holds the click no longer."""
        self._writer, self._save_wait = writer, wait

    def _send(self) -> bool:
        """Give the writer the events not yet saved, unless a write is under way (then they go when it
        is done); False if the store refused one (another tab moved the game on: it is reloaded)."""
        if not self._take_saves():
            return False
        writer, store, table_id = self._writer, self._store, self.table_id
        if writer is None or store is None or table_id is None or self._in_flight or not self._unsaved:
            return True
        batch, expected = list(self._unsaved), self._count
        self._in_flight = len(batch)
        if not self._failing:
            self._saved_note = ""
        writer.submit(("append", self._write_round, len(batch)), lambda s: s.append(table_id, expected, batch))
        if self._save_wait > 0 and writer.wait(self._save_wait):  # a store that answers saves before the
            return self._take_saves()  # click is answered: a kernel killed then loses nothing (README)
        return True

    def saves_done(self) -> None:
        """Take what the writer's thread has done (called on the kernel's thread when it has done one)."""
        try:
            self._take_saves()
            if self._unsaved and not self._in_flight and not self._failing:
                self._send()  # the changes made while the last write was under way
        except Exception:
            log.exception("table %s: could not take what was saved", self.table_id)

    def _take_saves(self, *, quiet: bool = False) -> bool:
        """Apply what the writer's thread has done; False if a write was refused (the game reloaded)."""
        writer, fresh = self._writer, True
        if writer is None:
            return fresh
        for done in writer.done():
            kind, round_, written = done.tag
            if kind == "ask":  # a question asked on the writer's thread: its answer, on this one
                written(done)
                continue
            if round_ != self._write_round:  # given before the game was reloaded: nothing of it is kept
                continue
            if kind == "probe":
                self._probing = False
                if done.result is True and self._failing and not self._unsaved:
                    log.warning("table %s: its store can be written again", self.table_id)
                    self._failing, self._saved_note = False, SAVED_AGAIN_MESSAGE
                    if not quiet:
                        self._say(self.message)
                continue
            self._in_flight = 0
            if done.error is None:
                self._saved(written, int(done.result), quiet=quiet)
            elif isinstance(done.error, StaleTable):
                self._stale(done.error)
                fresh = False
            else:  # a full disk, a database away, or anything else: every event is kept to send again
                self._save_failed(done.error)
        return fresh

    def ask_off_thread(self, question: Callable[[Journals], Any], answered: Callable[[Done], None]) -> bool:
        """Ask the store ``question`` on the writer's thread, after the writes given before it, and
        give ``answered`` its :class:`~widgets.table.save_writer.Done` on the kernel's thread; False (nothing
        asked) for a table that saves where it plays."""
        if self._writer is None:
            return False
        self._writer.submit(("ask", self._write_round, answered), question)
        return True

    def finish_saves(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the write under way and take what it did, telling the
        reader nothing (the kernel is ending: what is still not saved goes to widgets.store.lifeboat)."""
        if self._writer is not None:
            self._writer.wait(timeout)
            self._take_saves(quiet=True)

    def _log_failure(self, what: str, error: BaseException) -> None:
        """The first failure of a spell in a line naming the error, the next ones in a line a minute
        at most. Never a traceback: a full disk or a database away is no bug, and the error's words
        say which (a frozen PostgreSQL wrote one into every table's log, bench/attack.py dbfreeze)."""
        now = time.monotonic()
        said = f"{type(error).__name__}: {error}"
        if not self._failing:
            log.error("table %s: %s (%s)", self.table_id, what, said)
        elif now - self._logged_failure > QUIET_SECONDS:
            log.warning("table %s: still %s (%s)", self.table_id, what, said)
        else:
            return
        self._logged_failure = now

    def save_again(self) -> bool:
        """If the store failed, try again now (every :data:`RETRY_SECONDS`, with no change to send it):
        the events it could not take, or, with none waiting, whether it can be written again. True
        once the table is saved again (or never failed); the reader is told either way. Saving on a
        thread of its own, the try is given to that thread, and True comes once it has succeeded."""
        if self._store is None or self.table_id is None or self._replaying:
            return True
        if self._writer is not None:
            self._take_saves()
            if self._unsaved:
                self._send()
                return False
            if self._failing and not self._probing:
                self._probing, table_id = True, self.table_id
                self._writer.submit(("probe", self._write_round, 0), lambda s: _can_write(s, table_id))
            return not self._failing
        if self._unsaved:
            self._save()
        elif self._failing and _can_write(self._store, self.table_id):
            log.warning("table %s: its store can be written again", self.table_id)
            self._failing, self._saved_note = False, SAVED_AGAIN_MESSAGE
            self._say(self.message)
        return not self._failing

    def _saving_note(self) -> str:
        """What the reader is told of saving, after any message: not saved just now, saved again, or
        not saved at all (a table the server could give no place among its saved games)."""
        if self._failing or (self._unsaved and self._writer is None):  # a write under way is no failure
            return NOT_SAVING_MESSAGE
        if self._never_saved:
            return NEVER_SAVED_MESSAGE
        return self._saved_note

    def never_saved(self) -> None:
        """Tell the reader, with everything said from now on, that this game is not being saved at all."""
        self._never_saved = True
        self._say(self.message)

    def reload_saved(self, message: str) -> None:
        """Become the game as saved (after a refused write, or saved meanwhile elsewhere); if it cannot be
        read, stop saving and say so; then tell the reader ``message``."""
        assert self._store is not None and self.table_id is not None
        self._unsaved, self._failing, self._saved_note = [], False, ""
        self._forget_writes()
        try:
            self.rebuild(self._store.load(self.table_id))
        except Exception:
            log.exception("table %s: could not reload the saved game", self.table_id)
            self._store = None
            self._say(SAVING_STOPPED_MESSAGE)
            return
        self._say(message)

    def rebuild(self, saved: Saved) -> None:
        """Become the game ``saved`` holds, of which the store holds ``saved.count`` events."""
        self._become(saved.events)
        self._count = saved.count

    def _become(self, events: Sequence[Event]) -> None:
        """Become the game ``events`` describe, replayed (:meth:`replayed`): the one way a table in play is
        rebuilt from a journal (a reload, a replaced game brought back, a seat of a shared table catching up)."""
        fresh = self.replayed(events)
        for name in self.game_state:
            setattr(self, name, getattr(fresh, name))

    def replayed(self, events: Sequence[Event]) -> Self:
        """A model of this kind replaying ``events`` (from a start event) as this one plays: the same generator."""
        return type(self)(journal=events, rng=self._rng)

    def _forget_writes(self) -> None:
        """The game is reloaded: a write under way, whatever the store says of it, changes nothing now."""
        self._in_flight, self._probing, self._write_round = 0, False, self._write_round + 1

    def _replay(self, journal: Sequence[Event]) -> None:
        """Rebuild the game the events describe, each change made again with its saved bot actions."""
        if not journal or journal[0].get("type") != START:
            raise ReplayError("a saved game begins with a start event")
        self._replaying = True
        try:
            for index, event in enumerate(journal):
                self._script = list(event.get("then", []))
                try:
                    done = self._apply(event)
                except (RecordError, DealCodeError, IllegalActionError, KeyError, TypeError, ValueError) as error:
                    raise ReplayError(f"event {index + 1} ({event.get('type')}) cannot be replayed: {error}") from error
                if not done or self._script:
                    raise ReplayError(f"event {index + 1} ({event.get('type')}) does not replay as it was saved")
        finally:
            self._script = None
            self._replaying = False

    def _apply(self, event: Event) -> bool:
        kind = event["type"]
        if kind == START:
            self.practice = Shelf.from_json(event.get(PRACTICE))
        if kind == PRACTICE:
            return self.practise(event)
        if kind == START and "record" in event:  # a game begun by loading a record
            self.seat, self.bot_name = int(event["seat"]), str(event.get("bots", self.bot_name))
            return self.import_record(str(event["record"]))
        if kind == START:
            code = parse_deal_code(str(event["code"]))
            names = event.get("names")
            return self._begin(code.game, code.rules, names, None, code=code, bots=event.get("bots"))
        if kind == "act":
            return self.act(Action.from_record(event["action"], seats=len(self.names), piece=self._piece))
        if kind == "undo":
            return self.undo()
        if kind == "deal":
            return self.new_hand(int(event["seed"]))
        if kind == "import":  # how an earlier version saved a loaded record
            return self.import_record(str(event["record"]))
        raise ReplayError(f"unknown event {kind!r}")

    def attach(self, store: Journals, table_id: str) -> bool:
        """Save this game in ``store`` as table ``table_id`` (a table reserved, never played) and as it goes on.

        If the table was started meanwhile (a second tab of a new table), this model becomes the
        game saved there instead, and says so; returns False then. If the store fails (a full disk),
        the game is played unsaved for now, the reader is told, and it is saved at a later change.
        """
        self._store, self.table_id, self._count = store, table_id, 0
        self._unsaved = list(self._history)  # a store that fails now takes them at the next change
        return self._save()

    @classmethod
    def resume(
        cls,
        store: Journals,
        table_id: str,
        *,
        rng: random.Random | None = None,
        saved: Saved | None = None,
        **settings: Any,
    ) -> Self:
        """The game saved as ``table_id`` (``saved``, if it has just been read), at its last action, saving on
        as it goes; ``settings`` are the model's own (a shared table's seat and computer players).

        Raises :class:`~widgets.table.journal.UnknownTable` or :class:`~widgets.table.journal.BadTableId` for a
        table the store does not hold, :class:`ReplayError` for one that no longer replays.
        """
        saved = store.load(table_id) if saved is None else saved
        model = cls(journal=saved.events, rng=rng, **settings)
        model.bind(store, table_id, saved.count)
        return model

    def bind(self, store: Journals, table_id: str, count: int) -> None:
        """Save on in ``store`` as table ``table_id``, which holds this game's ``count`` events already
        (the game was made from them); a store that cannot be written now is said at once."""
        self._store, self.table_id, self._count = store, table_id, count
        self.check_store()

    def store_failed(self) -> None:
        """The store failed a write not of this game's (a seat's mark at a shared table): say the game
        is not being saved, until :meth:`save_again` finds the store can be written."""
        if self._store is not None and not self._failing:
            self._failing = True
            self._say(self.message)

    def check_store(self) -> None:
        """A store that cannot be written now (a read-only file, a full disk: it is asked by marking
        the table played now): tell the reader at once, before the first move fails to be saved."""
        if self._store is not None and not _can_write(self._store, self.table_id):
            self._failing = True
            self._say(self.message)

    @property
    def saving(self) -> bool:
        """Whether the game is being saved now: a store took every change, and can be written."""
        return self._store is not None and self.table_id is not None and not (self._unsaved or self._failing)

    @property
    def saved_events(self) -> int:
        """How many of the table's events the store holds (0 when the table is not saved)."""
        return self._count if self._store is not None else 0

    @property
    def journal(self) -> tuple[Event, ...]:
        """This game's journal, from its start event: every change the reader made, as it is saved."""
        return tuple(self._history)

    @property
    def store(self) -> Journals | None:
        """Where the game is saved (None for a game not saved)."""
        return self._store

    @property
    def unsaved(self) -> list[Event]:
        """The events the store has not taken yet (a full disk, a database away), to be sent again."""
        return list(self._unsaved)

    @property
    def saves_off_thread(self) -> bool:
        """Whether the store is written on a thread of its own (in a table's kernel, widgets.table.save_writer),
        so that a question for it goes there too (:meth:`ask_off_thread`)."""
        return self._writer is not None


def _can_write(store: Journals, table_id: str | None = None) -> bool:
    """Whether ``store`` says it can be written now (the server's database asks its file, and with
    ``table_id`` writes that table's row); a store that cannot say is taken at its word when it is
    next written."""
    can_write = getattr(store, "can_write", None)
    if can_write is None:
        return True
    try:
        return bool(can_write(table_id))
    except Exception:
        return False
