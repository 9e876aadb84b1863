"""``python -m loo simulate``: the same totals whatever --jobs, its progress line, and its Ctrl-C (loo/cli.py)."""

from __future__ import annotations

import io
import json
import os
import random
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import loo.cli
from loo.cli import BLOCK, Progress, simulate
from loo.kits import Kit, kit
from tests.helpers.loo_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
TIMING = ("seconds", "hands_per_second", "jobs")


def totals(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING}


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("three-card-loo", "random,thumb,thumb,random"),
        ("three-card-loo", "random"),  # the fast path
        ("nap", "thumb,random,thumb,random"),
        ("domino-loo", "random,thumb,thumb,random"),
    ],
)
def test_the_totals_are_the_same_whatever_the_number_of_jobs(game: str, bots: str) -> None:
    game_kit = kit(game)
    rules = game_kit.read_rules(game, None)
    names = bots.split(",") * (4 if "," not in bots else 1)
    hands = 2 * BLOCK + 37  # the last block is short
    runs = [
        simulate(rules, [game_kit.make_bot(n) for n in names], hands=hands, seed=11, game_kit=game_kit, jobs=jobs)
        for jobs in (1, 2, 3)
    ]
    assert [r["jobs"] for r in runs] == [1, 2, 3]
    assert totals(runs[0]) == totals(runs[1]) == totals(runs[2])
    assert runs[0]["hands"] == sum(runs[0]["reasons"].values()) == hands
    other = simulate(rules, [game_kit.make_bot(n) for n in names], hands=hands, seed=12, game_kit=game_kit)
    assert totals(other) != totals(runs[0])  # the seed matters


@pytest.mark.parametrize("hands", [1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 1])
def test_every_hand_is_played_once_with_the_dealer_rotating_across_block_boundaries(hands: int) -> None:
    real = kit("three-card-loo")
    dealers: list[int] = []

    def deal(rules: Any, rng: random.Random, seats: int, dealer: int, pool: int, names: Any = None) -> Any:
        dealers.append(dealer)
        return real.deal(rules, rng, seats, dealer, pool, names)

    counting = Kit(**{**real.__dict__, "deal": deal})
    rules = real.read_rules("three-card-loo", None)
    out = simulate(rules, [real.make_bot("thumb") for _ in range(3)], hands=hands, seed=4, game_kit=counting)
    assert dealers == [i % 3 for i in range(hands)]
    assert out["hands"] == sum(out["reasons"].values()) == hands
    assert out["jobs"] == 1
    assert (out["stderr"][0] is None) == (hands == 1)
    if hands > BLOCK:
        parallel = simulate(rules, [real.make_bot("thumb") for _ in range(3)], hands=hands, seed=4, jobs=2)
        assert totals(parallel) == totals(out)


def test_a_block_is_its_own_stream_so_a_longer_run_begins_with_the_same_hands() -> None:
    rules = kit("three-card-loo").read_rules("three-card-loo", None)
    bots = [kit("three-card-loo").make_bot("thumb") for _ in range(4)]
    seen: list[list[int]] = []
    for hands in (BLOCK, 2 * BLOCK):
        dealt: list[int] = []
        simulate(rules, bots, hands=hands, seed=9, progress=dealt.append)
        seen.append(dealt)
    assert seen == [[BLOCK], [BLOCK, 2 * BLOCK]]  # progress: hands done as each block finishes
    first_block = simulate(rules, bots, hands=BLOCK, seed=9)
    again = simulate(rules, bots, hands=BLOCK, seed=9, jobs=4)  # one block: played here, not in workers
    assert totals(first_block) == totals(again) and again["jobs"] == 1


def test_an_rng_stands_for_the_seed_it_draws() -> None:
    rules = kit("three-card-loo").read_rules("three-card-loo", None)
    bots = [kit("three-card-loo").make_bot("random") for _ in range(4)]
    seed = random.Random(5).getrandbits(64)
    assert totals(simulate(rules, bots, hands=50, rng=random.Random(5))) == totals(
        simulate(rules, bots, hands=50, seed=seed)
    )
    with pytest.raises(TypeError, match="seed or an rng"):
        simulate(rules, bots, hands=50, seed=1, rng=random.Random(5))


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_rewrites_one_line_a_few_times_a_second_and_ends_it() -> None:
    clock, out = FakeClock(), io.StringIO()
    bar = Progress(20_000, out, clock=clock)
    bar.update(0)
    clock.now += 2.0
    bar.update(1_000)  # 500 hands a second, 19,000 left: 38 s
    clock.now += 0.1
    bar.update(1_100)  # too soon after the last: not shown
    clock.now += 0.2
    bar.update(1_150)
    clock.now += 37.7
    bar.update(20_000)  # the last is always shown
    bar.close()
    assert out.getvalue().split("\r") == [
        "",
        "0/20,000 hands",
        "1,000/20,000 hands  500 hands/s  0:38 left",
        "1,150/20,000 hands  500 hands/s  0:38 left",
        "20,000/20,000 hands  500 hands/s  took 0:40\n",
    ]


def test_a_shorter_line_blanks_out_the_longer_one_before_it() -> None:
    clock, out = FakeClock(), io.StringIO()
    bar = Progress(10**6, out, clock=clock)
    clock.now += 1.0
    bar.update(10)  # 10 hands a second: more than a day left
    clock.now += 1.0
    bar.update(500_000)
    first, second = out.getvalue().split("\r")[1:]
    assert first == "10/1,000,000 hands  10 hands/s  27:46:39 left"
    assert second == "500,000/1,000,000 hands  250,000 hands/s  0:02 left".ljust(len(first))


def test_progress_that_never_showed_writes_nothing_on_closing() -> None:
    out = io.StringIO()
    bar = Progress(10, out, clock=FakeClock())
    bar.close()
    bar.update(3)
    bar.close()
    bar.close()
    assert out.getvalue() == "\r3/10 hands\n"


def test_the_command_prints_json_and_nothing_on_stderr_when_it_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ("simulate", "--hands", str(BLOCK + 3), "--seats", "4", "--bots", "thumb,random,random,thumb", "--seed", "2")
    status, out, err = run_cli(capsys, *argv)
    assert status == 0 and err == ""
    one = json.loads(out)
    status, out, err = run_cli(capsys, *argv, "--jobs", "2")
    assert status == 0 and err == ""
    two = json.loads(out)
    assert (one["jobs"], two["jobs"]) == (1, 2)
    assert totals(one) == totals(two) and one["hands"] == BLOCK + 3


def test_jobs_0_is_one_per_core(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    status, out, _ = run_cli(capsys, "simulate", "--hands", str(5 * BLOCK), "--bots", "random", "--jobs", "0")
    assert status == 0 and json.loads(out)["jobs"] == 3


def test_progress_is_shown_on_a_terminal_unless_told_not_to(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status, out, err = run_cli(capsys, "simulate", "--hands", "120", "--bots", "random")
    assert status == 0 and json.loads(out)["hands"] == 120
    assert err.startswith("\r0/120 hands") and "\r120/120 hands  " in err and err.endswith("\n")
    assert err.count("\n") == 1
    status, out, err = run_cli(capsys, "simulate", "--hands", "120", "--bots", "random", "--no-progress")
    assert status == 0 and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    status, out, err = run_cli(capsys, "simulate", "--hands", "120", "--bots", "random", "--progress")
    assert status == 0 and err.endswith(" took 0:01\n") and json.loads(out)["hands"] == 120


@pytest.mark.parametrize(
    ("jobs", "message"),
    [
        ("-1", "--jobs must be at least 0, not -1"),
        ("two", "--jobs must be a whole number, not 'two'"),
        ("1.5", "--jobs must be a whole number, not '1.5'"),
    ],
)
def test_bad_jobs_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], jobs: str, message: str) -> None:
    status, out, err = run_cli(capsys, "simulate", "--jobs", jobs)
    assert status == 2 and out == ""
    assert err == f"python -m loo simulate: error: {message}\n"


def test_an_interrupt_ends_the_progress_line_and_says_how_far_it_got(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, progress: Any, **kwargs: Any) -> Any:
        progress(BLOCK)
        raise KeyboardInterrupt

    monkeypatch.setattr(loo.cli, "simulate", interrupted)
    status, out, err = run_cli(capsys, "simulate", "--hands", "1000", "--progress")
    assert status == 130 and out == ""
    line = f"python -m loo simulate: interrupted after {BLOCK} of 1,000 hands\n"
    assert err.endswith("\n" + line)
    status, out, err = run_cli(capsys, "simulate", "--hands", "1000")
    assert (status, out, err) == (130, "", line)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal and fork")
@pytest.mark.parametrize("after", [0.0, 0.5], ids=["while-the-workers-start", "while-they-play"])
def test_ctrl_c_in_a_terminal_stops_the_workers_with_one_line(after: float) -> None:
    """Ctrl-C pressed as the workers start (a key press the parent once ignored then, and played on)
    or while they play ends the command with one line and no traceback."""
    import pty

    # slow bots, so that each worker is in the middle of a block when the key is pressed
    bots = "sampling,thumb,thumb,thumb"
    argv = [sys.executable, "-m", "loo", "simulate", "--hands", "5000", "--seats", "4", "--bots", bots, "--jobs", "2"]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in a terminal of its own
        os.chdir(ROOT)
        # as a shell in a terminal starts a command: Ctrl-C's signal neither ignored nor blocked, though
        # the tests may run where it is (a shell starts a background job with SIGINT ignored)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        os.execv(sys.executable, argv)
    shown = b""
    deadline = time.monotonic() + 60
    pressed = False
    started: float | None = None
    while time.monotonic() < deadline:
        if started is None and b"0/5,000 hands" in shown:
            started = time.monotonic()
        if not pressed and started is not None and time.monotonic() >= started + after:
            os.write(fd, b"\x03")  # Ctrl-C: the terminal interrupts the command and its workers
            pressed = True
        if select.select([fd], [], [], 0.1)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the terminal's other end closed
                break
            if not chunk:
                break
            shown += chunk
    waited, status = os.waitpid(pid, os.WNOHANG)
    while not waited and time.monotonic() < deadline + 10:
        time.sleep(0.05)
        waited, status = os.waitpid(pid, os.WNOHANG)
    if not waited:  # it did not stop
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail(f"still running a minute on: {shown.decode()[-300:]!r}")
    os.close(fd)
    text = shown.decode()
    assert pressed, text
    assert os.waitstatus_to_exitcode(status) == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert text.endswith(" of 5,000 hands\r\n") and text.count("interrupted after") == 1
