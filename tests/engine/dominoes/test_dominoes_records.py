"""Domino records (docs/records.md): reading, writing, ``python -m loo check``, and the worked example
of 004 (DL-SC-06: pools of 25, 55 and 115 chips) played as a game from its golden records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from loo.core.actions import IllegalActionError
from loo.core.rules import RecordError
from loo.core.tiles import Tile
from loo.games.dominoes import RECORD_TYPE, DominoGame, DominoHand, DominoRecord, DominoRules
from loo.records import check, load, record_type
from tests.helpers.loo_helpers import check_cli

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"

GOOD: dict[str, Any] = {
    "format": "loo-record/1",
    "game": "domino-loo",
    "rules": "celko",
    "seats": ["Ann", "Ben", "Cat", "Dan"],
    "dealer": 3,
    "pool": 25,
    "deal": {
        "hands": [["6-6", "6-5", "6-4", "1-0", "2-0"], ["2-1", "3-1", "4-1", "3-2", "4-2"],
                  ["4-3", "3-3", "2-2", "0-0", "5-0"], ["6-3", "6-2", "1-1", "5-5", "3-0"]],
        "turnup": "6-0",
        "stock": ["5-4", "5-3", "5-2", "5-1", "4-4", "4-0", "6-1"],
    },
    "actions": [{"seat": 0, "declare": "stand"}, {"seat": 1, "declare": "stand"}, {"seat": 2, "declare": "stand"}],
}  # fmt: skip


def run(record: Any, *, raw: str | None = None) -> tuple[int, dict[str, Any]]:
    """``loo check -`` on the record (in this process: see check_cli)."""
    status, out, err = check_cli(raw if raw is not None else json.dumps(record))
    assert err == "", err
    lines = out.strip().splitlines()
    assert len(lines) == 1, "one JSON object on one line"
    return status, json.loads(lines[0])


def test_the_registry_hands_domino_records_to_this_module() -> None:
    assert record_type("domino-loo") is RECORD_TYPE is DominoRecord
    assert record_type("domino-rounce") is DominoRecord
    assert isinstance(load(json.dumps(GOOD)), DominoRecord)


def test_an_unfinished_record_lists_the_legal_actions_with_tiles_as_text() -> None:
    status, out = run(GOOD)
    assert status == 0 and out["ok"] and not out["complete"] and out["to_act"] == 3
    assert out["legal"][:3] == [{"seat": 3, "declare": "stand"}, {"seat": 3, "declare": "miss"},
                                {"seat": 3, "declare": "throw"}]  # fmt: skip
    assert {"seat": 3, "take-turnup": "3-0"} in out["legal"]
    record = copy.deepcopy(GOOD)
    record["deal"]["hands"][0] = ["5-3", "4-4", "1-0", "2-0", "4-0"]
    record["deal"]["stock"] = ["5-4", "6-6", "5-2", "5-1", "6-5", "6-4", "6-1"]
    record["actions"].append({"seat": 3, "declare": "stand"})
    status, out = run(record)
    assert status == 0
    assert out["legal"][:3] == [{"seat": 0, "play": "5-3", "suit": 5}, {"seat": 0, "play": "5-3", "suit": 3},
                                {"seat": 0, "play": "4-4"}]  # fmt: skip


def test_an_illegal_action_exits_1_naming_the_action_seat_and_law() -> None:
    record = copy.deepcopy(GOOD)
    record["actions"] += [{"seat": 3, "declare": "stand"}, {"seat": 0, "play": "1-0", "suit": 1}]
    status, out = run(record)
    assert status == 1
    assert out == {"ok": False, "action": 4, "seat": 0, "law": "DL-LEAD-02",
                   "message": "Ann holds 3 trumps (6-6, 6-5 and 6-4) and must lead one of them, not 1-0"}  # fmt: skip


def _broken(path: str, value: Any) -> dict[str, Any]:
    record = copy.deepcopy(GOOD)
    target: Any = record
    keys = path.split("/")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return record


BAD = [
    ("game", "dominoes", "game"),
    ("rules", "peel", "rules.preset"),
    ("rules", "rounce", "rules.preset"),
    ("rules", {"preset": "celko", "loo-amount": 6}, "rules.loo-amount"),
    ("rules", {"preset": "celko", "domino-scoring": "money"}, "rules.domino-scoring"),
    ("rules", {"preset": "celko", "domino-loo-cap": True}, "rules.domino-loo-cap"),
    ("seats", ["Ann", "Ben", "Cat", "Dan", "Eve"], "seats"),
    ("seats", ["Ann"], "seats"),
    ("dealer", 4, "dealer"),
    ("pool", -5, "pool"),
    ("deal_kind", "single", "deal_kind"),
    ("deal", "shuffled", "deal"),
    ("deal/miss", ["5-4"], "deal.miss"),
    ("deal/hands/0/0", "7-1", "deal.hands[0][0]"),
    ("deal/hands/0/0", "AS", "deal.hands[0][0]"),
    ("deal/hands/0/0", 61, "deal.hands[0][0]"),
    ("deal/hands/0/0", "2-1", "deal.hands[1]"),
    ("deal/hands/2", ["4-3", "3-3"], "deal.hands[2]"),
    ("deal/hands/2", None, "deal.hands[2]"),
    ("deal/hands", [["6-6"]], "deal.hands"),
    ("deal/turnup", KeyError, "deal.turnup"),
    ("deal/turnup", "6-7", "deal.turnup"),
    ("deal/turnup", "6-6", "deal.turnup"),
    ("deal/stock", ["5-4", "5-3"], "deal.stock"),
    ("deal/stock/0", "6-6", "deal.stock"),
    ("actions/0", {"seat": 7, "declare": "stand"}, "actions[0].seat"),
    ("actions/0", {"seat": 0, "play": "9-9"}, "actions[0].play"),
    ("actions/0", {"seat": 0, "play": "6-6", "suit": 7}, "actions[0].suit"),
    ("actions/0", {"seat": 0, "play": "6-6", "civil": True}, "actions[0].civil"),
    ("actions/0", {"seat": 0, "declare": "pass"}, "actions[0].declare"),
    ("format", "loo-record/0", "format"),
]


@pytest.mark.parametrize(("path", "value", "field"), BAD, ids=[f"{p}={v!r}" for p, v, _ in BAD])
def test_unreadable_records_are_refused_with_status_2_naming_the_field(path: str, value: Any, field: str) -> None:
    status, out = check(json.dumps(_broken(path, value)))
    assert status == 2, out
    assert out["ok"] is False and out["error"] == "invalid-record"
    assert out["message"].startswith(field + ":"), out["message"]


def test_a_bad_domino_record_exits_2_from_the_command_line() -> None:
    status, out = run(_broken("deal/hands/2", ["4-3", "3-3", "2-2", "0-0"]))
    assert status == 2 and out["error"] == "invalid-record" and out["message"].startswith("deal.hands[2]:")
    status, out = run(None, raw='{"format": "loo-record/1", "game": "domino-rounce", "seats": 3}')
    assert status == 2 and out["message"].startswith("seats:")


def test_a_seeded_deal_is_reproducible_and_round_trips() -> None:
    obj = {"format": "loo-record/1", "game": "domino-rounce", "seats": ["Ann", "Ben", "Cat"], "dealer": 0,
           "pool": 0, "deal": {"seed": 11}, "actions": []}  # fmt: skip
    one, two = DominoRecord.from_json(obj), DominoRecord.from_json(obj)
    assert one == two and one.to_json() == obj
    tiles = one.with_tiles()
    assert tiles.seed is None and tiles.hands == one.hands and DominoRecord.from_json(tiles.to_json()) == tiles
    assert len(tiles.to_json()["deal"]["stock"]) == 12  # two six-tile dummies and nothing else (DR-03)
    with pytest.raises(RecordError, match="seed"):
        DominoRecord.from_json({**obj, "deal": {"seed": "eleven"}})


def test_replay_reports_the_index_of_the_first_illegal_action() -> None:
    record = copy.deepcopy(GOOD)
    record["actions"].append({"seat": 2, "declare": "stand"})
    with pytest.raises(IllegalActionError) as info:
        DominoRecord.from_json(record).replay()
    assert info.value.index == 3 and info.value.law == "DL-DECL-01"  # type: ignore[attr-defined]


def test_a_hand_played_in_the_engine_is_recorded_and_replays_the_same() -> None:
    rng = random.Random(4)
    hand = DominoHand.deal(DominoRules.preset("rounce"), rng, seats=4, dealer=1, pool=0, names=["A", "B", "C", "D"])
    while not hand.is_over:
        hand.push(rng.choice(hand.legal_actions()))
    record = DominoRecord.of_hand(hand)
    again = DominoRecord.loads(record.dumps())
    assert again == record and again.replay().settlement == hand.settlement
    assert check(record.dumps())[1]["complete"] is True


# ----- the worked example (DL-SC-06) -------------------------------------------------------------------


def golden(name: str) -> DominoRecord:
    return DominoRecord.loads((GOLDEN / f"{name}.json").read_text())


@pytest.mark.law("DL-SC-06", "AMB-50")
def test_DL_SC_06_AMB_50_the_worked_example_25_55_115_as_a_game_with_a_ledger() -> None:
    """004's four players A, B, C and D: the pool of hand 1 is 25, of hand 2 55, of hand 3 115 (23 a trick)."""
    names = ["hand-1-pool-25", "hand-2-pool-55", "hand-3-pool-115"]
    records = [golden(f"DL-SC-06-{n}") for n in names]
    game = DominoGame(DominoRules.preset("celko"), ["A", "B", "C", "D"], random.Random(0), first_dealer=3)
    pools = []
    for record in records:
        hand = game.next_hand(deal=(record.hands, record.turnup, record.stock or ()))
        assert (hand.dealer, hand.pool) == (record.dealer, record.pool)
        pools.append(hand.pool)
        for action in record.actions:
            hand.push(action)
        game.settle()
        assert game.conserved()
    assert pools == [25, 55, 115]
    first, second, third = (r.settlement for r in game.results)
    assert first.payouts == (15, 0, 0, 10) and first.loos == (0, 25, 25, 0) and first.next_pool == 50
    assert second.payouts == (0, 0, 55, 0) and second.loos == (55, 0, 0, 55) and second.next_pool == 110
    assert third.payouts == (23, 0, 46, 46)  # each trick 23 chips
    by_hand = [[(e.player, e.amount, e.why) for e in game.ledger if e.hand == i] for i in range(3)]
    assert by_hand[0][:5] == [("A", 5, "ante"), ("B", 5, "ante"), ("C", 5, "ante"), ("D", 5, "ante"),
                              ("D", 5, "deal")]  # fmt: skip
    assert by_hand[1][0] == ("A", 5, "deal") and by_hand[2][0] == ("B", 5, "deal")  # DL-SC-05
    assert game.balances() == {"A": -5 + 15 - 5 - 55 + 23, "B": -5 - 25 - 5 - 115, "C": -5 - 25 + 55 + 46,
                               "D": -10 + 10 - 55 + 46}  # fmt: skip
    assert game.pool == 115


def test_the_golden_domino_records_are_named_by_law_and_check_clean() -> None:
    files = sorted(GOLDEN.glob("DL-*.json"))
    records = [f for f in files if not f.name.endswith(".expected.json")]
    assert len(records) >= 6
    for path in records:
        status, out = check(path.read_text())
        assert status == 0 and out["complete"], path.name
        assert out == json.loads(path.with_name(path.stem + ".expected.json").read_text())
    rounce = json.loads((GOLDEN / "DL-rounce-DR-03-09-a-dummy-and-the-count.expected.json").read_text())
    assert rounce["points"] == [-3, 5, 0, -2]
    assert Tile.parse("5-0") == golden("DL-rounce-DR-03-09-a-dummy-and-the-count").turnup


@pytest.mark.law("DL-SC-03", "DL-DLR-05")
def test_DL_SC_03_a_pool_that_is_not_a_multiple_of_five_is_refused_where_no_share_can_stay_in_it() -> None:
    """004: the pool "is always divisible evenly by five" at the source's stakes of five chips, while
    every hand pays its five tricks out. A record with a pool of 27 is then refused, naming `pool` and
    the law; 30 is read. Where a dealer may play for the pool (four players, the option agreed), his
    tricks' shares stay in it (DL-DLR-05: a fifth of 115 is 23), so 27 can follow and is read."""
    obj = json.loads((GOLDEN / "DL-SC-06-hand-1-pool-25.json").read_text())
    plain = {**obj, "rules": {"preset": "celko", "lone-opponent-rule": "off"}}
    with pytest.raises(RecordError) as refused:
        DominoRecord.from_json({**plain, "pool": 27})
    assert refused.value.field == "pool" and "DL-SC-03" in refused.value.message
    assert DominoRecord.from_json({**plain, "pool": 30}).pool == 30
    assert DominoRecord.from_json({**obj, "pool": 27}).pool == 27  # the source's preset: for the pool agreed
    # With loos capped at 2 chips a player (DL-SC-07), a loo of 8 chips at four players may be paid in.
    capped = {**plain, "pool": 27, "rules": {"preset": "celko", "lone-opponent-rule": "off", "domino-loo-cap": 2}}
    assert DominoRecord.from_json(capped).pool == 27


@pytest.mark.law("DL-SC-01", "DL-SC-02")
def test_DL_SC_01_DL_SC_02_a_pool_of_only_the_dealers_stake_is_refused_everyone_antes_an_empty_pool() -> None:
    """A four-player hand whose pool holds only the dealer's 5: the pool was empty, so each player antes
    5 and the dealer 5 more, 25 in all. Refused, naming the 25; `loo check` says so as an invalid record."""
    obj = json.loads((GOLDEN / "DL-SC-06-hand-1-pool-25.json").read_text())
    with pytest.raises(RecordError) as refused:
        DominoRecord.from_json({**obj, "pool": 5})
    assert refused.value.field == "pool" and "25 at 4 players" in refused.value.message
    assert "DL-SC-01" in refused.value.message and "DL-SC-02" in refused.value.message
    status, said = check(json.dumps({**obj, "pool": 5}))
    assert status == 2 and said["error"] == "invalid-record" and "DL-SC-02" in said["message"], said
