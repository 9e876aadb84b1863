"""The model of a live table: one hand of any game, the reader at one seat, bots at the others.

It knows nothing of widgets (STYLE.md): views observe :attr:`TableModel.version` and read
:meth:`TableModel.view`, which holds only what the reader's seat may know. Every action the
reader takes goes through the engine, which refuses an illegal one with the law it breaks; the
reason reaches the reader as a message, never as a traceback.

Hidden information: the seed of a deal tells everything about it, so the model keeps the seed
to itself until the hand is over, and exports a record only then.

>>> table = TableModel("three-card-loo", seed=12)
>>> table.view().seat, table.view().to_act == 0
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import traitlets

from loo.actions import Action, IllegalActionError
from loo.kits import kit
from loo.laws import cite
from loo.records import record_type

DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
SEATS = {"three-card-loo": 5, "five-card-loo": 5, "irish-loo": 5, "nap": 4, "domino-loo": 4, "domino-rounce": 4}


class TableModel(traitlets.HasTraits):
    """One hand at a table. The reader sits at ``seat``; ``bots`` names the computer players' strength."""

    version = traitlets.Int(0, help="bumped after every change, for views to observe")
    message = traitlets.Unicode("", help="the latest plain-words message for the reader")

    def __init__(
        self,
        game: str = "three-card-loo",
        *,
        preset: str | None = None,
        seat: int = 0,
        names: Sequence[str] | None = None,
        seed: int | None = None,
        bots: str = "thumb",
        rng: random.Random | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.kit = kit(game)
        self.rules = self.kit.read_rules(game, preset)
        self.names = tuple(names) if names is not None else DEFAULT_NAMES[: SEATS.get(game, 4)]
        if not 0 <= seat < len(self.names):
            raise ValueError(f"seat {seat} is not at this table: seats are 0 to {len(self.names) - 1}")
        self.seat = seat
        self._rng = rng if rng is not None else random.Random(seed)  # the bots' choices, reproducible too
        self.bot_name = bots
        self._bots = [None if i == seat else self.kit.make_bot(bots) for i in range(len(self.names))]
        self._reader_moves = 0
        self.new_hand(seed)

    # ----- what the reader may see -----------------------------------------------------------

    def view(self) -> Any:
        """The reader's seat's view: its own cards and the public table, nothing else."""
        return self.hand.view(self.seat)

    def legal(self) -> list[Action]:
        """The reader's legal actions now (empty when it is not the reader's turn)."""
        return list(self.view().legal)

    @property
    def seed(self) -> int | None:
        """The deal's seed, but only once the hand is over: before that it would reveal every card."""
        return self._seed if self.hand.is_over else None

    @property
    def can_undo(self) -> bool:
        return self._reader_moves > 0

    # ----- what the reader may do ------------------------------------------------------------

    def act(self, action: Action) -> bool:
        """Take the reader's ``action`` through the engine; on refusal say why and change nothing."""
        if action.seat != self.seat:
            self._say(f"You sit as {self.names[self.seat]}; that action is for another seat.")
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
        """Take back the reader's last action and everything the bots did after it."""
        if not self._reader_moves:
            self._say("There is nothing of yours to take back in this hand.")
            return False
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

    def new_hand(self, seed: int | None = None) -> None:
        """Deal a new hand: from ``seed`` if given (a deal code), else from the table's generator."""
        self._seed = seed if seed is not None else self._rng.randrange(1, 10**9)
        n = len(self.names)
        dealer = (self.seat - 1) % n  # the reader is the eldest hand
        pool = self.kit.pool(self.rules, n)
        self.hand = self.kit.deal(self.rules, random.Random(self._seed), n, dealer, pool, names=self.names)
        self._reader_moves = 0
        self._advance()
        self._say("")

    def record(self) -> dict[str, Any] | None:
        """The finished hand as a loo-record/1 record; None while it is in play (it would show hidden cards)."""
        if not self.hand.is_over:
            return None
        cls = record_type(self.game)
        record: dict[str, Any] = cls.of_hand(self.hand).to_json()
        return record

    # ----- the computer players --------------------------------------------------------------

    def _advance(self) -> None:
        """Let the bots act until it is the reader's turn or the hand is over."""
        while not self.hand.is_over and self.hand.to_act != self.seat:
            seat = self.hand.to_act
            bot = self._bots[seat]
            assert bot is not None
            self.hand.push(bot.choose(self.hand.view(seat), self._rng))

    def _say(self, message: str) -> None:
        self.message = message
        self.version += 1


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text
