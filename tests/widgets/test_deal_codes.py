"""Deal codes: read and written, refused with the part at fault named, and dealing exactly their
hand at any point of a game; and the served table that reads them (and table ids) from a request."""

from __future__ import annotations

import json
import random
from pathlib import Path

import ipywidgets as ipw
import pytest

from loo.core.rules import MAX_OPTION_NUMBER, RecordError
from loo.kits import kit
from loo.options import game_options, presets
from loo.records import load, record_type
from tests.helpers.loo_helpers import EVERY_TABLE_GAME
from widgets.kernel.table_router import served_table
from widgets.store.sqlite import TableStore
from widgets.table.dealcode import GAME_CODES, MAX_LENGTH, MAX_POOL, DealCode, DealCodeError, parse_deal_code
from widgets.table.journal import MemoryJournals
from widgets.table.model import TableModel, code_record
from widgets.views.live_table import LiveTable

GAMES = EVERY_TABLE_GAME


def deal_of(table: TableModel) -> tuple[object, ...]:
    """Every seat's cards (or tiles) as dealt, with the dealer, the pool and the kind of deal."""
    hand = table.hand
    return (record_type(table.game).of_hand(hand).to_json()["deal"], hand.dealer, hand.pool, table.deal_code())


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_every_hands_code_deals_that_hand_again(game: str, preset: str) -> None:
    table = TableModel(game, preset=preset, rng=random.Random(11))
    chooser = random.Random(12)
    for _ in range(5):
        code = table.deal_code()
        assert code is not None and parse_deal_code(str(code)) == code
        assert deal_of(TableModel(code=str(code))) == deal_of(table)
        while not table.hand.is_over:
            table.act(chooser.choice(table.legal()))
        if not table.new_hand():
            break


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_a_first_deals_code_is_the_engines_deal_for_that_seed(game: str, preset: str) -> None:
    code = parse_deal_code(f"{game}.{preset}.s2.n4242")
    table = TableModel(code=code)
    names = list(table.names)
    engine = load(json.dumps(code_record(code, names))).start()  # the engine's deal of that seed
    if preset == "peel":  # Peel's single, settled as dealt, is shown and the next hand dealt (widgets.views.opening)
        single = table.records[0]
        assert single["deal_kind"] == "single" and single["dealer"] == 1 and not single["actions"]
        assert single["deal"]["hands"][2] == [str(c) for c in engine.holding(2)]
        assert table.seat == 2 and not table.hand.is_over and table.legal()
        return
    assert table.seat == 2 and table.hand.dealer == 1, "the reader is the eldest hand"
    assert tuple(table.hand.holding(2)) == tuple(engine.holding(2))
    assert str(table.deal_code()) == str(code)


def test_a_code_is_written_short_and_read_in_any_case() -> None:
    code = DealCode("three-card-loo", {"preset": "peel", "loo-mode": "unlimited", "club-law": True}, 1, 99, 3, 12)
    assert str(code) == "l3.peel_loo-mode~unlimited_club-law~true.s1.n99.d3.p12"
    assert parse_deal_code(str(code).upper()) == code
    assert parse_deal_code("three-card-loo.peel.s0.n5") == parse_deal_code("l3.peel.s0.n5")
    link = "http://127.0.0.1:8000/tables/nap?deal=nap.hoffmann.s1.n4&table=xyz"
    assert str(parse_deal_code(link)) == "nap.hoffmann.s1.n4"
    assert str(parse_deal_code("12345", game="nap", rules="hoffmann")) == "nap.hoffmann.s0.n12345"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "empty"),
        ("l3.peel.s0", "four parts"),
        ("zz.peel.s0.n1", "'zz' is not a game"),
        ("l3.nope.s0.n1", "preset"),
        ("l3.peel_loo-mode~silly.s0.n1", "loo-mode"),
        ("l3.peel_bogus~1.s0.n1", "bogus"),
        ("l3.peel_loo-mode.s0.n1", "loo-mode~unlimited"),
        ("l3.peel.s0.nx", "the seed"),
        ("l3.peel.s0.n1234567890123456789", "the seed"),
        ("l3.peel.s9.n1", "the seat s9 does not exist"),
        ("l3.peel.d0.n1", "the seat is missing"),
        ("l3.peel.s0.n1.d7", "the dealer d7"),
        ("l3.peel.s0.n1.s1", "the seat is given twice"),
        ("l3.peel.s0.n1.q3", "'q3' is not a part"),
        ("l3.peel.s0.n1.kweird", "the kind of deal"),
        ("nap.hoffmann.s0.n1.ksingle", "deal_kind"),
        ("l3.peel.s0.n1.p9999999", "the pool"),
        ("l3 peel s0 n1", "' ' cannot be part"),
        ("l3.peel.s0.n1.c1", "number of seats"),
        ("12345", "bare number"),
        ("x" * (MAX_LENGTH + 1), "too long"),
        ("l3.peel_deal-price~1000001.s0.n1", "deal-price: must be at most 1000000"),
    ],
)
def test_a_bad_code_is_refused_naming_what_is_wrong(text: str, named: str) -> None:
    with pytest.raises(DealCodeError) as refused:
        parse_deal_code(text)
    assert named in refused.value.message


def test_a_bad_code_at_the_table_leaves_the_game_as_it_was() -> None:
    table = TableModel("nap", seed=3, rng=random.Random(3))
    before = table.view()
    assert not table.play_code("nap.hoffmann.s0")
    assert table.message.startswith("That deal code cannot be used: a deal code has at least four parts")
    assert table.view() == before
    assert table.play_code("l5.pam.s1.n8")
    assert table.game == "five-card-loo" and table.seat == 1 and str(table.deal_code()) == "l5.pam.s1.n8"


def _state(widget: ipw.Widget) -> str:
    """Every synced trait of a widget and its children, as text: what a browser could read."""
    seen: list[str] = []

    def walk(w: ipw.Widget) -> None:
        seen.append(json.dumps(w.get_state(), default=str))
        for child in getattr(w, "children", ()):
            walk(child)

    walk(widget)
    return "".join(seen)


def test_the_hands_code_reaches_the_page_only_when_asked_for_and_goes_with_the_hand() -> None:
    table = LiveTable(TableModel("three-card-loo", preset="britannica", seed=424242, rng=random.Random(1)))
    assert "424242" not in _state(table)
    table.codes._show.click()
    assert "l3.britannica.s0.n424242" in table.codes._shown.value
    assert "/tables/three-card-loo?deal=l3.britannica.s0.n424242" in table.codes._shown.value
    model = table.model
    while not model.hand.is_over:
        model.act(model.legal()[0])
    model.new_hand()
    assert "424242" not in table.codes._shown.value
    table.codes._code.value = "l3.britannica.s0.n424242"
    table.codes._play.click()
    table.codes._replacing._yes.click()  # the game in play goes: the page asks first (issue 27)
    assert model.seed is None and str(model.deal_code()) == "l3.britannica.s0.n424242"


# ----- the served table: ?table=<id> and ?deal=<code> ----------------------------------------------


def text_of(widget: ipw.Widget) -> str:
    return str(getattr(widget, "value", ""))


def test_a_request_without_a_table_id_plays_unsaved() -> None:
    widget = served_table("nap", "hoffmann", "deal=nap.hoffmann.s0.n9")
    assert isinstance(widget, LiveTable) and widget.model.table_id is None
    assert str(widget.model.deal_code()) == "nap.hoffmann.s0.n9"


@pytest.mark.parametrize("table_id", ["A" * 22, "nonsense", "", "../x"])
def test_an_unknown_or_malformed_id_gets_a_plain_message(tmp_path: Path, table_id: str) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    widget = served_table("nap", "hoffmann", f"table={table_id}", store=store)
    assert not isinstance(widget, LiveTable)
    assert "There is no table at this address" in text_of(widget) and 'href="/tables/nap"' in text_of(widget)
    assert "Traceback" not in text_of(widget)


def test_a_reserved_id_starts_a_saved_game_at_the_deal_code_and_a_reload_resumes_it(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    table_id = store.new_table("three-card-loo")
    query = f"table={table_id}&deal=l3.peel.s0.n31.d4.p9.knormal"
    first = served_table("three-card-loo", "peel", query, store=store)
    assert isinstance(first, LiveTable) and first.model.table_id == table_id
    assert str(first.model.deal_code()) == "l3.peel.s0.n31.p9.knormal"
    first.model.act(first.model.legal()[0])
    again = served_table("three-card-loo", "peel", query, store=TableStore(tmp_path / "t.sqlite3"))
    assert isinstance(again, LiveTable)
    assert again.model.view() == first.model.view()
    assert "saved as you play" in _state(again)


def test_a_bad_deal_code_in_the_address_gets_a_plain_message(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    table_id = store.new_table("nap")
    widget = served_table("nap", "hoffmann", f"table={table_id}&deal=nap.hoffmann.s5.n1", store=store)
    assert not isinstance(widget, LiveTable)
    assert "That deal code cannot be used: the seat s5 does not exist" in text_of(widget)
    assert store.count(table_id) == 0


def longest_rules(game: str) -> dict[str, object]:
    """The game's longest preset with every option changed to the longest value the engine accepts."""
    preset = max(presets(game), key=len)
    rules: dict[str, object] = {"preset": preset}
    base = kit(game).read_rules(game, preset)
    for option in game_options(game):
        if option.choices:
            candidates: list[object] = sorted(option.choices, key=len, reverse=True)
        elif option.kind is bool:
            candidates = [False, True]
        else:
            candidates = [MAX_OPTION_NUMBER, *range(99, 0, -1)]
        for value in candidates:
            if value == option.value_of(base):
                continue
            try:
                kit(game).read_rules(game, {**rules, option.key: value})
            except RecordError:
                continue
            rules[option.key] = value
            break
    return rules


@pytest.mark.parametrize("game", list(GAME_CODES))
def test_the_longest_legal_code_is_read_and_its_saved_game_resumes(game: str) -> None:
    rules = longest_rules(game)
    assert len(rules) >= len(game_options(game))  # every option changed (but one the others rule out)
    table = TableModel(game, rules=rules, seat=0, seed=10**18 - 1, rng=random.Random(2))
    code = str(table._history[0]["code"])  # the first hand's (under Peel a single, already shown and played on)
    assert parse_deal_code(code).seed == 10**18 - 1 and table.deal_code() is not None
    longest = f"{code}.d1.p{MAX_POOL}.knormal.c3"  # every tagged part too, as a later hand's code has them
    assert len(longest) <= MAX_LENGTH
    assert str(parse_deal_code(longest)) == longest
    journals = MemoryJournals()
    table_id = journals.new_table(game)
    assert table.attach(journals, table_id)
    if table.legal():
        assert table.act(table.legal()[0])
    again = TableModel.resume(journals, table_id)
    assert again.view() == table.view() and again.rules == table.rules


@pytest.mark.law("AMB-02")
def test_AMB_02_a_table_of_twelve_at_three_card_loo_is_dealt_by_its_code_and_drawn_with_every_seat(
    tmp_path: Path,
) -> None:
    """Peel's three-card Loo is for "any number up to a dozen" and more; the catalogue's limit is what
    the pack serves with the miss, sixteen (AMB-02). A class table of twelve is dealt by its code, saved,
    played and drawn with all twelve players; seventeen is refused, naming the limit."""
    code = parse_deal_code("l3.peel.s0.n77.c12.knormal")
    assert code.n_seats == 12
    store = TableStore(tmp_path / "t.sqlite3")
    table_id = store.new_table("three-card-loo")
    table = served_table("three-card-loo", "peel", f"table={table_id}&deal={code}", store=store)
    assert isinstance(table, LiveTable) and len(table.model.names) == 12
    drawn = _state(table)
    assert all(f"{name} " in drawn or f"{name}<" in drawn for name in table.model.names), table.model.names
    moves = 0
    while table.model.legal() and moves < 20:  # the reader's moves, the computer players' between them
        table.model.act(table.model.legal()[0])
        moves += 1
    assert moves >= 2 and table.model.hand.is_over
    assert store.count(table_id) > moves  # saved as played: the start, each move, the others' between
    assert parse_deal_code("l3.peel.s0.n77.c16").n_seats == 16
    with pytest.raises(DealCodeError) as refused:
        parse_deal_code("l3.peel.s0.n77.c17")
    assert "c2 to c16" in refused.value.message and "AMB-02" in refused.value.message


@pytest.mark.law("AMB-02")
@pytest.mark.parametrize(
    ("code", "most"),
    [("l5.pam.s0.n1.c11", 10), ("il.irish.s0.n1.c18", 17), ("nap.hoffmann.s0.n1.c11", 10),
     ("dl.celko.s0.n1.c5", 4)],
)  # fmt: skip
def test_AMB_02_each_games_deal_code_seats_what_its_pack_or_set_serves_and_no_more(code: str, most: int) -> None:
    with pytest.raises(DealCodeError) as refused:
        parse_deal_code(code)
    assert f"c2 to c{most}" in refused.value.message and "AMB-02" in refused.value.message
    fits = code.rsplit(".c", 1)[0] + f".c{most}"
    assert parse_deal_code(fits).n_seats == most
