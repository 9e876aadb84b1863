"""The trick rules every game here shares, written once.

A game says what its pieces are through three small functions, bound to the trick in hand:

* ``follows(piece)``: does the piece answer the suit led? (a card of that suit; at Loo, Pam counts
  as a trump; at Domino Loo, a tile carrying the number led and no trump, or any trump when trumps
  were led);
* ``is_trump(piece)``: does it belong to the trump suit?
* ``beats(piece)``: would it take the trick from the piece winning it now?

and :func:`follower_choices` gives the pieces a follower may play with the duty that narrowed them
(follow suit; head the trick; trump; overtrump), so that the engine's legal moves, its explanations
and the fast simulators read one rule. :func:`trick_winner` gives the winner by a power function.

>>> hand = [3, 17, 30]                                    # integers: suit = piece // 13
>>> led, trump = 1, 2
>>> follower_choices(hand, follows=lambda p: p // 13 == led, is_trump=lambda p: p // 13 == trump,
...                  beats=lambda p: False, must_head=True, void_rule=VoidRule.MUST_OVERTRUMP_IF_POSSIBLE)
([17], <Duty.FOLLOW: 'follow'>)
>>> follower_choices([3, 30], follows=lambda p: p // 13 == led, is_trump=lambda p: p // 13 == trump,
...                  beats=lambda p: True, must_head=True, void_rule=VoidRule.MUST_OVERTRUMP_IF_POSSIBLE)
([30], <Duty.OVERTRUMP: 'overtrump'>)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TypeVar

__all__ = ["Duty", "FirstLeadRule", "VoidRule", "WinnerLeadsTrump", "follower_choices", "trick_winner"]

P = TypeVar("P")


class VoidRule(StrEnum):
    """CF-04: what a player who cannot follow suit must do."""

    MUST_OVERTRUMP_IF_POSSIBLE = "must-overtrump-if-possible"  # L3-PLAY-04/05
    MUST_TRUMP = "must-trump"  # 004 Domino Loo
    FREE = "free"  # five-card (L5-PLAY-02), Nap


class FirstLeadRule(StrEnum):
    """CF-02: what a first leader holding two or three trumps must lead."""

    HIGHEST = "highest"  # L3-LEAD-05
    ANY_TRUMP = "any-trump"  # L3-LEAD-06, 003's wording (L3-LEAD-07)


class WinnerLeadsTrump(StrEnum):
    """CF-03: the lead after winning the first trick."""

    OFF = "off"
    HIGHER = "higher"  # L3-LEAD-10
    ANY = "any"  # 004


class Duty(StrEnum):
    """The duty that decided which pieces a follower may play."""

    FREE = "free"  # nothing narrowed the choice: any piece held
    FOLLOW = "follow"  # follow suit (L3-PLAY-02, L5-PLAY-01, NAP-PLAY-02, DL-PLAY-01)
    HEAD = "head"  # follow suit with a piece that beats the trick (L3-PLAY-03)
    TRUMP = "trump"  # void in the suit led: trump (CF-04, 004)
    OVERTRUMP = "overtrump"  # void in the suit led: trump, and beat any trump already played (L3-PLAY-04/05)


_OVERTRUMP, _TRUMP = VoidRule.MUST_OVERTRUMP_IF_POSSIBLE, VoidRule.MUST_TRUMP  # looked up once: a hot path


def follower_choices(
    hand: Sequence[P],
    follows: Callable[[P], bool],
    is_trump: Callable[[P], bool],
    beats: Callable[[P], bool],
    must_head: bool,
    void_rule: VoidRule,
) -> tuple[list[P], Duty]:
    """The pieces of ``hand`` a player who does not lead may play, in hand order, and the duty that chose them.

    A player who can follow suit must (and, with ``must_head``, must beat the trick when one of the
    pieces that follow can); one who cannot follows ``void_rule``: trump if he can, overtrump if he
    can, or play anything. A duty he cannot meet lapses, and he may play any piece that the duty
    before it allowed. (The arguments may be given by position too, as the fast paths do.)
    """
    follow = list(filter(follows, hand))
    if follow:
        if must_head:
            higher = list(filter(beats, follow))
            if higher and len(higher) < len(follow):
                return higher, Duty.HEAD
        return follow, Duty.FOLLOW
    if void_rule is _OVERTRUMP:
        beating = [p for p in hand if is_trump(p) and beats(p)]
        if beating and len(beating) < len(hand):
            return beating, Duty.OVERTRUMP
    elif void_rule is _TRUMP:
        trumps = list(filter(is_trump, hand))
        if trumps and len(trumps) < len(hand):
            return trumps, Duty.TRUMP
    return list(hand), Duty.FREE


def trick_winner(plays: Sequence[tuple[int, P]], power: Callable[[int, P], int]) -> int:
    """The seat that wins a trick of ``(seat, piece)`` plays: the highest ``power(seat, piece)``, the
    earliest on a tie (a discard never beats what was led)."""
    best_seat, best = plays[0][0], power(*plays[0])
    for seat, piece in plays[1:]:
        value = power(seat, piece)
        if value > best:
            best_seat, best = seat, value
    return best_seat
