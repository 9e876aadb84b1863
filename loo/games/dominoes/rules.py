"""The rules in force for a hand of Domino Loo or Domino Rounce (catalogue group F).

One frozen value, like :class:`loo.games.loo.rules.Rules`: its fields are the options of the law catalogue
(docs/laws.md) that apply to the domino games, each documented with the IDs it settles, and presets are named
after the source (004): ``celko`` for Domino Loo (Celko's description as McLeod revised it),
``celko-points`` for the same scored by points (the usual way with two players), and ``rounce``
for Domino Rounce.  Records write option names with ``-`` for ``_`` and
enumerated values in lower case with ``-``:

>>> rules = DominoRules.from_record("domino-loo", {"preset": "celko", "domino-scoring": "points"})
>>> rules.domino_scoring
<DominoScoring.POINTS: 'points'>
>>> rules.to_record()
{'preset': 'celko', 'domino-scoring': 'points'}
>>> DominoRules.from_record("domino-rounce", None).void_rule
<VoidRule.FREE: 'free'>
"""

# ruff: noqa: RUF009  # the option fields are made by loo.core.rules.option(), a dataclasses.field with its doc

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from loo.core.rules import (
    PresetRules,
    RecordError,
    option,
    option_key,
    preset_named,
    read_rules,
    variant_named,
)
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "DominoFirstDealMode",
    "DominoLoneOpponentRule",
    "DominoRules",
    "DominoScoring",
    "Variant",
]


class Variant(StrEnum):
    """The two domino games of 004, as a record's ``game`` names them."""

    LOO = "domino-loo"
    ROUNCE = "domino-rounce"


class DominoScoring(StrEnum):
    """How a hand is scored (F.4, F.5)."""

    CHIPS = "chips"  # DL-SC-01..08: the escalating pool
    POINTS = "points"  # DL-PTS-01/02: a point a trick, five off for a loo, game at 15
    ROUNCE = "rounce"  # DR-05..10: from 15 down to nothing


class DominoLoneOpponentRule(StrEnum):
    """CF-14 for dominoes: may the dealer play "for the pool" against a lone miss-taker?

    ``loo.games.loo.rules.LoneOpponentRule`` names the card games' readings; its ``DOMINO_FOR_POOL``
    reading lives here until that enum carries it.
    """

    DOMINO_FOR_POOL = "domino-for-pool"  # DL-DLR-03..07 (the source's optional right)
    OFF = "off"  # the players have not agreed it: the dealer always plays for himself


class DominoFirstDealMode(StrEnum):
    """CF-10, CF-11: what a deal with an empty pool is. 004 knows one answer: everyone antes."""

    DOMINO_ANTE = "domino-ante"  # DL-SC-01/02, AMB-50


@dataclass(frozen=True)
class DominoRules(PresetRules):
    """The options in force. Start from a preset (:meth:`preset`) and ``dataclasses.replace`` what differs."""

    game: Variant = Variant.LOO
    preset_name: str = "celko"

    domino_scoring: DominoScoring = option(
        DominoScoring.CHIPS,
        "F.4, DL-PTS-01, DR-05..10: chips (usual for three or four), points (usual for two), rounce.",
    )
    deal_price: int = option(
        5, "DL-SC-01, DL-SC-05: each player's ante into an empty pool, and the dealer's extra stake."
    )
    domino_loo_cap: int = option(
        0, "DL-SC-07: k, so that a loo is at most k chips times the number of players (0: no cap)."
    )
    domino_loo_fixed: bool = option(
        False, "DL-SC-07: the loo is always k times the players (the cap), not the pool at the start."
    )
    first_lead_rule: FirstLeadRule = option(
        FirstLeadRule.ANY_TRUMP,
        "CF-02, DL-LEAD-02, AMB-47: a leader with two or more trumps leads any trump (004) or the top.",
    )
    winner_must_lead_trump: WinnerLeadsTrump = option(
        WinnerLeadsTrump.ANY, "CF-03, DL-LEAD-03, AMB-47: the winner of a trick leads a trump if he holds one."
    )
    void_rule: VoidRule = option(
        VoidRule.MUST_TRUMP, "CF-04, DL-PLAY-02/03, DR-04: what a player who cannot follow suit must do."
    )
    lone_opponent_rule: DominoLoneOpponentRule = option(
        DominoLoneOpponentRule.DOMINO_FOR_POOL,
        "CF-14, CF-33, DL-DLR-03..07: the dealer may play for the pool against a lone miss.",
    )
    first_deal_mode: DominoFirstDealMode = option(
        DominoFirstDealMode.DOMINO_ANTE,
        "CF-10, CF-11, DL-SC-02, AMB-50: every deal into an empty pool is anted by all.",
    )
    dealer_takes_turnup: bool = option(
        True, "DL-DLR-01, AMB-48, AMB-52: a dealer keeping his hand may take the turn-up for a tile."
    )
    game_points: int = option(
        15, "DL-PTS-02, DR-05, AMB-51: the points that win a points game, and Rounce's starting score."
    )

    def __post_init__(self) -> None:
        for name in ("deal_price", "domino_loo_cap", "game_points"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RecordError(f"rules.{option_key(name)}", f"must be a whole number, not {value!r}")
        if self.deal_price == 0:
            raise RecordError("rules.deal-price", "each player must put something into an empty pool (DL-SC-01)")
        if self.game_points == 0:
            raise RecordError("rules.game-points", "a game needs a positive score to play to (DL-PTS-02, DR-05)")
        if self.domino_loo_fixed and self.domino_loo_cap == 0:
            raise RecordError("rules.domino-loo-fixed", "a fixed loo needs domino-loo-cap, its chips per player")

    @property
    def dummies(self) -> bool:
        """Domino Rounce lays its misses out as dummies at the deal (DR-03)."""
        return self.game is Variant.ROUNCE

    def loo_for(self, pool: int, players: int) -> int:
        """What a looed player pays (DL-SC-04, DL-SC-07, AMB-50): the pool, or the cap's amount.

        >>> DominoRules().loo_for(115, 4), DominoRules(domino_loo_cap=10).loo_for(115, 4)
        (115, 40)
        """
        cap = self.domino_loo_cap * players
        if self.domino_loo_fixed:
            return cap
        return min(pool, cap) if cap else pool

    @classmethod
    def preset(cls, name: str, game: Variant | None = None) -> DominoRules:
        return preset_named(PRESETS, name, game)

    @classmethod
    def from_record(cls, game: Variant | str, value: Any) -> DominoRules:
        """Read a record's ``rules``: a preset name, an object with ``preset`` and overrides, or absent (None)."""
        variant = _variant(game)
        return read_rules(cls, value, default=DEFAULT_PRESET[variant], preset=lambda name: cls.preset(name, variant))


def _variant(game: Variant | str) -> Variant:
    return variant_named(Variant, game, "the domino games")


_CELKO = DominoRules()
PRESETS: dict[str, DominoRules] = {
    # Domino Loo as 004 gives it: chips, any trump led on two or more (CF-02) and after a win
    # (CF-03), a trump compulsory when void (CF-04), for the pool only against a lone miss (CF-14).
    "celko": _CELKO,
    # Domino Loo played for points (DL-PTS-01/02), the scoring 004 says two players more often use.
    "celko-points": dataclasses.replace(_CELKO, preset_name="celko-points", domino_scoring=DominoScoring.POINTS),
    # Domino Rounce (DR-01..10): the same laws of play but a free discard when void (DR-04), dummies
    # laid out at the deal (DR-03), and scores counted down from 15 (DR-05..10).
    "rounce": dataclasses.replace(
        _CELKO,
        game=Variant.ROUNCE,
        preset_name="rounce",
        domino_scoring=DominoScoring.ROUNCE,
        void_rule=VoidRule.FREE,
    ),
}
DEFAULT_PRESET = {Variant.LOO: "celko", Variant.ROUNCE: "rounce"}
DominoRules.presets = PRESETS
