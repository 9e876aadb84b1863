"""``python -m loo check``: output and exit status exactly as docs/records.md gives them."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from loo.core.laws import LAWS
from tests.helpers.loo_helpers import check_cli

ROOT = Path(__file__).resolve().parents[2]

GOOD: dict[str, Any] = {
    "format": "loo-record/1",
    "game": "three-card-loo",
    "rules": {"preset": "peel", "loo-mode": "limited", "deal-price": 3, "loo-amount": 6},
    "seats": ["Ann", "Ben", "Cat", "Dan", "Eve"],
    "dealer": 4,
    "pool": 3,
    "deal": {
        "hands": [["AS", "10H", "2C"], ["KD", "QD", "3S"], ["9C", "8C", "7H"], ["JH", "5S", "4D"], ["6C", "6D", "6H"]],
        "miss": ["AH", "KH", "QH"],
        "turnup": "7D",
    },
    "actions": [{"seat": 0, "declare": "stand"}, {"seat": 1, "declare": "miss"}],
}


def run(record: Any, *, raw: str | None = None) -> tuple[int, dict[str, Any]]:
    """``loo check -`` on the record (in this process: see check_cli)."""
    status, out, err = check_cli(raw if raw is not None else json.dumps(record))
    assert err == "", err
    lines = out.strip().splitlines()
    assert len(lines) == 1, "one JSON object on one line"
    return status, json.loads(lines[0])


def test_an_unfinished_legal_record_lists_the_legal_actions() -> None:
    status, out = run(GOOD)
    assert status == 0
    proc = subprocess.run([sys.executable, "-m", "loo", "check", "-"], input=json.dumps(GOOD), capture_output=True,
                          text=True, cwd=ROOT, timeout=60)  # fmt: skip
    assert (proc.returncode, proc.stderr, json.loads(proc.stdout)) == (status, "", out)  # its own process: the same
    assert out == {
        "ok": True,
        "complete": False,
        "to_act": 2,
        "legal": [{"seat": 2, "declare": "stand"}, {"seat": 2, "declare": "throw"}],
    }


def test_a_finished_record_reports_the_settlement_with_every_field() -> None:
    record = copy.deepcopy(GOOD)
    record["actions"] = [
        {"seat": 0, "declare": "stand"}, {"seat": 1, "declare": "stand"}, {"seat": 2, "declare": "throw"},
        {"seat": 3, "declare": "throw"}, {"seat": 4, "declare": "stand"},
        {"seat": 0, "play": "AS"}, {"seat": 1, "play": "3S"}, {"seat": 4, "play": "6D"},
        {"seat": 4, "play": "6H"}, {"seat": 0, "play": "10H"}, {"seat": 1, "play": "QD"},
        {"seat": 1, "play": "KD"}, {"seat": 4, "play": "6C"}, {"seat": 0, "play": "2C"},
    ]  # fmt: skip
    status, out = run(record)
    assert status == 0
    assert out["ok"] and out["complete"]
    assert out["tricks"][0] == {"leader": 0, "plays": [[0, "AS"], [1, "3S"], [4, "6D"]], "winner": 4}
    assert out["tricks_won"] == [0, 2, 0, 0, 1]
    assert out["looed"] == [0]
    assert out["payouts"] == [0, 2, 0, 0, 1]
    assert out["loos"] == [6, 0, 0, 0, 0]
    assert out["next_pool"] == 6


def test_an_illegal_action_exits_1_naming_the_action_seat_and_law() -> None:
    record = copy.deepcopy(GOOD)
    record["actions"].append({"seat": 2, "declare": "miss"})
    status, out = run(record)
    assert status == 1
    assert out["ok"] is False and out["action"] == 2 and out["seat"] == 2 and out["law"] == "L3-DECL-05"
    assert "miss" in out["message"]


GOLDEN_OF = {
    "three-card-loo": "L3-DIV-02-one-chip-a-trick", "five-card-loo": "L5-STK-03-half-a-crown",
    "nap": "NAP-CALL-04-the-dealer-calls-one", "domino-loo": "DL-SC-06-hand-1-pool-25",
}  # fmt: skip


@pytest.mark.parametrize(
    ("game", "action", "field"),
    [
        ("three-card-loo", {"call": "2"}, "actions[0].call"),
        ("three-card-loo", {"exchange": []}, "actions[0].exchange"),
        ("three-card-loo", {"take-turnup": "2C"}, "actions[0].take-turnup"),
        ("three-card-loo", {"play": "AS", "civil": True}, "actions[0].civil"),
        ("nap", {"take-turnup": "2C"}, "actions[0].take-turnup"),
        ("nap", {"declare": "stand"}, "actions[0].declare"),
        ("domino-loo", {"play": "6-6", "civil": True}, "actions[0].civil"),
        ("domino-loo", {"call": "pass"}, "actions[0].call"),
        ("domino-loo", {"exchange": []}, "actions[0].exchange"),
    ],
)
def test_an_action_of_another_game_exits_2_naming_it_and_the_games_own_verbs(
    game: str, action: dict[str, Any], field: str
) -> None:
    """One rule: a verb the game never has (or Pam's "be civil" without Pam) makes a record of another
    game, which cannot be read: exit 2 naming the field. A verb of the game that its laws or options
    forbid there is an illegal action: exit 1 with its law (as below)."""
    record = json.loads((ROOT / "tests" / "golden" / f"{GOLDEN_OF[game]}.json").read_text())
    record["actions"] = [{"seat": 0, **action}, *record["actions"]]
    status, out = run(record)
    assert status == 2 and out["error"] == "invalid-record", out
    assert out["message"].startswith(f"{field}: "), out["message"]
    assert "has no" in out["message"]


@pytest.mark.parametrize("game, action", [("five-card-loo", {"take-turnup": "2C"}), ("nap", {"garnet": []})])
def test_a_verb_of_the_game_used_where_its_laws_forbid_is_an_illegal_action_exit_1(
    game: str, action: dict[str, Any]
) -> None:
    record = json.loads((ROOT / "tests" / "golden" / f"{GOLDEN_OF[game]}.json").read_text())
    record["actions"] = [{"seat": 0, **action}, *record["actions"]]
    status, out = run(record)
    assert status == 1 and out["action"] == 0 and out["law"] in LAWS, out


def test_the_short_forms_of_cards_are_read() -> None:
    record = copy.deepcopy(GOOD)
    record["deal"]["hands"][0] = ["a♠", "T♥", "2c"]
    status, _ = run(record)
    assert status == 0


def _broken(path: str, value: Any) -> dict[str, Any]:
    record = copy.deepcopy(GOOD)
    target = record
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


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("game", "whist", "game"),
        ("rules", "hoyle", "rules.preset"),
        ("rules", {"preset": "peel", "loo-size": 4}, "rules.loo-size"),
        ("rules", {"preset": "peel", "loo-mode": "huge"}, "rules.loo-mode"),
        ("rules", {"preset": "peel", "deal-price": "three"}, "rules.deal-price"),
        ("rules", {"preset": "peel", "pam": "trump-knave"}, "rules.pam"),
        ("rules", "pam", "rules.preset"),
        ("deal/hands/0/0", "1C", "deal.hands[0][0]"),
        ("deal/hands/0/0", "ZZ", "deal.hands[0][0]"),
        ("deal/hands/0/0", "KD", "deal.hands[1]"),
        ("deal/turnup", "AH", "deal.turnup"),
        ("deal/hands/2", ["9C", "8C"], "deal.hands[2]"),
        ("deal/hands/2", None, "deal.hands[2]"),
        ("deal/miss", ["2S"], "deal.miss"),
        ("deal/turnup", KeyError, "deal.turnup"),
        ("seats", ["Ann"], "seats"),
        ("dealer", 7, "dealer"),
        ("pool", -3, "pool"),
        ("actions/0", {"seat": 9, "declare": "stand"}, "actions[0].seat"),
        ("actions/0", {"seat": 0, "declare": "maybe"}, "actions[0].declare"),
        ("actions/0", {"seat": 0, "dance": "jig"}, "actions[0].dance"),
        ("actions/0", {"seat": 0, "play": "AS", "declare": "stand"}, "actions[0]"),
        ("format", "loo-record/2", "format"),
        ("deal_kind", "double", "deal_kind"),
    ],
)
def test_unreadable_records_exit_2_naming_the_field(path: str, value: Any, field: str) -> None:
    status, out = run(_broken(path, value))
    assert status == 2, out
    assert out["ok"] is False and out["error"] == "invalid-record"
    assert out["message"].startswith(field + ":"), out["message"]


def test_not_json_exits_2() -> None:
    status, out = run(None, raw="{not json")
    assert status == 2 and out["error"] == "invalid-record" and "not JSON" in out["message"]


def test_a_missing_file_exits_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "loo", "check", "/no/such.json"], capture_output=True, text=True,
                          cwd=ROOT)  # fmt: skip
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"] == "invalid-record"


def test_a_record_of_another_chapter_is_read_by_that_games_own_reader() -> None:
    status, out = run(_broken("game", "nap"))  # Nap's reader: Peel's preset is not one of Nap's
    assert status == 2 and out["message"].startswith("rules.preset:") and "Nap presets" in out["message"]


GOLDEN = sorted(p for p in (ROOT / "tests" / "golden").glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("record", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_records_of_the_sources_worked_examples(record: Path) -> None:
    """Each file is a worked example of the sources (its name gives the law); the checker's output must
    match the expected file exactly, field for field."""
    status, out, err = check_cli("", str(record))
    assert status == 0 and err == "", out + err
    expected = json.loads(record.with_name(record.stem + ".expected.json").read_text())
    assert json.loads(out) == expected
    assert GOLDEN, "no golden records found"


@pytest.mark.parametrize("game", ["three-card-loo", "five-card-loo", "irish-loo", "nap", "domino-loo", "domino-rounce"])
def test_every_game_deals_a_seeded_record_that_check_reads_back(game: str) -> None:
    def loo(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "loo", *args], capture_output=True, text=True, cwd=ROOT,
                              timeout=120)  # fmt: skip

    seeded = loo("deal", "--game", game, "--seats", "Ann,Ben,Cat,Dan", "--seed", "9")
    written = loo("deal", "--game", game, "--seats", "Ann,Ben,Cat,Dan", "--seed", "9", "--cards")
    assert seeded.returncode == written.returncode == 0, seeded.stderr + written.stderr
    assert json.loads(seeded.stdout)["deal"] == {"seed": 9}
    status_a, out_a = run(None, raw=seeded.stdout)
    status_b, out_b = run(None, raw=written.stdout)
    assert status_a == status_b == 0 and out_a == out_b  # the seed and the cards it deals are the same deal
    assert out_a["complete"] is False and out_a["legal"]
    sim = loo("simulate", "--game", game, "--seats", "4", "--hands", "40", "--bots", "random,thumb,thumb,random")
    assert sim.returncode == 0, sim.stderr
    summary = json.loads(sim.stdout)
    assert summary["hands"] == 40 and len(summary["mean_net"]) == 4 and sum(summary["reasons"].values()) == 40
