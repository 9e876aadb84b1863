"""Watching the play (issue 20): the computer players' moves drawn as a reel that the page plays at the
reader's pace, the trick just won and the last trick, the finished hand on the Table tab, and the
live region's words.

The kernel's half is tested here: what the reel holds and in which order it reaches the page. The
page's half (the pauses on the browser's clock, a click or key that shows the rest) is
tests/browser/test_watching.py.
"""

from __future__ import annotations

import random
import re
from html import unescape
from typing import Any

import pytest

from loo.core.actions import Action
from loo.core.cards import parse_cards
from tests.helpers.loo_helpers import EVERY_TABLE_GAME
from tests.widgets.test_table_view import hidden_in_state, live_buttons
from widgets.table.chips import seat_words, signed
from widgets.table.model import TableModel
from widgets.table.moves import Move
from widgets.views.live_table import LiveTable
from widgets.views.pacing import HOLD, PACES, move_words, pauses
from widgets.views.table_view import TableView


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


def frames(view: TableView) -> list[tuple[float, str, str]]:
    """The frames of the reel on the page: each one's pause before it, its words, and its drawing."""
    found = re.findall(
        r'<div class="loo-frame" data-wait="([0-9.]+)" data-say="([^"]*)"(?: hidden)?>(.*?)</div>'
        r'(?=<div class="loo-(?:frame|near))',
        view.watching.film.value,
        flags=re.S,
    )
    return [(float(wait), unescape(said), drawn) for wait, said, drawn in found]


def unescape_text(html: str) -> str:
    """The words of a piece of HTML, without its tags."""
    return unescape(re.sub(r"<[^>]*>", "", html)).strip()


def on_the_cloth(drawn: str) -> int:
    """How many pieces a frame's drawing has in the trick on the cloth (not in the panel of the trick just won)."""
    return drawn.split('class="loo-won"')[0].count('class="loo-play"')


def play_paced(view: TableView, pace: str = "Normal") -> list[str]:
    """Click the reader's first live card at ``pace``; the widgets whose value the click changed, in
    the order the page receives them."""
    view.watching.pace.value = pace
    order: list[str] = []
    for name, widget in (("film", view.watching.film), ("board", view._board), ("spoken", view.watching.spoken)):
        widget.observe(lambda _change, name=name: order.append(name), names=["value"])
    live_buttons(view)[0].click()
    return order


def test_each_computer_players_card_is_a_frame_of_the_reel_at_the_readers_pace() -> None:
    view = nap_at_play()
    model = view.model
    play_paced(view)
    moves = model.moves
    assert moves[0].action.seat == model.seat and len(moves) > 1
    assert all(m.action.seat != model.seat for m in moves[1:])
    shown = frames(view)
    assert len(shown) == len(moves)
    assert [wait for wait, _said, _drawn in shown] == pauses(moves, PACES["Normal"])
    # the first frame holds the reader's card alone of this trick, each later one a card more
    first = moves[0].view.current or moves[0].won.plays  # type: ignore[union-attr]
    counts = [on_the_cloth(drawn) for _wait, _said, drawn in shown]
    trick_over = next((k for k, m in enumerate(moves) if m.won), len(moves) - 1)
    assert counts[: trick_over + 1] == list(range(len(first), len(first) + trick_over + 1))
    # each frame says its move, in turn
    assert [said for _wait, said, _drawn in shown] == [move_words(m, model.names, model.game) for m in moves]
    # the table as it stands is drawn at once beside the reel: the reader may play as soon as the page shows it
    assert live_buttons(view) or model.hand.is_over
    assert hidden_in_state(view, model) == [] or model.hand.is_over


def test_the_reel_reaches_the_page_before_the_table_it_leads_to() -> None:
    """The page hides the table while it plays a reel: the reel must come first, or the table as it
    stands would flash up before the moves that led to it."""
    view = nap_at_play()
    order = play_paced(view)
    assert order.index("film") < order.index("board")
    # the page says each move as its frame shows, not all at once
    assert unescape_text(view.watching.spoken.value) == ""


def test_a_finished_trick_stays_on_the_table_with_its_winner_named() -> None:
    view = nap_at_play()
    play_paced(view)
    model = view.model
    k = next(k for k, m in enumerate(model.moves) if m.won is not None)
    won = model.moves[k].won
    assert won is not None
    winner = model.names[won.winner]
    _wait, said, drawn = frames(view)[k]
    assert on_the_cloth(drawn) == len(won.plays)  # the whole trick, still on the cloth
    assert f"{winner} won it with the" in drawn and f"{winner} wins the trick." in said
    # a line among the middle's facts of the frame (nothing between the cloth's rows), until the next card
    assert re.search(rf'class="loo-facts"><div class="loo-just">Trick \d+ just played: {winner} won it with the', drawn)
    for _wait, _said, later in frames(view)[k + 1 :]:
        assert 'class="loo-just"' not in later, "the line stays only until a card is played to the next trick"
    standing = view.model.view()
    assert ('class="loo-just"' in view._board.value) == (not standing.current and bool(standing.tricks))
    if k == len(model.moves) - 1:
        assert f'data-end="{PACES["Normal"] * HOLD:g}"' in view.watching.film.value


def test_a_trick_won_holds_the_table_longer() -> None:
    moves: list[Any] = [Move(Action(0, "play", c), False, None, None) for c in parse_cards("2H 3H 4H")]  # type: ignore[arg-type]
    moves[1] = Move(moves[1].action, False, "a trick", None)  # type: ignore[arg-type]
    assert pauses(moves, 0.4) == [0.0, 0.4, 0.4 * HOLD]


def test_each_change_has_a_reel_of_its_own_and_a_take_back_none() -> None:
    view = nap_at_play()
    play_paced(view)
    model = view.model
    reels = [re.findall(r'data-reel="(\d+)"', view.watching.film.value)]
    while not model.hand.is_over:
        live_buttons(view)[0].click()
        if len(model.moves) > 1:
            reels.append(re.findall(r'data-reel="(\d+)"', view.watching.film.value))
    assert len(reels) >= 2 and all(len(r) == 1 for r in reels)
    assert len({r[0] for r in reels}) == len(reels)  # a new number each time: the page plays each reel once
    model.undo()  # a take-back moves nothing to watch: no reel
    assert model.moves == () and view.watching.film.value == ""


def test_at_instant_pace_the_table_is_drawn_at_once_and_every_move_said() -> None:
    view = nap_at_play()
    play_paced(view, "Instant")
    assert view.watching.film.value == ""
    model = view.model
    assert live_buttons(view) or model.hand.is_over
    words = [move_words(m, model.names, model.game) for m in model.moves]
    assert " ".join(words) in unescape(view.watching.spoken.value)


def test_the_last_trick_is_one_toggle_away() -> None:
    view = nap_at_play()
    watching = view.watching
    watching.last.value = True
    assert "No trick has been finished" in view._board.value
    view.model.act(next(a for a in view.model.legal() if a.verb == "play"))
    while not view.model.view().tricks:
        view.model.act(view.model.legal()[0])
    trick = view.model.view().tricks[-1]
    watching.last.value = False
    watching.last.value = True
    winner = view.model.names[trick.winner]
    # laid over the middle of the cloth, inside it: the cloth's rows stay where they were
    over = view._board.value.split('class="loo-middle"')[1].split('class="loo-seat loo-at-bottom')[0]
    assert f"Last trick, trick {len(view.model.view().tricks)}: {winner} won it" in over
    assert 'class="loo-over"' in over and f"{winner} won it" in watching.spoken.value
    watching.last.value = False
    assert 'class="loo-over"' not in view._board.value


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
    line = model.hand_lines()[-1]  # the words are the game's accounts, as the result line and the ledger say them
    words = unescape(summary.split('class="loo-summary-words">', 1)[1].split("</p>", 1)[0])
    for name in model.names:
        who = "You" if name == model.names[model.seat] else name
        said = words.split(f"{who} won ", 1)[1].split(". ", 1)[0].rstrip(".")
        if line.in_points:
            assert seat_words(line, name) in said, (said, line)
        else:
            chips = line.seat(name)
            assert said.endswith(f": {signed(chips.net)} chips") if chips.parts() else "no chips in or out" in said, (
                said
            )
            assert all(part in said for part in chips.parts()), (said, chips)
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
    for _ in range(20):  # a deal after which a computer player acts before the reader
        while not (model.hand.is_over and model.hand.actions):
            model.act(model.legal()[0]) if not model.hand.is_over else model.new_hand()
        assert view.watching.summary.value
        view._next.click()
        if len(model.moves) > 1:
            break
    assert view.watching.film.value and view.watching.summary.value == ""


def test_a_take_back_leaves_no_move_said_that_is_no_longer_on_the_table() -> None:
    """Issue 27, point 5: the line of moves said "Eve plays the four of spades" after that card was taken
    back. The page writes each move of a reel into that line itself, so the line the kernel sends after a
    take-back must be a new one (never the same empty line as before), naming no move."""
    view = nap_at_play()
    play_paced(view, "Instant")  # the bots' moves said in the line
    while len(view.model.moves) < 2:
        play_paced(view, "Instant")
    said_before = view.watching.spoken.value
    assert "plays" in unescape_text(said_before)
    play_paced(view, "Normal")  # a reel: the page writes its moves into the same line
    reel_line = view.watching.spoken.value
    assert view.model.undo()
    assert view.watching.spoken.value not in (reel_line, said_before)  # a new line, which the page draws afresh
    assert "plays" not in unescape_text(view.watching.spoken.value)


def test_the_trick_just_won_is_named_again_after_a_reload() -> None:
    """A reload builds a new view of the same game: the cloth names the same trick as before it."""
    for seed in range(1, 40):  # a deal where the reader wins the first trick: the table then waits on her lead
        view = nap_at_play(seed)
        play_paced(view)
        line = re.search(r'<div class="loo-just">[^<]+</div>', view._board.value)
        if line:
            break
    assert line, "no deal left the trick just won on the cloth"
    again = TableView(view.model)  # the page reloaded: a new view, no change seen yet
    assert line[0] in again._board.value
