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
    _hand = NapHand
    _DEALT = ("stock", "garnet", "peep_card")

    @property
    def game(self) -> str:
        return GAME

    @property
    def game_name(self) -> str:
        return GAME

    @classmethod
    def _read_rules(cls, obj: dict[str, Any]) -> NapRules:
        if obj.get("game") != GAME:
            raise RecordError("game", f"a Nap record has game 'nap', not {obj.get('game')!r}")
        rules = NapRules.from_record(GAME, obj.get("rules"))
        if obj.get("deal_kind", "normal") != "normal":
            raise RecordError("deal_kind", "Nap has only normal deals")
        return rules

    @classmethod
    def _read_table(cls, obj: dict[str, Any], rules: NapRules) -> tuple[tuple[str, ...], int, int]:
        seats, dealer, pool = records.read_table(obj)
        n = len(seats)
        if n > rules.max_seats():
            need = 5 * n + rules.extra_cards()
            raise RecordError("seats", f"{n} players need {need} cards, more than the pack holds (AMB-02)")
        return seats, dealer, pool

    @classmethod
    def _read_deal(cls, obj: dict[str, Any], rules: NapRules, n: int, dealer: int) -> tuple[dict[str, Any], int | None]:
        deal, seed = records.read_deal(obj)
        if seed is None:
            hands, garnet, peep_card, stock = _read_cards(deal, rules, n)
        else:
            dealt, garnet_list, peep_card, stock_list = deal_nap(rules, random.Random(seed), seats=n, dealer=dealer)
            hands = tuple(tuple(h) for h in dealt)
            garnet, stock = tuple(garnet_list), tuple(stock_list)
        return {"hands": hands, "stock": stock, "garnet": garnet, "peep_card": peep_card}, seed

    @classmethod
    def _read_actions(cls, obj: dict[str, Any], rules: NapRules, n: int) -> tuple[Action, ...]:
        return records.read_actions(obj, n, game=entry(GAME).in_text, verbs=NAP_VERBS)

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
        """The hand as dealt, before any action (at a teaching table if ``table``)."""
        return NapHand(self.rules, **self._dealing(), table=table)

    @classmethod
    def _own_of_hand(cls, hand: NapHand) -> dict[str, Any]:
        """Claims made at a teaching table have no record form and are left out; so is the stock when it
        is the rest of the pack in order."""
        used = {c for h in hand.dealt for c in h} | set(hand.garnet) | ({hand.peep_card} if hand.peep_card else set())
        default_stock = tuple(c for c in full_pack() if c not in used)
        return {
            "stock": None if hand.stock == default_stock else hand.stock,
            "actions": tuple(a for a in hand.actions if a.verb in VERBS),
        }


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
