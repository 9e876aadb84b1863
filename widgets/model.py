"""The model of a live table: a game of many hands of any game, the reader at one seat, bots at the others.

It knows nothing of widgets (STYLE.md): views observe :attr:`TableModel.version` and read
:meth:`TableModel.view`, which holds only what the reader's seat may know. Every action the
reader takes goes through the engine, which refuses an illegal one with the law it breaks; the
reason reaches the reader as a message, never as a traceback.

The hands are played as one game (the engine's ``LooGame``, ``NapGame`` or ``DominoGame``), so
the pool carries from hand to hand and a double-entry ledger keeps every chip.

Hidden information: the seed of a deal tells everything about it, so the model keeps it to
itself until the hand is over, and exports a record only then. Each hand has its own seed, drawn
from the table's private generator; showing one hand's seed tells nothing about the next.

>>> table = TableModel("three-card-loo", preset="enquire-within", seed=12, rng=random.Random(1))
>>> view = table.view()
>>> view.seat, view.to_act == 0, table.seed is None
(0, True, True)
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import traitlets

from loo.actions import Action, IllegalActionError
from loo.kits import kit
from loo.laws import cite
from loo.records import RecordError, load, record_type, replay_actions

DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
SEATS = {"three-card-loo": 5, "five-card-loo": 5, "irish-loo": 5, "nap": 4, "domino-loo": 4, "domino-rounce": 4}
PIECE_VERBS = ("play",)


@dataclass(frozen=True)
class HandLine:
    """One finished hand in the game's ledger, as the ledger view shows it."""

    number: int  # 1 for the first hand
    dealer: str
    pool_before: int  # the pool the hand was played for
    pool_after: int  # what carries to the next hand
    net: Mapping[str, int]  # each player's chips won (+) or paid (-) in this hand
    loos: Mapping[str, int]  # chips paid into the pool as loos (or penalties) in this hand
    balances: Mapping[str, int]  # each player's running balance after this hand
    reason: str  # how the hand ended, e.g. "played", "all-threw"


class TableModel(traitlets.HasTraits):
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
    ) -> None:
        super().__init__()
        # Without an injected generator the table draws from the system's entropy, never from the
        # first deal's seed: that seed is shown when the hand ends and must not predict the next.
        self._rng = rng if rng is not None else random.Random()
        self.bot_name = bots
        self.seat = seat
        self._start(game, rules if rules is not None else preset, names, seed)
        self.observe(lambda _c: self._say(self.message), names=["teaching"])

    def _start(self, game: str, rules: Any, names: Sequence[str] | None, seed: int | None) -> None:
        game_kit = kit(game)
        self.rules = game_kit.read_rules(game, rules)  # raises RecordError naming a bad option
        table = tuple(names) if names is not None else DEFAULT_NAMES[: SEATS.get(game, 4)]
        if not 0 <= self.seat < len(table):
            raise ValueError(f"seat {self.seat} is not at this table: seats are 0 to {len(table) - 1}")
        self.game, self.kit, self.names = game, game_kit, table
        self._bots = [None if i == self.seat else game_kit.make_bot(self.bot_name) for i in range(len(table))]
        # The reader is the eldest hand of the first deal: the dealer sits on the reader's right.
        self.table_game = game_kit.new_game(self.rules, list(table), self._rng, (self.seat - 1) % len(table))
        self.records: list[dict[str, Any]] = []  # the finished hands of this game, as records
        self._before_settle: dict[str, Any] | None = None
        self._deal(seed)

    # ----- what the reader may see -----------------------------------------------------------

    @property
    def hand(self) -> Any:
        return self.table_game.hand

    def view(self) -> Any:
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

    def open_hands(self) -> tuple[tuple[Any, ...] | None, ...] | None:
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

    @property
    def can_undo(self) -> bool:
        return self._reader_moves > 0

    @property
    def pool(self) -> int:
        return int(self.table_game.pool)

    def balances(self) -> dict[str, int]:
        """Each player's chips over the game so far (finished hands only)."""
        return dict(self.table_game.balances())

    def hand_lines(self) -> list[HandLine]:
        """The game hand by hand: what each player won or paid, the loos, and the pool carried over."""
        lines: list[HandLine] = []
        running = dict.fromkeys(self.table_game.balances(), 0)
        pool = 0
        for index, result in enumerate(self.table_game.results):
            entries = [e for e in self.table_game.ledger if e.hand == index]
            net = dict.fromkeys(running, 0)
            loos = dict.fromkeys(running, 0)
            for entry in entries:
                net[entry.player] -= entry.amount
                pool += entry.amount
                if entry.why in ("loo", "fees"):
                    loos[entry.player] += entry.amount
            for player, amount in net.items():
                running[player] += amount
            settlement = result.settlement
            lines.append(
                HandLine(
                    number=index + 1,
                    dealer=result.dealer,
                    pool_before=int(result.pool_before),
                    pool_after=pool,
                    net=net,
                    loos=loos,
                    balances=dict(running),
                    reason=str(getattr(settlement, "reason", "played")),
                )
            )
        return lines

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
            self.hand.push(action)
        except IllegalActionError as error:
            self._say(f"{_sentence(error.message)} ({cite(error.law)})")
            return False
        self._reader_moves += 1
        self._advance()
        self._say("")
        return True

    def why(self, action: Action) -> str:
        """Why ``action`` is or is not allowed now, in plain words with the law and its sources."""
        for explanation in self.hand.explain():
            if explanation.action == action:
                verdict = "Allowed" if explanation.legal else "Not allowed"
                return f"{verdict}: {_sentence(explanation.reason)} ({explanation.cite()})"
        problem = self.hand.why_illegal(action)
        if problem is None:
            return "Allowed."
        return f"Not allowed: {_sentence(problem[1])} ({cite(problem[0])})"

    def undo(self) -> bool:
        """Take back the reader's last action and everything the bots did after it (a paid hand is unpaid)."""
        if not self._reader_moves:
            self._say("There is nothing of yours to take back in this hand.")
            return False
        self._unsettle()
        while True:
            action = self.hand.pop()
            if action.seat == self.seat:
                break
        self._reader_moves -= 1
        self._say("Taken back.")
        return True

    def hint(self) -> tuple[Action, float] | None:
        """The strong bot's choice for the reader, with the chips it expects that choice to net."""
        legal = self.legal()
        if not legal:
            return None
        advisor = self.kit.make_bot("sampling")
        values = getattr(advisor, "values", None)
        view = self.view()
        rng = random.Random(self._rng.random())
        if values is None:
            return advisor.choose(view, rng), float("nan")
        scored = values(view, rng)
        best, value = max(scored, key=lambda av: av[1])
        return best, float(value)

    def new_hand(self, seed: int | None = None) -> bool:
        """Deal the game's next hand, from ``seed`` if given (a deal code), once this one is over."""
        if not self.hand.is_over:
            self._say("Finish this hand first (or start a new game).")
            return False
        return self._deal(seed)

    def new_game(self, game: str | None = None, *, rules: Any = None, seed: int | None = None) -> None:
        """Start a new game, of ``game`` under ``rules`` if given (else the same game and rules again)."""
        if game is None:
            game, rules = self.game, self.rules.to_record() if rules is None else rules
        names = self.names if len(self.names) == SEATS.get(game, 4) else None
        self._start(game, rules, names, seed)

    def record(self) -> dict[str, Any] | None:
        """The finished hand as a loo-record/1 record; None while it is in play (it would show hidden cards)."""
        if not self.hand.is_over:
            return None
        record: dict[str, Any] = record_type(self.game).of_hand(self.hand).to_json()
        return record

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
        game = json.loads(text)["game"]
        self._start(game, loaded.rules.to_record(), tuple(hand.names), None)
        # The imported hand takes the new game's place; its pool is booked as the dealer's.
        table = self.table_game
        table.ledger.clear()
        table.pool = 0
        table.hand, table.dealer = hand, hand.dealer
        table._pay(hand.names[hand.dealer], hand.pool, "deal")
        self._seed = None
        self._reader_moves = 0
        self._advance()
        self._say("Record loaded.")
        return True

    # ----- dealing and the computer players --------------------------------------------------

    def _deal(self, seed: int | None) -> bool:
        self._settle()
        if getattr(self.table_game, "is_over", False):
            self._say(f"The game is over: {self.table_game.winner} has won. Start a new game to play again.")
            return False
        self._seed = seed if seed is not None else self._rng.randrange(1, 10**9)
        self.table_game.rng = random.Random(self._seed)  # this hand's deal, and nothing after it
        self.table_game.next_hand()
        self._reader_moves = 0
        self._before_settle = None
        self._advance()
        self._say("")
        return True

    def _advance(self) -> None:
        """Let the bots act until it is the reader's turn or the hand is over; then pay the hand."""
        while not self.hand.is_over and self.hand.to_act != self.seat:
            seat = self.hand.to_act
            bot = self._bots[seat]
            assert bot is not None
            self.hand.push(bot.choose(self.hand.view(seat), self._rng))
        if self.hand.is_over:
            self._settle()

    def _settle(self) -> None:
        """Book the finished hand in the ledger once, keeping what it was so a take-back can unbook it."""
        game = self.table_game
        if game.hand is None or not game.hand.is_over:
            return
        if not self._booked():
            self._before_settle = {k: copy.copy(v) for k, v in vars(game).items() if k not in ("hand", "rng")}
            game.settle()
        if len(self.records) < len(game.results):  # a hand the game settled as it was dealt counts too
            self.records.append(self.record() or {})

    def _booked(self) -> bool:
        results = self.table_game.results
        return bool(results) and results[-1].settlement is self.hand.settlement

    def _unsettle(self) -> None:
        if self._before_settle is not None and self._booked():
            vars(self.table_game).update(self._before_settle)
            self.records.pop()
        self._before_settle = None

    def _say(self, message: str) -> None:
        self.message = message
        self.version += 1


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text
