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
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, TypeVar

from loo.core.tricks import VoidRule

MAX_FIELD_CHARS = 80
"""The longest field path, or word, an error gives whole: a record's own paths and the engine's words are
far shorter, so a longer one quotes the input (a key or a string of ten megabytes, say), which is cut."""
MAX_MESSAGE_CHARS = 600
"""The longest explanation an error gives whole: the engine's own (a list of every option) are shorter,
so a longer one quotes the input at length (a long list, a string with spaces), which is cut."""
_LONG_WORD = re.compile(rf"\S{{{MAX_FIELD_CHARS + 1},}}")


def clip(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters; else its two ends with the middle cut out, saying
    how much was cut, so that an error about a huge input stays short.

    >>> clip("must be a name, not " + repr("x" * 1000), 60)
    "must be a name, not 'xxxxxxxxxxxxxxxxxxx…[962 characters cut]…xxxxxxxxxxxxxxxxxxx'"
    """
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head
    return f"{text[:head]}…[{len(text) - head - tail:,} characters cut]…{text[len(text) - tail :]}"


def clip_input(message: str) -> str:
    """``message`` with every word (a run without spaces) longer than :data:`MAX_FIELD_CHARS` cut, and the
    whole cut to :data:`MAX_MESSAGE_CHARS`: what a message quotes of a huge input, and no more.

    >>> message = clip_input("must be a player's name, not " + repr("x" * 10_000_000))
    >>> len(message), message[-50:]
    (137, "99,922 characters cut]…xxxxxxxxxxxxxxxxxxxxxxxxxx'")
    """
    return clip(_LONG_WORD.sub(lambda word: clip(word.group(), MAX_FIELD_CHARS), message), MAX_MESSAGE_CHARS)


class RecordError(ValueError):
    """A record that cannot be read: names the field at fault (``check`` exits with status 2).

    A field or message made long by the input it quotes is cut (:func:`clip_input`): the error of a record
    holding a ten-megabyte string is a line, not twenty megabytes.
    """

    def __init__(self, field: str, message: str) -> None:
        field = clip(field, MAX_FIELD_CHARS)
        message = clip_input(message)
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


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


class FirstLeadRule(StrEnum):
    """CF-02: what a first leader holding two or three trumps must lead."""

    HIGHEST = "highest"  # L3-LEAD-05
    ANY_TRUMP = "any-trump"  # L3-LEAD-06, 003's wording (L3-LEAD-07)


class WinnerLeadsTrump(StrEnum):
    """CF-03: the lead after winning the first trick."""

    OFF = "off"
    HIGHER = "higher"  # L3-LEAD-10
    ANY = "any"  # 004


class ClubLawMiss(StrEnum):
    """CF-13: under Club Law, is the miss withdrawn or still on offer?"""

    WITHDRAWN = "withdrawn"  # 000 p.19
    AVAILABLE = "available"  # a reading of 001/003


class LoneOpponentRule(StrEnum):
    """CF-14: the dealer's choices when only one other player stands."""

    PEEL = "peel"  # L3-DLR-02..04: stand, take the miss, or play the miss for the pool
    EW_CONCEDE = "ew-concede"  # L3-DLR-05: play, or give up the stakes
    ENC_LAST_PLAYER = "enc-last-player"  # L3-DLR-06 read as AMB-07


class RevokeReplay(StrEnum):
    """CF-19: after an irregularity in table mode, is the hand replayed at once or only on claim?"""

    MANDATORY = "mandatory"  # 000 pp.21-22
    ON_DEMAND = "on-demand"  # 002 law 16


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


THREE = frozenset({Game.THREE_CARD})
ALL = frozenset(Game)
TRICK_GAMES_WITH_THREE_CARD_LAWS = frozenset({Game.THREE_CARD, Game.IRISH})
FIVE = frozenset({Game.FIVE_CARD})


def _opt(default: Any, games: frozenset[Game], doc: str) -> Any:
    return dataclasses.field(default=default, metadata={"games": games, "doc": doc})


@dataclass(frozen=True)
class Rules:
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
        "L3-OUT-01, AMB-20: above this many players the dealer sits out (0: never).",
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
        return self.game is not Game.FIVE_CARD or self.five_card_lead_rules is FiveCardLeadRules.AS_THREE_CARD

    @classmethod
    def preset(cls, name: str, game: Game | None = None) -> Rules:
        if name not in PRESETS:
            raise RecordError("rules.preset", f"unknown preset {name!r}; the presets are {', '.join(sorted(PRESETS))}")
        rules = PRESETS[name]
        if game is not None and rules.game is not game:
            games = [p for p, r in PRESETS.items() if r.game is game]
            raise RecordError(
                "rules.preset", f"preset {name!r} is for {rules.game.value}, not {game.value}; use {games}"
            )
        return rules

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

    def to_record(self) -> str | dict[str, Any]:
        """The shortest record form: the preset's name, or the preset and the options that differ from it."""
        return rules_to_record(self, PRESETS[self.preset_name])


# ----- reading and writing any game's rules in records (Loo, Nap and the domino games share these) -----

R = TypeVar("R")

MAX_OPTION_NUMBER = 1_000_000
"""The largest whole number any option takes (chips, points, tricks): more than any table plays for,
and small enough that every rules value, and so every deal code, has a length known in advance."""


def option_fields(cls: type[Any]) -> list[dataclasses.Field[Any]]:
    """The option fields of a rules dataclass: every field but ``game`` and ``preset_name``."""
    return [f for f in dataclasses.fields(cls) if f.name not in ("game", "preset_name")]


def read_rules(
    cls: type[R],
    value: Any,
    *,
    default: str,
    preset: Callable[[str], R],
    label: str = "the options",
    check: Callable[[dataclasses.Field[Any], str], None] | None = None,
) -> R:
    """A record's ``rules``: absent (the default preset), a preset's name, or ``preset`` plus overrides.

    Option names are written with ``-`` for ``_``; each value is read by the field's own type
    (bool, int or an enumeration, whose values are written in lower case with ``-``). Every
    problem is a :class:`RecordError` naming ``rules.<option>``.
    """
    if value is None:
        return preset(default)
    if isinstance(value, str):
        return preset(value)
    if not isinstance(value, dict):
        raise RecordError("rules", f"must be a preset name or an object, not {type(value).__name__}")
    name = value.get("preset", default)
    if not isinstance(name, str):
        raise RecordError("rules.preset", f"must be a preset name, not {name!r}")
    rules = preset(name)
    fields = {option_key(f.name): f for f in option_fields(cls)}
    types = typing.get_type_hints(cls)
    changes: dict[str, Any] = {}
    for key, raw in value.items():
        if key == "preset":
            continue
        f = fields.get(key)
        if f is None:
            raise RecordError(f"rules.{key}", f"unknown option; {label} are {', '.join(sorted(fields))}")
        if check is not None:
            check(f, key)
        changes[f.name] = _read_value(f"rules.{key}", types[f.name], raw)
    return dataclasses.replace(rules, **changes)  # type: ignore[type-var]


def rules_to_record(rules: Any, base: Any) -> str | dict[str, Any]:
    """The shortest record form of ``rules``: its preset's name, or the preset and what differs from ``base``."""
    out: dict[str, Any] = {"preset": rules.preset_name}
    for f in option_fields(type(rules)):
        mine, theirs = getattr(rules, f.name), getattr(base, f.name)
        if mine != theirs:
            out[option_key(f.name)] = mine.value if isinstance(mine, Enum) else mine
    return out if len(out) > 1 else str(rules.preset_name)


def option_key(name: str) -> str:
    """An option's name as records write it: ``first_lead_rule`` is ``first-lead-rule``."""
    return name.replace("_", "-")


def _game(game: Game | str) -> Game:
    if isinstance(game, Game):
        return game
    try:
        return Game(game)
    except ValueError:
        known = ", ".join(g.value for g in Game)
        raise RecordError("game", f"unknown game {game!r}; the Loo games are {known}") from None


def _read_value(field: str, kind: Any, raw: Any) -> Any:
    if kind is bool:
        if not isinstance(raw, bool):
            raise RecordError(field, f"must be true or false, not {raw!r}")
        return raw
    if kind is int:
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise RecordError(field, f"must be a whole number, not {raw!r}")
        if raw > MAX_OPTION_NUMBER:
            raise RecordError(field, f"must be at most {MAX_OPTION_NUMBER}, not {raw}")
        return raw
    allowed = [m.value for m in kind]
    if raw not in allowed:
        raise RecordError(field, f"must be one of {', '.join(allowed)}, not {raw!r}")
    return kind(raw)


_PEEL = Rules()
PRESETS: dict[str, Rules] = {
    # Peel, Round Games with Cards (000): the default three-card game.
    "peel": _PEEL,
    # Enquire Within (001): three-unit stake, a loo of three times the deal (its 1d/3d example, CF-08);
    # no king rule and no trump-lead duty after the first trick (both Peel's alone); a lone stander
    # may be given the stakes (L3-DLR-05); the first round is dealt without a miss, all playing.
    "enquire-within": dataclasses.replace(
        _PEEL,
        preset_name="enquire-within",
        loo_amount=9,
        first_deal_mode=FirstDealMode.EW_NO_MISS_ALL_PLAY,
        miss_position=MissPosition.FIRST,
        king_rule_when_ace_turned=False,
        winner_must_lead_trump=WinnerLeadsTrump.OFF,
        lone_opponent_rule=LoneOpponentRule.EW_CONCEDE,
        revoke_replay=RevokeReplay.ON_DEMAND,
        courts_equal_in_cut=True,
    ),
    # The encyclopedia article (003, after Britannica 1911): the loo equals the deal (L3-STK-10);
    # the Bold Stand (L3-SGL-11); "two trumps must head" read as lead any trump (CF-02); the
    # Dumby dealt last but one (CF-16); AMB-07 for the dealer's case.
    "britannica": dataclasses.replace(
        _PEEL,
        preset_name="britannica",
        loo_amount=3,
        first_deal_mode=FirstDealMode.BOLD_STAND,
        miss_position=MissPosition.BEFORE_DEALER,
        first_lead_rule=FirstLeadRule.ANY_TRUMP,
        king_rule_when_ace_turned=False,
        winner_must_lead_trump=WinnerLeadsTrump.OFF,
        lone_opponent_rule=LoneOpponentRule.ENC_LAST_PLAYER,
    ),
    # Five-card Loo (003 with 001): five chips a deal and a loo of five; no heading (CF-05), free
    # discards (L5-PLAY-02), free leads (CF-26); Pam the knave of clubs and civil by law (CF-21/22).
    "pam": dataclasses.replace(
        _PEEL,
        game=Game.FIVE_CARD,
        preset_name="pam",
        deal_price=5,
        loo_amount=5,
        single_loo=5,
        first_deal_mode=FirstDealMode.NONE,
        king_rule_when_ace_turned=False,
        winner_must_lead_trump=WinnerLeadsTrump.OFF,
        void_rule=VoidRule.FREE,
        must_head=False,
        lone_opponent_rule=LoneOpponentRule.EW_CONCEDE,
    ),
    # Irish Loo (003): three-card Loo without a miss, with exchanges as at Pam (IRL-01..06,
    # AMB-33); otherwise the 003 three-card rules, the Bold Stand among them: all play when the
    # pool holds only the dealer's stake (L3-BOLD-01, AMB-33; first-deal-mode none offers a throw).
    "irish": dataclasses.replace(
        _PEEL,
        game=Game.IRISH,
        preset_name="irish",
        loo_amount=3,
        first_deal_mode=FirstDealMode.BOLD_STAND,
        first_lead_rule=FirstLeadRule.ANY_TRUMP,
        king_rule_when_ace_turned=False,
        winner_must_lead_trump=WinnerLeadsTrump.OFF,
        lone_opponent_rule=LoneOpponentRule.EW_CONCEDE,
    ),
}
DEFAULT_PRESET = {Game.THREE_CARD: "peel", Game.FIVE_CARD: "pam", Game.IRISH: "irish"}
