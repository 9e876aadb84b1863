"""A deal of Nap as a record (``docs/records.md``, game ``nap``): :class:`NapRecord`, read, written and
replayed through :class:`~loo.games.nap.hand.NapHand`."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass, field
from typing import Any

from loo.core.actions import VERBS, Action, Verb
from loo.core.cards import Card, CardError, full_pack
from loo.core.rules import RecordError
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import DEFAULT_PRESET, GAME, NapRules, deal_nap
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
from loo.registry import entry

# The verbs a Nap record may write (docs/records.md, Actions): the calling, the play, and the variants'
# peep (with its exchange), Sir Garnet and purchase.
NAP_VERBS = (Verb.CALL, Verb.PEEP, Verb.EXCHANGE, Verb.GARNET, Verb.PURCHASE, Verb.PLAY)


@dataclass(frozen=True)
class NapRecord:
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

    @classmethod
    def loads(cls, text: str) -> NapRecord:
        return cls.from_json(parse_json(text))

    @classmethod
    def from_json(cls, obj: Any) -> NapRecord:
        obj = read_header(obj)
        if obj.get("game") != GAME:
            raise RecordError("game", f"a Nap record has game 'nap', not {obj.get('game')!r}")
        rules = NapRules.from_record(GAME, obj.get("rules"))
        if obj.get("deal_kind", "normal") != "normal":
            raise RecordError("deal_kind", "Nap has only normal deals")
        seats, dealer, pool = read_table(obj)
        n = len(seats)
        if n > rules.max_seats():
            raise RecordError("seats", f"{n} players need {5 * n + rules.extra_cards()} cards, more than the pack "
                                       "holds (AMB-02)")  # fmt: skip
        deal = obj.get("deal")
        if not isinstance(deal, dict):
            raise RecordError("deal", "must be an object with the cards, or {'seed': N}")
        seed: int | None = None
        garnet: tuple[Card, ...] = ()
        peep_card: Card | None = None
        stock: tuple[Card, ...] | None
        if "seed" in deal:
            if len(deal) != 1:
                raise RecordError("deal", "a seeded deal has only the seed")
            seed = deal["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise RecordError("deal.seed", f"must be a whole number, not {seed!r}")
            dealt, garnet_list, peep_card, stock_list = deal_nap(rules, random.Random(seed), seats=n, dealer=dealer)
            hands = tuple(tuple(h) for h in dealt)
            garnet, stock = tuple(garnet_list), tuple(stock_list)
        else:
            hands, garnet, peep_card, stock = _read_cards(deal, rules, n)
        actions = read_actions(obj, n, game=entry(GAME).in_text, verbs=NAP_VERBS)
        return cls(rules, seats, dealer, pool, hands, stock, garnet, peep_card, seed, actions, "rules" in obj)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": GAME}
        if self.rules_given or self.rules != NapRules.preset(DEFAULT_PRESET):
            out["rules"] = self.rules.to_record()
        out["seats"] = list(self.seats)
        out["dealer"] = self.dealer
        out["pool"] = self.pool
        if self.seed is not None:
            out["deal"] = {"seed": self.seed}
        else:
            deal: dict[str, Any] = {"hands": [[str(c) for c in h] for h in self.hands]}
            if self.garnet:
                deal["garnet"] = [str(c) for c in self.garnet]
            if self.peep_card is not None:
                deal["peep"] = str(self.peep_card)
            if self.stock is not None:
                deal["stock"] = [str(c) for c in self.stock]
            out["deal"] = deal
        out["actions"] = [a.to_record() for a in self.actions]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def with_cards(self) -> NapRecord:
        """The same record with a seeded deal written out card by card."""
        return dataclasses.replace(self, seed=None)

    def start(self, *, table: bool = False) -> NapHand:
        """The hand as dealt, before any action."""
        return NapHand(self.rules, hands=self.hands, dealer=self.dealer, pool=self.pool, stock=self.stock,
                       garnet=self.garnet, peep_card=self.peep_card, names=self.seats, table=table)  # fmt: skip

    def replay(self) -> NapHand:
        """The hand after every action; raises :class:`IllegalActionError` (with ``index``) at the first illegal one."""
        return replay_actions(self.start(), self.actions)

    @classmethod
    def of_hand(cls, hand: NapHand, *, seed: int | None = None) -> NapRecord:
        """The record of a hand played in the engine (cards written out unless ``seed`` is given).

        Claims made at a teaching table have no record form and are left out.
        """
        actions = tuple(a for a in hand.actions if a.verb in VERBS)
        used = {c for h in hand.dealt for c in h} | set(hand.garnet) | ({hand.peep_card} if hand.peep_card else set())
        default_stock = tuple(c for c in full_pack() if c not in used)
        stock = None if hand.stock == default_stock else hand.stock  # the rest of the pack in order goes unwritten
        return cls(hand.rules, hand.names, hand.dealer, hand.pool, hand.dealt, stock, hand.garnet, hand.peep_card,
                   seed, actions)  # fmt: skip


def _read_cards(
    deal: dict[str, Any], rules: NapRules, n: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card | None, tuple[Card, ...] | None]:
    unknown = [k for k in deal if k not in ("hands", "stock", "garnet", "peep")]
    if unknown:
        raise RecordError(f"deal.{unknown[0]}", "unknown field; a Nap deal has hands, stock, garnet and peep, or seed")
    raw_hands = deal.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError("deal.hands", "must be a list with one hand per seat")
    if len(raw_hands) != n:
        raise RecordError("deal.hands", f"has {len(raw_hands)} hands for {n} seats")
    hands = []
    for seat, raw in enumerate(raw_hands):
        cards = read_pieces(raw, f"deal.hands[{seat}]")
        if len(cards) != 5:
            raise RecordError(f"deal.hands[{seat}]", f"has {len(cards)} cards; each Nap hand has 5 (NAP-DEAL-03)")
        hands.append(cards)
    garnet: tuple[Card, ...] = ()
    if rules.sir_garnet:
        if "garnet" not in deal:
            raise RecordError("deal.garnet", "is missing: Sir Garnet is played, so an extra hand of five is dealt")
        garnet = read_pieces(deal["garnet"], "deal.garnet")
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
    stock = read_pieces(deal["stock"], "deal.stock") if "stock" in deal else None
    places: list[tuple[str, tuple[Any, ...]]] = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands)]
    places += [("deal.garnet", garnet), ("deal.peep", (peep_card,) if peep_card else ()), ("deal.stock", stock or ())]
    no_duplicates(places)
    return tuple(hands), garnet, peep_card, stock


RECORD_TYPE = NapRecord
