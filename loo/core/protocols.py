"""What every game offers the rest of the project, as typing protocols.

Each game's classes (Loo's ``LooHand``, ``SeatView`` and ``Settlement``; Nap's ``NapHand``,
``NapView`` and ``NapSettlement``; the dominoes' ``DominoHand``, ``DominoView`` and
``DominoSettlement``) already have these members; nothing here is inherited. The widgets, the
command line and the bots ask these questions, and a type checker proves each game answers them
(``tests/engine/test_protocols.py``). What only one game has (Loo's declarations, Nap's calls, the
dominoes' misses) stays on that game's own classes. A hand and a view share :class:`TableState`.

Every member is read-only here (a property), so a game may keep a narrower type: a Loo view's
pieces are cards, a domino view's tiles.

>>> import random
>>> from loo.games.loo.hand import LooHand
>>> from loo.games.loo.rules import Rules
>>> hand: Hand = LooHand.deal(Rules.preset("peel"), random.Random(3), seats=5, dealer=4, pool=3)
>>> view: View = hand.view(0)
>>> isinstance(hand, Hand), isinstance(view, View), view.legal[0].verb
(True, True, <Verb.DECLARE: 'declare'>)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from loo.core.actions import Action
from loo.core.cards import Card, Suit
from loo.core.reasons import Reason
from loo.core.tiles import Tile

if TYPE_CHECKING:
    from loo.core.hand import Explanation
    from loo.core.ledger import Entry

__all__ = [
    "Bot",
    "CallSettlement",
    "CallingView",
    "ChipSettlement",
    "DeclaringView",
    "ExtraCardsHand",
    "FlushSettlement",
    "GameRecord",
    "GameRules",
    "Hand",
    "HandResult",
    "MissHand",
    "MissView",
    "MissesHand",
    "MissesView",
    "Piece",
    "PointsGame",
    "PointsSettlement",
    "ScoringBot",
    "Settlement",
    "TableGame",
    "TableState",
    "TileRules",
    "TrickRecord",
    "TurnupView",
    "View",
]

Piece = Card | Tile  # what a game is played with: cards, or domino tiles


@runtime_checkable
class GameRules(Protocol):
    """A game's rules: which game, the preset they start from, and how a record writes them."""

    @property
    def game(self) -> str:
        """The game's record name (an enumeration of strings for Loo and dominoes)."""
        ...

    @property
    def preset_name(self) -> str: ...

    def to_record(self) -> str | dict[str, Any]:
        """The preset's name alone, or ``{"preset": name, option: value, ...}`` for the options changed."""
        ...


@runtime_checkable
class TrickRecord(Protocol):
    """One finished trick: who led, each seat's piece in order, and who won it."""

    @property
    def leader(self) -> int: ...

    @property
    def plays(self) -> tuple[tuple[int, Piece], ...]: ...

    @property
    def winner(self) -> int: ...

    def to_record(self) -> dict[str, Any]: ...


@runtime_checkable
class Settlement(Protocol):
    """How a finished hand was paid."""

    @property
    def reason(self) -> Reason: ...

    @property
    def tricks(self) -> tuple[TrickRecord, ...]: ...

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken, by seat."""
        ...

    @property
    def next_pool(self) -> int:
        """What the pool holds for the next hand."""
        ...

    def net(self) -> tuple[int, ...]:
        """Each seat's gain this hand (chips, or points at a game scored in points): higher is better."""
        ...

    def to_record(self) -> dict[str, Any]: ...


@runtime_checkable
class TableState(Protocol):
    """What a hand and any seat's view of it both tell: the table, its stage and its finished tricks."""

    @property
    def rules(self) -> GameRules: ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def dealer(self) -> int: ...

    @property
    def pool(self) -> int: ...

    @property
    def phase(self) -> str:
        """The stage of the hand (each game's own string enumeration)."""
        ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def tricks(self) -> tuple[TrickRecord, ...]: ...

    @property
    def settlement(self) -> Settlement | None: ...


@runtime_checkable
class View(TableState, Protocol):
    """What one seat may know: its own pieces and the public table, nothing hidden."""

    @property
    def seat(self) -> int: ...

    @property
    def hand(self) -> tuple[Piece, ...] | None:
        """This seat's pieces; None while it may not look yet (Loo, before its turn to declare)."""
        ...

    @property
    def put_out(self) -> tuple[Piece, ...]:
        """The pieces this seat itself put out of play (thrown, exchanged, discarded)."""
        ...

    @property
    def hand_sizes(self) -> tuple[int, ...]: ...

    @property
    def current(self) -> tuple[tuple[int, Piece], ...]:
        """The trick in progress: (seat, piece) in the order played."""
        ...

    @property
    def legal(self) -> tuple[Action, ...]:
        """What this seat may do now; empty when it is not its turn."""
        ...


@runtime_checkable
class Hand(TableState, Protocol):
    """One hand of any game: the laws checked on every action, take-back, views and explanations."""

    @property
    def is_over(self) -> bool: ...

    @property
    def current_trick(self) -> tuple[tuple[int, Piece], ...]: ...

    @property
    def actions(self) -> list[Action]:
        """Every action taken, in order."""
        ...

    def holding(self, seat: int) -> tuple[Piece, ...]:
        """The pieces ``seat`` holds now (every seat's: this is not a view)."""
        ...

    def legal_actions(self) -> list[Action]: ...

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        """``(law, reason)`` if the laws forbid ``action`` now, else None."""
        ...

    def explain(self) -> list[Explanation]:
        """What the seat to act might try now, each with the law that allows or forbids it."""
        ...

    def push(self, action: Action) -> None:
        """Take ``action``, or raise :class:`~loo.core.actions.IllegalActionError` and change nothing."""
        ...

    def pop(self) -> Action:
        """Take back the last action."""
        ...

    def push_unchecked(self, action: Action) -> None: ...

    def clone(self) -> Hand:
        """A copy to play on from here (a playout); it cannot be taken back past this point."""
        ...

    def view(self, seat: int) -> View: ...

    @property
    def dealt(self) -> tuple[tuple[Piece, ...] | None, ...]:
        """Every seat's pieces as dealt (None for a seat that sat out the deal)."""
        ...


@runtime_checkable
class HandResult(Protocol):
    """One finished hand as a game of many hands books it."""

    @property
    def number(self) -> int: ...

    @property
    def dealer(self) -> str: ...

    @property
    def pool_before(self) -> int: ...

    @property
    def settlement(self) -> Settlement: ...

    @property
    def players(self) -> tuple[str, ...]: ...


@runtime_checkable
class TableGame(Protocol):
    """A game of many hands with its chip ledger (``LooGame``, ``NapGame``, ``DominoGame``).

    ``next_hand`` deals from ``rng``; ``settle`` books the finished hand in ``ledger``.
    """

    pool: int
    dealer: int
    rng: random.Random
    ledger: list[Entry]

    @property
    def rules(self) -> GameRules: ...

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def hand(self) -> Hand | None: ...

    @property
    def results(self) -> Sequence[HandResult]: ...

    def next_hand(self) -> Hand: ...

    def settle(self) -> HandResult: ...

    def balances(self) -> dict[str, int]: ...

    def sit_at(self, hand: Hand) -> None:
        """Make ``hand``, dealt elsewhere (a record's, a deal code's), the hand in play; its pool is the dealer's."""
        ...


@runtime_checkable
class GameRecord(Protocol):
    """A record of one deal of any game (``docs/records.md``), as :func:`loo.records.load` reads it."""

    @property
    def game(self) -> str: ...

    @property
    def seats(self) -> tuple[str, ...]: ...

    @property
    def actions(self) -> tuple[Action, ...]: ...

    def start(self) -> Hand:
        """The hand as dealt, before any action."""
        ...

    def replay(self) -> Hand:
        """The hand with every action of the record taken."""
        ...

    def to_json(self) -> dict[str, Any]: ...


V_contra = TypeVar("V_contra", contravariant=True)


@runtime_checkable
class Bot(Protocol[V_contra]):
    """A player: given what one seat may know (a game's view), choose one of ``view.legal``.

    A bot draws any randomness from ``rng``, so a seeded game is repeatable. ``Bot[View]`` plays
    any game; ``Bot[SeatView]`` only Loo.
    """

    @property
    def name(self) -> str: ...

    def choose(self, view: V_contra, rng: random.Random) -> Action: ...


@runtime_checkable
class ScoringBot(Bot[V_contra], Protocol[V_contra]):
    """A bot that can also say what it expects each legal action to net (a hint for a reader)."""

    def values(self, view: V_contra, rng: random.Random) -> list[tuple[Action, float]]: ...


# ----- what only some games have ------------------------------------------------------------------
# A reader asks ``isinstance(view, CallingView)`` (these are runtime-checkable) rather than which game
# it is: the answer is typed, and a new game with the same parts is drawn the same way.


@runtime_checkable
class TurnupView(View, Protocol):
    """A game with a turn-up (Loo, dominoes); None where the deal had none."""

    @property
    def turnup(self) -> Piece | None: ...


@runtime_checkable
class DeclaringView(View, Protocol):
    """A game of declarations (Loo, dominoes): each seat's stand, miss or throw so far."""

    @property
    def declared(self) -> tuple[str | None, ...]: ...

    @property
    def for_pool(self) -> bool:
        """The dealer plays for the pool alone."""
        ...


@runtime_checkable
class MissView(View, Protocol):
    """Loo's one miss: the cards still face down in the middle while nobody has taken it."""

    @property
    def miss_left(self) -> int: ...


@runtime_checkable
class MissesView(View, Protocol):
    """The dominoes' misses (Rounce's dummies): how many are still to be taken."""

    @property
    def misses_left(self) -> int: ...


@runtime_checkable
class CallingView(View, Protocol):
    """A game of calls (Nap): the calls, the contract, trumps, and the extra cards some rules deal."""

    @property
    def calls(self) -> tuple[str | None, ...]: ...

    @property
    def caller(self) -> int | None: ...

    @property
    def call(self) -> str | None: ...

    @property
    def trump(self) -> Suit | None: ...

    @property
    def trumps_fixed(self) -> bool:
        """Whether trumps are known yet (the caller's lead fixes them)."""
        ...

    @property
    def peep_card(self) -> Card | None:
        """The card this seat peeped at (only its own sight)."""
        ...

    @property
    def peeped(self) -> tuple[bool, ...]: ...

    @property
    def peep_taken(self) -> bool: ...

    @property
    def garnet_by(self) -> int | None: ...


@runtime_checkable
class ChipSettlement(Settlement, Protocol):
    """A settlement in chips from a pool (Loo, dominoes): who was looed, what each took and paid."""

    @property
    def looed(self) -> tuple[int, ...]: ...

    @property
    def payouts(self) -> tuple[int, ...]: ...

    @property
    def loos(self) -> tuple[int, ...]: ...


@runtime_checkable
class FlushSettlement(ChipSettlement, Protocol):
    """Five-card Loo's: a flush shown, as (seat, its class), or None."""

    @property
    def flush(self) -> tuple[int, str] | None: ...


@runtime_checkable
class PointsSettlement(ChipSettlement, Protocol):
    """The dominoes': points by seat when the game is scored in points, else None."""

    @property
    def points(self) -> tuple[int, ...] | None: ...


@runtime_checkable
class CallSettlement(Settlement, Protocol):
    """Nap's: the call, whether it was made, and whether there is a kitty carried over."""

    @property
    def caller(self) -> int | None: ...

    @property
    def call(self) -> str | None: ...

    @property
    def made(self) -> bool | None: ...

    @property
    def kitty(self) -> bool: ...


@runtime_checkable
class MissHand(Hand, Protocol):
    """Loo's hand: the miss, who took it, the dealer playing for the pool, the kind of deal, Pam."""

    @property
    def miss(self) -> tuple[Card, ...]: ...

    @property
    def miss_taken_by(self) -> int | None: ...

    @property
    def playing_for_pool(self) -> bool: ...

    @property
    def deal_kind(self) -> str:
        """``"normal"``, or the kind of a special deal (a single, club law, ...)."""
        ...

    @property
    def pam_card(self) -> Card | None: ...


@runtime_checkable
class MissesHand(Hand, Protocol):
    """The dominoes' hand: the misses (Rounce's dummies) dealt, and who took one, in order."""

    @property
    def misses(self) -> tuple[tuple[Tile, ...], ...]: ...

    @property
    def misses_taken(self) -> tuple[int, ...]: ...


@runtime_checkable
class ExtraCardsHand(Hand, Protocol):
    """Nap's hand: the cards dealt aside for Sir Garnet and the peep."""

    @property
    def garnet(self) -> tuple[Card, ...]: ...

    @property
    def peep_card(self) -> Card | None: ...


@runtime_checkable
class TileRules(GameRules, Protocol):
    """The dominoes' rules: scored in chips, in points up to ``game_points``, or at Rounce down from it;
    at Rounce the misses are laid out as dummies."""

    @property
    def domino_scoring(self) -> str:
        """``"chips"``, ``"points"`` or ``"rounce"``."""
        ...

    @property
    def game_points(self) -> int: ...

    @property
    def dummies(self) -> bool: ...


@runtime_checkable
class PointsGame(TableGame, Protocol):
    """A game of many hands that can end (the dominoes scored in points): each player's score and the winner."""

    @property
    def scores(self) -> dict[str, int]: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def is_over(self) -> bool: ...
