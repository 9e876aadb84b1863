"""Peel's single at a live table: shown as an event, then the next hand with a decision (issue 20)."""

from __future__ import annotations

import random

import pytest

from widgets.table.journal import MemoryJournals
from widgets.table.model import TableModel
from widgets.views.opening import STYLE, opening_html, settled_at_deal, single_laws, single_sentence
from widgets.views.table_view import TableView

README_CODE = "l3.peel.s0.n482910233"  # the README's example deal code


@pytest.mark.law("L3-SGL-01", "L3-SGL-03", "L3-SGL-04", "L3-SGL-05")
def test_a_new_peel_table_opens_on_a_decision_with_the_single_shown() -> None:
    takers = set()
    for seed in range(30):
        table = TableModel("three-card-loo", preset="peel", rng=random.Random(seed))
        assert not table.hand.is_over and table.legal() and table.view().to_act == 0, "a decision to make"
        found = settled_at_deal(table)
        assert found is not None
        record, line = found
        assert record.deal_kind.value == "single" and record.actions == () and line.number == 1
        html = opening_html(table)
        for name, hand in zip(record.seats, record.hands, strict=True):
            assert hand is not None and name in html and hand[0].name in html, "every card of the single is turned"
        assert record.turnup.name in html
        said = single_sentence(record, line, "Ann")
        taker = next((n for n, amount in line.net.items() if amount > 0), None)
        takers.add(taker)
        laws = single_laws(line)
        if taker is None:
            assert "No card beat the single's turn-up" in said and laws == ("L3-SGL-01", "L3-SGL-05")
        else:
            assert laws == ("L3-SGL-01", "L3-SGL-03", "L3-SGL-04")
            assert f"took the pool of {line.pool_before} chips" in said
            assert ("you took" in said) == (taker == "Ann")
        assert said.startswith("Peel's rules open a game with a single, one card each")
        assert said.count(".") == 2, "two sentences"
        assert "L3-" not in said, "plain words: the laws are references after them"
        assert all(f"{law_id}</summary>" in html for law_id in laws)
        assert sum(table.balances().values()) + table.pool == 0, "every chip accounted for"
    assert None in takers and "Ann" in takers and len(takers) > 2, "all three kinds of single were seen"


def test_other_games_and_rules_show_no_single() -> None:
    for game, preset in [("three-card-loo", "enquire-within"), ("five-card-loo", "pam"), ("nap", "hoffmann")]:
        table = TableModel(game, preset=preset, rng=random.Random(1))
        assert settled_at_deal(table) is None and opening_html(table) == ""
        assert table.hand_lines() == []


def test_the_single_is_drawn_once_not_at_every_move() -> None:
    view = TableView(TableModel("three-card-loo", preset="peel", rng=random.Random(3)))
    shown = view._opening.value
    assert "Hand 1, settled as dealt." in shown and "--loo-at:" in shown
    view.model.act(view.model.legal()[0])
    if not view.model.hand.is_over:
        assert view._opening.value == shown, "the same value: the page does not turn the cards again"
    while not view.model.hand.is_over:
        view.model.act(view.model.legal()[0])
    assert view._opening.value == "", "once this hand is over, its own result is shown instead"


def test_a_deal_code_deals_the_same_single_and_the_same_next_hand() -> None:
    a, b = TableModel(code=README_CODE), TableModel(code=README_CODE)
    assert settled_at_deal(a) is not None, "the README's code opens Peel's single"
    assert a.records[0]["deal"] == b.records[0]["deal"]
    assert a.view().hand == b.view().hand and str(a.deal_code()) == str(b.deal_code())
    assert a.legal(), "then a hand with a decision"
    # the next hand's own code deals that hand again, as a later hand's code does
    again = TableModel(code=str(a.deal_code()))
    assert again.view().hand == a.view().hand and settled_at_deal(again) is None


def test_a_secret_table_does_not_derive_the_next_hand_from_the_single() -> None:
    """The single's seed is public once it is over: a table not dealt from a code draws the next afresh."""
    hands = {tuple(TableModel("three-card-loo", preset="peel", seed=5).view().hand or ()) for _ in range(4)}
    assert len(hands) > 1


def test_the_journal_replays_the_single_and_the_hand_after_it() -> None:
    journals = MemoryJournals()
    table_id = journals.new_table("three-card-loo")
    table = TableModel("three-card-loo", preset="peel", rng=random.Random(7))
    assert table.attach(journals, table_id)
    table.act(table.legal()[0])
    again = TableModel.resume(journals, table_id, rng=random.Random(99))
    assert [e["type"] for e in journals.load(table_id).events] == ["start", "deal", "act"]
    assert again.view() == table.view() and again.balances() == table.balances()
    assert opening_html(again) == opening_html(table)


@pytest.mark.law("L3-SGL-08")
def test_a_single_later_in_the_game_is_shown_and_played_on_too() -> None:
    table = TableModel("three-card-loo", preset="peel", rng=random.Random(11))
    chooser = random.Random(11)
    for _ in range(200):
        while not table.hand.is_over:
            legal = table.legal()
            table.act(next((a for a in legal if a.value == "stand"), chooser.choice(legal)))
        assert table.new_hand()
        found = settled_at_deal(table)
        if found is not None:
            record, line = found
            assert line.number > 1 and not table.hand.is_over and table.legal()
            assert single_sentence(record, line, "Ann").startswith("Every stander took a trick last hand")
            assert single_laws(line)[0] == "L3-SGL-08"
            return
    raise AssertionError("no single after a clean hand in 200 hands")


def test_the_cards_turn_only_for_readers_who_allow_motion() -> None:
    motion = STYLE.index("@media (prefers-reduced-motion:no-preference){")
    assert STYLE.index("animation:") > motion and STYLE.count("animation:") == 3
    assert "opacity" not in STYLE[: STYLE.index("@keyframes loo-turn")], "no text is ever translucent"


def test_a_game_saved_at_a_finished_single_deals_on_when_it_is_opened() -> None:
    """Before issue 20 a table waited at a finished single for Next hand; such a saved game, opened
    again, shows the single and deals the next hand."""
    from widgets.kernel.table_router import served_table
    from widgets.views.live_table import LiveTable

    journals = MemoryJournals()
    table_id = journals.new_table("three-card-loo")
    journals.append(
        table_id, 0, [{"type": "start", "code": "l3.peel.s0.n5", "names": ["Ann", "Ben", "Cat", "Dan", "Eve"]}]
    )
    opened = served_table("three-card-loo", "peel", f"table={table_id}", store=journals)
    assert isinstance(opened, LiveTable) and not opened.model.hand.is_over and opened.model.legal()
    assert settled_at_deal(opened.model) is not None
    assert [e["type"] for e in journals.load(table_id).events] == ["start", "deal"]
