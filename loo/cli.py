"""The ``deal`` and ``simulate`` commands of ``python -m loo``.

``deal --seed N`` prints a ``loo-record/1`` record (spec/RECORDS.md) of a seeded deal with no
actions; ``--cards`` writes the cards out instead of ``{"seed": N}``. ``simulate`` plays
independent hands between bots and prints a JSON summary. Bad arguments give one line on
standard error and exit status 2, as ``check`` does for an unreadable record.

>>> from loo.__main__ import main
>>> main(["deal", "--seed", "5", "--seats", "Ann,Ben,Cat"])  # doctest: +ELLIPSIS
{"format": "loo-record/1", "game": "three-card-loo", "seats": ["Ann", "Ben", "Cat"], "dealer": 2, ..., "actions": []}
0
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections import Counter
from typing import Any, NoReturn

from loo.bots import BOTS, Bot, RandomBot
from loo.kits import GAMES, Kit, UnknownGame, kit, loo_kit
from loo.records import load
from loo.rules import RecordError

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
    _one_line_errors(simulate)
    simulate.set_defaults(run=lambda args: _guarded(simulate, cmd_simulate, args))


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
    summary = simulate(rules, bots, hands=hands, rng=random.Random(seed), game_kit=game_kit)
    print(json.dumps({"game": args.game, "rules": rules.to_record(), "seats": seats, "bots": names,
                      "seed": seed, **summary}))
    return 0


def simulate(
    rules: Any, bots: list[Bot], *, hands: int, rng: random.Random, game_kit: Kit | None = None
) -> dict[str, Any]:
    """Play ``hands`` independent hands, the dealer rotating and each played for one deal's stakes.

    Net chips are the settlement's ``net()``: what each seat won less what it paid (points, in a
    points game). Random play goes through the game's fast simulator where it has one.

    >>> from loo.bots import ThumbBot
    >>> from loo.rules import Rules
    >>> out = simulate(Rules.preset("irish"), [ThumbBot() for _ in range(4)], hands=20, rng=random.Random(1))
    >>> out["hands"], len(out["mean_net"]), sum(out["reasons"].values())
    (20, 4, 20)
    """
    game_kit = game_kit or loo_kit()
    seats = len(bots)
    nets: list[list[int]] = [[] for _ in range(seats)]
    reasons: Counter[str] = Counter()
    pool = game_kit.pool(rules, seats)
    fast = game_kit.fast_for(rules) and all(isinstance(b, RandomBot) for b in bots)
    start = time.perf_counter()
    for i in range(hands):
        if fast:
            reason, net = game_kit.fast(rules, rng, seats, i % seats, pool)
        else:
            hand = game_kit.deal(rules, rng, seats, i % seats, pool)
            while not hand.is_over:
                seat = hand.to_act
                assert seat is not None
                hand.push(bots[seat].choose(hand.view(seat), rng))
            assert hand.settlement is not None
            reason, net = hand.settlement.reason, tuple(hand.settlement.net())
        reasons[reason] += 1
        for seat in range(seats):
            nets[seat].append(net[seat])
    seconds = time.perf_counter() - start
    return {
        "hands": hands,
        "seconds": round(seconds, 3),
        "hands_per_second": round(hands / seconds, 1) if seconds > 0 else None,
        "mean_net": [round(statistics.fmean(x), 4) for x in nets],
        "stderr": [round(statistics.stdev(x) / math.sqrt(len(x)), 4) if len(x) > 1 else None for x in nets],
        "reasons": dict(sorted(reasons.items())),
    }
