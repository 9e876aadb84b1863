"""Three-card Loo, law by law (catalogue group A). Each test names the IDs it checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loo.core.hand import Phase
from loo.core.tricks import FirstLeadRule, WinnerLeadsTrump
from loo.games.loo.rules import ClubLawMiss, LooMode
from loo.games.loo.state import DealKind
from loo.records import check
from tests.helpers.loo_helpers import legal, make, push, refused

GOLDEN = Path(__file__).resolve().parents[2] / "golden"

# Five players, Eve (seat 4) deals; diamonds are trumps.
BASE = "AS 10H 2C | KD QD 3S | 9C 8C 7H | JH 5S 4D | 6C 6D 6H"
MISS = "AH KH QH"


def base(**kw: object) -> object:
    return make(BASE, miss=MISS, turnup="7D", **kw)  # type: ignore[arg-type]


def played_hand(pool: int = 3, **kw: object):  # type: ignore[no-untyped-def]
    """Ann, Ben and Eve stand; Eve wins trick 1 with a trump, Ben the other two; Ann is looed."""
    h = base(pool=pool, **kw)
    return push(
        h, "0 stand", "1 stand", "2 throw", "3 throw", "4 stand",
        "0 AS", "1 3S", "4 6D",
        "4 6H", "0 10H", "1 QD",
        "1 KD", "4 6C", "0 2C",
    )  # fmt: skip


# ----- declarations (A.5) ---------------------------------------------------------------


@pytest.mark.law("L3-DECL-01")
def test_L3_DECL_01_declarations_go_round_from_the_eldest_one_at_a_time() -> None:
    h = base()
    assert h.to_act == 0 and h.phase is Phase.DECLARE
    assert refused(h, "1 stand").law == "L3-DECL-01"
    for seat in range(4):
        push(h, f"{seat} stand")
        assert h.to_act == seat + 1


@pytest.mark.law("L3-DECL-03", "L3-DECL-05")
def test_L3_DECL_03_and_05_taking_the_miss_and_there_is_only_one() -> None:
    h = push(base(), "0 stand", "1 miss")
    assert [str(c) for c in h.holding(1)] == ["AH", "KH", "QH"]
    assert legal(h) == ["stand", "throw"]
    assert refused(h, "2 miss").law == "L3-DECL-05"


@pytest.mark.law("L3-DECL-04")
def test_L3_DECL_04_a_miss_taker_must_play_and_can_be_looed() -> None:
    h = push(base(), "0 stand", "1 miss", "2 throw", "3 throw", "4 stand")
    assert h.phase is Phase.PLAY
    assert 1 in [p for p in range(5) if h.declared(p) == "miss"]


@pytest.mark.law("L3-DECL-06", "L3-STK-13", "L3-LOO-04")
def test_L3_DECL_06_L3_STK_13_L3_LOO_04_throwing_up_costs_and_wins_nothing() -> None:
    h = played_hand()
    s = h.settlement
    assert s is not None
    for thrower in (2, 3):
        assert s.payouts[thrower] == 0 and s.loos[thrower] == 0 and thrower not in s.looed


@pytest.mark.law("L3-DECL-08")
def test_L3_DECL_08_the_dealer_may_take_the_miss_only_if_it_is_left() -> None:
    h = push(base(), "0 stand", "1 stand", "2 stand", "3 stand")
    assert legal(h) == ["stand", "miss", "throw"]
    h = push(base(), "0 miss", "1 stand", "2 stand", "3 stand")
    assert legal(h) == ["stand", "throw"]


# ----- the dealer's special cases (A.6) ------------------------------------------------------


@pytest.mark.law("L3-DLR-01")
def test_L3_DLR_01_everyone_before_the_dealer_throws_up_and_he_takes_the_pool() -> None:
    h = push(base(pool=9), "0 throw", "1 throw", "2 throw", "3 throw")
    s = h.settlement
    assert h.is_over and s is not None and s.reason == "dealer-uncontested"
    assert s.payouts == (0, 0, 0, 0, 9) and s.tricks == () and s.next_pool == 0


@pytest.mark.law("L3-DLR-02", "L3-DLR-03", "L3-DIV-04")
def test_L3_DLR_02_03_dealer_against_a_lone_stander_stands_takes_the_miss_or_plays_it_for_the_pool() -> None:
    h = push(base(), "0 stand", "1 throw", "2 throw", "3 throw")
    assert legal(h) == ["stand", "miss", "pool"]
    assert refused(h, "4 throw").law == "L3-DLR-03"
    push(h, "4 pool")
    assert [str(c) for c in h.holding(4)] == ["AH", "KH", "QH"] and h.to_act == 0  # AMB-05: the stander leads
    push(h, "0 AS", "4 KH", "0 10H")
    assert legal(h) == ["AH", "QH"]  # the miss must head too (AMB-05)
    push(h, "4 QH", "4 AH", "0 2C")
    s = h.settlement
    assert s is not None
    # L3-DIV-04: the miss's two tricks stay in the pool; Ann took one trick and is not looed.
    assert s.tricks_won == (1, 0, 0, 0, 2) and s.payouts == (1, 0, 0, 0, 0)
    assert s.looed == () and s.next_pool == 2


@pytest.mark.law("L3-DLR-03", "L3-DLR-04")
def test_L3_DLR_03_04_a_refused_play_of_the_miss_for_the_pool_names_what_is_missing() -> None:
    """Each refusal says why this case is not the one the law allows: not the dealer, two standers, or the
    miss already taken (then the lone stander holds it, L3-DLR-04)."""
    assert "Ben is not the dealer" in str(refused(push(base(), "0 stand"), "1 pool"))
    two = refused(push(base(), "0 stand", "1 stand", "2 throw", "3 throw"), "4 pool")
    assert two.law == "L3-DLR-03" and "a single player before them stands" in str(two), two
    taken = refused(push(base(), "0 throw", "1 miss", "2 throw", "3 throw"), "4 pool")
    assert taken.law == "L3-DLR-04" and "Ben has taken the miss" in str(taken), taken


@pytest.mark.law("L3-DLR-04")
def test_L3_DLR_04_the_lone_stander_holds_the_miss_and_the_dealer_concedes() -> None:
    h = push(base(), "0 throw", "1 miss", "2 throw", "3 throw")
    assert legal(h) == ["stand", "throw"]
    push(h, "4 throw")
    s = h.settlement
    assert s is not None and s.reason == "conceded" and s.payouts == (0, 3, 0, 0, 0) and s.next_pool == 0


@pytest.mark.law("L3-DLR-05")
def test_L3_DLR_05_enquire_within_lets_the_dealer_give_up_the_stakes() -> None:
    h = push(base(preset="enquire-within", pool=6), "0 stand", "1 throw", "2 throw", "3 throw")
    assert "throw" in legal(h) and "pool" not in legal(h)
    push(h, "4 throw")
    assert h.settlement is not None and h.settlement.payouts == (6, 0, 0, 0, 0)


# ----- leading (A.7) ---------------------------------------------------------------------------


@pytest.mark.law("L3-LEAD-01")
def test_L3_LEAD_01_the_first_stander_from_the_dealers_left_leads() -> None:
    h = push(base(), "0 throw", "1 stand", "2 stand", "3 throw", "4 throw")
    assert h.phase is Phase.PLAY and h.to_act == 1


@pytest.mark.law("L3-LEAD-02")
def test_L3_LEAD_02_option_the_holder_of_the_miss_leads() -> None:
    h = push(base(miss_holder_leads=True), "0 stand", "1 stand", "2 miss", "3 throw", "4 throw")
    assert h.to_act == 2


THREE = "{ann} | 3S 2H 4C | 2S 8C 7C"


def lead_hand(ann: str, turnup: str = "7D", **kw: object):  # type: ignore[no-untyped-def]
    h = make(THREE.format(ann=ann), miss="KC QC JC", turnup=turnup, **kw)  # type: ignore[arg-type]
    return push(h, "0 stand", "1 stand", "2 stand")


@pytest.mark.law("L3-LEAD-03")
def test_L3_LEAD_03_the_ace_of_trumps_must_be_led() -> None:
    h = lead_hand("AD 5C 9H")
    assert legal(h) == ["AD"]
    assert refused(h, "0 5C").law == "L3-LEAD-03"


@pytest.mark.law("L3-LEAD-04")
def test_L3_LEAD_04_the_king_when_the_ace_is_turned_up_peel_only() -> None:
    h = lead_hand("KD 5C 9H", turnup="AD")
    assert legal(h) == ["KD"]
    assert refused(h, "0 9H").law == "L3-LEAD-04"
    assert sorted(legal(lead_hand("KD 5C 9H", turnup="AD", king_rule_when_ace_turned=False))) == ["5C", "9H", "KD"]


@pytest.mark.law("L3-LEAD-05")
def test_L3_LEAD_05_with_two_or_three_trumps_lead_the_highest() -> None:
    h = lead_hand("QD 3D 9H")
    assert legal(h) == ["QD"]
    error = refused(h, "0 3D")
    assert error.law == "L3-LEAD-05" and "QD" in error.message


@pytest.mark.law("L3-LEAD-06")
def test_L3_LEAD_06_option_two_or_more_trumps_lead_one() -> None:
    h = lead_hand("QD 3D 9H", first_lead_rule=FirstLeadRule.ANY_TRUMP)
    assert legal(h) == ["QD", "3D"]
    assert refused(h, "0 9H").law == "L3-LEAD-06"


@pytest.mark.law("L3-LEAD-08")
def test_L3_LEAD_08_otherwise_any_lead() -> None:
    assert sorted(legal(lead_hand("5D 5C 9H"))) == ["5C", "5D", "9H"]


@pytest.mark.law("L3-LEAD-09", "L3-LEAD-10")
def test_L3_LEAD_09_10_the_winner_leads_and_must_lead_his_highest_trump() -> None:
    h = push(lead_hand("AS 5D 9H"), "0 AS", "1 3S", "2 2S")
    assert h.to_act == 0  # L3-LEAD-09
    assert legal(h) == ["5D"]
    assert refused(h, "0 9H").law == "L3-LEAD-10"
    free = push(lead_hand("AS 5D 9H", winner_must_lead_trump=WinnerLeadsTrump.OFF), "0 AS", "1 3S", "2 2S")
    assert sorted(legal(free)) == ["5D", "9H"]


# ----- play to a trick (A.8) and winning it (A.9) ------------------------------------------------


def all_stand():  # type: ignore[no-untyped-def]
    return push(base(), "0 stand", "1 stand", "2 stand", "3 stand", "4 stand")


@pytest.mark.law("L3-PLAY-02")
def test_L3_PLAY_02_follow_suit_when_able() -> None:
    h = push(all_stand(), "0 2C", "1 QD")
    assert legal(h) == ["9C", "8C"]  # trumped already, so any club (L3-PLAY-03 does not apply)
    assert refused(h, "2 7H").law == "L3-PLAY-02"


@pytest.mark.law("L3-PLAY-03")
def test_L3_PLAY_03_head_the_trick_when_able() -> None:
    h = make("9S 2C 3C | QS 5S 2H | 10S 4H 5H", miss="KC QC JC", turnup="7D")
    push(h, "0 stand", "1 stand", "2 stand", "0 9S")
    assert legal(h) == ["QS"]
    error = refused(h, "1 5S")
    assert error.law == "L3-PLAY-03"
    assert error.message == "Ben must head the trick: QS beats 9S, so 5S may not be played"


@pytest.mark.law("L3-PLAY-04")
def test_L3_PLAY_04_a_void_player_must_trump_if_his_trump_heads_the_trick() -> None:
    h = push(all_stand(), "0 2C")
    assert legal(h) == ["KD", "QD"]
    assert refused(h, "1 3S").law == "L3-PLAY-04"


@pytest.mark.law("L3-PLAY-05", "AMB-10")
def test_L3_PLAY_05_AMB_10_a_void_player_who_cannot_head_may_discard_or_undertrump() -> None:
    h = push(all_stand(), "0 2C", "1 QD", "2 8C")
    assert sorted(legal(h)) == ["4D", "5S", "JH"]


@pytest.mark.law("L3-TRK-01", "L3-DIV-01", "L3-DIV-02", "L3-LOO-01", "L3-LOO-02", "L3-STK-11")
def test_L3_TRK_01_L3_DIV_01_02_L3_LOO_01_02_a_whole_hand_settles_by_thirds_and_loos() -> None:
    s = played_hand().settlement
    assert s is not None
    assert [t.winner for t in s.tricks] == [4, 1, 1]  # trump wins, else the highest of the suit led
    assert s.tricks_won == (0, 2, 0, 0, 1)
    assert s.payouts == (0, 2, 0, 0, 1)  # 3 in the pool: one a trick (L3-DIV-02)
    assert s.looed == (0,) and s.loos == (6, 0, 0, 0, 0)  # Peel's loo of 6 (L3-STK-02)
    assert s.next_pool == 6  # L3-STK-11: the loo goes to the next pool


@pytest.mark.law("L3-DIV-03", "AMB-14")
def test_L3_DIV_03_AMB_14_remainders_go_to_the_winners_of_the_first_tricks() -> None:
    s = played_hand(pool=7).settlement
    assert s is not None and s.payouts == (0, 4, 0, 0, 3)  # 3 for trick 1 (Eve), 2 + 2 for Ben


@pytest.mark.law("UL-03", "AMB-34")
def test_UL_03_unlimited_loo_is_the_pool_AMB_34() -> None:
    s = played_hand(pool=12, loo_mode=LooMode.UNLIMITED).settlement
    assert s is not None and s.loos == (12, 0, 0, 0, 0) and s.next_pool == 12


@pytest.mark.law("UL-04")
def test_UL_04_capped_loo() -> None:
    s = played_hand(pool=12, loo_mode=LooMode.CAPPED, loo_cap=5).settlement
    assert s is not None and s.loos == (5, 0, 0, 0, 0)


@pytest.mark.law("L3-LOO-05")
def test_L3_LOO_05_a_hand_where_every_stander_takes_a_trick_looes_nobody() -> None:
    h = make("AS 2C 3C | KH 5S 2H | QC 4H 5H", miss="KC JC 10C", turnup="7D")
    push(h, "0 stand", "1 stand", "2 stand", "0 AS", "1 5S", "2 4H", "0 2C", "1 2H", "2 QC", "2 5H", "0 3C", "1 KH")
    s = h.settlement
    assert s is not None and s.looed == () and s.loo_free and s.tricks_won == (1, 1, 1)


@pytest.mark.law("L3-PLAY-08", "L3-DECL-13", "L3-PLAY-01")
def test_L3_PLAY_08_L3_DECL_13_no_declaring_once_play_begins() -> None:
    h = all_stand()
    assert refused(h, "0 throw").law == "L3-PLAY-08"
    assert refused(h, "0 stand").law == "L3-PLAY-01"


# ----- the single and the first deal (A.4) --------------------------------------------------------


@pytest.mark.law("L3-SGL-02", "L3-SGL-03", "L3-SGL-04", "L3-SGL-06")
def test_L3_SGL_02_03_04_peels_single_the_highest_card_above_the_turnup_takes_the_pool() -> None:
    h = make("QD | 3D | AH | 9S | 2C", turnup="7D", kind=DealKind.SINGLE)
    s = h.settlement
    assert h.is_over and s is not None and s.reason == "single"
    assert s.payouts == (3, 0, 0, 0, 0)
    assert s.looed == (1, 2, 3, 4) and s.loos == (0, 3, 3, 3, 3)  # the single loo (L3-SGL-06)
    assert s.next_pool == 12


@pytest.mark.law("L3-SGL-05")
def test_L3_SGL_05_nobody_beats_the_turnup_so_all_are_looed_and_the_pool_stays() -> None:
    s = make("5D | 3D | AH | 9S | 2C", turnup="7D", kind=DealKind.SINGLE).settlement
    assert s is not None and s.payouts == (0,) * 5 and s.next_pool == 3 + 5 * 3


@pytest.mark.law("AMB-03")
def test_AMB_03_an_ace_turned_up_cannot_be_beaten_in_the_single() -> None:
    s = make("KD | 3D | AH | 9S | 2C", turnup="AD", kind=DealKind.SINGLE).settlement
    assert s is not None and s.payouts == (0,) * 5


@pytest.mark.law("L3-SGL-09")
def test_L3_SGL_09_enquire_within_single_no_miss_and_everyone_plays() -> None:
    h = make(BASE, turnup="7D", preset="enquire-within", kind=DealKind.SINGLE)
    assert legal(h) == ["stand"]
    assert refused(h, "0 throw").law == "L3-SGL-09"


@pytest.mark.law("L3-END-03", "AMB-22")
def test_L3_END_03_AMB_22_peels_last_round_all_stand_no_miss_no_loos() -> None:
    h = make(BASE, turnup="7D", kind=DealKind.FINAL)
    assert legal(h) == ["stand"]
    push(h, "0 stand", "1 stand", "2 stand", "3 stand", "4 stand")
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None and s.loos == (0,) * 5 and s.looed == ()


# ----- Bold Stand (A.14) and Club Law (A.13) ---------------------------------------------------------


@pytest.mark.law("L3-BOLD-01", "L3-BOLD-02")
def test_L3_BOLD_01_02_only_the_dealers_stake_in_the_pool_forces_everyone_to_play() -> None:
    h = base(preset="britannica", pool=3)
    assert legal(h) == ["stand", "miss"]  # L3-BOLD-02: the eldest may take the Dumby
    push(h, "0 stand")
    assert legal(h) == ["stand"]
    assert refused(h, "1 throw").law == "L3-BOLD-01"
    assert refused(h, "1 miss").law == "L3-BOLD-02"


@pytest.mark.law("L3-BOLD-04")
def test_L3_BOLD_04_with_more_in_the_pool_playing_is_optional() -> None:
    assert legal(base(preset="britannica", pool=9)) == ["stand", "miss", "throw"]


@pytest.mark.law("L3-BOLD-03")
def test_L3_BOLD_03_worked_example_eight_players_five_looed_next_pool_eighteen() -> None:
    status, result = check((GOLDEN / "L3-BOLD-03-eight-players.json").read_text())
    assert status == 0 and result["complete"]
    assert len(result["looed"]) == 5 and set(result["loos"]) == {0, 3}
    assert result["next_pool"] + 3 == 18  # with the next dealer's three


@pytest.mark.law("L3-CLUB-01", "L3-CLUB-02", "AMB-18")
def test_L3_CLUB_01_02_AMB_18_club_law_everyone_stands_and_the_miss_is_withdrawn() -> None:
    h = make(BASE, miss=MISS, turnup="7C", club_law=True)
    assert legal(h) == ["stand"]
    assert refused(h, "0 throw").law == "L3-CLUB-01"
    assert refused(h, "0 miss").law == "L3-CLUB-02"
    assert legal(make(BASE, miss=MISS, turnup="7D", club_law=True)) == ["stand", "miss", "throw"]


@pytest.mark.law("CF-13")
def test_CF_13_club_law_with_the_miss_available() -> None:
    h = make(BASE, miss=MISS, turnup="7C", club_law=True, club_law_miss=ClubLawMiss.AVAILABLE)
    assert legal(h) == ["stand", "miss"]


# ----- the seat's view hides what it may not see (CF-17) ------------------------------------------


def test_a_seat_sees_its_cards_from_its_turn_and_never_anothers() -> None:
    h = base()
    assert h.view(0).hand is not None and h.view(1).hand is None  # Ben looks only at his turn
    push(h, "0 stand")
    v = h.view(1)
    assert v.hand is not None and {str(c) for c in v.hand} == {"KD", "QD", "3S"}
    assert v.legal and all(a.seat == 1 for a in v.legal)
    assert h.view(2).legal == ()


def test_pop_takes_back_an_action() -> None:
    h = push(base(), "0 stand", "1 miss")
    assert h.pop().value == "miss"
    assert h.to_act == 1 and [str(c) for c in h.holding(1)] == ["KD", "QD", "3S"]


def test_the_check_command_reports_an_illegal_play_with_its_law() -> None:
    record = {
        "format": "loo-record/1", "game": "three-card-loo", "seats": ["Ann", "Ben", "Cat"], "dealer": 2, "pool": 3,
        "deal": {"hands": [["9S", "2C", "3C"], ["QS", "5S", "2H"], ["10S", "4H", "5H"]], "miss": ["KC", "QC", "JC"],
                 "turnup": "7D"},
        "actions": [{"seat": 0, "declare": "stand"}, {"seat": 1, "declare": "stand"}, {"seat": 2, "declare": "stand"},
                    {"seat": 0, "play": "9S"}, {"seat": 1, "play": "5S"}],
    }  # fmt: skip
    status, result = check(json.dumps(record))
    assert status == 1
    assert result == {
        "ok": False, "action": 4, "seat": 1, "law": "L3-PLAY-03",
        "message": "Ben must head the trick: QS beats 9S, so 5S may not be played",
    }  # fmt: skip


@pytest.mark.parametrize("preset", ["peel", "enquire-within", "britannica"])
def test_presets_differ_where_their_sources_do(preset: str) -> None:
    h = lead_hand("QD 3D 9H", preset=preset)
    expected = {"peel": ["QD"], "enquire-within": ["QD"], "britannica": ["QD", "3D"]}[preset]
    assert legal(h) == expected  # CF-02


def test_explanations_say_why_each_action_is_or_is_not_allowed_citing_real_laws() -> None:
    from loo.core.laws import LAWS

    h = make("9S 2C 3C | QS 5S 2H | 10S 4H 5H", miss="KC QC JC", turnup="7D")
    push(h, "0 stand", "1 stand", "2 stand", "0 9S")
    why = {str(e.action.value): e for e in h.explain()}
    assert set(why) == {"QS", "5S", "2H"}
    assert why["QS"].legal and not why["5S"].legal and not why["2H"].legal
    assert why["5S"].law == "L3-PLAY-03" and "must head" in why["5S"].reason
    assert why["2H"].law == "L3-PLAY-02"
    assert all(e.law in LAWS for e in why.values())
    assert why["5S"].cite().startswith("L3-PLAY-03 (")
    declaring = {e.action.value: e for e in base().explain()}
    assert all(declaring[d].legal for d in ("stand", "miss", "throw"))
    bold = {e.action.value: e for e in push(base(preset="britannica", pool=3), "0 stand").explain()}
    assert not bold["throw"].legal and bold["throw"].law == "L3-BOLD-01"


def test_a_forced_lead_is_explained_by_the_duty_that_forces_it() -> None:
    from widgets.book import play_hand

    stands = [{"seat": s, "declare": "stand"} for s in range(5)]
    forced = play_hand("three-card-loo", "peel", seed=1, finish=False, actions=stands)
    (only,) = [e for e in forced.explain() if e.legal]
    assert only.law == "L3-LEAD-05" and "must lead QS" in only.reason
    # the same seat's other cards are refused under that same law
    assert {e.law for e in forced.explain() if not e.legal and e.action.verb == "play"} == {"L3-LEAD-05"}
    # the encyclopedia's rule: any trump; each legal lead is one of the trumps, explained by L3-LEAD-06
    any_trump = play_hand(
        "three-card-loo", "peel", seed=1, finish=False, actions=stands, options={"first-lead-rule": "any-trump"}
    )
    legal = [e for e in any_trump.explain() if e.legal and e.action.verb == "play"]
    assert len(legal) >= 2 and {e.law for e in legal} == {"L3-LEAD-06"}
