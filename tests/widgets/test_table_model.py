"""The live table's model, driven as a reader would: every game, refusals with their law, undo,
hints, and nothing hidden reaching the reader."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from loo.core.actions import Action
from loo.core.cards import full_pack
from loo.records import check
from tests.helpers.loo_helpers import EVERY_TABLE_GAME
from tests.helpers.playing import finish_table
from widgets.table import model as model_module
from widgets.table.journal import MemoryJournals
from widgets.table.model import SEED_LIMIT, TableModel

GAMES = [
    ("three-card-loo", "peel"),
    ("three-card-loo", "enquire-within"),
    ("three-card-loo", "britannica"),
    ("five-card-loo", "pam"),
    ("irish-loo", "irish"),
    ("nap", "hoffmann"),
    ("domino-loo", "celko"),
    ("domino-rounce", "rounce"),
]


def dealt(seed: int, game: str = "three-card-loo", **kw: object) -> TableModel:
    """A table whose hand is in play: Peel's first deal into an empty pool is a single, settled as dealt,
    and the table deals the next hand at once (widgets.views.opening)."""
    table = TableModel(game, seed=seed, rng=random.Random(seed), **kw)  # type: ignore[arg-type]
    assert not table.hand.is_over
    return table


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_whole_hands_of_every_game_through_the_model(game: str, preset: str) -> None:
    for seed in range(6):
        table = TableModel(game, preset=preset, seed=seed, rng=random.Random(seed))
        chooser = random.Random(seed + 100)
        steps = 0
        while not table.hand.is_over:
            view = table.view()
            assert view.to_act == 0 and table.legal(), "the model waits only for the reader"
            # The reader's view holds its own pieces, never another seat's.
            if view.hand is not None:
                assert set(view.hand) == set(table.hand.holding(0))
            assert table.seed is None and table.record() is None  # nothing that reveals the deal
            assert table.act(chooser.choice(table.legal()))
            steps += 1
            assert steps < 60
        assert table.record() is not None
        # the hand dealt from the seed, or under Peel the single it dealt, shown and played on
        assert table.seed == seed or (table.records[0]["deal_kind"] == "single" and len(table.records) == 2)


def test_same_deal_code_same_deal() -> None:
    a = TableModel("three-card-loo", preset="britannica", seed=77, rng=random.Random(1))
    b = TableModel("three-card-loo", preset="britannica", seed=77, rng=random.Random(2))
    assert a.view().hand == b.view().hand and a.view().turnup == b.view().turnup


def test_an_illegal_action_is_refused_with_its_law_and_source_and_changes_nothing() -> None:
    for seed in range(1, 40):  # the first seed whose hand reaches a play with a card the laws forbid
        table = dealt(seed)
        table.act(Action.declare(0, "stand"))
        while table.legal() and table.legal()[0].verb == "declare":
            table.act(table.legal()[0])
        held = table.view().hand
        if table.hand.is_over or held is None:
            continue
        wrong = [Action.play(0, c) for c in held if Action.play(0, c) not in table.legal()]
        if wrong:
            break
    assert not table.hand.is_over and held is not None
    assert wrong, "this position has cards the laws forbid"
    before = (table.view(), table.version)
    stranger = next(c for c in full_pack() if c not in held)
    assert not table.act(Action.play(0, stranger))
    assert "does not hold" in table.message and "(L3-" in table.message
    assert table.view() == before[0]
    for action in wrong:
        assert not table.act(action)
        assert "(L3-PLAY-" in table.message or "(L3-LEAD-" in table.message


def test_an_action_for_another_seat_is_refused_plainly() -> None:
    table = TableModel("nap", seed=4)
    assert not table.act(Action(1, "call", "pass"))
    assert "another seat" in table.message


def test_undo_takes_back_the_readers_move_and_the_bots_replies() -> None:
    table = dealt(8)
    start = table.view()
    assert not table.can_undo and not table.undo()
    table.act(table.legal()[0])
    assert table.can_undo
    assert table.undo()
    assert table.view() == start and table.message == "Taken back."


@pytest.mark.parametrize(("game", "preset"), EVERY_TABLE_GAME)
def test_take_back_stops_at_the_end_of_a_hand(game: str, preset: str) -> None:
    table = TableModel(game, preset=preset, seed=6, rng=random.Random(6))
    chooser = random.Random(6)
    while not table.hand.is_over:
        table.act(chooser.choice(table.legal()))
    finished, records, balances, seed = table.view(), list(table.records), table.balances(), table.seed
    assert not table.can_undo
    assert not table.undo()
    assert table.message.startswith("This hand is over, so it cannot be taken back")
    assert table.hand.is_over and table.view() == finished and table.seed == seed
    assert table.records == records and table.balances() == balances
    assert table.new_hand()  # the game goes on from there, and take-back works in the new hand
    if table.legal():
        table.act(table.legal()[0])
        assert table.can_undo == (not table.hand.is_over)


def test_a_game_saved_with_a_finished_hand_taken_back_still_resumes() -> None:
    """An earlier version took finished hands back: such a saved game replays as it was played."""
    journals = MemoryJournals()
    table_id = journals.new_table("three-card-loo")
    table = TableModel("three-card-loo", preset="britannica", seed=5, rng=random.Random(5))
    table.attach(journals, table_id)
    while not table.hand.is_over:
        table.act(table.legal()[0])
    journals.append(table_id, journals.count(table_id), [{"type": "undo"}])
    resumed = TableModel.resume(journals, table_id)
    assert not resumed.hand.is_over and resumed.hand_lines() == []


@pytest.mark.parametrize(("game", "preset"), EVERY_TABLE_GAME)
def test_taking_back_a_settled_hand_puts_the_books_back_chip_for_chip(game: str, preset: str) -> None:
    """A saved game whose finished hand was taken back (as an earlier version allowed) replays to the game as
    it stood before the reader's last move: the ledger, the pool, the deal, any scores, the records and the
    accounts' lines as they were, through the engine's own books (loo.core.ledger.ChipLedger.restore)."""
    table = TableModel(game, preset=preset, seed=8, rng=random.Random(8))
    chooser = random.Random(8)
    for _ in range(3):  # hands before it, so the books carry a pool, balances and records
        while not table.hand.is_over:
            table.act(chooser.choice(table.legal()))
        if not table.new_hand():
            break
    while not table.hand.is_over:
        table.act(chooser.choice(table.legal()))
    journal = list(table.journal)
    last = max(i for i, event in enumerate(journal) if event["type"] == "act")
    assert last == len(journal) - 1, "the hand ended with the reader's move and the bots' replies to it"
    before = TableModel(journal=journal[:last])
    taken_back = TableModel(journal=[*journal, {"type": "undo"}])
    settled = table.table_game
    assert settled.results and settled.books() != before.table_game.books(), "the last hand was paid"

    def books(model: TableModel) -> tuple[object, ...]:
        game = model.table_game
        return (game.books(), list(game.ledger), list(game.results), getattr(game, "scores", None))

    for model in (taken_back, before):
        assert not model.hand.is_over
    assert books(taken_back) == books(before)
    assert (taken_back.pool, taken_back.balances()) == (before.pool, before.balances())
    assert taken_back.hand_lines() == before.hand_lines() and taken_back.records == before.records
    assert taken_back.view() == before.view() and taken_back.can_undo == before.can_undo
    action = journal[last]["action"]
    for model in (taken_back, before):  # the same move again settles the hand as it was settled
        assert model.act(model.view().legal[[a.to_record() for a in model.view().legal].index(action)])
    assert books(taken_back) == books(before) == books(table)
    assert taken_back.hand_lines() == table.hand_lines() and taken_back.records == table.records


def test_the_accounts_are_kept_as_hands_finish_not_worked_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished hand is accounted once, as it is settled: asking for the lines again reads the ledger no more."""
    table = TableModel("three-card-loo", preset="enquire-within", seed=4, rng=random.Random(4))
    chooser = random.Random(4)
    for _ in range(3):
        while not table.hand.is_over:
            table.act(chooser.choice(table.legal()))
        assert table.new_hand()
    lines = table.hand_lines()
    assert [line.number for line in lines] == [1, 2, 3]
    counted = []
    monkeypatch.setattr(type(table.table_game), "balances", lambda game: counted.append(game) or {})
    assert table.hand_lines() == lines and table.hand_lines() == lines and not counted


def test_why_explains_with_the_law_and_its_source() -> None:
    table = dealt(8)
    text = table.why(Action.declare(0, "stand"))
    assert text.startswith("Allowed:") and "L3-DECL-02" in text


def test_a_hint_is_a_legal_action_with_its_expected_value() -> None:
    table = dealt(9)
    hint = table.hint()
    assert hint is not None and hint.choice in table.legal() and isinstance(hint.value, float)
    assert {e.action for e in hint.figures.values} == set(table.legal())  # every declaration, valued


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="not at this table"):
        TableModel("nap", seat=7)


def test_a_game_of_many_hands_carries_the_pool_and_keeps_every_chip() -> None:
    table = TableModel("three-card-loo", seed=3, rng=random.Random(3))
    rng = random.Random(4)
    assert [line.reason for line in table.hand_lines()] == ["single"], "Peel's single, shown and played on"
    for number in range(2, 10):
        finish_table(table, rng)
        lines = table.hand_lines()
        assert len(lines) == number and len(table.records) == number
        assert sum(table.balances().values()) + table.pool == 0
        assert lines[-1].pool_after == table.pool and lines[-1].balances == table.balances()
        assert not table.act(table.legal()[0] if table.legal() else Action.declare(0, "stand"))
        assert table.new_hand()
    lines = table.hand_lines()
    for before, after in itertools.pairwise(lines):
        assert after.pool_before >= before.pool_after, "what a hand leaves in the pool carries to the next"
    assert lines[0].reason == "single", "Peel: the first deal into an empty pool is a single"


def test_the_next_hand_waits_for_this_one() -> None:
    table = dealt(8)
    assert not table.new_hand() and "Finish this hand" in table.message


def test_one_hands_seed_does_not_predict_the_next() -> None:
    # The same first deal code at two tables: the second hands differ, since each table's later
    # seeds come from its own generator, never from a seed it has shown.
    a, b = TableModel("nap", seed=5), TableModel("nap", seed=5)
    assert a.view().hand == b.view().hand
    for table in (a, b):
        finish_table(table, random.Random(1))
        assert table.seed == 5
        table.new_hand()
    assert a.view().hand != b.view().hand


def test_a_points_game_ends_and_says_who_won() -> None:
    table = TableModel("domino-rounce", preset="rounce", seed=1, rng=random.Random(1))
    rng = random.Random(3)
    for _ in range(40):
        finish_table(table, rng)
        if not table.new_hand():
            break
    assert "The game is over" in table.message and table.table_game.winner in table.message
    table.new_game()
    assert table.hand_lines() == [] and not table.hand.is_over


def test_the_teaching_switch_is_off_until_turned_on() -> None:
    table = dealt(2)
    assert table.open_hands() is None
    table.teaching = True
    hands = table.open_hands()
    assert hands is not None and hands[3] == tuple(table.hand.holding(3))


def test_unavailable_choices_come_with_their_law() -> None:
    table = TableModel("nap", rules={"preset": "hoffmann", "wellington": True}, seed=3, rng=random.Random(3))
    reasons = dict((a.value, r) for a, r in table.unavailable())
    assert "NAP-WEL-02" in reasons["wellington"] and "NAP-MIS-01" in reasons["misery"]
    assert all(a not in table.legal() for a, _ in table.unavailable())


def test_import_refuses_a_record_with_the_field_or_law_named() -> None:
    table = dealt(2)
    before = table.view()
    assert not table.import_record('{"format": "loo-record/1", "game": "three-card-loo", "seats": 3}')
    assert "cannot be read" in table.message and "seats" in table.message
    assert table.view() == before


def _seeded(game: str, seats: list[object]) -> str:
    return json.dumps(
        {"format": "loo-record/1", "game": game, "seats": seats, "dealer": 0, "pool": 3, "deal": {"seed": 1}}
    )


UNREADABLE = [
    ("three-card-loo", _seeded("three-card-loo", [f"P{i}" for i in range(30)]), "seats: a table seats two to 16"),
    ("nap", _seeded("nap", ["Ann", "Ben", "Ann", "Dan"]), "seats[2]: 'Ann' is the name at seats[0] too"),
    ("three-card-loo", _seeded("three-card-loo", ["Ann", "Ann", "Cat"]), "seats[1]: 'Ann' is the name at seats[0]"),
    ("domino-loo", _seeded("domino-loo", ["Ann", "Ben", "Ben"]), "seats[2]: 'Ben' is the name at seats[1]"),
    ("nap", _seeded("nap", ["Ann", "x" * 41, "Cat"]), "seats[1]: is 41 characters long"),
    ("nap", _seeded("nap", ["Ann", " ", "Cat"]), "seats[1]: must be a player's name"),
    ("nap", "[" * 100_000 + "]" * 100_000, "record: is nested too deeply"),
]


@pytest.mark.parametrize(("game", "text", "named"), UNREADABLE, ids=lambda x: str(x)[:20])
def test_the_table_and_loo_check_refuse_an_unreadable_record_naming_the_same_field(
    game: str, text: str, named: str
) -> None:
    status, result = check(text)
    assert status == 2 and result["message"].startswith(named)
    table = TableModel(game, seed=3, rng=random.Random(3))
    before = table.view()
    assert not table.import_record(text)  # refused, never "Something went wrong"
    assert table.message == f"That record cannot be read: {result['message']}"
    assert table.view() == before


def test_fresh_deals_are_seeded_from_secrets_unless_a_generator_is_injected(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []

    def randbelow(n: int) -> int:
        drawn.append(n)
        return 41

    monkeypatch.setattr(model_module.secrets, "randbelow", randbelow)
    table = TableModel("nap")  # a reader's table: no generator injected
    while not table.hand.is_over:
        table.act(table.legal()[0])
    assert table.seed == 42 and drawn == [SEED_LIMIT - 1]
    assert table.new_hand() and len(drawn) == 2  # every new deal
    assert table.new_game() and len(drawn) == 3
    # an injected generator deals instead, so a game replays exactly
    a, b = TableModel("nap", rng=random.Random(9)), TableModel("nap", rng=random.Random(9))
    assert len(drawn) == 3 and a._seed == b._seed and a.view() == b.view()
