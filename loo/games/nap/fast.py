"""A fast simulator of Nap hands with random-legal play, for statistics and the benchmark.

:class:`loo.games.nap.hand.NapHand` is written for clarity, explanations and take-back; this module
plays the same laws on integers (card = suit * 13 + rank - 2) with no objects, checks or
history.  It covers the orthodox game with Wellington, Misery, the stakes, the minimum call,
the dealer's forced call and the pool; the variants with extra cards (Sir Garnet, Peep and
Purchase Nap) go through the engine.  ``tests/engine/nap/test_nap_fast.py`` keeps it honest by
replaying every choice made here through the checked engine and comparing the legal actions at
each step and the settlement at the end.

>>> import random
>>> from loo.games.nap.rules import NapRules
>>> result = play_random_nap(NapRules(), random.Random(1), seats=4, dealer=3)
>>> sum(result.settlement), result.next_pool
(0, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from loo.actions import CALLS
from loo.games.nap.rules import CALL_RANK, MIN_RANK, NAP, TRICKS_NEEDED, KittyMode, MiseryTrumps, NapRules

_SUIT = tuple(c // 13 for c in range(52))
_RANK = tuple(c % 13 for c in range(52))  # 0 is the two, 12 the ace
_KNAVE, _FIVE = 9, 3


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


_OPTIONS: dict[tuple[bool, bool, int, bool], tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]] = {}


def _call_options(rules: NapRules) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """For each highest call so far, the calls a seat may make (AMB-36); and the forced dealer's calls."""
    key = (rules.misery, rules.wellington, rules.min_call, rules.dealer_forced_one)
    cached = _OPTIONS.get(key)
    if cached is not None:
        return cached
    low = MIN_RANK[rules.min_call]

    def allowed(rank: int, high: int, forced: bool) -> bool:
        name = CALLS[rank]
        if name == "misery" and not rules.misery:
            return False
        if name == "wellington" and (not rules.wellington or high != NAP):
            return False
        return rank >= low or (forced and name == "1")

    by_high = tuple(
        ("pass", *(CALLS[r] for r in range(high + 1, len(CALLS)) if allowed(r, high, False)))
        for high in range(len(CALLS))
    )
    forced = tuple(CALLS[r] for r in range(1, len(CALLS)) if allowed(r, 0, True))
    _OPTIONS[key] = (by_high, forced)
    return by_high, forced


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
        raise ValueError("the fast simulator plays Nap without extra cards: use NapHand for Peep, Sir Garnet and "
                         "Purchase Nap")  # fmt: skip
    if not 2 <= seats <= 10:
        raise ValueError(f"Nap is for 2 to 10 players here (AMB-02), not {seats}")
    hands = deal if deal is not None else deal_ints(rng, seats, dealer)
    dealt = tuple(tuple(h) for h in hands) if record else ()
    hands = [list(h) for h in hands]
    rand = rng.random
    steps: list[tuple[int, str, object, tuple[object, ...]]] = []
    by_high, forced_options = _call_options(rules)

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
    kitty = rules.kitty
    unit = rules.unit
    paid = [0] * seats
    if caller < 0:
        return NapFastResult(tuple(calls), -1, None, None, (0,) * seats, (0,) * seats, pool, "redeal",
                             tuple(steps), dealt)  # fmt: skip

    # ----- play (E.3), stopping once the call is made or beaten, as a table may (NAP-PLAY-06, AMB-43) -----
    call = CALLS[high]
    misery = call == "misery"
    no_trumps = misery and rules.misery_trumps is MiseryTrumps.NONE
    need = TRICKS_NEEDED[call]
    knaves_and_fives = rules.kitty_mode is KittyMode.KNAVE_OR_FIVE
    won = [0] * seats
    leader = caller
    trump = -1
    mine = theirs = 0
    suit_of = _SUIT
    rank_of = _RANK
    made = False
    for trick in range(5):
        seat = leader
        hand = hands[seat]
        card = hand[int(rand() * len(hand))]
        if record:
            steps.append((seat, "play", card, tuple(hand)))
        hand.remove(card)
        led = suit_of[card]
        if trick == 0 and not no_trumps:
            trump = led
        best_seat = seat
        best = (200 if led == trump else 100) + rank_of[card]
        if knaves_and_fives and led != trump and rank_of[card] in (_KNAVE, _FIVE):
            paid[seat] += unit
        for _ in range(seats - 1):
            seat = seat + 1 if seat + 1 < seats else 0
            hand = hands[seat]
            legal = [c for c in hand if suit_of[c] == led] or hand
            card = legal[int(rand() * len(legal))]
            if record:
                steps.append((seat, "play", card, tuple(legal)))
            hand.remove(card)
            suit = suit_of[card]
            rank = rank_of[card]
            if suit == trump:
                power = 200 + rank
            elif suit == led:
                power = 100 + rank
            else:
                power = 0
            if power > best:
                best, best_seat = power, seat
            if knaves_and_fives and suit != trump and (rank == _KNAVE or rank == _FIVE):
                paid[seat] += unit
        won[best_seat] += 1
        leader = best_seat
        if best_seat == caller:
            mine += 1
        else:
            theirs += 1
        if misery:
            if mine:
                break
            if theirs == 5:
                made = True
                break
        elif mine >= need:
            made = True
            break
        elif theirs > 5 - need:
            break

    # ----- settlement (E.4, E.10) -----
    win, lose = rules.call_values(call)
    stakes = [0] * seats
    for p in range(seats):
        if p != caller:
            if made:
                stakes[p] -= win
                stakes[caller] += win
            else:
                stakes[p] += lose
                stakes[caller] -= lose
    taken = 0
    if kitty and high >= NAP:
        in_pool = pool + sum(paid)
        if made:
            taken = in_pool  # NAP-POOL-05, NAP-WEL-03
        elif rules.failed_nap_doubles_pool:
            paid[caller] += in_pool  # NAP-POOL-07
    net = [stakes[p] - paid[p] for p in range(seats)]
    net[caller] += taken
    next_pool = pool + sum(paid) - taken
    return NapFastResult(tuple(calls), caller, call, made, tuple(won), tuple(net), next_pool, "played", tuple(steps),
                         dealt)  # fmt: skip


def card_of(index: int) -> str:
    """The canonical text of an integer card: ``card_of(12) == 'AC'``."""
    return ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][index % 13] + "CDHS"[index // 13]
