"""Random play of three-card Loo hands on card indices, for the book's statistics and the benchmarks.

What may be declared, the duties of the leader and of the follower, the power that wins a trick,
the loo and the order of the deal are asked of :mod:`loo.games.loo.play`, the same functions
:class:`loo.games.loo.hand.LooHand` asks. What this driver still says itself is the order of turns and the
arithmetic of a normal three-card hand's end: the dealer's pool when all before him throw up, a
lone stander's when no one opposes him, the pool shared a trick at a time, and the loo of a player
who took no trick (as :mod:`loo.games.loo.settle` has them for the engine). It lets each seat
choose uniformly among what the rule functions allow, with no objects, checks or history, for
hundreds of thousands of hands; ``tests/engine/loo/test_random_play.py`` replays every choice made
here through the checked engine and compares the legal actions at each step and the settlement.

>>> import random
>>> from loo.games.loo.rules import Rules
>>> result = play_random_hand(Rules.preset("peel"), random.Random(1), seats=5, dealer=4, pool=9)
>>> sum(result.payouts) + result.next_pool - sum(result.loos) == 9
True
"""

from __future__ import annotations

import random
from typing import NamedTuple

from loo.games.loo.play import (
    deal_rounds,
    declaration_options,
    follow_choices,
    lead_choices,
    loo_amount,
    may_miss_when_all_play,
    power,
)
from loo.games.loo.rules import ClubLawMiss, FirstDealMode, Game, LoneOpponentRule, Rules

__all__ = ["FastResult", "card_of", "play_random_hand"]

CLUBS = 0


class FastResult(NamedTuple):
    """What one simulated hand did: who stood, tricks, money; and, if asked, every step taken.

    (A named tuple, immutable and quick to make: one is made per hand.)
    """

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


def _deal(rng: random.Random, seats: int, dealer: int, rules: Rules) -> Dealt:
    """The cards this simulator has always dealt: ``rng.sample`` of the pack, in the engine's order of the deal."""
    cards = rng.sample(range(52), 3 * seats + 4)
    order = [(dealer + i) % seats for i in range(1, seats + 1)]
    hands, miss, top = deal_rounds(cards, 0, order, seats, 3, True, rules.miss_position)
    return [h if h is not None else [] for h in hands], miss, cards[top]


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
    hands, miss, turnup = deal if deal is not None else _deal(rng, seats, dealer, rules)
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
        options = declaration_options(
            all_must,  # everyone plays
            miss_in_play and miss_taker < 0,  # the miss is free
            all_must and may_miss_when_all_play(rules, club_law=club_law, bold_stand=bold, eldest=seat == eldest),
            seat == dealer,  # the last to declare
            standers == 1 and peel,  # a lone stander before him, under Peel's dealer rule
            miss_taker >= 0,  # the miss is taken
        )
        choice = options[int(rand() * len(options))]
        if record:
            steps.append((seat, "declare", choice, options))
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
    for trick_no in range(3):
        start = players.index(leader)
        best_seat = -1
        best_power = -1
        led = -1
        led_card = -1
        for k in range(nplayers):
            seat = players[(start + k) % nplayers]
            hand = hands[seat]
            if k == 0:
                legal, _ = lead_choices(hand, trick_no, trump, -1, rules, turnup)
            else:
                legal, _ = follow_choices(hand, led_card, best_power, trump, -1, False, must_head, void_rule)
            card = legal[int(rand() * len(legal))]
            if record:
                steps.append((seat, "play", card, tuple(legal)))
            hand.remove(card)
            if k == 0:
                led, led_card = card // 13, card
            value = power(card, led, trump, -1)
            if value > best_power:
                best_power, best_seat = value, seat
        won[best_seat] += 1
        trick_winners.append(best_seat)
        leader = best_seat

    # ----- settlement (A.9, A.10) -----
    payouts = [0] * seats
    share, remainder = divmod(pool, 3)
    for i, w in enumerate(trick_winners):
        if not (for_pool and w == dealer):
            payouts[w] += share + (1 if i < remainder else 0)
    amount = loo_amount(rules, pool, single=False)
    loos = [amount if (won[p] == 0 and p in players and not (for_pool and p == dealer)) else 0 for p in range(seats)]
    next_pool = pool - sum(payouts) + sum(loos)
    return FastResult(tuple(declared), tuple(won), tuple(payouts), tuple(loos), next_pool, "played", tuple(steps),
                      dealt, tuple(miss), turnup)  # fmt: skip


def card_of(index: int) -> str:
    """The canonical text of an integer card: ``card_of(12) == 'AC'``."""
    return ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][index % 13] + "CDHS"[index // 13]
