"""A fast simulator of Nap hands with random-legal play, for statistics and the benchmark.

:class:`loo.games.nap.hand.NapHand` is written for clarity, explanations and take-back; this module
plays random hands on integers (card = suit * 13 + rank - 2) with no objects, checks or history,
but through the very rule functions the hand calls, so that Nap's laws are written once: the calls
open to a seat (:func:`loo.games.nap.rules.call_options`), the cards a follower may play and the
trick's winner (:mod:`loo.games.nap.tricks` over :mod:`loo.core.tricks`), when the call is decided,
and the settlement (:func:`loo.games.nap.settle.settle_stakes`). What is tabulated here for speed
(the calls for each highest call, each card's power for each led suit and trump suit) is computed
by those functions. It covers the orthodox game with Wellington, Misery, the stakes, the minimum
call, the dealer's forced call and the pool; the variants with extra cards (Sir Garnet, Peep and
Purchase Nap) go through the engine. ``tests/engine/nap/test_nap_fast.py`` replays every choice
made here through the checked engine and compares the legal actions at each step and the
settlement at the end.

>>> import random
>>> from loo.games.nap.rules import NapRules
>>> result = play_random_nap(NapRules(), random.Random(1), seats=4, dealer=3)
>>> sum(result.settlement), result.next_pool
(0, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from loo.core.actions import CALLS
from loo.core.tricks import trick_winner
from loo.games.nap.rules import CALL_RANK, TRICKS_NEEDED, KittyMode, MiseryTrumps, NapRules, call_options
from loo.games.nap.settle import settle_stakes
from loo.games.nap.tricks import (
    call_outcome,
    card_power,
    feeds_the_pool,
    first_lead_trump,
    follow_choices,
    leader_choices,
)

_SUIT = tuple(c // 13 for c in range(52))
_RANK = tuple(c % 13 + 2 for c in range(52))  # as loo.core.cards.Rank counts: 2 is the two, 14 the ace
# For each suit led, whether a card follows it (a C-level test, for speed).
_FOLLOWS = tuple(frozenset(range(13 * suit, 13 * suit + 13)).__contains__ for suit in range(4))


@dataclass(frozen=True, slots=True)
class NapFastResult:
    """What one simulated hand did; with ``record=True`` also the deal and every step taken."""

    calls: tuple[str, ...]  # in calling order, from the eldest hand
    caller: int  # -1 when nobody called and the cards are dealt again
    call: str | None
    made: bool | None
    tricks_won: tuple[int, ...]
    settlement: tuple[int, ...]  # each seat's net, as NapSettlement.net()
    next_pool: int
    reason: str
    steps: tuple[tuple[int, str, object, tuple[object, ...]], ...] = ()  # (seat, verb, choice, legal choices)
    dealt: tuple[tuple[int, ...], ...] = ()


_Calls = tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]
_CALLS_FOR: dict[int, tuple[NapRules, _Calls]] = {}  # by id(rules), the rules kept to check identity


def _call_table(rules: NapRules) -> _Calls:
    """:func:`call_options` for each highest call so far, and for the dealer forced to call, worked
    out once for each rules object."""
    found = _CALLS_FOR.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    table = (
        tuple(call_options(rules, high, forced=False) for high in range(len(CALLS))),
        call_options(rules, 0, forced=True),
    )
    if len(_CALLS_FOR) > 64:
        _CALLS_FOR.clear()
    _CALLS_FOR[id(rules)] = (rules, table)
    return table


_POWERS: dict[tuple[int, int | None], Callable[[int, int], int]] = {}


def _power(led: int, trump: int | None) -> Callable[[int, int], int]:
    """The power function of a trick led in ``led`` with ``trump`` trumps, for
    :func:`~loo.core.tricks.trick_winner`: :func:`card_power` of each of the 52 cards, worked out once."""
    found = _POWERS.get((led, trump))
    if found is None:
        table = tuple(card_power(_SUIT[c], _RANK[c], led=led, trump=trump) for c in range(52))
        found = _POWERS[led, trump] = lambda _seat, card: table[card]
    return found


def deal_ints(rng: random.Random, seats: int, dealer: int) -> list[list[int]]:
    """Five cards each, one at a time from the eldest hand (NAP-DEAL-03)."""
    cards = rng.sample(range(52), 5 * seats)
    hands: list[list[int]] = [[] for _ in range(seats)]
    for i, card in enumerate(cards):
        hands[(dealer + 1 + i % seats) % seats].append(card)
    return hands


def play_random_nap(
    rules: NapRules,
    rng: random.Random,
    *,
    seats: int,
    dealer: int,
    pool: int = 0,
    record: bool = False,
    deal: list[list[int]] | None = None,
) -> NapFastResult:
    """Deal (or take ``deal``) and play one hand, each seat choosing uniformly among its legal actions."""
    if rules.peep or rules.sir_garnet or rules.purchase:
        raise ValueError(
            "the fast simulator plays Nap without extra cards: use NapHand for Peep, Sir Garnet and Purchase Nap"
        )
    if not 2 <= seats <= 10:
        raise ValueError(f"Nap is for 2 to 10 players here (AMB-02), not {seats}")
    hands = deal if deal is not None else deal_ints(rng, seats, dealer)
    dealt = tuple(tuple(h) for h in hands) if record else ()
    hands = [list(h) for h in hands]
    rand = rng.random
    steps: list[tuple[int, str, object, tuple[object, ...]]] = []
    by_high, forced_options = _call_table(rules)

    # ----- calling (E.2, AMB-36) -----
    high = 0
    caller = -1
    calls: list[str] = []
    for i in range(1, seats + 1):
        seat = (dealer + i) % seats
        options = forced_options if (i == seats and high == 0 and rules.dealer_forced_one) else by_high[high]
        choice = options[int(rand() * len(options))]
        if record:
            steps.append((seat, "call", choice, options))
        calls.append(choice)
        if choice != "pass":
            rank = CALL_RANK[choice]
            if rank > high:
                high, caller = rank, seat
    if caller < 0:
        return NapFastResult(
            tuple(calls), -1, None, None, (0,) * seats, (0,) * seats, pool, "redeal", tuple(steps), dealt
        )

    # ----- play (E.3), stopping once the call is made or beaten, as a table may (NAP-PLAY-06, AMB-43) -----
    call = CALLS[high]
    misery = call == "misery"
    no_trumps = misery and rules.misery_trumps is MiseryTrumps.NONE
    need = TRICKS_NEEDED[call]
    knaves_and_fives = rules.kitty_mode is KittyMode.KNAVE_OR_FIVE
    unit = rules.unit
    paid = [0] * seats
    won = [0] * seats
    leader = caller
    trump: int | None = None
    mine = 0
    suit_of = _SUIT
    made: bool | None = None
    for trick in range(5):
        seat = leader
        legal = leader_choices(hands[seat])
        card = legal[int(rand() * len(legal))]
        if record:
            steps.append((seat, "play", card, tuple(legal)))
        hands[seat].remove(card)
        led = suit_of[card]
        if trick == 0:
            trump = first_lead_trump(no_trumps, led)
        plays = [(seat, card)]
        follows = _FOLLOWS[led]
        for _ in range(seats - 1):
            seat = seat + 1 if seat + 1 < seats else 0
            hand = hands[seat]
            legal = follow_choices(hand, follows)[0]
            card = legal[int(rand() * len(legal))]
            if record:
                steps.append((seat, "play", card, tuple(legal)))
            hand.remove(card)
            plays.append((seat, card))
        if knaves_and_fives:
            for seat, card in plays:
                if feeds_the_pool(_RANK[card], suit_of[card] == trump):
                    paid[seat] += unit  # NAP-POOL-04, AMB-40
        winner = trick_winner(plays, _power(led, trump))
        won[winner] += 1
        leader = winner
        if winner == caller:
            mine += 1
        made = call_outcome(misery, need, mine, trick + 1)
        if made is not None:
            break
    assert made is not None  # five tricks always decide a call

    # ----- settlement (E.4, E.10) -----
    stakes, paid, taken, next_pool = settle_stakes(
        rules, seats=seats, caller=caller, call=call, made=made, pool=pool, pool_paid=paid
    )
    net = tuple(stakes[p] - paid[p] + taken[p] for p in range(seats))
    return NapFastResult(tuple(calls), caller, call, made, tuple(won), net, next_pool, "played", tuple(steps), dealt)


def card_of(index: int) -> str:
    """The canonical text of an integer card: ``card_of(12) == 'AC'``."""
    return ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][index % 13] + "CDHS"[index // 13]
