"""The model of a live table: a game of many hands of any game, the reader at one seat, bots at the others.

It knows nothing of widgets (docs/serving.md): views observe :attr:`TableModel.version` and read
:meth:`TableModel.view`, which holds only what the reader's seat may know. Every action the
reader takes goes through the engine, which refuses an illegal one with the law it breaks; the
reason reaches the reader as a message, never as a traceback.

The hands are played as one game (the engine's ``LooGame``, ``NapGame`` or ``DominoGame``), so
the pool carries from hand to hand and a double-entry ledger keeps every chip.

Hidden information: the seed of a deal tells everything about it, so the model keeps it to
itself until the hand is over, and exports a record only then. Each hand has its own seed, drawn
from :mod:`secrets` (or from an injected generator, to replay a game); showing one hand's seed
tells nothing about the next. The hand's deal code (:mod:`widgets.table.dealcode`) is given only when
asked for (:meth:`TableModel.deal_code`).

Saving (:mod:`widgets.table.saving`): the model keeps a journal of events from which a replay
rebuilds the game exactly, and saves it as it goes in the server's database or the browser's
storage (:meth:`TableModel.attach`, :meth:`TableModel.resume`); a store that fails loses no move.

>>> table = TableModel("three-card-loo", preset="enquire-within", seed=12, rng=random.Random(1))
>>> view = table.view()
>>> view.seat, view.to_act == 0, table.seed is None
(0, True, True)
"""

from __future__ import annotations

import json
import logging
import random
import re
import secrets
from collections.abc import Sequence
from typing import Any

import traitlets

from loo.core.actions import Action, IllegalActionError
from loo.core.cards import Card
from loo.core.ledger import Books, ChipLedger
from loo.core.protocols import Hand, MissHand, Piece, PointsGame, View
from loo.core.records import RecordBase
from loo.core.rules import RecordError
from loo.core.sampling import SamplingPlayer
from loo.core.tiles import Tile
from loo.kits import kit
from loo.records import load, record_type, replay_actions
from loo.registry import spec
from widgets.table.chips import GameLines, HandLine
from widgets.table.dealcode import USUAL_SEATS, DealCode, DealCodeError, parse_deal_code
from widgets.table.hints import Hint, hint_for
from widgets.table.journal import START, Event, Journals
from widgets.table.moves import Move, push_move
from widgets.table.save_writer import SaveWriter
from widgets.table.saving import SAVING_NOTES, ReplayError, SavingTable
from widgets.table.table_words import cited

log = logging.getLogger("lanterloo.widgets.table.model")

# A name for each seat of the largest table (loo.records.MAX_SEATS: Irish Loo's 17, AMB-02).
DEFAULT_NAMES = tuple("Ann Ben Cat Dan Eve Fay Gus Hal Ivy Jon Kay Lou Max Ned Ola Pia Rex".split())
SEATS = USUAL_SEATS  # the players at a new table of each game (loo.registry)
PIECE_VERBS = ("play",)
SEED_LIMIT = 10**9  # a new deal's seed is from 1 to SEED_LIMIT - 1
FINISHED_MESSAGE = (
    "This hand is over, so it cannot be taken back: every card of it has been seen. Deal the next hand to play on."
)


class TableModel(SavingTable, traitlets.HasTraits):
    """A game at a table. The reader sits at ``seat``; ``bots`` names the computer players' strength.

    ``rules`` is what a record's ``rules`` field holds: a preset name, or ``{"preset": ..., option: value}``.
    ``seed`` is the first hand's deal code; ``rng`` drives the later deals and the bots (inject it
    to make a whole game reproducible).
    """

    version = traitlets.Int(0, help="bumped after every change, for views to observe")
    message = traitlets.Unicode("", help="the latest plain-words message for the reader")
    teaching = traitlets.Bool(False, help="show every hand face up (a teacher's switch; off at a real table)")

    def __init__(
        self,
        game: str = "three-card-loo",
        *,
        preset: str | None = None,
        rules: Any = None,
        seat: int = 0,
        names: Sequence[str] | None = None,
        seed: int | None = None,
        bots: str = "thumb",
        rng: random.Random | None = None,
        code: DealCode | str | None = None,
        journal: Sequence[Event] | None = None,
    ) -> None:
        """``code`` deals its hand (a :class:`DealCode` or its text) instead of ``game``, ``rules``,
        ``seat`` and ``seed``; ``journal`` rebuilds the game those saved events describe."""
        super().__init__()
        # Without an injected generator the table draws from the system's entropy, never from the
        # first deal's seed: that seed is shown when the hand ends and must not predict the next.
        self._rng = rng if rng is not None else random.Random()
        self._seeded_by_rng = rng is not None  # an injected generator deals too (a reproducible game)
        self.bot_name = bots
        self.seat = seat
        self._history: list[Event] = []  # this game's journal, from its start event
        self._replaced: list[Event] | None = None  # the journal of the game a new game replaced (saving.py)
        self._pushed: list[Action] = []  # the bot actions the change in hand has caused
        self._script: list[dict[str, Any]] | None = None  # while replaying: the bot actions to push
        self._replaying = False
        self._store: Journals | None = None
        self.table_id: str | None = None
        self._count = 0  # the events of this table that the store holds, as this model last saw them
        self._unsaved: list[Event] = []  # events the store could not take yet (a full disk): sent again
        self._failing = False  # the last write failed
        self._saved_note = ""  # said once the store takes them
        self._never_saved = False  # a table the server could give no place among its saved games
        self._logged_failure = 0.0  # when the store's failing was last logged
        self._writer: SaveWriter | None = None  # the thread that saves, in a table's kernel (widgets.table.saving)
        self._in_flight = 0  # how many of the events not yet saved the writer is writing now
        self._probing = False  # the writer is asking whether a failing store can be written again
        self._write_round = 0  # counts the reloads: what the writer was given before one is not taken
        self._save_wait = 0.0  # how long a click waits for its write (widgets.table.saving.SAVE_WAIT_SECONDS)
        self._moves: list[Move] = []  # the moves made since the table was last redrawn
        self.moves: tuple[Move, ...] = ()  # the moves the latest change made, for widgets.views.pacing to lay out
        if journal is not None:
            self._replay(journal)
        else:
            if isinstance(code, str):
                code = parse_deal_code(code)
            self._begin(game, rules if rules is not None else preset, names, seed, code=code)
        self.observe(lambda _c: self._say(self.message), names=["teaching"])

    def _start(
        self,
        game: str,
        rules: Any,
        names: Sequence[str] | None,
        seed: int | None,
        *,
        dealer: int | None = None,
        deal: bool = True,
    ) -> None:
        game_kit = kit(game)
        self.rules = game_kit.read_rules(game, rules)  # raises RecordError naming a bad option
        table = tuple(names) if names is not None else DEFAULT_NAMES[: SEATS.get(game, 4)]
        if not 0 <= self.seat < len(table):
            raise ValueError(f"seat {self.seat} is not at this table: seats are 0 to {len(table) - 1}")
        self.game, self.kit, self.names = game, game_kit, table
        self._bots = [None if i == self.seat else game_kit.make_bot(self.bot_name) for i in range(len(table))]
        # The reader is the eldest hand of the first deal: the dealer sits on the reader's right.
        first = dealer if dealer is not None else (self.seat - 1) % len(table)
        self.table_game = game_kit.new_game(self.rules, list(table), self._rng, first)
        self._records: list[RecordBase[Any]] = []  # the finished hands of this game, as records
        self._lines = GameLines(self.table_game)  # and as its accounts say them, each hand's once
        self._books: Books | None = None  # the game's books before the hand in play was settled
        self._seed: int | None = None
        self._reader_moves = 0
        if deal:
            self._deal(seed)

    def _start_code(self, code: DealCode, names: Sequence[str] | None = None) -> None:
        """A new game whose first hand is the deal ``code`` names, the reader at its seat."""
        n = code.n_seats
        table = tuple(names) if names is not None and len(names) == n else DEFAULT_NAMES[:n]
        self.seat = code.seat
        rules = kit(code.game).read_rules(code.game, code.rules)
        pool, kind = first_deal(code.game, rules, table, code.first_dealer, code.seed)
        if (code.pool is None or code.pool == pool) and (code.kind is None or code.kind == kind):
            # A new game's own first deal: the ledger books its stakes as the game does.
            self._start(code.game, code.rules, table, code.seed, dealer=code.first_dealer)
            return
        # A later hand of some game (another dealer, a pool carried over): the seeded record's hand,
        # its pool booked as the dealer's, as an imported record's is.
        hand = load(json.dumps(code_record(code, table))).start()
        self._start(code.game, code.rules, table, None, dealer=code.first_dealer, deal=False)
        self._sit_at(hand, code.seed)

    def _begin(
        self,
        game: str,
        rules: Any,
        names: Sequence[str] | None,
        seed: int | None,
        *,
        code: DealCode | None = None,
        bots: str | None = None,
    ) -> bool:
        """Start a new game (from ``code`` if given) and journal it; False if the store refused it."""
        self._pushed = []
        if bots is not None:
            self.bot_name = bots
        if code is not None:
            self._start_code(code, names)
        else:
            self._start(game, rules, names, seed)
        first = self.deal_code()
        assert first is not None  # a new game's first hand is always dealt from a seed
        self._replacing()
        self._history = []
        started = self._journal({"type": START, "code": str(first), "names": list(self.names), "bots": self.bot_name})
        return started and self.past_the_deal(first.seed if code is not None else None)

    # ----- what the reader may see -----------------------------------------------------------

    @property
    def hand(self) -> Hand:
        """The hand in play, or the last one played (a table always has one once it is set up)."""
        hand = self.table_game.hand
        assert hand is not None, "this table has dealt no hand yet"
        return hand

    def view(self) -> View:
        """The reader's seat's view: its own cards and the public table, nothing else."""
        return self.hand.view(self.seat)

    def legal(self) -> list[Action]:
        """The reader's legal actions now (empty when it is not the reader's turn)."""
        return list(self.view().legal)

    def unavailable(self) -> list[tuple[Action, str]]:
        """The declarations and calls the reader may not make now, each with a one-line reason and its law."""
        if self.hand.is_over or self.hand.to_act != self.seat:
            return []
        return [
            (e.action, f"{_sentence(e.reason)} ({e.law})")
            for e in self.hand.explain()
            if not e.legal and e.action.verb not in PIECE_VERBS
        ]

    def open_hands(self) -> tuple[tuple[Piece, ...] | None, ...] | None:
        """Every seat's pieces while the teaching switch is on, or once the hand is over (its record is
        public then); otherwise None, and nothing leaves the model."""
        if not (self.teaching or self.hand.is_over):
            return None
        return tuple(
            tuple(self.hand.holding(p)) if self.hand.holding(p) is not None else None for p in range(len(self.names))
        )

    @property
    def seed(self) -> int | None:
        """The deal's seed, but only once the hand is over: before that it would reveal every card."""
        return self._seed if self.hand.is_over else None

    def deal_code(self) -> DealCode | None:
        """The deal code of the hand in play (or just finished); None for a hand loaded from a record.

        It tells anyone with the engine every card of the hand, so a table shows it only when the
        reader asks (a teacher deals, copies the code, gives it to the class).
        """
        if self._seed is None or self.table_game.hand is None:
            return None
        n = len(self.names)
        rules = self.rules.to_record()
        dealer = int(self.hand.dealer)
        pool, kind = first_deal(self.game, self.rules, self.names, dealer, self._seed)
        own_kind = _kind_of(self.hand)
        return DealCode(
            game=self.game,
            rules=rules,
            seat=self.seat,
            seed=self._seed,
            dealer=None if dealer == (self.seat - 1) % n else dealer,
            pool=None if int(self.hand.pool) == pool else int(self.hand.pool),
            kind=None if own_kind == kind else own_kind,
            seats=None if n == USUAL_SEATS[self.game] else n,
        )

    @property
    def can_undo(self) -> bool:
        """Whether the reader has a move to take back: one of theirs in this hand, and the hand not over
        (a finished hand has shown every card: taking a move back would replay it knowing them)."""
        return self._reader_moves > 0 and not self.hand.is_over

    @property
    def pool(self) -> int:
        return int(self.table_game.pool)

    def balances(self) -> dict[str, int]:
        """Each player's chips over the game so far (finished hands only)."""
        return dict(self.table_game.balances())

    def hand_lines(self) -> list[HandLine]:
        """The game hand by hand, as :class:`widgets.table.chips.GameLines` accounts it (once a hand, as it is
        settled): each player's chips in their parts (the dealer's stake among them) and net, the pool
        carried over, and any points."""
        return self._lines.lines

    @property
    def hand_records(self) -> tuple[RecordBase[Any], ...]:
        """The finished hands of this game, as records (each game's record class, :mod:`loo.records`)."""
        return tuple(self._records)

    @property
    def records(self) -> list[dict[str, Any]]:
        """The finished hands of this game, as the JSON objects of their ``loo-record/1`` records."""
        return [record.to_json() for record in self._records]

    # ----- what the reader may do ------------------------------------------------------------

    def act(self, action: Action) -> bool:
        """Take the reader's ``action`` through the engine; on refusal say why and change nothing."""
        if action.seat != self.seat:
            self._say(f"You sit as {self.names[self.seat]}; that action is for another seat.")
            return False
        if self.hand.is_over:
            self._say("This hand is over: deal the next hand to play on.")
            return False
        try:
            self._moves.append(push_move(self.hand, self.seat, action))
        except IllegalActionError as error:
            self._say(f"{_sentence(error.message)} ({cited(error.law)})")
            return False
        self._pushed = []
        self._reader_moves += 1
        self._advance()
        if not self._journal({"type": "act", "action": action.to_record()}):
            return False
        self._say("")
        return True

    def why(self, action: Action) -> str:
        """Why ``action`` is or is not allowed now, in plain words with the law and its sources."""
        for explanation in self.hand.explain():
            if explanation.action == action:
                verdict = "Allowed" if explanation.legal else "Not allowed"
                return f"{verdict}: {_sentence(explanation.reason)} ({cited(explanation.law)})"
        problem = self.hand.why_illegal(action)
        if problem is None:
            return "Allowed."
        return f"Not allowed: {_sentence(problem[1])} ({cited(problem[0])})"

    def undo(self) -> bool:
        """Take back the reader's last action and everything the bots did after it, while the hand is in play.

        A finished hand stays finished: it has shown every card. (An earlier version took a finished
        hand back, unpaying it; a saved game that did so still replays as it was played.)
        """
        if self.hand.is_over and not self._replaying:
            self._say(FINISHED_MESSAGE)
            return False
        if not self._reader_moves:
            self._say("There is nothing of yours to take back in this hand.")
            return False
        self._unsettle()
        while True:
            action = self.hand.pop()
            if action.seat == self.seat:
                break
        self._reader_moves -= 1
        self._pushed = []
        if not self._journal({"type": "undo"}):
            return False
        self._say("Taken back.")
        return True

    def hint(self) -> Hint | None:
        """The strong player's advice for the reader now (:mod:`widgets.table.hints`): its choice, every choice's
        value with a 95% interval, and a reason; the same for the same position. None if not the reader's turn."""
        view = self.view()
        advisor = self.kit.make_bot("sampling")
        if not view.legal or not isinstance(advisor, SamplingPlayer):
            return None
        return hint_for(advisor, view)

    def new_hand(self, seed: int | None = None) -> bool:
        """Deal the game's next hand, from ``seed`` if given (a deal code), once this one is over."""
        if not self.hand.is_over:
            self._say("Finish this hand first (or start a new game).")
            return False
        self._pushed = []
        if not self._deal(seed):
            return False
        return self._journal({"type": "deal", "seed": self._seed}) and self.past_the_deal()

    def past_the_deal(self, code_seed: int | None = None) -> bool:
        """A hand settled as dealt (Peel's single, L3-SGL-01/08) is shown (widgets.views.opening) and the next dealt at
        once; after a deal code's single, from a seed the code's fixes (a class plays the same next hand)."""
        if self._replaying or not self.hand.is_over or self.hand.actions:
            return True
        seed = random.Random(f"after-single:{code_seed}").randrange(1, SEED_LIMIT) if code_seed else None
        return self.new_hand(seed)

    def new_game(self, game: str | None = None, *, rules: Any = None, seed: int | None = None) -> bool:
        """Start a new game, of ``game`` under ``rules`` if given (else the same game and rules again)."""
        if game is None:
            game, rules = self.game, self.rules.to_record() if rules is None else rules
        names = self.names if len(self.names) == SEATS.get(game, 4) else None
        return self._begin(game, rules, names, seed)

    def play_code(self, text: str) -> bool:
        """Start a new game at the deal a deal code names (or a link holding one); a bad code is
        refused with the part at fault named, and the game in play is left as it was.

        A bare number is a seed of this table's game and rules.
        """
        try:
            code = parse_deal_code(text, game=self.game, rules=self.rules.to_record())
        except DealCodeError as error:
            self._say(f"That deal code cannot be used: {error.message}.")
            return False
        names = self.names if len(self.names) == code.n_seats and self.game == code.game else None
        if not self._begin(code.game, code.rules, names, None, code=code):
            return False
        self._say(f"Dealt from the deal code {code}: a new game starts at that hand.")
        return True

    def hand_record(self) -> RecordBase[Any] | None:
        """The finished hand as a record; None while it is in play (it would show hidden cards)."""
        if not self.hand.is_over:
            return None
        if self._records and self._booked():  # the hand as the game's records keep it
            return self._records[-1]
        record: RecordBase[Any] = record_type(self.game).of_hand(self.hand)
        return record

    def record(self) -> dict[str, Any] | None:
        """The finished hand as a loo-record/1 record's JSON object; None while it is in play."""
        record = self.hand_record()
        return None if record is None else record.to_json()

    def export(self, *, whole_game: bool = False) -> str | None:
        """The finished hand's record as JSON text, or the game's finished hands as a JSON list of records."""
        if whole_game:
            return json.dumps(self.records, ensure_ascii=False, indent=1)
        record = self.record()
        return None if record is None else json.dumps(record, ensure_ascii=False, indent=1)

    def import_record(self, text: str) -> bool:
        """Sit down at the hand a record describes: a new game of its rules, played on from the record's end.

        A record that cannot be read, or whose actions break a law, is refused with the field or the
        law named, and the table is left as it was.
        """
        try:
            loaded = load(text)
            hand = replay_actions(loaded.start(), loaded.actions)
        except RecordError as error:
            self._say(f"That record cannot be read: {error}")
            return False
        except IllegalActionError as error:
            self._say(f"That record's action {error.index} breaks {error.law}: {error.message}")
            return False
        if not 0 <= self.seat < len(hand.names):
            self._say(f"That record has {len(hand.names)} seats; you sit at seat {self.seat}.")
            return False
        self._pushed = []
        self._start(loaded.game_name, loaded.rules.to_record(), tuple(hand.names), None, deal=False)
        self._sit_at(hand, None)
        # A new game begins at the record's hand: its start event holds the record, and the journal
        # of the game before it is kept only to be brought back (SavingTable.restore_replaced).
        self._replacing()
        self._history = []
        if not self._journal({"type": START, "record": text, "seat": self.seat, "bots": self.bot_name}):
            return False
        self._say("Record loaded.")
        return True

    def _sit_at(self, hand: Hand, seed: int | None) -> None:
        """Make ``hand`` (a record's, or a deal code's) the hand in play, its pool booked as the dealer's."""
        self.table_game.sit_at(hand)
        self._seed = seed
        self._reader_moves = 0
        self._books = None
        self._advance()

    # ----- dealing and the computer players --------------------------------------------------

    def _deal(self, seed: int | None) -> bool:
        self._settle()
        if isinstance(self.table_game, PointsGame) and self.table_game.is_over:
            self._say(f"The game is over: {self.table_game.winner} has won. Start a new game to play again.")
            return False
        self._seed = seed if seed is not None else self._new_seed()
        self.table_game.rng = random.Random(self._seed)  # this hand's deal, and nothing after it
        self.table_game.next_hand()
        self._reader_moves = 0
        self._books = None
        self._advance()
        self._say("")
        return True

    def _new_seed(self) -> int:
        """A fresh deal's seed: from the operating system's cryptographic generator (:mod:`secrets`),
        for a finished hand shows its seed, and a generator's outputs could be read back to find the
        next; from the injected generator when there is one, so that a test or a study replays."""
        if self._seeded_by_rng:
            return self._rng.randrange(1, SEED_LIMIT)
        return 1 + secrets.randbelow(SEED_LIMIT - 1)

    def _advance(self) -> None:
        """Let the bots act until it is the reader's turn or the hand is over; then pay the hand."""
        while not self.hand.is_over and self.hand.to_act != self.seat:
            seat = self.hand.to_act
            assert seat is not None  # a hand in play always has a seat to act
            if self._script is not None:  # replaying a journal: the bots' saved actions, not their choices
                if not self._script:
                    raise ReplayError(f"the journal has no action for seat {seat}, whose turn it is")
                action = Action.from_record(self._script.pop(0), seats=len(self.names), piece=self._piece)
                if action.seat != seat:
                    raise ReplayError(f"the journal has {action} where seat {seat} is to act")
            else:
                bot = self._bots[seat]
                assert bot is not None
                action = bot.choose(self.hand.view(seat), self._rng)
            if self._script is None:  # a move the reader sees made (widgets.views.pacing), not a replay's
                self._moves.append(push_move(self.hand, self.seat, action))
            else:
                self.hand.push(action)
            self._pushed.append(action)
        if self.hand.is_over:
            self._settle()

    def _piece(self, text: str) -> Card | Tile:
        piece: Card | Tile = spec(self.game).parse_piece(text)
        return piece

    def _settle(self) -> None:
        """Book the finished hand in the ledger once, keeping the books before it so a take-back can unbook it;
        keep its record and its line in the accounts."""
        game = self.table_game
        if game.hand is None or not game.hand.is_over:
            return
        if not self._booked():
            self._books = game.books() if isinstance(game, ChipLedger) else None
            game.settle()
        if len(self._records) < len(game.results):  # a hand the game settled as it was dealt counts too
            self._records.append(record_type(self.game).of_hand(self.hand))
        self._lines.catch_up()

    def _booked(self) -> bool:
        results = self.table_game.results
        return bool(results) and results[-1].settlement is self.hand.settlement

    def _unsettle(self) -> None:
        """Take back the booking of the finished hand (a take-back in an old saved game): the books as they were."""
        game = self.table_game
        if self._books is not None and self._booked() and isinstance(game, ChipLedger):
            game.restore(self._books)
            self._records.pop()
            self._lines.catch_up()
        self._books = None

    def _say(self, message: str) -> None:
        """Tell the reader ``message``, and, while the game cannot be saved, that too."""
        for note in SAVING_NOTES:
            message = message.replace(note, "").strip()
        note = self._saving_note()
        self.message = f"{message} {note}".strip()
        self.moves, self._moves = (() if self._replaying else tuple(self._moves)), []
        if not self._replaying:  # a replay redraws nothing until it is done
            self.version += 1


def code_record(code: DealCode, names: Sequence[str]) -> dict[str, Any]:
    """The ``loo-record/1`` record of the deal ``code`` names, its deal ``{"seed": N}`` and no actions:
    the engine's own deal of that seed. A pool or kind of deal the code leaves out is a first deal's."""
    rules = kit(code.game).read_rules(code.game, code.rules)
    pool, kind = first_deal(code.game, rules, names, code.first_dealer, code.seed)
    record = code.record(names, code.pool if code.pool is not None else pool)
    record.pop("deal_kind", None)
    if (code.kind or kind) != "normal":
        record["deal_kind"] = code.kind or kind
    return record


def first_deal(game: str, rules: Any, names: Sequence[str], dealer: int, seed: int) -> tuple[int, str]:
    """The pool and the kind of deal of a new game's first hand dealt by ``dealer`` from ``seed``."""
    table_game = kit(game).new_game(rules, list(names), random.Random(seed), dealer)
    hand = table_game.next_hand()
    return int(hand.pool), _kind_of(hand)


def _kind_of(hand: Hand) -> str:
    return str(hand.deal_kind) if isinstance(hand, MissHand) else "normal"


# The engine names pieces as records write them ("10S", "6-3"); a reader is shown their names, each
# with its article ("the ten of spades") unless a word before it already fixes which piece it is.
_PIECE_CODE = re.compile(r"(?<![\w-])(?:(?:10|[2-9JQKA])[SHDC]|[0-9]-[0-9])(?![\w-])")
_FIXED = re.compile(r"(?:\b(?:the|a|an|its|their|your|each|every|no|one|trump|turn-up|card|tile)|Pam,) $", re.I)


def in_words(text: str) -> str:
    """``text`` with every card or tile written as a record writes it named in words, with its article.

    >>> in_words("Ann holds 10S and QH, so 4H may not be played (L3-PLAY-02)")
    'Ann holds the ten of spades and the queen of hearts, so the four of hearts may not be played (L3-PLAY-02)'
    >>> in_words("lead 6-3, not 2-0: the trump 5-5 beats the 4-4 (DL-LEAD-02)")
    'lead the six-three, not the two-blank: the trump double five beats the double four (DL-LEAD-02)'
    """

    def named(match: re.Match[str]) -> str:
        code = match.group()
        piece = Tile.parse(code) if "-" in code else Card.parse(code)
        fixed = _FIXED.search(text, 0, match.start())
        return piece.name if fixed else f"the {piece.name}"

    return _PIECE_CODE.sub(named, text)


def _sentence(text: str) -> str:
    text = in_words(text.strip())
    return text[:1].upper() + text[1:] if text else text
