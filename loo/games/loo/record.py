"""Loo's hand records (three-card, five-card and Irish Loo): :class:`Record`, in ``loo-record/1``
(docs/records.md), read, written and replayed through :class:`~loo.games.loo.hand.LooHand`.

>>> rec = Record.from_json({"format": "loo-record/1", "game": "three-card-loo",
...     "seats": ["Ann", "Ben", "Cat"], "dealer": 2, "pool": 3, "deal": {"seed": 7}, "actions": []})
>>> hand = rec.start()
>>> hand.to_act
0
>>> Record.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from loo.core import records
from loo.core.actions import Action, Verb
from loo.core.cards import Card, CardError
from loo.core.records import RecordBase
from loo.core.rules import RecordError
from loo.games.loo.dealing import deal_cards
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import FirstDealMode, Game, Rules
from loo.games.loo.state import DealKind
from loo.registry import GAMES, entry

OTHER_GAMES = tuple(g.name for g in GAMES if g.package != "loo.games.loo")  # read by their own packages
# The verbs each Loo game's records may write (docs/records.md, Actions): the dealer's play of the miss
# for the pool at three-card Loo, which alone has a miss; exchanges and Pam's game's turn-up at five-card.
LOO_VERBS: dict[Game, tuple[Verb, ...]] = {
    Game.THREE_CARD: (Verb.DECLARE, Verb.FOR_POOL, Verb.PLAY),
    Game.FIVE_CARD: (Verb.DECLARE, Verb.TAKE_TURNUP, Verb.EXCHANGE, Verb.PLAY),
    Game.IRISH: (Verb.DECLARE, Verb.EXCHANGE, Verb.PLAY),
}


@dataclass(frozen=True)
class Record(RecordBase[LooHand]):
    """One deal of one game of Loo: rules, seats, cards and actions."""

    game: Game
    rules: Rules
    seats: tuple[str, ...]
    dealer: int
    pool: int
    hands: tuple[tuple[Card, ...] | None, ...]
    turnup: Card
    miss: tuple[Card, ...] = ()
    stock: tuple[Card, ...] | None = None
    seed: int | None = None
    deal_kind: DealKind = DealKind.NORMAL
    actions: tuple[Action, ...] = ()
    rules_given: bool = field(default=True, compare=False)
    _hand = LooHand
    _DEALT = ("turnup", "miss", "stock", "deal_kind")

    # ----- reading -----------------------------------------------------------------------

    @property
    def game_name(self) -> str:
        return self.game.value

    @classmethod
    def _read_rules(cls, obj: dict[str, Any]) -> Rules:
        game_name = obj.get("game")
        if game_name in OTHER_GAMES:
            raise RecordError("game", f"{game_name!r} records are read by their own module: use records.load()")
        if not isinstance(game_name, str):
            raise RecordError("game", f"must be the name of a game, not {game_name!r}")
        return Rules.from_record(game_name, obj.get("rules"))

    @classmethod
    def _read_table(cls, obj: dict[str, Any], rules: Rules) -> tuple[tuple[str, ...], int, int]:
        game = rules.game
        return records.read_table(
            obj,
            most=game.max_seats,
            why_most=f"at {game.value}, all the pack serves: AMB-02",
            least_pool=rules.deal_price,
            stake="chips of the deal price, which the dealer has just paid into it "
            + ("(L5-STK-01)" if game is Game.FIVE_CARD else "(L3-STK-07)"),
        )

    @classmethod
    def _read_deal(cls, obj: dict[str, Any], rules: Rules, n: int, dealer: int) -> tuple[dict[str, Any], int | None]:
        kind_name = obj.get("deal_kind", "normal")
        try:
            deal_kind = DealKind(kind_name)
        except ValueError:
            kinds = ", ".join(k.value for k in DealKind)
            raise RecordError("deal_kind", f"must be one of {kinds}, not {kind_name!r}") from None
        if deal_kind is not DealKind.NORMAL and rules.game is not Game.THREE_CARD:
            raise RecordError("deal_kind", f"{deal_kind.value} deals belong to three-card Loo only")
        deal, seed = records.read_deal(obj)
        stock: tuple[Card, ...] | None
        if seed is not None:
            hands, miss, turnup, stock = _dealt_from_seed(rules, seed, n, dealer, deal_kind)
        else:
            hands, miss, turnup, stock = _read_cards(deal, rules, n, dealer, deal_kind)
        return {
            "game": rules.game,
            "hands": hands,
            "miss": miss,
            "turnup": turnup,
            "stock": stock,
            "deal_kind": deal_kind,
        }, seed

    @classmethod
    def _read_actions(cls, obj: dict[str, Any], rules: Rules, n: int) -> tuple[Action, ...]:
        game = rules.game
        return records.read_actions(
            obj, n, game=entry(game.value).in_text, verbs=LOO_VERBS[game], pam=game is Game.FIVE_CARD
        )

    # ----- writing -----------------------------------------------------------------------

    def _default_rules(self) -> Rules:
        return Rules.from_record(self.game, None)

    def _own_fields(self) -> dict[str, Any]:
        return {"deal_kind": self.deal_kind.value} if self.deal_kind is not DealKind.NORMAL else {}

    def _written_deal(self) -> dict[str, Any]:
        deal: dict[str, Any] = {"hands": [[str(c) for c in h] if h is not None else None for h in self.hands]}
        if self.miss:
            deal["miss"] = [str(c) for c in self.miss]
        deal["turnup"] = str(self.turnup)
        if self.stock is not None:
            deal["stock"] = [str(c) for c in self.stock]
        return deal

    # ----- replaying -----------------------------------------------------------------------

    @classmethod
    def _own_of_hand(cls, hand: LooHand) -> dict[str, Any]:
        return {"game": hand.game, "actions": tuple(hand.actions)}


def _hand_size(rules: Rules, kind: DealKind) -> int:
    if kind is DealKind.SINGLE and rules.first_deal_mode is FirstDealMode.PEEL_SINGLE:
        return 1
    return rules.game.hand_size


def _dealt_from_seed(
    rules: Rules, seed: int, n: int, dealer: int, kind: DealKind
) -> tuple[tuple[tuple[Card, ...] | None, ...], tuple[Card, ...], Card, tuple[Card, ...]]:
    try:
        hands, miss, turnup, stock = deal_cards(rules, random.Random(seed), seats=n, dealer=dealer, deal_kind=kind)
    except ValueError as error:  # more players than the pack serves (AMB-02), as Nap and dominoes refuse
        raise RecordError("seats", str(error)) from None
    return tuple(tuple(h) if h is not None else None for h in hands), tuple(miss), turnup, tuple(stock)


def _read_cards(
    deal: dict[str, Any], rules: Rules, n: int, dealer: int, kind: DealKind
) -> tuple[tuple[tuple[Card, ...] | None, ...], tuple[Card, ...], Card | Any, tuple[Card, ...] | None]:
    raw_hands = records.read_hands(deal, n, ("hands", "miss", "turnup", "stock"))
    size = _hand_size(rules, kind)
    hands: list[tuple[Card, ...] | None] = []
    for seat, raw in enumerate(raw_hands):
        if raw is None:
            if seat != dealer:
                raise RecordError(f"deal.hands[{seat}]", "only the dealer may be dealt no cards (L3-OUT-01, L3-WD-03)")
            hands.append(None)
            continue
        cards = records.read_pieces(raw, f"deal.hands[{seat}]")
        if len(cards) != size:
            raise RecordError(f"deal.hands[{seat}]", f"has {len(cards)} cards; each hand here has {size}")
        hands.append(cards)
    if sum(h is not None for h in hands) < 2:
        raise RecordError("deal.hands", "at least two players must be dealt cards")
    wants_miss = rules.game.has_miss and kind is DealKind.NORMAL
    miss = records.read_pieces(deal.get("miss", []), "deal.miss")
    if wants_miss and len(miss) != 3:
        raise RecordError("deal.miss", f"must hold 3 cards, not {len(miss)}")
    if not wants_miss and miss:
        raise RecordError("deal.miss", "this deal has no miss")
    if "turnup" not in deal:
        raise RecordError("deal.turnup", "is missing: the turned-up card fixes trumps")
    try:
        turnup = Card.parse(deal["turnup"])
    except CardError as error:
        raise RecordError("deal.turnup", str(error)) from None
    stock = records.read_pieces(deal["stock"], "deal.stock") if "stock" in deal else None
    places: list[tuple[str, tuple[Any, ...]]] = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands) if h]
    places += [("deal.miss", miss), ("deal.turnup", (turnup,)), ("deal.stock", stock or ())]
    records.no_duplicates(places)
    return tuple(hands), miss, turnup, stock


RECORD_TYPE = Record
