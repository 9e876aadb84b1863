"""The laws of the declarations, over plain values, for the hand and the fast simulator alike:
what a player may declare, and the dealer's rights (playing for the pool, taking the turn-up)."""

from __future__ import annotations

from collections.abc import Sequence

from loo.games.dominoes.rules import DominoLoneOpponentRule, DominoRules

__all__ = ["declarations", "may_play_for_pool", "may_take_turnup"]


def declarations(*, seats: int, misses_left: int) -> list[str]:
    """What a player may declare, in the order the hand lists them: play his tiles (DL-DECL-01),
    take a miss while one is left (DL-DECL-02, DL-DECL-04; a dummy at Rounce, DR-03), or drop out,
    which nobody may do with two players (DL-DECL-05, AMB-45).

    >>> declarations(seats=4, misses_left=0), declarations(seats=2, misses_left=2)
    (['stand', 'throw'], ['stand', 'miss'])
    """
    options = ["stand"]
    if misses_left > 0:
        options.append("miss")
    if seats >= 3:
        options.append("throw")
    return options


def may_play_for_pool(rules: DominoRules, *, seats: int, before_dealer: Sequence[str | None], misses_left: int) -> bool:
    """DL-DLR-03, DL-DLR-07: the dealer may play for the pool when the players have agreed it, there
    are four, a single other player is in (``before_dealer`` are the others' declarations) and he
    is on the miss, with no miss left."""
    if rules.lone_opponent_rule is not DominoLoneOpponentRule.DOMINO_FOR_POOL or seats != 4:
        return False
    others = [d for d in before_dealer if d in ("stand", "miss")]
    return len(others) == 1 and others[0] == "miss" and misses_left == 0


def may_take_turnup(rules: DominoRules, *, turnup_taken: bool) -> bool:
    """DL-DLR-01, AMB-48: the dealer keeping his hand may take the turn-up, where that is agreed, once."""
    return rules.dealer_takes_turnup and not turnup_taken
