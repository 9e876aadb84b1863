"""Nap records (docs/records.md, game ``nap``) and ``python -m loo check`` on them."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from loo.core.actions import IllegalActionError
from loo.core.rules import RecordError
from loo.games.nap import record as nap_record_module
from loo.games.nap.hand import NapHand
from loo.games.nap.record import NapRecord
from loo.games.nap.rules import NapRules
from loo.records import check, load, record_type
from tests.helpers.loo_helpers import check_cli
from tests.helpers.nap_helpers import nap, push

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"

GOOD: dict[str, Any] = {
    "format": "loo-record/1",
    "game": "nap",
    "seats": ["Ann", "Ben", "Cat", "Dan"],
    "dealer": 3,
    "pool": 0,
    "deal": {
        "hands": [
            ["AS", "KS", "QS", "2H", "3D"],
            ["9S", "8H", "7H", "2C", "4D"],
            ["JS", "10S", "AH", "KD", "5C"],
            ["3S", "6H", "QD", "9C", "10C"],
        ],
    },
    "actions": [{"seat": 0, "call": "3"}, {"seat": 1, "call": "pass"}],
}


def run(record: Any) -> tuple[int, dict[str, Any]]:
    """``loo check -`` on the record (in this process: see check_cli)."""
    status, out, err = check_cli(json.dumps(record))
    assert err == "", err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    return status, json.loads(lines[0])


def broken(path: str, value: Any) -> dict[str, Any]:
    record = copy.deepcopy(GOOD)
    target: Any = record
    keys = path.split("/")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if value is KeyError:
        del target[keys[-1]]
    elif isinstance(target, list):
        target[int(keys[-1])] = value
    else:
        target[keys[-1]] = value
    return record


def test_the_checker_finds_nap_records_through_the_registry() -> None:
    assert record_type("nap") is NapRecord is nap_record_module.RECORD_TYPE
    assert isinstance(load(json.dumps(GOOD)), NapRecord)


def test_an_unfinished_nap_record_lists_the_legal_calls() -> None:
    status, out = run(GOOD)
    assert status == 0
    legal = [{"seat": 2, "call": "pass"}, {"seat": 2, "call": "4"}, {"seat": 2, "call": "nap"}]
    assert out == {"ok": True, "complete": False, "to_act": 2, "legal": legal}


def test_a_finished_nap_record_reports_the_settlement_by_seat() -> None:
    record = copy.deepcopy(GOOD)
    plays = "0 AS 1 9S 2 JS 3 3S 0 KS 1 2C 2 10S 3 9C 0 QS 1 8H 2 5C 3 10C".split()
    record["actions"] += [{"seat": 2, "call": "pass"}, {"seat": 3, "call": "pass"}]
    record["actions"] += [{"seat": int(s), "play": c} for s, c in zip(plays[::2], plays[1::2], strict=True)]
    status, out = run(record)
    assert status == 0 and out["complete"] and out["settlement"] == [9, -3, -3, -3]
    assert out["tricks_won"] == [3, 0, 0, 0] and len(out["tricks"]) == 3 and "next_pool" not in out
    assert out["tricks"][0] == {"leader": 0, "plays": [[0, "AS"], [1, "9S"], [2, "JS"], [3, "3S"]], "winner": 0}


def test_an_illegal_nap_action_exits_1_naming_the_action_seat_and_law() -> None:
    record = copy.deepcopy(GOOD)
    record["actions"].append({"seat": 2, "call": "2"})
    status, out = run(record)
    assert status == 1
    assert out == {"ok": False, "action": 2, "seat": 2, "law": "NAP-CALL-01",
                   "message": "Cat must call higher than three, so two may not be called"}  # fmt: skip


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("rules", "peel", "rules.preset"),
        ("rules", {"preset": "hoffmann", "loo-mode": "limited"}, "rules.loo-mode"),
        ("rules", {"preset": "hoffmann", "nap-win": "ten"}, "rules.nap-win"),
        ("rules", {"preset": "hoffmann", "wellington": "yes"}, "rules.wellington"),
        ("rules", {"preset": "hoffmann", "misery-trumps": "hearts"}, "rules.misery-trumps"),
        ("rules", {"preset": "hoffmann", "kitty-mode": "dealer", "peep": True}, "rules.kitty-mode"),
        ("rules", {"preset": "hoffmann", "min-call": 6}, "rules.min-call"),
        ("rules", 7, "rules"),
        ("deal/hands/0/0", "1C", "deal.hands[0][0]"),
        ("deal/hands/0/0", "9S", "deal.hands[1]"),
        ("deal/hands/2", ["JS", "10S", "AH", "KD"], "deal.hands[2]"),
        ("deal/hands/3", None, "deal.hands[3]"),
        ("deal/hands", [], "deal.hands"),
        ("deal/turnup", "AC", "deal.turnup"),
        ("deal/garnet", ["AC", "KC", "QC", "JC", "2S"], "deal.garnet"),
        ("deal/peep", "AC", "deal.peep"),
        ("deal/stock", ["AS"], "deal.stock"),
        ("deal", {"seed": "x"}, "deal.seed"),
        ("deal", {"seed": 1, "hands": []}, "deal"),
        ("deal", [], "deal"),
        ("seats", ["Ann"], "seats"),
        ("seats", [f"p{i}" for i in range(11)], "seats"),
        ("dealer", 4, "dealer"),
        ("pool", -1, "pool"),
        ("deal_kind", "single", "deal_kind"),
        ("actions/0", {"seat": 0, "call": "5"}, "actions[0].call"),
        ("actions/0", {"seat": 0, "call": 3}, "actions[0].call"),
        ("actions/0", {"seat": 7, "call": "3"}, "actions[0].seat"),
        ("actions/0", {"seat": 0, "garnet": "AS"}, "actions[0].garnet"),
        ("actions/0", {"seat": 0, "peep": False}, "actions[0].peep"),
        ("format", "loo-record/2", "format"),
    ],
)
def test_unreadable_nap_records_exit_2_naming_the_field(path: str, value: Any, field: str) -> None:
    status, out = run(broken(path, value))
    assert status == 2, out
    assert out["ok"] is False and out["error"] == "invalid-record"
    assert out["message"].startswith(field + ":"), out["message"]


def test_the_variants_need_their_extra_cards_in_the_record() -> None:
    record = broken("rules", {"preset": "hoffmann", "sir-garnet": True})
    assert run(record)[1]["message"].startswith("deal.garnet:")
    record = broken("rules", {"preset": "hoffmann", "peep": True})
    assert run(record)[1]["message"].startswith("deal.peep:")
    record["deal"]["peep"] = "AD"
    assert run(record)[0] == 0


def test_records_round_trip_with_the_cards_or_the_seed() -> None:
    rules = NapRules(peep=True, sir_garnet=True, purchase=True, misery=True)
    rng = random.Random(5)
    hand = NapHand.deal(rules, rng, seats=4, dealer=2, names=("Ann", "Ben", "Cat", "Dan"))
    while not hand.is_over:
        hand.push(rng.choice(hand.legal_actions()))
    record = NapRecord.of_hand(hand)
    again = NapRecord.loads(json.dumps(record.to_json()))
    assert again == record and again.replay().settlement == hand.settlement
    seeded = NapRecord.from_json({**GOOD, "deal": {"seed": 11}})
    assert seeded.to_json()["deal"] == {"seed": 11}
    assert NapRecord.from_json(seeded.with_cards().to_json()).hands == seeded.hands
    assert NapRecord.from_json({**GOOD, "deal": {"seed": 11}}).hands == seeded.hands  # the same seed, the same deal


def test_replay_reports_the_index_of_the_first_illegal_action() -> None:
    record = NapRecord.from_json({**GOOD, "actions": [{"seat": 0, "call": "3"}, {"seat": 0, "call": "4"}]})
    with pytest.raises(IllegalActionError) as caught:
        record.replay()
    assert caught.value.index == 1 and caught.value.law == "NAP-CALL-03"  # type: ignore[attr-defined]
    with pytest.raises(RecordError):
        NapRecord.loads("{not json")


def test_rules_read_from_records_exactly_like_the_loo_rules() -> None:
    assert NapRules.from_record("nap", None) == NapRules.preset("hoffmann")
    assert NapRules.from_record("nap", "shilling").nap_win == 12
    rules = NapRules.from_record("nap", {"preset": "shilling", "misery": True, "misery-trumps": "first-lead"})
    assert rules.to_record() == {"preset": "shilling", "misery": True, "misery-trumps": "first-lead"}
    assert NapRules.from_record("nap", rules.to_record()) == rules
    with pytest.raises(RecordError) as caught:
        NapRules.from_record("nap", {"preset": "hoyle"})
    assert caught.value.field == "rules.preset"
    with pytest.raises(RecordError):
        NapRules.from_record("three-card-loo", None)


def _golden(name: str) -> dict[str, Any]:
    status, out = check((GOLDEN / f"{name}.json").read_text())
    assert status == 0 and out["complete"]
    assert out == json.loads((GOLDEN / f"{name}.expected.json").read_text())
    return out


@pytest.mark.law("NAP-SET-03")
def test_NAP_SET_03_golden_a_call_of_three_is_three_each_way() -> None:
    assert _golden("NAP-SET-03-three-each-way")["settlement"] == [9, -3, -3, -3]


@pytest.mark.law("NAP-SET-02")
def test_NAP_SET_02_golden_four_called_and_none_made_pays_four_each() -> None:
    assert _golden("NAP-SET-02-four-called-none-made")["settlement"] == [4, -12, 4, 4]


@pytest.mark.law("NAP-SET-04")
def test_NAP_SET_04_golden_penny_nap_wins_ten_from_each() -> None:
    assert _golden("NAP-SET-04-penny-nap")["settlement"] == [30, -10, -10, -10]


@pytest.mark.law("NAP-WEL-01")
def test_NAP_WEL_01_golden_a_wellington_on_the_shilling_scale_wins_two_shillings_each() -> None:
    assert _golden("NAP-WEL-01-shilling-wellington")["settlement"] == [-24, 72, -24, -24]


@pytest.mark.law("NAP-MIS-05")
def test_NAP_MIS_05_golden_a_misery_is_paid_as_three() -> None:
    assert _golden("NAP-MIS-05-misery-paid-as-three")["settlement"] == [9, -3, -3, -3]


@pytest.mark.law("NAP-POOL-05")
def test_NAP_POOL_05_golden_a_made_nap_takes_the_kitty() -> None:
    out = _golden("NAP-POOL-05-nap-takes-the-kitty")
    assert out["settlement"] == [35, -10, -10, -10] and out["next_pool"] == 0


@pytest.mark.law("NAP-CALL-04")
def test_NAP_CALL_04_golden_the_dealers_forced_call_of_one() -> None:
    out = _golden("NAP-CALL-04-the-dealer-calls-one")
    assert out["caller"] == 3 and out["call"] == "1" and out["settlement"] == [1, 1, 1, -3]


def test_a_table_hand_writes_a_record_without_its_claims() -> None:
    h = push(nap(table=True), "0 3", "1 pass", "2 pass", "3 pass", "0 AS", "1 2C")
    h.claim_wrong_count(2)
    record = NapRecord.of_hand(h)
    assert [a.verb for a in record.actions] == ["call"] * 4 + ["play", "play"]
