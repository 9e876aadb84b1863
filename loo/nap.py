"""Napoleon (Nap), catalogue group E: the orthodox game and its variants, records, and games of many hands.

The orthodox game: five cards each and no turn-up (NAP-DEAL-03/04); one round of calling from
the eldest hand, each call raising the last (NAP-CALL-01, AMB-36); the highest caller leads and
his first lead fixes trumps (NAP-PLAY-01); follow suit, with no duty to head or trump
(NAP-PLAY-02, NAP-GEN-04); level money (NAP-SET-03); play stops once the call is made or
beaten (NAP-PLAY-06, AMB-43), though a record may play the remaining cards out
(:meth:`NapHand.play_on_actions`).  Wellington, Misery, Sir Garnet, Peep and Purchase Nap and the
pool are options of :class:`NapRules`.

:class:`NapHand` keeps the protocol of :class:`loo.hand.LooHand`: ``legal_actions()``,
``push()`` (refusing with the law broken), ``pop()``, ``push_unchecked()``, ``view(seat)``,
``explain()``, ``why_illegal()`` and ``settlement``.

>>> import random
>>> hand = NapHand.deal(NapRules.preset("hoffmann"), random.Random(4), seats=4, dealer=3,
...                     names=("Ann", "Ben", "Cat", "Dan"))
>>> hand.to_act, [a.value for a in hand.legal_actions()]
(0, ['pass', '1', '2', '3', '4', 'nap'])
>>> while not hand.is_over:
...     hand.push(hand.legal_actions()[0])  # everyone passes, so Dan must call one (NAP-CALL-04)
>>> hand.settlement.call, hand.settlement.caller, sum(hand.settlement.net())
('1', 3, 0)
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from loo.actions import CALLS, VERBS, Action, IllegalActionError
from loo.cards import Card, CardError, Rank, Suit, full_pack
from loo.core.hand import Explanation, TrickHand
from loo.game import ChipLedger, Entry, cut_for_deal
from loo.hand import Trick
from loo.reasons import Reason
from loo.records import (
    FORMAT,
    no_duplicates,
    parse_json,
    read_actions,
    read_header,
    read_pieces,
    read_table,
    replay_actions,
)
from loo.rules import RecordError, RevokeReplay, option_key, read_rules, rules_to_record

GAME = "nap"

# ----- the rules -------------------------------------------------------------------------------


class MiseryTrumps(StrEnum):
    """CF-32: is a Misery played without trumps, or does the first lead fix them as usual?"""

    NONE = "none"  # NAP-MIS-02, the default
    FIRST_LEAD = "first-lead"  # NAP-MIS-03


class KittyMode(StrEnum):
    """NAP-POOL-01..04, AMB-40: whether there is a pool (kitty), and how it is fed."""

    NONE = "none"  # NAP-POOL-01: Hoffmann's preference
    DEALER = "dealer"  # NAP-POOL-02: each dealer puts in one unit
    DEALER_AND_PLAYERS = "dealer-and-players"  # NAP-POOL-03: the dealer three units, every other player one
    KNAVE_OR_FIVE = "knave-or-five"  # NAP-POOL-04: one unit for each non-trump knave or five played


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class NapRules:
    """The options in force at a Nap table: the option flags the catalogue lists for group E.

    Money is counted in chips; ``unit`` is the stake per trick (a penny at penny Nap), and the
    Nap values, the peep fee and the price of a card are in units.

    >>> NapRules.from_record("nap", {"preset": "hoffmann", "wellington": True}).to_record()
    {'preset': 'hoffmann', 'wellington': True}
    >>> NapRules.preset("shilling").call_values("nap")
    (12, 6)
    """

    preset_name: str = "hoffmann"

    unit: int = field(default=1, metadata=_doc("NAP-SET-06: the stake per trick, in chips (a penny, sixpence, ...)."))
    nap_win: int = field(
        default=10, metadata=_doc("NAP-SET-04/05, CF-31, AMB-37: what a made Nap wins from each opponent, in units.")
    )
    nap_lose: int = field(
        default=5, metadata=_doc("NAP-SET-04/05, CF-31, AMB-37: what a failed Nap pays each opponent, in units.")
    )
    min_call: int = field(default=1, metadata=_doc("AMB-36: the lowest voluntary call, in tricks (1 to 5; 5 is Nap)."))
    dealer_forced_one: bool = field(
        default=True, metadata=_doc("NAP-CALL-04, AMB-36: if all pass the dealer must call one; else redeal.")
    )
    wellington: bool = field(
        default=False, metadata=_doc("NAP-WEL-01..03, AMB-37: Wellington, over a Nap only, at double Nap stakes.")
    )
    misery: bool = field(
        default=False, metadata=_doc("NAP-MIS-01..05, AMB-39: Misery, between three and four, paid as three.")
    )
    misery_trumps: MiseryTrumps = field(
        default=MiseryTrumps.NONE, metadata=_doc("NAP-MIS-02/03, CF-32: trumps in a Misery.")
    )
    sir_garnet: bool = field(
        default=False, metadata=_doc("NAP-SG-01..05, AMB-38: the extra hand, taken with a compulsory Nap.")
    )
    peep: bool = field(default=False, metadata=_doc("NAP-PEEP-01..05, AMB-38: the extra card, peeped at for a fee."))
    peep_fee: int = field(
        default=1, metadata=_doc("NAP-PEEP-02, AMB-38: the price of a peep, in units, paid into the pool.")
    )
    purchase: bool = field(
        default=False, metadata=_doc("NAP-PUR-01..06, AMB-41: the dealer sells fresh cards before the calling.")
    )
    purchase_price: int = field(
        default=1, metadata=_doc("NAP-PUR-02, AMB-41: the price of each card bought, in units, into the pool.")
    )
    kitty_mode: KittyMode = field(
        default=KittyMode.NONE, metadata=_doc("NAP-POOL-01..04, AMB-40: the pool and how it is fed.")
    )
    failed_nap_doubles_pool: bool = field(
        default=False, metadata=_doc("NAP-POOL-06/07, AMB-40: a failed Nap matches the pool.")
    )
    revoke_replay: RevokeReplay = field(
        default=RevokeReplay.MANDATORY, metadata=_doc("CF-19, NAP-REV-03: a revoke at a teaching table is replayed.")
    )
    out_of_turn_penalty: bool = field(
        default=False, metadata=_doc("NAP-REV-07: a card played out of turn carries the revoke penalty.")
    )

    def __post_init__(self) -> None:
        for f in self.options():
            value = getattr(self, f.name)
            if f.type == "int" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise RecordError(f"rules.{option_key(f.name)}", f"must be a whole number, not {value!r}")
        for name in ("unit", "nap_win", "nap_lose"):
            if getattr(self, name) == 0:
                raise RecordError(f"rules.{option_key(name)}", "must be at least 1: a call has to be worth something")
        if not 1 <= self.min_call <= 5:
            raise RecordError("rules.min-call", f"must be a number of tricks from 1 to 5, not {self.min_call}")
        if (self.peep or self.purchase) and self.kitty_mode is not KittyMode.NONE:
            raise RecordError(
                "rules.kitty-mode",
                "in Peep and Purchase Nap the pool is fed only by the peeps and purchases (NAP-POOL-08): "
                "leave kitty-mode at none",
            )

    # ----- what the options imply ------------------------------------------------------------

    @property
    def game(self) -> str:
        return GAME

    @property
    def kitty(self) -> bool:
        """Is a pool in use (NAP-POOL-02..04, or the fees of Peep and Purchase Nap, NAP-POOL-08)?"""
        return self.kitty_mode is not KittyMode.NONE or self.peep or self.purchase

    def call_values(self, call: str) -> tuple[int, int]:
        """(chips won from each opponent, chips paid to each) for ``call`` (NAP-SET-03/04, AMB-37)."""
        u = self.unit
        if call == "nap":
            return self.nap_win * u, self.nap_lose * u
        if call == "wellington":
            return 2 * self.nap_win * u, 2 * self.nap_lose * u
        if call == "misery":
            return 3 * u, 3 * u  # NAP-MIS-05
        k = int(call)
        return k * u, k * u

    def extra_cards(self) -> int:
        """Cards dealt besides the hands: the Sir Garnet hand and the peep card."""
        return (5 if self.sir_garnet else 0) + (1 if self.peep else 0)

    def max_seats(self) -> int:
        """AMB-02: as many players as the pack can serve five cards each, with the extra cards."""
        return (52 - self.extra_cards()) // 5

    # ----- presets and records -----------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> NapRules:
        if name not in PRESETS:
            raise RecordError("rules.preset", f"unknown preset {name!r}; the Nap presets are {', '.join(PRESETS)}")
        return PRESETS[name]

    @classmethod
    def options(cls) -> list[dataclasses.Field[Any]]:
        return [f for f in dataclasses.fields(cls) if f.name != "preset_name"]

    @classmethod
    def from_record(cls, game: str, value: Any) -> NapRules:
        """Read the ``rules`` of a Nap record: a preset name, an object with ``preset`` and overrides, or None."""
        if game != GAME:
            raise RecordError("game", f"these are the rules of Nap, not of {game!r}")
        return read_rules(cls, value, default=DEFAULT_PRESET, preset=cls.preset, label="the Nap options")

    def to_record(self) -> str | dict[str, Any]:
        """The preset's name, or the preset and the options that differ from it."""
        return rules_to_record(self, PRESETS[self.preset_name])


PRESETS: dict[str, NapRules] = {
    # Hoffmann's orthodox penny Nap (002): Nap wins ten and loses five (NAP-SET-04), no pool.
    "hoffmann": NapRules(),
    # The scale Hoffmann says most tables use: a shilling won, sixpence lost (NAP-SET-05, CF-31).
    "shilling": NapRules(preset_name="shilling", nap_win=12, nap_lose=6),
}
DEFAULT_PRESET = "hoffmann"

# ----- calls -----------------------------------------------------------------------------------

CALL_RANK = {name: i for i, name in enumerate(CALLS)}  # AMB-36: pass < 1 < 2 < 3 < misery < 4 < nap < wellington
NAP = CALL_RANK["nap"]
WELLINGTON = CALL_RANK["wellington"]
MISERY = CALL_RANK["misery"]
TRICKS_NEEDED = {"1": 1, "2": 2, "3": 3, "4": 4, "nap": 5, "wellington": 5, "misery": 0}
MIN_RANK = {1: CALL_RANK["1"], 2: CALL_RANK["2"], 3: CALL_RANK["3"], 4: CALL_RANK["4"], 5: NAP}
SPOKEN = {"pass": "pass", "1": "one", "2": "two", "3": "three", "4": "four", "misery": "Misery", "nap": "Nap",
          "wellington": "Wellington"}  # fmt: skip


def deal_nap(
    rules: NapRules, rng: random.Random, *, seats: int, dealer: int
) -> tuple[list[list[Card]], list[Card], Card | None, list[Card]]:
    """Shuffle and deal: five rounds of one card each from the eldest, the dealer last (NAP-DEAL-03),
    no turn-up (NAP-DEAL-04). The Sir Garnet hand takes its card after the dealer's in each round
    (NAP-SG-01), then the peep card is dealt (NAP-PEEP-01). Returns hands, garnet, peep card, stock."""
    if not 0 <= dealer < seats:
        raise ValueError(f"dealer {dealer} is not a seat: seats are numbered 0 to {seats - 1}")
    if seats < 2:
        raise ValueError("Nap needs at least two players (NAP-GEN-02)")
    if seats > rules.max_seats():
        raise ValueError(f"{seats} players need {5 * seats + rules.extra_cards()} cards: more than the pack holds "
                         f"(AMB-02)")  # fmt: skip
    pack = list(full_pack())
    rng.shuffle(pack)
    hands: list[list[Card]] = [[] for _ in range(seats)]
    garnet: list[Card] = []
    order = [(dealer + i) % seats for i in range(1, seats + 1)]
    top = 0
    for _round in range(5):
        for seat in order:
            hands[seat].append(pack[top])
            top += 1
        if rules.sir_garnet:
            garnet.append(pack[top])
            top += 1
    peep_card = None
    if rules.peep:
        peep_card = pack[top]
        top += 1
    return hands, garnet, peep_card, pack[top:]


# ----- the hand --------------------------------------------------------------------------------


class NapPhase(StrEnum):
    PURCHASE = "purchase"  # NAP-PUR-01..06: before the calling
    CALL = "call"
    GARNET = "garnet"  # NAP-SG-03: the taker of the extra hand throws out five of his ten cards
    EXCHANGE = "exchange"  # NAP-PEEP-03: the highest caller who peeped may take the peep card
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True)
class NapSettlement:
    """How a finished Nap hand pays: a value, like python-chess's ``Outcome``.

    ``stakes`` are chips paid between players (they add up to zero); ``pool_paid`` chips each
    seat paid into the pool during the hand (peeps, purchases, knaves and fives, a failed Nap's
    doubling); ``pool_taken`` what a successful Nap took out of it. :meth:`net` is each seat's
    gain, the ``settlement`` list of a record. ``next_pool`` is the pool the next hand starts with,
    before the next deal's feeds.
    """

    reason: Reason
    caller: int | None
    call: str | None
    made: bool | None
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    stakes: tuple[int, ...]
    pool_paid: tuple[int, ...]
    pool_taken: tuple[int, ...]
    next_pool: int
    kitty: bool
    offender: int | None = None
    wrong_count: tuple[int, ...] = ()

    def net(self) -> tuple[int, ...]:
        """Each seat's gain this hand: stakes received less paid, less what it put into the pool, plus what it took."""
        return tuple(s - p + t for s, p, t in zip(self.stakes, self.pool_paid, self.pool_taken, strict=True))

    @property
    def settlement(self) -> tuple[int, ...]:
        return self.net()

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "reason": self.reason,
            "caller": self.caller,
            "call": self.call,
            "made": self.made,
            "tricks": [t.to_record() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "settlement": list(self.net()),
        }
        if self.kitty:
            out["next_pool"] = self.next_pool
        return out


@dataclass(frozen=True)
class NapOffence:
    """An irregularity recorded at a teaching table (table mode): who, which law, and what followed."""

    seat: int
    law: str
    message: str
    kind: str  # "revoke", "caller-revoke", "out-of-turn" (no penalty), "refused-to-show", "wrong-count"


@dataclass
class _State:
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
    start_of_play: _State | None = None
    replays: int = 0
    wrong_count: list[int] = field(default_factory=list)

    def copy(self) -> _State:
        return _State(
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
class NapView:
    """What one seat may know: its own cards, the peep card if it peeped, and the public table."""

    seat: int
    rules: NapRules
    names: tuple[str, ...]
    dealer: int
    pool: int
    phase: NapPhase
    to_act: int | None
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


class NapHand(TrickHand):
    """One deal of Nap, from the purchases or the calling to the settlement."""

    _s: _State
    _history: list[tuple[Action, _State]]

    def __init__(
        self,
        rules: NapRules,
        *,
        hands: Sequence[Sequence[Card]],
        dealer: int,
        pool: int = 0,
        stock: Sequence[Card] | None = None,
        garnet: Sequence[Card] = (),
        peep_card: Card | None = None,
        names: Sequence[str] | None = None,
        table: bool = False,
    ) -> None:
        self.rules = rules
        self.game = GAME
        self.table = table  # teaching table: revokes and the like are recorded and penalised (E.11)
        self.n = len(hands)
        if self.n < 2:
            raise ValueError("Nap needs at least two players (NAP-GEN-02)")
        self.names = tuple(names) if names is not None else tuple(f"seat {i}" for i in range(self.n))
        self.dealer = dealer
        self.pool = pool
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self.garnet = tuple(garnet)
        self.peep_card = peep_card
        if stock is None:
            used = {c for h in self.dealt for c in h} | set(self.garnet) | ({peep_card} if peep_card else set())
            stock = [c for c in full_pack() if c not in used]
        self.stock = tuple(stock)
        self.eldest = (dealer + 1) % self.n
        self.rotation = tuple((dealer + i) % self.n for i in range(1, self.n + 1))  # the eldest first, dealer last
        self._min_rank = MIN_RANK[rules.min_call]
        first = NapPhase.PURCHASE if rules.purchase else NapPhase.CALL
        self._s = _State(
            phase=first,
            to_act=self.eldest,
            holding=[list(h) for h in self.dealt],
            calls=[None] * self.n,
            peeped=[False] * self.n,
            purchased=[None] * self.n,
            put_out=[[] for _ in range(self.n)],
            pool_paid=[0] * self.n,
        )
        self._history: list[tuple[Action, _State]] = []

    @classmethod
    def deal(
        cls,
        rules: NapRules,
        rng: random.Random,
        *,
        seats: int,
        dealer: int,
        pool: int = 0,
        names: Sequence[str] | None = None,
        table: bool = False,
    ) -> NapHand:
        """Shuffle with ``rng`` and deal (:func:`deal_nap`)."""
        hands, garnet, peep_card, stock = deal_nap(rules, rng, seats=seats, dealer=dealer)
        return cls(rules, hands=hands, dealer=dealer, pool=pool, stock=stock, garnet=garnet, peep_card=peep_card,
                   names=names, table=table)  # fmt: skip

    # ----- public state -------------------------------------------------------------------

    @property
    def phase(self) -> NapPhase:
        return self._s.phase

    @property
    def settlement(self) -> NapSettlement | None:
        return self._s.settlement

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._s.tricks)

    @property
    def caller(self) -> int | None:
        return self._s.caller

    @property
    def call(self) -> str | None:
        return CALLS[self._s.high] if self._s.high else None

    @property
    def trump(self) -> Suit | None:
        return self._s.trump

    @property
    def offences(self) -> tuple[NapOffence, ...]:
        return tuple(self._s.offences)

    def holding(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (the engine's full knowledge: not for a seat's view)."""
        return tuple(self._s.holding[seat])

    def view(self, seat: int) -> NapView:
        """What ``seat`` may know now: its own hand, the peep card if it peeped, and the public table."""
        s = self._s
        return NapView(
            seat=seat,
            rules=self.rules,
            names=self.names,
            dealer=self.dealer,
            pool=self.pool,
            phase=s.phase,
            to_act=s.to_act,
            hand=tuple(s.holding[seat]),
            peep_card=self.peep_card if s.peeped[seat] else None,
            put_out=tuple(s.put_out[seat]),
            calls=tuple(s.calls),
            caller=s.caller,
            call=self.call,
            peeped=tuple(s.peeped),
            garnet_by=s.garnet_by,
            purchased=tuple(s.purchased),
            peep_taken=s.peep_taken,
            trump=s.trump,
            hand_sizes=tuple(len(h) for h in s.holding),
            tricks=tuple(s.tricks),
            current=tuple(s.current),
            pool_paid=tuple(s.pool_paid),
            legal=tuple(self.legal_actions()) if s.to_act == seat else (),
            settlement=s.settlement,
        )

    # ----- legal actions ------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take, in a stable order."""
        s = self._s
        seat = s.to_act
        if seat is None:
            return []
        phase = s.phase
        if phase is NapPhase.PLAY:
            return [Action(seat, "play", c) for c in self._playable(seat)]
        if phase is NapPhase.CALL:
            out = [Action(seat, "call", c) for c in self._call_options(seat)]
            if self.rules.peep and not s.peeped[seat]:
                out.append(Action(seat, "peep", True))
            if self._may_take_garnet():
                out.append(Action(seat, "garnet", ()))  # taken up unseen: its cards are not shown in the offer
            return out
        if phase is NapPhase.GARNET:
            return [Action(seat, "garnet", combo) for combo in itertools.combinations(s.holding[seat], 5)]
        if phase is NapPhase.PURCHASE:
            return [Action(seat, "purchase", combo) for combo in self._purchase_options(seat)]
        if phase is NapPhase.EXCHANGE:
            return [Action(seat, "exchange", ()), *(Action(seat, "exchange", (c,)) for c in s.holding[seat])]
        return []

    def _forced(self, seat: int) -> bool:
        """NAP-CALL-04, AMB-36: the dealer, everyone else having passed, must call at least one."""
        return seat == self.dealer and self._s.high == 0 and self.rules.dealer_forced_one

    def _call_options(self, seat: int) -> list[str]:
        rules = self.rules
        high = self._s.high
        forced = self._forced(seat)
        out = [] if forced else ["pass"]
        for rank in range(high + 1, len(CALLS)):
            name = CALLS[rank]
            if name == "misery" and not rules.misery:
                continue
            if name == "wellington" and (not rules.wellington or high != NAP):
                continue
            if rank < self._min_rank and not (forced and name == "1"):
                continue
            out.append(name)
        return out

    def _may_take_garnet(self) -> bool:
        """NAP-SG-02, AMB-38: untaken, and a Nap may still be called."""
        return self.rules.sir_garnet and self._s.garnet_by is None and self._s.high < NAP and bool(self.garnet)

    def _purchase_options(self, seat: int) -> list[tuple[Card, ...]]:
        """NAP-PUR-03, AMB-41, AMB-28: up to five cards, no more than the stock can replace."""
        hand = self._s.holding[seat]
        room = min(5, len(hand), len(self.stock) - self._s.stock_pos)
        out: list[tuple[Card, ...]] = []
        for size in range(room + 1):
            out.extend(itertools.combinations(hand, size))
        return out

    @classmethod
    def at_view(
        cls,
        view: NapView,
        *,
        holdings: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        stock_pos: int,
        garnet: Sequence[Card],
        peep_card: Card | None,
    ) -> NapHand:
        """A hand at the public state ``view`` shows, with these hidden cards: one guess at what
        ``view.seat`` cannot see (a sampling player's world, :func:`loo.nap_bots.determinize`).

        ``holdings`` are the cards each seat holds now, ``stock`` and ``stock_pos`` the stock and
        how much of it is bought, ``garnet`` Sir Garnet's five and ``peep_card`` the peep card. The
        hand cannot be taken back past this point.
        """
        n = len(view.names)
        seat = view.seat
        held = [list(h) for h in holdings]
        world = cls(view.rules, hands=held, dealer=view.dealer, pool=view.pool, stock=stock, garnet=garnet,
                    peep_card=peep_card, names=view.names)  # fmt: skip
        state = _State(
            phase=view.phase,
            to_act=view.to_act,
            holding=held,
            calls=list(view.calls),
            high=CALL_RANK[view.call] if view.call else 0,
            caller=view.caller,
            peeped=list(view.peeped),
            garnet_by=view.garnet_by,
            purchased=list(view.purchased),
            stock_pos=stock_pos,
            put_out=[[] for _ in range(n)],
            peep_taken=view.peep_taken,
            trump=view.trump,
            tricks=list(view.tricks),
            current=list(view.current),
            leader=view.current[0][0] if view.current else (view.tricks[-1].winner if view.tricks else view.caller),
            pool_paid=list(view.pool_paid),
        )
        state.put_out[seat] = list(view.put_out)
        world._s = state
        world._history = []
        return world

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now, in the order it holds them."""
        return self._playable(seat)

    def _playable(self, seat: int) -> list[Card]:
        """NAP-PLAY-02, NAP-GEN-04: follow suit if able, otherwise any card; no heading or trumping duty."""
        hand = self._s.holding[seat]
        current = self._s.current
        if not current:
            return list(hand)
        led = current[0][1].suit
        follow = [c for c in hand if c.suit is led]
        return follow or list(hand)

    def _power(self, card: Card, led: Suit) -> int:
        """NAP-PLAY-04: a trump beats the suit led; otherwise the highest card of the suit led wins."""
        if card.suit is self._s.trump:
            return 200 + card.rank
        if card.suit is led:
            return 100 + card.rank
        return 0

    # ----- explanations -------------------------------------------------------------------

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        """None if ``action`` is legal now, else (law ID, a plain sentence saying what the law requires)."""
        s = self._s
        if s.phase is NapPhase.DONE:
            on = self._play_on_seat()
            if on is None:
                return ("NAP-PLAY-06", "the hand is over: no more actions can be taken")
            if action.verb != "play":
                return ("NAP-PLAY-06", "the call is decided: only the cards left may still be played out")
            return self._why_not_card(action, on)  # NAP-PLAY-06, AMB-43: playing the hand out
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("NAP-GEN-02", f"there is no seat {seat}")
        who = self.names[seat]
        assert s.to_act is not None
        if s.phase is NapPhase.PURCHASE:
            return self._why_not_purchase(action, who)
        if s.phase is NapPhase.CALL:
            return self._why_not_call(action, who)
        if s.phase is NapPhase.GARNET:
            if action.verb != "garnet" or seat != s.to_act or not action.value:
                return ("NAP-SG-03", f"{self.names[s.to_act]} has taken the extra hand and must now throw out five "
                                     "of his ten cards")  # fmt: skip
            missing = [c for c in action.value if c not in s.holding[seat]]
            if missing:
                return ("NAP-SG-03", f"{who} does not hold {_names(missing)}")
            if len(action.value) != 5:
                return ("NAP-SG-03", f"{who} must throw out exactly five of his ten cards, not {len(action.value)}")
            return None
        if s.phase is NapPhase.EXCHANGE:
            if action.verb == "play":
                return ("NAP-PEEP-03", f"{self.names[s.to_act]} may first exchange a card for the peep card")
            if action.verb != "exchange" or seat != s.to_act:
                return ("NAP-PEEP-04", f"only the highest caller, {self.names[s.to_act]}, may act now: he may "
                                       "exchange a card for the peep card, or keep his hand")  # fmt: skip
            missing = [c for c in action.value if c not in s.holding[seat]]
            if missing:
                return ("NAP-PEEP-03", f"{who} does not hold {_names(missing)}")
            if len(action.value) > 1:
                return ("NAP-PEEP-03", f"there is only one peep card: {who} may give up one card for it, not "
                                       f"{len(action.value)}")  # fmt: skip
            return None
        # play
        if action.verb == "exchange":
            if seat == s.caller and s.peeped[seat]:
                return ("NAP-PEEP-03", "the peep card may be taken only before the first lead")
            if seat == s.caller:
                return ("NAP-PEEP-03", f"{who} did not peep, so may not take the peep card")
            return ("NAP-PEEP-04", "only the highest caller may exchange for the peep card")
        if action.verb != "play":
            return ("NAP-PLAY-01", f"the calling is over: {who} may only play a card now, not {action.verb}")
        return self._why_not_card(action, s.to_act)

    def _why_not_card(self, action: Action, to_act: int) -> tuple[str, str] | None:
        """NAP-PLAY-01/02/04: a card played by ``action.seat`` when ``to_act`` is the seat to play."""
        s = self._s
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("NAP-GEN-02", f"there is no seat {seat}")
        who = self.names[seat]
        card = action.value
        if seat != to_act:
            law = "NAP-PLAY-01" if not s.tricks and not s.current else "NAP-PLAY-04"
            return (law, f"it is {self.names[to_act]}'s turn to play, not {who}'s")
        if card not in s.holding[seat]:
            return ("NAP-PLAY-02", f"{who} does not hold {card}")
        if s.current:
            led = s.current[0][1].suit
            follow = [c for c in s.holding[seat] if c.suit is led]
            if follow and card.suit is not led:
                return ("NAP-PLAY-02", f"{who} must follow suit: {who} holds {_names(follow)}, so {card} may not "
                                       "be played")  # fmt: skip
        return None

    def _why_not_purchase(self, action: Action, who: str) -> tuple[str, str] | None:
        s = self._s
        seat = action.seat
        assert s.to_act is not None
        if action.verb != "purchase":
            return ("NAP-PUR-05", "the calling begins only when the dealer has served every player, himself last")
        if s.purchased[seat] is not None:
            return ("NAP-PUR-06", f"{who} has already bought {s.purchased[seat]} and may not change that")
        if seat != s.to_act:
            return ("NAP-PUR-05", f"the dealer serves each player in turn: it is {self.names[s.to_act]}'s turn, "
                                  f"not {who}'s")  # fmt: skip
        missing = [c for c in action.value if c not in s.holding[seat]]
        if missing:
            return ("NAP-PUR-01", f"{who} does not hold {_names(missing)}")
        if len(action.value) > 5:
            return ("NAP-PUR-03", f"{who} may buy at most five cards")
        left = len(self.stock) - s.stock_pos
        if len(action.value) > left:
            return ("AMB-41", f"only {left} cards are left in the pack, so {who} may buy no more than {left}")
        return None

    def _why_not_call(self, action: Action, who: str) -> tuple[str, str] | None:
        s = self._s
        seat = action.seat
        assert s.to_act is not None
        if action.verb == "purchase" and self.rules.purchase:
            return ("NAP-PUR-06", f"the purchases are over: {who} may not buy again")
        if action.verb == "exchange":
            return ("NAP-PEEP-05", "the peep card may be taken only when the calling is over, after every later "
                                   "player has had the chance to peep")  # fmt: skip
        if action.verb not in ("call", "peep", "garnet"):
            return ("NAP-CALL-01", f"the calling comes first: {who} must call or pass, not {action.verb}")
        if seat != s.to_act:
            if s.calls[seat] is not None:
                return ("NAP-CALL-03", f"{who} has already called ({SPOKEN[s.calls[seat] or 'pass']}), and a call "
                                       "stands")  # fmt: skip
            return ("NAP-CALL-01", f"the calling goes round from the eldest hand: it is {self.names[s.to_act]}'s "
                                   f"turn, not {who}'s")  # fmt: skip
        if action.verb == "peep":
            if not self.rules.peep:
                return ("NAP-PEEP-01", "this table does not play Peep Nap: there is no peep card")
            if s.peeped[seat]:
                return ("NAP-PEEP-02", f"{who} has already peeped")
            return None
        if action.verb == "garnet":
            if not self.rules.sir_garnet:
                return ("NAP-SG-01", "this table does not play Sir Garnet: there is no extra hand")
            if s.garnet_by is not None:
                return ("NAP-SG-02", f"{self.names[s.garnet_by]} has already taken the extra hand")
            if s.high >= NAP:
                return ("NAP-SG-04", "a Nap has been called, so the extra hand, which binds its taker to call Nap, "
                                     "can no longer be taken (AMB-38)")  # fmt: skip
            if action.value:
                return ("NAP-SG-02", f"{who} takes the extra hand up first, unseen (an empty list), and throws out "
                                     "five cards after")  # fmt: skip
            return None
        call = action.value
        if call not in CALL_RANK:
            return ("NAP-CALL-01", f"{call!r} is not a call; the calls are {', '.join(CALLS)}")
        options = self._call_options(seat)
        if call in options:
            return None
        high = CALLS[s.high]
        if call == "pass" and self._forced(seat):
            return ("NAP-CALL-04", f"everyone else has passed, so {who}, the dealer, must call at least one")
        if call == "wellington" and not self.rules.wellington:
            return ("NAP-WEL-01", "this table does not play Wellington")
        if call == "misery" and not self.rules.misery:
            return ("NAP-MIS-01", "this table does not play Misery")
        if call == "wellington" and s.high < NAP:
            return ("NAP-WEL-02", "Wellington may be called only over a Nap already called in this round")
        if CALL_RANK[call] <= s.high:
            law = "NAP-CALL-02" if s.high >= NAP and call == "nap" else "NAP-CALL-01"
            return (law, f"{who} must call higher than {SPOKEN[high]}, so {SPOKEN[call]} may not be called")
        return ("AMB-36", f"the lowest call agreed at this table is {self.rules.min_call}, so {who} may not call "
                          f"{SPOKEN[call]}")  # fmt: skip

    def explain(self) -> list[Explanation]:
        """For the seat to act: every action it might try now, legal or not, with the law and a plain reason.

        In the calling that is every call (and a peep, and the legal ways to take Sir Garnet); in play,
        each card the seat holds; in the purchases and the exchange, the actions open to it.
        """
        s = self._s
        seat = s.to_act
        if seat is None:
            return []
        legal = self.legal_actions()
        if s.phase is NapPhase.PLAY:
            tries = [Action(seat, "play", c) for c in s.holding[seat]]
        elif s.phase is NapPhase.CALL:
            tries = [Action(seat, "call", c) for c in CALLS]
            tries.append(Action(seat, "peep", True))
            if self.rules.sir_garnet:
                tries.append(Action(seat, "garnet", ()))
        else:
            tries = legal
        return self._explanations(tries, legal)

    def _why_legal(self, action: Action) -> tuple[str, str]:
        s = self._s
        who = self.names[action.seat]
        verb = action.verb
        if verb == "call":
            call = action.value
            if call == "pass":
                return ("NAP-CALL-01", f"{who} may pass")
            if self._forced(action.seat):
                return ("NAP-CALL-04", f"everyone else passed, so {who} must call; one is the least")
            if call == "nap":
                return ("NAP-CALL-02", f"{who} may call Nap, undertaking to win all five tricks")
            if call == "wellington":
                return ("NAP-WEL-02", f"{who} may call Wellington over the Nap, at double Nap stakes")
            if call == "misery":
                return ("NAP-MIS-01", f"{who} may call Misery, undertaking to lose every trick")
            return ("NAP-CALL-01", f"{who} may raise to {SPOKEN[call]}, undertaking to win that many tricks")
        if verb == "peep":
            fee = self.rules.peep_fee * self.rules.unit
            return ("NAP-PEEP-02", f"{who} may look at the peep card for {fee} into the pool")
        if verb == "garnet" and not action.value:
            return ("NAP-SG-02", f"{who} may take up the extra hand; he must then throw out five cards and call Nap")
        if verb == "garnet":
            return ("NAP-SG-03", f"{who} may throw out {_names(action.value)} and play a Nap on the rest")
        if verb == "purchase":
            k = len(action.value)
            price = k * self.rules.purchase_price * self.rules.unit
            return ("NAP-PUR-03", f"{who} may buy {k} card{'s' if k != 1 else ''} for {price} into the pool")
        if verb == "exchange":
            if not action.value:
                return ("NAP-PEEP-03", f"{who} may keep his hand and leave the peep card")
            return ("NAP-PEEP-03", f"{who} may give up {action.value[0]} for the peep card")
        card = action.value
        if not s.current:
            if not s.tricks:
                return ("NAP-PLAY-01", f"{who} leads first, and the suit he leads, {card.suit.plural}, becomes trumps")
            return ("NAP-PLAY-04", f"{who} won the last trick and may lead {card}")
        led = s.current[0][1].suit
        if card.suit is led:
            return ("NAP-PLAY-02", f"{card} follows suit")
        return ("NAP-GEN-04", f"{who} cannot follow {led.plural}, so any card may be played: there is no duty to "
                              "head the trick or to trump")  # fmt: skip

    # ----- making moves -------------------------------------------------------------------

    def _irregular(self, action: Action, law: str, message: str) -> bool:
        """At a teaching table (``table=True``) a revoke or a card played out of turn is recorded and
        penalised as group E says instead of refused (:meth:`_offend`)."""
        s = self._s
        if (
            self.table
            and not s.strict
            and s.phase is NapPhase.PLAY
            and action.verb == "play"
            and 0 <= action.seat < self.n
            and action.value in s.holding[action.seat]
        ):
            self._history.append((action, s.copy()))
            self._offend(action, law, message)
            return True
        return False

    def _apply(self, action: Action) -> None:
        s = self._s
        seat = action.seat
        verb = action.verb
        if verb == "play" and s.phase is NapPhase.DONE:
            self._play_on(seat, action.value)
        elif verb == "play":
            self._play(seat, action.value)
        elif verb == "call":
            self._call(seat, action.value)
        elif verb == "peep":
            s.peeped[seat] = True
            s.pool_paid[seat] += self.rules.peep_fee * self.rules.unit  # NAP-PEEP-02, AMB-38
        elif verb == "garnet" and not action.value:
            s.holding[seat] = s.holding[seat] + list(self.garnet)  # NAP-SG-02: taken into his hand
            s.garnet_by = seat
            s.phase = NapPhase.GARNET
        elif verb == "garnet":
            hand = s.holding[seat]
            for card in action.value:
                hand.remove(card)
            s.dead.extend(action.value)  # NAP-SG-03: thrown out face down
            s.put_out[seat].extend(action.value)
            s.phase = NapPhase.CALL
            self._call(seat, "nap")  # NAP-SG-04
        elif verb == "purchase":
            hand = s.holding[seat]
            for card in action.value:
                hand.remove(card)
            s.dead.extend(action.value)  # NAP-PUR-04: not shown, not used again this deal
            s.put_out[seat].extend(action.value)
            k = len(action.value)
            hand.extend(self.stock[s.stock_pos : s.stock_pos + k])
            s.stock_pos += k
            s.purchased[seat] = k
            s.pool_paid[seat] += k * self.rules.purchase_price * self.rules.unit  # NAP-PUR-02
            if seat == self.dealer:
                s.phase = NapPhase.CALL  # NAP-PUR-05: the calling then starts on the dealer's left
                s.to_act = self.eldest
            else:
                s.to_act = (seat + 1) % self.n
        elif verb == "exchange":
            if action.value:
                (card,) = action.value
                assert self.peep_card is not None
                hand = s.holding[seat]
                hand[hand.index(card)] = self.peep_card
                s.dead.append(card)
                s.put_out[seat].append(card)
                s.peep_taken = True
            self._start_play()
        else:
            raise ValueError(f"Nap has no action {verb!r}")

    def _call(self, seat: int, call: str) -> None:
        s = self._s
        s.calls[seat] = call
        rank = CALL_RANK[call]
        if rank > s.high:
            s.high = rank
            s.caller = seat
        if seat != self.dealer:
            s.to_act = (seat + 1) % self.n
            return
        # AMB-36: the dealer calls last, so the calling is over.
        if s.caller is None:
            self._finish(self._settle(Reason.REDEAL))  # AMB-36: no call, and no forced call agreed
        elif self.rules.peep and s.peeped[s.caller]:
            s.phase = NapPhase.EXCHANGE  # NAP-PEEP-03/05: only now, every later player having had his chance
            s.to_act = s.caller
        else:
            self._start_play()

    def _start_play(self) -> None:
        s = self._s
        s.phase = NapPhase.PLAY
        s.leader = s.to_act = s.caller  # NAP-PLAY-01, NAP-CALL-05
        if self.table:
            s.start_of_play = s.copy()

    def _play(self, seat: int, card: Card) -> None:
        s = self._s
        s.holding[seat].remove(card)
        if not s.current and not s.tricks:
            # NAP-PLAY-01: the first lead fixes trumps; a Misery has none unless agreed (NAP-MIS-02/03, CF-32).
            no_trumps = CALLS[s.high] == "misery" and self.rules.misery_trumps is MiseryTrumps.NONE
            s.trump = None if no_trumps else card.suit
        s.current.append((seat, card))
        if (
            self.rules.kitty_mode is KittyMode.KNAVE_OR_FIVE
            and card.rank in (Rank.KNAVE, Rank.FIVE)
            and card.suit is not s.trump
        ):
            s.pool_paid[seat] += self.rules.unit  # NAP-POOL-04, AMB-40
        if len(s.current) < self.n:
            s.to_act = (seat + 1) % self.n
            return
        led = s.current[0][1].suit
        winner = max(s.current, key=lambda sc: self._power(sc[1], led))[0]
        assert s.leader is not None
        s.tricks.append(Trick(s.leader, tuple(s.current), winner))
        s.current = []
        if self._decided():
            self._finish(self._settle(Reason.PLAYED))  # NAP-PLAY-06, AMB-43, AMB-39
            return
        s.leader = s.to_act = winner  # NAP-PLAY-04

    def _play_on_seat(self) -> int | None:
        """NAP-PLAY-06, AMB-43: once the call is made or defeated, the seat that would play next if the
        hand is played out; None while the hand is undecided, when it ended some other way, or once every
        card is played."""
        s = self._s
        settled = s.settlement
        if s.phase is not NapPhase.DONE or settled is None or settled.reason is not Reason.PLAYED or s.caller is None:
            return None
        if s.current:
            return (s.current[-1][0] + 1) % self.n
        if not any(s.holding):
            return None
        return s.tricks[-1].winner if s.tricks else None

    def play_on_actions(self) -> list[Action]:
        """The cards that may still be played once the call is made or defeated (NAP-PLAY-06, AMB-43).

        The hand is decided, and over, at that moment: :attr:`to_act` is None and
        :meth:`legal_actions` offers nothing, so a table or a bot stops there. A record may still
        play the remaining tricks out, following suit as ever (NAP-PLAY-02); these are the cards the
        next seat may play. Playing on changes nothing that the decision settled; under the
        knave-or-five pool every such card played still pays its unit (NAP-POOL-04, AMB-40).
        """
        seat = self._play_on_seat()
        return [] if seat is None else [Action(seat, "play", c) for c in self._playable(seat)]

    def _play_on(self, seat: int, card: Card) -> None:
        """A card played after the decision (NAP-PLAY-06, AMB-43): the trick is completed and credited as
        usual, and the settlement reckoned again, its call made or lost as before (NAP-SET-01)."""
        s = self._s
        settled = s.settlement
        assert settled is not None
        s.holding[seat].remove(card)
        s.current.append((seat, card))
        if (
            self.rules.kitty_mode is KittyMode.KNAVE_OR_FIVE
            and card.rank in (Rank.KNAVE, Rank.FIVE)
            and card.suit is not s.trump
        ):
            s.pool_paid[seat] += self.rules.unit  # NAP-POOL-04, AMB-40: the cards played later count too
        if len(s.current) == self.n:
            led = s.current[0][1].suit
            winner = max(s.current, key=lambda sc: self._power(sc[1], led))[0]
            s.tricks.append(Trick(s.current[0][0], tuple(s.current), winner))
            s.current = []
            s.leader = winner
        s.settlement = self._settle(settled.reason)  # tricks won later cannot undo a decided call

    def _decided(self) -> bool:
        s = self._s
        mine = sum(1 for t in s.tricks if t.winner == s.caller)
        theirs = len(s.tricks) - mine
        call = CALLS[s.high]
        if call == "misery":
            return mine > 0 or len(s.tricks) == 5
        need = TRICKS_NEEDED[call]
        return mine >= need or theirs > 5 - need

    def _finish(self, settlement: NapSettlement) -> None:
        s = self._s
        s.phase = NapPhase.DONE
        s.to_act = None
        s.settlement = settlement

    # ----- settlement -------------------------------------------------------------------

    def _settle(self, reason: Reason) -> NapSettlement:
        """NAP-SET-01..05, NAP-WEL-01/03, NAP-MIS-05, NAP-SG-05, NAP-POOL-05..07; in table mode NAP-REV-04..06
        and NAP-WRG-02..04 (AMB-42, AMB-44)."""
        s = self._s
        n = self.n
        rules = self.rules
        won = [0] * n
        for t in s.tricks:
            won[t.winner] += 1
        stakes = [0] * n
        pool_paid = list(s.pool_paid)
        taken = [0] * n
        caller = s.caller
        call = CALLS[s.high] if s.high else None
        if caller is None or call is None or reason in ("redeal", "misdeal"):
            return NapSettlement(reason, caller, call, None, tuple(s.tricks), tuple(won), tuple(stakes),
                                 tuple(pool_paid), tuple(taken), self.pool + sum(pool_paid), rules.kitty,
                                 wrong_count=tuple(s.wrong_count))  # fmt: skip
        win, lose = rules.call_values(call)
        opponents = [p for p in range(n) if p != caller]
        if reason == "caller-revoke":
            made = False  # NAP-REV-06: he loses the call however many tricks he made
        elif call == "misery":
            made = won[caller] == 0
        else:
            made = won[caller] >= TRICKS_NEEDED[call]  # NAP-SET-01
        if reason == "caller-revoke":
            receives, pays = False, True
        elif s.offender is not None:
            receives, pays = made, False  # NAP-REV-04/05: the offender pays for everyone; the caller pays nothing
        elif s.wrong_count:
            if caller in s.wrong_count:
                receives, pays = False, not made  # NAP-WRG-03
            else:
                receives, pays = made, False  # NAP-WRG-02
        else:
            receives, pays = made, not made  # NAP-SET-02/03
        if s.offender is not None and reason != "caller-revoke":
            off = s.offender
            if made:
                stakes[off] -= win * len(opponents)  # NAP-REV-04, AMB-44
                stakes[caller] += win * len(opponents)
            else:
                for p in opponents:
                    if p != off:
                        stakes[p] += lose  # NAP-REV-05, AMB-44
                        stakes[off] -= lose
        else:
            for p in opponents:
                if receives:
                    stakes[p] -= win
                    stakes[caller] += win
                elif pays:
                    stakes[p] += lose
                    stakes[caller] -= lose
        in_pool = self.pool + sum(pool_paid)
        if rules.kitty and call in ("nap", "wellington"):
            if receives:
                taken[caller] = in_pool  # NAP-POOL-05, NAP-WEL-03
            elif pays and rules.failed_nap_doubles_pool:
                pool_paid[caller] += in_pool  # NAP-POOL-07 (NAP-POOL-06 without the option)
        next_pool = self.pool + sum(pool_paid) - sum(taken)
        return NapSettlement(reason, caller, call, made, tuple(s.tricks), tuple(won), tuple(stakes), tuple(pool_paid),
                             tuple(taken), next_pool, rules.kitty, s.offender, tuple(s.wrong_count))  # fmt: skip

    # ----- table mode: irregularities (E.11) ---------------------------------------------------

    def _offend(self, action: Action, law: str, message: str) -> None:
        """A play the laws forbid, made at a teaching table: a revoke (NAP-PLAY-03) or a card out of turn."""
        s = self._s
        seat = action.seat
        if seat != s.to_act:
            if not self.rules.out_of_turn_penalty:
                # NAP-REV-07 has fallen out of use: the card is taken back and the lapse noted, without penalty.
                s.offences.append(NapOffence(seat, "NAP-REV-07", message, "out-of-turn"))
                return
            law = "NAP-REV-07"
        self._revoke(seat, law, message, action.value if seat == s.to_act else None)

    def _revoke(self, seat: int, law: str, message: str, card: Card | None) -> None:
        s = self._s
        if seat == s.caller:
            s.offences.append(NapOffence(seat, law, message, "caller-revoke"))
            self._finish(self._settle(Reason.CALLER_REVOKE))  # NAP-REV-06: the call is lost at once
            return
        s.offences.append(NapOffence(seat, law, message, "revoke"))
        s.offender = seat
        s.strict = True
        if self.rules.revoke_replay is RevokeReplay.MANDATORY:
            self._replay()  # NAP-REV-03
        elif card is not None:
            self._play(seat, card)  # CF-19 on demand: the card lies where it was played until a replay is claimed

    def _replay(self) -> None:
        """NAP-REV-03, AMB-15: the cards are taken up and the hand is played again from the first lead."""
        s = self._s
        start = s.start_of_play
        assert start is not None
        again = start.copy()
        again.offences, again.offender, again.strict = list(s.offences), s.offender, True
        again.start_of_play, again.replays, again.wrong_count = start, s.replays + 1, list(s.wrong_count)
        self._s = again

    def claim_replay(self, by: int) -> None:
        """CF-19 on demand: a player other than the offender requires the revoked hand to be played again."""
        s = self._s
        if not self.table or s.offender is None or s.phase is not NapPhase.PLAY:
            raise IllegalActionError("NAP-REV-03", "a replay can be claimed only during play, after a revoke")
        if by == s.offender:
            raise IllegalActionError("NAP-REV-03", f"{self.names[by]} revoked and cannot claim the replay", seat=by)
        self._history.append((Action(by, "claim", "NAP-REV-03"), s.copy()))
        self._replay()

    def refuse_to_show(self, seat: int) -> None:
        """NAP-REV-01/02: play stopped early and ``seat``, who trumped or discarded, will not show his cards.

        He is held to have revoked: a caller loses his call (NAP-REV-06); an opponent's revoke means
        the hand is played again and he pays the revoke penalty (NAP-REV-03..05).
        """
        s = self._s
        if not self.table:
            raise IllegalActionError("NAP-REV-02", "claims are made only at a teaching table (table mode)", seat=seat)
        settled = s.settlement
        if s.phase is not NapPhase.DONE or settled is None or settled.reason is not Reason.PLAYED or len(s.tricks) == 5:
            raise IllegalActionError("NAP-REV-01", "cards are shown only when play stops before the fifth trick",
                                     seat=seat)  # fmt: skip
        renounced = any(c.suit is not t.plays[0][1].suit for t in s.tricks for p, c in t.plays if p == seat)
        if not renounced:
            raise IllegalActionError("NAP-REV-01", f"{self.names[seat]} followed suit throughout and need show "
                                                   "nothing", seat=seat)  # fmt: skip
        if s.offender is not None:
            raise IllegalActionError("NAP-REV-02", "a revoke has already been proved in this hand", seat=seat)
        self._history.append((Action(seat, "claim", "NAP-REV-02"), s.copy()))
        message = f"{self.names[seat]} would not show his cards, so is held to have revoked"
        if seat == s.caller:
            s.offences.append(NapOffence(seat, "NAP-REV-02", message, "caller-revoke"))
            s.settlement = self._settle(Reason.CALLER_REVOKE)
            return
        s.offences.append(NapOffence(seat, "NAP-REV-02", message, "refused-to-show"))
        s.offender, s.strict = seat, True
        s.phase, s.settlement = NapPhase.PLAY, None
        self._replay()

    def claim_wrong_count(self, seat: int) -> None:
        """NAP-WRG-01..05, AMB-42: ``seat`` is found to hold too many or too few cards.

        Before all have called and with no Nap called, the cards are dealt again; otherwise the hand is
        played out and the caller is paid or pays as NAP-WRG-02/03 say.
        """
        s = self._s
        if not self.table:
            raise IllegalActionError("NAP-WRG-01", "claims are made only at a teaching table (table mode)", seat=seat)
        if s.phase is NapPhase.DONE:
            raise IllegalActionError("NAP-WRG-01", "the hand is over", seat=seat)
        self._history.append((Action(seat, "claim", "NAP-WRG-01"), s.copy()))
        message = f"{self.names[seat]} holds the wrong number of cards"
        s.offences.append(NapOffence(seat, "NAP-WRG-01", message, "wrong-count"))
        if s.phase in (NapPhase.PURCHASE, NapPhase.CALL) and s.high < NAP:
            self._finish(self._settle(Reason.REDEAL))  # NAP-WRG-05
            return
        if seat not in s.wrong_count:
            s.wrong_count.append(seat)  # NAP-WRG-01/04: played out

    def claim_misdeal(self, by: int) -> None:
        """NAP-MISD-01/02: an exposed card, a misdeal, a faulty pack or an uncut pack; the same dealer deals
        again. Any player may claim it, but only before the hands are looked at (before the first action)."""
        s = self._s
        if self._history or s.phase is NapPhase.DONE:
            raise IllegalActionError("NAP-MISD-02", "the hands have been looked at, so the deal stands", seat=by)
        self._history.append((Action(by, "claim", "NAP-MISD-01"), s.copy()))
        self._finish(self._settle(Reason.MISDEAL))


def _names(cards: Sequence[Card]) -> str:
    names = [str(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ----- records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NapRecord:
    """One deal of Nap as a ``loo-record/1`` record (docs/records.md), game ``nap``.

    ``deal`` is ``{"hands": [...], "stock": [...]}`` (the stock optional, top first), with
    ``"garnet"`` (five cards) under Sir Garnet and ``"peep"`` (one card) under Peep Nap; or
    ``{"seed": N}``. ``pool`` is what the pool holds as the hand is dealt, this deal's feeds included
    (NAP-POOL-02/03); with no pool in use it is 0. Taking Sir Garnet is two actions: ``"garnet": []``
    (taken up unseen) and then ``"garnet": [five cards]`` (the cards thrown out).

    >>> rec = NapRecord.from_json({"format": "loo-record/1", "game": "nap", "seats": ["Ann", "Ben", "Cat"],
    ...                            "dealer": 2, "pool": 0, "deal": {"seed": 7}, "actions": [{"seat": 0, "call": "2"}]})
    >>> hand = rec.replay()
    >>> hand.to_act, NapRecord.from_json(rec.to_json()) == rec
    (1, True)
    """

    rules: NapRules
    seats: tuple[str, ...]
    dealer: int
    pool: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] | None = None
    garnet: tuple[Card, ...] = ()
    peep_card: Card | None = None
    seed: int | None = None
    actions: tuple[Action, ...] = ()
    rules_given: bool = field(default=True, compare=False)

    @property
    def game(self) -> str:
        return GAME

    @classmethod
    def loads(cls, text: str) -> NapRecord:
        return cls.from_json(parse_json(text))

    @classmethod
    def from_json(cls, obj: Any) -> NapRecord:
        obj = read_header(obj)
        if obj.get("game") != GAME:
            raise RecordError("game", f"a Nap record has game 'nap', not {obj.get('game')!r}")
        rules = NapRules.from_record(GAME, obj.get("rules"))
        if obj.get("deal_kind", "normal") != "normal":
            raise RecordError("deal_kind", "Nap has only normal deals")
        seats, dealer, pool = read_table(obj)
        n = len(seats)
        if n > rules.max_seats():
            raise RecordError("seats", f"{n} players need {5 * n + rules.extra_cards()} cards, more than the pack "
                                       "holds (AMB-02)")  # fmt: skip
        deal = obj.get("deal")
        if not isinstance(deal, dict):
            raise RecordError("deal", "must be an object with the cards, or {'seed': N}")
        seed: int | None = None
        garnet: tuple[Card, ...] = ()
        peep_card: Card | None = None
        stock: tuple[Card, ...] | None
        if "seed" in deal:
            if len(deal) != 1:
                raise RecordError("deal", "a seeded deal has only the seed")
            seed = deal["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise RecordError("deal.seed", f"must be a whole number, not {seed!r}")
            dealt, garnet_list, peep_card, stock_list = deal_nap(rules, random.Random(seed), seats=n, dealer=dealer)
            hands = tuple(tuple(h) for h in dealt)
            garnet, stock = tuple(garnet_list), tuple(stock_list)
        else:
            hands, garnet, peep_card, stock = _read_cards(deal, rules, n)
        actions = read_actions(obj, n)
        return cls(rules, seats, dealer, pool, hands, stock, garnet, peep_card, seed, actions, "rules" in obj)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": GAME}
        if self.rules_given or self.rules != NapRules.preset(DEFAULT_PRESET):
            out["rules"] = self.rules.to_record()
        out["seats"] = list(self.seats)
        out["dealer"] = self.dealer
        out["pool"] = self.pool
        if self.seed is not None:
            out["deal"] = {"seed": self.seed}
        else:
            deal: dict[str, Any] = {"hands": [[str(c) for c in h] for h in self.hands]}
            if self.garnet:
                deal["garnet"] = [str(c) for c in self.garnet]
            if self.peep_card is not None:
                deal["peep"] = str(self.peep_card)
            if self.stock is not None:
                deal["stock"] = [str(c) for c in self.stock]
            out["deal"] = deal
        out["actions"] = [a.to_record() for a in self.actions]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def with_cards(self) -> NapRecord:
        """The same record with a seeded deal written out card by card."""
        return dataclasses.replace(self, seed=None)

    def start(self, *, table: bool = False) -> NapHand:
        """The hand as dealt, before any action."""
        return NapHand(self.rules, hands=self.hands, dealer=self.dealer, pool=self.pool, stock=self.stock,
                       garnet=self.garnet, peep_card=self.peep_card, names=self.seats, table=table)  # fmt: skip

    def replay(self) -> NapHand:
        """The hand after every action; raises :class:`IllegalActionError` (with ``index``) at the first illegal one."""
        return replay_actions(self.start(), self.actions)

    @classmethod
    def of_hand(cls, hand: NapHand, *, seed: int | None = None) -> NapRecord:
        """The record of a hand played in the engine (cards written out unless ``seed`` is given).

        Claims made at a teaching table have no record form and are left out.
        """
        actions = tuple(a for a in hand.actions if a.verb in VERBS)
        used = {c for h in hand.dealt for c in h} | set(hand.garnet) | ({hand.peep_card} if hand.peep_card else set())
        default_stock = tuple(c for c in full_pack() if c not in used)
        stock = None if hand.stock == default_stock else hand.stock  # the rest of the pack in order goes unwritten
        return cls(hand.rules, hand.names, hand.dealer, hand.pool, hand.dealt, stock, hand.garnet, hand.peep_card,
                   seed, actions)  # fmt: skip


def _read_cards(
    deal: dict[str, Any], rules: NapRules, n: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card | None, tuple[Card, ...] | None]:
    unknown = [k for k in deal if k not in ("hands", "stock", "garnet", "peep")]
    if unknown:
        raise RecordError(f"deal.{unknown[0]}", "unknown field; a Nap deal has hands, stock, garnet and peep, or seed")
    raw_hands = deal.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError("deal.hands", "must be a list with one hand per seat")
    if len(raw_hands) != n:
        raise RecordError("deal.hands", f"has {len(raw_hands)} hands for {n} seats")
    hands = []
    for seat, raw in enumerate(raw_hands):
        cards = read_pieces(raw, f"deal.hands[{seat}]")
        if len(cards) != 5:
            raise RecordError(f"deal.hands[{seat}]", f"has {len(cards)} cards; each Nap hand has 5 (NAP-DEAL-03)")
        hands.append(cards)
    garnet: tuple[Card, ...] = ()
    if rules.sir_garnet:
        if "garnet" not in deal:
            raise RecordError("deal.garnet", "is missing: Sir Garnet is played, so an extra hand of five is dealt")
        garnet = read_pieces(deal["garnet"], "deal.garnet")
        if len(garnet) != 5:
            raise RecordError("deal.garnet", f"must hold 5 cards, not {len(garnet)} (NAP-SG-01)")
    elif "garnet" in deal:
        raise RecordError("deal.garnet", "this table does not play Sir Garnet")
    peep_card: Card | None = None
    if rules.peep:
        if "peep" not in deal:
            raise RecordError("deal.peep", "is missing: Peep Nap is played, so one extra card is dealt")
        if not isinstance(deal["peep"], str):
            raise RecordError("deal.peep", f"must be one card written as text, not {deal['peep']!r}")
        try:
            peep_card = Card.parse(deal["peep"])
        except CardError as error:
            raise RecordError("deal.peep", str(error)) from None
    elif "peep" in deal:
        raise RecordError("deal.peep", "this table does not play Peep Nap")
    stock = read_pieces(deal["stock"], "deal.stock") if "stock" in deal else None
    places: list[tuple[str, tuple[Any, ...]]] = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands)]
    places += [("deal.garnet", garnet), ("deal.peep", (peep_card,) if peep_card else ()), ("deal.stock", stock or ())]
    no_duplicates(places)
    return tuple(hands), garnet, peep_card, stock


RECORD_TYPE = NapRecord


# ----- a game of many hands ----------------------------------------------------------------------


@dataclass(frozen=True)
class NapResult:
    number: int
    dealer: str
    pool_before: int
    settlement: NapSettlement
    players: tuple[str, ...]


class NapGame(ChipLedger):
    """Hands of Nap in sequence: the deal passing to the left (NAP-DEAL-06), the pool carried over, and a
    double-entry ledger (every chip a player pays goes into the pool, every chip he receives comes out of
    it, so balances and the pool always add up to zero).

    >>> game = NapGame(NapRules(kitty_mode=KittyMode.DEALER), ["Ann", "Ben", "Cat", "Dan"], random.Random(2))
    >>> hand = game.next_hand()
    >>> game.pool, [e.why for e in game.ledger]
    (1, ['kitty'])
    >>> while not hand.is_over:
    ...     hand.push(hand.legal_actions()[0])
    >>> result = game.settle()
    >>> game.conserved(), game.dealer
    (True, 1)
    """

    def __init__(
        self,
        rules: NapRules,
        players: Sequence[str],
        rng: random.Random,
        *,
        first_dealer: int | None = 0,
        table: bool = False,
    ) -> None:
        """``first_dealer=None`` cuts for the deal: the lowest card deals, the ace low (NAP-DEAL-01)."""
        if len(players) < 2:
            raise ValueError("a game needs at least two players (NAP-GEN-02)")
        if len(set(players)) != len(players):
            raise ValueError("each player needs a different name")
        if len(players) > rules.max_seats():
            raise ValueError(f"{len(players)} players are more than the pack can serve (AMB-02)")
        self.rules = rules
        self.players = list(players)
        self.rng = rng
        self.cuts: list[list[tuple[str, Card]]] = []
        if first_dealer is None:
            first_dealer, self.cuts = cut_for_deal(players, rng, courts_equal=False)
        self.dealer = first_dealer % len(players)
        self.pool = 0
        self.ledger: list[Entry] = []
        self.results: list[NapResult] = []
        self.hand: NapHand | None = None
        self.table = table
        self._fed = False  # this dealer's feeds are paid; a redeal by the same dealer pays nothing new (AMB-56)

    def next_hand(self) -> NapHand:
        """Pay this deal's feeds to the pool (NAP-POOL-02/03, AMB-40) and deal."""
        if self.hand is not None and not self.hand.is_over:
            raise ValueError("the current hand is not finished")
        if self.hand is not None and self.hand.is_over and not self._settled(self.hand):
            self.settle()
        if not self._fed:
            dealer_name = self.players[self.dealer]
            unit = self.rules.unit
            if self.rules.kitty_mode is KittyMode.DEALER:
                self._pay(dealer_name, unit, "kitty")
            elif self.rules.kitty_mode is KittyMode.DEALER_AND_PLAYERS:
                for p in self.players:
                    self._pay(p, 3 * unit if p == dealer_name else unit, "kitty")
            self._fed = True
        self.hand = NapHand.deal(self.rules, self.rng, seats=len(self.players), dealer=self.dealer, pool=self.pool,
                                 names=self.players, table=self.table)  # fmt: skip
        return self.hand

    def _settled(self, hand: NapHand) -> bool:
        return bool(self.results) and self.results[-1].settlement is hand.settlement

    def settle(self) -> NapResult:
        """Record the finished hand's payments; the deal passes to the left, or stays for a redeal."""
        hand = self.hand
        if hand is None or hand.settlement is None:
            raise ValueError("there is no finished hand to settle")
        if self._settled(hand):
            return self.results[-1]
        s = hand.settlement
        names = hand.names
        for seat, amount in enumerate(s.pool_paid):
            self._pay(names[seat], amount, "fees")  # peeps, purchases, knaves and fives, a failed Nap's doubling
        for seat, amount in enumerate(s.stakes):
            if amount < 0:
                self._pay(names[seat], -amount, "stake")  # stakes pass through the pool, so it always balances
        for seat, amount in enumerate(s.stakes):
            if amount > 0:
                self._pay(names[seat], -amount, "stake")
        for seat, amount in enumerate(s.pool_taken):
            self._pay(names[seat], -amount, "pool")
        assert self.pool == s.next_pool, (self.pool, s.next_pool)
        result = NapResult(len(self.results), names[hand.dealer], hand.pool, s, names)
        self.results.append(result)
        if s.reason not in (Reason.REDEAL, Reason.MISDEAL):
            self.dealer = (self.dealer + 1) % len(self.players)  # NAP-DEAL-06
            self._fed = False
        # NAP-MISD-01, NAP-WRG-05, AMB-36: otherwise the same dealer deals again
        return result

    def misdeal(self, by: int) -> NapHand:
        """NAP-MISD-01/02: a fresh deal by the same dealer, claimed before the hands are looked at."""
        if self.hand is None:
            raise ValueError("nothing has been dealt")
        self.hand.claim_misdeal(by)
        self.settle()
        return self.next_hand()
