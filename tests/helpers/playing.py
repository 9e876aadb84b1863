"""Playing hands on in the tests, for every game: one place for "play to the end with random legal
moves", "... with these bots", "play until the play begins", "finish the game's hand and settle it"
and "finish a table's hand as its reader" (no tests here).

Who chooses is said the same way everywhere: no ``rng`` and no ``bots``, the first legal action
(a hand played the same way every time); an ``rng`` alone, a random legal action from it; ``bots``
(one for every seat, or a list by seat) with an ``rng``, each seat's bot from that seat's view, its
choice checked against the view's legal actions before the hand is asked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from loo.core.actions import Action
from loo.core.protocols import Bot, Hand, HandResult, TableGame

__all__ = ["chooser", "finish_hand", "finish_table", "play_out", "play_until", "random_legal"]

H = TypeVar("H", bound=Hand)
Chooser = Callable[[Hand], Action]

# More actions than any hand of any game takes (Nap's teaching table's careless players aside).
MOST_STEPS = 400


def random_legal(rng: random.Random) -> Chooser:
    """A random legal action from ``rng``."""
    return lambda hand: rng.choice(hand.legal_actions())


def first_legal(hand: Hand) -> Action:
    return hand.legal_actions()[0]


def chooser(rng: random.Random | None = None, bots: Bot[Any] | Sequence[Bot[Any]] | None = None) -> Chooser:
    """Who chooses, as the module's text says."""
    if bots is None:
        return first_legal if rng is None else random_legal(rng)
    if rng is None:
        raise ValueError("bots choose with an rng")
    by_seat = bots if isinstance(bots, Sequence) else None
    one: Bot[Any] | None = None if by_seat is not None else bots  # type: ignore[assignment]
    bot_rng = rng

    def choose(hand: Hand) -> Action:
        seat = hand.to_act
        assert seat is not None, "nobody is to act in a hand that is not over"
        view = hand.view(seat)
        bot = by_seat[seat] if by_seat is not None else one
        assert bot is not None
        action = bot.choose(view, bot_rng)
        assert action in view.legal, (action, view.legal)
        return action

    return choose


def play_until(
    hand: H,
    stop: Callable[[H], bool],
    rng: random.Random | None = None,
    bots: Bot[Any] | Sequence[Bot[Any]] | None = None,
) -> H:
    """``hand`` played on through the checked path (``push``) until ``stop(hand)`` or the hand is over."""
    choose = chooser(rng, bots)
    for _ in range(MOST_STEPS):
        if hand.is_over or stop(hand):
            return hand
        hand.push(choose(hand))
    raise AssertionError(f"the hand did not end in {MOST_STEPS} actions")


def play_out(hand: H, rng: random.Random | None = None, bots: Bot[Any] | Sequence[Bot[Any]] | None = None) -> H:
    """``hand`` played to the end (see :func:`play_until`)."""
    return play_until(hand, lambda _: False, rng, bots)


def finish_hand(
    game: TableGame, rng: random.Random | None = None, bots: Bot[Any] | Sequence[Bot[Any]] | None = None
) -> HandResult:
    """The hand in play at ``game`` played to the end and settled in its books."""
    assert game.hand is not None, "no hand is in play"
    play_out(game.hand, rng, bots)
    return game.settle()


class Table(Protocol):
    """A table a reader plays at (``widgets.table.model.TableModel``): its hand, what the reader may do
    and the reader's act, True if the table took it."""

    @property
    def hand(self) -> Hand: ...

    def legal(self) -> list[Action]: ...

    def act(self, action: Action) -> bool: ...


def finish_table(table: Table, rng: random.Random | None = None) -> int:
    """The table's hand played to the end by its reader (random legal actions from ``rng``, else the
    first), each action taken; the number of actions."""
    for steps in range(MOST_STEPS):
        if table.hand.is_over:
            return steps
        legal = table.legal()
        assert table.act(rng.choice(legal) if rng is not None else legal[0])
    raise AssertionError(f"the hand did not end in {MOST_STEPS} actions")
