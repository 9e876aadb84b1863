"""Watching the play (issue 20): the computer players' moves laid out one by one at the reader's pace,
the trick just won and the last trick, the finished hand on the Table tab, and the live region's words.

The pauses run on an event loop with an injected ``sleep`` that returns at once and notes each
pause and what the table showed then, so these tests take no real time.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from loo.actions import Action
from loo.cards import parse_cards
from tests.helpers.loo_helpers import EVERY_TABLE_GAME
from tests.widgets.test_table_view import hidden_in_state
from tests.widgets.test_table_view import live_buttons as live_choices
from widgets.live_table import LiveTable
from widgets.model import TableModel
from widgets.moves import Move
from widgets.pacing import HOLD, PACES, move_words, pauses
from widgets.table_view import TableView


def live_buttons(view: TableView) -> list[Any]:
    """The reader's live choices (the button that shows the rest of the moves at once is not one)."""
    return [b for b in live_choices(view) if b is not view.watching.skip]


def nap_at_play(seed: int = 5) -> TableView:
    """A Nap table (hoffmann) at the reader's first card, the calling done at once."""
    view = TableView(TableModel("nap", preset="hoffmann", seed=seed, rng=random.Random(seed)))
    model = view.model
    while not any(a.verb == "play" for a in model.legal()):
        calls = [a for a in model.legal() if a.verb == "call"]
        model.act(next((a for a in calls if a.value == "2"), calls[0]))
        if model.hand.is_over:
            model.new_hand()
    return view


def play_paced(view: TableView, pace: str = "Normal") -> tuple[list[float], list[str], list[str]]:
    """Click the reader's first live card with moves paced; the pauses, and the board and the live
    region as they were at each pause. Hidden pieces are looked for in every widget at each."""
    waits: list[float] = []
    boards: list[str] = []
    said: list[str] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        boards.append(view._board.value)
        said.append(view.watching.spoken.value)
        assert hidden_in_state(view, view.model) == [] or view.model.hand.is_over

    async def scenario() -> None:
        view.watching.pace.value = pace
        view.watching.pacer._sleep = sleep
        live_buttons(view)[0].click()
        # The reader's card shows at once, with no choice to make until the others have played.
        assert not live_buttons(view) and view.watching.skip in view._choices.children
        boards.append(view._board.value)
        while view.watching.pacer.busy:
            await asyncio.sleep(0)

    asyncio.run(scenario())
    return waits, boards, said


def test_each_computer_players_card_is_shown_in_turn_at_the_readers_pace() -> None:
    view = nap_at_play()
    model = view.model
    waits, boards, said = play_paced(view)
    moves = model.moves
    assert moves[0].action.seat == model.seat and len(moves) > 1
    assert all(m.action.seat != model.seat for m in moves[1:])
    assert waits[: len(moves) - 1] == pauses(moves, PACES["Normal"])[1:]
    # the first drawing holds the reader's card alone of this trick, each later one a card more
    first = moves[0].view.current or moves[0].won.plays  # type: ignore[union-attr]
    assert boards[0].count('class="loo-play"') == len(first)
    counts = [b.count('class="loo-play"') for b in boards[1:]]  # at each pause, the move before it
    trick_over = next((k for k, m in enumerate(moves) if m.won), len(moves))
    assert counts[: trick_over + 1] == list(range(len(first), len(first) + trick_over + 1))
    # the live region said each move in turn
    for move, text in zip(moves, said, strict=False):  # at each pause, the move before it
        assert move_words(move, model.names, model.game).split(".")[0] in text
    # and then the table as it stands, the reader to play
    assert live_buttons(view) or model.hand.is_over
    assert view.watching.skip not in view._choices.children


def test_a_finished_trick_stays_on_the_table_with_its_winner_named() -> None:
    view = nap_at_play()
    play_paced(view)
    model = view.model
    won = next(m for m in model.moves if m.won is not None)
    assert won.won is not None
    winner = model.names[won.won.winner]
    assert f"{winner} won it with the" in view.watching.trick.value
    assert f"{winner} wins the trick." in " ".join(move_words(m, model.names, model.game) for m in model.moves)


def test_a_trick_won_holds_the_table_longer() -> None:
    moves: list[Any] = [Move(Action(0, "play", c), False, None, None) for c in parse_cards("2H 3H 4H")]  # type: ignore[arg-type]
    moves[1] = Move(moves[1].action, False, "a trick", None)  # type: ignore[arg-type]
    assert pauses(moves, 0.4) == [0.0, 0.4, 0.4 * HOLD]


def test_a_click_while_the_moves_are_shown_shows_the_rest_at_once_and_loses_nothing() -> None:
    view = nap_at_play()
    model = view.model

    async def never(_seconds: float) -> None:
        await asyncio.Event().wait()  # a pause that never ends on its own

    async def scenario() -> None:
        view.watching.pacer._sleep = never
        before = len(model.hand.actions)
        live_buttons(view)[0].click()
        await asyncio.sleep(0)
        assert view.watching.pacer.busy and not live_buttons(view)
        view.watching.skip.click()  # the reader moves on
        assert not view.watching.pacer.busy
        assert len(model.hand.actions) == before + len(model.moves)  # every move made, none twice
        if not model.hand.is_over:
            assert live_buttons(view)
            live_buttons(view)[0].click()  # and the next click is taken as usual
            assert model.moves and model.moves[0].action.seat == model.seat
            view.watching.finish()

    asyncio.run(scenario())


def test_at_instant_pace_or_without_an_event_loop_the_table_is_drawn_at_once() -> None:
    view = nap_at_play()
    view.watching.pace.value = "Instant"
    live_buttons(view)[0].click()
    assert not view.watching.pacer.busy
    model = view.model
    assert live_buttons(view) or model.hand.is_over
    words = [move_words(m, model.names, model.game) for m in model.moves]
    assert " ".join(words) in view.watching.spoken.value.replace("&#x27;", "'")


def test_the_last_trick_is_one_toggle_away() -> None:
    view = nap_at_play()
    watching = view.watching
    watching.last.value = True
    assert "No trick has been finished" in watching.trick.value
    view.model.act(next(a for a in view.model.legal() if a.verb == "play"))
    while not view.model.view().tricks:
        view.model.act(view.model.legal()[0])
    trick = view.model.view().tricks[-1]
    watching.last.value = False
    watching.last.value = True
    winner = view.model.names[trick.winner]
    assert f"Last trick, trick {len(view.model.view().tricks)}: {winner} won it" in watching.trick.value
    assert f"{winner} won it" in watching.spoken.value


def test_the_words_name_what_the_table_saw_and_count_what_went_face_down() -> None:
    names = ["Ann", "Ben", "Cat"]
    seen = TableModel("five-card-loo", seed=3).view()
    play = Move(Action(1, "play", parse_cards("KH")[0]), True, None, seen)
    assert move_words(play, names, "five-card-loo") == "Ben leads the king of hearts."
    swap = Move(Action(0, "exchange", tuple(parse_cards("2C 9D"))), False, None, seen)
    assert move_words(swap, names, "five-card-loo") == "Ann exchanges two cards."  # the reader's own too


@pytest.mark.parametrize(("game", "preset"), EVERY_TABLE_GAME)
def test_a_finished_hand_shows_every_hand_and_trick_and_the_settlement_in_words(game: str, preset: str) -> None:
    table = LiveTable(TableModel(game, preset=preset, seed=7, rng=random.Random(7)))
    model, watching = table.model, table.table.watching
    assert watching.summary.value == ""
    for _ in range(60):
        if model.hand.is_over and model.hand.actions:
            break
        if model.hand.is_over:
            model.new_hand()
        else:
            model.act(model.legal()[0])
    summary = watching.summary.value
    record = model.record()
    assert record is not None and "The hands as dealt" in summary and "The settlement" in summary
    for name in model.names:
        assert f"{name}&#x27;s hand as dealt" in summary or f"{name} (you)&#x27;s hand as dealt" in summary
    for k, trick in enumerate(model.hand.tricks, start=1):
        assert f"Trick {k}: {model.names[trick.winner]} won it" in summary
    assert "You took" in summary
    line = model.hand_lines()[-1]  # the chips in words are the ledger's, as the result line says them
    if "points" not in summary:
        for name, amount in line.net.items():
            who = "You" if name == model.names[model.seat] else name
            said = f"won {amount} chip" if amount > 0 else f"paid {-amount} chip" if amount else "neither won nor paid"
            assert f"{who} took" in summary and said in summary.split(f"{who} took", 1)[1].split(";")[0]
    model.new_hand()
    assert watching.summary.value == ""


def test_the_model_keeps_each_change_s_moves_as_the_reader_s_seat_saw_them() -> None:
    model = TableModel("three-card-loo", preset="enquire-within", seed=12, rng=random.Random(1))
    model.act(model.legal()[0])
    moves = model.moves
    assert moves and moves[0].action.seat == model.seat
    assert all(m.view.seat == model.seat for m in moves)  # the reader's own view, never another seat's
    assert [m.action for m in moves] == model.hand.actions[-len(moves) :]
    replayed = TableModel(journal=model._history)
    assert replayed.moves == ()  # a game rebuilt from its journal lays nothing out again
    model._say("")
    assert model.moves == ()  # a change with no move (a message) has none


def test_the_next_hand_dealt_at_a_pace_clears_the_last_hand_s_summary_at_once() -> None:
    """Its cards are public, but a hand's names must not stand beside the next hand's while it is dealt."""
    view = TableView(TableModel("nap", preset="hoffmann", seed=5, rng=random.Random(5)))
    model = view.model
    while not (model.hand.is_over and model.hand.actions):
        model.act(model.legal()[0]) if not model.hand.is_over else model.new_hand()
    assert view.watching.summary.value

    async def never(_seconds: float) -> None:
        await asyncio.Event().wait()

    async def scenario() -> None:
        view.watching.pacer._sleep = never
        for _ in range(20):  # a deal after which a computer player acts before the reader
            view._next.click()
            if len(model.moves) > 1:
                break
            while not (model.hand.is_over and model.hand.actions):
                model.act(model.legal()[0]) if not model.hand.is_over else model.new_hand()
        assert view.watching.pacer.busy and view.watching.summary.value == ""
        view.watching.finish()

    asyncio.run(scenario())
