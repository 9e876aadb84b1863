"""What a hand of Loo is made of: its phases and kinds of deal, tricks, settlements and offences,
the state that changes as it is played (copy-on-write, for take-back), what one seat may see, and
:class:`LooHandBase`, what every part of :class:`loo.games.loo.hand.LooHand` may rely on the others for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field
from enum import Enum, StrEnum
from typing import Any

from loo.core.actions import Action
from loo.core.cards import Card, Suit
from loo.core.hand import Phase, PoolSettlement, PublicView, Trick, TrickHand
from loo.core.tricks import Duty
from loo.games.loo.rules import Game, Rules

__all__ = [
    "PLAY_CLAIMS",
    "PRE_PLAY_CLAIMS",
    "DealKind",
    "Flush",
    "HandState",
    "LooHandBase",
    "Offence",
    "SeatView",
    "Settlement",
]


class DealKind(StrEnum):
    """The ``deal_kind`` of a record (docs/records.md)."""

    NORMAL = "normal"
    SINGLE = "single"  # Peel: one card each against the turn-up; Enquire Within: no miss, all play
    FINAL = "final"  # Peel's last round: all stand, no miss, no loos (AMB-22)


class Flush(int, Enum):
    """L5-FL-04: the classes of flush, higher wins."""

    PLAIN = 1
    TRUMP = 2
    PAM = 3


@dataclass(frozen=True)
class Settlement(PoolSettlement[Trick]):
    """How a finished hand pays: a value, like python-chess's ``Outcome``.

    ``payouts`` are chips each seat takes from this pool; ``loos`` chips each seat pays into the
    next pool; ``direct`` chips paid from one player to another (only a flush under
    ``flush-loo-destination: to-flush-holder``). ``next_pool`` is what is left plus the loos.
    """

    direct: tuple[int, ...] | None = None
    flush: tuple[int, str] | None = None  # (seat, class) of a sweeping flush
    penalties: tuple[int, ...] | None = None  # table mode: pre-play penalties paid into this pool
    offenders: tuple[int, ...] = ()  # table mode: players looed for an offence in play

    @property
    def loo_free(self) -> bool:
        """CF-34 LOO_FREE_HAND: a hand that was played and in which nobody was looed."""
        return self.reason == "played" and not self.looed and not self.offenders

    def net(self) -> tuple[int, ...]:
        """Each seat's gain this hand: payouts and direct payments less loos (the deal price is the game's)."""
        direct = self.direct or (0,) * len(self.payouts)
        return tuple(p - loo + d for p, loo, d in zip(self.payouts, self.loos, direct, strict=True))

    def to_record(self) -> dict[str, Any]:
        out = super().to_record()
        if self.direct is not None:
            out["direct"] = list(self.direct)
        return out


@dataclass(frozen=True)
class Offence:
    """An irregularity recorded at a teaching table (table mode): who, which law, and what it cost."""

    seat: int
    law: str
    message: str
    kind: str  # "pre-play": a single loo into this pool, play on (L3-PEN-05/06); "play": looed and forfeits (L3-PEN-01)


# Offences the engine cannot see for itself, which a table may claim (see LooHand.penalize).
PRE_PLAY_CLAIMS = {"L3-PEN-10", "L3-PEN-11", "L3-PEN-12", "L3-PEN-19"}
PLAY_CLAIMS = {"L3-PEN-13"}


@dataclass
class HandState:
    """Everything that changes during a hand; copied for take-back.

    Copy-on-write: a list or table held in a field (the holdings and each seat's holding, the cards
    put out, the dead cards, the declarations, the tricks, the current trick, the penalties and
    offences) is never changed once it is in a state that may have been copied; a change makes a new
    one (:meth:`unshare` before changing a per-seat table in place). So a copy shares them all.
    """

    phase: Phase
    to_act: int | None
    declared: list[str | None]
    holding: list[list[Card]]
    miss_taken_by: int | None = None
    for_pool: bool = False
    turnup_taken: bool = False
    stock_pos: int = 0
    dead: list[Card] = field(default_factory=list)
    exchanged: list[int | None] = field(default_factory=list)  # cards exchanged per seat (public count)
    tricks: list[Trick] = field(default_factory=list)
    current: list[tuple[int, Card]] = field(default_factory=list)
    leader: int | None = None
    civil_said: bool = False
    settlement: Settlement | None = None
    penalties: list[int] = field(default_factory=list)  # pre-play penalties paid into this pool, per seat
    offenders: dict[int, str] = field(default_factory=dict)  # seat -> law of his first play offence
    offences: list[Offence] = field(default_factory=list)
    start_of_play: HandState | None = None  # the snapshot a replay restores (AMB-15)
    replays: int = 0
    put_out: list[list[Card]] = field(default_factory=list)  # per seat: cards it put out of play itself
    players: tuple[int, ...] | None = None  # the players in order from the dealer's left, once play begins
    best: tuple[int, int] | None = None  # (power, seat) of the card winning the current trick; None: not yet known

    @classmethod
    def start(cls, to_act: int, holding: list[list[Card]]) -> HandState:
        """The state of a hand just dealt: declarations open with ``to_act``, who holds ``holding``.

        The same as constructing it with every other field at its default, made quicker (a hand
        is dealt hundreds of thousands of times in simulation) by filling its fields at once.
        """
        n = len(holding)
        state = cls.__new__(cls)
        fields = dict(_START)
        fields["to_act"] = to_act
        fields["declared"] = [None] * n
        fields["holding"] = holding
        fields["exchanged"] = [None] * n
        fields["penalties"] = [0] * n
        fields["put_out"] = [[]] * n  # one empty list shared: a seat's list is replaced, never changed in place
        fields["dead"], fields["tricks"], fields["current"] = [], [], []
        fields["offenders"], fields["offences"] = {}, []
        state.__dict__ = fields
        return state

    def copy(self) -> HandState:
        other = HandState.__new__(HandState)
        other.__dict__ = self.__dict__.copy()  # everything shared: nothing is changed in place once copied
        return other

    def set_at_view(
        self,
        view: SeatView,
        holdings: Sequence[Sequence[Card]],
        stock_pos: int,
        dead: Sequence[Card],
        put_out: Sequence[Card],
    ) -> None:
        """Set this state (a hand's just dealt) to the public state ``view`` shows, with these hidden
        cards (see :meth:`loo.games.loo.hand.LooHand.at_view`)."""
        self.phase = view.phase
        self.to_act = view.to_act
        self.declared = list(view.declared)
        self.holding = [list(h) for h in holdings]
        self.miss_taken_by = view.miss_taken_by
        self.for_pool = view.for_pool
        self.turnup_taken = view.turnup_taken
        self.stock_pos = stock_pos
        self.dead = list(dead)
        self.exchanged = list(view.exchanged)
        self.tricks = list(view.tricks)
        self.current = list(view.current)
        if view.phase is Phase.PLAY:
            current, tricks = view.current, view.tricks
            self.leader = current[0][0] if current else tricks[-1].winner if tricks else view.to_act
        else:
            self.leader = None
        self.civil_said = view.civil_said
        self.put_out = [[] for _ in view.names]
        self.put_out[view.seat] = list(put_out)  # what the others put out is unknown to the seat: among the dead
        self.settlement = None

    def unshare(self) -> None:
        """Copy the per-seat tables, which the declarations and the table's penalties change in place."""
        self.declared = self.declared.copy()
        self.holding = self.holding.copy()
        self.exchanged = self.exchanged.copy()
        self.penalties = self.penalties.copy()
        self.offenders = self.offenders.copy()
        self.put_out = self.put_out.copy()


# The fields of a state just dealt, in their declared order, with their defaults (see HandState.start).
_START: dict[str, Any] = {
    name: None if f.default is MISSING else f.default for name, f in HandState.__dataclass_fields__.items()
}
_START["phase"] = Phase.DECLARE


@dataclass(frozen=True)
class SeatView(PublicView[Rules, Phase]):
    """What one seat may know (OpenSpiel's observation): its own cards, and only public facts besides."""

    turnup: Card | None
    hand: tuple[Card, ...] | None  # None until this seat may look (CF-17: at its turn to declare)
    deal_kind: DealKind
    turnup_taken: bool  # the dealer has taken the turn-up into his hand (L5-OPT-02); trumps are unchanged
    civil_said: bool  # the leader of the current trick said "Pam be civil" (CF-22, on-announce)
    put_out: tuple[Card, ...]  # the cards this seat itself threw up, exchanged or gave up for the miss
    declared: tuple[str | None, ...]
    miss_taken_by: int | None
    for_pool: bool
    exchanged: tuple[int | None, ...]
    hand_sizes: tuple[int, ...]
    tricks: tuple[Trick, ...]
    current: tuple[tuple[int, Card], ...]
    legal: tuple[Action, ...]
    settlement: Settlement | None
    miss_left: int = 0  # cards in the miss, face down in the middle, while nobody has taken it


class LooHandBase(TrickHand[Phase, Settlement, Trick]):
    """The fixed facts of a deal and the changing state that every part of :class:`loo.games.loo.hand.LooHand`
    reads (its explanations, settlement and table mode live in their own modules), with the methods
    one part asks of another; :class:`loo.games.loo.hand.LooHand` provides them all."""

    _s: HandState
    _history: list[tuple[Action, HandState]]
    rules: Rules
    game: Game
    table: bool
    n: int
    names: tuple[str, ...]
    dealer: int
    pool: int
    deal_kind: DealKind
    turnup: Card
    dealt: tuple[tuple[Card, ...] | None, ...]
    miss: tuple[Card, ...]
    stock: tuple[Card, ...]
    trump: Suit
    pam_card: Card | None
    active: list[int]
    eldest: int
    last: int
    club_law: bool
    bold_stand: bool
    must: bool
    peel_single: bool
    all_must_play: bool
    miss_in_play: bool
    _trump: int
    _pam: int
    _turnup: int
    _offered: tuple[HandState, list[Action]] | None  # what legal_actions() offered, in which state

    def _who(self, seat: int) -> str:
        raise NotImplementedError

    def _suit(self, card: Card) -> Suit:
        raise NotImplementedError

    def _duty(self, hand: list[int]) -> tuple[list[int], str | Duty | None]:
        raise NotImplementedError

    def _civil_applies(self, led_card: Card) -> bool:
        raise NotImplementedError

    def _winning_card(self) -> Card:
        raise NotImplementedError

    def _declarations(self, seat: int) -> list[str]:
        raise NotImplementedError

    def _dealer_may_for_pool(self) -> bool:
        raise NotImplementedError

    def _may_take_turnup(self) -> bool:
        raise NotImplementedError

    def _players(self) -> tuple[int, ...]:
        raise NotImplementedError

    def _play(self, seat: int, card: Card, civil: bool) -> None:
        raise NotImplementedError

    @property
    def stake(self) -> int:
        raise NotImplementedError

    def _penalties(self) -> tuple[int, ...] | None:
        raise NotImplementedError
