"""The rules in force for a hand: one frozen value whose fields are the options of the law catalogue (docs/laws.md).

Every field is an option that at least one source gives; its docstring names
the sources and the conflict (CF-xx) or ambiguity (AMB-xx) it settles.  Presets
are named after their source: ``peel`` (the default three-card game),
``enquire-within``, ``britannica`` (the 003 text), ``pam`` (five-card Loo) and
``irish``.

In records (docs/records.md) option names are written with ``-`` for ``_``
and enumerated values in lower case with ``-``:

>>> rules = Rules.from_record("three-card-loo", {"preset": "peel", "first-lead-rule": "any-trump"})
>>> rules.first_lead_rule
<FirstLeadRule.ANY_TRUMP: 'any-trump'>
>>> rules.to_record()
{'preset': 'peel', 'first-lead-rule': 'any-trump'}
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from loo.core.rules import (
    PresetRules,
    RecordError,
    RevokeReplay,
    option,
    option_fields,
    option_key,
    preset_named,
    read_rules,
    variant_named,
)
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump


class Game(StrEnum):
    THREE_CARD = "three-card-loo"
    FIVE_CARD = "five-card-loo"
    IRISH = "irish-loo"

    @property
    def hand_size(self) -> int:
        return 5 if self is Game.FIVE_CARD else 3

    @property
    def has_miss(self) -> bool:
        return self is Game.THREE_CARD

    @property
    def max_seats(self) -> int:
        """AMB-02: the most players the pack of 52 serves, a hand each, the miss's and the turn-up:
        16 at three-card Loo, 10 at five-card, 17 at Irish Loo.

        >>> [g.max_seats for g in Game]
        [16, 10, 17]
        """
        return (52 - 1 - (self.hand_size if self.has_miss else 0)) // self.hand_size

    @property
    def exchanges(self) -> bool:
        return self is not Game.THREE_CARD


class FirstDealMode(StrEnum):
    """CF-10, CF-11: what the first deal is, and every deal that starts with only the dealer's stake."""

    PEEL_SINGLE = "peel-single"  # L3-SGL-01..08
    EW_NO_MISS_ALL_PLAY = "ew-no-miss-all-play"  # L3-SGL-09
    EW_ALL_ANTE = "ew-all-ante"  # L3-SGL-10
    BOLD_STAND = "bold-stand"  # L3-SGL-11, L3-BOLD-01..05
    NONE = "none"  # five-card Loo: an ordinary deal (Must is its own option); Irish Loo by choice (AMB-33)


class LooMode(StrEnum):
    """UL-02..04: a fixed loo, the whole pool, or the pool up to a cap."""

    LIMITED = "limited"
    UNLIMITED = "unlimited"
    CAPPED = "capped"


class MissPosition(StrEnum):
    """CF-16: where the miss receives its card in each round of the deal."""

    AFTER_DEALER = "after-dealer"  # 000 p.23
    FIRST = "first"  # 001, 003
    BEFORE_DEALER = "before-dealer"  # 003 "last but one"


class ClubLawMiss(StrEnum):
    """CF-13: under Club Law, is the miss withdrawn or still on offer?"""

    WITHDRAWN = "withdrawn"  # 000 p.19
    AVAILABLE = "available"  # a reading of 001/003


class LoneOpponentRule(StrEnum):
    """CF-14: the dealer's choices when only one other player stands."""

    PEEL = "peel"  # L3-DLR-02..04: stand, take the miss, or play the miss for the pool
    EW_CONCEDE = "ew-concede"  # L3-DLR-05: play, or give up the stakes
    ENC_LAST_PLAYER = "enc-last-player"  # L3-DLR-06 read as AMB-07


class Pam(StrEnum):
    """CF-21: which knave is Pam."""

    CLUB_KNAVE = "club-knave"  # L5-RANK-01
    TRUMP_KNAVE = "trump-knave"  # L5-RANK-02, Running Pam


class PamBeCivil(StrEnum):
    """CF-22: must the holder of Pam let a led ace of trumps win?"""

    MANDATORY = "mandatory"  # 001 "must"
    COURTESY = "courtesy"  # 003 "expected to": not enforced
    ON_ANNOUNCE = "on-announce"  # only when the leader says the words (a play with "civil": true)


class FlushLooDestination(StrEnum):
    """CF-23: where the loos caused by a flush go."""

    NEXT_POOL = "next-pool"  # 003
    TO_FLUSH_HOLDER = "to-flush-holder"  # 001


class FiveCardLeadRules(StrEnum):
    """CF-26: do three-card Loo's lead duties apply in five-card Loo?"""

    FREE = "free"  # 003
    AS_THREE_CARD = "as-three-card"  # 001 §100.iv


_FIVE_CARD, _AS_THREE_CARD = Game.FIVE_CARD, FiveCardLeadRules.AS_THREE_CARD  # looked up once (hot paths)
THREE = frozenset({Game.THREE_CARD})
ALL = frozenset(Game)
TRICK_GAMES_WITH_THREE_CARD_LAWS = frozenset({Game.THREE_CARD, Game.IRISH})
FIVE = frozenset({Game.FIVE_CARD})


def _opt(default: Any, games: frozenset[Game], doc: str) -> Any:
    return option(default, doc, games=games)


@dataclass(frozen=True)
class Rules(PresetRules):
    """The options in force. Build one from a preset with :meth:`preset`, then ``replace`` what differs."""

    game: Game = Game.THREE_CARD
    preset_name: str = "peel"

    deal_price: int = _opt(3, ALL, "L3-STK-01/02, L5-STK-01: chips the dealer pays into the pool before each deal.")
    loo_amount: int = _opt(6, ALL, "L3-STK-01/02, CF-08, L5-PAY-02: the limited loo.")
    single_loo: int = _opt(3, ALL, "L3-STK-03, L3-SGL-06: the loo on a single; also the rate of pre-play penalties.")
    loo_mode: LooMode = _opt(LooMode.LIMITED, ALL, "UL-02..04, L5-OPT-03: limited, unlimited, or capped.")
    loo_cap: int = _opt(0, ALL, "UL-04: the most an unlimited loo can cost when loo-mode is capped.")
    first_deal_mode: FirstDealMode = _opt(
        FirstDealMode.PEEL_SINGLE,
        ALL,
        "CF-10, CF-11, AMB-33: the first deal, and deals whose pool is the dealer's stake only.",
    )
    miss_position: MissPosition = _opt(MissPosition.AFTER_DEALER, THREE, "CF-16, AMB-24: where the miss is dealt.")
    miss_holder_leads: bool = _opt(False, THREE, "L3-LEAD-02 (discouraged by Peel): the miss's holder leads first.")
    first_lead_rule: FirstLeadRule = _opt(
        FirstLeadRule.HIGHEST, TRICK_GAMES_WITH_THREE_CARD_LAWS | FIVE, "CF-02: the first leader with 2+ trumps."
    )
    king_rule_when_ace_turned: bool = _opt(True, ALL, "L3-LEAD-04 (Peel only): lead the king when the ace is turned.")
    winner_must_lead_trump: WinnerLeadsTrump = _opt(WinnerLeadsTrump.HIGHER, ALL, "CF-03, L3-LEAD-10, AMB-13.")
    void_rule: VoidRule = _opt(VoidRule.MUST_OVERTRUMP_IF_POSSIBLE, ALL, "CF-04, L3-PLAY-04/05, L5-PLAY-02.")
    must_head: bool = _opt(True, ALL, "L3-PLAY-03, CF-05, L5-PLAY-03: head the trick when able.")
    club_law: bool = _opt(False, TRICK_GAMES_WITH_THREE_CARD_LAWS, "L3-CLUB-01..03: all play on a club turn-up.")
    club_law_miss: ClubLawMiss = _opt(ClubLawMiss.WITHDRAWN, THREE, "CF-13, AMB-18: the miss under Club Law.")
    lone_opponent_rule: LoneOpponentRule = _opt(
        LoneOpponentRule.PEEL, TRICK_GAMES_WITH_THREE_CARD_LAWS, "CF-14, AMB-05..07: the dealer against a lone stander."
    )
    dealer_sits_out_above: int = _opt(
        0,
        TRICK_GAMES_WITH_THREE_CARD_LAWS,
        "L3-OUT-01, AMB-20: above this many players the dealer sits out (0: never; two always play).",
    )
    courts_equal_in_cut: bool = _opt(False, ALL, "CF-06, L3-DEAL-02: tens and court cards all count ten in the cut.")
    revoke_replay: RevokeReplay = _opt(RevokeReplay.MANDATORY, ALL, "CF-19, AMB-15: replay after an irregularity.")
    pam: Pam = _opt(Pam.CLUB_KNAVE, FIVE, "CF-21, L5-RANK-01/02: which knave is Pam.")
    pam_be_civil: PamBeCivil = _opt(PamBeCivil.MANDATORY, FIVE, "CF-22, L5-RANK-05, AMB-26.")
    flush_loo_destination: FlushLooDestination = _opt(FlushLooDestination.NEXT_POOL, FIVE, "CF-23, L5-FL-08/09.")
    five_card_lead_rules: FiveCardLeadRules = _opt(FiveCardLeadRules.FREE, FIVE, "CF-26: lead duties at five cards.")
    must_option: bool = _opt(False, FIVE, "L5-OPT-01, AMB-30: all must play when the pool is the dealer's stake.")
    dealer_takes_turnup: bool = _opt(False, FIVE, "L5-OPT-02, AMB-29: the dealer may take the turn-up.")

    def __post_init__(self) -> None:
        for name in ("deal_price", "loo_amount", "single_loo", "loo_cap", "dealer_sits_out_above"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RecordError(f"rules.{option_key(name)}", f"must be a whole number of chips, not {value!r}")
        if self.deal_price == 0:
            raise RecordError("rules.deal-price", "the dealer must pay something for the deal (L3-STK-07)")
        if self.loo_mode is LooMode.CAPPED and self.loo_cap <= 0:
            raise RecordError("rules.loo-cap", "a capped loo needs a positive loo-cap (UL-04)")

    @property
    def tricks(self) -> int:
        return self.game.hand_size

    @property
    def three_card_leads(self) -> bool:
        """Do the first-lead and winner-leads-trump duties of three-card Loo apply (CF-26)?"""
        return self.game is not _FIVE_CARD or self.five_card_lead_rules is _AS_THREE_CARD

    @classmethod
    def preset(cls, name: str, game: Game | None = None) -> Rules:
        return preset_named(PRESETS, name, game)

    @classmethod
    def options(cls, game: Game | None = None) -> list[dataclasses.Field[Any]]:
        """The option fields (every field but ``game`` and ``preset_name``), optionally those that apply to ``game``."""
        return [f for f in option_fields(cls) if game is None or game in f.metadata["games"]]

    @classmethod
    def from_record(cls, game: Game | str, value: Any) -> Rules:
        """Read the ``rules`` of a record: a preset name, an object with ``preset`` and overrides, or absent (None)."""
        game = _game(game)

        def applies(f: dataclasses.Field[Any], key: str) -> None:
            if game not in f.metadata["games"]:
                raise RecordError(f"rules.{key}", f"does not apply to {game.value}")

        return read_rules(
            cls, value, default=DEFAULT_PRESET[game], preset=lambda name: cls.preset(name, game), check=applies
        )


def _game(game: Game | str) -> Game:
    return variant_named(Game, game, "the Loo games")


_PEEL = Rules()
# Two laws are Peel's alone (the king rule when an ace is turned, the winner's duty to lead a trump):
# every other source's preset starts from his rules without them.
_NOT_PEELS = dataclasses.replace(_PEEL, king_rule_when_ace_turned=False, winner_must_lead_trump=WinnerLeadsTrump.OFF)
PRESETS: dict[str, Rules] = {
    # Peel, Round Games with Cards (000): the default three-card game.
    "peel": _PEEL,
    # Enquire Within (001): three-unit stake, a loo of three times the deal (its 1d/3d example, CF-08);
    # no king rule and no trump-lead duty after the first trick (both Peel's alone); a lone stander
    # may be given the stakes (L3-DLR-05); the first round is dealt without a miss, all playing.
    "enquire-within": dataclasses.replace(
        _NOT_PEELS,
        preset_name="enquire-within",
        loo_amount=9,
        first_deal_mode=FirstDealMode.EW_NO_MISS_ALL_PLAY,
        miss_position=MissPosition.FIRST,
        lone_opponent_rule=LoneOpponentRule.EW_CONCEDE,
        revoke_replay=RevokeReplay.ON_DEMAND,
        courts_equal_in_cut=True,
    ),
    # The encyclopedia article (003, after Britannica 1911): the loo equals the deal (L3-STK-10);
    # the Bold Stand (L3-SGL-11); "two trumps must head" read as lead any trump (CF-02); the
    # Dumby dealt last but one (CF-16); AMB-07 for the dealer's case.
    "britannica": dataclasses.replace(
        _NOT_PEELS,
        preset_name="britannica",
        loo_amount=3,
        first_deal_mode=FirstDealMode.BOLD_STAND,
        miss_position=MissPosition.BEFORE_DEALER,
        first_lead_rule=FirstLeadRule.ANY_TRUMP,
        lone_opponent_rule=LoneOpponentRule.ENC_LAST_PLAYER,
    ),
    # Five-card Loo (003 with 001): five chips a deal and a loo of five; no heading (CF-05), free
    # discards (L5-PLAY-02), free leads (CF-26); Pam the knave of clubs and civil by law (CF-21/22).
    "pam": dataclasses.replace(
        _NOT_PEELS,
        game=Game.FIVE_CARD,
        preset_name="pam",
        deal_price=5,
        loo_amount=5,
        single_loo=5,
        first_deal_mode=FirstDealMode.NONE,
        void_rule=VoidRule.FREE,
        must_head=False,
        lone_opponent_rule=LoneOpponentRule.EW_CONCEDE,
    ),
}
# Irish Loo (003): three-card Loo without a miss, with exchanges as at Pam (IRL-01..06, AMB-33); otherwise
# 003's three-card rules, the britannica preset's (the Bold Stand among them: all play when the pool holds only
# the dealer's stake, L3-BOLD-01, AMB-33; first-deal-mode none offers a throw), but that a lone stander may be
# given the stakes (L3-DLR-05) and that with no miss, none is dealt last but one.
PRESETS["irish"] = dataclasses.replace(
    PRESETS["britannica"],
    game=Game.IRISH,
    preset_name="irish",
    miss_position=MissPosition.AFTER_DEALER,
    lone_opponent_rule=LoneOpponentRule.EW_CONCEDE,
)
DEFAULT_PRESET = {Game.THREE_CARD: "peel", Game.FIVE_CARD: "pam", Game.IRISH: "irish"}
Rules.presets = PRESETS
