"""What a hand of Nap is made of as it goes: its phase, the state that changes (copied for
take-back), the irregularities a teaching table records, and the view one seat may have of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from loo.core.actions import Action
from loo.core.cards import Card, Suit
from loo.core.hand import PublicView, Trick, TrickHand
from loo.core.reasons import Reason
from loo.games.nap.rules import NapRules
from loo.games.nap.settle import NapSettlement


class NapPhase(StrEnum):
    PURCHASE = "purchase"  # NAP-PUR-01..06: before the calling
    CALL = "call"
    GARNET = "garnet"  # NAP-SG-03: the taker of the extra hand throws out five of his ten cards
    EXCHANGE = "exchange"  # NAP-PEEP-03: the highest caller who peeped may take the peep card
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True)
class NapOffence:
    """An irregularity recorded at a teaching table (table mode): who, which law, and what followed."""

    seat: int
    law: str
    message: str
    kind: str  # "revoke", "caller-revoke", "out-of-turn" (no penalty), "refused-to-show", "wrong-count"


@dataclass
class NapState:
    """Everything that changes during a hand; copied for take-back."""

    phase: NapPhase
    to_act: int | None
    holding: list[list[Card]]
    calls: list[str | None]
    high: int = 0  # rank of the highest call so far (0: none)
    caller: int | None = None
    peeped: list[bool] = field(default_factory=list)
    garnet_by: int | None = None
    purchased: list[int | None] = field(default_factory=list)
    stock_pos: int = 0
    dead: list[Card] = field(default_factory=list)
    put_out: list[list[Card]] = field(default_factory=list)
    peep_taken: bool = False
    trump: Suit | None = None
    tricks: list[Trick] = field(default_factory=list)
    current: list[tuple[int, Card]] = field(default_factory=list)
    leader: int | None = None
    pool_paid: list[int] = field(default_factory=list)
    settlement: NapSettlement | None = None
    # table mode
    offender: int | None = None
    strict: bool = False  # after the first offence the table plays strictly (AMB-15: the replay is enforced)
    offences: list[NapOffence] = field(default_factory=list)
    start_of_play: NapState | None = None
    replays: int = 0
    wrong_count: list[int] = field(default_factory=list)

    def copy(self) -> NapState:
        return NapState(
            self.phase,
            self.to_act,
            [list(h) for h in self.holding],
            list(self.calls),
            self.high,
            self.caller,
            list(self.peeped),
            self.garnet_by,
            list(self.purchased),
            self.stock_pos,
            list(self.dead),
            [list(p) for p in self.put_out],
            self.peep_taken,
            self.trump,
            list(self.tricks),
            list(self.current),
            self.leader,
            list(self.pool_paid),
            self.settlement,
            self.offender,
            self.strict,
            list(self.offences),
            self.start_of_play,
            self.replays,
            list(self.wrong_count),
        )


@dataclass(frozen=True)
class NapView(PublicView[NapRules, NapPhase]):
    """What one seat may know: its own cards, the peep card if it peeped, and the public table."""

    hand: tuple[Card, ...]
    peep_card: Card | None  # only for a seat that peeped (NAP-PEEP-02)
    put_out: tuple[Card, ...]  # this seat's own discards (purchases, Sir Garnet, the peep exchange)
    calls: tuple[str | None, ...]
    caller: int | None
    call: str | None
    peeped: tuple[bool, ...]
    garnet_by: int | None
    purchased: tuple[int | None, ...]
    peep_taken: bool
    trump: Suit | None
    hand_sizes: tuple[int, ...]
    tricks: tuple[Trick, ...]
    current: tuple[tuple[int, Card], ...]
    pool_paid: tuple[int, ...]  # public payments into the pool so far this hand
    legal: tuple[Action, ...]
    settlement: NapSettlement | None

    @property
    def trumps_fixed(self) -> bool:
        return bool(self.tricks or self.current)


class NapHandBase(TrickHand[NapPhase, NapSettlement, Trick]):
    """The fixed facts of a deal of Nap and its changing state, with the methods one part of
    :class:`~loo.games.nap.hand.NapHand` asks of another: what its explanations
    (:class:`~loo.games.nap.explain.NapExplaining`) and its irregularities
    (:class:`~loo.games.nap.irregular.NapIrregularities`) read. :class:`~loo.games.nap.hand.NapHand`
    provides them all."""

    _s: NapState
    _history: list[tuple[Action, NapState]]
    rules: NapRules
    n: int
    table: bool
    stock: tuple[Card, ...]

    def _forced(self, seat: int) -> bool:
        raise NotImplementedError

    def _call_options(self, seat: int) -> tuple[str, ...]:
        raise NotImplementedError

    def _play_on_seat(self) -> int | None:
        raise NotImplementedError

    def _play(self, seat: int, card: Card) -> None:
        raise NotImplementedError

    def _finish(self, settlement: NapSettlement) -> None:
        raise NotImplementedError

    def _settle(self, reason: Reason) -> NapSettlement:
        raise NotImplementedError
