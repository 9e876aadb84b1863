"""The book's "What would you do?" questions, judged by what each choice is worth on average.

A question is a position: a seeded deal and the moves made so far, seen from the seat to act. The
reader picks one of that seat's choices and is then shown the verdict, worked out when the page is
built (so the page needs no server):

- every choice's expected gain in chips, with its 95% interval, over many deals consistent with what
  the seat can see (:func:`loo.core.estimates.estimate`, the same figures a hint at a live table
  gives, seeded from the position, so every build says the same);
- the verdict: the best choice, or "too close to call" when another choice's paired difference
  from it (the two played out in the same deals) reaches zero;
- a sentence on why (the page's own, or :func:`loo.hints.reason`'s rule of thumb);
- a replay of the best line: the actual deal played on from the best choice by the computer
  players, shown from the reader's seat (no card reaches the page that the seat would not see).

>>> q = judge(Question("three-card-loo", "peel", seed=3, pool=15, at=8))  # Ann leads to the second trick
>>> q.seat, sorted(describe(e.action) for e in q.figures.values)
(0, ['Ace of spades', 'Two of diamonds'])
>>> describe(q.best), q.clear
('Ace of spades', True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from loo.core.actions import Action
from loo.core.estimates import Estimate, Estimates, estimate, position_seed
from loo.core.protocols import Hand, TileRules, View
from loo.hints import reason
from loo.kits import kit
from loo.svg import share_drawings
from widgets.book import ExampleError, play_hand, record_of
from widgets.draw.board import pam_card
from widgets.draw.table_board import board_html
from widgets.table.hints import describe as describe_action
from widgets.table.hints import unit_name
from widgets.views.step_viewer import StepViewer
from widgets.views.step_viewer import describe as describe_move

if TYPE_CHECKING:
    from IPython.display import HTML

__all__ = [
    "Judged",
    "Question",
    "describe",
    "judge",
    "pick_words",
    "question_html",
    "verdict_words",
    "what_would_you_do",
]

WIDTH = 0.5  # every question's best choice is sampled until its 95% interval is at most this wide
LEAST, MOST = 400, 6000  # deals sampled at the least and at the most


@dataclass(frozen=True)
class Question:
    """A position to ask about: a deal (as :func:`widgets.book.play_hand` takes it) and the moves so far.

    ``before`` are moves the page prescribes; then, with ``at``, the computer players play on until
    the hand holds ``at`` moves in all. The seat to act then is the reader's.
    """

    game: str
    preset: str | None = None
    seed: int = 0
    seats: int = 5
    dealer: int | None = None
    pool: int | None = None
    options: Mapping[str, Any] | None = None
    before: Sequence[Mapping[str, Any]] = ()
    at: int | None = None
    deal: Mapping[str, Any] = field(default_factory=dict)

    def _deal(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "seats": self.seats,
            "dealer": self.dealer,
            "pool": self.pool,
            "options": self.options,
            **self.deal,
        }

    def position(self) -> Hand:
        """The hand at the question, not yet played on."""
        moves = list(self.before)
        if self.at is not None:
            played = play_hand(self.game, self.preset, actions=moves, **self._deal())
            if self.at < len(moves) or self.at >= len(played.actions):
                raise ExampleError(f"at={self.at}: the hand has {len(played.actions)} moves, {len(moves)} prescribed")
            moves = [a.to_record() for a in played.actions[: self.at]]
        hand = play_hand(self.game, self.preset, actions=moves, finish=False, **self._deal())
        if hand.to_act is None or len(hand.legal_actions()) < 2:
            raise ExampleError(f"the position after {len(moves)} moves offers no choice to make")
        return hand

    def played_on(self, choice: Action) -> Hand:
        """The actual deal played to its end from ``choice`` by the computer players."""
        moves = [*(a.to_record() for a in self.position().actions), choice.to_record()]
        return play_hand(self.game, self.preset, actions=moves, **self._deal())


@dataclass(frozen=True)
class Judged:
    """A question with its figures: the seat asked, its view, the estimates and the verdict."""

    question: Question
    hand: Hand
    seat: int
    view: View
    figures: Estimates
    why: str | None

    @property
    def best(self) -> Action:
        return self.figures.choice

    def behind(self, action: Action) -> Estimate:
        """How far ``action`` trails the best choice (paired over the same deals; 0 for the best)."""
        return next(e for e in self.figures.behind if e.action == action)

    def as_good(self, action: Action) -> bool:
        """Whether the samples cannot tell ``action`` from the best: their paired difference reaches 0."""
        return self.behind(action).low <= 0

    @property
    def close(self) -> tuple[Action, ...]:
        """The other choices that may be as good as the best."""
        return tuple(e.action for e in self.figures.values if e.action != self.best and self.as_good(e.action))

    @property
    def clear(self) -> bool:
        """Whether the best choice beats every other beyond doubt (the verdict is not "too close to call")."""
        return not self.close


def judge(question: Question, *, why: str | None = None) -> Judged:
    """The question's figures, from the game's sampling player over deals consistent with the seat's view."""
    hand = question.position()
    seat = hand.to_act
    assert seat is not None  # position() insists on a choice to make
    view = hand.view(seat)
    player: Any = kit(question.game).make_bot("sampling")
    figures = estimate(player, view, seed=position_seed(view), width=WIDTH, least=LEAST, most=MOST)
    if why is None:
        pam = pam_card(view)
        why = reason(
            view,
            figures.choice,
            describe=lambda a: describe_action(a, pam).lower(),
            thumb_as_good=figures.first_as_good,
        )
    return Judged(question, hand, seat, view, figures, why)


def describe(action: Action, view: View | None = None) -> str:
    """A choice as its button says it, cards and tiles named in full (the domino sources' "drop out")."""
    if view is not None and isinstance(view.rules, TileRules) and action.verb == "declare" and action.value == "throw":
        return "Drop out"
    return describe_action(action, pam_card(view) if view is not None else None)


def _signed(x: float) -> str:
    text = f"{x:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text.replace("-", "\u2212")


def _unit(judged: Judged) -> str:
    return unit_name(judged.view.rules)


def _value(e: Estimate, unit: str) -> str:
    if e.width < 1e-9:
        return f"{_signed(e.mean)} {unit}, every time"
    return f"{_signed(e.mean)} {unit} (95% interval {_signed(e.low)} to {_signed(e.high)})"


def verdict_words(judged: Judged) -> str:
    """The verdict in a sentence: the best choice and by how much, or "too close to call"."""
    unit, best = _unit(judged), describe(judged.best, judged.view)
    if not judged.clear:
        others = " or ".join(describe(a, judged.view).lower() for a in judged.close)
        return (
            f"Too close to call: {best.lower()} has the best average, but {others} may be as good; played "
            f"out in the same {judged.figures.samples} deals, the difference between them could be nothing."
        )
    if judged.figures.margin is None:
        return f"{best} is the only choice worth weighing."
    runner = min((e for e in judged.figures.behind if e.action != judged.best), key=lambda e: e.mean)
    return (
        f"{best} is the best choice: it beats the next best, {describe(runner.action, judged.view).lower()}, by "
        f"{runner.mean:.1f} {unit} a hand on average (95% interval {runner.low:.1f} to {runner.high:.1f}, "
        f"the two played out in the same deals)."
    )


def pick_words(judged: Judged, action: Action) -> str:
    """What the reader is told of their own pick, before the figures."""
    said = f"You chose {describe(action, judged.view).lower()}: "
    if action == judged.best:
        return said + ("the best choice." if judged.clear else "the best average, though not by a clear margin.")
    lag = judged.behind(action)
    unit = _unit(judged)
    if judged.as_good(action):
        return (
            said + f"about as good as the best; the samples cannot tell the two apart ({lag.mean:.1f} {unit} behind)."
        )
    return (
        said + f"it costs {lag.mean:.1f} {unit} a hand on average against {describe(judged.best, judged.view).lower()}."
    )


_SCRIPT = """<script>
(function () {
  var box = document.currentScript.previousElementSibling;
  if (!box || box.getAttribute("data-loo-choice-ready")) return;
  box.setAttribute("data-loo-choice-ready", "1");
  var buttons = box.querySelectorAll("[data-loo-pick]");
  var outcomes = box.querySelectorAll("[data-loo-outcome]");
  var verdict = box.querySelector("[data-loo-verdict]");
  var hint = box.querySelector("[data-loo-choice-hint]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener("click", function (event) {
      var pick = event.currentTarget.getAttribute("data-loo-pick");
      for (var j = 0; j < buttons.length; j++) {
        buttons[j].setAttribute("aria-pressed", buttons[j] === event.currentTarget ? "true" : "false");
      }
      for (var k = 0; k < outcomes.length; k++) {
        outcomes[k].hidden = outcomes[k].getAttribute("data-loo-outcome") !== pick;
      }
      if (verdict) verdict.hidden = false;
      if (hint) hint.hidden = true;
      var shown = box.querySelector('[data-loo-outcome="' + pick + '"]');
      if (shown) shown.focus();
    });
  }
})();
</script>"""

_STYLE = """<style>
.loo-choice{border:1px solid #b9c3cf;border-radius:8px;padding:8px 12px;margin:12px 0;font-family:system-ui,sans-serif;
font-size:14px}
.loo-choice-title{font-weight:700;margin:2px 0 6px}
.loo-choice-so-far{margin:4px 0 8px 1.4em;padding:0}
.loo-choice-picks{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0}
.loo-choice-picks button{font:inherit;min-height:36px;padding:4px 12px;border-radius:6px;border:1px solid #2f6f4f;
background:#fff;color:#1d4d36;cursor:pointer}
.loo-choice-picks button[aria-pressed=true]{background:#2f6f4f;color:#fff}
.loo-choice-picks button:focus-visible,.loo-choice [data-loo-outcome]:focus-visible{outline:3px solid #e0a000;
outline-offset:2px}
.loo-choice [data-loo-outcome]{font-weight:600;margin:6px 0}
.loo-choice-verdict{border-left:3px solid #2f6f4f;background:#f4faf6;padding:4px 10px;margin:6px 0}
.loo-choice-verdict ul{margin:4px 0 4px 1.2em;padding:0}
.loo-choice-verdict .loo-choice-best{font-weight:600}
</style>"""


def _so_far(judged: Judged) -> list[str]:
    """The moves before the question in words, as the seat saw them: the declarations (or calls) on one
    line, then a line for each trick, its winner named."""
    q, seat, names = judged.question, judged.seat, list(judged.hand.names)
    replay = play_hand(q.game, q.preset, finish=False, **q._deal())
    lines: list[str] = []
    group: list[str] = []
    tricks = 0
    for action in judged.hand.actions:
        leading = not replay.current_trick
        if action.verb == "play" and leading and group:
            lines.append("; ".join(group) + ".")
            group = []
        before = len(replay.tricks)
        replay.push(action)
        group.append(describe_move(action, names, game=q.game, leading=leading, viewer=seat))
        if len(replay.tricks) > before:
            tricks += 1
            lines.append(f"Trick {tricks}: " + ", ".join(group) + f"; {names[replay.tricks[-1].winner]} wins it.")
            group = []
    if group:
        started = any(a.verb == "play" for a in judged.hand.actions)
        lines.append((f"Trick {tricks + 1}: " if started else "") + ", ".join(group) + ".")
    return lines


def question_html(judged: Judged, *, title: str | None = None, setting: str | None = None) -> str:
    """The question as one HTML fragment: the position, the choices, and (hidden until a pick) the verdict."""
    q, view, seat = judged.question, judged.view, judged.seat
    names = list(judged.hand.names)
    unit = _unit(judged)
    heading = title or f"What would you do? You are {names[seat]}"
    lines = _so_far(judged)
    so_far = ""
    if lines:
        items = "".join(f"<li>{escape(line)}</li>" for line in lines)
        so_far = f'<p>So far:</p><ul class="loo-choice-so-far">{items}</ul>'
    legal = [a for a in judged.hand.legal_actions() if a.seat == seat]
    picks, outcomes = [], []
    for i, action in enumerate(legal):
        label = describe(action, view)
        picks.append(f'<button type="button" data-loo-pick="{i}" aria-pressed="false">{escape(label)}</button>')
        outcomes.append(
            f'<p data-loo-outcome="{i}" data-loo-result tabindex="-1" hidden>{escape(pick_words(judged, action))}</p>'
        )
    rows = "".join(
        ('<li class="loo-choice-best">' if e.action == judged.best else "<li>")
        + f"{escape(describe(e.action, view))}: {escape(_value(e, unit))}</li>"
        for e in sorted(judged.figures.values, key=lambda e: -e.mean)
    )
    why = f"<p><b>Why:</b> {escape(judged.why)}</p>" if judged.why else ""
    best_hand = q.played_on(judged.best)
    replay_viewer = StepViewer(
        record_of(best_hand),
        seat=seat,
        title=f"The best line, {describe(judged.best, view).lower()}, played on in this deal, as {names[seat]} sees it",
        commentary={len(judged.hand.actions) + 1: f"{names[seat]} chooses: {describe(judged.best, view).lower()}."},
        start=len(judged.hand.actions) + 1,
    )
    verdict = (
        '<div class="loo-choice-verdict" data-loo-verdict hidden>'
        f"<p><b>Verdict:</b> {escape(verdict_words(judged))}</p>{why}"
        f"<p>What each choice is expected to net {escape(names[seat])}, over {judged.figures.samples} deals "
        "dealt at random but consistent with everything you can see, each choice played out by the computer "
        "players in the same deals:</p>"
        f'<ul aria-label="each choice and what it is expected to net">{rows}</ul>'
        "<p>The replay below is the actual deal played on from the best choice, the computer players taking "
        "every seat; it opens at the choice (go back for the moves before it). It is one deal, not the "
        "average, so it may end better or worse than the figures above.</p>"
        f"{replay_viewer.to_html(share=False)}</div>"
    )
    board = board_html(view, names, seat, show_own=True)
    intro = f"<p>{escape(setting)}</p>" if setting else ""
    body = (
        f'<p class="loo-choice-title">{escape(heading)}</p>{intro}{so_far}{board}'
        '<div class="loo-choice-picks" role="group" aria-label="Your choice">' + "".join(picks) + "</div>"
        "<p data-loo-choice-hint>Choose, and see what each choice is worth.</p>" + "".join(outcomes) + verdict
    )
    salt = "loo-q" + hashlib.sha1(body.encode()).hexdigest()[:8]
    return (
        _STYLE
        + f'<div class="loo-choice" role="group" aria-label="{escape(heading)}">'
        + share_drawings(body, salt)
        + "<noscript><p>Without JavaScript the verdict is shown below.</p>"
        + "<style>.loo-choice [data-loo-verdict]{display:block!important}</style></noscript>"
        + "</div>"
        + _SCRIPT
    )


def what_would_you_do(
    game: str,
    preset: str | None = None,
    *,
    seed: int,
    title: str | None = None,
    setting: str | None = None,
    why: str | None = None,
    **position: Any,
) -> HTML:
    """A question for a page: the position (``seed`` and :class:`Question`'s other fields), judged."""
    from IPython.display import HTML

    judged = judge(Question(game, preset, seed=seed, **position), why=why)
    return HTML(question_html(judged, title=title, setting=setting))
