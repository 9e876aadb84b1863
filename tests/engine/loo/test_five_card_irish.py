"""Five-card Loo with Pam (catalogue group B), Irish Loo (group C) and Unlimited Loo (group D), law by law."""

from __future__ import annotations

import pytest

from loo.games.loo.rules import FiveCardLeadRules, FlushLooDestination, LooMode, Pam, PamBeCivil
from loo.games.loo.state import Flush
from tests.helpers.loo_helpers import legal, make, push, refused

# Three players, Cat (seat 2) deals; hearts are trumps (turn-up 2H); Pam is the knave of clubs.
PAM3 = "AH 4S 5S 6D 7D | JC 3S 9C 8D 2C | KH 10S QS 9D 3C"
STOCK = "AS KS 2S 5D 4D 3D 2D 6C 5C 4C"


def five(hands: str = PAM3, **kw: object):  # type: ignore[no-untyped-def]
    return make(hands, turnup="2H", preset="pam", stock=STOCK, **kw)  # type: ignore[arg-type]


def to_play(h):  # type: ignore[no-untyped-def]
    return push(h, "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x")


@pytest.mark.law("L5-RANK-01", "L5-RANK-03")
def test_L5_RANK_01_03_pam_is_the_top_trump_above_the_ace() -> None:
    # Civility waived, so Ben may play Pam on the ace and win.
    h = push(to_play(five(pam_be_civil=PamBeCivil.COURTESY)), "0 AH", "1 JC")
    push(h, "2 KH")
    assert h.tricks[0].winner == 1


@pytest.mark.law("L5-RANK-02")
def test_L5_RANK_02_running_pam_makes_the_trump_knave_pam() -> None:
    h = five("JH 4S 5S 6D 7D | AH 3S 9C 8D 2C | KH 10S QS 9D JC", pam=Pam.TRUMP_KNAVE)
    push(to_play(h), "0 JH", "1 AH", "2 KH")
    assert h.tricks[0].winner == 0
    assert h.pam_card is not None and str(h.pam_card) == "JH"


@pytest.mark.law("L5-RANK-05", "AMB-26")
def test_L5_RANK_05_AMB_26_pam_be_civil_to_a_led_ace_of_trumps() -> None:
    h = push(to_play(five()), "0 AH")
    assert "JC" not in legal(h)  # Ben holds no other trump, so he is void and may discard (AMB-26)
    assert refused(h, "1 JC").law == "L5-RANK-05"
    courteous = push(to_play(five(pam_be_civil=PamBeCivil.COURTESY)), "0 AH")
    assert "JC" in legal(courteous)


@pytest.mark.law("CF-22")
def test_CF_22_on_announce_only_when_the_words_are_said() -> None:
    from loo.core.actions import Action
    from loo.core.cards import Card

    quiet = push(to_play(five(pam_be_civil=PamBeCivil.ON_ANNOUNCE)), "0 AH")
    assert "JC" in legal(quiet)
    said = to_play(five(pam_be_civil=PamBeCivil.ON_ANNOUNCE))
    said.push(Action(0, "play", Card.parse("AH"), civil=True))
    assert "JC" not in legal(said)


@pytest.mark.law("AMB-25")
def test_AMB_25_pam_is_a_trump_never_a_club() -> None:
    h = push(to_play(five()), "0 6D", "1 8D", "2 9D", "2 3C")
    # Ben holds JC (Pam) and 9C, 2C: he must follow clubs with a real club, and Pam is no club.
    push(h, "0 4S")  # Ann is void in clubs
    assert sorted(legal(h)) == ["2C", "9C"]
    assert refused(h, "1 JC").law == "L3-PLAY-02"


@pytest.mark.law("L5-PLAY-02", "L5-PLAY-03")
def test_L5_PLAY_02_03_no_duty_to_head_or_trump_at_five_cards() -> None:
    h = push(to_play(five()), "0 4S")
    assert sorted(legal(h)) == ["3S"]  # follow suit, but no duty to head
    push(h, "1 3S")
    assert sorted(legal(h)) == ["10S", "QS"]  # either, though only QS heads
    h2 = push(to_play(five()), "0 6D", "1 8D", "2 9D", "2 3C", "0 7D")
    assert sorted(legal(h2)) == ["2C", "9C"]


@pytest.mark.law("L5-PLAY-01", "CF-26")
def test_L5_PLAY_01_CF_26_the_first_lead_is_free_unless_three_card_rules_are_chosen() -> None:
    assert sorted(legal(to_play(five()))) == ["4S", "5S", "6D", "7D", "AH"]
    strict = to_play(five(five_card_lead_rules=FiveCardLeadRules.AS_THREE_CARD))
    assert legal(strict) == ["AH"]  # L3-LEAD-03 imported by 001 §100.iv


@pytest.mark.law("L5-DECL-02", "L5-DECL-03")
def test_L5_DECL_02_03_exchanges_come_from_the_stock_in_order() -> None:
    h = push(five(), "0 stand", "1 stand", "2 stand", "0 x 4S 5S")
    assert sorted(str(c) for c in h.holding(0)) == sorted(["AH", "6D", "7D", "AS", "KS"])
    assert h.to_act == 1
    assert refused(h, "1 x 4S").law == "L5-DECL-02"  # Ben does not hold 4S


@pytest.mark.law("L5-DECL-05")
def test_L5_DECL_05_everyone_passes_and_the_dealer_wins() -> None:
    h = push(five(pool=15), "0 throw", "1 throw")
    s = h.settlement
    assert s is not None and s.payouts == (0, 0, 15)


@pytest.mark.law("L5-DECL-06")
def test_L5_DECL_06_one_plays_and_the_rest_pass_so_he_wins_without_play() -> None:
    h = push(five(pool=15), "0 stand", "1 throw", "2 throw")
    s = h.settlement
    assert s is not None and s.reason == "conceded" and s.payouts == (15, 0, 0) and s.tricks == ()


@pytest.mark.law("L5-STK-02", "L5-STK-03")
def test_L5_STK_02_03_each_trick_is_a_fifth_of_the_pool() -> None:
    # Enquire Within's half crown (30d) in the pool: each trick is worth 6d, and a loo is half a crown.
    h = to_play(five(pool=30, loo_amount=30))
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None
    assert sum(s.payouts) == 30 and all(p % 6 == 0 for p in s.payouts)
    assert all(s.loos[p] == 30 for p in s.looed)


@pytest.mark.law("L5-FL-01", "L5-FL-03", "L5-FL-04", "L5-FL-06")
def test_L5_FL_01_03_04_06_a_pam_flush_sweeps_the_pool_and_looes_the_rest() -> None:
    hands = "JC 2S 5S 6S 7S | AH KH QH 10H 9H | 3D 4D 8C 9C KC"
    h = push(five(hands, pool=15), "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x")
    s = h.settlement
    assert s is not None and s.reason == "flush" and s.flush == (0, "pam")
    assert s.payouts == (15, 0, 0)
    assert s.looed == (2,)  # Ben holds a lower flush (five trumps) and is excused (L5-FL-06)
    assert s.loos == (0, 0, 5) and s.next_pool == 5


@pytest.mark.law("L5-FL-04", "L5-FL-05")
def test_L5_FL_04_05_ranks_and_ties_go_to_the_elder_hand() -> None:
    h = five()
    assert h.flush_of([c for c in h.holding(0)]) is None
    from loo.core.cards import parse_cards

    assert h.flush_of(parse_cards("AH KH QH 10H 9H")) is Flush.TRUMP
    assert h.flush_of(parse_cards("AS KS QS 10S 9S")) is Flush.PLAIN
    assert h.flush_of(parse_cards("JC AS KS QS 10S")) is Flush.PAM
    tie = push(five("AS KS QS 10S 9S | 2D 3D 4D 5D 6D | KH 9C 8C 2C 3C", pool=15),
               "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x")  # fmt: skip
    assert tie.settlement is not None and tie.settlement.flush == (0, "plain")


@pytest.mark.law("CF-23")
def test_CF_23_flush_loos_may_go_to_the_flush_holder() -> None:
    hands = "JC 2S 5S 6S 7S | AH KH QH 10H 9C | 3D 4D 8C 9H KC"
    h = push(five(hands, pool=15, flush_loo_destination=FlushLooDestination.TO_FLUSH_HOLDER),
             "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x")  # fmt: skip
    s = h.settlement
    assert s is not None and s.loos == (0, 0, 0) and s.direct == (10, -5, -5) and s.next_pool == 0


@pytest.mark.law("L5-OPT-01")
def test_L5_OPT_01_must_everyone_plays_when_the_pool_is_the_stake() -> None:
    h = five(pool=5, must_option=True)
    assert legal(h) == ["stand"]
    assert refused(h, "0 throw").law == "L5-OPT-01"
    assert legal(five(pool=10, must_option=True)) == ["stand", "throw"]


@pytest.mark.law("L5-OPT-02", "AMB-29")
def test_L5_OPT_02_AMB_29_the_dealer_may_take_the_turnup() -> None:
    h = push(five(dealer_takes_turnup=True), "0 stand", "1 stand")
    assert "take-turnup QS" in legal(h)
    push(h, "2 turnup 3C")
    assert "2H" in [str(c) for c in h.holding(2)] and "3C" not in [str(c) for c in h.holding(2)]
    assert h.view(0).turnup_taken and str(h.view(0).turnup) == "2H"  # trumps stay known to all


@pytest.mark.law("L5-OPT-03", "UL-09")
def test_L5_OPT_03_UL_09_unlimited_five_card_loo_is_the_pool() -> None:
    h = to_play(five(pool=20, loo_mode=LooMode.UNLIMITED))
    while not h.is_over:
        h.push(h.legal_actions()[0])
    s = h.settlement
    assert s is not None and all(s.loos[p] == 20 for p in s.looed)


# ----- Irish Loo ------------------------------------------------------------------------------


IRISH = "AS 10H 2C | KD QD 3S | 9C 8C 7H"


def irish(**kw: object):  # type: ignore[no-untyped-def]
    return make(IRISH, turnup="7D", preset="irish", stock="AH KH QH JH 9H", **kw)  # type: ignore[arg-type]


@pytest.mark.law("IRL-01")
def test_IRL_01_no_miss_in_irish_loo() -> None:
    h = irish(pool=6)
    assert legal(h) == ["stand", "throw"]
    assert refused(h, "0 miss").law == "IRL-01"


@pytest.mark.law("IRL-01", "L3-DLR-03")
def test_IRL_01_the_dealer_facing_one_stander_is_told_there_is_no_miss_to_play_for_the_pool() -> None:
    """The refusal described the very case it refused ("only the dealer facing one stander ... may play
    the miss for the pool"): at Irish Loo there is no miss, and the refusal says so."""
    h = push(irish(pool=6), "0 stand", "1 throw")
    refusal = refused(h, "2 pool")
    assert refusal.law == "IRL-01" and "there is no miss in Irish Loo" in str(refusal), refusal


@pytest.mark.law("IRL-02", "IRL-04", "IRL-05")
def test_IRL_02_04_05_exchanges_after_declaring_up_to_three_cards() -> None:
    h = push(irish(pool=6), "0 stand", "1 stand", "2 stand")
    options = legal(h)
    assert "x" in options and "x AS 10H 2C" in options and len(options) == 8  # every subset of three cards
    push(h, "0 x 2C 10H")
    assert sorted(str(c) for c in h.holding(0)) == ["AH", "AS", "KH"]


@pytest.mark.law("IRL-03")
def test_IRL_03_three_card_lead_rules_apply_after_exchanging() -> None:
    h = push(irish(pool=6), "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x")
    push(h, "0 AS")
    assert legal(h) == ["3S"]
    push(h, "1 3S")
    assert sorted(legal(h)) == ["7H", "8C", "9C"]
    h2 = push(irish(pool=6), "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x", "0 2C")
    assert legal(h2) == ["KD", "QD"]  # void in clubs, so he must head with a trump (L3-PLAY-04)


@pytest.mark.law("IRL-06", "AMB-33")
def test_IRL_06_AMB_33_a_lone_player_facing_the_dealer() -> None:
    h = push(irish(pool=6), "0 stand", "1 throw")
    assert legal(h) == ["stand", "throw"]
    push(h, "2 throw")
    assert h.settlement is not None and h.settlement.payouts == (6, 0, 0)
    dealer = push(irish(pool=6), "0 throw", "1 throw")
    assert dealer.settlement is not None and dealer.settlement.payouts == (0, 0, 6)


@pytest.mark.law("AMB-28")
def test_AMB_28_exchanges_are_limited_to_what_the_stock_holds() -> None:
    h = push(make(IRISH, turnup="7D", preset="irish", stock="AH", pool=6), "0 stand", "1 stand", "2 stand")
    assert max(len(a.value) for a in h.legal_actions()) == 1
    assert refused(h, "0 x AS 10H").law == "AMB-28"


def test_every_law_the_engine_cites_is_in_the_catalogue() -> None:
    import re
    from pathlib import Path

    from loo.core.laws import LAWS

    source = "".join(p.read_text() for p in (Path(__file__).parents[3] / "loo").rglob("*.py") if p.name != "laws.py")
    cited = set(re.findall(r'"((?:L3|L5|IRL|UL|AMB|CF)-[A-Z0-9-]*[0-9])"', source))
    assert len(cited) > 30
    assert sorted(cited - set(LAWS)) == []


@pytest.mark.law("AMB-11")
def test_AMB_11_the_ace_of_trumps_is_led_even_when_pam_outranks_it() -> None:
    # Five-card Loo under three-card lead rules: Pam, the ace and another trump. The ace rule decides.
    h = five("JC AH 5H 9S 3S | KD QD 4C 7S 8S | KH 10S QS 9D 3C", five_card_lead_rules=FiveCardLeadRules.AS_THREE_CARD)
    to_play(h)
    assert legal(h) == ["AH"]
