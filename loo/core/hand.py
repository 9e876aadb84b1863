"""The hand every game's hand is built on: the protocol readers, widgets and bots rely on, take-back
(push and pop over a history of states), clones for playouts, and explanations of what is allowed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Self, TypedDict, TypeVar

from loo.core.actions import Action, IllegalActionError
from loo.core.cards import Card
from loo.core.reasons import Reason

__all__ = ["Explanation", "Phase", "PoolSettlement", "PublicView", "Trick", "TrickHand", "made_quickly"]

T = TypeVar("T")
_new, _set = object.__new__, object.__setattr__


def made_quickly(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the frozen dataclass ``cls`` with ``fields`` (every field, by name), as its
    constructor would make it but quicker, for what a hand makes at every trick; ``cls`` must have
    no ``__post_init__`` and no slots.

    >>> made_quickly(Trick, {"leader": 0, "plays": (), "winner": 1}) == Trick(0, (), 1)
    True
    """
    made = _new(cls)
    _set(made, "__dict__", fields)
    return made


@dataclass(frozen=True)
class PoolSettlement(Generic[T]):
    """A hand settled from a pool, as Loo's and the dominoes' are (each game's class adds its own fields):
    why it ended, its tricks (of type ``T``), each seat's tricks won, who was looed, what each took from
    this pool and paid into the next one, and the pool the next hand starts with."""

    reason: Reason
    tricks: tuple[T, ...]
    tricks_won: tuple[int, ...]
    looed: tuple[int, ...]
    payouts: tuple[int, ...]
    loos: tuple[int, ...]
    next_pool: int

    def to_record(self) -> dict[str, Any]:
        """The settlement as a record writes it: these fields in this order (a game adds its own after them:
        Loo's direct payments, the dominoes' points)."""
        return {
            "tricks": [t.to_record() for t in self.tricks],  # type: ignore[attr-defined]
            "tricks_won": list(self.tricks_won),
            "looed": list(self.looed),
            "payouts": list(self.payouts),
            "loos": list(self.loos),
            "next_pool": self.next_pool,
        }


class Phase(StrEnum):
    """Where a hand stands: declaring (or calling), exchanging, playing the tricks, or settled."""

    DECLARE = "declare"
    EXCHANGE = "exchange"
    PLAY = "play"
    DONE = "done"


RulesT = TypeVar("RulesT")
PhaseT = TypeVar("PhaseT")


@dataclass(frozen=True)
class PublicView(Generic[RulesT, PhaseT]):
    """What every game's view of a seat opens with (:meth:`TrickHand._public`), the same for every seat but
    the first: the seat, the rules, the names, the dealer, the pool, the phase and who is to act. Each
    game's view class adds what that seat may know of its own game."""

    seat: int
    rules: RulesT
    names: tuple[str, ...]
    dealer: int
    pool: int
    phase: PhaseT
    to_act: int | None

    def seated(self) -> Seated:
        """The table as every game's hand takes it, for a hand made at this view (a sampling player's world)."""
        return {"dealer": self.dealer, "pool": self.pool, "names": self.names}


class Seated(TypedDict):
    """Where a hand is played: the dealer's seat, the pool and the players' names."""

    dealer: int
    pool: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class Trick:
    """One trick played: who led, each seat's card in order of play, and who won it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    def to_record(self) -> dict[str, Any]:
        return {"leader": self.leader, "plays": [[s, str(c)] for s, c in self.plays], "winner": self.winner}


def declaring_tries(
    seat: int, legal: Sequence[Action], make: Callable[[int, str, Any], Action], also: Sequence[Action] = ()
) -> list[Action]:
    """What a seat in the declarations might try (for :meth:`TrickHand.explain`): each declaration, stand,
    miss and throw (made by ``make``, the game's action), any ``also``, then its other ``legal`` actions."""
    tries = [make(seat, "declare", word) for word in ("stand", "miss", "throw")]
    return [*tries, *also, *(a for a in legal if a.verb != "declare")]


@dataclass(frozen=True)
class Explanation:
    """Why an action is or is not allowed now: the law (catalogue ID) and a sentence in plain words."""

    action: Action
    legal: bool
    law: str
    reason: str

    def cite(self) -> str:
        """The law with its sources, e.g. ``L3-PLAY-03 (Peel p.21; Enquire Within §97.ix)``."""
        from loo.core.laws import cite

        return cite(self.law)


SettlementT = TypeVar("SettlementT")
TrickT = TypeVar("TrickT")


class TrickHand(Generic[PhaseT, SettlementT, TrickT]):
    """What every hand of every game shares: the protocol readers, widgets and bots rely on, and the
    history behind take-back. A game's hand names the types of its phase, its settlement and its
    tricks (``TrickHand[NapPhase, NapSettlement, Trick]``), which the readers here return.

    A subclass keeps its changing state in ``self._s`` (with ``phase``, ``to_act``, ``settlement``,
    ``tricks``, ``current`` and a ``copy()``) and provides ``why_illegal(action)``, ``_apply(action)``
    and ``legal_actions()``. :meth:`_irregular` decides what an illegal action does: here it is
    refused; at a teaching table a game may record and penalise it instead.
    """

    _s: Any
    _history: list[tuple[Action, Any]]
    rules: Any
    names: tuple[str, ...]
    dealer: int
    pool: int
    dealt: tuple[Any, ...]

    @property
    def phase(self) -> PhaseT:
        return self._s.phase  # type: ignore[no-any-return]

    @property
    def to_act(self) -> int | None:
        return self._s.to_act  # type: ignore[no-any-return]

    @property
    def is_over(self) -> bool:
        return self._s.settlement is not None

    @property
    def settlement(self) -> SettlementT | None:
        return self._s.settlement  # type: ignore[no-any-return]

    @property
    def actions(self) -> list[Action]:
        """Every action taken, in order."""
        return [a for a, _ in self._history]

    @property
    def tricks(self) -> tuple[TrickT, ...]:
        return tuple(self._s.tricks)

    @property
    def current_trick(self) -> tuple[tuple[int, Any], ...]:
        return tuple(self._s.current)

    def _public(self, seat: int) -> dict[str, Any]:
        """What every game's view of ``seat`` opens with, the same for every seat but the first: the seat,
        the rules, the names, the dealer, the pool, the phase and who is to act."""
        s = self._s
        return {
            "seat": seat,
            "rules": self.rules,
            "names": self.names,
            "dealer": self.dealer,
            "pool": self.pool,
            "phase": s.phase,
            "to_act": s.to_act,
        }

    def clone(self) -> Self:
        """A copy to play on from here (a sampling player's playout): the fixed parts shared, the
        changing state copied, and no history, so it cannot be taken back past this point."""
        other = copy.copy(self)
        other._s = self._s.copy()
        other._history = []
        return other

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take, in a stable order; none once the hand is over."""
        s = self._s
        seat = s.to_act
        return [] if seat is None else self._legal(s, seat)

    def _legal(self, s: Any, seat: int) -> list[Action]:
        """The actions ``seat``, the seat to act in the state ``s``, may take."""
        raise NotImplementedError

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def push(self, action: Action) -> None:
        """Take ``action`` if the laws allow it; otherwise raise :class:`IllegalActionError` and change nothing.

        At a teaching table a game may instead record and penalise the offence (:meth:`_irregular`).
        """
        problem = self.why_illegal(action)
        if problem is None:
            self._history.append((action, self._s.copy()))
            self._apply(action)
            return
        law, message = problem
        if not self._irregular(action, law, message):
            raise IllegalActionError(law, message, seat=action.seat)

    def _irregular(self, action: Action, law: str, message: str) -> bool:
        """Handle an illegal action at a teaching table; False (the default) refuses it."""
        return False

    def _why_legal(self, action: Action) -> tuple[str, str]:
        raise NotImplementedError

    def explain(self) -> list[Explanation]:
        """For the seat to act: every action it might try now (:meth:`_tries`), legal or not, with the law
        and a plain reason."""
        seat = self._s.to_act
        if seat is None:
            return []
        legal = self.legal_actions()
        return self._explanations(self._tries(seat, legal), legal)

    def _tries(self, seat: int, legal: Sequence[Action]) -> Sequence[Action]:
        """The actions :meth:`explain` explains to ``seat``, the seat to act, whose ``legal`` actions these are."""
        raise NotImplementedError

    def _explanations(self, tries: Sequence[Action], legal: Sequence[Action]) -> list[Explanation]:
        """Each action a seat might try, with the law that allows it or the one it breaks, and why."""
        out = []
        for action in tries:
            if action in legal:
                out.append(Explanation(action, True, *self._why_legal(action)))
            else:
                problem = self.why_illegal(action)
                assert problem is not None, f"{action} is neither legal nor refused"
                out.append(Explanation(action, False, *problem))
        return out

    def pop(self) -> Action:
        """Take back the last action (undo), returning it."""
        if not self._history:
            raise IndexError("no action to take back")
        action, state = self._history.pop()
        self._s = state
        return action

    def push_unchecked(self, action: Action) -> None:
        """The simulation fast path: no legality check and no take-back. The action must come from legal_actions()."""
        self._apply(action)
