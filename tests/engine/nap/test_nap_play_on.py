"""NAP-PLAY-06 and AMB-43: play may stop once a Nap call is made or defeated, but a record that plays
the hand out is legal and settles the same way (issue 19, item 2).

Hoffmann's caller may win tricks beyond his call (NAP-SET-01), and the knave-or-five pool counts
the cards of later tricks (NAP-POOL-04, AMB-40): neither makes sense if the hand could never go on.
"""

from __future__ import annotations

import json
import random

import pytest

from loo.core.actions import Action
from loo.games.nap.hand import NapHand
from loo.games.nap.record import NapRecord
from loo.games.nap.rules import NapRules
from loo.records import check
from tests.helpers.nap_helpers import act, nap, push, refused

# Ann (0) AS KS QS 2H 3D | Ben (1) 9S 8H 7H 2C 4D | Cat (2) JS 10S AH KD 5C | Dan (3, dealer) 3S 6H QD 9C 10C
CALL_THREE = ("0 3", "1 pass", "2 pass", "3 pass")
THREE_TRICKS = ("0 AS", "1 9S", "2 JS", "3 3S", "0 KS", "1 2C", "2 10S", "3 9C", "0 QS", "1 8H", "2 5C", "3 10C")
LAST_TWO = ("0 2H", "1 7H", "2 AH", "3 6H", "2 KD", "3 QD", "0 3D", "1 4D")


@pytest.mark.law("NAP-PLAY-06", "AMB-43")
def test_NAP_PLAY_06_AMB_43_the_hand_is_decided_at_once_and_the_rest_may_be_played_out() -> None:
    h = push(nap(), *CALL_THREE, *THREE_TRICKS)
    decided = h.settlement
    assert decided is not None and decided.made and h.is_over
    assert h.to_act is None and h.legal_actions() == [] and h.explain() == []  # a table or bot stops here
    assert [str(a.value) for a in h.play_on_actions()] == ["2H", "3D"]  # Ann won the third trick: she leads
    push(h, *LAST_TWO)
    s = h.settlement
    assert s is not None and len(s.tricks) == 5 and s.tricks_won == (3, 0, 2, 0)
    assert (s.reason, s.made, s.stakes, s.net()) == (decided.reason, True, decided.stakes, decided.net())
    assert h.play_on_actions() == []
    assert refused(h, "0 2H").law == "NAP-PLAY-06"  # every card is played: nothing more can happen


@pytest.mark.law("NAP-PLAY-06", "NAP-SET-01")
def test_NAP_PLAY_06_NAP_SET_01_a_caller_who_plays_on_and_wins_more_is_paid_only_his_call() -> None:
    # Ann calls two and has it after two tricks; played out, she wins all five, and is paid two.
    h = push(nap(), "0 2", "1 pass", "2 pass", "3 pass", *THREE_TRICKS[:8])
    decided = h.settlement
    assert decided is not None and decided.made and decided.net() == (6, -2, -2, -2)
    push(h, *THREE_TRICKS[8:], "0 3D", "1 4D", "2 KD", "3 QD")
    assert h.tricks[-1].winner == 2  # Cat's king of diamonds takes the fourth
    push(h, "2 AH", "3 6H", "0 2H", "1 7H")
    s = h.settlement
    assert s is not None and s.tricks_won == (3, 0, 2, 0) and s.net() == decided.net()


@pytest.mark.law("NAP-PLAY-06", "AMB-43")
def test_NAP_PLAY_06_AMB_43_cards_played_on_still_follow_suit_and_take_turns() -> None:
    h = push(nap(), *CALL_THREE, *THREE_TRICKS)
    assert refused(h, "1 7H").law == "NAP-PLAY-04"  # Ann, who won the last trick, leads
    assert refused(h, "0 pass").law == "NAP-PLAY-06"
    assert refused(h, "0 AS").law == "NAP-PLAY-02"  # already played
    push(h, "0 2H")
    error = refused(h, "1 4D")
    assert (error.law, error.seat) == ("NAP-PLAY-02", 1) and "must follow suit" in error.message
    assert [str(a.value) for a in h.play_on_actions()] == ["7H"]


@pytest.mark.law("NAP-PLAY-06")
def test_NAP_PLAY_06_a_defeated_call_stays_defeated_when_played_out() -> None:
    # Ben calls four and has lost two tricks: defeated. Played out, he wins nothing and pays four each.
    h = push(nap(), "0 pass", "1 4", "2 pass", "3 pass", "1 9S", "2 JS", "3 3S", "0 AS",
             "0 KS", "1 2C", "2 10S", "3 9C")  # fmt: skip
    decided = h.settlement
    assert decided is not None and decided.made is False
    while h.play_on_actions():
        h.push(h.play_on_actions()[0])
    s = h.settlement
    assert s is not None and len(s.tricks) == 5 and sum(s.tricks_won) == 5
    assert s.made is False and s.net() == decided.net() == (4, -12, 4, 4)


@pytest.mark.law("NAP-PLAY-06", "AMB-43", "NAP-POOL-04")
def test_NAP_PLAY_06_AMB_43_NAP_POOL_04_the_knave_or_five_pool_counts_cards_played_on() -> None:
    # Cat keeps her five of clubs past the deciding trick and leads it in the fifth: she pays for it.
    opening = (*CALL_THREE, *THREE_TRICKS[:10], "2 KD", "3 10C")
    stopped = push(nap(pool=4, kitty_mode="knave-or-five"), *opening)
    decided = stopped.settlement
    assert decided is not None and decided.made and decided.pool_paid == (0, 0, 0, 0)
    h = push(nap(pool=4, kitty_mode="knave-or-five"), *opening,
             "0 2H", "1 7H", "2 AH", "3 6H", "2 5C", "3 QD", "0 3D", "1 4D")  # fmt: skip
    s = h.settlement
    assert s is not None and s.tricks_won == (3, 0, 2, 0)
    assert s.stakes == decided.stakes and s.made
    assert s.pool_paid == (0, 0, 1, 0) and s.next_pool == decided.next_pool + 1 == 5
    assert s.net() == (9, -3, -4, -3)


@pytest.mark.law("NAP-PLAY-06", "AMB-43")
def test_NAP_PLAY_06_AMB_43_a_record_played_out_checks_and_settles_like_the_one_that_stops() -> None:
    base = {"format": "loo-record/1", "game": "nap", "seats": ["Ann", "Ben", "Cat", "Dan"], "dealer": 3,
            "pool": 0, "deal": {"hands": [h.split() for h in "AS KS QS 2H 3D | 9S 8H 7H 2C 4D | "
                                          "JS 10S AH KD 5C | 3S 6H QD 9C 10C".split(" | ")]}}  # fmt: skip

    def record(*texts: str) -> str:
        return json.dumps({**base, "actions": [act(t).to_record() for t in texts]})

    code, stopped = check(record(*CALL_THREE, *THREE_TRICKS))
    assert code == 0 and stopped["complete"]
    code, out = check(record(*CALL_THREE, *THREE_TRICKS, *LAST_TWO))
    assert code == 0 and out["complete"] and out["settlement"] == stopped["settlement"] == [9, -3, -3, -3]
    assert len(out["tricks"]) == 5 and out["tricks_won"] == [3, 0, 2, 0] and out["made"] is True
    code, part = check(record(*CALL_THREE, *THREE_TRICKS, *LAST_TWO[:6]))  # stopping part-way is legal too
    assert code == 0 and part["settlement"] == stopped["settlement"] and len(part["tricks"]) == 4
    code, bad = check(record(*CALL_THREE, *THREE_TRICKS, "0 2H", "1 4D"))
    assert (code, bad["action"], bad["law"]) == (1, 17, "NAP-PLAY-02")
    code, late = check(record(*CALL_THREE, *THREE_TRICKS, *LAST_TWO, "0 2H"))
    assert (code, late["action"], late["law"]) == (1, 24, "NAP-PLAY-06")


@pytest.mark.law("NAP-PLAY-06")
def test_NAP_PLAY_06_a_hand_played_out_round_trips_as_a_record_and_takes_back() -> None:
    h = push(nap(), *CALL_THREE, *THREE_TRICKS)
    decided = h.settlement
    push(h, *LAST_TWO)
    rec = NapRecord.of_hand(h)
    assert len(rec.actions) == 4 + 12 + 8 and NapRecord.from_json(rec.to_json()) == rec
    again = rec.replay()
    assert again.settlement == h.settlement
    for _ in LAST_TWO:
        h.pop()
    assert h.settlement == decided and len(h.tricks) == 3


@pytest.mark.law("NAP-PLAY-06", "AMB-43")
@pytest.mark.parametrize("preset,options", [("hoffmann", {}), ("hoffmann", {"kitty_mode": "knave-or-five"}),
                                            ("shilling", {"misery": True, "wellington": True})])  # fmt: skip
def test_NAP_PLAY_06_AMB_43_random_hands_played_out_keep_the_decision(preset: str, options: dict[str, object]) -> None:
    """Whatever is played after the decision, who made or lost the call and the stakes between players
    stay as decided; only the knave-or-five pool payments may grow."""
    rules = NapRules.from_record("nap", {"preset": preset, **{k.replace("_", "-"): v for k, v in options.items()}})
    rng = random.Random(19)
    played_on = 0
    for _ in range(150):
        h = NapHand.deal(rules, rng, seats=rng.randint(2, 6), dealer=0)
        while not h.is_over:
            h.push(rng.choice(h.legal_actions()))
        decided = h.settlement
        assert decided is not None
        while h.play_on_actions():
            played_on += 1
            h.push(rng.choice(h.play_on_actions()))
        s = h.settlement
        assert (s.reason, s.made, s.stakes, s.caller) == (decided.reason, decided.made, decided.stakes, decided.caller)
        if decided.reason == "played":
            assert len(s.tricks) == 5 and not any(h.holding(p) for p in range(h.n))
        extra = [a - b for a, b in zip(s.pool_paid, decided.pool_paid, strict=True)]
        assert min(extra) >= 0 and (sum(extra) == 0 or rules.kitty_mode.value == "knave-or-five")
        assert s.next_pool - decided.next_pool == sum(extra) - (sum(s.pool_taken) - sum(decided.pool_taken))
    assert played_on > 0


@pytest.mark.law("NAP-PLAY-06")
def test_NAP_PLAY_06_the_step_viewer_shows_a_record_played_out() -> None:
    from widgets.views.step_viewer import StepViewer

    h = push(nap(), *CALL_THREE, *THREE_TRICKS, *LAST_TWO)
    viewer = StepViewer(NapRecord.of_hand(h).to_json())
    assert len(viewer.steps) == 25 and "Cat wins the trick" in viewer.steps[-1].text
    assert "called three and made it" in viewer.steps[-1].html


@pytest.mark.law("NAP-PLAY-06")
def test_NAP_PLAY_06_play_on_is_not_offered_after_a_redeal() -> None:
    h = push(nap(), "0 pass", "1 pass", "2 pass")
    assert h.legal_actions() and not h.play_on_actions()
    h2 = push(nap(dealer_forced_one=False), "0 pass", "1 pass", "2 pass", "3 pass")
    assert h2.is_over and h2.play_on_actions() == []
    assert refused(h2, "0 AS").law == "NAP-PLAY-06"
    assert Action.play(0, "AS") not in h2.play_on_actions()
