"""Random play of three-card Loo hands on card indices, for the book's statistics and the benchmarks.

It states no law of its own: what may be declared, the order of turns, when the pool goes without
play, the duties of the leader and of the follower, the power that wins a trick, the sharing of the
pool and the loo are all asked of :mod:`loo.games.loo.play`, the same functions :class:`loo.games.loo.hand.LooHand`
asks (its settlement, :mod:`loo.games.loo.settle`, shares the pool with the same
:func:`~loo.games.loo.play.settle_tricks`). It lets each seat choose uniformly among what the rule
functions allow, with no objects, checks or history, for hundreds of thousands of hands;
``tests/engine/loo/test_random_play.py`` replays every choice made here through the checked engine
and compares the legal actions at each step and the settlement.

>>> import random
>>> from loo.games.loo.rules import Rules
>>> result = play_random_hand(Rules.preset("peel"), random.Random(1), seats=5, dealer=4, pool=9)
>>> sum(result.payouts) + result.next_pool - sum(result.loos) == 9
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from loo.core.fast import FastOutcome
from loo.games.loo.play import (
    STANDING,
    conceded,
    deal_rounds,
    dealer_uncontested,
    declaration_options,
    first_leader,
    follow_choices,
    lead_choices,
    loo_amount,
    may_miss_when_all_play,
    players_of,
    power,
    rotation,
    settle_tricks,
    trick_order,
    uncontested_payouts,
)
from loo.games.loo.rules import ClubLawMiss, FirstDealMode, Game, LoneOpponentRule, Rules

__all__ = ["FastResult", "card_of", "play_random_hand"]

CLUBS = 0


@dataclass(frozen=True, slots=True)
class FastResult(FastOutcome):
    """What one simulated hand did (:class:`~loo.core.fast.FastOutcome`); and, if asked, every step
    taken, the deal, the miss and the turn-up (as integer cards)."""

    steps: tuple[tuple[int, str, object, tuple[object, ...]], ...] = ()  # (seat, verb, choice, legal choices)
    dealt: tuple[tuple[int, ...], ...] = ()
    miss: tuple[int, ...] = ()
    turnup: int = -1


Dealt = tuple[list[list[int]], list[int], int]


def _deal(rng: random.Random, seats: int, order: tuple[int, ...], rules: Rules) -> Dealt:
    """The cards this simulator has always dealt: ``rng.sample`` of the pack, in the engine's order
    of the deal to the seats of ``order``."""
    cards = rng.sample(range(52), 3 * seats + 4)
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
    order = rotation(dealer, seats, range(seats))  # every seat is dealt in
    if deal is None:
        hands, miss, turnup = _deal(rng, seats, order, rules)  # fresh lists, this hand's own
    else:
        hands, miss, turnup = [list(h) for h in deal[0]], deal[1], deal[2]
    dealt = tuple(tuple(h) for h in hands) if record else ()
    rand = rng.random
    steps: list[tuple[int, str, object, tuple[object, ...]]] = []
    trump = turnup // 13
    club_law = rules.club_law and trump == CLUBS
    bold = rules.first_deal_mode is FirstDealMode.BOLD_STAND and pool == rules.deal_price
    all_must = club_law or bold
    miss_in_play = not (club_law and rules.club_law_miss is ClubLawMiss.WITHDRAWN)
    peel = rules.lone_opponent_rule is LoneOpponentRule.PEEL
    eldest, before_dealer = order[0], order[-2]

    # ----- declarations (A.5, A.6) -----
    declared: list[str | None] = [None] * seats
    miss_taker = -1
    for_pool = False
    standers = 0
    reason = ""
    winner = -1
    for seat in order:
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
        if seat == before_dealer and dealer_uncontested(True, standers, all_must):
            reason, winner = "dealer-uncontested", dealer
            break
    if not reason and conceded(standers, for_pool):
        reason, winner = "conceded", next(p for p in order if declared[p] in STANDING)
    said = tuple([d or "" for d in declared])
    if reason:
        zero = (0,) * seats
        payouts = tuple(uncontested_payouts(pool, seats, winner))
        return FastResult(said, zero, payouts, zero, 0, reason, tuple(steps), dealt, tuple(miss), turnup)

    # ----- play (A.7, A.8) -----
    players = players_of(order, declared)
    leader = first_leader(players, miss_taker, for_pool, rules.miss_holder_leads)
    winners = []
    must_head = rules.must_head
    void_rule = rules.void_rule
    for trick_no in range(3):
        best_seat = best_power = led = led_card = -1
        for seat in trick_order(players, leader):
            hand = hands[seat]
            if led < 0:
                legal, _ = lead_choices(hand, trick_no, trump, -1, rules, turnup)
            else:
                legal, _ = follow_choices(hand, led_card, best_power, trump, -1, False, must_head, void_rule)
            card = legal[int(rand() * len(legal))]
            if record:
                steps.append((seat, "play", card, tuple(legal)))
            hand.remove(card)
            if led < 0:
                led, led_card = card // 13, card
            value = power(card, led, trump, -1)
            if value > best_power:
                best_power, best_seat = value, seat
        winners.append(best_seat)
        leader = best_seat

    # ----- settlement (A.9, A.10) -----
    loo = loo_amount(rules, pool, single=False)
    out = settle_tricks(pool, winners, seats, players, dealer if for_pool else -1, (), loo)
    return FastResult(
        said, out.won, out.payouts, out.loos, out.next_pool, "played", tuple(steps), dealt, tuple(miss), turnup
    )


def card_of(index: int) -> str:
    """The canonical text of an integer card: ``card_of(12) == 'AC'``."""
    return ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][index % 13] + "CDHS"[index // 13]
