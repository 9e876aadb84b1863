"""Bots (loo/games/loo/bots.py) and the deal and simulate commands (loo/cli.py)."""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import weakref
from dataclasses import dataclass
from pathlib import Path

import pytest

from loo.core.actions import Action
from loo.core.bots import RandomBot
from loo.core.cards import Card, full_pack
from loo.core.hand import Phase
from loo.core.protocols import Bot
from loo.games.loo.bots import BOTS, SamplingBot, ThumbBot, _forbidden, determinize, make_bot
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import PRESETS, Rules
from loo.games.loo.state import SeatView
from loo.records import Record
from tests.helpers import playing
from tests.helpers.loo_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
SEAT_COUNTS = (2, 3, 4, 5, 7)


def deal(preset: str, seed: int, seats: int, *, pool_factor: int = 1) -> LooHand:
    rules = Rules.preset(preset)
    pool = rules.deal_price * pool_factor
    return LooHand.deal(rules, random.Random(seed), seats=seats, dealer=seed % seats, pool=pool)


def play_out(hand: LooHand, bots: list[Bot[SeatView]], rng: random.Random) -> list[Action]:
    """Play to the end through the checked path, every choice from the view's legal list: the actions."""
    return playing.play_out(hand, rng, bots).actions


@dataclass(frozen=True)
class Point:
    """One decision of a game in progress: the hand (for its fixed facts) and snapshots taken then."""

    hand: LooHand
    view: SeatView
    views: tuple[SeatView, ...]  # every seat's view at that moment
    holdings: tuple[tuple[Card, ...], ...]


def decision_points(preset: str, seeds: range, seats: int = 5) -> list[Point]:
    """Every decision of thumb-and-random games."""
    out = []
    for seed in seeds:
        hand = deal(preset, seed, seats, pool_factor=1 + seed % 3)
        rng = random.Random(seed)
        bots: list[Bot[SeatView]] = [RandomBot() if (seed + s) % 3 == 0 else ThumbBot() for s in range(seats)]
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            views = tuple(hand.view(p) for p in range(seats))
            out.append(Point(hand, view, views, tuple(hand.holding(p) for p in range(seats))))
            hand.push(bots[seat].choose(view, rng))
    return out


# ----- legality -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_random_and_thumb_bots_only_play_legal_actions(preset: str, seats: int) -> None:
    for seed in range(60):
        hand = deal(preset, seed, seats, pool_factor=1 + seed % 3)
        bots: list[Bot[SeatView]] = [RandomBot() if (seed + s) % 2 else ThumbBot() for s in range(seats)]
        play_out(hand, bots, random.Random(seed))
        assert hand.settlement is not None


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_sampling_bot_only_plays_legal_actions(preset: str, seats: int) -> None:
    for seed in range(4):
        hand = deal(preset, seed, seats, pool_factor=1 + seed % 2)
        bots: list[Bot[SeatView]] = [SamplingBot(samples=3) if s % 2 == 0 else RandomBot() for s in range(seats)]
        play_out(hand, bots, random.Random(seed))


def test_sampling_bot_with_default_samples_and_other_rollout_policies() -> None:
    for preset in ("peel", "pam"):
        hand = deal(preset, 11, 5)
        play_out(hand, [make_bot("sampling") for _ in range(5)], random.Random(11))
    for rollout in (RandomBot(), SamplingBot(samples=1)):  # the fast path and the view-by-view path
        hand = deal("irish", 12, 3)
        play_out(hand, [SamplingBot(samples=2, rollout=rollout) for _ in range(3)], random.Random(12))


# ----- determinism --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("preset", ["peel", "pam", "irish"])
def test_bots_are_deterministic_for_a_seeded_rng(name: str, preset: str) -> None:
    def game(seed: int) -> list[Action]:
        bots: list[Bot[SeatView]] = [SamplingBot(samples=4) if name == "sampling" else make_bot(name) for _ in range(5)]
        return play_out(deal(preset, 3, 5), bots, random.Random(seed))

    assert game(1) == game(1)
    if name == "random":
        assert any(game(s) != game(1) for s in range(2, 6))


# ----- what the bots may see ----------------------------------------------------------------


def test_sampling_bot_needs_nothing_but_the_view() -> None:
    hand = deal("peel", 21, 5)
    view = hand.view(hand.to_act or 0)
    alive = weakref.ref(hand)
    del hand
    gc.collect()
    assert alive() is None  # the view holds no reference to the hand it came from
    action = SamplingBot(samples=5).choose(view, random.Random(0))
    assert action in view.legal
    assert ThumbBot().choose(view, random.Random(0)) in view.legal


def test_a_bot_asked_out_of_turn_says_so() -> None:
    hand = deal("peel", 1, 5)
    other = (hand.to_act or 0) + 1
    for bot in (RandomBot(), ThumbBot(), SamplingBot(samples=1)):
        with pytest.raises(ValueError, match="not its turn"):
            bot.choose(hand.view(other), random.Random(0))


# ----- determinize ----------------------------------------------------------------------------


def _public(view: SeatView) -> tuple[object, ...]:
    return (
        view.phase,
        view.to_act,
        view.turnup,
        view.declared,
        view.miss_taken_by,
        view.for_pool,
        view.exchanged,
        view.hand_sizes,
        view.tricks,
        view.current,
        view.pool,
        view.dealer,
        view.names,
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_determinize_mirrors_the_public_state_and_hides_only_unknown_cards(preset: str) -> None:
    for i, point in enumerate(decision_points(preset, range(25))):
        view = point.view
        seat = view.seat
        world = determinize(view, random.Random(i))
        assert world.view(seat) == view  # the seat's own view, legal actions included, is unchanged
        for p in range(len(view.names)):
            assert _public(world.view(p)) == _public(point.views[p])
        played = {c for t in view.tricks for _, c in t.plays} | {c for _, c in view.current}
        known = set(view.hand or ()) | played | {view.turnup} | set(view.put_out)
        hidden = [c for p in range(world.n) if p != seat for c in world.holding(p)]
        untaken_miss = world.miss if view.miss_taken_by is None and not view.for_pool else ()
        dead_unseen = [c for c in world._s.dead if c not in view.put_out]
        hidden += [*untaken_miss, *world.stock[world._s.stock_pos :], *dead_unseen]
        assert known.isdisjoint(hidden)
        assert len(hidden) == len(set(hidden))  # nothing dealt twice
        assert set(hidden) | known == set(full_pack())


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_determinize_respects_what_play_reveals(preset: str) -> None:
    for i, point in enumerate(decision_points(preset, range(40))):
        view, real = point.view, point.hand
        if view.phase is not Phase.PLAY:
            continue
        forbidden = _forbidden(view, real.trump, real.pam_card)
        for p in range(real.n):
            assert forbidden[p].isdisjoint(point.holdings[p]), "an inference that the real hand contradicts"
        world = determinize(view, random.Random(i))
        for p in range(real.n):
            if p != view.seat:
                assert forbidden[p].isdisjoint(world.holding(p))


def test_determinize_refuses_a_finished_hand() -> None:
    hand = deal("peel", 2, 4)
    play_out(hand, [ThumbBot() for _ in range(4)], random.Random(0))
    with pytest.raises(ValueError, match="over"):
        determinize(hand.view(0), random.Random(0))


# ----- the rule of thumb ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["peel", "enquire-within", "britannica"])
def test_thumb_bot_keeps_the_advice_on_the_miss(preset: str) -> None:
    eldest_declarations = 0
    misses = 0
    for point in decision_points(preset, range(400)):
        view = point.view
        if view.phase is not Phase.DECLARE:
            continue
        action = ThumbBot().choose(view, random.Random(0))
        took_miss = action.verb == "declare" and action.value == "miss"
        misses += took_miss
        if view.seat == point.hand.eldest:
            eldest_declarations += 1
            assert not took_miss, "L3-ADV-01: the eldest hand should not take the miss"
        struck_in = sum(d in ("stand", "miss") for d in view.declared)
        if struck_in >= 2:
            assert not took_miss, "L3-ADV-02: no miss after two have struck in"
    assert eldest_declarations > 100 and misses > 10


def test_thumb_bot_leads_high_wins_cheaply_and_throws_low() -> None:
    record = Record.from_json(
        {
            "format": "loo-record/1",
            "game": "three-card-loo",
            "rules": "peel",
            "seats": ["A", "B", "C", "D"],
            "dealer": 3,
            "pool": 3,
            "deal": {
                "hands": [["9H", "2C", "3D"], ["KH", "QH", "4H"], ["AS", "10S", "5D"], ["4C", "JD", "8C"]],
                "miss": ["7S", "8S", "9S"],
                "turnup": "2S",
            },
            "actions": [{"seat": s, "declare": "stand"} for s in range(4)],
        }
    )
    hand = record.replay()
    thumb = ThumbBot()

    def step(seat: int, card: str) -> None:
        assert thumb.choose(hand.view(seat), random.Random(0)) == Action.play(seat, card)
        hand.push(Action.play(seat, card))

    step(0, "9H")  # lead the highest card (L3-LEAD-08)
    step(1, "QH")  # must head: the queen is enough (L3-PLAY-03, L3-PLAY-06)
    step(2, "10S")  # void in hearts: the lowest trump that wins (L3-PLAY-04)
    step(3, "4C")  # cannot win: throw the lowest card (L3-PLAY-05)


# ----- make_bot -------------------------------------------------------------------------------


def test_make_bot_knows_the_bots_and_refuses_others() -> None:
    for name in BOTS:
        assert make_bot(name).name == name
    with pytest.raises(ValueError, match="unknown bot 'clever'; the bots are random, sampling, thumb"):
        make_bot("clever")
    with pytest.raises(ValueError, match="samples"):
        SamplingBot(samples=0)


# ----- the command line -------------------------------------------------------------------------


def test_deal_prints_a_record_and_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_cli(capsys, "deal", "--seed", "5")
    second = run_cli(capsys, "deal", "--seed", "5")
    assert first == second
    status, out, err = first
    assert status == 0 and err == ""
    obj = json.loads(out)
    assert obj == {
        "format": "loo-record/1",
        "game": "three-card-loo",
        "seats": ["Ann", "Ben", "Cat", "Dan", "Eve"],
        "dealer": 4,
        "pool": 3,
        "deal": {"seed": 5},
        "actions": [],
    }
    status, out, _ = run_cli(capsys, "deal", "--seed", "5", "--cards")
    assert status == 0
    written = Record.loads(out)
    seeded = Record.from_json(obj)
    assert written.seed is None and (written.hands, written.miss, written.turnup) == (
        seeded.hands,
        seeded.miss,
        seeded.turnup,
    )


def test_deal_takes_game_preset_seats_dealer_and_pool(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        capsys,
        "deal",
        "--game",
        "five-card-loo",
        "--preset",
        "pam",
        "--seats",
        "Ann,Ben,Cat",
        "--dealer",
        "Ben",
        "--pool",
        "10",
        "--seed",
        "9",
        "--cards",
    )
    assert status == 0
    record = Record.loads(out)
    assert (record.game.value, record.rules.to_record(), record.seats, record.dealer, record.pool) == (
        "five-card-loo",
        "pam",
        ("Ann", "Ben", "Cat"),
        1,
        10,
    )
    assert all(h is not None and len(h) == 5 for h in record.hands)
    status, out, _ = run_cli(capsys, "deal", "--game", "irish-loo", "--seed", "1", "--dealer", "0")
    assert status == 0 and json.loads(out)["dealer"] == 0


def test_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "simulate", "--hands", "40", "--seats", "4", "--bots", "random,thumb,thumb,random", "--seed", "3"
    )
    assert status == 0 and err == ""
    summary = json.loads(out)
    assert summary["hands"] == 40 and summary["seats"] == 4
    assert summary["bots"] == ["random", "thumb", "thumb", "random"]
    assert len(summary["mean_net"]) == len(summary["stderr"]) == 4
    assert sum(summary["reasons"].values()) == 40
    assert summary["hands_per_second"] > 0
    bots = "random,thumb,thumb,random"
    again = json.loads(run_cli(capsys, "simulate", "--hands", "40", "--seats", "4", "--bots", bots, "--seed", "3")[1])
    assert again["mean_net"] == summary["mean_net"]
    for game in ("five-card-loo", "irish-loo"):
        status, out, _ = run_cli(capsys, "simulate", "--game", game, "--hands", "10", "--bots", "random")
        assert status == 0 and json.loads(out)["game"] == game


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deal"], "--seed is required"),
        (["deal", "--seed", "x"], "--seed must be a whole number"),
        (["deal", "--seed"], "expected one argument"),
        (["deal", "--seed", "1", "--game", "whist"], "unknown game 'whist'"),
        (["deal", "--seed", "1", "--game", "nap", "--preset", "peel"], "Nap presets"),
        (["deal", "--seed", "1", "--game", "domino-loo", "--seats", "A,B,C,D,E"], "two to four players"),
        (["simulate", "--game", "nap", "--bots", "wizard", "--seats", "4"], "unknown bot 'wizard'"),
        (["deal", "--seed", "1", "--preset", "pam"], "preset 'pam' is for five-card-loo"),
        (["deal", "--seed", "1", "--preset", "hoyle"], "unknown preset 'hoyle'"),
        (["deal", "--seed", "1", "--seats", "Ann"], "at least two players"),
        (["deal", "--seed", "1", "--seats", "Ann,,Cat"], "comma-separated names"),
        (["deal", "--seed", "1", "--dealer", "7"], "--dealer 7 is not a seat"),
        (["deal", "--seed", "1", "--pool", "-3"], "--pool must be at least 0"),
        (["deal", "--seed", "1", "--seats", ",".join(f"p{i}" for i in range(17))], "more than the pack holds"),
        (["simulate", "--bots", "clever"], "unknown bot 'clever'"),
        (["simulate", "--bots", "thumb,random"], "2 bots for 5 seats"),
        (["simulate", "--hands", "0"], "--hands must be at least 1"),
        (["simulate", "--hands", "many"], "--hands must be a whole number"),
        (["simulate", "--seats", "1"], "--seats must be at least 2"),
        (["simulate", "--game", "five-card-loo", "--seats", "11"], "more than the pack holds"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith(f"python -m loo {argv[0]}: error: ")


def test_bad_arguments_give_no_traceback_from_the_shell() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "loo", "deal", "--seed", "1", "--dealer", "Zed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "--dealer 'Zed' is neither a seat number nor a name" in proc.stderr
