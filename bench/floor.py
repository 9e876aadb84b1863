"""The floor: how fast plain Python can play a random-legal three-card Loo hand at all.

One hand of Peel's game (``Rules.preset("peel")``) for ``seats`` players, written as bare integers
(card = suit * 13 + rank - 2, clubs 0, the ace 12) with every rule fixed in the code: no options,
no objects, no checks, no history, no record. Nothing of the project's engine is imported, so the
figure is the ceiling a general engine can be measured against (bench/engine.py prints the
engine's rate as a share of this one, measured in the same run).

Peel's laws as played here: three cards each and a miss dealt after the dealer each round, a
turn-up for trumps; each player in turn from the dealer's left stands, takes the miss or throws
(the miss while no one has it); the dealer facing one stander alone may instead play for the pool
with the miss; everyone throwing to the dealer gives him the pool, and a lone stander takes it
uncontested. In play: the ace of trumps, else the king when the ace is turned up, else the highest
of two or more trumps, leads the first trick; the winner of the first trick leads his highest trump;
a follower follows suit and heads the trick if he can, and when void must overtrump if he can; the
pool is shared a third a trick, and a stander who takes no trick pays the loo of 6.
"""

from __future__ import annotations

import random


def play_floor_hand(rng: random.Random, seats: int, dealer: int, pool: int) -> tuple[int, ...]:
    """One random-legal hand of Peel's three-card Loo; what each seat gains (pool shares less loos)."""
    rand = rng.random
    cards = rng.sample(range(52), 3 * seats + 4)
    hands: list[list[int]] = [[] for _ in range(seats)]
    miss: list[int] = []
    top = 0
    rotation = [(dealer + i) % seats for i in range(1, seats + 1)]
    for _ in range(3):
        for seat in rotation:
            hands[seat].append(cards[top])
            top += 1
        miss.append(cards[top])
        top += 1
    turnup = cards[top]
    trump = turnup // 13

    declared = [0] * seats  # 0 out, 1 stands (own cards or the miss), 2 plays for the pool
    miss_free = True
    standers = 0
    for seat in rotation:
        if seat == dealer and standers == 1:
            options = (1, 3, 2) if miss_free else (1, 0)
        else:
            options = (1, 3, 0) if miss_free else (1, 0)
        choice = options[int(rand() * len(options))]
        if choice == 3:  # the miss
            hands[seat] = miss
            miss_free = False
            choice = 1
        elif choice == 2:
            hands[seat] = miss
        declared[seat] = choice
        standers += choice == 1
        if seat == rotation[-2] and standers == 0:
            gains = [0] * seats
            gains[dealer] = pool
            return tuple(gains)
    if standers == 1 and declared[dealer] != 2:
        gains = [0] * seats
        gains[next(p for p in rotation if declared[p])] = pool
        return tuple(gains)

    players = [p for p in rotation if declared[p]]
    n = len(players)
    leader = players[0]
    won = [0] * seats
    gains = [0] * seats
    share, remainder = divmod(pool, 3)
    for trick in range(3):
        start = players.index(leader)
        best_seat = best = led = -1
        for k in range(n):
            seat = players[(start + k) % n]
            hand = hands[seat]
            if k == 0:
                legal = hand
                if trick < 2:
                    trumps = [c for c in hand if c // 13 == trump]
                    if trick == 0:
                        if trump * 13 + 12 in hand:
                            legal = [trump * 13 + 12]
                        elif turnup % 13 == 12 and trump * 13 + 11 in hand:
                            legal = [trump * 13 + 11]
                        elif len(trumps) > 1:
                            legal = [max(trumps)]
                    elif trumps:
                        legal = [max(trumps)]
            else:
                legal = [c for c in hand if c // 13 == led]
                if legal:
                    if best < 200 or led == trump:
                        base = 200 if led == trump else 100
                        legal = [c for c in legal if base + c % 13 > best] or legal
                else:
                    legal = [c for c in hand if c // 13 == trump and 200 + c % 13 > best] or hand
            card = legal[int(rand() * len(legal))]
            hand.remove(card)
            suit = card // 13
            if k == 0:
                led = suit
            power = 200 + card % 13 if suit == trump else (100 + card % 13 if suit == led else 0)
            if power > best:
                best, best_seat = power, seat
        won[best_seat] += 1
        if not (declared[best_seat] == 2):
            gains[best_seat] += share + (trick < remainder)
        leader = best_seat
    for p in players:
        if won[p] == 0 and declared[p] == 1:
            gains[p] -= 6
    return tuple(gains)
