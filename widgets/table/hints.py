"""A hint that teaches: the strong player's choice named in words, every choice's value with its
95% interval, and a one-line reason where a rule of thumb from the sources applies.

The figures come from :func:`loo.core.estimates.estimate`, seeded from a digest of the reader's
view, so the same position gives the same hint every time and in any process; the reason from
:func:`loo.hints.reason`. Only the reader's own view is read: a hint knows no hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from loo.core.actions import Action
from loo.core.cards import Card
from loo.core.estimates import Estimate, Estimates, estimate, position_seed
from loo.core.protocols import TileRules, View
from loo.core.sampling import SamplingPlayer
from loo.core.tiles import NUMBER_PLURALS
from loo.hints import reason
from widgets.draw.board import LIST_VERBS, action_label, pam_card, piece_name

__all__ = ["Hint", "describe", "hint_for", "hint_html", "hint_words"]

NUMBERS = {"1": "one trick", "2": "two tricks", "3": "three tricks", "4": "four tricks"}
WIDTH = 1.0  # the best choice's interval, in chips (or points), is sampled down to this width
LEAST, MOST = 100, 2000  # worlds sampled at the least and at the most


@dataclass(frozen=True)
class Effort:
    """How hard a hint samples: at least ``least`` worlds and at most ``most``, each dealt again up to
    ``tries`` times (None: the game's own number) until it fits what the other players' choices said.
    Every figure is a count, never a clock, so the same position gets the same hint."""

    least: int = LEAST
    most: int = MOST
    tries: int | None = None


ON_SERVER = Effort()
IN_BROWSER = Effort(least=60, most=300, tries=40)
"""The reader's browser runs Python some two to three times slower than the server (Pyodide), so
its hints sample fewer worlds and fit them less closely, to answer within about a second and a half
(bench/inpage.py); the intervals they show are the wider for it, honestly."""
effort = ON_SERVER  # widgets.kernel.inpage.install() sets IN_BROWSER
WORKING = "Working out a hint: playing each of your choices out over many sampled deals…"


@dataclass(frozen=True)
class Hint:
    """The strong player's advice in one position, ready to show."""

    figures: Estimates
    reason: str | None
    unit: str  # "chips", or "points" for the dominoes scored in points
    pam: Card | None
    caveat: str = ""  # what the sampled deals do not weigh, if anything (SamplingPlayer.caveat)

    @property
    def choice(self) -> Action:
        return self.figures.choice

    @property
    def value(self) -> float:
        return self.figures.best.mean


def describe(action: Action, pam: Card | None = None) -> str:
    """An action in words, cards and tiles named in full: "queen of hearts", "Exchange four of clubs"."""
    if action.verb == "play":
        name = piece_name(action.value, pam)
        name = name[:1].upper() + name[1:]
        return f"{name}, led as {NUMBER_PLURALS[action.suit]}" if action.suit is not None else name
    if action.verb in LIST_VERBS and action.value:
        return f"{LIST_VERBS[action.verb]} the " + ", ".join(piece_name(p, pam) for p in action.value)
    if action.verb == "call" and str(action.value) in NUMBERS:
        return f"Call {NUMBERS[str(action.value)]}"
    if action.verb == "take-turnup":
        return f"Take the turn-up, discarding the {piece_name(action.value, pam)}"
    return action_label(action)


def in_words(action: Action, view: View) -> str:
    """An action as a review's reasons name it, in the view it was taken in: as a hint's do ("would
    choose stand", "the queen of hearts"); the ``words`` of :func:`loo.review.review`."""
    return describe(action, pam_card(view)).lower()


def unit_name(rules: object) -> str:
    """What a game's figures count: "points" at the domino games scored in points, else "chips"."""
    return "points" if isinstance(rules, TileRules) and str(rules.domino_scoring) != "chips" else "chips"


def hint_for(player: SamplingPlayer[View], view: View) -> Hint:
    """The hint for ``view`` from the sampling ``player``: figures seeded from the position, and a reason."""
    pam = pam_card(view)
    player.tries = effort.tries
    figures = estimate(player, view, seed=position_seed(view), width=WIDTH, least=effort.least, most=effort.most)
    why = reason(view, figures.choice, describe=lambda a: describe(a, pam).lower(), thumb_as_good=figures.first_as_good)
    return Hint(figures, why, unit_name(view.rules), pam, player.caveat(view))


def _signed(x: float) -> str:
    """``+0.8``, ``−1.2`` (a true minus sign), ``0.0``."""
    text = f"{x:+.1f}"
    if text in ("+0.0", "-0.0"):
        return "0.0"
    return text.replace("-", "\u2212")


def value_words(e: Estimate, unit: str, pam: Card | None) -> str:
    """ "Stand: +0.8 chips (−0.1 to +1.7)"; a choice that always nets the same says so."""
    if e.width < 1e-9:
        return f"{describe(e.action, pam)}: {_signed(e.mean)} {unit}, every time"
    return f"{describe(e.action, pam)}: {_signed(e.mean)} {unit} ({_signed(e.low)} to {_signed(e.high)})"


def _confidence(hint: Hint) -> str:
    margin = hint.figures.margin
    if margin is None:
        return ""
    runner = max((e for e in hint.figures.values if e.action != hint.choice), key=lambda e: e.mean)
    other = describe(runner.action, hint.pam)
    if margin.low > 0:
        lead = f"{margin.mean:.1f} {hint.unit} ({margin.low:.1f} to {margin.high:.1f})"
        return f" It beats {other} by {lead}: a clear choice."
    return f" A close call: {other} may be as good; the samples cannot tell the two apart."


def hint_words(hint: Hint) -> str:
    """The hint in one or two sentences, for the status line (read out by a screen reader)."""
    best = hint.figures.best
    said = (
        f"The strong player would choose: {describe(hint.choice, hint.pam)}, expecting {_signed(best.mean)} {hint.unit}"
    )
    if best.width >= 1e-9:
        said += f" (95% interval {_signed(best.low)} to {_signed(best.high)})"
    said += "."
    if hint.reason:
        said += f" {hint.reason}"
    return said


def hint_html(hint: Hint) -> str:
    """The hint as a labelled region: its choice, the reason, and every choice's value with its interval."""
    best = hint.figures.best
    values = sorted(hint.figures.values, key=lambda e: -e.mean)
    items = "".join(
        ('<li class="loo-hint-best">' if e.action == hint.choice else "<li>")
        + f"{escape(value_words(e, hint.unit, hint.pam))}</li>"
        for e in values
    )
    interval = "" if best.width < 1e-9 else f" (95% interval {_signed(best.low)} to {_signed(best.high)})"
    reason_html = f'<p class="loo-hint-reason">{escape(hint.reason)}</p>' if hint.reason else ""
    caveat_html = f'<p class="loo-hint-caveat">{escape(hint.caveat)}</p>' if hint.caveat else ""
    return (
        '<section class="loo-hint-box" aria-label="Hint" '
        'style="font-size:13px;margin:4px 0 6px 0;padding:4px 8px;border-left:3px solid #2a6;background:#f4faf6">'
        f"<p><b>Hint: {escape(describe(hint.choice, hint.pam))}</b>, expecting {escape(_signed(best.mean))} "
        f"{hint.unit}{escape(interval)}, from {hint.figures.samples} sampled deals."
        f"{escape(_confidence(hint))}</p>"
        f"{reason_html}"
        '<ul aria-label="each choice and what it is expected to net" style="margin:2px 0 2px 1.2em;padding:0">'
        f"{items}</ul>"
        f"{caveat_html}"
        "</section>"
    )
