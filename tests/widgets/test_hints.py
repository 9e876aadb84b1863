"""The hint on the table (issue 20): the choice named in words, every choice's value with its 95%
interval and the reason, in a labelled region and the status line; a note while it is worked out;
the same hint for the same position; and asking for one changes nothing in the game."""

from __future__ import annotations

import random
import re

import pytest

from loo.core.actions import Action
from loo.games.nap import bots as nap_bots
from loo.games.nap.hand import NapHand
from loo.games.nap.state import NapView
from widgets.table import hints
from widgets.table.hints import WORKING, describe
from widgets.table.model import TableModel
from widgets.views.table_view import TableView

VALUE = r"(?:[+\u2212]\d+\.\d|0\.0)"


def dealt(game: str, seed: int) -> TableModel:
    table = TableModel(game, seed=seed, rng=random.Random(seed))
    if table.hand.is_over:
        assert table.new_hand(seed)
    return table


def test_the_hint_box_names_the_choice_in_words_and_values_every_choice_with_its_interval() -> None:
    view = TableView(dealt("three-card-loo", 9))
    legal = view.model.legal()
    view._hint.click()
    box = view._hinted.value
    assert box.startswith('<section class="loo-hint-box" aria-label="Hint"')
    items = re.findall(r"<li[^>]*>(.*?)</li>", box)
    assert len(items) == len(legal)
    for action in legal:
        name = describe(action)
        line = next(i for i in items if i.startswith(f"{name}:"))
        every_time = rf"{name}: {VALUE} chips, every time"  # throwing up nets nothing, always
        assert re.fullmatch(rf"{name}: {VALUE} chips \({VALUE} to {VALUE}\)", line) or re.fullmatch(every_time, line)
    hint = view.model.hint()
    assert hint is not None
    assert f"<b>Hint: {describe(hint.choice)}</b>" in box and f"{hint.figures.samples} sampled deals" in box
    status = view._status.value
    # The status line names the choice once; the figures and the reason are said once, in the box.
    assert 'role="status"' in status and f"Hint: {describe(hint.choice)}." in status
    assert hint.reason and hint.reason in box and hint.reason not in status and "sampled deals" not in status


def test_cards_are_named_in_words_in_the_hint() -> None:
    table = dealt("three-card-loo", 9)
    while not any(a.verb == "play" for a in table.legal()):
        table.act(next(a for a in table.legal() if a.value == "stand") if table.legal() else table.legal()[0])
    view = TableView(table)
    view._hint.click()
    assert re.search(r"<li[^>]*>[A-Z][a-z]+ of (clubs|diamonds|hearts|spades):", view._hinted.value)


def test_a_note_shows_while_the_hint_is_worked_out_and_goes_with_the_next_move() -> None:
    view = TableView(dealt("three-card-loo", 9))
    seen: list[tuple[str, bool, str]] = []
    real = view.model.hint

    def watched() -> object:
        seen.append((view._hint.description, view._hint.disabled, view._hinted.value))
        return real()

    view.model.hint = watched  # type: ignore[method-assign]
    view._hint.click()
    assert seen and seen[0][0] == "Thinking…" and seen[0][1] and WORKING in seen[0][2]
    assert view._hint.description == "Hint" and not view._hint.disabled
    assert "loo-hint-box" in view._hinted.value
    view.model.act(view.model.legal()[0])
    assert view._hinted.value == ""  # a new position: the old hint no longer applies


def test_the_same_position_gives_the_same_hint_at_two_tables() -> None:
    one, two = TableView(dealt("nap", 3)), TableView(dealt("nap", 3))
    one._hint.click()
    two._hint.click()
    assert one._hinted.value == two._hinted.value and one._status.value == two._status.value


def test_asking_for_a_hint_changes_nothing_in_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not even the table's generator, from which the next hand is dealt. A hint at every move of a
    whole hand: at the browser's effort, which samples by the same code, fewer worlds (at the
    server's, the hand took a minute of the test run)."""
    monkeypatch.setattr(hints, "effort", hints.IN_BROWSER)
    asked, plain = dealt("domino-loo", 5), dealt("domino-loo", 5)
    while not asked.hand.is_over:
        assert asked.hint() is not None
        action: Action = asked.legal()[0]
        assert asked.act(action) and plain.act(action)
    assert asked.hand.actions == plain.hand.actions
    assert asked.new_hand() and plain.new_hand()
    assert asked.deal_code() == plain.deal_code()


def test_a_nap_hint_in_play_says_what_its_sampled_deals_do_not_weigh_and_a_call_hint_does_not() -> None:
    """Nap's sampled deals heed the calls, the caller's first lead and the voids, not the rest of the
    cards played, so a hint in play says so; the dominoes' heed every declaration and play."""
    from loo.core.estimates import estimate
    from loo.games.dominoes.bots import DominoSamplingBot
    from loo.games.nap.bots import NapSamplingBot, NapThumbBot
    from loo.games.nap.hand import NapHand
    from loo.games.nap.rules import NapRules
    from loo.games.nap.state import NapPhase
    from widgets.table.hints import Hint, hint_html

    hand = NapHand.deal(NapRules.preset("hoffmann"), random.Random(3), seats=4, dealer=3)
    player, thumb, rng = NapSamplingBot(), NapThumbBot(), random.Random(0)
    assert player.caveat(hand.view(hand.to_act)) == ""  # type: ignore[arg-type]
    while hand.phase is not NapPhase.PLAY:
        hand.push(thumb.choose(hand.view(hand.to_act), rng))  # type: ignore[arg-type]
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    caveat = player.caveat(view)
    assert "heed the calls" in caveat
    figures = estimate(player, view, least=4, most=4, batch=4)
    assert '<p class="loo-hint-caveat">The sampled deals heed the calls' in hint_html(
        Hint(figures, None, "chips", None, caveat)
    )
    assert "loo-hint-caveat" not in hint_html(Hint(figures, None, "chips", None))
    assert DominoSamplingBot().caveat(dealt("domino-loo", 1).view()) == ""  # type: ignore[arg-type]


def test_a_hint_in_the_readers_browser_samples_less_and_still_answers_the_same_every_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pyodide runs Python two to three times slower: the browser's hints sample at most 300 worlds, each
    redealt at most 40 times to fit the others' calls (widgets.table.hints.IN_BROWSER), counted, not timed."""
    model = dealt("nap", 21)
    tried: list[int | None] = []
    real = nap_bots.determinize

    def spy(view: NapView, rng: random.Random, tries: int | None = None) -> NapHand:
        tried.append(tries)
        return real(view, rng, tries)

    monkeypatch.setattr(nap_bots, "determinize", spy)
    on_server = model.hint()
    assert on_server is not None and set(tried) == {None}  # the game's own number of tries
    monkeypatch.setattr(hints, "effort", hints.IN_BROWSER)
    tried.clear()
    first, again = model.hint(), model.hint()
    assert first is not None and again is not None
    assert set(tried) == {40} and first.figures.samples <= 300
    assert first.figures == again.figures  # the same position, the same hint
