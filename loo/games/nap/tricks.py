"""Napoleon's trick laws, written once over any kind of piece: the checked hand plays them on
:class:`~loo.core.cards.Card` objects and the fast simulator (:mod:`loo.games.nap.fast`) on integers.

A follower must follow suit if he can, and otherwise may play anything: there is no duty to head
the trick or to trump (NAP-PLAY-02, NAP-GEN-04), which is :func:`loo.core.tricks.follower_choices`
with no heading and :attr:`~loo.core.tricks.VoidRule.FREE`. The first lead fixes trumps
(NAP-PLAY-01), except in a Misery played without them (NAP-MIS-02/03). A trump beats the suit led,
and otherwise the highest card of the suit led wins (NAP-PLAY-04): :func:`card_power` with
:func:`loo.core.tricks.trick_winner`. A hand stops once the call is made or beaten
(NAP-PLAY-06, AMB-43): :func:`call_outcome`.

>>> follow_choices([3, 17, 30], follows=lambda p: p // 13 == 1)  # integers: suit = piece // 13
([17], <Duty.FOLLOW: 'follow'>)
>>> follow_choices([3, 30], follows=lambda p: p // 13 == 1)
([3, 30], <Duty.FREE: 'free'>)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from loo.core.cards import Rank
from loo.core.tricks import Duty, VoidRule, follower_choices

__all__ = ["call_outcome", "card_power", "feeds_the_pool", "first_lead_trump", "follow_choices", "leader_choices"]

P = TypeVar("P")
S = TypeVar("S")


def _never(piece: object) -> bool:
    return False


def follow_choices(hand: Sequence[P], follows: Callable[[P], bool]) -> tuple[list[P], Duty]:
    """NAP-PLAY-02, NAP-GEN-04: the pieces a follower may play, in hand order, and the duty that chose
    them: those of the suit led (``follows``) if he holds any, else any piece; no duty to head the
    trick or to trump."""
    return follower_choices(
        hand, follows=follows, is_trump=_never, beats=_never, must_head=False, void_rule=VoidRule.FREE
    )


def leader_choices(hand: Sequence[P]) -> list[P]:
    """NAP-PLAY-01/04: the player on lead may lead any card he holds."""
    return list(hand)


def first_lead_trump(misery_without_trumps: bool, led: S) -> S | None:
    """NAP-PLAY-01: the suit of the first lead becomes trumps; in a Misery played without trumps
    (NAP-MIS-02, CF-32) there are none."""
    return None if misery_without_trumps else led


def card_power(suit: S, rank: int, *, led: S, trump: S | None) -> int:
    """NAP-PLAY-04: a card's power in the trick: a trump beats every card of the suit led, the higher
    of two cards of one suit wins, and a discard of another suit wins nothing. The highest power
    takes the trick (:func:`loo.core.tricks.trick_winner`).

    >>> card_power(2, 5, led=1, trump=2) > card_power(1, 14, led=1, trump=2) > card_power(3, 14, led=1, trump=2)
    True
    """
    if suit == trump:
        return 200 + rank
    if suit == led:
        return 100 + rank
    return 0


def feeds_the_pool(rank: int, is_trump: bool) -> bool:
    """NAP-POOL-04, AMB-40: under the knave-or-five pool, each knave or five played that is not a trump
    pays a unit into the pool."""
    return not is_trump and (rank == Rank.KNAVE or rank == Rank.FIVE)


def call_outcome(misery: bool, needed: int, mine: int, played: int) -> bool | None:
    """Whether the call is made (True) or beaten (False) once ``played`` tricks are done, the caller
    having won ``mine`` of them; None while it is undecided (NAP-PLAY-06, AMB-43). A Misery is lost
    by the first trick its caller wins and made when all five are lost (NAP-MIS-01); any other call is
    made by winning ``needed`` tricks and beaten once the others have won more than ``5 - needed``
    (NAP-SET-01).

    >>> call_outcome(False, 3, 3, 4), call_outcome(False, 3, 1, 3), call_outcome(False, 3, 1, 4)
    (True, None, False)
    """
    if misery:
        if mine:
            return False
        return True if played == 5 else None
    if mine >= needed:
        return True
    if played - mine > 5 - needed:
        return False
    return None
