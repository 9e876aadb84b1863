"""The domino package's shared parts: the hand's public readers the bots play through, worlds built
from a view, and the laws written once (suits, duties, declarations, settlement) that the hand and
the fast simulator both call (issue 19)."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest

from loo.core.hand import Phase
from loo.core.tiles import full_set
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.dominoes import DominoHand, DominoLoneOpponentRule, DominoRules, determinize
from loo.games.dominoes.declare import declarations, may_play_for_pool
from loo.games.dominoes.suits import follower_tiles, followers_of, follows, lead_choices, power, powers_of, trumps_of

PACKAGE = Path(__file__).resolve().parents[3] / "loo" / "games" / "dominoes"


def random_positions(preset: str, seats: int, hands: int) -> list[DominoHand]:
    """A copy of the hand at every decision of randomly played hands."""
    out = []
    rng = random.Random(seats * 7 + len(preset))
    for i in range(hands):
        hand = DominoHand.deal(DominoRules.preset(preset), rng, seats=seats, dealer=i % seats, pool=25)
        while not hand.is_over:
            out.append(hand.clone())
            legal = hand.legal_actions()
            hand.push(legal[int(rng.random() * len(legal))])
    return out


@pytest.mark.parametrize("preset", ["celko", "rounce"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_playable_is_the_tiles_of_the_legal_plays(preset: str, seats: int) -> None:
    for hand in random_positions(preset, seats, 15):
        seat = hand.to_act
        assert seat is not None
        plays = [a.value for a in hand.legal_actions() if a.verb == "play"]
        assert hand.playable(seat) == list(dict.fromkeys(plays))
        if hand.phase is Phase.PLAY:
            assert hand.led == hand.view(seat).led
            assert hand.put_out(seat) == hand.view(seat).put_out


@pytest.mark.parametrize("preset", ["celko", "rounce"])
def test_a_world_built_at_a_view_shows_that_view_and_offers_the_same_choices(preset: str) -> None:
    rng = random.Random(3)
    for hand in random_positions(preset, 4, 10):
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        world = determinize(view, rng)
        assert world.view(seat) == view
        assert world.legal_actions() == hand.legal_actions()


def test_no_bot_reads_the_hand_s_private_state() -> None:
    """The bots see views and play out through the hand's public API: no ``x._name`` but on self."""
    tree = ast.parse((PACKAGE / "bots.py").read_text(encoding="utf-8"))
    private = [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]
    assert private == []


def test_the_fast_simulator_keeps_no_laws_of_its_own() -> None:
    """It calls the hand's rule functions rather than writing the duties again (no third copy)."""
    source = (PACKAGE / "fast.py").read_text(encoding="utf-8")
    for shared in ("lead_choices(", "follower_tiles(", "trick_winner(", "settle_play(", "settle_uncontested(",
                   "declarations(", "may_play_for_pool("):  # fmt: skip
        assert shared in source, shared
    assert "VoidRule." not in source and "WinnerLeadsTrump." not in source and "FirstLeadRule." not in source


@pytest.mark.parametrize("trump", range(7))
def test_the_tables_agree_with_the_suit_functions(trump: int) -> None:
    for led in range(7):
        assert followers_of(led, trump) == {t for t in full_set() if follows(t, led, trump)}
        assert powers_of(led, trump) == {t: power(t, led, trump) for t in full_set()}
    assert trumps_of(trump) == {t for t in full_set() if t.has(trump)}


def test_the_duties_work_on_any_piece() -> None:
    """The leader's and follower's duties over integers, as the fast simulator uses them."""
    trumps = {1: 3, 2: 5}  # piece -> rank among trumps; 7 and 8 are plain

    def leads(hand: list[int], first: FirstLeadRule, winner: WinnerLeadsTrump, after: bool) -> list[int]:
        return lead_choices(hand, is_trump=trumps.__contains__, trump_rank=trumps.__getitem__, first_lead_rule=first,
                            winner_rule=winner, after_a_trick=after)  # fmt: skip

    assert leads([7, 1, 2], FirstLeadRule.ANY_TRUMP, WinnerLeadsTrump.OFF, False) == [1, 2]
    assert leads([7, 1, 2], FirstLeadRule.HIGHEST, WinnerLeadsTrump.OFF, False) == [2]
    assert leads([7, 1], FirstLeadRule.HIGHEST, WinnerLeadsTrump.ANY, True) == [1]
    assert leads([7, 1], FirstLeadRule.HIGHEST, WinnerLeadsTrump.OFF, True) == [7, 1]

    def follow(hand: list[int]) -> list[int]:
        return follower_tiles(hand, follows=lambda p: False, is_trump=trumps.__contains__, beats=lambda p: True,
                              void_rule=VoidRule.MUST_TRUMP)  # fmt: skip

    assert follow([7, 1, 8]) == [1]
    assert follow([8]) == [8]


def test_the_declarations_and_the_dealer_s_right_to_play_for_the_pool() -> None:
    assert declarations(seats=4, misses_left=1) == ["stand", "miss", "throw"]
    assert declarations(seats=2, misses_left=0) == ["stand"]
    rules = dataclasses.replace(DominoRules.preset("celko"), lone_opponent_rule=DominoLoneOpponentRule.DOMINO_FOR_POOL)
    assert may_play_for_pool(rules, seats=4, before_dealer=["miss", "throw", "throw"], misses_left=0)
    assert not may_play_for_pool(rules, seats=4, before_dealer=["miss", "throw", "throw"], misses_left=1)
    assert not may_play_for_pool(rules, seats=4, before_dealer=["stand", "throw", "throw"], misses_left=0)
    assert not may_play_for_pool(rules, seats=3, before_dealer=["miss", "throw"], misses_left=0)
    off = dataclasses.replace(rules, lone_opponent_rule=DominoLoneOpponentRule.OFF)
    assert not may_play_for_pool(off, seats=4, before_dealer=["miss", "throw", "throw"], misses_left=0)
