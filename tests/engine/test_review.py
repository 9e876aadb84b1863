"""The review of a finished hand (issue 31): each decision weighed against the best, honestly graded,
the same from ``loo review`` as from the engine."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from loo.__main__ import main
from loo.core.estimates import Z95
from loo.core.sampling import SamplingPlayer
from loo.kits import kit
from loo.records import check, load
from loo.review import (
    GRADES,
    VERDICTS,
    WEIGHING,
    common_mistakes,
    position_key,
    recheck,
    review,
    reviewing,
    unit,
    weigh,
)

# Seed 5: Ann, the eldest of three, holds the kings of spades (trumps: the three of spades) and clubs.
THROWN_UP = {
    "format": "loo-record/1", "game": "three-card-loo", "rules": {"preset": "peel", "first-deal-mode": "none"},
    "seats": ["Ann", "Ben", "Cat"], "dealer": 2, "pool": 3, "deal": {"seed": 5},
    "actions": [{"seat": 0, "declare": "throw"}],
}  # fmt: skip


def record_of(obj: dict[str, Any]) -> Any:
    return load(json.dumps(obj))


def test_throwing_up_two_trumps_with_a_king_is_named_a_mistake_with_its_chips_and_why() -> None:
    (decision,) = review(record_of(THROWN_UP)).decisions
    assert decision.chosen.value == "throw" and decision.best.value == "stand"
    assert decision.verdict in ("mistake", "blunder") and decision.lost.low > 0, decision
    assert decision.why is not None and "L3-DECL-02" in decision.why
    stood = review(record_of({**THROWN_UP, "actions": [{"seat": 0, "declare": "stand"}]})).decisions[0]
    assert stood.verdict == "best" and stood.lost.mean == 0


def test_a_grade_holds_on_four_times_the_deals_drawn_afresh() -> None:
    """Honest grades: what the review says the choice gave up lies within three standard errors of an
    independent estimate on four times the deals, whose interval also lies above zero."""
    record = record_of(THROWN_UP)
    (decision,) = review(record).decisions
    hand = record.start()
    view = hand.view(0)
    player = kit("three-card-loo").make_bot("sampling")
    lost = recheck(player, view, decision.chosen, 4 * decision.deals, seed=12345)  # type: ignore[arg-type]
    se = math.hypot(decision.lost.width, lost.width) / (2 * Z95)
    assert abs(decision.lost.mean - lost.mean) <= 3 * se and lost.low > 0, (decision.lost, lost)


def played(game: str, seed: int) -> dict[str, Any]:
    """A seeded hand of ``game`` played to the end by the rule-of-thumb players, as a record."""
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    seats = 4
    hand = game_kit.deal(rules, random.Random(seed), seats, seats - 1, game_kit.pool(rules, seats))
    bot, rng = game_kit.make_bot("thumb"), random.Random(seed)
    actions = []
    while not hand.is_over:
        action = bot.choose(hand.view(hand.to_act), rng)
        actions.append(action.to_record())
        hand.push(action)
    return {
        "format": "loo-record/1", "game": game, "rules": rules.to_record(), "seats": ["Ann", "Ben", "Cat", "Dan"],
        "dealer": seats - 1, "pool": game_kit.pool(rules, seats), "deal": {"seed": seed}, "actions": actions,
    }  # fmt: skip


@pytest.mark.parametrize("game", ["three-card-loo", "five-card-loo", "irish-loo", "nap", "domino-loo", "domino-rounce"])
def test_every_games_hand_is_reviewed_decision_by_decision(game: str) -> None:
    obj = played(game, 3)
    first = review(record_of(obj), [0])
    assert first.decisions, "Ann had no choice all hand"
    for d in first.decisions:
        assert d.seat == 0 and d.verdict in VERDICTS
        assert d.lost.low <= d.lost.mean <= d.lost.high
        assert (d.verdict == "best") == (d.chosen == d.best)
        if d.verdict in dict(GRADES):  # graded only beyond doubt
            assert d.lost.low > 0
    if game == "three-card-loo":  # seeded from the positions, as every hint is: no clock, no chance
        assert review(record_of(obj), [0]) == first


def test_the_class_s_common_mistakes_gather_the_same_position_from_every_table_costliest_first() -> None:
    """Issue 31, the teacher's console: two tables dealt the same hand throw it up, a third stands, and
    a fourth plays another deal well. The thrown-up position is one, met three times, costly twice."""
    thrown = record_of({**THROWN_UP, "seats": ["Ada", "Bo", "Cy"]})  # other names: the same position
    stood = record_of({**THROWN_UP, "actions": [{"seat": 0, "declare": "stand"}]})
    other = record_of(played("three-card-loo", 3))
    done = {name: review(record, [0]) for name, record in (("thrown", thrown), ("stood", stood), ("other", other))}
    assert position_key(thrown, 0, 0) == position_key(stood, 0, 0) != position_key(thrown, 0, 1)
    reviewed = [
        (("t1", 1), thrown, done["thrown"]),
        (("t2", 1), record_of(THROWN_UP), done["thrown"]),
        (("t3", 1), stood, done["stood"]),
        (("t4", 1), other, done["other"]),
    ]
    common = common_mistakes(reviewed)
    first = common[0]
    assert first.places == (("t1", 1), ("t2", 1), ("t3", 1)) and first.costly == 2
    assert first.best.value == "stand"
    assert first.given_up == pytest.approx(2 * done["thrown"].decisions[0].lost.mean)
    assert all(c.given_up <= first.given_up and c.costly >= 1 for c in common)
    assert all(("t4", 1) not in c.places or ("t1", 1) not in c.places for c in common)
    assert common_mistakes([(("t3", 1), stood, done["stood"])]) == []  # nothing given up: nothing to show


@pytest.mark.parametrize("game", ["three-card-loo", "nap", "domino-loo"])
def test_the_review_fills_in_decision_by_decision_then_the_undecided_costliest_first_and_ends_as_review_does(
    game: str,
) -> None:
    """What a table shows while it weighs (issue 31): each decision on the first round's deals in the
    hand's order, then those left undecided on more deals, the costliest first; the last is review()'s."""
    record, rounds = record_of(played(game, 5)), (60, 200, 400)
    steps = list(reviewing(record, [0], rounds=rounds))
    final = review(record, [0], rounds=rounds)
    assert steps and steps[-1] == final
    n = len(final.decisions)
    assert [len(step.decisions) for step in steps[:n]] == list(range(1, n + 1))  # one more at each step
    weighing = [d for d in steps[n - 1].decisions if d.verdict == WEIGHING]
    assert len(steps) == n + len(weighing)
    order = sorted(weighing, key=lambda d: (-d.lost.mean, d.index))
    for d, step in zip(order, steps[n:], strict=True):  # each later step decides the costliest left
        now = next(e for e in step.decisions if e.index == d.index)
        assert now.verdict != WEIGHING and now == next(e for e in final.decisions if e.index == d.index)
    assert all(d.verdict in VERDICTS for d in final.decisions)


def test_a_record_carries_its_review_read_for_its_shape_and_never_replayed() -> None:
    """The class's records carry each decision's review (issue 31): ``loo check`` reads a record with
    one as the same hand, and refuses a review that is not a list of decisions by its field's name."""
    plain = record_of(THROWN_UP)
    weighed = [d.to_record(list(plain.seats)) for d in review(plain).decisions]
    assert record_of({**THROWN_UP, "review": weighed}) == plain
    assert check(json.dumps({**THROWN_UP, "review": weighed}))[0] == 0
    for bad, field in (
        ({"action": 0}, "review"),
        ([1], "review[0]"),
        ([{"verdict": "mistake"}], "review[0].action"),
        ([{"action": 1}], "review[0].action"),
        ([{"action": True}], "review[0].action"),
    ):
        status, said = check(json.dumps({**THROWN_UP, "review": bad}))
        assert status == 2 and said["message"].startswith(f"{field}: "), (bad, said)


def run_review(*args: str) -> tuple[int, str]:
    """``loo review`` in this process: its exit status and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["review", *args])
    return status, out.getvalue()


def test_loo_review_prints_the_reviews_verdicts_for_a_record_and_for_each_line_of_a_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(THROWN_UP))
    status, text = run_review(str(path))
    (line,) = text.splitlines()
    printed = json.loads(line)
    (decision,) = review(record_of(THROWN_UP)).decisions
    assert status == 0 and printed["decisions"][0]["verdict"] == decision.verdict
    assert printed["decisions"][0]["gave_up"] == round(decision.lost.mean, 2) and printed["costliest"] == 0
    lines = tmp_path / "records.jsonl"
    lines.write_text(json.dumps(THROWN_UP) + "\n" + json.dumps(played("nap", 3)) + "\n")
    status, text = run_review(str(lines), "--seat", "Ann")
    assert status == 0 and len(text.splitlines()) == 2
    status, text = run_review(str(path), "--text")
    assert status == 0 and "best: stand" in text and "L3-DECL-02" in text


def test_loo_review_reports_a_record_it_cannot_weigh_as_check_does(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**THROWN_UP, "pool": -1}))
    status, text = run_review(str(path))
    assert status == 2 and json.loads(text)["error"] == "invalid-record"
    illegal = {**THROWN_UP, "actions": [{"seat": 1, "declare": "stand"}]}  # Ann is to declare first
    path.write_text(json.dumps(illegal))
    status, text = run_review(str(path))
    assert status == 1 and json.loads(text)["law"]


class CountingPlayer(SamplingPlayer[Any]):
    """A game's sampling player that counts the play-outs it is asked for."""

    def __init__(self, player: SamplingPlayer[Any]) -> None:
        super().__init__()
        self.player, self.played = player, 0

    def candidates(self, view: Any, rng: random.Random) -> list[Any]:
        return self.player.candidates(view, rng)

    def world(self, view: Any, rng: random.Random) -> Any:
        return self.player.world(view, rng)

    def consistent(self, view: Any, world: Any) -> bool:
        return self.player.consistent(view, world)

    def play_out(self, hand: Any, rng: random.Random) -> None:
        self.played += 1
        self.player.play_out(hand, rng)


def test_a_further_round_plays_out_only_its_new_deals_and_weighs_as_one_round_of_them_all() -> None:
    """A decision left undecided by the first round is weighed on more deals drawn from the same seed:
    the deals already played out are not played again, and the figures are those of one round of that
    many deals (so the early round changes only what it decides itself)."""
    record = record_of(played("three-card-loo", 4))
    hand, stake = record.start(), unit(record.rules)
    undecided = []
    for action in record.actions:
        if action.seat == 0 and len(hand.legal_actions()) > 1:
            player = kit("three-card-loo").make_bot("sampling")
            if weigh(player, hand.view(0), action, stake, (60,))[2] == "too close to call":  # type: ignore[arg-type]
                undecided.append((hand.view(0), action))
        hand.push(action)
    assert undecided, "every decision of this hand was decided on 60 deals"
    view, chosen = undecided[0]
    rounds, whole = (CountingPlayer(kit("three-card-loo").make_bot("sampling")) for _ in range(2))  # type: ignore[arg-type]
    assert weigh(rounds, view, chosen, stake, (60, 300)) == weigh(whole, view, chosen, stake, (300,))
    assert rounds.played == whole.played > 0
