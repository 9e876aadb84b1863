"""A hand of three-card, five-card (Pam) or Irish Loo in progress.

Like python-chess's ``Board``: mutable, with ``legal_actions()``, ``push()``
(which checks the laws and raises :class:`IllegalActionError` naming the law
broken), ``pop()`` for take-back, ``view(seat)`` for what one seat may know,
and ``settlement`` once the hand is over.

>>> import random
>>> from loo.rules import Rules
>>> hand = LooHand.deal(Rules.preset("peel"), random.Random(1), seats=4, dealer=3, pool=3)
>>> hand.to_act, [str(a) for a in hand.legal_actions()]
(0, ['seat 0 declare stand', 'seat 0 declare miss', 'seat 0 declare throw'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from loo.actions import Action, IllegalActionError
from loo.cards import CARDS, Card, Rank, Suit, full_pack
from loo.core.hand import Explanation, TrickHand
from loo.core.tricks import Duty
from loo.deal import shuffled_pack
from loo.games.loo.play import (
    ACE,
    deal_rounds,
    declaration_options,
    follow_choices,
    lead_choices,
    loo_amount,
    may_miss_when_all_play,
    power,
    suit_of,
)
from loo.laws import law as law_entry
from loo.reasons import Reason
from loo.rules import (
    ClubLawMiss,
    FirstDealMode,
    FlushLooDestination,
    Game,
    LoneOpponentRule,
    LooMode,
    Pam,
    PamBeCivil,
    RevokeReplay,
    Rules,
    WinnerLeadsTrump,
)


class Phase(StrEnum):
    DECLARE = "declare"
    EXCHANGE = "exchange"
    PLAY = "play"
    DONE = "done"


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
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    def to_record(self) -> dict[str, Any]:
        return {"leader": self.leader, "plays": [[s, str(c)] for s, c in self.plays], "winner": self.winner}


@dataclass(frozen=True)
class Settlement:
    """How a finished hand pays: a value, like python-chess's ``Outcome``.

    ``payouts`` are chips each seat takes from this pool; ``loos`` chips each seat pays into the
    next pool; ``direct`` chips paid from one player to another (only a flush under
    ``flush-loo-destination: to-flush-holder``). ``next_pool`` is what is left plus the loos.
    """

    reason: Reason
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    looed: tuple[int, ...]
    payouts: tuple[int, ...]
    loos: tuple[int, ...]
    next_pool: int
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
        out: dict[str, Any] = {
            "tricks": [t.to_record() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "looed": list(self.looed),
            "payouts": list(self.payouts),
            "loos": list(self.loos),
            "next_pool": self.next_pool,
        }
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
class _State:
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
    start_of_play: _State | None = None  # the snapshot a replay restores (AMB-15)
    replays: int = 0
    put_out: list[list[Card]] = field(default_factory=list)  # per seat: cards it put out of play itself
    players: tuple[int, ...] | None = None  # the players in order from the dealer's left, once play begins
    best: tuple[int, int] | None = None  # (power, seat) of the card winning the current trick; None: not yet known

    def copy(self) -> _State:
        other = _State.__new__(_State)
        other.__dict__.update(self.__dict__)  # everything shared: nothing is changed in place once copied
        return other

    def unshare(self) -> None:
        """Copy the per-seat tables, which the declarations and the table's penalties change in place."""
        self.declared = self.declared.copy()
        self.holding = self.holding.copy()
        self.exchanged = self.exchanged.copy()
        self.penalties = self.penalties.copy()
        self.offenders = self.offenders.copy()
        self.put_out = self.put_out.copy()


@dataclass(frozen=True)
class SeatView:
    """What one seat may know (OpenSpiel's observation): its own cards, and only public facts besides."""

    seat: int
    rules: Rules
    names: tuple[str, ...]
    dealer: int
    pool: int
    phase: Phase
    to_act: int | None
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


# Actions are values: each declaration and each play of a card by a seat is made once, and shared.
_DECLARE_ACTIONS: dict[tuple[int, str], Action] = {}
_PLAY_ACTIONS: list[tuple[Action, ...]] = []  # by seat, then by card index


class LooHand(TrickHand):
    """One deal of a Loo game, from the declarations to the settlement."""

    _s: _State
    _history: list[tuple[Action, _State]]

    def __init__(
        self,
        rules: Rules,
        *,
        hands: Sequence[Sequence[Card] | None],
        turnup: Card,
        dealer: int,
        pool: int,
        miss: Sequence[Card] = (),
        stock: Sequence[Card] | None = None,
        deal_kind: DealKind = DealKind.NORMAL,
        names: Sequence[str] | None = None,
        table: bool = False,
    ) -> None:
        self.rules = rules
        self.game = rules.game
        # Table mode (teaching): an offence is recorded and penalised as the sources say, not refused.
        self.table = table
        self.n = len(hands)
        self.names = tuple(names) if names is not None else tuple(f"seat {i}" for i in range(self.n))
        self.dealer = dealer
        self.pool = pool
        self.deal_kind = deal_kind
        self.turnup = turnup
        self.dealt: tuple[tuple[Card, ...] | None, ...] = tuple(tuple(h) if h is not None else None for h in hands)
        self.miss = tuple(miss)
        if stock is None:
            used = {c for h in self.dealt if h for c in h} | set(self.miss) | {turnup}
            stock = [c for c in full_pack() if c not in used]
        self.stock = tuple(stock)
        self.trump = turnup.suit
        self.pam_card: Card | None = None
        if self.game is Game.FIVE_CARD:
            pam_suit = self.trump if rules.pam is Pam.TRUMP_KNAVE else Suit.CLUBS
            self.pam_card = Card(Rank.KNAVE, pam_suit)
        # The rule functions of loo.games.loo.play compute on card indices: trumps, Pam (-1: none), turn-up.
        self._trump = int(self.trump)
        self._pam = self.pam_card.index if self.pam_card is not None else -1
        self._turnup = turnup.index
        self._peel_dealer = self.game is Game.THREE_CARD and rules.lone_opponent_rule is LoneOpponentRule.PEEL
        # What legal_actions() last offered, and for which state: (state, its holdings, the seat to act,
        # the phase, the actions). Every action makes a new holdings table (the state is copy-on-write,
        # see _State), so while it is the very table in the state the answer stands, and push need not
        # ask again about an action offered.
        self._offered: tuple[_State, list[list[Card]], int, Phase, list[Action]] | None = None
        self.active = [s for s in range(self.n) if self.dealt[s] is not None]
        self._rot = tuple(p for p in ((dealer + i) % self.n for i in range(1, self.n + 1)) if self.dealt[p] is not None)
        self.eldest = self._next_active(dealer)
        # AMB-20: when the dealer sits out, his rights pass to the last active player, the acting dealer.
        self.last = self._rotation()[-1]
        self.club_law = rules.club_law and self.trump is Suit.CLUBS and self.game is not Game.FIVE_CARD
        only_stake = pool == rules.deal_price
        self.bold_stand = (
            rules.first_deal_mode is FirstDealMode.BOLD_STAND and only_stake and deal_kind is DealKind.NORMAL
        )
        self.must = self.game is Game.FIVE_CARD and rules.must_option and only_stake
        self.peel_single = deal_kind is DealKind.SINGLE and rules.first_deal_mode is FirstDealMode.PEEL_SINGLE
        self.all_must_play = (
            self.club_law
            or self.bold_stand
            or self.must
            or deal_kind is DealKind.FINAL
            or (deal_kind is DealKind.SINGLE and not self.peel_single)
        )
        self.miss_in_play = bool(self.miss) and not (self.club_law and rules.club_law_miss is ClubLawMiss.WITHDRAWN)
        self._s = _State(
            phase=Phase.DECLARE,
            to_act=self.eldest,
            declared=[None] * self.n,
            holding=[list(h) if h is not None else [] for h in self.dealt],
            exchanged=[None] * self.n,
            penalties=[0] * self.n,
            put_out=[[] for _ in range(self.n)],
        )
        self._history: list[tuple[Action, _State]] = []
        if self.peel_single:
            self._finish(self._settle_peel_single())

    # ----- construction -------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        rng: random.Random,
        *,
        seats: int,
        dealer: int,
        pool: int,
        deal_kind: DealKind = DealKind.NORMAL,
        names: Sequence[str] | None = None,
        sitting_out: Sequence[int] = (),
        table: bool = False,
    ) -> LooHand:
        """Shuffle with ``rng`` and deal in the order the rules give (L3-DEAL-08..10, CF-16, L5-GEN-01)."""
        hands, miss, turnup, stock = deal_cards(
            rules, rng, seats=seats, dealer=dealer, deal_kind=deal_kind, sitting_out=sitting_out
        )
        return cls(
            rules,
            hands=hands,
            turnup=turnup,
            dealer=dealer,
            pool=pool,
            miss=miss,
            stock=stock,
            deal_kind=deal_kind,
            names=names,
            table=table,
        )

    # ----- public state -------------------------------------------------------------------

    @classmethod
    def at_view(
        cls,
        view: SeatView,
        *,
        dealt: Sequence[tuple[Card, ...] | None],
        holdings: Sequence[Sequence[Card]],
        miss: Sequence[Card],
        stock: Sequence[Card],
        stock_pos: int,
        dead: Sequence[Card],
        put_out: Sequence[Card],
        deal_kind: DealKind,
    ) -> LooHand:
        """A hand at the public state ``view`` shows, with these hidden cards: one guess at what
        ``view.seat`` cannot see (a sampling player's world, :func:`loo.bots.determinize`).

        ``holdings`` are the cards each seat holds now, ``dealt`` what each was dealt (only
        illustrative once declared), ``miss``, ``stock`` and ``stock_pos`` the miss and the stock
        and how much of it is drawn, ``dead`` the cards out of play, ``put_out`` what the viewing
        seat itself put out. The hand cannot be taken back past this point.
        """
        if view.turnup is None:
            raise ValueError(f"seat {view.seat} cannot see the turn-up, so trumps are unknown to it")
        n = len(view.names)
        seat = view.seat
        world = cls(
            view.rules,
            hands=dealt,
            turnup=view.turnup,
            dealer=view.dealer,
            pool=view.pool,
            miss=miss,
            stock=stock,
            deal_kind=deal_kind,
            names=view.names,
        )
        s = world._s
        s.phase = view.phase
        s.to_act = view.to_act
        s.declared = list(view.declared)
        s.holding = [list(h) for h in holdings]
        s.miss_taken_by = view.miss_taken_by
        s.for_pool = view.for_pool
        s.turnup_taken = view.turnup_taken
        s.stock_pos = stock_pos
        s.dead = list(dead)
        s.exchanged = list(view.exchanged)
        s.tricks = list(view.tricks)
        s.current = list(view.current)
        if view.phase is Phase.PLAY:
            s.leader = view.current[0][0] if view.current else view.tricks[-1].winner if view.tricks else view.to_act
        else:
            s.leader = None
        s.civil_said = view.civil_said
        s.put_out = [[] for _ in range(n)]
        s.put_out[seat] = list(put_out)  # what the others put out is unknown to this seat; it lies among the dead
        s.settlement = None
        world._history = []
        return world

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def settlement(self) -> Settlement | None:
        return self._s.settlement

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._s.tricks)

    @property
    def stock_left(self) -> int:
        """Cards still in the stock for exchanges (five-card Loo, Irish Loo)."""
        return len(self.stock) - self._s.stock_pos

    def holding(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (the engine's full knowledge: not for a seat's view)."""
        return tuple(self._s.holding[seat])

    def declared(self, seat: int) -> str | None:
        return self._s.declared[seat]

    @property
    def miss_taken_by(self) -> int | None:
        return self._s.miss_taken_by

    @property
    def playing_for_pool(self) -> bool:
        return self._s.for_pool

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand from its turn to declare, and the public table."""
        s = self._s
        may_look = s.phase is not Phase.DECLARE or s.declared[seat] is not None or s.to_act == seat
        hand = tuple(s.holding[seat]) if may_look and self.dealt[seat] is not None else None
        if s.for_pool and seat == self.last:
            hand = tuple(s.holding[seat])  # the dealer chooses the miss's cards (AMB-05)
        return SeatView(
            seat=seat,
            rules=self.rules,
            names=self.names,
            dealer=self.dealer,
            pool=self.pool,
            phase=s.phase,
            to_act=s.to_act,
            turnup=self.turnup,  # shown to the whole table when it was turned, even if the dealer takes it
            hand=hand,
            deal_kind=self.deal_kind,
            turnup_taken=s.turnup_taken,
            civil_said=s.civil_said,
            put_out=tuple(s.put_out[seat]),
            declared=tuple(s.declared),
            miss_taken_by=s.miss_taken_by,
            for_pool=s.for_pool,
            exchanged=tuple(s.exchanged),
            hand_sizes=tuple(len(h) for h in s.holding),
            tricks=tuple(s.tricks),
            current=tuple(s.current),
            legal=tuple(self.legal_actions()) if s.to_act == seat else (),
            settlement=s.settlement,
            miss_left=len(self.miss) if self.miss_in_play and s.miss_taken_by is None and not s.for_pool else 0,
        )

    # ----- legal actions ------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take, in a stable order."""
        s = self._s
        seat = s.to_act
        if seat is None or s.phase is Phase.DONE:
            return []
        if s.phase is Phase.DECLARE:
            out = []
            for d in self._options(seat):
                action = _DECLARE_ACTIONS.get((seat, d))
                if action is None:
                    action = Action(seat, "for-pool", True) if d == "for-pool" else Action(seat, "declare", d)
                    _DECLARE_ACTIONS[seat, d] = action
                out.append(action)
            if seat == self.last and self._may_take_turnup():
                out.extend(Action(seat, "take-turnup", c) for c in s.holding[seat])
            self._offered = (s, s.holding, seat, s.phase, out)
            return out
        if s.phase is Phase.EXCHANGE:
            return [Action(seat, "exchange", combo) for combo in self._exchange_options(seat)]
        held = s.holding[seat]
        choices, _ = self._duty([c.index for c in held])
        while len(_PLAY_ACTIONS) <= seat:
            _PLAY_ACTIONS.append(tuple(Action(len(_PLAY_ACTIONS), "play", c) for c in CARDS))
        actions = _PLAY_ACTIONS[seat]
        out = [actions[i] for i in choices]
        self._offered = (s, s.holding, seat, s.phase, out)
        return out

    def _options(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` may declare now, with the dealer's ``for-pool`` (loo.games.loo.play.declaration_options)."""
        s = self._s
        last = seat == self.last
        lone_peel = False
        if last and self._peel_dealer and not self.all_must_play:
            lone_peel = sum(1 for p in self.active if p != seat and s.declared[p] in ("stand", "miss")) == 1
        return declaration_options(
            all_must_play=self.all_must_play,
            miss_free=self.miss_in_play and s.miss_taken_by is None,
            may_miss_anyway=self.all_must_play
            and may_miss_when_all_play(
                self.rules, club_law=self.club_law, bold_stand=self.bold_stand, eldest=seat == self.eldest
            ),
            last=last,
            lone_peel=lone_peel,
            miss_taken=s.miss_taken_by is not None,
        )

    def _declarations(self, seat: int) -> list[str]:
        return [d for d in self._options(seat) if d != "for-pool"]

    def _dealer_may_for_pool(self) -> bool:
        """L3-DLR-03: a lone stander on his own hand, the miss untaken, Peel's dealer rule."""
        return "for-pool" in self._options(self.last)

    def _may_take_turnup(self) -> bool:
        """L5-OPT-02, AMB-29: five-card option, at the dealer's turn to declare."""
        return self.game is Game.FIVE_CARD and self.rules.dealer_takes_turnup and not self._s.turnup_taken

    def _exchange_options(self, seat: int) -> list[tuple[Card, ...]]:
        """IRL-05, L5-DECL-02, AMB-28: any number of cards, up to what the stock can replace."""
        hand = self._s.holding[seat]
        room = min(len(hand), len(self.stock) - self._s.stock_pos)
        out: list[tuple[Card, ...]] = []
        for size in range(room + 1):
            out.extend(_combinations(hand, size))
        return out

    def _suit(self, card: Card) -> Suit:
        """The suit a card counts as: Pam is a trump for all purposes (AMB-25)."""
        return self.trump if card == self.pam_card else card.suit

    def _power(self, card: Card, led: Suit) -> int:
        """A number such that the higher card wins the trick (loo.games.loo.play.power)."""
        return power(card.index, led, self._trump, self._pam)

    def _trick_power(self, seat: int, card: Card) -> int:
        """The power of ``card``, played by ``seat`` to the current trick (AMB-26).

        Civility bars Pam from a led ace of trumps unless Pam is the holder's last card; then he
        plays it, since he has nothing else, but it lets the ace pass: it wins nothing, like a discard.
        """
        s = self._s
        led_card = s.current[0][1]
        if self._pam < 0:
            return power(card.index, led_card.index // 13, self._trump, -1)
        if card == self.pam_card and not s.holding[seat] and self._civil_applies(led_card):
            return 0
        return self._power(card, self._suit(led_card))

    def _best_so_far(self) -> tuple[int, int]:
        """(power, seat) of the card winning the current trick: the highest power, the earliest on a tie."""
        s = self._s
        best = (-1, -1)
        for seat, card in s.current:
            value = self._trick_power(seat, card)
            if value > best[0]:
                best = (value, seat)
        return best

    def _winning_card(self) -> Card:
        """The card winning the current trick so far."""
        s = self._s
        if self._pam < 0:
            led, trump = s.current[0][1].index // 13, self._trump
            return max(s.current, key=lambda sc: power(sc[1].index, led, trump, -1))[1]
        return max(s.current, key=lambda sc: self._trick_power(sc[0], sc[1]))[1]

    def _duty(self, hand: list[int]) -> tuple[list[int], str | Duty | None]:
        """The indices of the cards in ``hand`` the seat to act may play, and the law (a lead) or the
        duty (a follow) that narrowed them: loo.games.loo.play's lead_choices and follow_choices."""
        s = self._s
        if not s.current:
            return lead_choices(hand, len(s.tricks), self._trump, self._pam, self.rules, self._turnup)
        led_card = s.current[0][1]
        if s.best is None:  # a hand set up at a view: the trick as it stands
            s.best = self._best_so_far()
        best = s.best[0]
        civil = self._pam >= 0 and self._civil_applies(led_card)
        rules = self.rules
        must_head, void_rule = rules.must_head, rules.void_rule
        return follow_choices(hand, led_card.index, best, self._trump, self._pam, civil, must_head, void_rule)

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now, in the order it holds them."""
        return self._playable(seat)

    def _playable(self, seat: int) -> list[Card]:
        choices, _ = self._duty([c.index for c in self._s.holding[seat]])
        return [CARDS[i] for i in choices]

    def _why_not(self, seat: int, card: Card) -> tuple[str, str] | None:
        """None if ``seat`` may play ``card`` now, else (law ID, plain reason): the choices and the duty
        come from :meth:`_duty`, and the reason is the sentence that duty gives for the refused card."""
        s = self._s
        hand = s.holding[seat]
        who = self._who(seat)
        if card not in hand:
            return ("L3-PLAY-01", f"{who} does not hold {card}")
        held = [c.index for c in hand]
        choices, duty = self._duty(held)
        if card.index in choices:
            return None
        if not s.current:
            assert isinstance(duty, str)
            return (duty, self._lead_refusal(who, card, duty, held, choices))
        led_card = s.current[0][1]
        led = self._suit(led_card)
        if card == self.pam_card and len(hand) > 1 and self._civil_applies(led_card):
            # AMB-26: Pam may not be played to a led ace of trumps, unless it is the only card left;
            # then it is played, and lets the ace win (_trick_power).
            return ("L5-RANK-05", f"Pam be civil: {who} may not play Pam when the ace of trumps is led (AMB-26)")
        winner_card = self._winning_card()
        if duty is Duty.FOLLOW or duty is Duty.HEAD:
            civil = len(hand) > 1 and self._civil_applies(led_card)
            follow = [c for c in hand if self._suit(c) is led and not (civil and c == self.pam_card)]
            if card not in follow:
                return (
                    "L3-PLAY-02",
                    f"{who} must follow suit: {who} holds {_list(follow)}, so {card} may not be played",
                )
            higher = [CARDS[c] for c in choices]
            return (
                "L3-PLAY-03",
                f"{who} must head the trick: {_list(higher)} beat{'s' if len(higher) == 1 else ''} "
                f"{winner_card}, so {card} may not be played",
            )
        if duty is Duty.OVERTRUMP:
            beating = [CARDS[c] for c in choices]
            return (
                "L3-PLAY-04",
                f"{who} cannot follow {led.plural} and must head the trick with a trump: "
                f"{_list(beating)} beat{'s' if len(beating) == 1 else ''} {winner_card}, "
                f"so {card} may not be played",
            )
        assert duty is Duty.TRUMP, f"{card} refused under {duty}"
        return ("L3-PLAY-04", f"{who} cannot follow {led.plural} and must trump, so {card} may not be played")

    def _civil_applies(self, led_card: Card) -> bool:
        """L5-RANK-05, CF-22, AMB-26: the ace of trumps was led and civility is enforced."""
        if self.pam_card is None or led_card.index != self._trump * 13 + ACE:
            return False
        mode = self.rules.pam_be_civil
        return mode is PamBeCivil.MANDATORY or (mode is PamBeCivil.ON_ANNOUNCE and self._s.civil_said)

    def _lead_refusal(self, who: str, card: Card, law: str, held: list[int], choices: list[int]) -> str:
        """Why ``card`` may not be led: the sentence for the law of the lead that narrowed the choice
        (L3-LEAD-03..06 on the first trick, L3-LEAD-10 on the second)."""
        if law == "L3-LEAD-03":
            return f"{who} holds the ace of trumps and must lead it, so {card} may not be led"
        if law == "L3-LEAD-04":
            return f"the ace of trumps is turned up, so {who} must lead the king of trumps, not {card}"
        if law == "L3-LEAD-05":
            trumps = sum(1 for c in held if suit_of(c, self._trump, self._pam) == self._trump)
            return f"{who} holds {trumps} trumps and must lead the highest, {CARDS[choices[0]]}, not {card}"
        if law == "L3-LEAD-06":
            return f"{who} holds {len(choices)} trumps and must lead one of them, not {card}"
        if self.rules.winner_must_lead_trump is WinnerLeadsTrump.HIGHER:
            return f"{who} won the first trick and holds a trump, so must lead the highest trump, {CARDS[choices[0]]}"
        return f"{who} won the first trick and holds a trump, so must lead a trump, not {card}"

    def _who(self, seat: int) -> str:
        if self._s.for_pool and seat == self.last:
            return "the miss (played for the pool)"
        return self.names[seat]

    # ----- explanations -------------------------------------------------------------------

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        """None if ``action`` is legal now, else (law ID, a plain sentence saying what the law requires)."""
        s = self._s
        offered = self._offered
        if (
            offered is not None
            and offered[0] is s
            and offered[1] is s.holding
            and offered[2] == s.to_act
            and offered[3] is s.phase
            and any(a is action for a in offered[4])
        ):
            return None  # one of the actions legal_actions() offered for this very position
        tricks_law = "L5-GEN-03" if self.game is Game.FIVE_CARD else "L3-GEN-01"
        if s.phase is Phase.DONE:
            return (tricks_law, "the hand is over: no more actions can be taken")
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("L3-GEN-07", f"there is no seat {seat}")
        if seat != s.to_act:
            assert s.to_act is not None
            law = "L3-DECL-01" if s.phase is Phase.DECLARE else "L3-PEN-09" if s.phase is Phase.PLAY else "AMB-28"
            return (law, f"it is {self._who(s.to_act)}'s turn, not {self._who(seat)}'s")
        if s.phase is Phase.DECLARE:
            return self._why_not_declare(action)
        if s.phase is Phase.EXCHANGE:
            if action.verb != "exchange":
                return ("AMB-28", f"{self._who(seat)} must now exchange (an empty list for none), not {action.verb}")
            hand = s.holding[seat]
            missing = [c for c in action.value if c not in hand]
            if missing:
                return ("L5-DECL-02", f"{self._who(seat)} does not hold {_list(missing)}")
            left = len(self.stock) - s.stock_pos
            if len(action.value) > left:
                return ("AMB-28", f"only {left} cards are left in the stock, so no more than {left} can be exchanged")
            return None
        if action.verb == "declare" and action.value == "throw":
            return ("L3-PLAY-08", f"once the first card is led, {self._who(seat)} may not throw up (L3-PEN-14)")
        if action.verb != "play":
            return ("L3-PLAY-01", f"the declarations are over: {self._who(seat)} must play a card, not {action.verb}")
        return self._why_not(seat, action.value)

    def _why_not_declare(self, action: Action) -> tuple[str, str] | None:
        seat = action.seat
        who = self._who(seat)
        if action.verb == "for-pool":
            if seat == self.last and self._dealer_may_for_pool():
                return None
            return ("L3-DLR-03", "only the dealer facing one stander on his own hand may play the miss for the pool")
        if action.verb == "take-turnup":
            if seat != self.last or not self._may_take_turnup():
                return ("L5-OPT-02", "only the dealer may take the turn-up, and only when that option is agreed")
            if action.value not in self._s.holding[seat]:
                return ("L5-OPT-02", f"{who} does not hold {action.value} to discard for the turn-up")
            return None
        if action.verb != "declare":
            return ("L3-DECL-13", f"play begins only after every declaration: {who} must declare, not {action.verb}")
        options = self._declarations(seat)
        if action.value in options:
            return None
        what = action.value
        if self.club_law and what == "throw":
            return ("L3-CLUB-01", f"a club is turned up under Club Law, so everyone, {who} included, must play")
        if self.club_law and what == "miss":
            return ("L3-CLUB-02", "under Club Law the miss is withdrawn")
        if self.bold_stand and what == "throw":
            return ("L3-BOLD-01", "the pool holds only the dealer's stake: a Bold Stand, so everyone must play")
        if self.bold_stand and what == "miss" and self.miss:  # Irish Loo's Bold Stand has no miss (IRL-01)
            return ("L3-BOLD-02", "in a Bold Stand only the eldest hand may take the miss")
        if self.must and what == "throw":
            return ("L5-OPT-01", "Must: the pool holds only the dealer's stake, so everyone must play")
        if self.deal_kind is DealKind.FINAL:
            return ("L3-END-03", "on the last round everyone stands and there is no miss")
        if self.deal_kind is DealKind.SINGLE:
            return ("L3-SGL-09", "in this single there is no miss and every player must play")
        if what == "miss":
            if not self.miss:
                law = "IRL-01" if self.game is Game.IRISH else "L5-DECL-02"
                return (law, f"there is no miss in {self.game.value}")
            return ("L3-DECL-05", f"the miss has already been taken by {self._who(self._s.miss_taken_by or 0)}")
        if what == "throw" and seat == self.last:
            return (
                "L3-DLR-03",
                "the dealer may not give up here: he must stand, take the miss, or play it for the pool",
            )
        return ("L3-DECL-01", f"{who} may not declare {what!r} here")

    def explain(self) -> list[Explanation]:
        """For the seat to act: every action it might try now, legal or not, with the law and a plain reason.

        In the declarations that is each declaration; in play, each card the seat holds.
        """
        seat = self._s.to_act
        if seat is None:
            return []
        legal = self.legal_actions()
        if self._s.phase is Phase.PLAY:
            tries = [Action(seat, "play", c) for c in self._s.holding[seat]]
        elif self._s.phase is Phase.DECLARE:
            tries = [Action(seat, "declare", d) for d in ("stand", "miss", "throw")]
            tries += [a for a in legal if a.verb != "declare"]
        else:
            tries = legal
        return self._explanations(tries, legal)

    def _why_legal(self, action: Action) -> tuple[str, str]:
        s = self._s
        who = self._who(action.seat)
        if action.verb == "declare":
            law = {"stand": "L3-DECL-02", "miss": "L3-DECL-03", "throw": "L3-DECL-06"}[action.value]
            if self.all_must_play and action.value == "stand":
                return ("L3-CLUB-01" if self.club_law else "L3-BOLD-01", f"{who} must play this hand")
            text = {
                "stand": "keep these cards and play",
                "miss": "take the miss, unseen, in place of these cards",
                "throw": "throw up, neither paying nor receiving this hand",
            }[action.value]
            return (law, f"{who} may {text}")
        if action.verb == "for-pool":
            return ("L3-DLR-03", "the dealer may play the miss for the pool; its winnings stay in the pool")
        if action.verb == "take-turnup":
            return ("L5-OPT-02", f"the dealer may take the turn-up and discard {action.value}")
        if action.verb == "exchange":
            n = len(action.value)
            return ("L5-DECL-02", f"{who} may exchange {n} card{'s' if n != 1 else ''} from the stock")
        card = action.value
        if s.current and card == self.pam_card and self._civil_applies(s.current[0][1]):
            return ("AMB-26", f"Pam is {who}'s last card, so he plays it; being civil, it lets the ace of trumps win")
        if not s.current:
            # A lead is free (L3-LEAD-08) unless a duty binds this holding: then the law that
            # refuses the other cards is the law that makes this one the card to lead.
            holding = s.holding[action.seat]
            choices, duty = self._duty([c.index for c in holding])
            if duty is not None and any(other != card and other.index not in choices for other in holding):
                rule = law_entry(str(duty)).statement
                return (str(duty), f"{who} must lead {card} here: {rule[:1].lower()}{rule[1:]}")
            return ("L3-LEAD-08", f"{who} may lead {card}")
        led = self._suit(s.current[0][1])
        if self._suit(card) is led:
            return ("L3-PLAY-02", f"{card} follows suit")
        return ("L3-PLAY-05", f"{who} cannot follow {led.plural}, so {card} may be played")

    # ----- making moves -------------------------------------------------------------------

    def _irregular(self, action: Action, law: str, message: str) -> bool:
        """Table mode: an illegal action is recorded as an offence and penalised (:meth:`_offend`), not
        refused, unless the hand is over or the seat does not exist."""
        if not self.table or self._s.phase is Phase.DONE or not 0 <= action.seat < self.n:
            return False
        self._history.append((action, self._s.copy()))
        self._offend(action.seat, law, message, action)
        return True

    # ----- table mode: irregularities (A.11, AMB-15..17) ----------------------------------------

    @property
    def stake(self) -> int:
        """The pool played for: the pool as dealt plus pre-play penalties paid into it (L3-PEN-05, AMB-17)."""
        return self.pool + sum(self._s.penalties)

    @property
    def offences(self) -> tuple[Offence, ...]:
        return tuple(self._s.offences)

    def _penalty_amount(self) -> int:
        """L3-PEN-06, AMB-34: pre-play penalties at the single-loo rate (the deal price in unlimited games)."""
        return self.rules.deal_price if self.rules.loo_mode is not LooMode.LIMITED else self.rules.single_loo

    def _offend(self, seat: int, law: str, message: str, action: Action | None) -> None:
        s = self._s
        if s.phase in (Phase.DECLARE, Phase.EXCHANGE):
            # L3-PEN-05/06, AMB-17: a single loo into this pool; the irregular declaration has no effect.
            s.unshare()
            s.penalties[seat] += self._penalty_amount()
            s.offences = [*s.offences, Offence(seat, law, message, "pre-play")]
            return
        s.unshare()
        s.offenders.setdefault(seat, law)  # L3-PEN-01/04: looed, and wins nothing this hand
        s.offences = [*s.offences, Offence(seat, law, message, "play")]
        if action is not None and action.verb == "play" and seat == s.to_act and action.value in s.holding[seat]:
            self._play(seat, action.value, action.civil)  # the card lies where he played it
        if self.rules.revoke_replay is RevokeReplay.MANDATORY:
            self._replay()  # L3-PEN-02, CF-19

    def _replay(self) -> None:
        """AMB-15: restore the hands as they stood after the declarations and play again from trick 1."""
        s = self._s
        if s.start_of_play is None:
            return
        again = s.start_of_play.copy()
        again.penalties, again.offenders, again.offences = list(s.penalties), dict(s.offenders), list(s.offences)
        again.start_of_play, again.replays = s.start_of_play, s.replays + 1
        self._s = again

    def claim_replay(self, by: int) -> None:
        """L3-PEN-07, CF-19 on-demand: a player other than the offender requires the hand to be replayed."""
        s = self._s
        if not self.table or not s.offenders or s.phase is not Phase.PLAY:
            raise IllegalActionError("L3-PEN-07", "a replay can be claimed only after an offence in play")
        if by in s.offenders:
            raise IllegalActionError("L3-PEN-07", f"{self.names[by]} committed the offence and cannot claim a replay")
        self._history.append((Action(by, "claim", True), s.copy()))
        self._replay()

    def penalize(self, seat: int, law: str) -> None:
        """Record an offence the engine cannot see (looking at cards, informing), claimed at the table."""
        if not self.table:
            raise IllegalActionError(law, "penalties are recorded only at a teaching table (table mode)")
        if law not in PRE_PLAY_CLAIMS | PLAY_CLAIMS:
            known = sorted(PRE_PLAY_CLAIMS | PLAY_CLAIMS)
            raise ValueError(f"{law!r} is not an offence a table can claim; use one of {known}")
        if self._s.phase is Phase.DONE:
            raise IllegalActionError(law, "the hand is over")
        self._history.append((Action(seat, "penalty", law), self._s.copy()))
        if law in PRE_PLAY_CLAIMS:
            self._s.unshare()
            self._s.penalties[seat] += self._penalty_amount()
            self._s.offences = [*self._s.offences, Offence(seat, law, "a claimed irregularity before play", "pre-play")]
        else:
            self._s.unshare()
            self._s.offenders.setdefault(seat, law)
            self._s.offences = [*self._s.offences, Offence(seat, law, "a claimed offence in play", "play")]

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

    def _apply(self, action: Action) -> None:
        s = self._s
        seat = action.seat
        if action.verb != "play":
            s.unshare()  # the declarations and exchanges change the per-seat tables in place
        if action.verb == "declare":
            s.declared[seat] = action.value
            if action.value in ("miss", "throw"):
                s.put_out[seat] = [*s.put_out[seat], *s.holding[seat]]
            if action.value == "miss":
                s.dead = [*s.dead, *s.holding[seat]]  # L3-DECL-03: his own cards go to the stock unseen
                s.holding[seat] = list(self.miss)
                s.miss_taken_by = seat
            elif action.value == "throw":
                s.dead = [*s.dead, *s.holding[seat]]
                s.holding[seat] = []
            self._after_declaration(seat)
        elif action.verb == "for-pool":
            s.declared[seat] = "for-pool"
            s.put_out[seat] = [*s.put_out[seat], *s.holding[seat]]
            s.dead = [*s.dead, *s.holding[seat]]
            s.holding[seat] = list(self.miss)
            s.for_pool = True
            self._after_declaration(seat)
        elif action.verb == "take-turnup":
            held = list(s.holding[seat])
            held.remove(action.value)
            s.holding[seat] = [*held, self.turnup]
            s.dead = [*s.dead, action.value]
            s.put_out[seat] = [*s.put_out[seat], action.value]
            s.turnup_taken = True
            s.declared[seat] = "stand"  # taking the turn-up is only allowed to a dealer who plays (AMB-29)
            self._after_declaration(seat)
        elif action.verb == "exchange":
            hand = list(s.holding[seat])
            for card in action.value:
                hand.remove(card)
            s.dead = [*s.dead, *action.value]
            s.put_out[seat] = [*s.put_out[seat], *action.value]
            k = len(action.value)
            hand.extend(self.stock[s.stock_pos : s.stock_pos + k])
            s.holding[seat] = hand
            s.stock_pos += k
            s.exchanged[seat] = k
            nxt = self._next_of(seat, self._exchangers())
            if nxt is None:
                self._start_play()
            else:
                s.to_act = nxt
        else:
            self._play(seat, action.value, action.civil)

    def _after_declaration(self, seat: int) -> None:
        s = self._s
        standers = [p for p in self.active if s.declared[p] in ("stand", "miss", "for-pool")]
        if seat != self.last:
            nxt = self._next_active(seat)
            if nxt == self.last and not standers and not self.all_must_play:
                # L3-DLR-01, L5-DECL-05, IRL-06: everyone before the dealer threw up: his pool, no play.
                self._finish(self._uncontested(self.last, Reason.DEALER_UNCONTESTED))
                return
            s.to_act = nxt
            return
        if len(standers) == 1 and not s.for_pool:
            # L3-DLR-04, L3-DLR-05, L5-DECL-06, AMB-33: a lone stander takes the pool without play.
            self._finish(self._uncontested(standers[0], Reason.CONCEDED))
            return
        if self.game.exchanges:
            s.phase = Phase.EXCHANGE
            s.to_act = self._exchangers()[0]
        else:
            self._start_play()

    def _exchangers(self) -> list[int]:
        """Standers from the dealer's left, the dealer last (AMB-28, AMB-33)."""
        return [p for p in self._rot if self._s.declared[p] in ("stand", "miss")]

    def _players(self) -> tuple[int, ...]:
        """The players, from the dealer's left: fixed once play begins, so kept in the state from then."""
        players = self._s.players
        if players is None:
            players = tuple(p for p in self._rot if self._s.declared[p] in ("stand", "miss", "for-pool"))
            if self._s.phase is Phase.PLAY:
                self._s.players = players
        return players

    def _rotation(self) -> tuple[int, ...]:
        """Active seats clockwise from the dealer's left, the dealer last."""
        return self._rot

    def _next_active(self, seat: int) -> int:
        for i in range(1, self.n + 1):
            p = (seat + i) % self.n
            if self.dealt[p] is not None:
                return p
        return seat

    @staticmethod
    def _next_of(seat: int, order: Sequence[int]) -> int | None:
        i = order.index(seat)
        return order[i + 1] if i + 1 < len(order) else None

    def _start_play(self) -> None:
        s = self._s
        if self.game is Game.FIVE_CARD:
            flush = self._find_flush()
            if flush is not None:
                self._finish(self._settle_flush(*flush))
                return
        players = self._players()
        leader = players[0]  # L3-LEAD-01, CF-01, AMB-31: the first stander from the dealer's left
        if self.rules.miss_holder_leads and s.miss_taken_by is not None and not s.for_pool:
            leader = s.miss_taken_by  # L3-LEAD-02
        s.phase = Phase.PLAY
        s.leader = leader
        s.to_act = leader
        if self.table:
            s.start_of_play = s.copy()

    def _play(self, seat: int, card: Card, civil: bool) -> None:
        s = self._s
        held = list(s.holding[seat])
        held.remove(card)
        holding = s.holding.copy()
        holding[seat] = held
        s.holding = holding
        if not s.current:
            s.civil_said = civil
        s.current = [*s.current, (seat, card)]
        if s.best is None or len(s.current) == 1:
            s.best = self._best_so_far()
        else:
            value = self._trick_power(seat, card)
            if value > s.best[0]:  # the earliest of equal cards keeps the trick
                s.best = (value, seat)
        players = self._players()
        if len(s.current) < len(players):
            i = players.index(seat)
            s.to_act = players[(i + 1) % len(players)]
            return
        winner = s.best[1]
        assert s.leader is not None
        s.tricks = [*s.tricks, Trick(s.leader, tuple(s.current), winner)]
        s.current = []
        s.best = None
        if len(s.tricks) == self.rules.tricks:
            self._finish(self._settle_play())
            return
        s.leader = winner  # L3-LEAD-09
        s.to_act = winner

    def _finish(self, settlement: Settlement) -> None:
        self._s.phase = Phase.DONE
        self._s.to_act = None
        self._s.settlement = settlement

    # ----- settlement -------------------------------------------------------------------

    def loo_amount(self) -> int:
        """What a looed player pays (L3-LOO-02, UL-03/04, AMB-34, L3-SGL-06)."""
        return loo_amount(self.rules, self.pool, single=self.deal_kind is DealKind.SINGLE)

    def _uncontested(self, winner: int, reason: Reason) -> Settlement:
        payouts = [0] * self.n
        payouts[winner] = self.stake
        zero = (0,) * self.n
        return Settlement(reason, (), zero, (), tuple(payouts), zero, 0, penalties=self._penalties())

    def _penalties(self) -> tuple[int, ...] | None:
        return tuple(self._s.penalties) if self.table else None

    def _settle_play(self) -> Settlement:
        """L3-DIV-01/03, L3-DIV-04, L3-LOO-01/02, AMB-14, L5-PAY-01/02; in table mode L3-PEN-01..04, AMB-16."""
        s = self._s
        tricks = self.rules.tricks
        won = [0] * self.n
        payouts = [0] * self.n
        stake = self.stake
        share, remainder = divmod(stake, tricks)
        offenders = s.offenders
        for i, trick in enumerate(s.tricks):
            value = share + (1 if i < remainder else 0)
            won[trick.winner] += 1
            for_the_pool = s.for_pool and trick.winner == self.last
            if not for_the_pool and trick.winner not in offenders:
                payouts[trick.winner] += value  # else it stays in the pool (L3-DIV-04, L3-PEN-04)
        players = self._players()
        # in seat order (docs/records.md); an offender is looed even if he took tricks (L3-LOO-03), once (AMB-16)
        looed = tuple(
            sorted(p for p in players if (won[p] == 0 or p in offenders) and not (s.for_pool and p == self.last))
        )
        amount = 0 if self.deal_kind is DealKind.FINAL else self.loo_amount()
        loos = [amount if p in looed else 0 for p in range(self.n)]
        if self.deal_kind is DealKind.FINAL:
            looed = ()
        next_pool = stake - sum(payouts) + sum(loos)
        return Settlement(
            Reason.PLAYED,
            tuple(s.tricks),
            tuple(won),
            looed,
            tuple(payouts),
            tuple(loos),
            next_pool,
            penalties=self._penalties(),
            offenders=tuple(sorted(offenders)),
        )

    def _settle_peel_single(self) -> Settlement:
        """L3-SGL-02..05, AMB-03: the highest card of the turn-up's suit above it takes the pool."""
        beaters = [
            (c.rank, seat)
            for seat, hand in enumerate(self.dealt)
            if hand
            for c in hand
            if c.suit is self.trump and c.rank > self.turnup.rank
        ]
        payouts = [0] * self.n
        winner = max(beaters)[1] if beaters else None
        if winner is not None:
            payouts[winner] = self.pool
        looed = tuple(p for p in self.active if p != winner)
        loos = tuple(self.rules.single_loo if p in looed else 0 for p in range(self.n))
        won = (0,) * self.n  # matched, not played: no trick, as its empty ``tricks`` says (docs/records.md)
        next_pool = self.pool - sum(payouts) + sum(loos)
        return Settlement(Reason.SINGLE, (), won, looed, tuple(payouts), loos, next_pool)

    def flush_of(self, cards: Sequence[Card]) -> Flush | None:
        """L5-FL-01, L5-FL-04, AMB-27: the flush class of five cards, if any."""
        if len(cards) != 5:
            return None
        others = [c for c in cards if c != self.pam_card]
        if len(others) == 4 and len({c.suit for c in others}) == 1:
            return Flush.PAM
        if len(others) == 5 and len({c.suit for c in others}) == 1:
            return Flush.TRUMP if others[0].suit is self.trump else Flush.PLAIN
        return None

    def _find_flush(self) -> tuple[int, Flush] | None:
        best: tuple[int, Flush] | None = None
        for seat in self._players():  # elder hands first, so ties go to the elder (L5-FL-05, CF-24)
            kind = self.flush_of(self._s.holding[seat])
            if kind is not None and (best is None or kind > best[1]):
                best = (seat, kind)
        return best

    def _settle_flush(self, winner: int, kind: Flush) -> Settlement:
        """L5-FL-03, L5-FL-06, L5-FL-08/09, AMB-27: the flush sweeps the pool; other standers are looed."""
        payouts = [0] * self.n
        payouts[winner] = self.stake
        looed = []
        for seat in sorted(self._players()):  # the looed in seat order (docs/records.md)
            if seat == winner:
                continue
            hand = self._s.holding[seat]
            theirs = self.flush_of(hand)
            if self.pam_card in hand or (theirs is not None and theirs <= kind):
                continue
            looed.append(seat)
        amount = self.loo_amount()
        loos = [amount if p in looed else 0 for p in range(self.n)]
        direct = None
        if self.rules.flush_loo_destination is FlushLooDestination.TO_FLUSH_HOLDER:
            direct_list = [-x for x in loos]
            direct_list[winner] += sum(loos)
            direct, loos = tuple(direct_list), [0] * self.n
        zero = (0,) * self.n
        return Settlement(
            Reason.FLUSH,
            (),
            zero,
            tuple(looed),
            tuple(payouts),
            tuple(loos),
            sum(loos),
            direct,
            (winner, kind.name.lower()),
            penalties=self._penalties(),
        )


def _list(cards: Sequence[Card]) -> str:
    names = [str(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _combinations(cards: Sequence[Card], size: int) -> list[tuple[Card, ...]]:
    if size == 0:
        return [()]
    if size > len(cards):
        return []
    out = []
    for i, card in enumerate(cards):
        for rest in _combinations(cards[i + 1 :], size - 1):
            out.append((card, *rest))
    return out


def deal_cards(
    rules: Rules,
    rng: random.Random,
    *,
    seats: int,
    dealer: int,
    deal_kind: DealKind = DealKind.NORMAL,
    sitting_out: Sequence[int] = (),
) -> tuple[list[list[Card] | None], list[Card], Card, list[Card]]:
    """Shuffle and deal: one card at a time from the eldest (L3-DEAL-08, L5-GEN-01), the miss where
    the rules put it (L3-DEAL-10, CF-16), then the turn-up (L3-DEAL-14). Returns hands, miss, turn-up, stock."""
    if not 0 <= dealer < seats:
        raise ValueError(f"dealer {dealer} is not a seat: seats are numbered 0 to {seats - 1}")
    pack = shuffled_pack(rng)
    order = [(dealer + i) % seats for i in range(1, seats + 1) if (dealer + i) % seats not in sitting_out]
    peel_single = deal_kind is DealKind.SINGLE and rules.first_deal_mode is FirstDealMode.PEEL_SINGLE
    size = 1 if peel_single else rules.game.hand_size
    with_miss = rules.game.has_miss and deal_kind is DealKind.NORMAL
    needed = len(order) * size + (3 if with_miss else 0) + 1
    if needed > 52:
        raise ValueError(f"{len(order)} players need {needed} cards: more than the pack holds (AMB-02)")
    top = 0
    if peel_single:
        turnup = pack[top]  # L3-SGL-02: the turn-up first, then one card face up to each
        top += 1
    hands, miss, top = deal_rounds(pack, top, order, seats, size, with_miss, rules.miss_position)
    if not peel_single:
        turnup = pack[top]
        top += 1
    return hands, miss, turnup, pack[top:]
