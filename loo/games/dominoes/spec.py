"""Domino Loo and Domino Rounce, as the rest of the project sees them (:class:`~loo.core.spec.GameSpec`)."""

from __future__ import annotations

import random
from typing import Any

from loo.core.protocols import Bot
from loo.core.spec import GameSpec, Kit, later
from loo.core.tiles import Tile
from loo.games.dominoes.rules import PRESETS, DominoRules, Variant


def kit() -> Kit:
    """The dominoes' parts: the hand, bots, game of many hands and random play's fast path (Domino Loo's)."""
    from loo.games.dominoes.bots import BOTS
    from loo.games.dominoes.fast import play_random_domino_hand
    from loo.games.dominoes.game import DominoGame
    from loo.games.dominoes.hand import DominoHand
    from loo.games.dominoes.state import PLAYERS

    def make_bot(name: str) -> Bot[Any]:
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(sorted(BOTS))}")
        bot: Bot[Any] = BOTS[name]()
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
        make_bot=make_bot,
        bot_names=tuple(sorted(BOTS)),
        fast=fast,
        fast_for=lambda rules: rules.game is Variant.LOO,
        new_game=lambda rules, players, rng, first: DominoGame(rules, players, rng, first_dealer=first),
        max_seats=lambda rules: max(PLAYERS),  # DL-EQP-02
    )


SPEC = GameSpec(
    package="loo.games.dominoes",
    rules_class=DominoRules,
    presets=PRESETS,
    kit=kit,
    record_type=later("loo.games.dominoes.record", "RECORD_TYPE"),
    parse_piece=Tile.parse,
    piece="tile",
    throw_words="drops out",  # the domino source's word (DL-DECL)
    for_pool_words="for the pool",
    deck_options=False,  # the pack's display options mean nothing for tiles
    thumb=later("loo.games.dominoes.bots", "DominoThumbBot", made=True),
    advice=later("loo.games.dominoes.advice", "ADVICE"),
    option_labels={
        "deal_price": "Ante into an empty pool",
        "lone_opponent_rule": "Dealer against a lone miss",
        "first_deal_mode": "Deal into an empty pool",
    },
)
