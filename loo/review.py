"""The review of a finished hand (issue 31): each decision a seat made, weighed against the best.

For each action of the reviewed seats where there was a choice, the position is the seat's own view
at that moment (never the hidden cards): the game's sampling player deals worlds consistent with it,
plays every candidate out in the same worlds (the chosen one always among them), and gives how many
chips (or points) the choice gave up against the best, a paired difference with its 95% interval
(:func:`loo.core.estimates.estimate`, the hints' estimator, seeded from the position).

Verdicts are honest: a choice is called an inaccuracy, a mistake or a blunder only when the interval
of what it gave up lies wholly above zero, its size then graded in the game's stake (:func:`unit`);
one whose interval lies wholly below the smallest grade is good; anything else is sampled again on
more deals (:data:`ROUNDS`), and at the last round still undecided is "too close to call". A round
plays out only the deals beyond the last round's (the same deals again, from the same seed), and the
first, on fewer deals, grades a choice only when its whole 99% interval earns the same grade.

>>> import json
>>> from loo.records import load
>>> record = load(json.dumps({"format": "loo-record/1", "game": "three-card-loo", "seats": ["Ann", "Ben", "Cat"],
...     "dealer": 2, "pool": 3, "deal": {"seed": 5}, "actions": [{"seat": 0, "declare": "stand"}]}))
>>> [d.verdict in VERDICTS for d in review(record).decisions]
[True]
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from loo.core.actions import Action
from loo.core.estimates import Z95, Estimate, estimate, position_seed
from loo.core.protocols import Hand, View
from loo.core.sampling import SamplingPlayer
from loo.hints import reason
from loo.kits import kit

__all__ = [
    "GRADES",
    "ROUNDS",
    "VERDICTS",
    "WEIGHING",
    "Common",
    "Decision",
    "HandReview",
    "Weighing",
    "Words",
    "common_mistakes",
    "grade",
    "position_key",
    "recheck",
    "review",
    "reviewing",
    "unit",
    "weigh",
]

# The deals each round samples, least and most alike: a decision still undecided after one is weighed
# again on more (a count, never a clock: the same record always gets the same review).
# Small steps early: most decisions are plain on 50 or 100 deals (a late trick's few cards, a clear
# stand or pass), and a review weighs every decision of a hand where a hint weighs one, at least 100
# deals (bench/review.py: with (100, 300, 1000, 2000) and 300 for SURE, a Domino Rounce hand's review
# took 6.2 hints' time, against 3.7 so; of 112 verdicts in 33 hands of the six games, 10 differed, each
# on a choice near a grade's edge or between two choices alike).
ROUNDS = (50, 100, 200, 300, 1000, 2000)  # the last, the most a hint samples (widgets.table.hints.MOST)
SURE = 200  # a round of fewer deals grades a choice only when its whole 99% interval earns that grade (_round)
Z99 = 2.5758293035489004  # the two-sided 99% point of the normal distribution
# A choice that gave up at least this many of the game's stakes (:func:`unit`), beyond doubt, is so called.
GRADES = (("blunder", 1.5), ("mistake", 0.5), ("inaccuracy", 0.2))
VERDICTS = ("best", "good", "too close to call", "inaccuracy", "mistake", "blunder")
GRADED = frozenset(name for name, _ in GRADES)


@dataclass(frozen=True)
class Decision:
    """One choice a seat made, weighed: ``lost`` is what it gave up against ``best`` (0 if it was best)."""

    index: int  # the action's place in the record
    seat: int
    chosen: Action
    best: Action
    lost: Estimate  # the paired difference best - chosen, with its 95% interval
    verdict: str
    why: str | None  # the reason for the best choice, in words, with its law where one applies
    deals: int  # the worlds sampled for it

    def to_record(self, names: Sequence[str]) -> dict[str, Any]:
        return {
            "action": self.index,
            "seat": self.seat,
            "player": names[self.seat],
            "chose": self.chosen.to_record(),
            "best": self.best.to_record(),
            "gave_up": round(self.lost.mean, 2),
            "interval": [round(self.lost.low, 2), round(self.lost.high, 2)],
            "verdict": self.verdict,
            "why": self.why,
            "deals": self.deals,
        }


@dataclass(frozen=True)
class HandReview:
    """A hand's decisions, in the order they were made; ``unit`` the stake the grades are counted in."""

    decisions: tuple[Decision, ...]
    unit: float

    @property
    def given_up(self) -> float:
        """What the decisions gave up in all, counting only what they gave up beyond doubt."""
        return sum(d.lost.mean for d in self.decisions if d.verdict in GRADED)

    @property
    def costliest(self) -> Decision | None:
        """The decision that gave up most beyond doubt, if any did."""
        graded = [d for d in self.decisions if d.verdict in GRADED]
        return max(graded, key=lambda d: (d.lost.mean, -d.index)) if graded else None


def unit(rules: Any) -> float:
    """The game's stake, that the grades count in: the deal price at Loo and the domino games, the
    unit at Nap (a trick at three-card Loo is worth a third of a pool of at least the deal price)."""
    for name in ("deal_price", "unit"):
        value = getattr(rules, name, None)
        if isinstance(value, int | float) and value > 0:
            return float(value)
    return 1.0


class _WithChoice(SamplingPlayer[View]):
    """A sampling player whose candidates always include ``chosen`` (a player may leave out some
    exchanges of equal cards, say, to sample faster: the choice made must be weighed all the same),
    and which keeps what every deal it played out gave each candidate: a later :func:`estimate` of the
    same position, on more deals, plays those again from what it kept and only the deals beyond them
    out, from where the first run's generator left off, so that its figures are those of one run on
    that many deals from the first run's seed, at the cost of the new deals alone."""

    def __init__(self, player: SamplingPlayer[Any], chosen: Action) -> None:
        self.player, self.chosen = player, chosen
        self._candidates: list[Action] | None = None
        self._rng: random.Random | None = None  # the first run's: every later run draws on from it
        self._kept: list[list[float]] = []  # each deal's gains, by candidate, in the order dealt
        self._at = 0  # the deal the present run is at
        self._stand_in: Hand | None = None  # what world() gives for a deal that is only played again

    def candidates(self, view: View, rng: random.Random) -> list[Action]:
        self._at = 0  # estimate() asks first: a run begins, with the deals kept
        if self._candidates is None:
            self._rng = rng
            found = list(self.player.candidates(view, rng))
            self._candidates = found if self.chosen in found else [*found, self.chosen]
        return list(self._candidates)

    def _again(self) -> bool:
        return self._at < len(self._kept) and self._stand_in is not None

    def world(self, view: View, rng: random.Random) -> Hand:
        if self._again():
            assert self._stand_in is not None
            return self._stand_in
        return self.player.world(view, self._rng or rng)

    def consistent(self, view: View, world: Hand) -> bool:
        return self._again() or self.player.consistent(view, world)

    def gains(self, view: View, world: Hand, candidates: Sequence[Action], rng: random.Random) -> list[float]:
        if self._again():
            found = self._kept[self._at]
        else:
            found = super().gains(view, world, candidates, self._rng or rng)
            self._kept.append(found)
            if self._stand_in is None:
                self._stand_in = world
        self._at += 1
        return list(found)

    def play_out(self, hand: Hand, rng: random.Random) -> None:
        self.player.play_out(hand, rng)


def _size(lost: float, stake: float) -> str:
    """The grade that giving up ``lost`` would earn in a game of ``stake``, "good" below the smallest."""
    return next((name for name, size in GRADES if lost >= size * stake), "good")


def grade(lost: Estimate, stake: float) -> str | None:
    """The grade of a choice that gave up ``lost`` (best - chosen) in a game of ``stake``: "good" when
    its interval lies wholly below the smallest grade, a grade when it lies wholly above zero (sized by
    its mean), None while the interval leaves it undecided."""
    if lost.low > 0:
        return _size(lost.mean, stake)
    if lost.high < GRADES[-1][1] * stake:
        return "good"
    return None


def recheck(player: SamplingPlayer[Any], view: View, chosen: Action, deals: int, seed: int) -> Estimate:
    """What ``chosen`` gave up in ``view`` against the best, estimated afresh on ``deals`` deals drawn
    from ``seed``: the check of a verdict on many more deals (tests and ``bench/review.py --calibrate``)."""
    figures = estimate(_WithChoice(player, chosen), view, seed=seed, least=deals, most=deals, batch=100)
    return figures.behind[next(i for i, e in enumerate(figures.values) if e.action == chosen)]


def weigh(
    player: SamplingPlayer[Any], view: View, chosen: Action, stake: float, rounds: Sequence[int] = ROUNDS
) -> tuple[Estimate, Action, str, int]:
    """What ``chosen`` gave up in ``view`` against the best: (the difference, the best, the verdict, deals),
    on each of ``rounds`` deals until decided ("too close to call" if the last leaves it undecided)."""
    return _weigh(_WithChoice(player, chosen), view, stake, rounds)


def _weigh(kept: _WithChoice, view: View, stake: float, rounds: Sequence[int]) -> tuple[Estimate, Action, str, int]:
    if not rounds:
        raise ValueError("weighing a decision needs at least one round of deals")
    for deals in rounds:
        lost, best, verdict, samples = _round(kept, view, stake, deals)
        if verdict is not None:
            return lost, best, verdict, samples
    return lost, best, "too close to call", samples


def _round(kept: _WithChoice, view: View, stake: float, deals: int) -> tuple[Estimate, Action, str | None, int]:
    """One round of :func:`weigh`: ``deals`` deals drawn from the position's own seed (each round alike
    whenever it is drawn; those a former round of ``kept`` dealt are not played out again), and the
    verdict they decide, None if they decide none. A round of fewer than :data:`SURE` deals, an early
    look, decides a verdict only when the whole of the 99% interval (the 95% one is the one shown) earns
    the same grade, and calls the choice the best only when the 99% interval of its lead over the
    runner-up rules out the runner-up's being better by the smallest grade: so a verdict given early is
    as sure as one given later, or surer; the rest wait for the next round."""
    figures = estimate(kept, view, seed=position_seed(view), least=deals, most=deals, batch=50)
    lost = figures.behind[next(i for i, e in enumerate(figures.values) if e.action == kept.chosen)]
    if deals >= SURE:
        verdict = "best" if figures.choice == kept.chosen else grade(lost, stake)
    elif figures.choice == kept.chosen:  # best, if no other choice may be the smallest grade better
        ahead = figures.margin is None or _widened(figures.margin, Z99 / Z95).low > -GRADES[-1][1] * stake
        verdict = "best" if ahead else None
    else:
        sure = _widened(lost, Z99 / Z95)
        low, high = _size(sure.low, stake), _size(sure.high, stake)
        verdict = low if low == high else None
    return lost, figures.choice, verdict, figures.samples


def _widened(e: Estimate, factor: float) -> Estimate:
    """``e`` with its interval ``factor`` times as wide about its mean."""
    return Estimate(e.action, e.mean, e.mean - factor * (e.mean - e.low), e.mean + factor * (e.high - e.mean))


Words = Callable[[Action, View], str]
"""How a caller names an action in words, in the view it was taken in (the reasons name the rule of
thumb's choice so; without it, the action's own text, as ``seat 0 declare stand``)."""


class Weighing(TypedDict, total=False):
    """How a review weighs: on each of ``rounds`` deals until decided (:data:`ROUNDS` if not given);
    ``tries``, how often a world that contradicts the others' choices is dealt again (None, the game's
    own); ``words``, how its reasons name an action."""

    rounds: Sequence[int]
    tries: int | None
    words: Words | None


def _why(view: View, best: Action, words: Words | None) -> str | None:
    return reason(view, best, describe=None if words is None else (lambda a: words(a, view)))


WEIGHING = "weighing"
"""A decision's verdict in :func:`reviewing` while more deals are still to be drawn for it."""


def reviewing(record: Any, seats: Iterable[int] | None = None, **how: Unpack[Weighing]) -> Iterator[HandReview]:
    """The review of :func:`review` as it fills in, for a page that shows it meanwhile: first each
    decision on the first round's deals, in the hand's order (one not yet decided has the verdict
    :data:`WEIGHING` and the first round's figures), then those not yet decided on the further rounds,
    the costliest first; the review so far after each. The last is :func:`review`'s, decision for decision."""
    rounds, tries, words = how.get("rounds", ROUNDS), how.get("tries"), how.get("words")
    if not rounds:
        raise ValueError("weighing a decision needs at least one round of deals")
    player, stake, positions = _positions(record, seats, tries)
    found: dict[int, Decision] = {}
    kept: dict[int, _WithChoice] = {}  # the undecided decisions' deals, played on in the later rounds

    def so_far() -> HandReview:
        return HandReview(tuple(found[i] for i in sorted(found)), stake)

    for index, action, view in positions:
        kept[index] = _WithChoice(player, action)
        lost, best, verdict, deals = _round(kept[index], view, stake, rounds[0])
        if verdict is None and len(rounds) == 1:
            verdict = "too close to call"
        if verdict is not None:
            del kept[index]
        why = _why(view, best, words)
        found[index] = Decision(index, action.seat, action, best, lost, verdict or WEIGHING, why, deals)
        yield so_far()
    views = {index: view for index, _action, view in positions}
    for d in sorted((d for d in found.values() if d.verdict == WEIGHING), key=lambda d: (-d.lost.mean, d.index)):
        view = views[d.index]
        lost, best, verdict, deals = _weigh(kept.pop(d.index), view, stake, rounds[1:])
        found[d.index] = Decision(d.index, d.seat, d.chosen, best, lost, verdict, _why(view, best, words), deals)
        yield so_far()


def _positions(
    record: Any, seats: Iterable[int] | None, tries: int | None
) -> tuple[SamplingPlayer[Any], float, list[tuple[int, Action, View]]]:
    """The game's sampling player, its stake, and each decision of ``seats`` in ``record`` with a choice
    in it: the action's place, the action, and the seat's view before it."""
    game = str(getattr(record.game, "value", record.game))
    player = kit(game).make_bot("sampling")
    if not isinstance(player, SamplingPlayer):  # pragma: no cover - every game's kit has one
        raise TypeError(f"{game} has no sampling player to weigh its decisions")
    if tries is not None:
        player.tries = tries
    reviewed = set(range(len(record.seats)) if seats is None else seats)
    hand = record.start()
    positions = []
    for index, action in enumerate(record.actions):
        if action.seat in reviewed and len(hand.legal_actions()) > 1:
            positions.append((index, action, hand.view(action.seat)))
        hand.push(action)
    return player, unit(record.rules), positions


def review(record: Any, seats: Iterable[int] | None = None, **how: Unpack[Weighing]) -> HandReview:
    """Every decision of ``seats`` (all of them by default) in ``record``, a record of any game read by
    :func:`loo.records.load`, weighed as the module says, on each round's deals until decided, as ``how``
    asks (:class:`Weighing`). A seat with one legal action had no choice."""
    rounds, tries, words = how.get("rounds", ROUNDS), how.get("tries"), how.get("words")
    player, stake, positions = _positions(record, seats, tries)
    decisions = []
    for index, action, view in positions:
        lost, best, verdict, deals = weigh(player, view, action, stake, rounds)
        decisions.append(Decision(index, action.seat, action, best, lost, verdict, _why(view, best, words), deals))
    return HandReview(tuple(decisions), stake)


@dataclass(frozen=True)
class Common:
    """A position the class faced (at one table or at many that dealt the same hand), with what each
    chose there and what it cost: ``places`` are the callers' tags (a table and a hand, say), one per
    decision, in the order of ``decisions``."""

    position: str
    places: tuple[Any, ...]
    decisions: tuple[Decision, ...]

    @property
    def given_up(self) -> float:
        """The chips (or points) given up here in all, counting only what was given up beyond doubt."""
        return sum(d.lost.mean for d in self.decisions if d.verdict in GRADED)

    @property
    def costly(self) -> int:
        """How many of the decisions here gave something up beyond doubt."""
        return sum(d.verdict in GRADED for d in self.decisions)

    @property
    def best(self) -> Action:
        """The best choice, as the costliest decision's weighing found it."""
        return max(self.decisions, key=lambda d: d.lost.mean).best


def position_key(record: Any, index: int, seat: int) -> str:
    """What makes the position before ``record``'s action ``index`` the same at another table: the
    game, its rules, the deal, the seats' number, the dealer, the pool and the actions before it, and the
    seat to choose (not the players' names). Tables dealt the same code meet the first positions alike."""
    whole = dict(record.to_json())
    whole["seats"] = len(whole.get("seats", ()))
    whole["actions"] = list(whole.get("actions", ()))[:index]
    whole["choosing"] = seat
    text = json.dumps(whole, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def common_mistakes(reviewed: Iterable[tuple[Any, Any, HandReview]]) -> list[Common]:
    """The positions where a class gave up most, from ``(tag, record, review)`` triples (a tag per hand:
    a table and a hand's number, say): each position any decision gave something up at beyond doubt,
    with every decision made there, ranked by what was given up there in all, the most first."""
    found: dict[str, list[tuple[Any, Decision]]] = {}
    for tag, record, done in reviewed:
        for d in done.decisions:
            found.setdefault(position_key(record, d.index, d.seat), []).append((tag, d))
    common = [
        Common(key, tuple(tag for tag, _ in made), tuple(d for _, d in made))
        for key, made in found.items()
        if any(d.verdict in GRADED for _, d in made)
    ]
    return sorted(common, key=lambda c: (-c.given_up, -c.costly, c.position))
