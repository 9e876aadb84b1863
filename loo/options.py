"""What a rules picker needs to know about every game's options: labels, choices, laws and sources.

The rules dataclasses (:class:`loo.games.loo.rules.Rules`, :class:`loo.games.nap.rules.NapRules`,
:class:`loo.games.dominoes.rules.DominoRules`) document each option in its field's metadata with the
law IDs of the catalogue it settles. This module reads that metadata once and adds what a reader needs
to choose: a short label in the game's own words, a label for each enumerated value, and the
source texts behind each option, found by looking its law IDs up in :mod:`loo.core.laws`. Presets are
labelled after their source.

>>> [o.key for o in game_options("irish-loo")][:3]
['deal-price', 'loo-amount', 'single-loo']
>>> king = option("three-card-loo", "king-rule-when-ace-turned")
>>> king.laws, king.sources
(('L3-LEAD-04',), ('000',))
>>> option("nap", "kitty-mode").choice_label("dealer")
'The dealer feeds it'
>>> presets("domino-loo"), PRESET_LABELS["celko"]
(('celko', 'celko-points'), 'Celko and McLeod, after Berkeley (1899)')
>>> rules_value("three-card-loo", "peel", {"loo-amount": 6, "club-law": True})
{'preset': 'peel', 'club-law': True}
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from loo.core.laws import LAWS, source_name
from loo.core.rules import RecordError, RevokeReplay, option_fields, option_key
from loo.core.spec import GameSpec
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.dominoes.rules import DominoFirstDealMode, DominoLoneOpponentRule, DominoScoring
from loo.games.loo.rules import (
    ClubLawMiss,
    FirstDealMode,
    FiveCardLeadRules,
    FlushLooDestination,
    LoneOpponentRule,
    LooMode,
    MissPosition,
    Pam,
    PamBeCivil,
)
from loo.games.nap.rules import KittyMode, MiseryTrumps
from loo.registry import GAMES, UnknownGame, spec

__all__ = [
    "GAME_NAMES",
    "PRESET_LABELS",
    "PRESET_SOURCES",
    "Option",
    "cited_laws",
    "default_preset",
    "game_options",
    "option",
    "preset_rules",
    "presets",
    "rules_value",
    "sources_of",
]

GAME_NAMES: Mapping[str, str] = {g.name: g.title for g in GAMES}  # each game's title (loo.registry)

# Every preset in the rules modules, with the source codes its comment there names (first the main one).
PRESET_SOURCES: Mapping[str, tuple[str, ...]] = {
    "peel": ("000",),
    "enquire-within": ("001",),
    "britannica": ("003",),
    "pam": ("003", "001"),
    "irish": ("003",),
    "hoffmann": ("002",),
    "shilling": ("002",),
    "celko": ("004",),
    "celko-points": ("004",),
    "rounce": ("004",),
}

# Named after the source. The catalogue dates only two of the texts (Britannica 1911, Berkeley 1899),
# so only those labels carry a year.
PRESET_LABELS: Mapping[str, str] = {
    "peel": "Peel, Round Games with Cards",
    "enquire-within": "Enquire Within",
    "britannica": "Encyclopedia article, after Britannica (1911)",
    "pam": "Encyclopedia article, with Enquire Within",
    "irish": "Encyclopedia article (Irish Loo)",
    "hoffmann": "Hoffmann, Hoyle's Games Modernized (penny Nap)",
    "shilling": "Hoffmann, the shilling scale",
    "celko": "Celko and McLeod, after Berkeley (1899)",
    "celko-points": "Celko and McLeod, scored in points",
    "rounce": "Celko and McLeod, Domino Rounce",
}

_LABELS: Mapping[str, str] = {
    # Loo
    "deal_price": "Price of the deal",
    "loo_amount": "Limited loo",
    "single_loo": "Loo on a single",
    "loo_mode": "Size of a loo",
    "loo_cap": "Cap on an unlimited loo",
    "first_deal_mode": "First deal",
    "miss_position": "Where the miss is dealt",
    "miss_holder_leads": "Holder of the miss leads",
    "first_lead_rule": "First lead with two or more trumps",
    "king_rule_when_ace_turned": "Lead the king when the ace is turned up",
    "winner_must_lead_trump": "Winner of a trick leads trumps",
    "void_rule": "When you cannot follow suit",
    "must_head": "Head the trick when able",
    "club_law": "Club Law",
    "club_law_miss": "The miss under Club Law",
    "lone_opponent_rule": "Dealer against a lone stander",
    "dealer_sits_out_above": "Dealer sits out above this many players",
    "courts_equal_in_cut": "Tens and courts count ten in the cut",
    "revoke_replay": "Replay after an irregularity",
    "pam": "Pam",
    "pam_be_civil": "Pam be civil",
    "flush_loo_destination": "Loos caused by a flush go",
    "five_card_lead_rules": "Lead duties at five cards",
    "must_option": "Must (all play for a bare pool)",
    "dealer_takes_turnup": "Dealer may take the turn-up",
    # Nap
    "unit": "Stake per trick (chips)",
    "nap_win": "A Nap made wins (units)",
    "nap_lose": "A Nap lost pays (units)",
    "min_call": "Lowest call (tricks)",
    "dealer_forced_one": "Dealer calls one if all pass",
    "wellington": "Wellington",
    "misery": "Misery",
    "misery_trumps": "Trumps in a Misery",
    "sir_garnet": "Sir Garnet",
    "peep": "Peep",
    "peep_fee": "Price of a peep (units)",
    "purchase": "Purchase",
    "purchase_price": "Price of a card bought (units)",
    "kitty_mode": "Pool (kitty)",
    "failed_nap_doubles_pool": "A failed Nap matches the pool",
    "out_of_turn_penalty": "Playing out of turn is a revoke",
    # Dominoes
    "domino_scoring": "Scoring",
    "domino_loo_cap": "Loo cap per player (0: none)",
    "domino_loo_fixed": "Loo is always the cap",
    "game_points": "Points for game",
}

_CHOICE_LABELS: Mapping[type[Enum], Mapping[str, str]] = {
    LooMode: {"limited": "Limited: a fixed loo", "unlimited": "Unlimited: the whole pool", "capped": "Up to a cap"},
    FirstDealMode: {
        "peel-single": "A single: the dealer's stake only",
        "ew-no-miss-all-play": "No miss, and everyone plays",
        "ew-all-ante": "Everyone pays in, with a miss",
        "bold-stand": "A Bold Stand (Force)",
        "none": "An ordinary deal",
    },
    MissPosition: {
        "after-dealer": "Just after the dealer",
        "first": "First in each round",
        "before-dealer": "Last but one",
    },
    FirstLeadRule: {"highest": "The highest trump", "any-trump": "Any trump"},
    WinnerLeadsTrump: {"off": "No duty", "higher": "The higher trump", "any": "Any trump"},
    VoidRule: {
        "must-overtrump-if-possible": "Trump, and overtrump if able",
        "must-trump": "Trump if able",
        "free": "Play any card",
    },
    ClubLawMiss: {"withdrawn": "Withdrawn", "available": "Still on offer"},
    LoneOpponentRule: {
        "peel": "Stand, take the miss, or play it for the pool",
        "ew-concede": "Play, or give up the stakes",
        "enc-last-player": "The last player plays or gives up the pool",
    },
    RevokeReplay: {"mandatory": "Always", "on-demand": "Only when claimed"},
    Pam: {"club-knave": "The knave of clubs", "trump-knave": "The knave of trumps (Running Pam)"},
    PamBeCivil: {"mandatory": "Required", "courtesy": "A courtesy only", "on-announce": "Only when announced"},
    FlushLooDestination: {"next-pool": "Into the next pool", "to-flush-holder": "To the holder of the flush"},
    FiveCardLeadRules: {"free": "None", "as-three-card": "As at three-card Loo"},
    MiseryTrumps: {"none": "No trumps", "first-lead": "Fixed by the first lead"},
    KittyMode: {
        "none": "No pool",
        "dealer": "The dealer feeds it",
        "dealer-and-players": "The dealer three units, the others one",
        "knave-or-five": "A unit for each knave or five played",
    },
    DominoScoring: {"chips": "Chips (the pool)", "points": "Points, up to game", "rounce": "Rounce: count down"},
    DominoLoneOpponentRule: {"domino-for-pool": "May play for the pool", "off": "Plays for himself"},
    DominoFirstDealMode: {"domino-ante": "Everyone antes"},
}

# A law ID, then optionally a range ("..08") or a list ("/05/06") of further numbers in its group.
_LAW_ID = re.compile(r"\b((?:[A-Z][A-Z0-9]*-)+)(\d{2})((?:\.\.\d{2})|(?:/\d{2})+)?\b")


def cited_laws(doc: str) -> tuple[str, ...]:
    """The catalogue IDs a field's documentation cites, ranges and lists spelled out, in order.

    >>> cited_laws("CF-14, AMB-05..07: the dealer; L3-PLAY-04/05.")
    ('CF-14', 'AMB-05', 'AMB-06', 'AMB-07', 'L3-PLAY-04', 'L3-PLAY-05')
    """
    found: list[str] = []
    for match in _LAW_ID.finditer(doc):
        prefix, first, rest = match.group(1), int(match.group(2)), match.group(3) or ""
        if rest.startswith(".."):
            numbers = list(range(first, int(rest[2:]) + 1))
        else:
            numbers = [first, *(int(n) for n in rest.split("/")[1:])]
        found.extend(f"{prefix}{n:02d}" for n in numbers if f"{prefix}{n:02d}" not in found)
    return tuple(found)


def sources_of(law_ids: tuple[str, ...]) -> tuple[str, ...]:
    """The source codes (``"000"`` to ``"004"``) that the laws ``law_ids`` cite, in code order.

    >>> sources_of(("CF-05",))
    ('001', '003')
    """
    codes = {s.split(" ")[0] for law_id in law_ids if law_id in LAWS for s in LAWS[law_id].sources}
    return tuple(sorted(code for code in codes if code.isdigit()))


@dataclass(frozen=True)
class Option:
    """One option of one game's rules: its record key, type, label, choices, laws and sources."""

    name: str  # the field's name, e.g. "first_lead_rule"
    key: str  # the name records use, e.g. "first-lead-rule"
    kind: type  # bool, int, or an enumeration
    label: str
    doc: str  # the field's own documentation, law IDs first
    laws: tuple[str, ...]  # every catalogue ID the documentation cites
    sources: tuple[str, ...]  # the source codes its own laws cite (else its CF and AMB entries')

    @property
    def choices(self) -> tuple[str, ...]:
        """The record values of an enumerated option, in declaration order; empty for bool and int."""
        if isinstance(self.kind, type) and issubclass(self.kind, Enum):
            return tuple(str(member.value) for member in self.kind)
        return ()

    def choice_label(self, value: str) -> str:
        """A readable label for one of :attr:`choices`."""
        labels = _CHOICE_LABELS.get(self.kind, {})
        return labels.get(value, value.replace("-", " ").capitalize())

    @property
    def source_names(self) -> tuple[str, ...]:
        """The full names of the sources, for the reader."""
        return tuple(source_name(code) for code in self.sources)

    @property
    def settles(self) -> tuple[str, ...]:
        """The conflicts (CF) and ambiguities (AMB) of the catalogue this option decides."""
        return tuple(law_id for law_id in self.laws if law_id.startswith(("CF-", "AMB-")))

    @property
    def summary(self) -> str:
        """What the field's documentation says after its law IDs (may be empty)."""
        _, _, words = self.doc.partition(": ")
        return words.strip()

    def value_of(self, rules: Any) -> bool | int | str:
        """This option's value in ``rules``, as a record writes it."""
        value = getattr(rules, self.name)
        return str(value.value) if isinstance(value, Enum) else value


def _spec(game: str) -> GameSpec:
    try:
        return spec(game)
    except UnknownGame as unknown:
        raise RecordError("game", str(unknown)) from None


def _rules_class(game: str) -> type[Any]:
    return _spec(game).rules_class


def _all_presets(game: str) -> Mapping[str, Any]:
    return _spec(game).presets


def game_options(game: str) -> tuple[Option, ...]:
    """The options that apply to ``game``, in the order the rules class declares them."""
    descriptor = _spec(game)
    cls = descriptor.rules_class
    hints = typing.get_type_hints(cls)
    out: list[Option] = []
    for f in option_fields(cls):
        games = f.metadata.get("games")
        if games is not None and game not in games:
            continue
        out.append(_option(f, hints[f.name], descriptor.option_labels))
    return tuple(out)


def _option(f: dataclasses.Field[Any], kind: type, labels: Mapping[str, str]) -> Option:
    """``f`` as an option; ``labels`` are the game's own words for options it shares with the card games."""
    doc = str(f.metadata.get("doc", ""))
    laws = cited_laws(doc)
    # A conflict or ambiguity entry lists every source on every side, card games and dominoes
    # alike; the option's own laws say more exactly who gives it, so they win when cited.
    own = tuple(law_id for law_id in laws if not law_id.startswith(("CF-", "AMB-")))
    label = labels.get(f.name) or _LABELS.get(f.name)
    return Option(
        name=f.name,
        key=option_key(f.name),
        kind=kind,
        label=label or f.name.replace("_", " ").capitalize(),
        doc=doc,
        laws=laws,
        sources=sources_of(own) or sources_of(laws),
    )


def option(game: str, key: str) -> Option:
    """The option of ``game`` that records call ``key``; a :class:`RecordError` naming it if there is none."""
    for candidate in game_options(game):
        if candidate.key == key:
            return candidate
    raise RecordError(f"rules.{key}", f"not an option of {game}")


def presets(game: str) -> tuple[str, ...]:
    """The names of ``game``'s presets, in the order the rules module lists them."""
    return tuple(name for name, rules in _all_presets(game).items() if str(rules.game) == game)


def default_preset(game: str) -> str:
    """The preset a record without ``rules`` gets."""
    return str(_rules_class(game).from_record(game, None).preset_name)


def preset_rules(game: str, preset: str) -> Any:
    """The rules value of ``preset`` for ``game``; a :class:`RecordError` if it is not one of ``game``'s."""
    if preset not in presets(game):
        raise RecordError("rules.preset", f"{preset!r} is not a preset of {game}; use one of {presets(game)}")
    return _all_presets(game)[preset]


def rules_value(game: str, preset: str, values: Mapping[str, Any]) -> str | dict[str, Any]:
    """What a record's ``rules`` holds for ``preset`` with the option ``values`` (by key) that differ from it.

    The result is not checked here: the game's ``from_record`` reads it and names a bad option.
    """
    base = preset_rules(game, preset)
    changed = {
        o.key: values[o.key] for o in game_options(game) if o.key in values and values[o.key] != o.value_of(base)
    }
    return {"preset": preset, **changed} if changed else preset
