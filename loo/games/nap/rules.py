"""Napoleon's rules: the options a table plays (:class:`NapRules`, its presets), the calls and what
they are worth, and the deal.

The rule functions that both :class:`~loo.games.nap.hand.NapHand` and the fast simulator
(:mod:`loo.games.nap.fast`) call, so that Nap's laws are written once, are :func:`call_options`
here and those of :mod:`loo.games.nap.tricks` and :mod:`loo.games.nap.settle`.
"""

# ruff: noqa: RUF009  # the option fields are made by loo.core.rules.option(), a dataclasses.field with its doc

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from loo.core.actions import CALLS
from loo.core.cards import Card, full_pack
from loo.core.rules import (
    PresetRules,
    RecordError,
    RevokeReplay,
    option,
    option_key,
    read_rules,
)

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


@dataclass(frozen=True)
class NapRules(PresetRules):
    """The options in force at a Nap table: the option flags the catalogue lists for group E.

    Money is counted in chips; ``unit`` is the stake per trick (a penny at penny Nap), and the
    Nap values, the peep fee and the price of a card are in units.

    >>> NapRules.from_record("nap", {"preset": "hoffmann", "wellington": True}).to_record()
    {'preset': 'hoffmann', 'wellington': True}
    >>> NapRules.preset("shilling").call_values("nap")
    (12, 6)
    """

    preset_name: str = "hoffmann"

    unit: int = option(1, "NAP-SET-06: the stake per trick, in chips (a penny, sixpence, ...).")
    nap_win: int = option(10, "NAP-SET-04/05, CF-31, AMB-37: what a made Nap wins from each opponent, in units.")
    nap_lose: int = option(5, "NAP-SET-04/05, CF-31, AMB-37: what a failed Nap pays each opponent, in units.")
    min_call: int = option(1, "AMB-36: the lowest voluntary call, in tricks (1 to 5; 5 is Nap).")
    dealer_forced_one: bool = option(True, "NAP-CALL-04, AMB-36: if all pass the dealer must call one; else redeal.")
    wellington: bool = option(False, "NAP-WEL-01..03, AMB-37: Wellington, over a Nap only, at double Nap stakes.")
    misery: bool = option(False, "NAP-MIS-01..05, AMB-39: Misery, between three and four, paid as three.")
    misery_trumps: MiseryTrumps = option(MiseryTrumps.NONE, "NAP-MIS-02/03, CF-32: trumps in a Misery.")
    sir_garnet: bool = option(False, "NAP-SG-01..05, AMB-38: the extra hand, taken with a compulsory Nap.")
    peep: bool = option(False, "NAP-PEEP-01..05, AMB-38: the extra card, peeped at for a fee.")
    peep_fee: int = option(1, "NAP-PEEP-02, AMB-38: the price of a peep, in units, paid into the pool.")
    purchase: bool = option(False, "NAP-PUR-01..06, AMB-41: the dealer sells fresh cards before the calling.")
    purchase_price: int = option(1, "NAP-PUR-02, AMB-41: the price of each card bought, in units, into the pool.")
    kitty_mode: KittyMode = option(KittyMode.NONE, "NAP-POOL-01..04, AMB-40: the pool and how it is fed.")
    failed_nap_doubles_pool: bool = option(False, "NAP-POOL-06/07, AMB-40: a failed Nap matches the pool.")
    revoke_replay: RevokeReplay = option(
        RevokeReplay.MANDATORY, "CF-19, NAP-REV-03: a revoke at a teaching table is replayed."
    )
    out_of_turn_penalty: bool = option(False, "NAP-REV-07: a card played out of turn carries the revoke penalty.")

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
    def from_record(cls, game: str, value: Any) -> NapRules:
        """Read the ``rules`` of a Nap record: a preset name, an object with ``preset`` and overrides, or None."""
        if game != GAME:
            raise RecordError("game", f"these are the rules of Nap, not of {game!r}")
        return read_rules(cls, value, default=DEFAULT_PRESET, preset=cls.preset, label="the Nap options")


PRESETS: dict[str, NapRules] = {
    # Hoffmann's orthodox penny Nap (002): Nap wins ten and loses five (NAP-SET-04), no pool.
    "hoffmann": NapRules(),
    # The scale Hoffmann says most tables use: a shilling won, sixpence lost (NAP-SET-05, CF-31).
    "shilling": NapRules(preset_name="shilling", nap_win=12, nap_lose=6),
}
DEFAULT_PRESET = "hoffmann"
NapRules.presets = PRESETS

# ----- calls -----------------------------------------------------------------------------------

CALL_RANK = {name: i for i, name in enumerate(CALLS)}  # AMB-36: pass < 1 < 2 < 3 < misery < 4 < nap < wellington
NAP = CALL_RANK["nap"]
WELLINGTON = CALL_RANK["wellington"]
MISERY = CALL_RANK["misery"]
TRICKS_NEEDED = {"1": 1, "2": 2, "3": 3, "4": 4, "nap": 5, "wellington": 5, "misery": 0}
MIN_RANK = {1: CALL_RANK["1"], 2: CALL_RANK["2"], 3: CALL_RANK["3"], 4: CALL_RANK["4"], 5: NAP}
SPOKEN = {
    "pass": "pass",
    "1": "one",
    "2": "two",
    "3": "three",
    "4": "four",
    "misery": "Misery",
    "nap": "Nap",
    "wellington": "Wellington",
}


def call_options(rules: NapRules, high: int, *, forced: bool) -> tuple[str, ...]:
    """The calls a seat may make, lowest first, when ``high`` is the rank of the highest call so far
    (0: none) (NAP-CALL-01, AMB-36). ``forced`` is the dealer who must call because everyone else
    passed (NAP-CALL-04): he may not pass, and may call one whatever the lowest call agreed.
    Misery and Wellington only where the table plays them (NAP-MIS-01, NAP-WEL-01), Wellington only
    over a Nap (NAP-WEL-02).

    >>> call_options(NapRules(misery=True), CALL_RANK["3"], forced=False)
    ('pass', 'misery', '4', 'nap')
    >>> call_options(NapRules(min_call=3), 0, forced=True)
    ('1', '3', '4', 'nap')
    """
    low = MIN_RANK[rules.min_call]
    out = [] if forced else ["pass"]
    for rank in range(high + 1, len(CALLS)):
        name = CALLS[rank]
        if name == "misery" and not rules.misery:
            continue
        if name == "wellington" and (not rules.wellington or high != NAP):
            continue
        if rank < low and not (forced and name == "1"):
            continue
        out.append(name)
    return tuple(out)


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
        raise ValueError(
            f"{seats} players need {5 * seats + rules.extra_cards()} cards: more than the pack holds (AMB-02)"
        )
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
