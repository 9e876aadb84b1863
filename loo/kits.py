"""Each game's parts in one place: rules, a seeded deal, one deal's stakes, bots and a fast path.

The command line, the widgets and the live tables all reach a game through :func:`kit`, so adding
a game means adding a kit here, not editing each of them.

>>> kit("nap").read_rules("nap", None).preset_name
'hoffmann'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from loo.core.protocols import Bot, GameRules, Hand, TableGame
from loo.games.loo.bots import BOTS, make_bot
from loo.games.loo.game import LooGame
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import Game, Rules
from loo.games.loo.simulate import play_random_hand
from loo.registry import NAMES, Family, UnknownGame, family

__all__ = ["GAMES", "ArgumentError", "Deal", "Kit", "UnknownGame", "kit", "loo_kit"]


class Deal(Protocol):
    """A kit's seeded deal of one hand: ``(rules, rng, seats, dealer, pool, names=None) -> hand``."""

    def __call__(
        self, rules: Any, rng: random.Random, seats: int, dealer: int, pool: int, names: Sequence[str] | None = None
    ) -> Hand: ...


@dataclass(frozen=True)
class Kit:
    """What the commands and widgets need of one game: its rules, a deal, one deal's stakes, bots and a fast path.

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


def loo_kit() -> Kit:
    def fast(rules: Rules, rng: random.Random, seats: int, dealer: int, pool: int) -> tuple[str, tuple[int, ...]]:
        r = play_random_hand(rules, rng, seats=seats, dealer=dealer, pool=pool)
        return r.reason, tuple(p - loo for p, loo in zip(r.payouts, r.loos, strict=True))

    return Kit(
        read_rules=Rules.from_record,
        deal=lambda rules, rng, seats, dealer, pool, names=None: LooHand.deal(
            rules, rng, seats=seats, dealer=dealer, pool=pool, names=names
        ),
        pool=lambda rules, seats: int(rules.deal_price),
        make_bot=make_bot,
        bot_names=tuple(sorted(BOTS)),
        fast=fast,
        fast_for=lambda rules: rules.game is Game.THREE_CARD,
        new_game=lambda rules, players, rng, first: LooGame(rules, players, rng, first_dealer=first),
        max_seats=lambda rules: rules.game.max_seats,
    )


def _nap_kit() -> Kit:
    from loo.games.nap.bots import BOTS as NAP_BOTS
    from loo.games.nap.bots import make_bot as make_nap_bot
    from loo.games.nap.fast import play_random_nap
    from loo.games.nap.game import NapGame
    from loo.games.nap.hand import NapHand
    from loo.games.nap.rules import KittyMode, NapRules

    def pool(rules: NapRules, seats: int) -> int:  # one deal's feeds (NAP-POOL-02/03, AMB-40)
        if rules.kitty_mode is KittyMode.DEALER:
            return int(rules.unit)
        if rules.kitty_mode is KittyMode.DEALER_AND_PLAYERS:
            return int(rules.unit) * (seats + 2)
        return 0

    def fast(rules: NapRules, rng: random.Random, seats: int, dealer: int, p: int) -> tuple[str, tuple[int, ...]]:
        r = play_random_nap(rules, rng, seats=seats, dealer=dealer, pool=p)
        return r.reason, r.settlement

    return Kit(
        read_rules=NapRules.from_record,
        deal=lambda rules, rng, seats, dealer, p, names=None: NapHand.deal(
            rules, rng, seats=seats, dealer=dealer, pool=p, names=names
        ),
        pool=pool,
        make_bot=make_nap_bot,
        bot_names=tuple(sorted(NAP_BOTS)),
        fast=fast,
        fast_for=lambda rules: not (rules.peep or rules.sir_garnet or rules.purchase),
        new_game=lambda rules, players, rng, first: NapGame(rules, players, rng, first_dealer=first),
        max_seats=lambda rules: rules.max_seats(),
    )


def _domino_kit() -> Kit:
    from loo.games.dominoes import DominoGame, DominoHand, DominoRules
    from loo.games.dominoes.bots import BOTS as DOMINO_BOTS
    from loo.games.dominoes.fast import play_random_domino_hand
    from loo.games.dominoes.rules import Variant
    from loo.games.dominoes.state import PLAYERS

    def make_domino_bot(name: str) -> Bot[Any]:
        if name not in DOMINO_BOTS:
            raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(sorted(DOMINO_BOTS))}")
        bot: Bot[Any] = DOMINO_BOTS[name]()
        return bot

    def fast(rules: DominoRules, rng: random.Random, seats: int, dealer: int, p: int) -> tuple[str, tuple[int, ...]]:
        r = play_random_domino_hand(rules, rng, seats=seats, dealer=dealer, pool=p)
        if r.points is not None:
            return r.reason, r.points
        return r.reason, tuple(pay - loo for pay, loo in zip(r.payouts, r.loos, strict=True))

    return Kit(
        read_rules=DominoRules.from_record,
        deal=lambda rules, rng, seats, dealer, p, names=None: DominoHand.deal(
            rules, rng, seats=seats, dealer=dealer, pool=p, names=names
        ),
        pool=lambda rules, seats: int(rules.deal_price) * (seats + 1),  # an empty pool: all ante, the dealer twice
        make_bot=make_domino_bot,
        bot_names=tuple(sorted(DOMINO_BOTS)),
        fast=fast,
        fast_for=lambda rules: rules.game is Variant.LOO,
        new_game=lambda rules, players, rng, first: DominoGame(rules, players, rng, first_dealer=first),
        max_seats=lambda rules: max(PLAYERS),  # DL-EQP-02
    )


GAMES = NAMES  # every game, in the registry's order (loo.registry)


def kit(game: str) -> Kit:
    """The parts of ``game``; :class:`~loo.registry.UnknownGame` names the games if there is none."""
    kind = family(game)
    if kind is Family.NAP:
        return _nap_kit()
    if kind is Family.DOMINOES:
        return _domino_kit()
    return loo_kit()


class ArgumentError(ValueError):
    """A command-line argument that cannot be used; reported in one line with exit status 2."""
