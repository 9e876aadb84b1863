"""A game's descriptor: all that the rest of the project asks of one game package.

Each game package (``loo.games.loo``, ``loo.games.nap``, ``loo.games.dominoes``) has a ``spec``
module holding one :class:`GameSpec` named ``SPEC``; :func:`loo.registry.spec` finds it by a game's
name. The command line, the options, the record reader, the hints and the widgets ask the
descriptor, never "which game is this?", so a new game is one package and one line in the
registry. A descriptor names the light parts of its game directly (its rules and their presets,
how a piece is read, its words) and the heavy ones through functions that import them on first
use (:attr:`GameSpec.kit`, :attr:`GameSpec.record_type`, :attr:`GameSpec.thumb`): a table of one
game holds no other game's hand, bots or explanations.

>>> from loo.registry import spec
>>> spec("irish-loo").piece, spec("domino-loo").piece, spec("domino-loo").throw_words
('card', 'tile', 'drops out')
>>> spec("nap").kit().read_rules("nap", None).preset_name
'hoffmann'
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from loo.core.actions import Action
from loo.core.cards import Card
from loo.core.protocols import Bot, GameRules, Hand, TableGame

__all__ = ["Advice", "Deal", "GameSpec", "Kit", "card_game", "later"]


class Deal(Protocol):
    """A kit's seeded deal of one hand: ``(rules, rng, seats, dealer, pool, names=None) -> hand``."""

    def __call__(
        self, rules: Any, rng: random.Random, seats: int, dealer: int, pool: int, names: Sequence[str] | None = None
    ) -> Hand: ...


@dataclass(frozen=True)
class Kit:
    """What the commands and widgets need to play one game: its rules, a deal, one deal's stakes, bots and a fast path.

    A parameter typed ``Any`` takes the rules this kit's own ``read_rules`` gave (``Rules``,
    ``NapRules`` or ``DominoRules``): the game string, not the type, ties the two together.
    """

    read_rules: Callable[[str, Any], GameRules]  # (game, preset) -> rules; raises RecordError
    deal: Deal
    pool: Callable[[Any, int], int]  # the pool a lone hand is played for: one deal's stakes
    make_bot: Callable[[str], Bot[Any]]  # a bot of this game, by name; its views are this game's
    bot_names: tuple[str, ...]
    # Random play's fast path: (rules, rng, seats, dealer, pool) -> (reason, net by seat), for the rules
    # where fast_for(rules) holds. Each fast simulator is proven equal to its checked hand by a test.
    fast: Callable[[Any, random.Random, int, int, int], tuple[str, tuple[int, ...]]]
    fast_for: Callable[[Any], bool]
    # A game of many hands with its chip ledger: (rules, players, rng, first_dealer) -> a game whose
    # next_hand() deals from its ``rng`` and whose settle() books the finished hand.
    new_game: Callable[[Any, Sequence[str], random.Random, int], TableGame]
    # The most players the pack or the set serves under these rules (AMB-02): a table, a record or a
    # deal code with more is refused.
    max_seats: Callable[[Any], int]


@dataclass(frozen=True)
class Advice:
    """A game's words for the hints (:mod:`loo.hints`): the sources' advice behind a choice, with its law."""

    # One sentence on why ``choice`` is sound in ``view`` (the rule of thumb agreeing), or None.
    reason: Callable[[Any, Action], str | None]
    # How many of the seat's pieces follow the suit led to the trick in progress (None: no trick).
    followers: Callable[[Any], int | None]
    # The law that makes a player follow suit, in this view's game ("L3-PLAY-02").
    follow_law: Callable[[Any], str]
    # What the game's own laws say of a choice that is the only one allowed, where they say more than
    # "you must follow suit" (Loo's first lead of a trump), or None.
    only: Callable[[Any, Action], str | None] = lambda view, choice: None


def fixed_words(words: Mapping[str, str], choice: Action) -> str | None:
    """A game's advice that does not depend on the position: the words for ``choice`` in ``words``, whose
    keys are a verb and a value ("declare miss") or a verb alone ("for-pool"), the first found; or None."""
    if isinstance(choice.value, str) and f"{choice.verb} {choice.value}" in words:
        return words[f"{choice.verb} {choice.value}"]
    return words.get(choice.verb)


def later(module: str, name: str, *, made: bool = False) -> Callable[[], Any]:
    """A descriptor's heavy part, named now and imported on first use: ``name`` from ``module`` (or,
    ``made``, a new one of the class ``name`` names), so that a table of one game loads no other
    game's hand, bots or records."""

    def get() -> Any:
        found = getattr(importlib.import_module(module), name)
        return found() if made else found

    get.__qualname__ = f"later({module}.{name})"
    return get


def _always_offered(rules: Any, action: Action) -> bool:
    return True


@dataclass(frozen=True)
class GameSpec:
    """One game package's descriptor (see the module's text)."""

    package: str  # the game package, e.g. "loo.games.nap"
    rules_class: type[Any]  # Rules, NapRules or DominoRules
    presets: Mapping[str, Any]  # the rules' presets by name
    kit: Callable[[], Kit]  # the game's parts to play it (imports its hand and bots on first call)
    record_type: Callable[[], type[Any]]  # the record class that reads the game's records
    parse_piece: Callable[[str], Any]  # a card or a tile from its text ("AS", "6-4")
    piece: str  # what a hand holds, in a word: "card" or "tile"
    throw_words: str  # what a player who declines to play does: "throws up" (cards), "drops out" (DL-DECL)
    for_pool_words: str  # what a dealer who plays for the pool plays: "the miss for the pool", "for the pool"
    deck_options: bool  # whether a table offers the pack's display options (four colours, text only)
    thumb: Callable[[], Bot[Any]]  # the game's rule-of-thumb player, for the hints' reasons
    advice: Callable[[], Advice]  # the game's words for the hints (imported on first call)
    # Whether the rules in force play this action's kind at all (Nap's optional calls, peep, purchase):
    # a table does not teach a choice the rules leave out.
    offered: Callable[[Any, Action], bool] = _always_offered
    # Labels of the options whose names the game shares with the card games but which mean something else.
    option_labels: Mapping[str, str] = field(default_factory=dict)


def card_game(
    package: str,
    rules_class: type[Any],
    presets: Mapping[str, Any],
    kit: Callable[[], Kit],
    *,
    record: str,
    thumb: str,
    **more: Any,
) -> GameSpec:
    """The descriptor of a game played with cards (Loo's three, Nap): cards read as ``AS``, a player
    who declines to play "throws up", a dealer "plays the miss for the pool", the pack's display options
    offered; its record class ``record`` in its package's ``record`` module, its thumb player the class
    ``thumb`` of its ``bots`` and its advice its ``advice`` module's ``ADVICE``; ``more``, the rest."""
    return GameSpec(
        package=package,
        rules_class=rules_class,
        presets=presets,
        kit=kit,
        record_type=later(f"{package}.record", record),
        parse_piece=Card.parse,
        piece="card",
        throw_words="throws up",
        for_pool_words="the miss for the pool",
        deck_options=True,
        thumb=later(f"{package}.bots", thumb, made=True),
        advice=later(f"{package}.advice", "ADVICE"),
        **more,
    )
