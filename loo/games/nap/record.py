"""A deal of Nap as a record (``docs/records.md``, game ``nap``): :class:`NapRecord`, read, written and
replayed through :class:`~loo.games.nap.hand.NapHand`."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from loo.core import records
from loo.core.actions import VERBS, Action, Verb
from loo.core.cards import Card, CardError, full_pack
from loo.core.records import RecordBase
from loo.core.rules import RecordError
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import DEFAULT_PRESET, GAME, NapRules, deal_nap
from loo.registry import entry

# The verbs a Nap record may write (docs/records.md, Actions): the calling, the play, and the variants'
# peep (with its exchange), Sir Garnet and purchase.
NAP_VERBS = (Verb.CALL, Verb.PEEP, Verb.EXCHANGE, Verb.GARNET, Verb.PURCHASE, Verb.PLAY)


@dataclass(frozen=True)
class NapRecord(RecordBase[NapHand]):
    """One deal of Nap as a ``loo-record/1`` record (docs/records.md), game ``nap``.

    ``deal`` is ``{"hands": [...], "stock": [...]}`` (the stock optional, top first), with
    ``"garnet"`` (five cards) under Sir Garnet and ``"peep"`` (one card) under Peep Nap; or
    ``{"seed": N}``. ``pool`` is what the pool holds as the hand is dealt, this deal's feeds included
    (NAP-POOL-02/03); with no pool in use it is 0. Taking Sir Garnet is two actions: ``"garnet": []``
    (taken up unseen) and then ``"garnet": [five cards]`` (the cards thrown out).

    >>> rec = NapRecord.from_json({"format": "loo-record/1", "game": "nap", "seats": ["Ann", "Ben", "Cat"],
    ...                            "dealer": 2, "pool": 0, "deal": {"seed": 7}, "actions": [{"seat": 0, "call": "2"}]})
    >>> hand = rec.replay()
    >>> hand.to_act, NapRecord.from_json(rec.to_json()) == rec
    (1, True)
    """

    rules: NapRules
    seats: tuple[str, ...]
    dealer: int
    pool: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] | None = None
    garnet: tuple[Card, ...] = ()
    peep_card: Card | None = None
    seed: int | None = None
    actions: tuple[Action, ...] = ()
    rules_given: bool = field(default=True, compare=False)

    @property
    def game(self) -> str:
        return GAME

    @property
    def game_name(self) -> str:
        return GAME

    @classmethod
    def from_json(cls, obj: Any) -> NapRecord:
        obj = records.read_header(obj)
        if obj.get("game") != GAME:
            raise RecordError("game", f"a Nap record has game 'nap', not {obj.get('game')!r}")
        rules = NapRules.from_record(GAME, obj.get("rules"))
        if obj.get("deal_kind", "normal") != "normal":
            raise RecordError("deal_kind", "Nap has only normal deals")
        seats, dealer, pool = records.read_table(obj)
        n = len(seats)
        if n > rules.max_seats():
            raise RecordError(
                "seats", f"{n} players need {5 * n + rules.extra_cards()} cards, more than the pack holds (AMB-02)"
            )
        deal, seed = records.read_deal(obj)
        garnet: tuple[Card, ...] = ()
        peep_card: Card | None = None
        stock: tuple[Card, ...] | None
        if seed is not None:
            dealt, garnet_list, peep_card, stock_list = deal_nap(rules, random.Random(seed), seats=n, dealer=dealer)
            hands = tuple(tuple(h) for h in dealt)
            garnet, stock = tuple(garnet_list), tuple(stock_list)
        else:
            hands, garnet, peep_card, stock = _read_cards(deal, rules, n)
        actions = records.read_actions(obj, n, game=entry(GAME).in_text, verbs=NAP_VERBS)
        return cls(rules, seats, dealer, pool, hands, stock, garnet, peep_card, seed, actions, "rules" in obj)

    def _default_rules(self) -> NapRules:
        return NapRules.preset(DEFAULT_PRESET)

    def _written_deal(self) -> dict[str, Any]:
        deal: dict[str, Any] = {"hands": [[str(c) for c in h] for h in self.hands]}
        if self.garnet:
            deal["garnet"] = [str(c) for c in self.garnet]
        if self.peep_card is not None:
            deal["peep"] = str(self.peep_card)
        if self.stock is not None:
            deal["stock"] = [str(c) for c in self.stock]
        return deal

    def start(self, *, table: bool = False) -> NapHand:
        """The hand as dealt, before any action."""
        return NapHand(
            self.rules,
            hands=self.hands,
            dealer=self.dealer,
            pool=self.pool,
            stock=self.stock,
            garnet=self.garnet,
            peep_card=self.peep_card,
            names=self.seats,
            table=table,
        )

    @classmethod
    def of_hand(cls, hand: NapHand, *, seed: int | None = None) -> NapRecord:
        """The record of a hand played in the engine (cards written out unless ``seed`` is given).

        Claims made at a teaching table have no record form and are left out.
        """
        actions = tuple(a for a in hand.actions if a.verb in VERBS)
        used = {c for h in hand.dealt for c in h} | set(hand.garnet) | ({hand.peep_card} if hand.peep_card else set())
        default_stock = tuple(c for c in full_pack() if c not in used)
        stock = None if hand.stock == default_stock else hand.stock  # the rest of the pack in order goes unwritten
        return cls(
            hand.rules,
            hand.names,
            hand.dealer,
            hand.pool,
            hand.dealt,
            stock,
            hand.garnet,
            hand.peep_card,
            seed,
            actions,
        )


def _read_cards(
    deal: dict[str, Any], rules: NapRules, n: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card | None, tuple[Card, ...] | None]:
    raw_hands = records.read_hands(deal, n, ("hands", "stock", "garnet", "peep"), named="a Nap deal")
    hands = []
    for seat, raw in enumerate(raw_hands):
        cards = records.read_pieces(raw, f"deal.hands[{seat}]")
        if len(cards) != 5:
            raise RecordError(f"deal.hands[{seat}]", f"has {len(cards)} cards; each Nap hand has 5 (NAP-DEAL-03)")
        hands.append(cards)
    garnet: tuple[Card, ...] = ()
    if rules.sir_garnet:
        if "garnet" not in deal:
            raise RecordError("deal.garnet", "is missing: Sir Garnet is played, so an extra hand of five is dealt")
        garnet = records.read_pieces(deal["garnet"], "deal.garnet")
        if len(garnet) != 5:
            raise RecordError("deal.garnet", f"must hold 5 cards, not {len(garnet)} (NAP-SG-01)")
    elif "garnet" in deal:
        raise RecordError("deal.garnet", "this table does not play Sir Garnet")
    peep_card: Card | None = None
    if rules.peep:
        if "peep" not in deal:
            raise RecordError("deal.peep", "is missing: Peep Nap is played, so one extra card is dealt")
        if not isinstance(deal["peep"], str):
            raise RecordError("deal.peep", f"must be one card written as text, not {deal['peep']!r}")
        try:
            peep_card = Card.parse(deal["peep"])
        except CardError as error:
            raise RecordError("deal.peep", str(error)) from None
    elif "peep" in deal:
        raise RecordError("deal.peep", "this table does not play Peep Nap")
    stock = records.read_pieces(deal["stock"], "deal.stock") if "stock" in deal else None
    places: list[tuple[str, tuple[Any, ...]]] = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands)]
    places += [("deal.garnet", garnet), ("deal.peep", (peep_card,) if peep_card else ()), ("deal.stock", stock or ())]
    records.no_duplicates(places)
    return tuple(hands), garnet, peep_card, stock


RECORD_TYPE = NapRecord
