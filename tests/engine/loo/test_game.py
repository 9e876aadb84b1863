"""Games of many hands: first deals per source, rotation, the carried pool, and a ledger that conserves chips."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo.games.loo.game import LooGame
from loo.games.loo.rules import FirstDealMode, LooMode, Rules
from loo.games.loo.state import DealKind
from tests.helpers.playing import finish_hand

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


@pytest.mark.law("L3-SGL-01", "L3-SGL-07", "L3-GEN-07")
def test_L3_SGL_01_07_peel_opens_with_a_single_then_deals_three_cards_with_a_miss() -> None:
    game = LooGame(Rules.preset("peel"), NAMES, random.Random(1))
    first = game.next_hand()
    assert first.deal_kind is DealKind.SINGLE and all(len(h or ()) == 1 for h in first.dealt)
    assert game.results and game.dealer == 1  # settled at once; the deal passes left (L3-GEN-07)
    second = game.next_hand()
    assert second.deal_kind is DealKind.NORMAL and len(second.miss) == 3


@pytest.mark.law("L3-SGL-08")
def test_L3_SGL_08_after_a_hand_with_nobody_looed_peel_deals_a_single_again() -> None:
    rng = random.Random(0)
    for seed in range(200):
        game = LooGame(Rules.preset("peel"), NAMES[:3], random.Random(seed))
        game.next_hand()
        for _ in range(12):
            hand = game.next_hand()
            if hand.is_over:
                continue
            finish_hand(game, rng)
            if game.results[-1].settlement.loo_free:
                assert game.next_hand().deal_kind is DealKind.SINGLE
                return
    raise AssertionError("no loo-free hand found")


@pytest.mark.law("L3-SGL-10", "AMB-55")
def test_L3_SGL_10_AMB_55_enquire_within_ante_everyone_pays_the_stake() -> None:
    rules = dataclasses.replace(Rules.preset("enquire-within"), first_deal_mode=FirstDealMode.EW_ALL_ANTE)
    game = LooGame(rules, NAMES, random.Random(2))
    hand = game.next_hand()
    assert hand.pool == 15 and hand.deal_kind is DealKind.NORMAL and len(hand.miss) == 3


@pytest.mark.law("L3-SGL-09")
def test_L3_SGL_09_enquire_within_first_round_is_a_single_without_a_miss() -> None:
    game = LooGame(Rules.preset("enquire-within"), NAMES, random.Random(2))
    hand = game.next_hand()
    assert hand.deal_kind is DealKind.SINGLE and hand.miss == () and hand.all_must_play


@pytest.mark.law("L3-SGL-11", "L3-BOLD-01")
def test_L3_SGL_11_L3_BOLD_01_the_encyclopedia_opens_with_a_bold_stand() -> None:
    game = LooGame(Rules.preset("britannica"), NAMES, random.Random(2))
    hand = game.next_hand()
    assert hand.bold_stand and hand.pool == 3


@pytest.mark.law("L3-OUT-01", "AMB-20")
def test_L3_OUT_01_AMB_20_the_dealer_sits_out_with_many_players() -> None:
    rules = dataclasses.replace(Rules.preset("peel"), dealer_sits_out_above=5)
    game = LooGame(rules, [*NAMES, "Fay", "Gus"], random.Random(4))
    game.next_hand()
    hand = game.next_hand()
    assert hand.dealt[hand.dealer] is None and hand.last != hand.dealer


@pytest.mark.law("L3-OUT-01")
def test_L3_OUT_01_the_dealer_never_sits_out_of_a_two_handed_game() -> None:
    """Above one player the dealer would sit out of a game of two and leave one to play alone (the
    contract suite's deal found it failing in the first lead): two must play, as when one withdraws."""
    rules = dataclasses.replace(Rules.preset("peel"), dealer_sits_out_above=1)
    game = LooGame(rules, ["Ann", "Ben"], random.Random(4))
    rng = random.Random(4)
    for _ in range(3):
        hand = game.next_hand()
        assert all(cards is not None for cards in hand.dealt)  # both play
        finish_hand(game, rng)
    three = LooGame(rules, ["Ann", "Ben", "Cat"], random.Random(4))
    three.next_hand()
    finish_hand(three, rng)
    hand = three.next_hand()
    assert hand.dealt[hand.dealer] is None  # with three, the dealer sits out and two play


@pytest.mark.law("L3-WD-01", "L3-WD-03", "AMB-21")
def test_L3_WD_01_03_AMB_21_a_player_leaves_at_his_deal() -> None:
    rng = random.Random(5)
    game = LooGame(Rules.preset("peel"), NAMES, random.Random(5))
    game.next_hand()
    with pytest.raises(ValueError, match="L3-WD-01"):
        game.withdraw("Ann")
    leaving = game.players[game.dealer]
    game.withdraw(leaving)
    hand = game.next_hand()
    assert hand.dealt[hand.dealer] is None  # he deals to the others, not to himself
    if not hand.is_over:
        finish_hand(game, rng)
    assert leaving not in game.players and len(game.players) == 4
    assert game.conserved()


@pytest.mark.law("AMB-23", "L3-END-02")
def test_AMB_23_the_game_may_end_when_all_have_dealt_equally_and_nobody_was_looed() -> None:
    rng = random.Random(9)
    game = LooGame(Rules.preset("peel"), NAMES[:3], random.Random(9))
    ended = False
    for _ in range(60):
        if game.next_hand().is_over is False:
            finish_hand(game, rng)
        if game.can_end():
            counts = {game.deals_by[p] for p in game.players}
            assert len(counts) == 1 and not game.results[-1].settlement.looed
            ended = True
            break
    assert ended
    game.divide_pool()  # L3-END-02
    assert game.pool == 0 and game.conserved()


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["peel", "enquire-within", "britannica", "pam", "irish"]),
    st.integers(2, 7),
    st.integers(0, 2**32),
    st.sampled_from(list(LooMode)),
)
def test_no_chip_is_created_or_lost_over_long_games(preset: str, players: int, seed: int, mode: LooMode) -> None:
    rules = dataclasses.replace(Rules.preset(preset), loo_mode=mode, loo_cap=20)
    rng = random.Random(seed)
    game = LooGame(rules, NAMES[:players] + ["Fay", "Gus"][: max(0, players - 5)], random.Random(seed))
    for _ in range(25):
        hand = game.next_hand()
        assert game.conserved()
        if not hand.is_over:
            finish_hand(game, rng)
        assert game.conserved()
        assert game.pool >= 0
    totals = game.balances()
    assert sum(totals.values()) == -game.pool


@pytest.mark.law("L3-END-03", "AMB-22")
def test_L3_END_03_AMB_22_a_last_round_ends_the_game_without_loos() -> None:
    rng = random.Random(12)
    game = LooGame(Rules.preset("peel"), NAMES, random.Random(12))
    game.next_hand()
    hand = game.next_hand(final=True)
    assert hand.deal_kind is DealKind.FINAL and hand.miss == ()
    finish_hand(game, rng)
    assert game.results[-1].settlement.loos == (0,) * 5 and game.conserved()


@pytest.mark.law("CF-06")
def test_CF_06_a_game_may_cut_for_its_first_dealer_with_each_sources_values() -> None:
    from loo.core.ledger import cut_value

    for preset, courts_equal in (("peel", False), ("enquire-within", True)):
        rules = Rules.preset(preset)
        assert rules.courts_equal_in_cut is courts_equal
        game = LooGame(rules, NAMES, random.Random(21), first_dealer=None)
        last = game.cuts[-1]
        values = [cut_value(card, courts_equal=courts_equal) for _, card in last]
        assert game.players[game.dealer] == last[values.index(min(values))][0]
