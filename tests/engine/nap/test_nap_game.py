"""Nap games of many hands: the first dealer, the deal passing, the pool fed and carried, and the ledger."""

from __future__ import annotations

import random

import pytest

from loo.core.cards import Card
from loo.core.ledger import cut_value
from loo.games.nap.bots import NapThumbBot
from loo.games.nap.game import NapGame
from loo.games.nap.rules import KittyMode, NapRules
from tests.helpers.playing import finish_hand

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.mark.law("NAP-DEAL-01")
def test_NAP_DEAL_01_the_lowest_card_turned_deals_the_ace_counting_lowest() -> None:
    assert cut_value(Card.parse("AS"), courts_equal=False) == 1 < cut_value(Card.parse("2C"), courts_equal=False)
    assert cut_value(Card.parse("KD"), courts_equal=False) == 13
    for seed in range(30):
        game = NapGame(NapRules(), PLAYERS, random.Random(seed), first_dealer=None)
        last = game.cuts[-1]
        values = [cut_value(card, courts_equal=False) for _, card in last]
        assert values.count(min(values)) == 1 and last[values.index(min(values))][0] == PLAYERS[game.dealer]


@pytest.mark.law("NAP-DEAL-06")
def test_NAP_DEAL_06_the_deal_passes_to_the_left_after_each_hand() -> None:
    rng = random.Random(4)
    game = NapGame(NapRules(), PLAYERS, rng, first_dealer=2)
    dealers = []
    for _ in range(6):
        hand = game.next_hand()
        dealers.append(hand.dealer)
        assert hand.eldest == (hand.dealer + 1) % 4 and hand.to_act == hand.eldest
        finish_hand(game, rng, NapThumbBot())
        game.settle()
    assert dealers == [2, 3, 0, 1, 2, 3]


@pytest.mark.law("NAP-POOL-02")
def test_NAP_POOL_02_each_dealer_puts_one_unit_into_the_pool() -> None:
    rng = random.Random(1)
    game = NapGame(NapRules(kitty_mode=KittyMode.DEALER, unit=2), PLAYERS, rng)
    game.next_hand()
    assert game.pool == 2 and [(e.player, e.amount, e.why) for e in game.ledger] == [("Ann", 2, "kitty")]
    finish_hand(game, rng, NapThumbBot())
    game.settle()
    assert game.conserved()


@pytest.mark.law("NAP-POOL-03", "AMB-40")
def test_NAP_POOL_03_AMB_40_the_dealer_puts_in_three_and_every_other_player_one() -> None:
    rng = random.Random(1)
    game = NapGame(NapRules(kitty_mode=KittyMode.DEALER_AND_PLAYERS), PLAYERS, rng, first_dealer=1)
    hand = game.next_hand()
    assert game.pool == 6 and hand.pool == 6
    assert {e.player: e.amount for e in game.ledger} == {"Ann": 1, "Ben": 3, "Cat": 1, "Dan": 1}


def test_the_pool_is_carried_until_a_nap_takes_it_and_the_ledger_always_balances() -> None:
    rng = random.Random(8)
    rules = NapRules(kitty_mode=KittyMode.DEALER, wellington=True, failed_nap_doubles_pool=True)
    game = NapGame(rules, PLAYERS[:3], rng)  # three players: the rule of thumb calls Nap more often (NAP-STR-01..03)
    taken = 0
    for _ in range(200):
        before = game.pool
        hand = game.next_hand()
        assert hand.pool == before + 1
        finish_hand(game, rng, NapThumbBot())
        result = game.settle()
        s = result.settlement
        assert game.conserved() and game.pool == s.next_pool
        if any(s.pool_taken):
            taken += 1
            assert s.call in ("nap", "wellington") and s.made and game.pool == 0
    assert taken > 0
    assert sum(game.balances().values()) + game.pool == 0


def test_a_redeal_keeps_the_dealer_and_charges_no_second_feed() -> None:
    rng = random.Random(3)
    game = NapGame(NapRules(kitty_mode=KittyMode.DEALER, dealer_forced_one=False), PLAYERS, rng)
    hand = game.next_hand()
    for _ in range(4):
        hand.push(hand.legal_actions()[0])  # everyone passes
    result = game.settle()
    assert result.settlement.reason == "redeal" and game.dealer == 0 and game.pool == 1
    game.next_hand()
    assert game.pool == 1 and len(game.ledger) == 1


def test_a_game_refuses_what_it_cannot_seat() -> None:
    with pytest.raises(ValueError):
        NapGame(NapRules(), ["Ann"], random.Random(1))
    with pytest.raises(ValueError):
        NapGame(NapRules(), ["Ann", "Ann"], random.Random(1))
    with pytest.raises(ValueError, match="AMB-02"):
        NapGame(NapRules(), [f"p{i}" for i in range(11)], random.Random(1))
    game = NapGame(NapRules(), PLAYERS, random.Random(1))
    game.next_hand()
    with pytest.raises(ValueError):
        game.next_hand()
    with pytest.raises(ValueError):
        game.settle()
