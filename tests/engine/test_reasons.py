"""Every game's settlement names how the hand ended with a member of one enumeration
(loo.core.reasons.Reason), which records write as the plain words they always were."""

from __future__ import annotations

import json
import random

import pytest

from loo.core.reasons import Reason
from loo.kits import GAMES, kit
from loo.records import check, record_type


@pytest.mark.parametrize("game", GAMES)
def test_each_games_settlements_give_a_reason_of_the_one_enumeration(game: str) -> None:
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    rng = random.Random(f"reasons:{game}")
    seen: set[Reason] = set()
    for n in range(150):
        seats = 4 if game.startswith("domino") else 3 + n % 3
        hand = game_kit.deal(rules, rng, seats, n % seats, game_kit.pool(rules, seats))
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
        reason = hand.settlement.reason
        assert isinstance(reason, Reason), (game, reason)
        seen.add(reason)
        if n % 10 == 0:  # where loo check gives the reason (Nap), it writes its plain words
            status, output = check(json.dumps(record_type(game).of_hand(hand).to_json()))
            assert status == 0 and json.loads(json.dumps(output)).get("reason", reason.value) == reason.value
    assert Reason.PLAYED in seen, seen
