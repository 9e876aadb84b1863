"""Shared tables (issue 21) without a browser: the seats kept in the store, three seats' models following
one journal, a refused write, take-backs off, a seat given to a computer, and a teacher's pending deal."""

from __future__ import annotations

import logging
import random
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as ipw
import pytest

from widgets.draw.board import piece_name
from widgets.multiseat.shared_table import MOVED_FIRST_MESSAGE, NO_UNDO_MESSAGE, SharedTableModel
from widgets.multiseat.shared_view import Follower, SharedLiveTable, served_shared
from widgets.store.seating import AWAY_SECONDS, COMPUTER, PERSON, SeatBook
from widgets.store.sqlite import TableStore
from widgets.table.dealcode import parse_deal_code
from widgets.table.journal import StoreError
from widgets.table.saving import NOT_SAVING_MESSAGE, SAVED_AGAIN_MESSAGE, WAITING_MESSAGE

DEAL = "l3.peel.s0.n482910233"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> TableStore:
    """The seats on each of the store's databases (PostgreSQL's: tests/helpers/postgres.py)."""
    if request.param == "postgresql":
        return TableStore(request.getfixturevalue("postgres").emptied_database())
    return TableStore(tmp_path / "t.sqlite3")


def seated(store: TableStore, people: int = 3) -> tuple[str, list[str], list[SharedTableModel]]:
    book = SeatBook(store)
    table = store.new_table("three-card-loo")
    tokens = book.open_seats(table, [PERSON] * people + [COMPUTER] * (5 - people))
    computers = book.computers(table)
    code = parse_deal_code(DEAL)
    models = [
        SharedTableModel.at_seat(store, table, seat, computers, game="three-card-loo", preset=None, code=code)
        for seat in range(people)
    ]
    for model in models:
        model.catch_up()
    return table, tokens, models


def seat_page(store: TableStore, table: str, token: str, browser: str = "browser-x") -> ipw.Widget:
    """The page of the seat ``token`` opens, in a kernel told (as the server tells it) that ``browser`` claimed it."""
    assert SeatBook(store).claim(table, token, browser)
    return served_shared(store.load(table).page, None, table, token, store, browser=browser, follow=False)


def test_a_seat_is_its_first_browsers_until_its_page_is_away(store: TableStore) -> None:
    book = SeatBook(store)
    table = store.new_table("nap")
    tokens = book.open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])
    assert book.seat_of(table, tokens[1]) == 1 and book.seat_of(table, "not-a-token") is None
    assert book.claim(table, tokens[0], "a", now=100.0)
    assert book.claim(table, tokens[0], "a", now=101.0)  # a reload: the same browser
    assert not book.claim(table, tokens[0], "b", now=102.0)  # another browser, the page still here
    assert book.claim(table, tokens[0], "b", now=101.0 + AWAY_SECONDS + 1)  # the page gone: it may
    assert book.computers(table) == {2, 3}
    book.set_player(table, 1, COMPUTER)
    assert book.computers(table) == {1, 2, 3}
    book.set_pending(table, "nap.hoffmann.s0.n1")
    book.set_pending(table, "nap.hoffmann.s0.n2")  # the latest wins
    assert book.take_pending(table) == "nap.hoffmann.s0.n2" and book.take_pending(table) is None


def test_three_seats_follow_one_journal_and_each_sees_its_own_cards(store: TableStore) -> None:
    _table, _tokens, models = seated(store)
    moves = 0
    while not models[0].hand.is_over:
        to_act = models[0].hand.to_act
        assert to_act in (0, 1, 2), "the computers at seats 3 and 4 play as soon as their turn comes"
        mover = models[to_act]
        assert mover.act(mover.legal()[0])
        for model in models:
            model.catch_up()
        counts = {model.saved_events for model in models}
        hands = {tuple(map(str, model.hand.actions)) for model in models}
        assert len(counts) == 1 and len(hands) == 1, "every seat shows the same game"
        moves += 1
    assert moves >= 6
    for model in models:
        assert model.view().seat == model.seat
        assert model.record() is not None


def test_two_kernels_moving_for_one_computer_agree_and_the_loser_says_nothing(store: TableStore) -> None:
    table, _tokens, models = seated(store)
    waiting_on = models[0].hand.to_act
    assert waiting_on is not None
    SeatBook(store).set_player(table, waiting_on, COMPUTER)
    one, two = (models[(waiting_on + k) % 3] for k in (1, 2))
    for model in (one, two):
        model.computers = SeatBook(store).computers(table)
    assert one.computers_move() is True
    assert two.computers_move() is False  # refused by the store: the other kernel wrote first
    assert two.message == "" and two.saved_events == one.saved_events
    assert tuple(two.hand.actions) == tuple(one.hand.actions)


def test_a_refused_write_becomes_the_saved_game(store: TableStore) -> None:
    _table, _tokens, models = seated(store)
    while not models[0].hand.is_over:
        mover = models[models[0].hand.to_act or 0]
        mover.act(mover.legal()[0])
        for model in models:
            model.catch_up()
    assert models[1].new_hand() is True
    assert models[2].new_hand() is False and models[2].message == MOVED_FIRST_MESSAGE
    assert models[2].saved_events == models[1].saved_events
    assert models[2].hand.dealer == models[1].hand.dealer and not models[2].hand.is_over


def test_a_seat_is_rebuilt_from_the_journal_one_way_at_its_own_seat(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused write and a new game dealt at another seat both rebuild the seat's game through the one
    replay a table has (SavingTable.replayed), which keeps the kernel's seat and its computer players."""
    _table, _tokens, models = seated(store)
    while not models[0].hand.is_over:
        mover = models[models[0].hand.to_act or 0]
        mover.act(mover.legal()[0])
        for model in models:
            model.catch_up()
    replays: list[int] = []
    replayed = SharedTableModel.replayed

    def counted(self: SharedTableModel, events: Any) -> SharedTableModel:
        replays.append(self.seat)
        return replayed(self, events)

    monkeypatch.setattr(SharedTableModel, "replayed", counted)
    assert models[1].new_hand() and not models[2].new_hand()  # refused: the seat becomes the game as saved
    assert replays == [2] and models[2].seat == 2 and models[2].view().seat == 2
    assert models[1].deal_pending(DEAL) and models[0].catch_up()  # a new game: rebuilt from its start
    assert replays == [2, 0] and models[0].seat == 0 and models[0].computers == models[1].computers
    assert models[0].view().seat == 0 and tuple(models[0].hand.actions) == tuple(models[1].hand.actions)


def test_take_backs_and_the_teaching_switch_are_off(store: TableStore) -> None:
    _table, _tokens, models = seated(store)
    mover = models[models[0].hand.to_act or 0]
    mover.act(mover.legal()[0])
    assert not mover.can_undo and mover.undo() is False and mover.message == NO_UNDO_MESSAGE
    mover.teaching = True
    assert mover.open_hands() is None
    assert mover.new_game() is False and mover.play_code(DEAL) is False


def test_a_seat_given_to_a_computer_is_played_by_whichever_kernel_looks(store: TableStore) -> None:
    table, tokens, models = seated(store)
    book = SeatBook(store)
    waiting_on = models[0].hand.to_act
    assert waiting_on is not None
    watcher = models[(waiting_on + 1) % 3]
    follower = Follower(watcher, book, table)
    book.set_player(table, waiting_on, COMPUTER)
    follower.tick()  # reads the seats, sees a computer's turn, makes its move
    assert watcher.hand.to_act != waiting_on or watcher.hand.is_over
    assert watcher.saved_events == store.count(table)
    # The other kernels follow; the seat's own page shows a computer has its seat, and can take it back.
    table_widget = seat_page(store, table, tokens[waiting_on])
    assert "Take my seat back" in [b.description for b in table_widget.seat_buttons.children]


def test_a_pending_deal_is_dealt_between_hands_by_one_kernel(store: TableStore) -> None:
    table, _tokens, models = seated(store)
    book = SeatBook(store)
    book.set_pending(table, "l3.peel.s0.n12345")
    followers = [Follower(m, book, table) for m in models]
    mover = models[models[0].hand.to_act or 0]
    mover.act(mover.legal()[0])
    for model in models:
        model.catch_up()
    followers[0].tick()
    assert book.pending(table) == "l3.peel.s0.n12345", "not taken in the middle of a hand that has begun"
    while not models[0].hand.is_over:
        mover = models[models[0].hand.to_act or 0]
        mover.act(mover.legal()[0])
        for model in models:
            model.catch_up()
    followers[0].ticks = 0
    followers[0].tick()
    assert book.pending(table) is None
    for follower in followers[1:]:
        follower.tick()
    start = store.load(table).events[0]
    assert start["type"] == "start" and ".n12345" in start["code"], "a new game at the teacher's deal"
    assert len({(m.saved_events, m.hand.dealer, m.pool) for m in models}) == 1


def test_an_unknown_seat_token_gets_a_plain_notice(store: TableStore) -> None:
    table, _tokens, _models = seated(store)
    shown = served_shared("three-card-loo", None, table, "no-such-token", store, browser="b", follow=False)
    assert "No such seat" in shown.value


def test_computers_choose_the_same_move_in_every_kernel(store: TableStore) -> None:
    """Seeded by the hand's seed and the move's number: two kernels racing to move for a computer agree."""
    a, b = (
        SharedTableModel("nap", seed=99, seat=0, computers=frozenset({1, 2, 3}), rng=random.Random(1)) for _ in "ab"
    )
    a._rng, b._rng = random.Random(5), random.Random(6)  # the kernels' own generators differ
    for model in (a, b):
        while not model.hand.is_over and model.hand.to_act == 0:
            model.act(model.legal()[0])
    assert len(a.hand.actions) > 4 and tuple(a.hand.actions) == tuple(b.hand.actions)


def test_a_readers_own_table_deals_the_teachers_deal_between_hands(store: TableStore) -> None:
    from widgets.multiseat.shared_view import PendingDeals
    from widgets.table.model import TableModel

    table = store.new_table("three-card-loo")
    model = TableModel("three-card-loo", code=DEAL, rng=random.Random(3))
    model.attach(store, table)
    book = SeatBook(store)
    model.act(model.legal()[0])  # the hand has begun: the deal waits
    book.set_pending(table, "l3.peel.s0.n12345")
    watcher = PendingDeals(model, book, table)
    watcher.tick()
    assert book.pending(table) == "l3.peel.s0.n12345"
    while not model.hand.is_over:
        model.act(model.legal()[0])
    watcher.tick()
    assert book.pending(table) is None and ".n12345" in store.load(table).events[0]["code"]


def test_a_shared_table_opened_without_a_seat_shows_nobodys_cards(store: TableStore) -> None:
    """Everyone at the table has its id: without a seat's token the address opens no seat (not the first
    writer's, whose moves alone would replay as a reader's own table)."""
    from widgets.kernel.table_router import served_table

    table, tokens, _models = seated(store)
    shown = served_table("three-card-loo", None, f"table={table}", store=store)
    assert isinstance(shown, ipw.HTML) and "invitation link of their own seat" in shown.value
    assert SeatBook(store).claim(table, tokens[1], "b")
    seat = served_table("three-card-loo", None, f"table={table}&seat={tokens[1]}", store=store, browser="b")
    assert not isinstance(seat, ipw.HTML)
    fresh = store.new_table("three-card-loo")  # a shared table no seat has opened yet: no game is begun on it
    SeatBook(store).open_seats(fresh, [PERSON, PERSON, COMPUTER, COMPUTER, COMPUTER])
    shown = served_table("three-card-loo", None, f"table={fresh}", store=store)
    assert isinstance(shown, ipw.HTML) and store.count(fresh) == 0


def test_any_seat_may_give_an_absent_players_seat_to_a_computer(store: TableStore) -> None:
    book = SeatBook(store)
    table = store.new_table("nap")
    tokens = book.open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])
    ann = seat_page(store, table, tokens[0])
    buttons = {b.description: b for b in ann.seat_buttons.children}
    assert list(buttons) == ["A computer plays Ben"], "Ben's page has not come: his seat may be given away"
    assert "Ben</b> (a player, not come yet" in ann.seats_html.value
    buttons["A computer plays Ben"].click()
    assert book.computers(table) == {1, 2, 3} and ann.seat_buttons.children == ()
    assert "Ben</b> (a computer player" in ann.seats_html.value
    assert "U takes back" not in ann.table._keys.value and "H asks for a hint" in ann.table._keys.value


def full_disk(*_args: object, **_kwargs: object) -> Any:
    raise StoreError("the tables' database failed: database or disk is full")


def test_a_move_the_store_could_not_take_is_saved_by_its_follower_and_reaches_the_other_seats(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28, point 10: the mover's kernel kept the move and never saved it, as no other move of
    its own came; the other seats, which learn of moves through the store, never saw it."""
    table, _tokens, models = seated(store)
    book = SeatBook(store)
    followers = [Follower(model, book, table) for model in models]
    mover = models[models[0].hand.to_act or 0]
    count = store.count(table)
    monkeypatch.setattr(store, "append", full_disk)
    assert mover.act(mover.legal()[0])
    assert NOT_SAVING_MESSAGE in mover.message and store.count(table) == count
    for follower in followers:
        follower.tick()  # the mover's follower tries again: the disk is still full
    assert store.count(table) == count and all(m.hand.actions != mover.hand.actions for m in models if m is not mover)
    monkeypatch.undo()  # the disk has room again
    for follower in followers:
        follower._retry_at = 0.0  # its next try is due (every RETRY_SECONDS)
        follower.tick()
    for follower in followers:
        follower.tick()
    assert store.count(table) > count and SAVED_AGAIN_MESSAGE in mover.message
    assert all(tuple(m.hand.actions) == tuple(mover.hand.actions) for m in models)


def test_a_seat_whose_database_is_away_says_so_in_a_line_a_minute_with_no_traceback(
    store: TableStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A seat's page follows the game by asking the database ten times a second; while it is away
    (a PostgreSQL frozen, a file locked), the kernel's log has one short line a minute, not a traceback
    (bench/attack.py dbfreeze left one in every seat's kernel log)."""
    table, _tokens, models = seated(store)
    follower = Follower(models[0], SeatBook(store), table)
    monkeypatch.setattr(store, "count", away)
    monkeypatch.setattr(store, "rows", away)
    with caplog.at_level(logging.INFO, logger="lanterloo"):
        for _ in range(20):
            follower.tick()
    lines = [r for r in caplog.records if r.name.startswith("lanterloo")]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]
    assert "did not answer within 3 s" in lines[0].getMessage()


def away(*_args: object, **_kwargs: object) -> Any:
    raise StoreError("the tables' database did not answer within 3 s")


def test_a_seat_opened_while_the_store_cannot_be_written_shows_the_saved_game_and_says_it_waits(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, tokens, _models = seated(store)
    assert SeatBook(store).claim(table, tokens[1], "browser-x")
    monkeypatch.setattr(SeatBook, "heartbeat", full_disk)  # the seat's mark as it opens: a write
    page = served_shared("three-card-loo", None, table, tokens[1], store, browser="browser-x", follow=False)
    assert isinstance(page, SharedLiveTable), "the table, not a notice"
    assert WAITING_MESSAGE in page.model.message
    assert escape(WAITING_MESSAGE) in page.table._status.value


def test_a_reload_while_the_store_cannot_be_written_keeps_the_seat_for_its_own_browser_alone(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = SeatBook(store)
    table = store.new_table("nap")
    tokens = book.open_seats(table, [PERSON, PERSON, COMPUTER, COMPUTER])
    assert book.claim(table, tokens[0], "a")
    monkeypatch.setattr(store, "writing", full_disk)
    assert book.claim(table, tokens[0], "a"), "its own browser: nothing to write"
    with pytest.raises(StoreError):
        book.claim(table, tokens[0], "b")
    with pytest.raises(StoreError):
        book.claim(table, tokens[1], "a")  # a seat no browser holds yet is claimed only by a write


def _own_place(page: ipw.Widget) -> str:
    """The reader's own place on the cloth (the bottom seat), from the seat page's drawn table."""

    def walk(w: Any) -> Any:
        yield w
        for child in getattr(w, "children", ()):
            yield from walk(child)

    board = next(w.value for w in walk(page) if '<div class="loo-board">' in str(getattr(w, "value", "")))
    return str(board.split('class="loo-seat loo-at-bottom', 1)[1])


def test_every_seat_sees_its_own_hand_in_its_place_greyed_or_face_down_until_its_turn(store: TableStore) -> None:
    """Issue 29: at a shared table a student whose turn had not come saw nothing at their seat and
    thought they had been dealt no cards. Before their turn to declare (CF-17: a hand is looked at
    then) their cards are drawn face down with why; once looked at, they stay in view, greyed while
    another player is to act."""
    table, tokens, models = seated(store)
    assert models[0].hand.to_act == 1
    waiting = _own_place(seat_page(store, table, tokens[0], browser="b0"))
    assert 'aria-label="your hand: 3 face down"' in waiting and "loo-own-waiting" in waiting
    assert "you look at them when your turn to declare comes (CF-17)" in waiting
    acting = _own_place(seat_page(store, table, tokens[1], browser="b1"))
    assert "loo-own-waiting" not in acting and "face down" not in acting.split("</div></div>")[0]
    assert models[1].act(next(a for a in models[1].legal() if a.value == "stand"))
    models[0].catch_up()
    looked = _own_place(seat_page(store, table, tokens[1], browser="b1"))  # seat 2 is to act now
    held = models[1].view().hand
    assert held and models[1].hand.to_act != 1 and "loo-own-waiting" in looked
    named = ", ".join(piece_name(c, None) for c in held)
    assert f'aria-label="your hand: {named}"' in looked, (named, looked[:400])
