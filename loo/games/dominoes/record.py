"""Records of the domino games: ``loo-record/1`` (docs/records.md) with ``game`` ``domino-loo`` or
``domino-rounce`` and a deal of ``hands`` (five tiles a seat), the ``turnup`` and the ``stock`` (the
boneyard, top first), or ``{"seed": N}``; read, written and replayed."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loo.core import records
from loo.core.actions import Verb
from loo.core.records import RecordBase
from loo.core.rules import RecordError
from loo.core.tiles import Tile, TileError
from loo.games.dominoes.hand import DominoHand, deal_tiles
from loo.games.dominoes.rules import DominoLoneOpponentRule, DominoRules, DominoScoring, Variant
from loo.games.dominoes.state import HAND_SIZE, PLAYERS, DominoAction
from loo.registry import entry

__all__ = ["RECORD_TYPE", "Deal", "DominoRecord"]

Deal = tuple[Sequence[Sequence[Tile]], Tile, Sequence[Tile]]
# The verbs a domino record may write (docs/records.md, Actions); Rounce adds a dummy's discards.
DOMINO_VERBS = (Verb.DECLARE, Verb.TAKE_TURNUP, Verb.FOR_POOL, Verb.PLAY)


# ----- records -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DominoRecord(RecordBase[DominoHand]):
    """One deal of a domino game: rules, seats, tiles and actions."""

    game: Variant
    rules: DominoRules
    seats: tuple[str, ...]
    dealer: int
    pool: int
    hands: tuple[tuple[Tile, ...], ...]
    turnup: Tile
    stock: tuple[Tile, ...] | None = None
    seed: int | None = None
    actions: tuple[DominoAction, ...] = ()
    rules_given: bool = field(default=True, compare=False)
    _hand = DominoHand
    _DEALT = ("turnup", "stock")

    # ----- reading -------------------------------------------------------------------------

    @property
    def game_name(self) -> str:
        return self.game.value

    @classmethod
    def _read_rules(cls, obj: dict[str, Any]) -> DominoRules:
        game_name = obj.get("game")
        if not isinstance(game_name, str) or game_name not in {v.value for v in Variant}:
            raise RecordError("game", f"must be domino-loo or domino-rounce here, not {game_name!r}")
        return DominoRules.from_record(game_name, obj.get("rules"))

    @classmethod
    def _read_table(cls, obj: dict[str, Any], rules: DominoRules) -> tuple[tuple[str, ...], int, int]:
        chips = rules.domino_scoring is DominoScoring.CHIPS  # a points game plays for no pool
        seats, dealer, pool = records.read_table(
            obj,
            least_pool=rules.deal_price if chips else 0,
            stake="chips of the deal price, which the dealer has just paid into it (DL-SC-01, DL-SC-05)",
        )
        n = len(seats)
        if n not in PLAYERS:
            raise RecordError("seats", f"the domino games are for two, three or four players (DL-EQP-02), not {n}")
        if chips:
            check_chip_pool(rules, pool, n)
        return seats, dealer, pool

    @classmethod
    def _read_deal(
        cls, obj: dict[str, Any], rules: DominoRules, n: int, dealer: int
    ) -> tuple[dict[str, Any], int | None]:
        if obj.get("deal_kind", "normal") != "normal":
            raise RecordError("deal_kind", f"every domino deal is normal, not {obj.get('deal_kind')!r}")
        deal, seed = records.read_deal(obj, "tiles")
        stock: tuple[Tile, ...] | None
        if seed is not None:
            dealt, turnup, rest = deal_tiles(rules, random.Random(seed), seats=n, dealer=dealer)
            hands, stock = tuple(tuple(h) for h in dealt), tuple(rest)
        else:
            hands, turnup, stock = _read_tiles(deal, n)
        return {"game": rules.game, "hands": hands, "turnup": turnup, "stock": stock}, seed

    @classmethod
    def _read_actions(cls, obj: dict[str, Any], rules: DominoRules, n: int) -> tuple[DominoAction, ...]:
        verbs = (*DOMINO_VERBS, Verb.EXCHANGE) if rules.dummies else DOMINO_VERBS  # DR-03: a dummy's discards
        return records.read_actions(obj, n, piece=Tile.parse, game=entry(rules.game.value).in_text, verbs=verbs)

    # ----- writing -------------------------------------------------------------------------

    def _default_rules(self) -> DominoRules:
        return DominoRules.from_record(self.game, None)

    def _written_deal(self) -> dict[str, Any]:
        deal: dict[str, Any] = {"hands": [[str(t) for t in h] for h in self.hands], "turnup": str(self.turnup)}
        if self.stock is not None:
            deal["stock"] = [str(t) for t in self.stock]
        return deal

    def with_tiles(self) -> DominoRecord:
        """The same record with a seeded deal written out tile by tile (:meth:`with_cards`, the name every
        record class answers to)."""
        return self.with_cards()

    # ----- replaying -------------------------------------------------------------------------

    @classmethod
    def _own_of_hand(cls, hand: DominoHand) -> dict[str, Any]:
        return {"game": hand.variant, "actions": tuple(hand.actions)}


RECORD_TYPE = DominoRecord
"""The record class :func:`loo.records.record_type` hands ``domino-loo`` and ``domino-rounce`` records to."""


def check_chip_pool(rules: DominoRules, pool: int, players: int) -> None:
    """A pool a hand of Domino Loo for chips can start with, or :class:`RecordError` naming ``pool``.

    A pool holding only the dealer's stake was empty before it, and an empty pool is anted again by
    everyone (DL-SC-01, DL-SC-02): never the dealer's stake alone. And where every hand pays its five
    tricks out, every stake into the pool is a multiple of the deal price (an ante, the dealer's stake,
    a loo of the pool as it stood; a capped loo a multiple of the cap's players), so the pool always
    is: five chips at the source's stakes, whose pool "is always divisible evenly by five" (DL-SC-03).
    That holds while those stakes are multiples of five, so that a fifth of the pool is whole, and no
    dealer can play for the pool: at four players, with that option agreed, a dealer playing for the
    pool leaves his tricks' shares in it (DL-DLR-05), a fifth of 115 being 23, and any pool may follow.

    >>> check_chip_pool(DominoRules(), 27, 3)
    Traceback (most recent call last):
    loo.core.rules.RecordError: pool: 27 chips cannot be the pool: every stake into it is a multiple of 5 chips, so the pool always is (DL-SC-03)
    """  # noqa: E501
    price = rules.deal_price
    step = math.gcd(price, rules.domino_loo_cap * players)  # no cap: gcd(price, 0) is the price
    carries = players == 4 and rules.lone_opponent_rule is not DominoLoneOpponentRule.OFF  # DL-DLR-03/05
    if step % 5 == 0 and not carries and pool % step:
        raise RecordError(
            "pool",
            f"{pool} chips cannot be the pool: every stake into it is a multiple of {step} chips, so the pool "
            "always is (DL-SC-03)",
        )
    if pool == price:
        raise RecordError(
            "pool",
            f"holds only the dealer's {price} chips: a pool left empty is anted again by every player, {price} "
            f"each with the dealer's {price} on top, {price * (players + 1)} at {players} players (DL-SC-01, DL-SC-02)",
        )


def _tile(value: Any, where: str) -> Tile:
    if not isinstance(value, str):
        raise RecordError(where, f"must be written as text such as '6-3', not {value!r}")
    try:
        return Tile.parse(value)
    except TileError as error:
        raise RecordError(where, str(error)) from None


def _read_tiles(deal: dict[str, Any], n: int) -> tuple[tuple[tuple[Tile, ...], ...], Tile, tuple[Tile, ...] | None]:
    raw_hands = records.read_hands(deal, n, ("hands", "turnup", "stock"), named="a domino deal", hand="hand of tiles")
    hands = []
    for seat, raw in enumerate(raw_hands):
        where = f"deal.hands[{seat}]"
        if raw is None:
            raise RecordError(where, "every player is dealt five tiles (DL-DEAL-03)")
        tiles = records.read_pieces(raw, where, Tile.parse)
        if len(tiles) != HAND_SIZE:
            raise RecordError(where, f"has {len(tiles)} tiles; each hand has five (DL-DEAL-03)")
        hands.append(tiles)
    if "turnup" not in deal:
        raise RecordError("deal.turnup", "is missing: the turned-up tile fixes trumps (DL-DEAL-04)")
    turnup = _tile(deal["turnup"], "deal.turnup")
    stock = records.read_pieces(deal["stock"], "deal.stock", Tile.parse) if "stock" in deal else None
    places: list[tuple[str, tuple[Any, ...]]] = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands)]
    places += [("deal.turnup", (turnup,)), ("deal.stock", stock or ())]
    records.no_duplicates(places)
    undealt = 28 - HAND_SIZE * n - 1
    if stock is not None and len(stock) != undealt:
        raise RecordError("deal.stock", f"must list all {undealt} undealt tiles, top first, not {len(stock)}")
    return tuple(hands), turnup, stock
