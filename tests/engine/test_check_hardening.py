"""``loo check`` never prints a traceback (issue 19, item 6): whatever it is fed, it prints one line of
JSON and exits 0, 1 or 2 as docs/records.md gives them ("The checker"), an unreadable record naming
the field at fault ("A record that cannot be read: exit status 2").

Each bound is tested where the record is read (loo.records.parse_json and the readers), through the
command's own entry point, ``loo.__main__.main``, run in this process; a few cases run the command
in a subprocess too. The last tests feed it random and mutated records with hypothesis.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo.__main__ import main
from loo.core.rules import RecordError
from loo.core.tiles import Tile, TileError
from loo.games.loo.rules import Game
from loo.records import MAX_POOL, Record

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "golden"
GOLDEN = {
    p.stem: json.loads(p.read_text(encoding="utf-8"))
    for p in sorted(GOLDEN_DIR.glob("*.json"))
    if not p.name.endswith(".expected.json")
}
THREE_CARD = GOLDEN["L3-DIV-02-one-chip-a-trick"]
FIVE_CARD = GOLDEN["L5-STK-03-half-a-crown"]
DOMINO = GOLDEN["DL-SC-06-hand-1-pool-25"]


def check_bytes(data: bytes) -> tuple[int, dict[str, Any]]:
    """``loo check -`` in this process with ``data`` on standard input: (exit status, the JSON printed).
    Fails unless exactly one line of JSON is printed and nothing on standard error."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["check", "-"])
    finally:
        sys.stdin = stdin
    assert err.getvalue() == ""
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, "one JSON object on one line"
    result = json.loads(lines[0])
    assert isinstance(result, dict)
    return status, result


def check_text(text: str) -> tuple[int, dict[str, Any]]:
    return check_bytes(text.encode("utf-8", "surrogatepass"))


def check_record(obj: Any) -> tuple[int, dict[str, Any]]:
    return check_text(json.dumps(obj))


def refused(text_or_obj: Any, field: str) -> str:
    """Check that ``loo check`` exits 2 naming ``field``; return the message after the field."""
    status, out = check_text(text_or_obj) if isinstance(text_or_obj, str) else check_record(text_or_obj)
    assert status == 2, out
    assert out["ok"] is False and out["error"] == "invalid-record"
    assert out["message"].startswith(field + ": "), out["message"]
    return str(out["message"][len(field) + 2 :])


def changed(record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out.update(fields)
    return out


def run_cli(*args: str, data: bytes | None = None) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "loo", *args], input=data, capture_output=True, cwd=ROOT, timeout=60, check=False
    )
    assert proc.stderr == b"", proc.stderr.decode(errors="replace")
    lines = proc.stdout.decode("utf-8").splitlines()
    assert len(lines) == 1
    return proc.returncode, json.loads(lines[0])


# ----- the crashes of the issue ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("where", "field"), [("pool", "pool"), ("dealer", "dealer"), ("seed", "deal.seed")])
def test_a_number_over_4300_digits_is_refused_by_its_field(where: str, field: str) -> None:
    """Python turns at most 4,300 digits into an int: a longer number names the field that holds it."""
    record = changed(THREE_CARD, deal={"seed": 1}) if where == "seed" else copy.deepcopy(THREE_CARD)
    target = record["deal"] if where == "seed" else record
    target[where] = "HUGE"
    text = json.dumps(record).replace('"HUGE"', "9" * 5000)
    assert "5,000 digits" in refused(text, field)


def test_a_number_over_4300_digits_in_an_action_is_refused_by_its_field() -> None:
    record = copy.deepcopy(THREE_CARD)
    record["actions"][2]["seat"] = "HUGE"
    text = json.dumps(record).replace('"HUGE"', "-" + "1" * 4301)
    assert "4,301 digits" in refused(text, "actions[2].seat")


def test_json_nested_100000_deep_is_refused_naming_the_field() -> None:
    """docs/records.md: a record nested too deeply is refused (field `record`, or the field nesting it)."""
    assert refused("[" * 100_000 + "]" * 100_000, "record").startswith("is nested too deeply")
    deep = "[" * 100_000 + "]" * 100_000
    assert "nested too deeply" in refused(json.dumps(THREE_CARD).replace('"peel"', deep), "rules")
    text = json.dumps(changed(THREE_CARD, actions="DEEP")).replace('"DEEP"', '[{"a": ' * 20_000 + "1" + "}]" * 20_000)
    assert "nested too deeply" in refused(text, "actions")


def test_a_record_nesting_four_deep_is_read_and_eleven_deep_is_not() -> None:
    assert check_record(THREE_CARD)[0] == 0  # the record, its deal, the hands, a hand
    record = changed(THREE_CARD, seats=[[[[[[[[["Ann"]]]]]]]]])  # ten deep: read, then refused as a name
    assert refused(record, "seats").startswith("a table seats")
    record = changed(THREE_CARD, seats=[[[[[[[[[["Ann"]]]]]]]]]])
    assert refused(record, "seats").startswith("is nested too deeply")


@pytest.mark.law("AMB-02")
@pytest.mark.parametrize(("game", "players"), [("three-card-loo", 17), ("five-card-loo", 11), ("irish-loo", 18)])
def test_AMB_02_a_seeded_loo_deal_for_more_players_than_the_pack_serves_is_refused(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AMB-02: a seeded deal the pack cannot serve names `seats`, as Nap and the domino games do: refused
    by the record's reader at the game's own limit, and by the deal itself were that limit lifted."""
    with pytest.raises(RecordError) as raised:
        Record.from_json({"format": "loo-record/1", "game": game, "seats": [f"P{i}" for i in range(players)],
                          "dealer": 0, "pool": 5, "deal": {"seed": 4}})  # fmt: skip
    assert raised.value.field == "seats" and "AMB-02" in raised.value.message
    monkeypatch.setattr(Game, "max_seats", property(lambda _self: 20))
    obj = {"format": "loo-record/1", "game": game, "seats": [f"P{i}" for i in range(players)], "dealer": 0,
           "pool": 5, "deal": {"seed": 4}}  # fmt: skip
    with pytest.raises(RecordError) as raised:
        Record.from_json(obj)
    assert raised.value.field == "seats" and "AMB-02" in raised.value.message


@pytest.mark.law("AMB-02")
@pytest.mark.parametrize(("game", "players"), [("three-card-loo", 16), ("five-card-loo", 10), ("irish-loo", 17)])
def test_AMB_02_a_loo_record_seats_all_the_pack_serves_not_ten(game: str, players: int) -> None:
    """AMB-02 (Peel: three-card Loo for any number the pack allows): a record seats as many players as the
    pack deals a hand to, with the miss and the turn-up; ten was a bound of the reader's own."""
    record = Record.from_json({"format": "loo-record/1", "game": game, "seats": [f"P{i}" for i in range(players)],
                               "dealer": 0, "pool": 5, "deal": {"seed": 4}})  # fmt: skip
    assert len(record.seats) == players and all(len(h) == Game(game).hand_size for h in record.hands if h)


@pytest.mark.parametrize("turnup", ["²-1", "٣-6", "6-３", "1-" + "1" * 5000, "0" * 5000 + "7-1"])
def test_a_domino_turnup_with_a_non_ascii_digit_or_a_long_end_is_refused_as_deal_turnup(turnup: str) -> None:
    record = copy.deepcopy(DOMINO)
    record["deal"]["turnup"] = turnup
    refused(record, "deal.turnup")


def test_tiles_accept_ascii_digits_only_as_cards_do() -> None:
    """docs/records.md, Cards and tiles: a tile is two numbers joined by a hyphen, in ASCII digits."""
    for text in ("٣-6", "²-1", "6-３", "𝟔-3"):
        with pytest.raises(TileError):
            Tile.parse(text)
    assert str(Tile.parse(" 3 – 6 ")) == "6-3" and str(Tile.parse("06-1")) == "6-1"
    record = copy.deepcopy(DOMINO)
    record["deal"]["hands"][0][0] = "٦-٦"
    refused(record, "deal.hands[0][0]")


def test_a_record_file_that_is_not_utf8_is_refused_as_record(tmp_path: Path) -> None:
    data = json.dumps(THREE_CARD, ensure_ascii=False).replace("Ann", "Ann\udcff").encode("utf-8", "surrogateescape")
    status, out = check_bytes(data)
    assert status == 2 and out["message"].startswith("record: is not UTF-8 text")
    path = tmp_path / "latin1.json"
    zoe = changed(THREE_CARD, seats=["Zoë", "Ben", "Cat", "Dan", "Eve"])
    path.write_bytes(json.dumps(zoe, ensure_ascii=False).encode("latin-1"))
    status, out = run_cli("check", str(path))
    assert status == 2 and out["message"].startswith("record: is not UTF-8 text")


def test_a_result_too_large_to_print_cannot_arise_the_pool_is_bounded() -> None:
    """A pool of 4,300 digits grew past what can be printed once the loos were added; the pool is bounded."""
    assert "more than any table's pool" in refused(changed(THREE_CARD, pool=10**4299), "pool")
    assert "more than any table's pool" in refused(changed(THREE_CARD, pool=MAX_POOL + 1), "pool")
    status, out = check_record(changed(THREE_CARD, pool=MAX_POOL, rules={"preset": "peel", "loo-mode": "unlimited"}))
    assert status == 0 and out["next_pool"] >= MAX_POOL - 3  # the largest pool is read and its result printed


# ----- what the readers let through ------------------------------------------------------------------------------


def test_an_unknown_top_level_key_is_refused_naming_it() -> None:
    """docs/records.md, The fields of a record: a misspelt deal_kind no longer deals an ordinary hand."""
    record = changed(THREE_CARD, deal={"seed": 3}, deal_knd="single")
    assert "'deal_kind' is meant" in refused(record, "deal_knd")
    for game in ("L5-STK-03-half-a-crown", "NAP-SET-04-penny-nap", "DL-SC-06-hand-1-pool-25"):
        refused(changed(GOLDEN[game], comment="a fine hand"), "comment")


def test_keys_beside_a_seed_are_refused_in_the_loo_games_too() -> None:
    refused(changed(THREE_CARD, deal={"seed": 3, "turnup": "AS"}), "deal")


def test_a_game_that_is_not_a_string_is_refused() -> None:
    refused(changed(THREE_CARD, game=["three-card-loo"]), "game")
    refused(changed(THREE_CARD, game={"name": "nap"}), "game")


@pytest.mark.parametrize(
    ("record", "pool", "law", "least"),
    [(THREE_CARD, 2, "L3-STK-07", 3), (FIVE_CARD, 29, "L5-STK-01", 30), (DOMINO, 4, "DL-SC-05", 25)],
    ids=["three-card", "five-card", "domino-loo"],
)
def test_L3_STK_07_a_pool_smaller_than_the_deal_price_is_refused(
    record: dict[str, Any], pool: int, law: str, least: int
) -> None:
    """The pool counts the deal price the dealer has just paid (docs/records.md, `pool`); at dominoes
    an empty pool is anted by all four players as well (DL-SC-01, DL-SC-02), so 25 is the least."""
    assert law in refused(changed(record, pool=pool), "pool")
    assert check_record(changed(record, pool=least))[0] != 2


def test_a_points_game_of_dominoes_may_have_an_empty_pool() -> None:
    record = changed(DOMINO, game="domino-rounce", rules="rounce", pool=0, deal={"seed": 2}, actions=[])
    assert check_record(record)[0] == 0


def test_an_error_message_cuts_a_huge_input() -> None:
    """A ten-megabyte string in a record gives a message of a line, not twenty megabytes."""
    huge = "x" * 10_000_000
    for obj, field in [
        (changed(THREE_CARD, seats=[huge, "Ben", "Cat", "Dan", "Eve"]), "seats[0]"),
        (changed(THREE_CARD, rules=huge), "rules.preset"),
        (changed(THREE_CARD, rules={"preset": "peel", "loo-mode": huge}), "rules.loo-mode"),
        (changed(THREE_CARD, actions=[{"seat": 0, "declare": huge}]), "actions[0].declare"),
        (changed(THREE_CARD, deal={**THREE_CARD["deal"], "turnup": "A" + huge}), "deal.turnup"),
    ]:
        with pytest.raises(RecordError) as raised:
            Record.from_json(obj)
        assert raised.value.field == field and len(str(raised.value)) < 400
    with pytest.raises(RecordError) as raised:
        Record.from_json(changed(THREE_CARD, **{huge: 1}))
    assert len(raised.value.field) < 120 and "characters cut" in raised.value.field
    assert len(refused(json.dumps(changed(THREE_CARD, game="y" * 200_000)), "game")) < 400


@pytest.mark.law("L3-SGL-03")
def test_L3_SGL_03_peels_single_credits_no_trick_since_none_is_played() -> None:
    """docs/records.md, A finished hand: `tricks_won` counts the tricks listed in `tricks`; the single is
    matched against the turn-up, not played, so both say no trick, and the pool goes by `payouts`."""
    record = {"format": "loo-record/1", "game": "three-card-loo", "rules": "peel", "seats": ["Ann", "Ben", "Cat"],
              "dealer": 2, "pool": 3, "deal_kind": "single",
              "deal": {"hands": [["QD"], ["3D"], ["AH"]], "turnup": "7D"}}  # fmt: skip
    status, out = check_record(record)
    assert status == 0 and out["complete"] is True
    assert out["tricks"] == [] and out["tricks_won"] == [0, 0, 0]
    assert out["payouts"] == [3, 0, 0] and out["looed"] == [1, 2]


def test_a_lone_surrogate_in_the_input_is_printed_escaped() -> None:
    status, out = run_cli("check", "-", data=json.dumps(changed(THREE_CARD, **{"\ud800": 1})).encode("ascii"))
    assert status == 2 and out["message"].startswith("\ud800: unknown field")


# ----- fuzzing ---------------------------------------------------------------------------------------------------

ODD_STRINGS = ["", " ", "AS", "10H", "6-6", "٣-6", "²-1", "\ud800", "\x00", "é" * 50, "A" * 300, "null", "stand",
               "peel", "nap", "1e999", "ß", "♠", "🂡"]  # fmt: skip
# Placeholders swapped for raw JSON once the record is written: numbers and nesting json.dumps cannot write.
RAW = {
    "@HUGE@": "7" * 4400,
    "@NEG_HUGE@": "-" + "3" * 5000,
    "@DEEP@": "[" * 50_000 + "]" * 50_000,
    "@DEEP_OBJ@": '{"a":' * 2000 + "0" + "}" * 2000,
    "@BIG_FLOAT@": "1" + "0" * 400 + ".5e999",
}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(ODD_STRINGS)
    | st.text(max_size=12)
    | st.sampled_from(sorted(RAW)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    """A golden record with a few changes at random places: keys deleted or added, values replaced by
    others of any type, huge numbers, deep nesting, odd strings, lists emptied or doubled."""
    record: Any = copy.deepcopy(GOLDEN[draw(st.sampled_from(sorted(GOLDEN)))])
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        path = draw(st.sampled_from(_paths(record)))
        if not path:
            continue
        parent = record
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        op = draw(st.sampled_from(["delete", "replace", "add-key", "wrap", "double", "empty"]))
        if op == "delete":
            del parent[last]
        elif op == "replace":
            parent[last] = draw(json_values)
        elif op == "add-key" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["deal_knd", "seed", "x", "actions", "civil", "suit"]))] = draw(json_values)
        elif op == "wrap":
            parent[last] = [parent[last]]
        elif op == "double" and isinstance(parent[last], list):
            parent[last] = parent[last] * 2
        elif op == "empty":
            parent[last] = type(parent[last])() if isinstance(parent[last], (list, dict, str)) else None
    text = json.dumps(record, ensure_ascii=draw(st.booleans()))
    for placeholder, raw in RAW.items():
        text = text.replace(json.dumps(placeholder), raw)
    return text


def assert_reported(status: int, out: dict[str, Any]) -> None:
    assert status in (0, 1, 2), out
    assert out["ok"] is (status == 0)
    if status == 2:
        assert out["error"] == "invalid-record" and ": " in out["message"]
    if status == 1:
        assert {"action", "seat", "law", "message"} <= set(out)


@pytest.mark.parametrize("line_break", ["\x85", "\u2028", "\u2029"])
def test_a_line_break_quoted_from_the_record_stays_inside_the_one_line_of_json(line_break: str) -> None:
    """NEL and the line and paragraph separators may stand raw in JSON text, and str.splitlines (like
    other readers of Unicode text) ends a line at each: the message that quotes one escapes it."""
    record = changed(DOMINO, rules={line_break: None})
    assert refused(record, "rules." + line_break).startswith("unknown option")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_fuzz_mutated_golden_records_are_always_reported_in_json(text: str) -> None:
    assert_reported(*check_text(text))


@settings(max_examples=100, deadline=None)
@given(st.one_of(json_values.map(json.dumps), st.text(max_size=60), st.binary(max_size=60).map(lambda b: b.hex())))
def test_fuzz_random_json_and_text_are_always_reported_in_json(text: str) -> None:
    for placeholder, raw in RAW.items():
        text = text.replace(json.dumps(placeholder), raw)
    assert_reported(*check_text(text))


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=80), st.sampled_from(sorted(GOLDEN)), st.integers(min_value=0))
def test_fuzz_random_bytes_spliced_into_a_record_are_always_reported_in_json(junk: bytes, name: str, at: int) -> None:
    data = json.dumps(GOLDEN[name]).encode("utf-8")
    at %= len(data) + 1
    assert_reported(*check_bytes(data[:at] + junk + data[at:]))


def test_fuzz_through_the_real_command_in_a_subprocess() -> None:
    """Two of the crashes, through ``python -m loo check -`` itself: exit 2, JSON, no traceback."""
    text = json.dumps(changed(THREE_CARD, pool="HUGE")).replace('"HUGE"', "9" * 5000)
    status, out = run_cli("check", "-", data=text.encode())
    assert status == 2 and out["message"].startswith("pool: ")
    status, out = run_cli("check", "-", data=b"[" * 100_000 + b"]" * 100_000)
    assert status == 2 and out["message"].startswith("record: is nested too deeply")
