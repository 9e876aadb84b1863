"""The suits of the domino games and the duties of play, read off the tiles (DL-SUIT-01..03, AMB-46).

A tile belongs to the suit of each number it carries, except that a trump belongs only to the
trumps; a double belongs only to its own number, and ranks above the rest of it. The duties of
the leader and the followers are written here once, over any kind of piece, so that the hand
(:mod:`loo.games.dominoes.hand`) and the fast simulator (:mod:`loo.games.dominoes.fast`, on
integers) read the same rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeVar

from loo.core.tiles import Tile, full_set
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump, follower_choices

__all__ = [
    "PLURALS",
    "follower_tiles",
    "followers_of",
    "follows",
    "lead_choices",
    "led_suit",
    "power",
    "powers_of",
    "rank_in",
    "suit_name",
    "trumps_of",
]

P = TypeVar("P")

PLURALS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")


# ----- suits (DL-SUIT-01..03, AMB-46) ----------------------------------------------------------


def suit_name(number: int) -> str:
    """``suit_name(6) == 'sixes'``."""
    return PLURALS[number]


def rank_in(tile: Tile, suit: int) -> int:
    """A tile's rank within ``suit``, which it carries: its other end, the double above all (DL-SUIT-01).

    >>> rank_in(Tile.parse("6-3"), 6), rank_in(Tile.parse("6-3"), 3), rank_in(Tile.parse("3-3"), 3)
    (3, 6, 7)
    """
    return 7 if tile.is_double else tile.other(suit)


def follows(tile: Tile, led: int, trump: int) -> bool:
    """Does ``tile`` follow the suit ``led``? A trump follows only trumps (DL-SUIT-02, AMB-46).

    >>> follows(Tile.parse("6-3"), 6, 3), follows(Tile.parse("6-3"), 3, 3), follows(Tile.parse("6-1"), 6, 3)
    (False, True, True)
    """
    if led == trump:
        return tile.has(trump)
    return tile.has(led) and not tile.has(trump)


def power(tile: Tile, led: int, trump: int) -> int:
    """A number such that the higher tile wins the trick (DL-TRK-01): trumps, then the suit led."""
    if tile.has(trump):
        return 200 + rank_in(tile, trump)
    if tile.has(led):
        return 100 + rank_in(tile, led)
    return 0


def led_suit(tile: Tile, trump: int, announced: int | None) -> int | None:
    """The suit a lead calls for: trumps for a trump (DL-LEAD-05), a double's own number, else the
    end the leader announced (DL-LEAD-04); None if he had to announce one and did not."""
    if tile.has(trump):
        return trump
    if tile.is_double:
        return tile.high
    return announced


# ----- the same, tabled once per trump and suit led (for the hand's speed) -------------------------


@cache
def trumps_of(trump: int) -> frozenset[Tile]:
    """The tiles that are trumps: those carrying the trump number (DL-SUIT-02)."""
    return frozenset(t for t in full_set() if t.has(trump))


@cache
def followers_of(led: int, trump: int) -> frozenset[Tile]:
    """The tiles that follow the suit ``led`` (:func:`follows`), as a set."""
    return frozenset(t for t in full_set() if follows(t, led, trump))


@cache
def powers_of(led: int, trump: int) -> dict[Tile, int]:
    """Every tile's :func:`power` in a trick of the suit ``led``."""
    return {t: power(t, led, trump) for t in full_set()}


# ----- the duties of play --------------------------------------------------------------------------


def lead_choices(
    hand: Sequence[P],
    *,
    is_trump: Callable[[P], bool],
    trump_rank: Callable[[P], int],
    first_lead_rule: FirstLeadRule,
    winner_rule: WinnerLeadsTrump,
    after_a_trick: bool,
) -> list[P]:
    """The pieces the leader may lead, in hand order (DL-LEAD-02/03, DL-PLAY-05, AMB-47).

    Holding two trumps or more he leads a trump (the highest, by ``trump_rank``, unless any trump
    may be led); once a trick has been won, its winner holding a trump leads one, or his highest
    under ``WinnerLeadsTrump.HIGHER``. ``after_a_trick`` says whether a trick has been played.
    """
    if len(hand) == 1:
        return list(hand)  # the last trick: his one tile
    trumps = [p for p in hand if is_trump(p)]
    allowed = list(hand)
    if len(trumps) >= 2:
        allowed = trumps if first_lead_rule is FirstLeadRule.ANY_TRUMP else [max(trumps, key=trump_rank)]
    if after_a_trick and trumps and winner_rule is not WinnerLeadsTrump.OFF:
        duty = trumps if winner_rule is WinnerLeadsTrump.ANY else [max(trumps, key=trump_rank)]
        allowed = [p for p in allowed if p in duty]
    return allowed


def follower_tiles(
    hand: Sequence[P],
    *,
    follows: Callable[[P], bool],
    is_trump: Callable[[P], bool],
    beats: Callable[[P], bool],
    void_rule: VoidRule,
) -> list[P]:
    """The pieces a follower may play, in hand order (DL-PLAY-01..04, DR-04, CF-04): the shared
    :func:`loo.core.tricks.follower_choices`, with no duty to head the trick (DL-PLAY-04)."""
    if len(hand) == 1:
        return list(hand)  # the last trick: his one tile
    return follower_choices(
        hand, follows=follows, is_trump=is_trump, beats=beats, must_head=False, void_rule=void_rule
    )[0]
