"""``clone()``, the hand's public copy for a sampling player's playout (no bot copies a hand's
private state itself any more): playing on the copy leaves the hand as it was, and the copy has
no history to take back."""

from __future__ import annotations

import random

import pytest

from loo.kits import GAMES, kit


@pytest.mark.parametrize("game", GAMES)
def test_playing_on_a_clone_leaves_the_hand_as_it_was(game: str) -> None:
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    rng = random.Random(f"clone:{game}")
    for n in range(40):
        hand = game_kit.deal(rules, rng, 4, n % 4, game_kit.pool(rules, 4))
        for _ in range(rng.randrange(8)):
            if hand.is_over:
                break
            hand.push(rng.choice(hand.legal_actions()))
        if hand.is_over:
            continue
        seat = hand.to_act
        before = (hand.view(seat), hand.legal_actions(), list(hand.actions))
        copy = hand.clone()
        assert copy.view(seat) == before[0] and copy.actions == []
        while not copy.is_over:
            copy.push_unchecked(rng.choice(copy.legal_actions()))
        assert (hand.view(seat), hand.legal_actions(), list(hand.actions)) == before
        assert not hand.is_over and copy.settlement is not None
