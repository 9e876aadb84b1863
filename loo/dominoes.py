"""Domino Loo and Domino Rounce (catalogue group F): records, games of many hands, and the whole API.

The rules live in :mod:`loo.dominoes_rules`, a hand in progress in :mod:`loo.dominoes_hand`,
the computer players in :mod:`loo.dominoes_bots` and the fast simulator in
:mod:`loo.dominoes_fast`; everything is importable from here.  Records are ``loo-record/1``
(docs/records.md) with ``game`` ``domino-loo`` or ``domino-rounce`` and a deal of ``hands``
(five tiles a seat), the ``turnup`` and the ``stock`` (the boneyard, top first, from which
misses are drawn and Rounce's dummies laid out), or ``{"seed": N}``.

>>> rec = DominoRecord.from_json({"format": "loo-record/1", "game": "domino-loo",
...     "seats": ["Ann", "Ben", "Cat", "Dan"], "dealer": 3, "pool": 25, "deal": {"seed": 7}, "actions": []})
>>> hand = rec.start()
>>> hand.to_act, str(hand.turnup), hand.trump
(0, '2-0', 2)
>>> DominoRecord.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loo.dominoes_bots import BOTS, DominoSamplingBot, DominoThumbBot, determinize
from loo.dominoes_fast import FastDominoResult, play_random_domino_hand
from loo.dominoes_hand import (
    HAND_SIZE,
    PLAYERS,
    DominoAction,
    DominoHand,
    DominoSettlement,
    DominoTrick,
    DominoView,
    deal_tiles,
    dummy_sizes,
    follows,
    led_suit,
    power,
    rank_in,
)
from loo.dominoes_rules import (
    PRESETS,
    DominoFirstDealMode,
    DominoLoneOpponentRule,
    DominoRules,
    DominoScoring,
    Variant,
)
from loo.game import ChipLedger, Entry
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
from loo.rules import RecordError
from loo.tiles import Tile, TileError

__all__ = [
    "BOTS",
    "PRESETS",
    "RECORD_TYPE",
    "DominoAction",
    "DominoFirstDealMode",
    "DominoGame",
    "DominoHand",
    "DominoHandResult",
    "DominoLoneOpponentRule",
    "DominoRecord",
    "DominoRules",
    "DominoSamplingBot",
    "DominoScoring",
    "DominoSettlement",
    "DominoThumbBot",
    "DominoTrick",
    "DominoView",
    "FastDominoResult",
    "Variant",
    "deal_tiles",
    "determinize",
    "dummy_sizes",
    "follows",
    "led_suit",
    "play_random_domino_hand",
    "power",
    "rank_in",
]

Deal = tuple[Sequence[Sequence[Tile]], Tile, Sequence[Tile]]


# ----- records -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DominoRecord:
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

    # ----- reading -------------------------------------------------------------------------

    @classmethod
    def loads(cls, text: str) -> DominoRecord:
        return cls.from_json(parse_json(text))

    @classmethod
    def from_json(cls, obj: Any) -> DominoRecord:
        """Read a record; a record that cannot be read raises :class:`RecordError` naming the field."""
        obj = read_header(obj)
        game_name = obj.get("game")
        if not isinstance(game_name, str) or game_name not in {v.value for v in Variant}:
            raise RecordError("game", f"must be domino-loo or domino-rounce here, not {game_name!r}")
        rules = DominoRules.from_record(game_name, obj.get("rules"))
        chips = rules.domino_scoring is DominoScoring.CHIPS  # a points game plays for no pool
        seats, dealer, pool = read_table(
            obj,
            least_pool=rules.deal_price if chips else 0,
            stake="chips of the deal price, which the dealer has just paid into it (DL-SC-01, DL-SC-05)",
        )
        n = len(seats)
        if n not in PLAYERS:
            raise RecordError("seats", f"the domino games are for two, three or four players (DL-EQP-02), not {n}")
        if obj.get("deal_kind", "normal") != "normal":
            raise RecordError("deal_kind", f"every domino deal is normal, not {obj.get('deal_kind')!r}")
        deal = obj.get("deal")
        if not isinstance(deal, dict):
            raise RecordError("deal", "must be an object with the tiles, or {'seed': N}")
        seed: int | None = None
        stock: tuple[Tile, ...] | None
        if "seed" in deal:
            seed = deal["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise RecordError("deal.seed", f"must be a whole number, not {seed!r}")
            if len(deal) > 1:
                raise RecordError("deal", "a seeded deal has the seed alone")
            dealt, turnup, rest = deal_tiles(rules, random.Random(seed), seats=n, dealer=dealer)
            hands, stock = tuple(tuple(h) for h in dealt), tuple(rest)
        else:
            hands, turnup, stock = _read_tiles(deal, n)
        actions = read_actions(obj, n, piece=Tile.parse)
        for i, action in enumerate(actions):
            if action.civil:
                raise RecordError(f"actions[{i}].civil", "dominoes have no Pam: no action says 'Pam be civil'")
        return cls(
            game=rules.game,
            rules=rules,
            seats=seats,
            dealer=dealer,
            pool=pool,
            hands=hands,
            turnup=turnup,
            stock=stock,
            seed=seed,
            actions=tuple(actions),
            rules_given="rules" in obj,
        )

    # ----- writing -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": self.game.value}
        if self.rules_given or self.rules != DominoRules.from_record(self.game, None):
            out["rules"] = self.rules.to_record()
        out["seats"] = list(self.seats)
        out["dealer"] = self.dealer
        out["pool"] = self.pool
        if self.seed is not None:
            out["deal"] = {"seed": self.seed}
        else:
            deal: dict[str, Any] = {"hands": [[str(t) for t in h] for h in self.hands], "turnup": str(self.turnup)}
            if self.stock is not None:
                deal["stock"] = [str(t) for t in self.stock]
            out["deal"] = deal
        out["actions"] = [a.to_record() for a in self.actions]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def with_cards(self) -> DominoRecord:
        """The name every record type answers to (the deal command calls it): here, :meth:`with_tiles`."""
        return self.with_tiles()

    def with_tiles(self) -> DominoRecord:
        """The same record with a seeded deal written out tile by tile."""
        if self.seed is None:
            return self
        return DominoRecord(**{**self.__dict__, "seed": None})

    # ----- replaying -------------------------------------------------------------------------

    def start(self) -> DominoHand:
        """The hand as dealt, before any action."""
        return DominoHand(self.rules, hands=self.hands, turnup=self.turnup, dealer=self.dealer, pool=self.pool,
                          stock=self.stock, names=self.seats)  # fmt: skip

    def replay(self) -> DominoHand:
        """The hand after every action; raises :class:`IllegalActionError` (with ``index``) at the first illegal one."""
        return replay_actions(self.start(), self.actions)

    @classmethod
    def of_hand(cls, hand: DominoHand, *, seed: int | None = None) -> DominoRecord:
        """The record of a hand played in the engine (tiles written out unless ``seed`` is given)."""
        return cls(
            game=hand.variant,
            rules=hand.rules,
            seats=hand.names,
            dealer=hand.dealer,
            pool=hand.pool,
            hands=hand.dealt,
            turnup=hand.turnup,
            stock=hand.stock,
            seed=seed,
            actions=tuple(hand.actions),
        )


RECORD_TYPE = DominoRecord
"""The record class :func:`loo.records.record_type` hands ``domino-loo`` and ``domino-rounce`` records to."""


def _tile(value: Any, where: str) -> Tile:
    if not isinstance(value, str):
        raise RecordError(where, f"must be written as text such as '6-3', not {value!r}")
    try:
        return Tile.parse(value)
    except TileError as error:
        raise RecordError(where, str(error)) from None


def _read_tiles(deal: dict[str, Any], n: int) -> tuple[tuple[tuple[Tile, ...], ...], Tile, tuple[Tile, ...] | None]:
    unknown = [k for k in deal if k not in ("hands", "turnup", "stock")]
    if unknown:
        raise RecordError(f"deal.{unknown[0]}", "unknown field; a domino deal has hands, turnup and stock, or seed")
    raw_hands = deal.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError("deal.hands", "must be a list with one hand of tiles per seat")
    if len(raw_hands) != n:
        raise RecordError("deal.hands", f"has {len(raw_hands)} hands for {n} seats")
    hands = []
    for seat, raw in enumerate(raw_hands):
        where = f"deal.hands[{seat}]"
        if raw is None:
            raise RecordError(where, "every player is dealt five tiles (DL-DEAL-03)")
        tiles = read_pieces(raw, where, Tile.parse)
        if len(tiles) != HAND_SIZE:
            raise RecordError(where, f"has {len(tiles)} tiles; each hand has five (DL-DEAL-03)")
        hands.append(tiles)
    if "turnup" not in deal:
        raise RecordError("deal.turnup", "is missing: the turned-up tile fixes trumps (DL-DEAL-04)")
    turnup = _tile(deal["turnup"], "deal.turnup")
    stock = read_pieces(deal["stock"], "deal.stock", Tile.parse) if "stock" in deal else None
    places: list[tuple[str, tuple[Any, ...]]] = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands)]
    places += [("deal.turnup", (turnup,)), ("deal.stock", stock or ())]
    no_duplicates(places)
    undealt = 28 - HAND_SIZE * n - 1
    if stock is not None and len(stock) != undealt:
        raise RecordError("deal.stock", f"must list all {undealt} undealt tiles, top first, not {len(stock)}")
    return tuple(hands), turnup, stock


# ----- games of many hands -------------------------------------------------------------------------


@dataclass(frozen=True)
class DominoHandResult:
    number: int
    dealer: str
    pool_before: int
    settlement: DominoSettlement
    players: tuple[str, ...]


class DominoGame(ChipLedger):
    """Hands of one domino game in sequence, the deal passing to the left (DL-DEAL-01).

    With chips the pool escalates and a double-entry ledger records every chip (balances and
    the pool always add up to zero); with points the scores run up to 15 (AMB-51), at Rounce
    down from 15 to nothing (DR-05..10, AMB-52).

    >>> game = DominoGame(DominoRules.preset("celko"), ["Ann", "Ben", "Cat", "Dan"], random.Random(3))
    >>> hand = game.next_hand()  # Ann deals into an empty pool: all ante five, and she five more
    >>> game.pool, game.balances()
    (25, {'Ann': -10, 'Ben': -5, 'Cat': -5, 'Dan': -5})
    """

    def __init__(
        self, rules: DominoRules, players: Sequence[str], rng: random.Random, *, first_dealer: int = 0
    ) -> None:
        if len(players) not in PLAYERS:
            raise ValueError(f"the domino games are for two to four players (DL-EQP-02), not {len(players)}")
        if len(set(players)) != len(players):
            raise ValueError("each player needs a different name")
        self.rules = rules
        self.players = tuple(players)
        self.rng = rng
        self.dealer = first_dealer % len(players)  # DL-DEAL-01: a first dealer is designated
        self.pool = 0
        self.ledger: list[Entry] = []
        self.results: list[DominoHandResult] = []
        start = rules.game_points if rules.domino_scoring is DominoScoring.ROUNCE else 0
        self.scores: dict[str, int] = dict.fromkeys(self.players, start)  # DR-05
        self.hand: DominoHand | None = None

    # ----- the ledger -------------------------------------------------------------------------

    # ----- the end --------------------------------------------------------------------------------

    @property
    def winner(self) -> str | None:
        """Who has won, once a hand has ended the game; a tie plays on (AMB-51, AMB-52). Chips games never end."""
        scoring = self.rules.domino_scoring
        if scoring is DominoScoring.CHIPS:
            return None
        if scoring is DominoScoring.POINTS:
            best = max(self.scores.values())
            if best < self.rules.game_points:  # DL-PTS-02
                return None
        else:
            best = min(self.scores.values())
            if best > 0:  # DR-10
                return None
        leaders = [p for p, score in self.scores.items() if score == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    # ----- dealing --------------------------------------------------------------------------------

    def next_hand(self, *, deal: Deal | None = None) -> DominoHand:
        """Take the stakes and deal the next hand: from ``self.rng``, or the given (hands, turn-up, stock).

        With chips, a deal into an empty pool is anted by everyone and the dealer adds his stake
        on top; otherwise only the dealer pays (DL-SC-01, DL-SC-02, DL-SC-05, AMB-50).
        """
        if self.hand is not None and not self.hand.is_over:
            raise ValueError("the current hand is not finished")
        if self.hand is not None and (not self.results or self.results[-1].settlement is not self.hand.settlement):
            self.settle()
        if self.is_over:
            raise ValueError(f"the game is over: {self.winner} has won")
        names = self.players
        dealer_name = names[self.dealer]
        if self.rules.domino_scoring is DominoScoring.CHIPS:
            if self.pool == 0:
                for p in names:
                    self._pay(p, self.rules.deal_price, "ante")
            self._pay(dealer_name, self.rules.deal_price, "deal")
        hands: Sequence[Sequence[Tile]]
        stock: Sequence[Tile]
        if deal is None:
            hands, turnup, stock = deal_tiles(self.rules, self.rng, seats=len(names), dealer=self.dealer)
        else:
            hands, turnup, stock = deal
        self.hand = DominoHand(self.rules, hands=hands, turnup=turnup, dealer=self.dealer, pool=self.pool,
                               stock=stock, names=names)  # fmt: skip
        return self.hand

    def settle(self) -> DominoHandResult:
        """Record the finished hand's payments or scores, and pass the deal to the left."""
        hand = self.hand
        if hand is None or hand.settlement is None:
            raise ValueError("there is no finished hand to settle")
        s = hand.settlement
        if self.results and self.results[-1].settlement is s:
            return self.results[-1]
        names = hand.names
        for seat, amount in enumerate(s.payouts):
            self._pay(names[seat], -amount, "trick" if s.reason == "played" else "pool")
        for seat, amount in enumerate(s.loos):
            self._pay(names[seat], amount, "loo")
        if s.scoring is DominoScoring.CHIPS:
            assert self.pool == s.next_pool, (self.pool, s.next_pool)
        for seat, change in enumerate(s.points or ()):
            self.scores[names[seat]] += change
        result = DominoHandResult(len(self.results), names[hand.dealer], hand.pool, s, names)
        self.results.append(result)
        self.dealer = (self.dealer + 1) % len(names)  # DL-DEAL-01
        return result
