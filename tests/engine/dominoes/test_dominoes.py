"""Domino Loo and Domino Rounce, law by law (catalogue group F). Each test names the IDs it checks."""

from __future__ import annotations

import dataclasses
import random

import pytest

from loo.core.hand import Phase
from loo.core.laws import LAWS
from loo.core.rules import RecordError
from loo.core.tiles import Tile, full_set
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.dominoes import (
    DominoGame,
    DominoHand,
    DominoLoneOpponentRule,
    DominoRules,
    DominoScoring,
    Variant,
    deal_tiles,
    dummy_sizes,
    follows,
    power,
    rank_in,
)
from tests.helpers.dominoes_helpers import FOUR, act, legal, make, push, refused, tiles
from tests.helpers.playing import play_out


class Unshuffled(random.Random):
    """Deals the set in its own order, so a test knows where every tile goes."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        return None


def T(text: str) -> Tile:
    return Tile.parse(text)


def all_stand(hand: DominoHand) -> DominoHand:
    return push(hand, *(f"{(hand.dealer + i) % hand.n} stand" for i in range(1, hand.n + 1)))


# ----- equipment and deal (F.1) -------------------------------------------------------------------------


@pytest.mark.law("DL-EQP-01")
def test_DL_EQP_01_a_double_six_set_of_28_tiles_every_one_dealt_once() -> None:
    assert len(full_set()) == 28 and len(set(full_set())) == 28
    for seats in (2, 3, 4):
        hands, turnup, stock = deal_tiles(DominoRules(), random.Random(seats), seats=seats, dealer=0)
        everything = [t for h in hands for t in h] + [turnup, *stock]
        assert sorted(everything) == sorted(full_set())
    assert DominoRules().deal_price == 5  # chips for the pool


@pytest.mark.law("DL-EQP-02")
def test_DL_EQP_02_two_three_or_four_players() -> None:
    for seats in (1, 5):
        with pytest.raises(ValueError, match="DL-EQP-02"):
            deal_tiles(DominoRules(), random.Random(1), seats=seats, dealer=0)
        with pytest.raises(ValueError, match="DL-EQP-02"):
            DominoGame(DominoRules(), [f"p{i}" for i in range(seats)], random.Random(1))
    assert make("1-0 2-0 3-0 4-0 5-0 | 1-1 2-1 3-1 4-1 5-1", turnup="6-6").n == 2


@pytest.mark.law("DL-DEAL-01", "DL-DEAL-02", "DL-SC-01")
def test_DL_DEAL_01_DL_DEAL_02_DL_SC_01_stakes_before_the_deal_and_the_deal_passes_left() -> None:
    game = DominoGame(DominoRules(), ["Ann", "Ben", "Cat", "Dan"], random.Random(2), first_dealer=3)
    dealers = []
    for _ in range(6):
        hand = game.next_hand()
        dealers.append(hand.dealer)
        if len(dealers) == 1:
            # DL-SC-01: five from each and five more from the dealer, in the pool before a tile is dealt
            assert [(e.player, e.amount, e.why) for e in game.ledger] == [
                ("Ann", 5, "ante"), ("Ben", 5, "ante"), ("Cat", 5, "ante"), ("Dan", 5, "ante"), ("Dan", 5, "deal")
            ]  # fmt: skip
            assert hand.pool == 25
        while not hand.is_over:
            hand.push(hand.legal_actions()[0])
        game.settle()
    assert dealers == [3, 0, 1, 2, 3, 0]
    three = DominoGame(DominoRules(), ["Ann", "Ben", "Cat"], random.Random(2))
    assert three.next_hand().pool == 20


@pytest.mark.law("DL-DEAL-03")
def test_DL_DEAL_03_five_tiles_each_drawn_in_turn_from_the_dealers_left() -> None:
    hands, turnup, stock = deal_tiles(DominoRules(), Unshuffled(), seats=3, dealer=1)
    order = list(full_set())
    assert hands[2] == order[0:5] and hands[0] == order[5:10] and hands[1] == order[10:15]
    assert turnup == order[15] and stock == order[16:]  # then the dealer turns the next tile (DL-DEAL-04)
    assert all(len(h) == 5 for h in hands)


@pytest.mark.law("DL-DEAL-04")
def test_DL_DEAL_04_the_higher_end_of_the_turnup_is_trumps() -> None:
    assert make(turnup="6-0").trump == 6
    assert make("1-0 2-0 3-0 4-0 6-0 | 1-1 2-1 3-1 4-1 6-1", turnup="2-5").trump == 5


@pytest.mark.law("DL-DEAL-05")
def test_DL_DEAL_05_the_turnup_stays_face_up_for_everyone_even_once_the_dealer_takes_it() -> None:
    h = push(make(), "0 stand", "1 stand", "2 stand", "3 turnup 3-0")
    assert h.turnup_taken and T("6-0") in h.holding(3)
    assert all(h.view(seat).turnup == T("6-0") for seat in range(4))


# ----- suits (F.1) ------------------------------------------------------------------------------------------


@pytest.mark.law("DL-SUIT-01", "AMB-46")
def test_DL_SUIT_01_AMB_46_suits_zero_to_six_ranked_by_the_other_end_the_double_highest() -> None:
    assert [rank_in(T(t), 4) for t in ("4-0", "4-3", "5-4", "6-4", "4-4")] == [0, 3, 5, 6, 7]
    fours = [T(t) for t in ("4-0", "4-3", "5-4", "6-4", "4-4")]
    powers = [power(t, 4, trump=2) for t in fours]
    assert powers == sorted(powers) and len(set(powers)) == 5
    # AMB-46: trumps rank among themselves by their other end, the trump double highest
    assert power(T("2-2"), 4, 2) > power(T("6-2"), 4, 2) > power(T("2-0"), 4, 2) > power(T("4-4"), 4, 2)


@pytest.mark.law("DL-SUIT-02")
def test_DL_SUIT_02_a_tile_carrying_the_trump_number_is_only_a_trump() -> None:
    assert follows(T("6-5"), 5, trump=6) is False and follows(T("6-5"), 6, trump=6) is True
    # Ann leads the double five; Ben's 6-5 is no five: he is void in fives and must trump with it.
    h = push(make("5-5 5-0 4-0 3-0 2-0 | 6-5 1-1 1-0 2-1 3-1", turnup="6-0"), "0 stand", "1 stand", "0 5-5")
    assert legal(h) == ["6-5"]
    push(h, "1 6-5")
    assert h.tricks[0].winner == 1


@pytest.mark.law("DL-SUIT-03", "DL-LEAD-04")
def test_DL_SUIT_03_DL_LEAD_04_a_plain_tile_leads_either_of_its_suits_as_announced() -> None:
    h = push(make("5-3 4-4 2-1 1-0 0-0 | 6-6 6-5 3-3 2-2 1-1", turnup="6-0"), "0 stand", "1 stand")
    assert legal(h) == ["5-3/5", "5-3/3", "4-4", "2-1/2", "2-1/1", "1-0/1", "1-0/0", "0-0"]
    assert refused(h, "0 5-3").law == "DL-LEAD-04"  # no suit announced
    assert refused(h, "0 5-3/4").law == "DL-LEAD-04"  # not one of its ends
    push(h, "0 5-3/3")
    assert h.view(1).led == 3 and legal(h) == ["3-3"]  # threes were called for, not fives
    h.pop()
    push(h, "0 5-3/5")
    assert legal(h) == ["6-6", "6-5"]  # void in fives: Ben must trump (DL-PLAY-02)


# ----- declarations (F.2) --------------------------------------------------------------------------------


@pytest.mark.law("DL-DECL-01")
def test_DL_DECL_01_from_the_dealers_left_each_plays_takes_the_miss_or_drops_out_in_turn() -> None:
    h = make()
    assert h.to_act == 0 and h.phase is Phase.DECLARE and legal(h) == ["stand", "miss", "throw"]
    assert refused(h, "1 stand").law == "DL-DECL-01"
    assert refused(h, "0 6-6").law == "DL-DECL-01"  # no play before every declaration
    for seat in range(3):
        push(h, f"{seat} stand")
        assert h.to_act == seat + 1
    push(h, "3 stand")
    assert h.phase is Phase.PLAY
    assert refused(h, "0 stand").law == "DL-DECL-01"


@pytest.mark.law("DL-DECL-02", "AMB-45")
def test_DL_DECL_02_AMB_45_the_miss_is_five_fresh_tiles_and_the_old_hand_goes_out_unseen() -> None:
    h = push(make(), "0 miss")
    assert h.holding(0) == tuple(tiles("5-4 5-3 5-2 5-1 4-4"))
    assert h.misses_taken == (0,)
    assert set(h.view(0).put_out) == set(tiles("6-6 6-5 6-4 1-0 2-0"))
    for other in (1, 2, 3):
        assert h.view(other).put_out == () and h.view(other).hand_sizes[0] == 5


@pytest.mark.law("DL-DECL-03")
def test_DL_DECL_03_a_miss_once_taken_must_be_played_and_can_be_looed() -> None:
    h = push(make(), "0 miss", "1 throw", "2 stand", "3 stand")
    assert refused(h, "0 throw").law == "DL-DECL-03"
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None and 0 in h.players
    assert (0 in s.looed) == (s.tricks_won[0] == 0)


@pytest.mark.law("DL-DECL-04", "CF-12")
def test_DL_DECL_04_CF_12_two_misses_with_three_players_one_with_four_and_two_may_take_one_each() -> None:
    four = push(make(), "0 miss")
    assert legal(four) == ["stand", "throw"]
    assert refused(four, "1 miss").law == "DL-DECL-04"
    three = make("6-6 6-5 6-4 1-0 2-0 | 2-1 3-1 4-1 3-2 4-2 | 4-3 3-3 2-2 0-0 5-0", turnup="6-0")
    assert len(three.misses) == 2
    push(three, "0 miss", "1 miss")
    assert "miss" not in legal(three) and refused(three, "2 miss").law == "DL-DECL-04"
    two = make("6-6 6-5 6-4 1-0 2-0 | 2-1 3-1 4-1 3-2 4-2", turnup="6-0")
    push(two, "0 miss")
    assert "miss" in legal(two)
    push(two, "1 miss")
    assert two.holding(0) != two.holding(1) and two.phase is Phase.PLAY


@pytest.mark.law("DL-DECL-05", "AMB-45")
def test_DL_DECL_05_AMB_45_dropping_out_only_with_three_or_four_and_it_neither_wins_nor_loses() -> None:
    two = make("6-6 6-5 6-4 1-0 2-0 | 2-1 3-1 4-1 3-2 4-2", turnup="6-0")
    assert legal(two) == ["stand", "miss"]
    assert refused(two, "0 throw").law == "DL-DECL-05"
    h = push(make(), "0 stand", "1 throw", "2 stand", "3 stand")
    assert h.holding(1) == () and h.players == (0, 2, 3)
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None and s.payouts[1] == 0 and s.loos[1] == 0 and 1 not in s.looed


# ----- the dealer (F.2) -------------------------------------------------------------------------------------------


@pytest.mark.law("DL-DLR-01", "AMB-48")
def test_DL_DLR_01_AMB_48_a_dealer_keeping_his_hand_may_take_the_turnup_for_a_tile() -> None:
    h = push(make(), "0 stand", "1 stand", "2 stand")
    assert legal(h) == ["stand", "miss", "throw", "turnup 6-3", "turnup 6-2", "turnup 1-1", "turnup 5-5", "turnup 3-0"]
    assert refused(h, "3 turnup 4-4").law == "DL-DLR-01"  # he does not hold it
    push(h, "3 turnup 3-0")
    assert set(h.holding(3)) == set(tiles("6-3 6-2 1-1 5-5 6-0")) and h.declared(3) == "stand"
    assert h.view(3).put_out == (T("3-0"),) and h.view(0).put_out == ()  # face down, out of play
    assert h.trump == 6 and h.phase is Phase.PLAY  # trumps unchanged; he plays
    # only the dealer, only where agreed, and not with the miss (one declaration: the miss replaces his hand)
    h = make()
    assert refused(h, "0 turnup 1-0").law == "DL-DLR-01"
    h = push(make(dealer_takes_turnup=False), "0 stand", "1 stand", "2 stand")
    assert not any(a.startswith("turnup") for a in legal(h)) and refused(h, "3 turnup 3-0").law == "DL-DLR-01"
    h = push(make(), "0 stand", "1 stand", "2 stand", "3 miss")
    assert not h.turnup_taken and T("6-0") not in h.holding(3) and h.phase is Phase.PLAY


@pytest.mark.law("DL-DLR-01")
def test_DL_DLR_01_a_dealer_who_took_the_miss_is_refused_the_turnup_under_the_dealers_rule() -> None:
    """Issue 19, item 4: the refusal cites DL-DLR-01, not the turn to lead (DL-LEAD-01)."""
    h = push(make(), "0 stand", "1 stand", "2 stand", "3 miss")
    assert h.phase is Phase.PLAY and h.to_act == 0
    for tile in ("5-4", "6-3"):  # a tile of the miss he now holds, or one of the hand he gave up
        error = refused(h, f"3 turnup {tile}")
        assert error.law == "DL-DLR-01" and "took the miss" in str(error) and "turn-up" in str(error)
    # at Rounce the miss is a dummy, and he is refused while still discarding down to five
    rounce = push(make(preset="rounce"), "0 stand", "1 stand", "2 stand", "3 miss")
    assert rounce.phase is Phase.EXCHANGE and rounce.to_act == 3
    assert "took a dummy" in str(refused(rounce, "3 turnup 6-3"))
    # once he has declared otherwise, or already taken it, the same law says so
    stood = push(make(), "0 stand", "1 stand", "2 stand", "3 stand")
    assert refused(stood, "3 turnup 6-3").law == "DL-DLR-01"
    took = push(make(), "0 stand", "1 stand", "2 stand", "3 turnup 3-0")
    error = refused(took, "3 turnup 6-0")
    assert error.law == "DL-DLR-01" and "already taken" in str(error)
    # a non-dealer out of turn is still told whose turn it is
    assert refused(h, "1 2-1").law == "DL-LEAD-01"


@pytest.mark.law("DL-DLR-02")
def test_DL_DLR_02_everyone_but_the_dealer_drops_out_and_he_takes_the_pool() -> None:
    h = push(make(pool=55), "0 throw", "1 throw", "2 throw")
    s = h.settlement
    assert h.is_over and s is not None and s.reason == "dealer-uncontested"
    assert s.payouts == (0, 0, 0, 55) and s.tricks == () and s.looed == () and s.next_pool == 0


@pytest.mark.law("DL-DLR-03", "DL-DLR-07", "CF-14", "CF-33")
def test_DL_DLR_03_DL_DLR_07_CF_14_CF_33_the_dealer_plays_his_own_hand_for_the_pool_only_against_a_lone_miss() -> None:
    h = push(make(), "0 miss", "1 throw", "2 throw")
    assert "pool" in legal(h)
    push(h, "3 pool")
    assert h.playing_for_pool and h.players == (0, 3)
    assert set(h.holding(3)) == set(tiles("6-3 6-2 1-1 5-5 3-0"))  # his own hand (CF-33), not a miss
    # not against a player on his own hand (AMB-49), nor two players, nor with a miss still to take
    assert refused(push(make(), "0 stand", "1 throw", "2 throw"), "3 pool").law == "DL-DLR-07"
    assert refused(push(make(), "0 miss", "1 stand", "2 throw"), "3 pool").law == "DL-DLR-07"
    three = push(make("6-6 6-5 6-4 1-0 2-0 | 2-1 3-1 4-1 3-2 4-2 | 4-3 3-3 2-2 0-0 5-0", turnup="6-0"),
                 "0 miss", "1 throw")  # fmt: skip
    assert "pool" not in legal(three) and refused(three, "2 pool").law == "DL-DLR-03"
    off = push(make(lone_opponent_rule=DominoLoneOpponentRule.OFF), "0 miss", "1 throw", "2 throw")
    assert "pool" not in legal(off) and refused(off, "3 pool").law == "DL-DLR-03"
    assert refused(make(), "0 pool").law == "DL-DLR-03"


@pytest.mark.law("DL-DLR-04")
def test_DL_DLR_04_unless_he_announces_it_the_dealer_plays_for_himself() -> None:
    h = push(make(), "0 miss", "1 throw", "2 throw", "3 stand")
    assert not h.playing_for_pool and h.declared(3) == "stand"
    # having taken the turn-up, he still says which; until he does, nothing else is allowed
    h = push(make(), "0 miss", "1 throw", "2 throw", "3 turnup 3-0")
    assert h.to_act == 3 and h.phase is Phase.DECLARE and legal(h) == ["stand", "pool"]
    assert refused(h, "3 throw").law == "DL-DLR-04"
    push(h, "3 pool")
    assert h.playing_for_pool and T("6-0") in h.holding(3)


@pytest.mark.law("DL-DLR-04", "DL-DLR-01")
def test_DL_DLR_04_where_he_may_not_play_for_the_pool_taking_the_turnup_is_the_dealers_stand() -> None:
    """docs/records.md, Order of actions: with two players in against him, playing for the pool is
    barred (DL-DLR-07), so taking the turn-up is his stand; a `declare` after it is refused, saying
    so, not as a matter of turns."""
    h = push(make(), "0 stand", "1 stand", "2 throw", "3 turnup 3-0")
    assert h.declared(3) == "stand" and h.phase is Phase.PLAY and T("6-0") in h.holding(3)
    refusal = refused(h, "3 stand")
    assert refusal.law == "DL-DLR-04" and "taking it is the dealer's stand" in str(refusal), refusal


@pytest.mark.law("DL-DLR-05", "DL-SC-08", "DL-DLR-06")
def test_DL_DLR_05_DL_SC_08_DL_DLR_06_for_the_pool_he_wins_nothing_and_cannot_be_looed() -> None:
    # Ann's miss is weak; Dan plays for the pool and takes tricks: she cannot sweep by default.
    h = push(make(stock="5-3 5-2 5-1 4-0 5-4 4-4 6-1"), "0 miss", "1 throw", "2 throw", "3 pool")
    s = play_out(h).settlement
    assert s is not None and s.tricks_won[3] > 0 and s.payouts[3] == 0
    assert s.next_pool == 25 - s.payouts[0] + s.loos[0]  # his tricks' share stays in the pool
    # and taking no trick he is not looed
    deal = "1-0 2-0 3-0 4-0 5-0 | 2-1 3-1 4-1 3-2 4-2 | 4-3 3-3 2-2 0-0 5-5 | 5-1 1-1 4-4 5-2 6-1"
    h = push(make(deal, stock="6-6 6-5 6-4 6-3 6-2 5-4 5-3"), "0 miss", "1 throw", "2 throw", "3 pool")
    s = play_out(h).settlement
    assert s is not None and s.tricks_won == (5, 0, 0, 0) and s.looed == () and s.loos == (0, 0, 0, 0)
    assert s.payouts == (25, 0, 0, 0)


@pytest.mark.law("AMB-49")
def test_AMB_49_a_lone_player_on_his_own_hand_takes_the_pool_if_the_dealer_drops_out() -> None:
    h = push(make(pool=30), "0 stand", "1 throw", "2 throw", "3 throw")
    s = h.settlement
    assert s is not None and s.reason == "conceded" and s.payouts == (30, 0, 0, 0) and s.next_pool == 0
    h = push(make(pool=30), "0 stand", "1 throw", "2 throw", "3 stand")
    assert h.phase is Phase.PLAY and not h.playing_for_pool


# ----- leading (F.3) -----------------------------------------------------------------------------------------------


@pytest.mark.law("DL-LEAD-01", "CF-01")
def test_DL_LEAD_01_CF_01_the_eldest_leads_or_if_he_dropped_out_the_first_in_play() -> None:
    assert all_stand(make()).to_act == 0
    h = push(make(), "0 throw", "1 stand", "2 stand", "3 stand")
    assert h.to_act == 1
    assert refused(h, "2 4-3/4").law == "DL-LEAD-01"


@pytest.mark.law("DL-LEAD-02", "CF-02", "AMB-47")
def test_DL_LEAD_02_CF_02_AMB_47_two_or_more_trumps_lead_a_trump_any_or_by_option_the_highest() -> None:
    h = all_stand(make())
    assert legal(h) == ["6-6", "6-5", "6-4"]
    error = refused(h, "0 1-0/1")
    assert error.law == "DL-LEAD-02" and "Ann" in error.message
    h = all_stand(make(first_lead_rule=FirstLeadRule.HIGHEST))
    assert legal(h) == ["6-6"] and refused(h, "0 6-5").law == "DL-LEAD-02"
    # AMB-47: rule 1 binds every lead, not only the first, even where a winner need not lead a trump
    deal = "5-5 6-1 6-2 6-3 3-0 | 5-4 1-1 2-2 3-3 4-4"
    h = push(make(deal, turnup="6-0", winner_must_lead_trump=WinnerLeadsTrump.OFF), "0 stand", "1 stand", "0 6-1",
             "1 1-1")  # fmt: skip
    assert legal(h) == ["6-2", "6-3"]


@pytest.mark.law("DL-LEAD-03", "CF-03", "AMB-47")
def test_DL_LEAD_03_CF_03_AMB_47_the_winner_of_a_trick_leads_a_trump_if_he_holds_one() -> None:
    deal = "6-1 5-5 2-0 3-0 4-0 | 5-4 1-1 2-2 3-3 4-4"
    h = push(make(deal, turnup="6-0"), "0 stand", "1 stand")
    assert "5-5" in legal(h)  # one trump only: the first lead is free
    push(h, "0 5-5", "1 5-4")
    assert h.to_act == 0 and legal(h) == ["6-1"]
    assert refused(h, "0 2-0/2").law == "DL-LEAD-03"
    h = push(make(deal, turnup="6-0", winner_must_lead_trump=WinnerLeadsTrump.OFF), "0 stand", "1 stand", "0 5-5",
             "1 5-4")  # fmt: skip
    assert "2-0/2" in legal(h)
    # with nothing to lead but plain tiles the winner leads freely (AMB-47)
    g = push(make(), "0 stand", "1 stand", "2 stand", "3 stand", "0 6-6", "1 4-2", "2 0-0", "3 6-2", "0 6-5", "1 3-2",
             "2 2-2", "3 6-3", "0 6-4", "1 2-1", "2 3-3", "3 3-0")  # fmt: skip
    assert legal(g) == ["1-0/1", "1-0/0", "2-0/2", "2-0/0"]


@pytest.mark.law("CF-03")
def test_CF_03_the_highest_trump_after_a_win_when_agreed() -> None:
    deal = "6-1 6-2 5-5 3-0 4-0 | 5-4 1-1 2-2 3-3 4-4"
    h = push(make(deal, turnup="6-0", winner_must_lead_trump=WinnerLeadsTrump.HIGHER), "0 stand", "1 stand", "0 6-1",
             "1 1-1")  # fmt: skip
    assert legal(h) == ["6-2"]


@pytest.mark.law("DL-LEAD-05")
def test_DL_LEAD_05_a_tile_with_the_trump_number_is_announced_trump_first() -> None:
    h = push(make("6-3 5-5 2-1 1-0 0-0 | 3-3 6-6 4-4 4-1 2-0", turnup="3-0"), "0 stand", "1 stand")
    assert "6-3" in legal(h) and "6-3/6" not in legal(h)
    assert refused(h, "0 6-3/6").law == "DL-LEAD-05"
    push(h, "0 6-3/3")  # "3-6": the trump end named first
    assert h.view(1).led == 3 and legal(h) == ["3-3"]
    h = push(make("4-4 5-5 2-1 1-0 0-0 | 3-3 6-6 6-4 4-1 2-0", turnup="3-0"), "0 stand", "1 stand")
    assert refused(h, "0 4-4/2").law == "AMB-46"  # a double belongs only to its own number


# ----- play (F.3) ---------------------------------------------------------------------------------------------------


THREE = "5-5 5-0 4-0 3-0 2-0 | 6-5 1-1 1-0 2-1 3-1 | 6-1 0-0 4-4 3-3 2-2"


@pytest.mark.law("DL-PLAY-01")
def test_DL_PLAY_01_follow_suit_if_able() -> None:
    h = push(make("5-3 0-0 1-0 2-0 3-1 | 5-5 4-4 4-1 5-1 2-2", turnup="6-0"), "0 stand", "1 stand", "0 5-3/5")
    assert legal(h) == ["5-5", "5-1"]
    error = refused(h, "1 4-4")
    assert error.law == "DL-PLAY-01" and "Ben must follow suit" in error.message


@pytest.mark.law("DL-PLAY-02", "CF-04")
def test_DL_PLAY_02_CF_04_void_he_must_trump_even_when_his_trump_cannot_win() -> None:
    h = push(make(THREE, turnup="6-0"), "0 stand", "1 stand", "2 stand", "0 5-5", "1 6-5")
    assert legal(h) == ["6-1"]  # 6-1 loses to 6-5, but Cat must still trump
    assert refused(h, "2 0-0").law == "DL-PLAY-02"
    # CF-04: under the card rule he would need a trump that beats; 6-1 does not, so he may discard
    h = push(make(THREE, turnup="6-0", void_rule=VoidRule.MUST_OVERTRUMP_IF_POSSIBLE), "0 stand", "1 stand",
             "2 stand", "0 5-5", "1 6-5")  # fmt: skip
    assert set(legal(h)) == {"6-1", "0-0", "4-4", "3-3", "2-2"}


@pytest.mark.law("DL-PLAY-03")
def test_DL_PLAY_03_with_no_trump_and_none_of_the_suit_any_tile() -> None:
    h = push(make(THREE, turnup="6-0"), "0 stand", "1 stand", "2 stand", "0 5-5")
    assert legal(h) == ["6-5"]
    h = push(make("5-5 5-0 4-0 3-0 2-0 | 1-1 1-0 2-1 3-1 4-1", turnup="6-0"), "0 stand", "1 stand", "0 5-5")
    assert legal(h) == ["1-1", "1-0", "2-1", "3-1", "4-1"]


@pytest.mark.law("DL-PLAY-04")
def test_DL_PLAY_04_no_duty_to_beat_the_tiles_already_played() -> None:
    h = push(make("5-3 0-0 1-0 2-0 3-1 | 5-5 4-4 4-1 5-1 2-2", turnup="6-0"), "0 stand", "1 stand", "0 5-3/5")
    push(h, "1 5-1")  # 5-5 would win; the lower five is allowed
    assert h.tricks[0].winner == 0


@pytest.mark.law("DL-PLAY-05")
def test_DL_PLAY_05_the_rules_apply_in_order_lead_duties_before_the_announcement() -> None:
    h = all_stand(make())
    assert refused(h, "0 1-0").law == "DL-LEAD-02"  # a plain tile without a suit: the trump duty comes first
    h = push(make(THREE, turnup="6-0"), "0 stand", "1 stand", "2 stand", "0 5-5", "1 6-5")
    assert refused(h, "2 0-0").law == "DL-PLAY-02"


@pytest.mark.law("DL-TRK-01")
def test_DL_TRK_01_highest_trump_else_highest_of_the_suit_led_and_the_winner_leads() -> None:
    h = push(make(THREE, turnup="6-0"), "0 stand", "1 stand", "2 stand", "0 5-5", "1 6-5", "2 6-1")
    assert h.tricks[0].winner == 1 and h.tricks[0].suit == 5 and h.to_act == 1
    assert refused(h, "2 0-0/0").law == "DL-TRK-01"
    h = push(make("5-3 0-0 1-0 2-0 3-1 | 5-5 4-4 4-3 5-1 2-2", turnup="6-0"), "0 stand", "1 stand", "0 5-3/3", "1 4-3")
    assert h.tricks[0].winner == 0  # 5-3 ranks five among the threes, above 4-3's four


@pytest.mark.law("AMB-01")
def test_AMB_01_play_goes_clockwise_among_those_in_play() -> None:
    h = push(make(), "0 stand", "1 throw", "2 stand", "3 stand", "0 6-6")
    assert h.to_act == 2
    assert refused(h, "3 6-3").law == "AMB-01"


# ----- scoring with chips (F.4) -----------------------------------------------------------------------------------


@pytest.mark.law("DL-SC-02", "DL-SC-05", "AMB-50")
def test_DL_SC_02_DL_SC_05_AMB_50_an_empty_pool_is_anted_again_else_only_the_dealer_pays() -> None:
    game = DominoGame(DominoRules(), ["Ann", "Ben", "Cat", "Dan"], random.Random(5))
    empty_seen = carried_seen = False
    for _ in range(40):
        before = game.pool
        entries = len(game.ledger)
        hand = game.next_hand()
        stakes = [(e.player, e.amount, e.why) for e in game.ledger[entries:]]
        dealer = game.players[hand.dealer]
        if before == 0:
            empty_seen = True
            assert sorted(stakes) == sorted([(p, 5, "ante") for p in game.players] + [(dealer, 5, "deal")])
        else:
            carried_seen = True
            assert stakes == [(dealer, 5, "deal")]  # DL-SC-05: nobody else pays
        play_out(hand)
        game.settle()
        assert game.conserved()
    assert empty_seen and carried_seen


@pytest.mark.law("DL-SC-03", "DL-SC-04")
def test_DL_SC_03_DL_SC_04_each_trick_a_fifth_of_the_pool_and_a_loo_the_whole_pool() -> None:
    h = play_out(all_stand(make(pool=115)))
    s = h.settlement
    assert s is not None
    assert all(s.payouts[p] == 23 * s.tricks_won[p] for p in range(4))
    assert all(s.loos[p] == (115 if p in s.looed else 0) for p in range(4))
    assert s.next_pool == 115 - sum(s.payouts) + sum(s.loos)


@pytest.mark.law("DL-SC-07")
def test_DL_SC_07_the_loo_may_be_capped_or_fixed() -> None:
    capped = play_out(all_stand(make(pool=115, domino_loo_cap=10))).settlement
    assert capped is not None and capped.looed and all(capped.loos[p] == 40 for p in capped.looed)
    low = play_out(all_stand(make(pool=25, domino_loo_cap=10))).settlement
    assert low is not None and all(low.loos[p] == 25 for p in low.looed)  # at most the pool
    fixed = play_out(all_stand(make(pool=115, domino_loo_cap=5, domino_loo_fixed=True))).settlement
    assert fixed is not None and all(fixed.loos[p] == 20 for p in fixed.looed)
    with pytest.raises(RecordError, match="domino-loo-fixed"):
        DominoRules(domino_loo_fixed=True)


@pytest.mark.law("AMB-14")
def test_AMB_14_a_pool_not_divisible_by_five_pays_the_odd_chips_to_the_first_tricks() -> None:
    s = play_out(all_stand(make(pool=27))).settlement
    assert s is not None and sum(s.payouts) == 27
    for seat in range(4):  # 27 = 5 x 5 + 2: the winners of the first two tricks take six
        assert s.payouts[seat] == sum(5 + (i < 2) for i, t in enumerate(s.tricks) if t.winner == seat)


# ----- points (F.4) and Rounce (F.5) ------------------------------------------------------------------------------


@pytest.mark.law("DL-PTS-01")
def test_DL_PTS_01_a_point_a_trick_and_five_off_for_a_loo() -> None:
    assert DominoRules.preset("celko-points") == dataclasses.replace(
        DominoRules(), preset_name="celko-points", domino_scoring=DominoScoring.POINTS
    )
    s = play_out(all_stand(make(pool=0, domino_scoring=DominoScoring.POINTS))).settlement
    assert s is not None and s.points is not None
    assert all(s.points[p] == s.tricks_won[p] - (5 if p in s.looed else 0) for p in range(4))
    assert s.payouts == (0, 0, 0, 0) and s.loos == (0, 0, 0, 0)
    assert s.to_record()["points"] == list(s.points)


@pytest.mark.law("DL-PTS-02", "AMB-51")
def test_DL_PTS_02_AMB_51_game_is_fifteen_points_the_higher_score_wins_a_tie_plays_on() -> None:
    rules = DominoRules(domino_scoring=DominoScoring.POINTS)
    game = DominoGame(rules, ["Ann", "Ben"], random.Random(8))
    while not game.is_over:
        play_out(game.next_hand())
        game.settle()
        assert game.pool == 0 and game.ledger == []
    best = max(game.scores.values())
    assert best >= 15 and list(game.scores.values()).count(best) == 1 and game.scores[game.winner or ""] == best
    with pytest.raises(ValueError, match="over"):
        game.next_hand()
    tied = DominoGame(rules, ["Ann", "Ben"], random.Random(8))
    tied.scores = {"Ann": 16, "Ben": 16}
    assert tied.winner is None and not tied.is_over


@pytest.mark.law("DR-01")
def test_DR_01_rounce_is_domino_loo_with_only_the_listed_differences() -> None:
    loo, rounce = DominoRules.preset("celko"), DominoRules.preset("rounce")
    differ = {f.name for f in dataclasses.fields(DominoRules) if getattr(loo, f.name) != getattr(rounce, f.name)}
    assert differ == {"game", "preset_name", "domino_scoring", "void_rule"}
    assert rounce.game is Variant.ROUNCE and rounce.dealer_takes_turnup  # AMB-52: the dealer's right stays


@pytest.mark.law("DR-02", "AMB-52")
def test_DR_02_AMB_52_the_trump_is_turned_after_the_dummies_the_last_tile_with_three_or_four() -> None:
    for seats in (3, 4):
        _, turnup, stock = deal_tiles(DominoRules.preset("rounce"), Unshuffled(), seats=seats, dealer=0)
        assert turnup == full_set()[-1] and len(stock) == sum(dummy_sizes(seats))
    _, turnup, stock = deal_tiles(DominoRules.preset("rounce"), Unshuffled(), seats=2, dealer=0)
    assert turnup == full_set()[10 + 12] and len(stock) == 17  # after two six-tile dummies


@pytest.mark.law("DR-03", "AMB-52")
def test_DR_03_AMB_52_dummies_of_six_or_seven_tiles_taken_whole_and_discarded_down_to_five() -> None:
    assert dummy_sizes(2) == dummy_sizes(3) == (6, 6) and dummy_sizes(4) == (7,)
    h = make(preset="rounce", stock="5-4 5-3 5-2 5-1 4-4 4-0 6-1")
    assert [len(m) for m in h.misses] == [7]
    push(h, "0 miss")
    assert h.phase is Phase.EXCHANGE and h.to_act == 0 and len(h.holding(0)) == 7
    assert len(legal(h)) == 21  # seven tiles, two to discard
    assert refused(h, "0 x 5-4").law == "AMB-52"
    assert refused(h, "1 stand").law == "AMB-52"
    push(h, "0 x 4-0 6-1")
    assert h.holding(0) == tuple(tiles("5-4 5-3 5-2 5-1 4-4")) and h.phase is Phase.DECLARE and h.to_act == 1
    assert h.view(0).put_out[-2:] == (T("4-0"), T("6-1"))
    assert refused(h, "1 miss").law == "DR-03"
    three = make("6-6 6-5 6-4 1-0 2-0 | 2-1 3-1 4-1 3-2 4-2 | 4-3 3-3 2-2 0-0 5-0", turnup="6-0", preset="rounce")
    assert [len(m) for m in three.misses] == [6, 6]


@pytest.mark.law("DR-04", "CF-04")
def test_DR_04_CF_04_at_rounce_a_void_player_need_not_trump() -> None:
    h = push(make(THREE, turnup="6-0", preset="rounce"), "0 stand", "1 stand", "2 stand", "0 5-5", "1 6-5")
    assert set(legal(h)) == {"6-1", "0-0", "4-4", "3-3", "2-2"}
    push(h, "2 0-0")


@pytest.mark.law("DR-05", "DR-06", "DR-08", "DR-09")
def test_DR_05_DR_06_DR_08_DR_09_from_fifteen_one_off_a_trick_five_on_if_rounced_nothing_if_out() -> None:
    h = play_out(push(make(preset="rounce", pool=0), "0 stand", "1 throw", "2 stand", "3 stand"))
    s = h.settlement
    assert s is not None and s.points is not None
    assert all(s.points[p] == -s.tricks_won[p] + (5 if p in s.looed else 0) for p in range(4))
    assert s.points[1] == 0
    game = DominoGame(DominoRules.preset("rounce"), ["Ann", "Ben", "Cat"], random.Random(1))
    assert game.scores == {"Ann": 15, "Ben": 15, "Cat": 15}


@pytest.mark.law("DR-07")
def test_DR_07_all_pass_and_the_dealer_takes_five_off_without_play() -> None:
    s = push(make(preset="rounce", pool=0), "0 throw", "1 throw", "2 throw").settlement
    assert s is not None and s.reason == "dealer-uncontested" and s.points == (0, 0, 0, -5)


@pytest.mark.law("DR-10", "AMB-52")
def test_DR_10_AMB_52_the_first_to_reach_or_pass_nothing_wins_the_lowest_on_a_tie() -> None:
    game = DominoGame(DominoRules.preset("rounce"), ["Ann", "Ben", "Cat"], random.Random(4))
    hands = 0
    while not game.is_over:
        play_out(game.next_hand())
        game.settle()
        hands += 1
        assert hands < 500
    low = min(game.scores.values())
    assert low <= 0 and game.scores[game.winner or ""] == low
    game.scores = {"Ann": -1, "Ben": -1, "Cat": 4}
    assert game.winner is None  # tied: another hand
    game.scores = {"Ann": -2, "Ben": -1, "Cat": 4}
    assert game.winner == "Ann"


# ----- rules and presets --------------------------------------------------------------------------------------------


def test_rules_read_and_write_like_the_card_rules() -> None:
    rules = DominoRules.from_record("domino-loo", {"preset": "celko", "void-rule": "free", "domino-loo-cap": 10})
    assert rules.void_rule is VoidRule.FREE and rules.domino_loo_cap == 10
    assert rules.to_record() == {"preset": "celko", "void-rule": "free", "domino-loo-cap": 10}
    assert DominoRules.from_record("domino-rounce", "rounce").to_record() == "rounce"
    assert DominoRules.from_record("domino-loo", None) == DominoRules.preset("celko")
    for game, value, field in [
        ("domino-loo", "peel", "rules.preset"),
        ("domino-loo", "rounce", "rules.preset"),
        ("domino-loo", {"preset": "celko", "loo-mode": "unlimited"}, "rules.loo-mode"),
        ("domino-loo", {"preset": "celko", "void-rule": "sometimes"}, "rules.void-rule"),
        ("domino-loo", {"preset": "celko", "domino-loo-cap": "ten"}, "rules.domino-loo-cap"),
        ("domino-loo", {"preset": "celko", "dealer-takes-turnup": 1}, "rules.dealer-takes-turnup"),
        ("domino-loo", {"preset": "celko", "deal-price": 0}, "rules.deal-price"),
        ("domino-loo", {"preset": 3}, "rules.preset"),
        ("domino-loo", 3, "rules"),
        ("dominoes", None, "game"),
    ]:
        with pytest.raises(RecordError) as info:
            DominoRules.from_record(game, value)
        assert info.value.field == field


def test_explanations_cite_a_law_for_every_action_tried() -> None:
    h = make()
    for explanation in h.explain():
        assert explanation.law in LAWS and explanation.reason
        assert explanation.cite().startswith(explanation.law)
    assert [(e.action.value, e.legal) for e in h.explain() if e.action.verb == "declare"] == [
        ("stand", True), ("miss", True), ("throw", True)
    ]  # fmt: skip
    h = all_stand(make())
    by_tile = {(str(e.action.value), e.action.suit): (e.legal, e.law) for e in h.explain()}
    assert by_tile[("6-6", None)] == (True, "DL-LEAD-02")
    assert by_tile[("1-0", 1)] == (False, "DL-LEAD-02")
    push(h, "0 6-6")
    assert {e.law for e in h.explain() if not e.legal} <= {"DL-PLAY-01", "DL-PLAY-02"}
    assert h.why_illegal(act("1 4-2")) is None


def test_a_hand_that_is_over_refuses_everything_and_take_back_restores_it() -> None:
    h = play_out(all_stand(make()))
    assert h.legal_actions() == [] and h.explain() == []
    assert refused(h, "0 6-6").law == "DL-TRK-01"
    last = h.pop()
    assert not h.is_over and h.to_act == last.seat
    while h.actions:
        h.pop()
    assert h.phase is Phase.DECLARE and h.to_act == 0 and h.holding(0) == tuple(tiles(FOUR.split("|")[0]))
    with pytest.raises(IndexError):
        h.pop()
