"""AMB-33 with L3-BOLD-01 and IRL-03: Irish Loo keeps the three-card game's Bold Stand (issue 19, item 3).

The encyclopedia gives Irish Loo the rest of its three-card rules, and those make everyone play
when the pool holds only the dealer's stake. The ``irish`` preset now does so; the option that
decides it is ``first-deal-mode`` (``bold-stand``, the default, or ``none``, which offers a throw).
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from loo.games.loo.game import LooGame
from loo.games.loo.rules import FirstDealMode, Rules
from loo.options import option, preset_rules
from loo.records import check
from tests.helpers.loo_helpers import legal, make, push, refused

IRISH = "AS 10H 2C | KD QD 3S | 9C 8C 7H"
NONE = {"first_deal_mode": FirstDealMode.NONE}


def irish(**kw: object):  # type: ignore[no-untyped-def]
    return make(IRISH, turnup="7D", preset="irish", stock="AH KH QH JH 9H", **kw)  # type: ignore[arg-type]


@pytest.mark.law("AMB-33", "L3-BOLD-01")
def test_AMB_33_L3_BOLD_01_the_irish_preset_makes_all_play_on_a_pool_of_the_dealers_stake() -> None:
    assert Rules.preset("irish").first_deal_mode is FirstDealMode.BOLD_STAND
    h = irish(pool=3)
    assert h.bold_stand and h.all_must_play
    for seat in range(3):
        assert legal(h) == ["stand"]
        assert refused(h, f"{seat} throw").law == "L3-BOLD-01"
        assert refused(h, f"{seat} miss").law == "IRL-01"  # a Bold Stand brings back no miss
        push(h, f"{seat} stand")
    assert "x AS 10H 2C" in legal(h)  # IRL-02/05: each may still change his cards


@pytest.mark.law("AMB-33")
def test_AMB_33_first_deal_mode_none_offers_a_throw_on_the_same_pool() -> None:
    h = irish(pool=3, **NONE)
    assert not h.bold_stand and legal(h) == ["stand", "throw"]
    push(h, "0 throw", "1 throw")
    assert h.settlement is not None and h.settlement.reason == "dealer-uncontested"


@pytest.mark.law("AMB-33", "IRL-06")
@pytest.mark.parametrize("options", [{}, NONE])
def test_AMB_33_IRL_06_a_richer_pool_is_an_ordinary_deal_either_way(options: dict[str, object]) -> None:
    h = irish(pool=6, **options)
    assert not h.bold_stand and legal(h) == ["stand", "throw"]


@pytest.mark.law("AMB-33", "L3-SGL-11")
def test_AMB_33_L3_SGL_11_an_irish_game_opens_with_a_bold_stand_and_then_offers_the_choice() -> None:
    game = LooGame(Rules.preset("irish"), ["Ann", "Ben", "Cat", "Dan"], random.Random(3))
    hand = game.next_hand()
    assert hand.pool == 3 and hand.bold_stand
    assert {a.value for a in hand.legal_actions()} == {"stand"}
    free = LooGame(dataclasses.replace(Rules.preset("irish"), **NONE), ["A", "B", "C"], random.Random(3)).next_hand()
    assert not free.bold_stand and {a.value for a in free.legal_actions()} == {"stand", "throw"}


@pytest.mark.law("AMB-33")
def test_AMB_33_records_choose_either_reading_and_old_records_still_read() -> None:
    def record(rules: object, *declares: str) -> str:
        return json.dumps({"format": "loo-record/1", "game": "irish-loo", "rules": rules, "seats": ["A", "B", "C", "D"],
                           "dealer": 3, "pool": 3, "deal": {"seed": 5},
                           "actions": [{"seat": i, "declare": d} for i, d in enumerate(declares)]})  # fmt: skip

    code, out = check(record("irish", "throw"))
    assert (code, out["law"]) == (1, "L3-BOLD-01")
    code, out = check(record({"preset": "irish", "first-deal-mode": "none"}, "throw"))
    assert code == 0 and out["legal"][0]["seat"] == 1
    for rules in (None, "irish", {"preset": "irish", "first-deal-mode": "bold-stand"}):
        code, out = check(record(rules, "stand", "stand", "stand", "stand"))
        assert code == 0 and out["legal"][0] == {"seat": 0, "exchange": []}
    relaxed = Rules.from_record("irish-loo", {"preset": "irish", "first-deal-mode": "none"})
    assert relaxed.to_record() == {"preset": "irish", "first-deal-mode": "none"}
    assert Rules.from_record("irish-loo", "irish").to_record() == "irish"


@pytest.mark.law("AMB-33")
def test_AMB_33_the_option_cites_the_decision_for_the_rules_picker() -> None:
    first_deal = option("irish-loo", "first-deal-mode")
    assert "AMB-33" in first_deal.laws and "003" in first_deal.sources
    assert first_deal.value_of(preset_rules("irish-loo", "irish")) == "bold-stand"
    assert first_deal.choice_label("bold-stand") == "A Bold Stand (Force)"


@pytest.mark.law("AMB-33")
def test_AMB_33_deal_codes_of_either_reading_still_read() -> None:
    from widgets.table.dealcode import parse_deal_code

    assert parse_deal_code("il.irish.s0.n5").rules == "irish"
    code = parse_deal_code("il.irish_first-deal-mode~none.s0.n5")
    assert code.rules == {"preset": "irish", "first-deal-mode": "none"}
    assert Rules.from_record("irish-loo", code.rules).first_deal_mode is FirstDealMode.NONE
