"""The book's "What would you do?" questions (issue 20): each judged by every choice's expected gain
over deals consistent with the reader's view, its verdict in agreement with those figures, and the
declaring question dealt from the first chapter's own deal."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from widgets.book import record_of
from widgets.book.questions import FIRST_HAND, QUESTIONS, ask
from widgets.book.quiz import Judged, Question, describe, judge, pick_words, question_html, verdict_words

ROOT = Path(__file__).resolve().parents[2]
# The chapters about playing a game (the reference pages and the history, numbers and teaching do not ask).
GAME_CHAPTERS = ["first-hand", "loo/declaring", "loo/play", "pam", "irish-loo", "nap/orthodox", "nap/variants",
                 "domino-loo"]  # fmt: skip


@cache
def judged(name: str) -> Judged:
    spec = QUESTIONS[name]
    return judge(spec.question, why=spec.why)


@cache
def page(name: str) -> str:
    spec = QUESTIONS[name]
    return question_html(judged(name), title=spec.title)


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_the_verdict_agrees_with_the_estimates(name: str) -> None:
    q = judged(name)
    figures = q.figures
    assert figures.samples >= 400, "enough deals for a stable verdict"
    # the best choice has the best mean, and every legal choice of the seat was weighed
    assert q.best == max(figures.values, key=lambda e: e.mean).action
    assert {e.action for e in figures.values} == {a for a in q.hand.legal_actions() if a.seat == q.seat}
    # "too close to call" exactly when another choice's paired gap to the best reaches zero
    gaps = {e.action: e for e in figures.behind}
    assert q.clear == all(gaps[e.action].low > 0 for e in figures.values if e.action != q.best)
    words = verdict_words(q)
    assert words.startswith("Too close to call") != q.clear
    assert describe(q.best, q.view).lower() in words.lower()
    assert pick_words(q, q.best).endswith("the best choice.") == q.clear
    html = page(name)
    # every choice's mean and interval, the number of deals, and the reason are on the page
    assert f"over {figures.samples} deals" in html
    for e in figures.values:
        assert f"{e.mean:+.1f}".replace("-", "\u2212").replace("+0.0", "0.0") in html
    assert q.why and q.why.replace("'", "&#x27;") in html


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_the_replay_plays_the_best_choice_in_the_same_deal_and_shows_no_card_the_seat_could_not_see(name: str) -> None:
    q = judged(name)
    html = page(name)
    line = QUESTIONS[name].question.played_on(q.best)
    assert line.is_over and line.actions[: len(q.hand.actions)] == q.hand.actions
    assert line.actions[len(q.hand.actions)] == q.best
    start = len(q.hand.actions) + 1
    assert f'data-loo-start="{start}"' in html and f'data-loo-frame="{start}" data-loo-say' in html
    # what the seat sees: its own pieces now and later, those played, and the turn-up
    seen = set(q.hand.holding(q.seat)) | set(line.holding(q.seat)) | {getattr(q.view, "turnup", None)}
    seen |= {piece for trick in line.tricks for _, piece in trick.plays}
    seen |= set(getattr(line, "dealt", [()] * (q.seat + 1))[q.seat])
    for seat in range(len(q.hand.names)):
        for piece in q.hand.holding(seat):
            if seat != q.seat and piece not in seen:
                assert f">{piece.name}</title>" not in html, f"{name}: {piece.name} of seat {seat} reached the page"


def test_each_answer_is_hidden_until_the_reader_picks_and_names_the_pick() -> None:
    q, html = judged("play"), page("play")
    picks = re.findall(r'data-loo-pick="(\d+)" aria-pressed="false">([^<]+)<', html)
    assert [label for _, label in picks] == [describe(a, q.view) for a in q.hand.legal_actions()]
    for i, action in enumerate(q.hand.legal_actions()):
        assert f'<p data-loo-outcome="{i}" data-loo-result tabindex="-1" hidden>' in html
        assert pick_words(q, action).replace("'", "&#x27;") in html
    assert "data-loo-verdict hidden" in html


def test_the_declaring_question_is_dealt_from_the_first_chapter_s_deal() -> None:
    # run the first chapter's own code cells, and compare the hand they deal with the question's
    text = (ROOT / "book" / "first-hand.md").read_text()
    cells = re.findall(r"```\{code-cell\} ipython3\n(.*?)```", text, re.S)
    scope: dict[str, object] = {}
    for cell in cells:
        if "live_table_offer" in cell or "deal_browser" in cell or "ask(" in cell:
            continue
        code = re.sub(r"\A:tags:.*\n", "", cell)
        exec(compile(code, "first-hand.md", "exec"), scope)  # the book's own code
    chapter = record_of(scope["hand"])  # type: ignore[arg-type]
    question = record_of(QUESTIONS["declaring"].question.position())
    assert QUESTIONS["declaring"].question == FIRST_HAND
    assert {k: v for k, v in question.items() if k != "actions"} == {k: v for k, v in chapter.items() if k != "actions"}
    assert question["pool"] == 15 and question["dealer"] == 4
    declaring = (ROOT / "book" / "loo" / "declaring.md").read_text()
    assert 'ask("declaring")' in declaring and "first chapter's deal" in declaring and "pool of 15" in declaring


def test_every_game_chapter_asks_and_two_questions_are_card_play_mid_hand() -> None:
    toc = (ROOT / "_toc.yml").read_text()
    asked = {}
    for chapter in GAME_CHAPTERS:
        assert f"book/{chapter}\n" in toc
        names = re.findall(r'ask\("([^"]+)"\)', (ROOT / "book" / f"{chapter}.md").read_text())
        assert names, f"{chapter} asks no question"
        asked.update(dict.fromkeys(names, chapter))
    assert set(asked) == set(QUESTIONS), "every question is asked, and only known ones"
    mid_hand = [n for n in QUESTIONS if judged(n).best.verb == "play" and judged(n).view.tricks]
    assert len(mid_hand) >= 2, mid_hand


def test_an_unknown_question_is_refused_with_the_names() -> None:
    with pytest.raises(KeyError, match="declaring"):
        ask("declare")


def test_two_cards_the_samples_cannot_tell_apart_are_too_close_to_call() -> None:
    # Dan holds the nine and ten of diamonds: whichever he plays, the hand goes the same way
    q = judge(Question("five-card-loo", "pam", seed=2, pool=15, at=18))
    nine, ten = (next(a for a in q.hand.legal_actions() if str(a.value) == c) for c in ("9D", "10D"))
    assert not q.clear and set(q.close) | {q.best} == {nine, ten}
    assert verdict_words(q).startswith("Too close to call")
    other = ten if q.best == nine else nine
    assert "about as good as the best" in pick_words(q, other)
    assert "not by a clear margin" in pick_words(q, q.best)
    ace = next(a for a in q.hand.legal_actions() if str(a.value) == "AC")
    assert not q.as_good(ace) and "it costs" in pick_words(q, ace)
