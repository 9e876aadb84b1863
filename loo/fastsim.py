"""A fast simulator of three-card Loo hands with random-legal play, for the book's statistics.

The engine in :mod:`loo.hand` is written for clarity, explanations and take-back;
this module plays the same laws on integers (card = suit * 13 + rank - 2) with no
objects, checks or history, for hundreds of thousands of hands.  It is kept honest
by ``tests/engine/loo/test_fastsim.py``, which replays every choice made here through
the checked engine and compares the legal actions at each step.

>>> import random
>>> from loo.rules import Rules
>>> result = play_random_hand(Rules.preset("peel"), random.Random(1), seats=5, dealer=4, pool=9)
>>> sum(result.payouts) + result.next_pool - sum(result.loos) == 9
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from loo.core.tricks import VoidRule
from loo.rules import (
    ClubLawMiss,
    FirstDealMode,
    FirstLeadRule,
    Game,
    LoneOpponentRule,
    LooMode,
    MissPosition,
    Rules,
    WinnerLeadsTrump,
)

CLUBS = 0
ACE = 12  # rank index of the ace (two is 0)
KING = 11


@dataclass(frozen=True, slots=True)
class FastResult:
    """What one simulated hand did: who stood, tricks, money; and, if asked, every step taken."""

    declared: tuple[str, ...]
    tricks_won: tuple[int, ...]
    payouts: tuple[int, ...]
    loos: tuple[int, ...]
    next_pool: int
    reason: str
    steps: tuple[tuple[int, str, object, tuple[object, ...]], ...] = ()  # (seat, verb, choice, legal choices)
    dealt: tuple[tuple[int, ...], ...] = ()
    miss: tuple[int, ...] = ()
    turnup: int = -1


Dealt = tuple[list[list[int]], list[int], int]


def _deal(rng: random.Random, seats: int, dealer: int, position: MissPosition) -> Dealt:
    cards = rng.sample(range(52), 3 * seats + 4)
    hands: list[list[int]] = [[] for _ in range(seats)]
    miss: list[int] = []
    order = [(dealer + i) % seats for i in range(1, seats + 1)]
    top = 0
    for _ in range(3):
        for i, seat in enumerate(order):
            if i == 0 and position is MissPosition.FIRST:
                miss.append(cards[top])
                top += 1
            if i == seats - 1 and position is MissPosition.BEFORE_DEALER:
                miss.append(cards[top])
                top += 1
            hands[seat].append(cards[top])
            top += 1
        if position is MissPosition.AFTER_DEALER:
            miss.append(cards[top])
            top += 1
    return hands, miss, cards[top]


def play_random_hand(
    rules: Rules,
    rng: random.Random,
    *,
    seats: int,
    dealer: int,
    pool: int,
    record: bool = False,
    deal: tuple[list[list[int]], list[int], int] | None = None,
) -> FastResult:
    """Deal (or take ``deal``) and play one normal three-card hand.

    Each seat chooses uniformly among its legal actions.
    """
    if rules.game is not Game.THREE_CARD:
        raise ValueError("the fast simulator plays three-card Loo only")
    hands, miss, turnup = deal if deal is not None else _deal(rng, seats, dealer, rules.miss_position)
    dealt = tuple(tuple(h) for h in hands) if record else ()
    hands = [list(h) for h in hands]
    rand = rng.random
    steps: list[tuple[int, str, object, tuple[object, ...]]] = []
    trump = turnup // 13
    club_law = rules.club_law and trump == CLUBS
    bold = rules.first_deal_mode is FirstDealMode.BOLD_STAND and pool == rules.deal_price
    all_must = club_law or bold
    miss_in_play = not (club_law and rules.club_law_miss is ClubLawMiss.WITHDRAWN)
    peel = rules.lone_opponent_rule is LoneOpponentRule.PEEL
    eldest = (dealer + 1) % seats
    rotation = [(dealer + i) % seats for i in range(1, seats + 1)]

    # ----- declarations (A.5, A.6) -----
    declared = ["" for _ in range(seats)]
    miss_taker = -1
    for_pool = False
    standers = 0
    reason = ""
    winner_uncontested = -1
    for seat in rotation:
        miss_free = miss_in_play and miss_taker < 0
        if all_must:
            options = ["stand"]
            if miss_free and (
                (club_law and rules.club_law_miss is ClubLawMiss.AVAILABLE and not bold) or (bold and seat == eldest)
            ):
                options.append("miss")
        elif seat != dealer:
            options = ["stand", "miss", "throw"] if miss_free else ["stand", "throw"]
        elif standers == 1 and peel:
            if miss_taker < 0:
                options = ["stand", "miss", "for-pool"] if miss_free else ["stand"]
            else:
                options = ["stand", "throw"]
        else:
            options = ["stand", "miss", "throw"] if miss_free else ["stand", "throw"]
        choice = options[int(rand() * len(options))]
        if record:
            steps.append((seat, "declare", choice, tuple(options)))
        declared[seat] = choice
        if choice == "miss":
            hands[seat] = list(miss)
            miss_taker = seat
            standers += 1
        elif choice == "throw":
            hands[seat] = []
        elif choice == "for-pool":
            hands[seat] = list(miss)
            for_pool = True
        else:
            standers += 1
        if seat != dealer and rotation[-2] == seat and standers == 0 and not all_must:
            reason, winner_uncontested = "dealer-uncontested", dealer  # L3-DLR-01
            break
    if not reason and standers == 1 and not for_pool:
        reason = "conceded"  # L3-DLR-04/05
        winner_uncontested = next(p for p in rotation if declared[p] in ("stand", "miss"))
    if reason:
        payouts = [0] * seats
        payouts[winner_uncontested] = pool
        return FastResult(tuple(declared), (0,) * seats, tuple(payouts), (0,) * seats, 0, reason, tuple(steps),
                          dealt, tuple(miss), turnup)  # fmt: skip

    # ----- play (A.7, A.8) -----
    players = [p for p in rotation if declared[p] in ("stand", "miss", "for-pool")]
    nplayers = len(players)
    leader = players[0]
    if rules.miss_holder_leads and miss_taker >= 0 and not for_pool:
        leader = miss_taker
    won = [0] * seats
    trick_winners = []
    must_head = rules.must_head
    void_rule = rules.void_rule
    first_lead = rules.first_lead_rule
    king_rule = rules.king_rule_when_ace_turned and turnup % 13 == ACE
    winner_lead = rules.winner_must_lead_trump
    ace_of_trumps = trump * 13 + ACE
    king_of_trumps = trump * 13 + KING
    for trick_no in range(3):
        start = players.index(leader)
        best_seat = -1
        best_power = -1
        led = -1
        for k in range(nplayers):
            seat = players[(start + k) % nplayers]
            hand = hands[seat]
            if k == 0:
                legal = hand
                trumps = [c for c in hand if c // 13 == trump]
                if trick_no == 0:
                    if ace_of_trumps in hand:
                        legal = [ace_of_trumps]
                    elif king_rule and king_of_trumps in hand:
                        legal = [king_of_trumps]
                    elif len(trumps) >= 2:
                        legal = [max(trumps)] if first_lead is FirstLeadRule.HIGHEST else trumps
                elif trick_no == 1 and trumps and winner_lead is not WinnerLeadsTrump.OFF:
                    legal = [max(trumps)] if winner_lead is WinnerLeadsTrump.HIGHER else trumps
            else:
                follow = [c for c in hand if c // 13 == led]
                if follow:
                    legal = follow
                    if must_head and (best_power < 200 or led == trump):
                        higher = [c for c in follow if (200 if led == trump else 100) + c % 13 > best_power]
                        if higher:
                            legal = higher
                elif void_rule is VoidRule.MUST_OVERTRUMP_IF_POSSIBLE:
                    beating = [c for c in hand if c // 13 == trump and 200 + c % 13 > best_power]
                    legal = beating or hand
                elif void_rule is VoidRule.MUST_TRUMP:
                    legal = [c for c in hand if c // 13 == trump] or hand
                else:
                    legal = hand
            card = legal[int(rand() * len(legal))]
            if record:
                steps.append((seat, "play", card, tuple(legal)))
            hand.remove(card)
            suit = card // 13
            if k == 0:
                led = suit
            power = 200 + card % 13 if suit == trump else (100 + card % 13 if suit == led else 0)
            if power > best_power:
                best_power, best_seat = power, seat
        won[best_seat] += 1
        trick_winners.append(best_seat)
        leader = best_seat

    # ----- settlement (A.9, A.10) -----
    payouts = [0] * seats
    share, remainder = divmod(pool, 3)
    for i, w in enumerate(trick_winners):
        if not (for_pool and w == dealer):
            payouts[w] += share + (1 if i < remainder else 0)
    if rules.loo_mode is LooMode.UNLIMITED:
        amount = pool
    elif rules.loo_mode is LooMode.CAPPED:
        amount = min(pool, rules.loo_cap)
    else:
        amount = rules.loo_amount
    loos = [amount if (won[p] == 0 and p in players and not (for_pool and p == dealer)) else 0 for p in range(seats)]
    next_pool = pool - sum(payouts) + sum(loos)
    return FastResult(tuple(declared), tuple(won), tuple(payouts), tuple(loos), next_pool, "played", tuple(steps),
                      dealt, tuple(miss), turnup)  # fmt: skip


def card_of(index: int) -> str:
    """The canonical text of an integer card: ``card_of(12) == 'AC'``."""
    return ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][index % 13] + "CDHS"[index // 13]
