"""Build hands from compact strings, so each test reads like the law it checks."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from loo.core.actions import Action, IllegalActionError
from loo.core.cards import parse_cards
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import Rules
from loo.games.loo.state import DealKind

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")

# Every game a live table plays, with a preset each (two for three-card Loo, whose presets differ most).
EVERY_TABLE_GAME = [
    ("three-card-loo", "peel"),
    ("three-card-loo", "enquire-within"),
    ("five-card-loo", "pam"),
    ("irish-loo", "irish"),
    ("nap", "hoffmann"),
    ("domino-loo", "celko"),
    ("domino-rounce", "rounce"),
]


def make(
    hands: str,
    *,
    turnup: str,
    miss: str = "",
    dealer: int | None = None,
    pool: int | None = None,
    preset: str = "peel",
    kind: DealKind = DealKind.NORMAL,
    stock: str | None = None,
    **options: Any,
) -> LooHand:
    """``hands`` separates seats with ``|``; ``-`` marks a seat dealt nothing."""
    rules = dataclasses.replace(Rules.preset(preset), **options)
    seats = [None if h.strip() == "-" else parse_cards(h) for h in hands.split("|")]
    n = len(seats)
    return LooHand(
        rules,
        hands=seats,
        turnup=parse_cards(turnup)[0],
        miss=parse_cards(miss),
        stock=parse_cards(stock) if stock is not None else None,
        dealer=n - 1 if dealer is None else dealer,
        pool=rules.deal_price if pool is None else pool,
        deal_kind=kind,
        names=NAMES[:n],
    )


def act(text: str) -> Action:
    """``"0 stand"``, ``"1 miss"``, ``"2 throw"``, ``"0 AS"`` (play), ``"3 x 2C 9H"`` (exchange),
    ``"4 pool"`` (play the miss for the pool), ``"4 turnup 2C"`` (take the turn-up)."""
    seat_text, *rest = text.split()
    seat = int(seat_text)
    verb = rest[0]
    if verb in ("stand", "miss", "throw"):
        return Action.declare(seat, verb)
    if verb == "x":
        return Action.exchange(seat, list(parse_cards(rest[1:])))
    if verb == "pool":
        return Action(seat, "for-pool", True)
    if verb == "turnup":
        return Action(seat, "take-turnup", parse_cards(rest[1:])[0])
    return Action.play(seat, verb)


def push(hand: LooHand, *texts: str) -> LooHand:
    for text in texts:
        hand.push(act(text))
    return hand


def refused(hand: LooHand, text: str) -> IllegalActionError:
    """Push an action that must be refused; check the state is unchanged and return the error."""
    before = (hand.to_act, hand.phase, [hand.holding(s) for s in range(hand.n)], hand.tricks, hand.current_trick)
    try:
        hand.push(act(text))
    except IllegalActionError as error:
        after = (hand.to_act, hand.phase, [hand.holding(s) for s in range(hand.n)], hand.tricks, hand.current_trick)
        assert after == before, "a refused action changed the hand"
        return error
    raise AssertionError(f"{text!r} was allowed")


def legal(hand: LooHand) -> list[str]:
    out = []
    for a in hand.legal_actions():
        if a.verb == "declare":
            out.append(a.value)
        elif a.verb == "play":
            out.append(str(a.value))
        elif a.verb == "for-pool":
            out.append("pool")
        elif a.verb == "exchange":
            out.append(" ".join(["x", *(str(c) for c in a.value)]))
        else:
            out.append(f"{a.verb} {a.value}")
    return out


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``python -m loo *argv`` in this process: its exit status, standard output and standard error."""
    from unittest import mock

    from loo.__main__ import main

    # As `python -m loo` sees it, however pytest was started (its name is the commands' program name).
    with mock.patch.object(sys, "argv", [str(Path(main.__code__.co_filename)), *argv]):
        try:
            status = main(list(argv))
        except SystemExit as stop:
            status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def check_cli(text: str, *args: str) -> tuple[int, str, str]:
    """``python -m loo check -`` (or ``check *args``) in this process, ``text`` on its standard input as
    a pipe gives it (bytes, read through ``sys.stdin.buffer``): its exit status, standard output and
    standard error. A third of a second quicker than a process of its own, for each of the hundreds of
    records the tests check; the real process is run by the tests of the command itself
    (tests/engine/test_check_command.py) and of the console scripts."""
    from unittest import mock

    from loo.__main__ import main

    stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdin", stdin), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["check", *(args or ("-",))])
        except SystemExit as stop:
            status = int(stop.code or 0)
    return status, out.getvalue(), err.getvalue()
