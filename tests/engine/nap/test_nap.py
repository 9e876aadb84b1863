"""Napoleon, law by law (catalogue group E). Each test names the IDs it checks."""

from __future__ import annotations

import random

import pytest

from loo.core.actions import Action
from loo.core.cards import Card, Rank, Suit, full_pack
from loo.core.rules import RecordError
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import KittyMode, NapRules, deal_nap
from loo.games.nap.state import NapPhase
from tests.helpers.nap_helpers import legal, nap, push, refused
from tests.helpers.playing import play_out

# Ann (0) AS KS QS 2H 3D | Ben (1) 9S 8H 7H 2C 4D | Cat (2) JS 10S AH KD 5C | Dan (3, dealer) 3S 6H QD 9C 10C

# A deal where the trumps and the suits led show what play does and does not require.
FREE = "AS 2S 10H 2D 3D | KH 3H 5S 6C 7C | 9H 8C 9C 10C JC | QH 6S 2C 3C 4C"
# Ann holds every top card: a Nap.
NAP_HAND = "AS KS QS JS AH | 2S 3H 4H 5H 6H | 7H 8H 9H 10H JH | QH KH 2C 3C 4C"
# Ann's spades win four tricks, but her 2H loses the fifth.
NAP_FAILS = "AS KS QS JS 2H | 2S 3H 4H 5H 6H | 7H 8H 9H 10H JH | QH KH 2C 3C 4C"


class Unshuffled(random.Random):
    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        return None


def three_made() -> NapHand:
    """Ann calls three and wins the first three tricks with her spades."""
    return push(nap(), "0 3", "1 pass", "2 pass", "3 pass",
                "0 AS", "1 9S", "2 JS", "3 3S",
                "0 KS", "1 2C", "2 10S", "3 9C",
                "0 QS", "1 8H", "2 5C", "3 10C")  # fmt: skip


# ----- general and the deal (E.1) -------------------------------------------------------------


@pytest.mark.law("NAP-GEN-02")
def test_NAP_GEN_02_a_full_pack_ranked_as_at_whist_for_two_players_and_more() -> None:
    assert len(set(full_pack())) == 52
    two = push(nap("AS 2S 3S 4S 5S | KS 6S 7S 8S 9S", dealer=1), "0 1", "1 pass", "0 5S", "1 KS")
    assert two.tricks[0].winner == 1  # the king beats the five: ace high, two low
    push(two, "1 9S", "0 AS")
    assert two.tricks[1].winner == 0
    rules = NapRules()
    for seats in (2, 3, 4, 5, 6, rules.max_seats()):
        hands, _, _, stock = deal_nap(rules, random.Random(seats), seats=seats, dealer=0)
        assert [len(h) for h in hands] == [5] * seats and len(stock) == 52 - 5 * seats
    with pytest.raises(ValueError, match="AMB-02"):
        deal_nap(rules, random.Random(1), seats=11, dealer=0)


@pytest.mark.law("NAP-GEN-04")
def test_NAP_GEN_04_no_duty_to_head_a_trick_or_to_trump() -> None:
    h = push(nap(FREE), "0 2", "1 pass", "2 pass", "3 pass", "0 AS", "1 5S", "2 8C", "3 6S", "0 10H")
    assert legal(h) == ["KH", "3H"]  # the three of hearts need not head the ten
    push(h, "1 KH", "2 9H", "3 QH", "1 6C", "2 JC", "3 4C")
    assert h.trump is Suit.SPADES
    assert legal(h) == ["2S", "2D", "3D"]  # void in clubs, Ann may trump or throw a diamond
    [explained] = [e for e in h.explain() if e.action.value == Card.parse("2D")]
    assert explained.legal and explained.law == "NAP-GEN-04"


@pytest.mark.law("NAP-DEAL-03")
def test_NAP_DEAL_03_five_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    hands, garnet, peep, stock = deal_nap(NapRules(), Unshuffled(), seats=4, dealer=1)
    order = list(full_pack())
    assert hands[2][:2] == [order[0], order[4]]  # Cat, on the dealer's left, receives the first card
    assert hands[1][:2] == [order[3], order[7]]  # the dealer the fourth
    assert (garnet, peep, stock) == ([], None, order[20:])


@pytest.mark.law("NAP-DEAL-04")
def test_NAP_DEAL_04_there_is_no_turn_up_trumps_wait_for_the_first_lead() -> None:
    h = nap()
    assert h.trump is None and h.view(0).trump is None and not hasattr(h, "turnup")
    push(h, "0 3", "1 pass", "2 pass", "3 pass", "0 KS")
    assert h.trump is Suit.SPADES


@pytest.mark.law("NAP-DEAL-05")
def test_NAP_DEAL_05_the_rest_of_the_pack_is_out_of_sight() -> None:
    h = nap()
    for seat in range(4):
        view = h.view(seat)
        seen = set(view.hand)
        assert seen == set(h.holding(seat))
        assert not seen & set(h.stock) and "stock" not in view.__dataclass_fields__


# ----- calling (E.2) ------------------------------------------------------------------------------


@pytest.mark.law("NAP-CALL-01")
def test_NAP_CALL_01_the_eldest_calls_first_and_each_later_call_must_raise() -> None:
    h = nap()
    assert h.to_act == 0 and h.phase is NapPhase.CALL
    assert refused(h, "1 2").law == "NAP-CALL-01"
    push(h, "0 2")
    assert legal(h) == ["pass", "3", "4", "nap"]
    error = refused(h, "1 2")
    assert error.law == "NAP-CALL-01" and error.message == "Ben must call higher than two, so two may not be called"


@pytest.mark.law("NAP-CALL-02")
def test_NAP_CALL_02_nap_is_the_limit() -> None:
    h = push(nap(), "0 nap")
    assert legal(h) == ["pass"]
    assert refused(h, "1 nap").law == "NAP-CALL-02"


@pytest.mark.law("NAP-CALL-03")
def test_NAP_CALL_03_a_call_stands() -> None:
    h = push(nap(), "0 2", "1 pass")
    error = refused(h, "0 3")
    assert error.law == "NAP-CALL-03" and "stands" in error.message
    assert h.actions[-1] == Action(1, "call", "pass") and h.call == "2"


@pytest.mark.law("NAP-CALL-04", "AMB-36")
def test_NAP_CALL_04_AMB_36_the_dealer_must_call_one_when_everyone_passes() -> None:
    h = push(nap(), "0 pass", "1 pass", "2 pass")
    assert legal(h) == ["1", "2", "3", "4", "nap"]
    assert refused(h, "3 pass").law == "NAP-CALL-04"
    push(h, "3 1")
    assert h.caller == 3 and h.to_act == 3
    # With the forced call agreed away, four passes mean a fresh deal.
    h = push(nap(dealer_forced_one=False), "0 pass", "1 pass", "2 pass", "3 pass")
    s = h.settlement
    assert h.is_over and s is not None and s.reason == "redeal" and s.net() == (0, 0, 0, 0) and s.tricks == ()


@pytest.mark.law("AMB-36")
def test_AMB_36_the_lowest_voluntary_call_can_be_agreed() -> None:
    h = nap(min_call=2)
    assert legal(h) == ["pass", "2", "3", "4", "nap"]
    assert refused(h, "0 1").law == "AMB-36"
    push(h, "0 pass", "1 pass", "2 pass")
    assert legal(h) == ["1", "2", "3", "4", "nap"]  # the dealer's forced one is still a call


@pytest.mark.law("NAP-CALL-05", "NAP-PLAY-01")
def test_NAP_CALL_05_NAP_PLAY_01_the_highest_caller_plays_alone_and_leads_and_his_suit_is_trumps() -> None:
    h = push(nap(), "0 pass", "1 2", "2 3", "3 pass")
    assert h.caller == 2 and h.to_act == 2 and h.phase is NapPhase.PLAY
    assert refused(h, "0 AS").law == "NAP-PLAY-01"
    push(h, "2 KD")
    assert h.trump is Suit.DIAMONDS
    [explained] = [e for e in nap().explain() if e.action.value == "3"]
    assert explained.legal and explained.law == "NAP-CALL-01"


# ----- play (E.3) -----------------------------------------------------------------------------------


@pytest.mark.law("NAP-PLAY-02", "NAP-PLAY-03")
def test_NAP_PLAY_02_03_follow_suit_if_able_and_a_renounce_while_holding_the_suit_is_refused() -> None:
    h = push(nap(), "0 3", "1 pass", "2 pass", "3 pass", "0 AS")
    assert legal(h) == ["9S"]
    error = refused(h, "1 2C")
    assert (error.law, error.seat) == ("NAP-PLAY-02", 1)
    assert error.message == "Ben must follow suit: Ben holds 9S, so 2C may not be played"
    assert refused(h, "1 AH").message.startswith("Ben does not hold AH")


@pytest.mark.law("NAP-PLAY-04")
def test_NAP_PLAY_04_the_highest_of_the_suit_led_or_the_highest_trump_wins_and_leads_next() -> None:
    h = push(nap(FREE), "0 2", "1 pass", "2 pass", "3 pass", "0 AS", "1 5S", "2 8C", "3 6S",
             "0 10H", "1 KH", "2 9H", "3 QH")  # fmt: skip
    assert [t.winner for t in h.tricks] == [0, 1] and h.to_act == 1
    push(h, "1 6C", "2 JC", "3 4C", "0 2S")  # a spade (trumps) beats the knave of clubs
    assert h.tricks[-1].winner == 0


@pytest.mark.law("NAP-PLAY-05")
def test_NAP_PLAY_05_played_cards_stay_before_their_owners_for_all_to_see() -> None:
    h = push(nap(), "0 3", "1 pass", "2 pass", "3 pass", "0 AS", "1 9S", "2 JS", "3 3S", "0 KS")
    for seat in range(4):
        view = h.view(seat)
        assert [(p, str(c)) for p, c in view.tricks[0].plays] == [(0, "AS"), (1, "9S"), (2, "JS"), (3, "3S")]
        assert view.tricks[0].winner == 0 and [(p, str(c)) for p, c in view.current] == [(0, "KS")]


@pytest.mark.law("NAP-PLAY-06", "AMB-43")
def test_NAP_PLAY_06_AMB_43_play_may_stop_once_the_call_is_made_or_beaten() -> None:
    h = three_made()
    assert h.is_over and len(h.tricks) == 3 and h.holding(0) == (Card.parse("2H"), Card.parse("3D"))
    assert h.to_act is None and h.legal_actions() == []  # a table or a bot stops here
    beaten = push(nap(), "0 pass", "1 4", "2 pass", "3 pass", "1 9S", "2 JS", "3 3S", "0 AS",
                  "0 KS", "1 2C", "2 10S", "3 9C")  # fmt: skip
    assert beaten.is_over and len(beaten.tricks) == 2  # Ben can no longer make four
    assert refused(beaten, "0 pass").law == "NAP-PLAY-06"  # nothing but the cards left may follow
    push(beaten, "0 QS")  # but the hand may be played out (tests/engine/nap/test_nap_play_on.py)


# ----- settlement (E.4) ---------------------------------------------------------------------------


@pytest.mark.law("NAP-SET-01", "NAP-SET-03")
def test_NAP_SET_01_03_the_call_made_is_paid_level_money_by_every_opponent() -> None:
    s = three_made().settlement
    assert s is not None and s.made and s.call == "3" and s.caller == 0
    assert s.tricks_won == (3, 0, 0, 0) and s.net() == (9, -3, -3, -3)  # three each way at penny Nap


@pytest.mark.law("NAP-SET-02")
def test_NAP_SET_02_a_failed_caller_pays_only_his_call_even_with_no_trick() -> None:
    h = push(nap(), "0 pass", "1 4", "2 pass", "3 pass", "1 9S", "2 JS", "3 3S", "0 AS",
             "0 KS", "1 2C", "2 10S", "3 9C")  # fmt: skip
    s = h.settlement
    assert s is not None and not s.made and s.tricks_won[1] == 0 and s.net() == (4, -12, 4, 4)


@pytest.mark.law("NAP-SET-04")
def test_NAP_SET_04_a_nap_wins_ten_and_loses_five_from_and_to_each() -> None:
    h = push(nap(NAP_HAND), "0 nap", "1 pass", "2 pass", "3 pass")
    s = play_out(h).settlement
    assert s is not None and s.made and s.tricks_won == (5, 0, 0, 0) and s.net() == (30, -10, -10, -10)
    s = play_out(push(nap(NAP_FAILS), "0 nap", "1 pass", "2 pass", "3 pass")).settlement
    assert s is not None and not s.made and s.tricks_won == (4, 0, 1, 0) and s.net() == (-15, 5, 5, 5)


@pytest.mark.law("NAP-SET-05", "CF-31", "AMB-37")
def test_NAP_SET_05_CF_31_AMB_37_the_shilling_scale() -> None:
    rules = NapRules.preset("shilling")
    assert rules.call_values("nap") == (12, 6) and rules.call_values("3") == (3, 3)
    s = play_out(push(nap(NAP_HAND, preset="shilling"), "0 nap", "1 pass", "2 pass", "3 pass")).settlement
    assert s is not None and s.net() == (36, -12, -12, -12)


@pytest.mark.law("NAP-SET-06")
def test_NAP_SET_06_the_stake_per_trick_is_agreed() -> None:
    h = three_made()
    sixpence = push(nap(unit=6), *[f"{a.seat} {a.value}" for a in h.actions])
    assert sixpence.settlement is not None and sixpence.settlement.net() == (54, -18, -18, -18)
    assert NapRules(unit=6).call_values("nap") == (60, 30)


# ----- Wellington (E.5) ------------------------------------------------------------------------------


@pytest.mark.law("NAP-WEL-01", "NAP-WEL-02")
def test_NAP_WEL_01_02_wellington_over_a_nap_only_at_double_stakes() -> None:
    rules = NapRules(wellington=True)
    assert rules.call_values("wellington") == (20, 10)
    assert NapRules.preset("shilling").call_values("wellington") == (24, 12)
    h = push(nap(wellington=True), "0 4")
    assert legal(h) == ["pass", "nap"]
    assert refused(h, "1 wellington").law == "NAP-WEL-02"
    assert refused(nap(), "0 wellington").law == "NAP-WEL-01"
    swapped = "2S 3H 4H 5H 6H | AS KS QS JS AH | 7H 8H 9H 10H JH | QH KH 2C 3C 4C"
    h = push(nap(swapped, wellington=True), "0 nap")
    assert legal(h) == ["pass", "wellington"]
    s = play_out(push(h, "1 wellington", "2 pass", "3 pass")).settlement
    assert s is not None and s.call == "wellington" and s.made and s.net() == (-20, 60, -20, -20)


@pytest.mark.law("NAP-WEL-03", "NAP-POOL-05")
def test_NAP_WEL_03_NAP_POOL_05_a_successful_wellington_takes_the_pool() -> None:
    swapped = "2S 3H 4H 5H 6H | AS KS QS JS AH | 7H 8H 9H 10H JH | QH KH 2C 3C 4C"
    h = push(nap(swapped, wellington=True, kitty_mode="dealer", pool=7), "0 nap", "1 wellington", "2 pass", "3 pass")
    s = play_out(h).settlement
    assert s is not None and s.pool_taken == (0, 7, 0, 0) and s.net() == (-20, 67, -20, -20) and s.next_pool == 0


# ----- Misery (E.6) -------------------------------------------------------------------------------------

LOW = "2S 3S 2H 3H 2D | AS KS QS AH KH | JS 10S QH JH AD | 9S 8S 10H 9H KD"
FIRST_LEAD = "2D 3D 2S 3S 4S | AH KH QH 5D 6S | JH 10H 9H 7D 8S | 4D 8H 7H 6H 9S"


@pytest.mark.law("NAP-MIS-01", "NAP-MIS-04")
def test_NAP_MIS_01_04_misery_ranks_between_three_and_four() -> None:
    assert refused(nap(LOW), "0 misery").law == "NAP-MIS-01"
    h = push(nap(LOW, misery=True), "0 misery")
    assert legal(h) == ["pass", "4", "nap"]
    h = push(nap(LOW, misery=True), "0 3")
    assert legal(h) == ["pass", "misery", "4", "nap"]


@pytest.mark.law("NAP-MIS-02", "NAP-MIS-05", "AMB-39")
def test_NAP_MIS_02_05_AMB_39_misery_without_trumps_is_paid_as_three() -> None:
    h = push(nap(LOW, misery=True), "0 misery", "1 pass", "2 pass", "3 pass", "0 2D", "1 AS", "2 AD", "3 KD")
    assert h.trump is None and h.tricks[0].winner == 2  # the ace of spades is no trump
    push(h, "2 JS", "3 9S", "0 3S", "1 KS", "1 QS", "2 10S", "3 8S", "0 2S",
         "1 AH", "2 QH", "3 10H", "0 2H", "1 KH", "2 JH", "3 9H", "0 3H")  # fmt: skip
    s = h.settlement
    assert s is not None and s.made and s.tricks_won[0] == 0 and s.net() == (9, -3, -3, -3)


@pytest.mark.law("NAP-MIS-03", "CF-32", "AMB-39")
def test_NAP_MIS_03_CF_32_AMB_39_with_first_lead_trumps_a_misery_fails_on_the_trick_it_wins() -> None:
    moves = ["0 misery", "1 pass", "2 pass", "3 pass", "0 2D", "1 5D", "2 7D", "3 4D", "2 JH", "3 8H", "0 3D", "1 AH"]
    plain = push(nap(FIRST_LEAD, misery=True), *moves)
    assert plain.tricks[1].winner == 1 and not plain.is_over  # the three of diamonds was only a discard
    trumps = push(nap(FIRST_LEAD, misery=True, misery_trumps="first-lead"), *moves)
    assert trumps.trump is Suit.DIAMONDS and trumps.tricks[1].winner == 0
    s = trumps.settlement
    assert trumps.is_over and s is not None and not s.made and s.net() == (-9, 3, 3, 3)


# ----- Sir Garnet (E.7) -----------------------------------------------------------------------------------

GARNET = "AD JD 10D 9D 8D"


@pytest.mark.law("NAP-SG-01", "NAP-SG-02")
def test_NAP_SG_01_02_the_extra_hand_is_dealt_and_may_be_taken_unseen_at_ones_turn_to_call() -> None:
    _, garnet, _, stock = deal_nap(NapRules(sir_garnet=True), Unshuffled(), seats=4, dealer=3)
    order = list(full_pack())
    assert garnet == [order[4], order[9], order[14], order[19], order[24]]  # after the dealer, round by round
    assert len(stock) == 52 - 25
    h = nap(sir_garnet=True, garnet=GARNET)
    assert legal(h)[-1] == "garnet"  # one offer, which shows nothing of the extra hand
    assert all(Card.parse("AD") not in (a.value if isinstance(a.value, tuple) else ()) for a in h.view(0).legal)
    assert refused(h, "0 garnet 2H 3D 10D 9D 8D").law == "NAP-SG-02"  # taken up first, thrown out after
    assert refused(nap(), "0 garnet").law == "NAP-SG-01"
    push(h, "0 garnet")
    assert h.phase is NapPhase.GARNET and len(h.holding(0)) == 10 and h.view(1).hand_sizes[0] == 10
    assert len(h.legal_actions()) == 252


@pytest.mark.law("NAP-SG-03", "NAP-SG-04", "NAP-SG-05")
def test_NAP_SG_03_04_05_the_taker_throws_out_five_and_must_play_a_nap_at_nap_stakes() -> None:
    h = push(nap(sir_garnet=True, garnet=GARNET), "0 garnet")
    assert refused(h, "0 garnet 2H 3D 10D 9D").law == "NAP-SG-03"
    assert refused(h, "0 garnet 2H 3D 10D 9D KD").law == "NAP-SG-03"
    assert refused(h, "0 nap").law == "NAP-SG-03"
    push(h, "0 garnet 2H 3D 10D 9D 8D")
    assert h.call == "nap" and h.caller == 0 and sorted(map(str, h.holding(0))) == ["AD", "AS", "JD", "KS", "QS"]
    assert [a.verb for a in h.legal_actions()] == ["call"]  # the extra hand is gone (NAP-SG-02)
    assert refused(h, "1 garnet").law == "NAP-SG-02"
    assert set(h.view(1).hand).isdisjoint(h.view(0).put_out) and h.view(1).put_out == ()
    s = play_out(push(h, "1 pass", "2 pass", "3 pass")).settlement
    assert s is not None and s.made and s.net() == (30, -10, -10, -10)


@pytest.mark.law("AMB-38", "NAP-SG-04")
def test_AMB_38_NAP_SG_04_sir_garnet_is_gone_once_a_nap_is_called() -> None:
    h = push(nap(sir_garnet=True, garnet=GARNET), "0 nap")
    assert not [a for a in h.legal_actions() if a.verb == "garnet"]
    assert refused(h, "1 garnet").law == "NAP-SG-04"
    # A Sir Garnet Nap may still be overcalled with a Wellington where that is played.
    h = push(nap(sir_garnet=True, garnet=GARNET, wellington=True), "0 garnet", "0 garnet 2H 3D 10D 9D 8D")
    assert legal(h) == ["pass", "wellington"]


# ----- Peep Nap (E.8) ---------------------------------------------------------------------------------------


@pytest.mark.law("NAP-PEEP-01", "NAP-PEEP-02")
def test_NAP_PEEP_01_02_a_private_peep_at_the_extra_card_for_a_fee_at_ones_turn() -> None:
    _, _, peep, stock = deal_nap(NapRules(peep=True), Unshuffled(), seats=4, dealer=3)
    assert peep == list(full_pack())[20] and len(stock) == 31
    h = nap(peep=True, peep_card="AD")
    assert legal(h)[-1] == "peep"
    assert refused(h, "1 peep").law == "NAP-CALL-01"
    push(h, "0 peep")
    assert h.to_act == 0 and "peep" not in legal(h)
    assert refused(h, "0 peep").law == "NAP-PEEP-02"
    assert h.view(0).peep_card == Card.parse("AD") and h.view(1).peep_card is None
    assert h.view(1).peeped == (True, False, False, False) and h.view(1).pool_paid == (1, 0, 0, 0)
    assert refused(nap(), "0 peep").law == "NAP-PEEP-01"


@pytest.mark.law("NAP-PEEP-03", "NAP-PEEP-04")
def test_NAP_PEEP_03_04_only_the_highest_caller_who_peeped_may_exchange() -> None:
    h = push(nap(peep=True, peep_card="AD"), "0 peep", "0 3", "1 peep", "1 pass", "2 pass", "3 pass")
    assert h.phase is NapPhase.EXCHANGE and h.to_act == 0
    assert legal(h) == ["x", "x AS", "x KS", "x QS", "x 2H", "x 3D"]
    assert refused(h, "1 x 2C").law == "NAP-PEEP-04"
    push(h, "0 x 2H")
    assert Card.parse("AD") in h.holding(0) and h.phase is NapPhase.PLAY and h.view(1).peep_taken
    no_peep = push(nap(peep=True, peep_card="AD"), "0 3", "1 peep", "1 pass", "2 pass", "3 pass")
    assert no_peep.phase is NapPhase.PLAY  # Ann did not peep: no exchange for her
    assert refused(no_peep, "0 x 2H").law == "NAP-PEEP-03"
    s = play_out(h).settlement
    assert s is not None and s.next_pool == 2 and sum(s.net()) == -2  # the two peeps went into the pool


@pytest.mark.law("NAP-PEEP-05", "AMB-38")
def test_NAP_PEEP_05_AMB_38_a_nap_caller_waits_for_the_later_players_to_peep() -> None:
    h = push(nap(peep=True, peep_card="AD"), "0 peep", "0 nap")
    assert refused(h, "0 x 2H").law == "NAP-PEEP-05"
    assert "peep" in legal(h)
    push(h, "1 peep", "1 pass", "2 pass", "3 peep", "3 pass")
    assert h.phase is NapPhase.EXCHANGE and h.to_act == 0


# ----- Purchase Nap (E.9) ------------------------------------------------------------------------------------

STOCK = "AD JD 10D 9D 8D 7D 6D 5D 2S 4S 5S 6S 7S 8S"


@pytest.mark.law("NAP-PUR-01", "NAP-PUR-02", "NAP-PUR-03")
def test_NAP_PUR_01_02_03_the_dealer_sells_fresh_cards_for_discards_before_the_calling() -> None:
    h = nap(purchase=True, stock=STOCK)
    assert h.phase is NapPhase.PURCHASE and h.to_act == 0 and len(legal(h)) == 32
    assert refused(h, "0 3").law == "NAP-PUR-05"
    push(h, "0 buy 2H 3D")
    assert sorted(map(str, h.holding(0))) == ["AD", "AS", "JD", "KS", "QS"]  # from the top of the pack
    assert h.view(0).pool_paid == (2, 0, 0, 0)  # a unit a card, into the pool
    push(h, "1 buy 9S 8H 7H 2C 4D")  # all five
    assert sorted(map(str, h.holding(1))) == ["10D", "6D", "7D", "8D", "9D"]
    assert NapRules(purchase=True, purchase_price=2, unit=3).purchase_price * 3 == 6


@pytest.mark.law("NAP-PUR-04", "NAP-PUR-06")
def test_NAP_PUR_04_06_discards_are_hidden_and_never_drawn_and_a_decision_stands() -> None:
    h = push(nap(purchase=True, stock=STOCK), "0 buy 2H 3D")
    assert refused(h, "0 buy AS").law == "NAP-PUR-06"
    view = h.view(1)
    assert Card.parse("2H") not in view.hand and view.put_out == () and view.purchased == (2, None, None, None)
    assert h.view(0).put_out == (Card.parse("2H"), Card.parse("3D"))
    push(h, "1 buy", "2 buy 5C", "3 buy")
    assert Card.parse("10D") in h.holding(2) and Card.parse("2H") not in h.holding(2)


@pytest.mark.law("NAP-PUR-05")
def test_NAP_PUR_05_the_dealer_serves_himself_last_and_the_calling_starts_on_his_left() -> None:
    h = push(nap(purchase=True, stock=STOCK), "0 buy", "1 buy")
    assert refused(h, "3 buy").law == "NAP-PUR-05"
    push(h, "2 buy", "3 buy 3S")
    assert h.phase is NapPhase.CALL and h.to_act == 0


@pytest.mark.law("AMB-41", "AMB-28")
def test_AMB_41_AMB_28_a_short_pack_limits_what_can_be_bought() -> None:
    h = nap(purchase=True, stock="AD JD 10D")
    assert max(len(a.value) for a in h.legal_actions()) == 3
    assert refused(h, "0 buy AS KS QS 2H").law == "AMB-41"
    push(h, "0 buy KS QS 2H")
    assert legal(h) == ["buy"]  # the pack is exhausted: Ben may only decline


# ----- the pool (E.10) -------------------------------------------------------------------------------------------


@pytest.mark.law("NAP-POOL-04", "AMB-40")
def test_NAP_POOL_04_AMB_40_knaves_and_fives_of_plain_suits_pay_a_unit_each() -> None:
    h = push(nap(kitty_mode="knave-or-five"), "0 3", "1 pass", "2 pass", "3 pass", "0 AS", "1 9S", "2 JS", "3 3S",
             "0 KS", "1 2C", "2 10S", "3 9C", "0 QS", "1 8H", "2 5C", "3 10C")  # fmt: skip
    s = h.settlement
    assert s is not None and s.pool_paid == (0, 0, 1, 0)  # the knave of trumps is free; the five of clubs is not
    assert s.net() == (9, -3, -4, -3) and s.next_pool == 1


@pytest.mark.law("NAP-POOL-05", "NAP-POOL-06", "NAP-POOL-07")
def test_NAP_POOL_05_06_07_a_made_nap_takes_the_pool_a_failed_one_pays_nothing_unless_agreed() -> None:
    made = play_out(push(nap(NAP_HAND, kitty_mode="dealer", pool=5), "0 nap", "1 pass", "2 pass", "3 pass"))
    assert made.settlement is not None and made.settlement.net() == (35, -10, -10, -10)
    assert made.settlement.next_pool == 0
    failed = play_out(push(nap(NAP_FAILS, kitty_mode="dealer", pool=5), "0 nap", "1 pass", "2 pass", "3 pass"))
    assert failed.settlement is not None and failed.settlement.net() == (-15, 5, 5, 5)
    assert failed.settlement.next_pool == 5  # NAP-POOL-06
    doubled = play_out(push(nap(NAP_FAILS, kitty_mode="dealer", pool=5, failed_nap_doubles_pool=True),
                            "0 nap", "1 pass", "2 pass", "3 pass"))  # fmt: skip
    assert doubled.settlement is not None and doubled.settlement.net() == (-20, 5, 5, 5)
    assert doubled.settlement.next_pool == 10  # NAP-POOL-07: he matched what was in it
    small = play_out(push(nap(kitty_mode="dealer", pool=5), "0 3", "1 pass", "2 pass", "3 pass"))
    assert small.settlement is not None and small.settlement.next_pool == 5  # only a Nap takes the pool


@pytest.mark.law("NAP-POOL-08")
def test_NAP_POOL_08_peep_and_purchase_feed_the_pool_alone() -> None:
    with pytest.raises(RecordError, match=r"rules\.kitty-mode"):
        NapRules(peep=True, kitty_mode=KittyMode.DEALER)
    with pytest.raises(RecordError, match="NAP-POOL-08"):
        NapRules.from_record("nap", {"purchase": True, "kitty-mode": "knave-or-five"})
    assert NapRules(peep=True).kitty and NapRules(purchase=True).kitty and not NapRules().kitty


# ----- views and explanations -------------------------------------------------------------------------------------


def test_a_view_holds_only_what_its_seat_may_know() -> None:
    h = push(nap(peep=True, peep_card="AD"), "0 peep", "0 3")
    for seat in range(4):
        view = h.view(seat)
        assert set(view.hand) == set(h.holding(seat))
        others = {c for p in range(4) if p != seat for c in h.holding(p)}
        assert not others & set(view.hand) and not others & set(view.put_out)
        assert view.hand_sizes == (5, 5, 5, 5)
        assert bool(view.legal) == (seat == h.to_act)
    assert h.view(0).peep_card == Card.parse("AD") and h.view(2).peep_card is None


def test_explanations_cover_every_call_and_card_with_a_law() -> None:
    h = push(nap(wellington=True), "0 2")
    by_call = {e.action.value: e for e in h.explain() if e.action.verb == "call"}
    assert set(by_call) == {"pass", "1", "2", "3", "misery", "4", "nap", "wellington"}
    assert not by_call["2"].legal and by_call["2"].law == "NAP-CALL-01"
    assert not by_call["misery"].legal and by_call["misery"].law == "NAP-MIS-01"
    assert not by_call["wellington"].legal and by_call["wellington"].law == "NAP-WEL-02"
    assert by_call["nap"].legal and by_call["nap"].law == "NAP-CALL-02"
    assert by_call["nap"].cite().startswith("NAP-CALL-02 (Hoffmann")
    push(h, "1 pass", "2 pass", "3 pass", "0 AS")
    cards = {str(e.action.value): e for e in h.explain()}
    assert cards["9S"].legal and cards["9S"].law == "NAP-PLAY-02"
    assert not cards["2C"].legal and cards["2C"].law == "NAP-PLAY-02"
    assert all(e.law for e in h.explain())
    assert h.why_illegal(Action(1, "play", Card(Rank.NINE, Suit.SPADES))) is None


def test_pop_takes_back_every_kind_of_action() -> None:
    h = nap(peep=True, purchase=True, sir_garnet=True, misery=True, wellington=True, stock=STOCK, garnet=GARNET,
            peep_card="3C")  # fmt: skip
    first = [a for a in h.legal_actions()]
    rng = random.Random(3)
    while not h.is_over:
        h.push(rng.choice(h.legal_actions()))
    while h.actions:
        h.pop()
    assert h.legal_actions() == first and h.phase is NapPhase.PURCHASE
    with pytest.raises(IndexError):
        h.pop()
