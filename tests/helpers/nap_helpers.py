"""Build Nap hands from compact strings, so each test reads like the law it checks (no tests here)."""

from __future__ import annotations

from typing import Any

from loo.core.actions import Action, IllegalActionError
from loo.core.cards import parse_cards
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import NapRules

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")

# Four players, Dan (seat 3) deals, so Ann (seat 0) is the eldest hand and calls first.
BASE = "AS KS QS 2H 3D | 9S 8H 7H 2C 4D | JS 10S AH KD 5C | 3S 6H QD 9C 10C"


def nap(
    hands: str = BASE,
    *,
    dealer: int | None = None,
    pool: int = 0,
    stock: str | None = None,
    garnet: str = "",
    peep_card: str | None = None,
    table: bool = False,
    preset: str = "hoffmann",
    **options: Any,
) -> NapHand:
    """``hands`` separates seats with ``|``; the dealer is the last seat unless given."""
    rules = NapRules.from_record("nap", {"preset": preset, **{k.replace("_", "-"): v for k, v in options.items()}})
    seats = [parse_cards(h) for h in hands.split("|")]
    n = len(seats)
    return NapHand(
        rules,
        hands=seats,
        dealer=n - 1 if dealer is None else dealer,
        pool=pool,
        stock=parse_cards(stock) if stock is not None else None,
        garnet=parse_cards(garnet),
        peep_card=parse_cards(peep_card)[0] if peep_card else None,
        names=NAMES[:n],
        table=table,
    )


def act(text: str) -> Action:
    """``"0 pass"``, ``"0 3"``, ``"0 misery"``, ``"0 nap"`` (calls); ``"0 peep"``; ``"0 garnet 2C 3C 4C 5C 6C"``;
    ``"0 buy 2C 3D"`` (purchase, ``"0 buy"`` for none); ``"0 x 2C"`` (exchange for the peep card, ``"0 x"`` for
    none); ``"0 AS"`` (play)."""
    seat_text, *rest = text.split()
    seat = int(seat_text)
    verb = rest[0]
    if verb in ("pass", "1", "2", "3", "4", "misery", "nap", "wellington"):
        return Action(seat, "call", verb)
    if verb == "peep":
        return Action(seat, "peep", True)
    if verb == "garnet":
        return Action(seat, "garnet", parse_cards(rest[1:]))
    if verb == "buy":
        return Action(seat, "purchase", parse_cards(rest[1:]))
    if verb == "x":
        return Action(seat, "exchange", parse_cards(rest[1:]))
    return Action.play(seat, verb)


def push(hand: NapHand, *texts: str) -> NapHand:
    for text in texts:
        hand.push(act(text))
    return hand


def snapshot(hand: NapHand) -> tuple[object, ...]:
    s = hand._s
    return (s.phase, s.to_act, [list(h) for h in s.holding], list(s.calls), s.high, s.caller, list(s.peeped),
            s.garnet_by, list(s.purchased), s.stock_pos, list(s.tricks), list(s.current), list(s.pool_paid),
            s.settlement, list(s.offences))  # fmt: skip


def refused(hand: NapHand, text: str) -> IllegalActionError:
    """Push an action that must be refused; check the state is unchanged and return the error."""
    before = snapshot(hand)
    try:
        hand.push(act(text))
    except IllegalActionError as error:
        assert snapshot(hand) == before, "a refused action changed the hand"
        return error
    raise AssertionError(f"{text!r} was allowed")


def legal(hand: NapHand) -> list[str]:
    out = []
    for a in hand.legal_actions():
        if a.verb == "call":
            out.append(a.value)
        elif a.verb == "play":
            out.append(str(a.value))
        elif a.verb == "peep":
            out.append("peep")
        else:
            out.append(" ".join([{"purchase": "buy", "exchange": "x"}.get(a.verb, a.verb), *map(str, a.value)]))
    return out
