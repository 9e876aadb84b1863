"""The ``deal`` and ``simulate`` commands of ``python -m loo``.

``deal --seed N`` prints a ``loo-record/1`` record (docs/records.md) of a seeded deal with no
actions; ``--cards`` writes the cards out instead of ``{"seed": N}``. ``simulate`` plays
independent hands between bots and prints a JSON summary; ``--jobs N`` plays them in N processes
with the same results, and a terminal sees its progress on standard error. Bad arguments give one
line on standard error and exit status 2, as ``check`` does for an unreadable record.

>>> from loo.__main__ import main
>>> main(["deal", "--seed", "5", "--seats", "Ann,Ben,Cat"])  # doctest: +ELLIPSIS
{"format": "loo-record/1", "game": "three-card-loo", "seats": ["Ann", "Ben", "Cat"], "dealer": 2, ..., "actions": []}
0
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from typing import Any, NoReturn, TextIO

from loo.core.bots import RandomBot
from loo.core.protocols import Bot
from loo.core.rules import RecordError
from loo.games.loo.bots import BOTS
from loo.kits import GAMES, Kit, UnknownGame, kit, loo_kit
from loo.records import load

DEFAULT_SEATS = "Ann,Ben,Cat,Dan,Eve"


class ArgumentError(ValueError):
    """A command-line argument that cannot be used; reported in one line with exit status 2."""


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``deal`` and ``simulate`` to the ``python -m loo`` command line."""
    deal = subparsers.add_parser(
        "deal",
        help="deal a hand from a seed and print its record, with no actions",
        description="Deal one hand reproducibly from --seed and print it as a loo-record/1 JSON record.",
    )
    _rules_arguments(deal)
    deal.add_argument("--seats", default=DEFAULT_SEATS, help=f"comma-separated player names (default {DEFAULT_SEATS})")
    deal.add_argument("--dealer", help="the dealer's seat number or name (default the last seat)")
    deal.add_argument("--pool", help="chips in the pool, this deal's stakes included (default one deal's stakes)")
    deal.add_argument("--seed", help="the seed to shuffle with (required)")
    deal.add_argument("--cards", action="store_true", help='write the cards out instead of {"seed": N}')
    _one_line_errors(deal)
    deal.set_defaults(run=lambda args: _guarded(deal, cmd_deal, args))

    simulate = subparsers.add_parser(
        "simulate",
        help="play hands between bots and print a JSON summary",
        description="Play independent hands between bots (dealer rotating, each hand for one deal's stakes) "
        "and print hands played, speed, each seat's mean net chips with its standard error, and the "
        "settlement reasons.",
    )
    _rules_arguments(simulate)
    simulate.add_argument("--hands", default="100", help="how many hands to play (default 100)")
    simulate.add_argument("--seats", default="5", help="how many players (default 5)")
    simulate.add_argument(
        "--bots",
        default="thumb",
        help=f"one bot per seat, comma-separated, or one for all: {', '.join(sorted(BOTS))} (default thumb)",
    )
    simulate.add_argument("--seed", default="0", help="the seed for the cards and the bots (default 0)")
    simulate.add_argument(
        "--jobs",
        default="1",
        help="how many processes play the hands, 0 for one per core (default 1); the results are the same",
    )
    simulate.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="show hands done, speed and time left on standard error (default: when it is a terminal)",
    )
    _one_line_errors(simulate)
    simulate.set_defaults(run=lambda args: _guarded(simulate, cmd_simulate, args), prog=simulate.prog)


def _rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="three-card-loo", help=f"one of {', '.join(GAMES)} (default three-card-loo)")
    parser.add_argument("--preset", help="the rules preset, named after its source (default the game's own)")


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """argparse's own complaints (a missing value, say) in one line too, without the usage block."""

    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: error: {message}\n")

    parser.error = error  # type: ignore[method-assign]


def _guarded(parser: argparse.ArgumentParser, command: Any, args: argparse.Namespace) -> int:
    try:
        return int(command(args))
    except (ArgumentError, RecordError) as problem:
        parser.error(str(problem))


def _whole(text: str | None, option: str, *, least: int | None = None) -> int:
    try:
        value = int(str(text))
    except ValueError:
        raise ArgumentError(f"{option} must be a whole number, not {text!r}") from None
    if least is not None and value < least:
        raise ArgumentError(f"{option} must be at least {least}, not {value}")
    return value


def _rules(game: str, preset: str | None) -> tuple[Kit, Any]:
    try:
        game_kit = kit(game)
    except UnknownGame as error:
        raise ArgumentError(f"--game: {error}") from None
    try:
        return game_kit, game_kit.read_rules(game, preset)
    except RecordError as error:
        option = "--game" if error.field == "game" else "--preset"
        raise ArgumentError(f"{option}: {error.message}") from None


def _check_deal(game_kit: Kit, rules: Any, seats: int, dealer: int) -> None:
    """The pack or the set must hold enough for this many players (AMB-02)."""
    try:
        game_kit.deal(rules, random.Random(0), seats, dealer, 0)
    except ValueError as error:
        raise ArgumentError(str(error)) from None


def cmd_deal(args: argparse.Namespace) -> int:
    if args.seed is None:
        raise ArgumentError("--seed is required: the deal is shuffled from it")
    seed = _whole(args.seed, "--seed")
    game_kit, rules = _rules(args.game, args.preset)
    names = [name.strip() for name in args.seats.split(",")]
    if any(not name for name in names):
        raise ArgumentError(f"--seats must be comma-separated names, not {args.seats!r}")
    if len(names) < 2:
        raise ArgumentError(f"--seats needs at least two players, not {len(names)}")
    if args.dealer is None:
        dealer = len(names) - 1
    elif args.dealer in names:
        dealer = names.index(args.dealer)
    else:
        try:
            dealer = int(args.dealer)
        except ValueError:
            raise ArgumentError(f"--dealer {args.dealer!r} is neither a seat number nor a name in --seats") from None
        if not 0 <= dealer < len(names):
            raise ArgumentError(f"--dealer {dealer} is not a seat: seats are 0 to {len(names) - 1}, or a name")
    pool = game_kit.pool(rules, len(names)) if args.pool is None else _whole(args.pool, "--pool", least=0)
    _check_deal(game_kit, rules, len(names), dealer)
    obj: dict[str, Any] = {"format": "loo-record/1", "game": args.game}
    if args.preset is not None:
        obj["rules"] = args.preset
    obj.update(seats=names, dealer=dealer, pool=pool, deal={"seed": seed}, actions=[])
    record = load(json.dumps(obj))
    if args.cards:
        record = record.with_cards()
    print(record.dumps())
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    game_kit, rules = _rules(args.game, args.preset)
    hands = _whole(args.hands, "--hands", least=1)
    seats = _whole(args.seats, "--seats", least=2)
    seed = _whole(args.seed, "--seed")
    jobs = _whole(args.jobs, "--jobs", least=0) or os.cpu_count() or 1
    names = [name.strip() for name in args.bots.split(",")]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ArgumentError(f"--bots names {len(names)} bots for {seats} seats: give one per seat, or one for all")
    try:
        bots = [game_kit.make_bot(name) for name in names]
    except ValueError as error:
        raise ArgumentError(f"--bots: {error}") from None
    _check_deal(game_kit, rules, seats, 0)
    shown = sys.stderr.isatty() if args.progress is None else args.progress
    bar = Progress(hands, sys.stderr) if shown else None
    done = 0

    def progress(hands_done: int) -> None:
        nonlocal done
        done = hands_done
        if bar is not None:
            bar.update(hands_done)

    try:
        progress(0)
        summary = simulate(rules, bots, hands=hands, seed=seed, game_kit=game_kit, jobs=jobs, progress=progress)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        print(f"{args.prog}: interrupted after {done:,} of {hands:,} hands", file=sys.stderr)
        return 130
    if bar is not None:
        bar.close()
    print(
        json.dumps(
            {"game": args.game, "rules": rules.to_record(), "seats": seats, "bots": names, "seed": seed, **summary}
        )
    )
    return 0


class Progress:
    """Hands done, speed and time left on one line of ``stream``, rewritten in place.

    Each :meth:`update` rewrites the line after a carriage return, but no more often than every
    ``every`` seconds of ``clock`` (the last hand is always shown); :meth:`close` ends the line.

    >>> import io
    >>> times = iter([0.0, 0.0, 0.1, 2.0, 4.0])
    >>> out = io.StringIO()
    >>> bar = Progress(1000, out, clock=lambda: next(times))
    >>> bar.update(0); bar.update(100); bar.update(500); bar.update(1000); bar.close()
    >>> out.getvalue().split("\\r")
    ['', '0/1,000 hands', '500/1,000 hands  250 hands/s  0:02 left', '1,000/1,000 hands  250 hands/s  took 0:04\\n']
    """

    def __init__(
        self, total: int, stream: TextIO, *, clock: Callable[[], float] = time.monotonic, every: float = 0.25
    ) -> None:
        self.total = total
        self.stream = stream
        self.clock = clock
        self.every = every
        self.start = clock()
        self.shown_at: float | None = None
        self.width = 0

    def update(self, done: int) -> None:
        now = self.clock()
        if done < self.total and self.shown_at is not None and now - self.shown_at < self.every:
            return
        self.shown_at = now
        line = self.line(done, now - self.start)
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(line))

    def line(self, done: int, seconds: float) -> str:
        text = f"{done:,}/{self.total:,} hands"
        if done > 0 and seconds > 0:
            rate = done / seconds
            if done >= self.total:
                text += f"  {rate:,.0f} hands/s  took {_duration(seconds)}"
            else:
                text += f"  {rate:,.0f} hands/s  {_duration((self.total - done) / rate)} left"
        return text

    def close(self) -> None:
        """End the line, so that what follows (the shell's prompt) starts on a clean one."""
        if self.shown_at is not None:
            self.stream.write("\n")
            self.stream.flush()
            self.shown_at = None


def _duration(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour, rounded up: 0:00 only when nothing is left."""
    minutes, secs = divmod(math.ceil(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


# Hands are played in blocks of BLOCK, each dealt from its own generator seeded by (seed, block), and
# the blocks' tallies are added up in block order: so the results do not depend on how many processes
# play the blocks, nor in what order they finish. Changing BLOCK changes every simulation's numbers.
BLOCK = 100


@dataclass(frozen=True)
class _Table:
    """What playing a block needs, picklable for the worker processes."""

    rules: Any  # a game's rules, which name the game
    bots: tuple[Any, ...]
    seed: int
    hands: int
    pool: int
    fast: bool


@dataclass
class _Tally:
    """One block's hands: per seat the sum of net chips and of their squares (whole numbers, so exact)."""

    hands: int = 0
    sums: list[int] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)


def block_rng(seed: int, block: int) -> random.Random:
    """The generator block ``block`` of a simulation seeded ``seed`` deals and plays from."""
    return random.Random(f"loo-simulate:{seed}:{block}")


def _play_block(game_kit: Kit, table: _Table, block: int) -> _Tally:
    rng = block_rng(table.seed, block)
    seats = len(table.bots)
    tally = _Tally(sums=[0] * seats, squares=[0] * seats)
    for i in range(block * BLOCK, min((block + 1) * BLOCK, table.hands)):
        if table.fast:
            reason, net = game_kit.fast(table.rules, rng, seats, i % seats, table.pool)
        else:
            hand = game_kit.deal(table.rules, rng, seats, i % seats, table.pool)
            while not hand.is_over:
                seat = hand.to_act
                assert seat is not None
                hand.push(table.bots[seat].choose(hand.view(seat), rng))
            assert hand.settlement is not None
            reason, net = hand.settlement.reason, tuple(hand.settlement.net())
        tally.hands += 1
        tally.reasons[reason] += 1
        for seat, chips in enumerate(net):
            tally.sums[seat] += chips
            tally.squares[seat] += chips * chips
    return tally


_worker: tuple[Kit, _Table] | None = None  # a worker process's game and table, set once as it starts


def _start_worker(table: _Table) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: no traceback per worker
    _worker = (kit(str(table.rules.game)), table)


def _worker_block(block: int) -> tuple[int, _Tally]:
    assert _worker is not None
    return block, _play_block(*_worker, block)


def simulate(
    rules: Any,
    bots: list[Bot[Any]],  # each of them a bot of the game the rules are for
    *,
    hands: int,
    seed: int | None = None,
    rng: random.Random | None = None,
    game_kit: Kit | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``hands`` independent hands, the dealer rotating and each played for one deal's stakes.

    Net chips are the settlement's ``net()``: what each seat won less what it paid (points, in a
    points game). Random play goes through the game's fast simulator where it has one.

    The hands are played in blocks of :data:`BLOCK`, each from its own generator derived from
    ``seed`` (:func:`block_rng`), by ``jobs`` processes at once; every total is the same whatever
    ``jobs`` is. Worker processes use the game's own kit (``kit(rules.game)``) and copies of the
    bots, which must not learn from one hand to the next. ``rng``, for older callers, stands for
    the seed it draws. ``progress``, if given, is called with the hands played as blocks finish.

    >>> from loo.games.loo.bots import ThumbBot
    >>> from loo.games.loo.rules import Rules
    >>> out = simulate(Rules.preset("irish"), [ThumbBot() for _ in range(4)], hands=20, seed=1)
    >>> out["hands"], len(out["mean_net"]), sum(out["reasons"].values()), out["jobs"]
    (20, 4, 20, 1)
    """
    if rng is not None:
        if seed is not None:
            raise TypeError("simulate() takes a seed or an rng, not both")
        seed = rng.getrandbits(64)
    game_kit = game_kit or loo_kit()
    seats = len(bots)
    fast = game_kit.fast_for(rules) and all(isinstance(b, RandomBot) for b in bots)
    table = _Table(rules, tuple(bots), seed or 0, hands, game_kit.pool(rules, seats), fast)
    blocks = -(-hands // BLOCK)
    jobs = max(1, min(jobs, blocks))
    tallies: list[_Tally | None] = [None] * blocks
    start = time.perf_counter()
    done = 0
    if jobs == 1:
        for block in range(blocks):
            tallies[block] = tally = _play_block(game_kit, table, block)
            done += tally.hands
            if progress is not None:
                progress(done)
    else:
        # Leaving the block, normally or by an exception (Ctrl-C: KeyboardInterrupt), terminates the workers.
        # Spawned, not forked: a fork copies every lock of a process that runs threads (a test run's
        # browser driver, a kernel's) in whatever state another thread left it, and a worker then
        # waits forever on one (seen: a whole test run hung in simulate on a fresh Debian 12).
        context = multiprocessing.get_context("spawn")
        # The workers start with Ctrl-C blocked: a blocked signal stays blocked across fork and exec, so
        # none reaches a worker while its Python starts (a traceback per worker, once), and each worker
        # then ignores it. The parent blocks it only while they start, so a Ctrl-C pressed then waits
        # and is delivered as soon as the pool is up (ignoring it instead lost that key press).
        # multiprocessing's resource tracker, started by the pool's first lock, unblocks Ctrl-C when it has
        # started (whatever the mask was before), so that the workers after it would take the key press
        # as they start: started first, it does nothing to the mask later.
        # (Windows has no signal masks, and no resource tracker to start: its workers are left as they start.)
        masks = hasattr(signal, "pthread_sigmask")
        if masks:
            resource_tracker.ensure_running()
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # this thread's, as it was
        try:
            pool = context.Pool(jobs, initializer=_start_worker, initargs=(table,))
        except BaseException:
            if masks:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            raise
        with pool as workers:
            if masks:  # in the block: a Ctrl-C it delivers ends the workers
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            # Random play is fast: give each worker ten blocks at a time (passing blocks one by one took 1.8 s
            # instead of 1.4 for 100,000 hands); slower bots get one at a time, so that progress is shown often.
            chunk = max(1, min(10, blocks // (4 * jobs))) if fast else 1
            for block, tally in workers.imap_unordered(_worker_block, range(blocks), chunksize=chunk):
                tallies[block] = tally
                done += tally.hands
                if progress is not None:
                    progress(done)
    seconds = time.perf_counter() - start
    sums, squares, reasons = [0] * seats, [0] * seats, Counter[str]()
    for played in tallies:  # in block order
        assert played is not None
        sums = [a + b for a, b in zip(sums, played.sums, strict=True)]
        squares = [a + b for a, b in zip(squares, played.squares, strict=True)]
        reasons.update(played.reasons)
    n = hands
    return {
        "hands": n,
        "jobs": jobs,
        "seconds": round(seconds, 3),
        "hands_per_second": round(n / seconds, 1) if seconds > 0 else None,
        "mean_net": [round(s / n, 4) for s in sums],
        "stderr": [_stderr(n, s, q) for s, q in zip(sums, squares, strict=True)],
        "reasons": dict(sorted(reasons.items())),
    }


def _stderr(n: int, total: int, squares: int) -> float | None:
    """The standard error of the mean of ``n`` whole numbers from their sum and sum of squares, exactly:
    the sample standard deviation over the square root of ``n``.

    >>> import statistics
    >>> x = [3, -1, -1, 0, 5, -2]
    >>> _stderr(len(x), sum(x), sum(v * v for v in x)) == round(statistics.stdev(x) / math.sqrt(len(x)), 4)
    True
    """
    if n < 2:
        return None
    return round(math.sqrt((n * squares - total * total) / (n * n * (n - 1))), 4)
