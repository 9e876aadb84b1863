"""Build domino hands from compact strings, so each test of group F reads like the law it checks.

(No tests here: the helpers for tests/engine/dominoes/test_dominoes*.py.)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from loo.core.actions import Action, IllegalActionError
from loo.core.tiles import Tile
from loo.games.dominoes import DominoHand, DominoRules

NAMES = ("Ann", "Ben", "Cat", "Dan")

# Four players, Dan deals, sixes are trumps (the turn-up 6-0). The worked example's first hand.
FOUR = "6-6 6-5 6-4 1-0 2-0 | 2-1 3-1 4-1 3-2 4-2 | 4-3 3-3 2-2 0-0 5-0 | 6-3 6-2 1-1 5-5 3-0"
FOUR_STOCK = "5-4 5-3 5-2 5-1 4-4 4-0 6-1"  # the first five are the miss (AMB-45)


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def make(
    hands: str = FOUR,
    *,
    turnup: str = "6-0",
    stock: str | None = None,
    dealer: int | None = None,
    pool: int = 25,
    preset: str = "celko",
    **options: Any,
) -> DominoHand:
    """``hands`` separates seats with ``|``; the dealer is the last seat unless given."""
    rules = dataclasses.replace(DominoRules.preset(preset), **options)
    seats = [tiles(h) for h in hands.split("|")]
    n = len(seats)
    if stock is None and hands == FOUR and turnup == "6-0":
        stock = FOUR_STOCK
    return DominoHand(
        rules,
        hands=seats,
        turnup=Tile.parse(turnup),
        stock=tiles(stock) if stock is not None else None,
        dealer=n - 1 if dealer is None else dealer,
        pool=pool,
        names=NAMES[:n],
    )


def act(text: str) -> Action:
    """``"0 stand"``, ``"1 miss"``, ``"2 throw"``, ``"3 pool"`` (play for the pool), ``"3 turnup 4-0"``
    (take the turn-up, discarding 4-0), ``"0 x 2-0 3-0"`` (discard from a dummy), ``"0 6-3"`` (play),
    ``"0 6-3/3"`` (lead 6-3 announcing the threes)."""
    seat_text, *rest = text.split()
    seat = int(seat_text)
    verb = rest[0]
    if verb in ("stand", "miss", "throw"):
        return Action.declare(seat, verb)
    if verb == "pool":
        return Action(seat, "for-pool", True)
    if verb == "turnup":
        return Action(seat, "take-turnup", Tile.parse(rest[1]))
    if verb == "x":
        return Action(seat, "exchange", tuple(tiles(" ".join(rest[1:]))))
    tile, _, suit = verb.partition("/")
    return Action(seat, "play", Tile.parse(tile), suit=int(suit) if suit else None)


def push(hand: DominoHand, *texts: str) -> DominoHand:
    for text in texts:
        hand.push(act(text))
    return hand


def snapshot(hand: DominoHand) -> tuple[object, ...]:
    return (hand.to_act, hand.phase, [hand.holding(s) for s in range(hand.n)], hand.tricks, hand.current_trick,
            hand.actions, hand.misses_taken, hand.turnup_taken, hand.playing_for_pool)  # fmt: skip


def refused(hand: DominoHand, text: str) -> IllegalActionError:
    """Push an action that must be refused; check the hand is unchanged and return the error."""
    before = snapshot(hand)
    try:
        hand.push(act(text))
    except IllegalActionError as error:
        assert snapshot(hand) == before, "a refused action changed the hand"
        assert error.message and error.seat == act(text).seat
        return error
    raise AssertionError(f"{text!r} was allowed")


def legal(hand: DominoHand) -> list[str]:
    out = []
    for a in hand.legal_actions():
        if a.verb == "declare":
            out.append(a.value)
        elif a.verb == "play":
            out.append(f"{a.value}/{a.suit}" if a.suit is not None else str(a.value))
        elif a.verb == "for-pool":
            out.append("pool")
        elif a.verb == "take-turnup":
            out.append(f"turnup {a.value}")
        else:
            out.append(" ".join(["x", *(str(t) for t in a.value)]))
    return out
