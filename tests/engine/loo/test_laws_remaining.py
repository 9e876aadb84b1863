"""The remaining laws of groups A to D, each test marked with the laws it checks (the coverage account is
tests/engine/test_law_coverage.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from loo.core.cards import Card
from loo.core.ledger import cut_for_deal, cut_value
from loo.games.loo.dealing import deal_cards
from loo.games.loo.game import LooGame
from loo.games.loo.rules import LoneOpponentRule, LooMode, MissPosition, Rules
from tests.helpers.loo_helpers import legal, make, push, refused

BASE = "AS 10H 2C | KD QD 3S | 9C 8C 7H | JH 5S 4D | 6C 6D 6H"


class Unshuffled(random.Random):
    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        return None


# ----- stakes (A.2) ---------------------------------------------------------------------------


@pytest.mark.law("L3-STK-01", "L3-STK-02", "L3-STK-03")
def test_L3_STK_01_02_03_the_three_prices_and_peels_scale() -> None:
    peel = Rules.preset("peel")
    assert (peel.deal_price, peel.loo_amount, peel.single_loo) == (3, 6, 3)  # single loo half the loo


@pytest.mark.law("L3-STK-05", "L3-STK-06")
def test_L3_STK_05_06_any_stakes_and_an_unlimited_loo_may_be_agreed() -> None:
    rules = dataclasses.replace(Rules.preset("peel"), deal_price=1, loo_amount=4, loo_mode=LooMode.UNLIMITED)
    assert rules.loo_amount == 4 and rules.loo_mode is LooMode.UNLIMITED
    with pytest.raises(ValueError, match="deal-price"):
        dataclasses.replace(rules, deal_price=0)


@pytest.mark.law("L3-STK-07", "L3-WD-02")
def test_L3_STK_07_L3_WD_02_the_dealer_pays_for_every_deal_the_first_included() -> None:
    game = LooGame(Rules.preset("britannica"), ["Ann", "Ben", "Cat"], random.Random(1))
    game.next_hand()
    assert [e.why for e in game.ledger][:1] == ["deal"] and game.ledger[0].player == "Ann"


@pytest.mark.law("L3-STK-10", "CF-08")
def test_L3_STK_10_CF_08_the_encyclopedias_loo_equals_the_deal() -> None:
    rules = Rules.preset("britannica")
    assert rules.loo_amount == rules.deal_price == 3


# ----- dealing (A.3) ----------------------------------------------------------------------------


@pytest.mark.law("L3-DEAL-01", "L3-DEAL-02", "L3-DEAL-03", "L3-DEAL-04")
def test_L3_DEAL_01_02_03_04_cutting_for_the_deal_lowest_deals_ace_low_courts_ten_ties_recut() -> None:
    assert cut_value(Card.parse("AS"), courts_equal=True) == 1
    assert cut_value(Card.parse("KS"), courts_equal=True) == cut_value(Card.parse("10D"), courts_equal=True) == 10
    assert cut_value(Card.parse("KS"), courts_equal=False) == 13
    for seed in range(40):
        dealer, rounds = cut_for_deal(["Ann", "Ben", "Cat", "Dan"], random.Random(seed))
        last = rounds[-1]
        values = [cut_value(c, courts_equal=True) for _, c in last]
        assert values.count(min(values)) == 1
        assert last[values.index(min(values))][0] == ["Ann", "Ben", "Cat", "Dan"][dealer]
        for earlier in rounds[:-1]:
            vals = [cut_value(c, courts_equal=True) for _, c in earlier]
            assert vals.count(min(vals)) > 1  # a recut only after a tie


@pytest.mark.law("L3-DEAL-07", "L3-DEAL-08", "L3-DEAL-09", "L3-DEAL-10", "L3-DEAL-11", "L3-DEAL-12")
@pytest.mark.parametrize(
    ("position", "miss_slots"),
    [
        (MissPosition.AFTER_DEALER, [3, 7, 11]),
        (MissPosition.FIRST, [0, 4, 8]),
        (MissPosition.BEFORE_DEALER, [2, 6, 10]),
    ],
)
@pytest.mark.law("L3-DEAL-14")
def test_L3_DEAL_07_08_09_10_11_12_the_miss_is_dealt_in_its_place_each_round(
    position: MissPosition, miss_slots: list[int]
) -> None:
    rules = dataclasses.replace(Rules.preset("peel"), miss_position=position)
    hands, miss, turnup, _ = deal_cards(rules, Unshuffled(), seats=3, dealer=2)
    from loo.core.cards import full_pack

    order = [str(c) for c in full_pack()]
    assert [str(c) for c in miss] == [order[i] for i in miss_slots]
    assert str(turnup) == order[12]  # L3-DEAL-14: the next card turned up
    dealt_first = next(i for i in range(4) if i not in miss_slots)
    assert str(hands[0][0]) == order[dealt_first]  # L3-DEAL-08: the eldest (seat 0) receives first


@pytest.mark.law("L3-DEAL-15", "L3-DECL-07", "L3-DECL-09", "CF-15")
def test_L3_DEAL_15_L3_DECL_07_09_CF_15_discards_and_the_untaken_miss_go_out_of_play_unseen() -> None:
    h = push(make(BASE, miss="AH KH QH", turnup="7D"), "0 throw", "1 miss", "2 throw", "3 stand", "4 stand")
    dead = {str(c) for c in h._s.dead}
    assert {"AS", "10H", "2C", "KD", "QD", "3S", "9C", "8C", "7H"} <= dead
    for seat in range(5):
        assert "AH" not in repr(h.view(seat)) or seat == 1
    irish = push(make("AS 10H 2C | KD QD 3S | 9C 8C 7H", turnup="7D", preset="irish", stock="AH KH QH", pool=6),
                 "0 stand", "1 stand", "2 stand", "0 x AS")  # fmt: skip
    assert "AS" not in {str(c) for c in irish.stock[irish._s.stock_pos :]}  # never redrawn


# ----- declarations (A.5), dealer (A.6), leading (A.7), play (A.8) -----------------------------------


@pytest.mark.law("L3-DECL-02")
def test_L3_DECL_02_standing_keeps_the_cards() -> None:
    h = push(make(BASE, miss="AH KH QH", turnup="7D"), "0 stand")
    assert [str(c) for c in h.holding(0)] == ["AS", "10H", "2C"]


@pytest.mark.law("L3-DECL-10", "L3-DECL-11", "L3-DECL-12")
def test_L3_DECL_10_11_12_a_declaration_is_final_and_each_is_asked_in_turn() -> None:
    h = push(make(BASE, miss="AH KH QH", turnup="7D"), "0 stand")
    assert refused(h, "0 throw").law == "L3-DECL-01"
    push(h, "1 stand", "2 stand")
    assert h.to_act == 3 and "miss" in legal(h)  # the Dumby passes round until taken (L3-DECL-12)


@pytest.mark.law("L3-DECL-14")
def test_L3_DECL_14_club_law_removes_the_choice() -> None:
    h = make(BASE, miss="AH KH QH", turnup="9C", club_law=True)
    assert legal(h) == ["stand"]


@pytest.mark.law("L3-DLR-06", "AMB-07")
def test_L3_DLR_06_AMB_07_the_encyclopedias_dealer_rule() -> None:
    h = push(make(BASE, miss="AH KH QH", turnup="7D", preset="britannica", pool=9),
             "0 throw", "1 throw", "2 throw", "3 stand")  # fmt: skip
    assert h.rules.lone_opponent_rule is LoneOpponentRule.ENC_LAST_PLAYER
    assert legal(h) == ["stand", "miss", "throw"]
    push(h, "4 throw")
    assert h.settlement is not None and h.settlement.payouts[3] == 9


@pytest.mark.law("L3-LEAD-07")
def test_L3_LEAD_07_the_encyclopedias_two_trumps_read_as_lead_a_trump() -> None:
    h = push(make("QD 3D 9H | 3S 2H 4C | 2S 8C 7C", miss="KC QC JC", turnup="7D", preset="britannica", pool=9),
             "0 stand", "1 stand", "2 stand")  # fmt: skip
    assert sorted(legal(h)) == ["3D", "QD"]


@pytest.mark.law("L3-GEN-03", "L5-RANK-04")
def test_L3_GEN_03_L5_RANK_04_ace_high_in_every_suit() -> None:
    h = push(make("2S AS 3C | KS 4H 5H | QS 6H 7H", miss="KC QC JC", turnup="7D", pool=6),
             "0 stand", "1 stand", "2 stand", "0 AS", "1 KS", "2 QS")  # fmt: skip
    assert h.tricks[0].winner == 0


@pytest.mark.law("L3-PLAY-07")
def test_L3_PLAY_07_played_cards_stay_face_up_for_all_to_see_until_the_hand_ends() -> None:
    h = push(make(BASE, miss="AH KH QH", turnup="7D"), "0 stand", "1 stand", "2 throw", "3 throw", "4 stand",
             "0 AS", "1 3S", "4 6D", "4 6H")  # fmt: skip
    view = h.view(1)
    assert [str(c) for _, c in view.tricks[0].plays] == ["AS", "3S", "6D"]
    assert [str(c) for _, c in view.current] == ["6H"]


@pytest.mark.law("L3-CLUB-03")
def test_L3_CLUB_03_the_rules_are_fixed_before_play() -> None:
    rules = Rules.preset("peel")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.club_law = True  # type: ignore[misc]


@pytest.mark.law("L3-MIS-03", "L3-MIS-04")
def test_L3_MIS_03_04_the_misdeal_loo_is_a_single_loo_into_the_current_pool() -> None:
    game = LooGame(Rules.preset("peel"), ["Ann", "Ben", "Cat"], random.Random(3))
    game.next_hand()
    game.next_hand()
    before = game.pool
    game.misdeal()
    assert game.pool - before == Rules.preset("peel").single_loo and game.ledger[-1].why == "misdeal"


@pytest.mark.law("L3-END-01", "L3-END-04", "L3-END-06", "L5-END-01")
def test_L3_END_01_04_06_L5_END_01_play_on_until_a_loo_free_hand_with_equal_deals() -> None:
    for preset in ("peel", "pam"):
        rng = random.Random(4)
        game = LooGame(Rules.preset(preset), ["Ann", "Ben", "Cat"], random.Random(4))
        for _ in range(90):
            hand = game.next_hand()
            while not hand.is_over:
                hand.push(rng.choice(hand.legal_actions()))
            game.settle()
            if game.can_end():
                break
        assert game.can_end(), preset
        assert len({game.deals_by[p] for p in game.players}) == 1


# ----- five-card Loo (B) and Unlimited (D) -----------------------------------------------------------


@pytest.mark.law("L5-GEN-01", "L5-STK-01", "L5-DEAL-01")
def test_L5_GEN_01_L5_STK_01_L5_DEAL_01_five_cards_one_at_a_time_a_stake_of_five_then_the_turnup() -> None:
    rules = Rules.preset("pam")
    hands, miss, turnup, stock = deal_cards(rules, Unshuffled(), seats=3, dealer=2)
    from loo.core.cards import full_pack

    order = [str(c) for c in full_pack()]
    assert [str(c) for c in hands[0]] == [order[i] for i in (0, 3, 6, 9, 12)]
    assert miss == [] and str(turnup) == order[15] and rules.deal_price == 5
    assert len(stock) == 52 - 16


@pytest.mark.law("L5-GEN-02", "L5-DECL-01", "L5-DECL-04", "L5-PAY-01", "L5-PAY-02", "L5-PLAY-04")
def test_L5_GEN_02_L5_DECL_01_04_L5_PAY_01_02_L5_PLAY_04_play_or_throw_in_the_pool_by_fifths_five_a_loo() -> None:
    h = make("AH 4S 5S 6D 7D | JC 3S 9C 8D 2C | KH 10S QS 9D 3C", turnup="2H", preset="pam", pool=15,
             stock="AS KS 2S 5D 4D 3D 2D 6C 5C 4C")  # fmt: skip
    assert legal(h) == ["stand", "throw"]
    push(h, "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x")
    while not h.is_over:
        h.push(h.legal_actions()[0])
        if h.tricks and not h.current_trick and not h.is_over:
            assert h.to_act == h.tricks[-1].winner  # the winner leads (L5-PLAY-04)
    s = h.settlement
    assert s is not None and sum(s.payouts) == 15 and all(p % 3 == 0 for p in s.payouts)
    assert all(s.loos[p] == 5 for p in s.looed) and all(s.tricks_won[p] == 0 for p in s.looed)


@pytest.mark.law("L5-FL-02", "L5-FL-08")
def test_L5_FL_02_L5_FL_08_a_flush_made_by_exchanging_counts_and_each_loo_is_five() -> None:
    h = make("AS KS QS 10S 2D | 3D 4D 8C 9C KC | 5D 6D 7C 8D 9D", turnup="2H", preset="pam", pool=10,
             stock="9S AH")  # fmt: skip
    push(h, "0 stand", "1 stand", "2 stand", "0 x 2D", "1 x", "2 x")
    s = h.settlement
    assert s is not None and s.reason == "flush" and s.flush == (0, "plain")
    assert s.loos == (0, 5, 5)


@pytest.mark.law("L5-FL-09")
def test_L5_FL_09_flush_loos_to_the_holder_under_enquire_within() -> None:
    from loo.games.loo.rules import FlushLooDestination

    h = make("AS KS QS 10S 9S | 3D 4D 8C 9C KC | 5D 6D 7C 8D 9D", turnup="2H", preset="pam", pool=10,
             stock="", flush_loo_destination=FlushLooDestination.TO_FLUSH_HOLDER)  # fmt: skip
    push(h, "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x")
    assert h.settlement is not None and h.settlement.direct == (10, -5, -5)


@pytest.mark.law("UL-05", "UL-06")
def test_UL_05_06_unlimited_play_goes_on_until_a_loo_free_hand_and_an_unwanted_pool_goes_to_the_dealer() -> None:
    rules = dataclasses.replace(Rules.preset("peel"), loo_mode=LooMode.UNLIMITED)
    h = push(make(BASE, miss="AH KH QH", turnup="7D", pool=60, loo_mode=LooMode.UNLIMITED),
             "0 throw", "1 throw", "2 throw", "3 throw")  # fmt: skip
    assert h.settlement is not None and h.settlement.payouts[4] == 60  # UL-06
    rng = random.Random(6)
    game = LooGame(rules, ["Ann", "Ben", "Cat", "Dan"], random.Random(6))
    for _ in range(200):
        hand = game.next_hand()
        while not hand.is_over:
            hand.push(rng.choice(hand.legal_actions()))
        game.settle()
        if game.results[-1].settlement.loo_free:
            break
    assert game.results[-1].settlement.loo_free  # UL-05: such a hand comes, and then the game may end
    assert game.conserved()
