"""Nap at a teaching table (table mode): revokes, play out of turn, misdeals and wrong numbers of cards (E.11)."""

from __future__ import annotations

import random

import pytest

from loo.core.actions import IllegalActionError
from loo.core.cards import Card
from loo.games.nap.game import NapGame
from loo.games.nap.rules import NapRules
from loo.games.nap.state import NapPhase
from tests.helpers.nap_helpers import act, nap, push, refused

CALL_THREE = ("0 3", "1 pass", "2 pass", "3 pass")
THREE_MADE = ("0 AS", "1 9S", "2 JS", "3 3S", "0 KS", "1 2C", "2 10S", "3 9C", "0 QS", "1 8H", "2 5C", "3 10C")
BEN_FOUR_FAILS = ("0 pass", "1 4", "2 pass", "3 pass", "1 9S", "2 JS", "3 3S", "0 AS", "0 KS", "1 2C", "2 10S",
                  "3 9C")  # fmt: skip


def test_strict_play_refuses_what_a_teaching_table_records() -> None:
    strict = push(nap(), *CALL_THREE, "0 AS")
    assert refused(strict, "1 2C").law == "NAP-PLAY-02"
    table = push(nap(table=True), *CALL_THREE, "0 AS")
    table.push(act("1 2C"))
    assert table.offences[-1].law == "NAP-PLAY-02" and table.offences[-1].kind == "revoke"


@pytest.mark.law("NAP-REV-03", "NAP-REV-04")
def test_NAP_REV_03_04_an_opponents_revoke_replays_the_hand_and_he_pays_the_caller_for_everyone() -> None:
    h = push(nap(table=True), *CALL_THREE, "0 AS", "1 2C")
    # NAP-REV-03: the cards are taken up; play starts again from the first lead, now strictly.
    assert h.phase is NapPhase.PLAY and h.tricks == () and h.current_trick == () and h.to_act == 0
    assert len(h.holding(1)) == 5 and h._s.replays == 1
    push(h, "0 AS")
    assert refused(h, "1 2C").law == "NAP-PLAY-02"
    push(h, *THREE_MADE[1:])
    s = h.settlement
    assert s is not None and s.made and s.offender == 1
    assert s.net() == (9, -9, 0, 0)  # NAP-REV-04, AMB-44: three units for each of three opponents, all from Ben


@pytest.mark.law("NAP-REV-05")
def test_NAP_REV_05_if_the_replayed_call_fails_the_revoker_pays_the_other_opponents() -> None:
    h = push(nap(table=True), "0 pass", "1 4", "2 pass", "3 pass", "1 9S", "2 5C")  # Cat holds spades
    assert h.tricks == () and h.current_trick == ()
    push(h, *BEN_FOUR_FAILS[4:])
    s = h.settlement
    assert s is not None and not s.made and s.net() == (4, 0, -8, 4)  # the caller pays nothing (AMB-44)


@pytest.mark.law("NAP-REV-06")
def test_NAP_REV_06_a_revoke_by_the_caller_loses_the_call_at_once() -> None:
    h = push(nap(table=True), "0 pass", "1 pass", "2 2", "3 pass", "2 5C", "3 10C", "0 3D", "1 2C",
             "3 6H", "0 2H", "1 8H")  # fmt: skip
    h.push(act("2 10S"))  # Cat, the caller, holds the ace of hearts
    s = h.settlement
    assert h.is_over and s is not None and s.reason == "caller-revoke" and not s.made
    assert s.net() == (2, 2, -6, 2) and h.offences[-1].kind == "caller-revoke"


@pytest.mark.law("NAP-REV-07")
def test_NAP_REV_07_play_out_of_turn_noted_or_punished_as_a_revoke_by_agreement() -> None:
    h = push(nap(table=True), *CALL_THREE, "0 AS")
    h.push(act("2 JS"))  # Ben's turn
    assert h.offences[-1].law == "NAP-REV-07" and h.offences[-1].kind == "out-of-turn"
    assert Card.parse("JS") in h.holding(2) and h.to_act == 1 and h.current_trick == ((0, Card.parse("AS")),)
    punished = push(nap(table=True, out_of_turn_penalty=True), *CALL_THREE, "0 AS")
    punished.push(act("2 JS"))
    assert punished.offences[-1].law == "NAP-REV-07" and punished.offences[-1].kind == "revoke"
    assert punished.tricks == () and punished.current_trick == ()  # replayed, Cat the offender
    push(punished, *THREE_MADE)
    s = punished.settlement
    assert s is not None and s.net() == (9, 0, -9, 0)


@pytest.mark.law("NAP-REV-01", "NAP-REV-02")
def test_NAP_REV_01_02_a_renouncer_who_will_not_show_his_cards_is_held_to_have_revoked() -> None:
    h = push(nap(table=True), *CALL_THREE, *THREE_MADE)
    assert h.is_over and len(h.tricks) == 3
    with pytest.raises(IllegalActionError) as caught:
        h.refuse_to_show(0)  # Ann only led: she renounced nothing
    assert caught.value.law == "NAP-REV-01"
    h.refuse_to_show(1)  # Ben discarded the two of clubs on a spade
    assert h.phase is NapPhase.PLAY and h.tricks == () and h.offences[-1].law == "NAP-REV-02"
    push(h, *THREE_MADE)
    s = h.settlement
    assert s is not None and s.offender == 1 and s.net() == (9, -9, 0, 0)
    strict = push(nap(), *CALL_THREE, *THREE_MADE)
    with pytest.raises(IllegalActionError):
        strict.refuse_to_show(1)  # AMB-43: the engine checked every renounce as it was made


@pytest.mark.law("CF-19")
def test_CF_19_on_demand_the_revoke_stands_until_someone_claims_the_replay() -> None:
    h = push(nap(table=True, revoke_replay="on-demand"), *CALL_THREE, "0 AS", "1 2C")
    assert h.current_trick == ((0, Card.parse("AS")), (1, Card.parse("2C")))
    with pytest.raises(IllegalActionError):
        h.claim_replay(1)  # not by the offender
    h.claim_replay(2)
    assert h.current_trick == () and h._s.replays == 1
    unclaimed = push(nap(table=True, revoke_replay="on-demand"), *CALL_THREE, "0 AS", "1 2C", "2 JS", "3 3S",
                     "0 KS", "1 9S", "2 10S", "3 9C", "0 QS", "1 7H", "2 5C", "3 10C")  # fmt: skip
    s = unclaimed.settlement
    assert s is not None and s.made and s.net() == (9, -9, 0, 0)  # the result stands; the penalty is Ben's


@pytest.mark.law("NAP-MISD-01", "NAP-MISD-02")
def test_NAP_MISD_01_02_a_misdeal_claimed_before_the_hands_are_looked_at_is_dealt_again() -> None:
    game = NapGame(NapRules(kitty_mode="dealer"), ["Ann", "Ben", "Cat", "Dan"], random.Random(1))  # type: ignore[arg-type]
    first = game.next_hand()
    dealer, pool = game.dealer, game.pool
    again = game.misdeal(by=2)
    assert game.results[-1].settlement.reason == "misdeal" and game.dealer == dealer
    assert game.pool == pool and again.dealer == dealer and again.dealt != first.dealt  # no second feed
    again.push(again.legal_actions()[0])
    with pytest.raises(IllegalActionError) as caught:
        again.claim_misdeal(1)
    assert caught.value.law == "NAP-MISD-02"


@pytest.mark.law("NAP-WRG-05")
def test_NAP_WRG_05_a_wrong_count_found_in_the_calling_without_a_nap_means_a_fresh_deal() -> None:
    h = push(nap(table=True), "0 2")
    h.claim_wrong_count(1)
    s = h.settlement
    assert h.is_over and s is not None and s.reason == "redeal" and s.net() == (0, 0, 0, 0)
    with pytest.raises(IllegalActionError):
        nap().claim_wrong_count(1)  # only at a teaching table


@pytest.mark.law("NAP-WRG-01", "NAP-WRG-02", "NAP-WRG-04")
def test_NAP_WRG_01_02_04_after_a_nap_or_the_calling_the_hand_is_played_and_a_correct_caller_only_gains() -> None:
    made = push(nap("AS KS QS JS AH | 2S 3H 4H 5H 6H | 7H 8H 9H 10H JH | QH KH 2C 3C 4C", table=True), "0 nap")
    made.claim_wrong_count(2)  # NAP-WRG-04: a Nap is always played out
    push(made, "1 pass", "2 pass", "3 pass")
    while not made.is_over:
        made.push(made.legal_actions()[0])
    assert made.settlement is not None and made.settlement.net() == (30, -10, -10, -10)
    failed = push(nap(table=True), *BEN_FOUR_FAILS[:4])
    failed.claim_wrong_count(0)  # NAP-WRG-01: found after the calling; played out
    assert failed.phase is NapPhase.PLAY
    push(failed, *BEN_FOUR_FAILS[4:])
    assert failed.settlement is not None and not failed.settlement.made
    assert failed.settlement.net() == (0, 0, 0, 0)  # NAP-WRG-02: the caller fails and neither pays nor receives


@pytest.mark.law("NAP-WRG-03")
def test_NAP_WRG_03_a_caller_with_the_wrong_count_gains_nothing_but_pays_if_he_fails() -> None:
    made = push(nap(table=True), *CALL_THREE)
    made.claim_wrong_count(0)
    push(made, *THREE_MADE)
    assert made.settlement is not None and made.settlement.made and made.settlement.net() == (0, 0, 0, 0)
    failed = push(nap(table=True), *BEN_FOUR_FAILS[:4])
    failed.claim_wrong_count(1)
    push(failed, *BEN_FOUR_FAILS[4:])
    assert failed.settlement is not None and failed.settlement.net() == (4, -12, 4, 4)
