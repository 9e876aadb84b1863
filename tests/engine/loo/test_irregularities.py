"""Table mode: offences recorded and penalised as the sources say (A.11, A.12, AMB-15..17, CF-18, CF-19)."""

from __future__ import annotations

import random

import pytest

from loo.core.actions import IllegalActionError
from loo.core.hand import Phase
from loo.core.rules import RevokeReplay
from loo.games.loo.game import LooGame
from loo.games.loo.rules import Rules
from tests.helpers.loo_helpers import act, make, push

BASE = "AS 10H 2C | KD QD 3S | 9C 8C 7H | JH 5S 4D | 6C 6D 6H"


def table(**kw: object):  # type: ignore[no-untyped-def]
    from loo.games.loo.hand import LooHand

    h = make(BASE, miss="AH KH QH", turnup="7D", **kw)  # type: ignore[arg-type]
    return LooHand(h.rules, hands=h.dealt, miss=h.miss, turnup=h.turnup, dealer=h.dealer, pool=h.pool,
                   names=h.names, table=True)  # fmt: skip


def test_strict_mode_refuses_what_table_mode_records() -> None:
    strict = push(make(BASE, miss="AH KH QH", turnup="7D"), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand")
    with pytest.raises(IllegalActionError):
        strict.push(act("1 3S"))  # Ben to play out of turn: refused outright


@pytest.mark.law("L3-PEN-15", "L3-PEN-16", "L3-PEN-02", "L3-PEN-01", "L3-PEN-04", "L3-LOO-03")
def test_L3_PEN_15_16_L3_PEN_02_a_play_offence_looes_the_offender_and_the_hand_is_replayed() -> None:
    h = push(table(), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand", "0 2C", "1 QD")
    h.push(act("2 7H"))  # Cat holds clubs: a revoke (L3-PEN-16)
    assert h.offences[-1].law == "L3-PLAY-02" and h.offences[-1].kind == "play"
    # Mandatory replay (CF-19, Peel): every card is back in hand and play starts again from trick 1.
    assert h.phase is Phase.PLAY and h.tricks == () and h.current_trick == () and h.to_act == 0
    assert len(h.holding(2)) == 3 and h._s.replays == 1
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None
    assert 2 in s.looed and s.payouts[2] == 0 and s.offenders == (2,)  # L3-PEN-01, L3-PEN-04, L3-LOO-03
    assert s.loos[2] == 6  # one loo only (AMB-16)


@pytest.mark.law("L3-PEN-04")
def test_L3_PEN_04_the_offenders_tricks_in_the_replay_stay_in_the_pool() -> None:
    h = push(table(pool=9), "0 stand", "1 stand", "2 throw", "3 throw", "4 stand", "0 AS", "1 3S")
    h.push(act("4 6C"))  # Eve must head with a trump: 6D (L3-PLAY-04)
    assert h.offences[-1].law == "L3-PLAY-04"
    push(h, "0 AS", "1 3S", "4 6D", "4 6H", "0 10H", "1 QD", "1 KD", "4 6C", "0 2C")
    s = h.settlement
    assert s is not None
    assert s.tricks_won == (0, 2, 0, 0, 1) and s.payouts == (0, 6, 0, 0, 0)  # Eve's 3 stay in the pool
    assert s.looed == (0, 4) and s.next_pool == 9 - 6 + 12


@pytest.mark.law("L3-PEN-03")
def test_L3_PEN_03_no_one_else_is_looed_by_an_offence_the_replay_decides() -> None:
    h = push(table(), "0 stand", "1 stand", "2 throw", "3 throw", "4 stand", "0 AS", "1 3S")
    h.push(act("4 6H"))  # revoke-like: Eve fails to head with her trump
    push(h, "0 AS", "1 3S", "4 6D", "4 6H", "0 10H", "1 QD", "1 KD", "4 6C", "0 2C")
    s = h.settlement
    assert s is not None and s.looed == (0, 4) and s.payouts[1] == 2


@pytest.mark.law("L3-PEN-09")
def test_L3_PEN_09_playing_out_of_turn_is_an_offence() -> None:
    h = push(table(), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand")
    h.push(act("3 JH"))
    assert h.offences[-1].law == "L3-PEN-09" and h.to_act == 0 and len(h.holding(3)) == 3


@pytest.mark.law("L3-PEN-17", "L3-PEN-18", "L3-LEAD-12")
def test_L3_PEN_17_18_a_wrong_first_lead_is_an_offence() -> None:
    h = make("AD 5C 9H | 3S 2H 4C | 2S 8C 7C", miss="KC QC JC", turnup="7D")
    from loo.games.loo.hand import LooHand

    t = LooHand(h.rules, hands=h.dealt, miss=h.miss, turnup=h.turnup, dealer=2, pool=3, names=h.names, table=True)
    push(t, "0 stand", "1 stand", "2 stand")
    t.push(act("0 5C"))
    assert t.offences[-1].law == "L3-LEAD-03" and t._s.offenders == {0: "L3-LEAD-03"}  # L3-LEAD-12


@pytest.mark.law("L3-PEN-14", "L3-PLAY-08")
def test_L3_PEN_14_L3_PLAY_08_throwing_up_after_the_lead_is_an_offence() -> None:
    h = push(table(), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand", "0 2C")
    h.push(act("1 throw"))
    assert h.offences[-1].law == "L3-PLAY-08" and 1 in h._s.offenders


@pytest.mark.law("L3-PEN-05", "L3-PEN-06")
def test_L3_PEN_05_06_declaring_out_of_turn_pays_a_single_loo_into_this_pool_and_plays_on() -> None:
    h = table(pool=9)
    h.push(act("2 stand"))  # Cat declares before Ann
    assert h.offences[-1].kind == "pre-play" and h.stake == 9 + 3 and h.to_act == 0
    push(h, "0 stand", "1 stand", "2 stand", "3 throw", "4 throw")
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None and sum(s.payouts) == 12 and s.penalties == (0, 0, 3, 0, 0)
    assert 2 not in s.offenders  # equal terms for the rest of the hand


@pytest.mark.law("L3-PEN-10", "L3-PEN-11", "L3-PEN-12", "L3-PEN-19")
def test_L3_PEN_10_11_12_19_claimed_irregularities_before_play_cost_a_single_loo() -> None:
    h = table(pool=9)
    for law in ("L3-PEN-10", "L3-PEN-11", "L3-PEN-12", "L3-PEN-19"):
        h.penalize(1, law)
    assert h.stake == 9 + 4 * 3


@pytest.mark.law("L3-PEN-13")
def test_L3_PEN_13_informing_is_a_play_offence() -> None:
    h = push(table(), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand")
    h.penalize(3, "L3-PEN-13")
    assert h._s.offenders == {3: "L3-PEN-13"}
    with pytest.raises(ValueError, match="not an offence"):
        h.penalize(3, "L3-LEAD-01")


@pytest.mark.law("L3-PEN-07", "CF-19")
def test_L3_PEN_07_CF_19_on_demand_replay_is_claimed_by_another_player() -> None:
    h = push(table(revoke_replay=RevokeReplay.ON_DEMAND), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand",
             "0 2C", "1 QD")  # fmt: skip
    h.push(act("2 7H"))
    assert h.current_trick[-1][1].name == "seven of hearts"  # the irregular card stands until a claim
    with pytest.raises(IllegalActionError, match="cannot claim"):
        h.claim_replay(2)
    h.claim_replay(0)
    assert h.current_trick == () and h.to_act == 0 and len(h.holding(2)) == 3


@pytest.mark.law("L3-PEN-08")
def test_L3_PEN_08_single_penalties_stay_in_this_pool_loos_go_to_the_next() -> None:
    h = table(pool=9)
    h.push(act("4 stand"))  # out of turn: 3 into this pool
    push(h, "0 stand", "1 stand", "2 throw", "3 throw", "4 stand")
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None
    assert sum(s.payouts) + (s.next_pool - sum(s.loos)) == 12  # the penalty was divided with this pool


def test_pop_undoes_an_offence() -> None:
    h = push(table(), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand", "0 2C", "1 QD")
    h.push(act("2 7H"))
    h.pop()
    assert h.offences == () and h.current_trick[-1][0] == 1


@pytest.mark.law("L3-MIS-01", "L3-MIS-05", "AMB-56", "L3-MIS-02", "L3-MIS-03", "L3-MIS-04")
def test_L3_MIS_01_05_AMB_56_a_misdeal_costs_the_dealer_a_single_loo_and_he_deals_again() -> None:
    game = LooGame(Rules.preset("peel"), ["Ann", "Ben", "Cat", "Dan"], random.Random(8), table=True)
    game.next_hand()  # the single
    hand = game.next_hand()
    dealer, pool = hand.dealer, game.pool
    again = game.misdeal()
    assert again.dealer == dealer and game.pool == pool + 3  # L3-MIS-02..04; no second deal price (AMB-56)
    assert again.table and game.conserved()
    again.push(again.legal_actions()[0])
    while not again.is_over:
        again.push(again.legal_actions()[0])
    with pytest.raises(ValueError, match="L3-MIS-01"):
        game.misdeal()
    game.settle()
    assert game.conserved()
