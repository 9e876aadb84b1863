"""The hand just finished, on the Table tab: every hand as dealt, each trick with its winner, and the
settlement in words.

It is drawn only once the hand is over, when its record is public (the reader may export it), and
reads nothing but what that record holds, the hands as dealt, the finished hand's tricks and its
settlement: nothing of a hand in play ever reaches it.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from loo.core.protocols import Settlement
from widgets.draw.board import piece_html
from widgets.draw.step_drawing import settlement_html
from widgets.table.chips import HandLine, seat_words, signed
from widgets.table.model import TableModel
from widgets.views.pacing import trick_html

STYLE = (
    "<style>.loo-summary{font-family:system-ui,sans-serif;font-size:14px;margin:8px 0;padding:6px 10px;"
    "border:1px solid #c8c8c8;border-radius:8px}.loo-summary h3{font-size:15px;margin:4px 0}"
    ".loo-summary-hands{display:flex;flex-wrap:wrap;gap:6px 18px}.loo-summary ol{margin:0;padding:0;list-style:none}"
    ".loo-summary .loo-won{display:inline-block;margin:2px 6px 2px 0}"
    "</style>"
)


def settlement_words(settlement: Settlement, names: Sequence[str], reader: int, line: HandLine | None = None) -> str:
    """Each player's tricks and what the hand did to them, a sentence each: with the hand's ``line`` of
    the game's accounts (:mod:`widgets.table.chips`), its chips in their parts (the dealer's stake among
    them) and the net, or its points in words; without one, the settlement's own net.

    >>> from types import SimpleNamespace as Ns
    >>> from widgets.table.chips import SeatChips
    >>> settled = Ns(tricks_won=(2, 1, 0), net=lambda: (6, -3, -3))
    >>> settlement_words(settled, ["Ann", "Ben", "Cat"], 0)
    'You won two tricks: +6 chips. Ben won one trick: −3 chips. Cat won no trick: −3 chips.'
    >>> line = HandLine(2, "Cat", 9, 6, {}, {}, {}, "played", (SeatChips("Cat", True, dealt=3, looed=6),))
    >>> settlement_words(settled, ["Ann", "Ben", "Cat"], 0, line).split(". ")[2]
    'Cat won no trick; put 3 in as dealer, looed 6: −9 chips.'
    """
    counts = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    said = []
    for seat, (name, tricks) in enumerate(zip(names, settlement.tricks_won, strict=True)):
        took = f"{counts[tricks] if tricks < len(counts) else tricks} trick{'' if tricks == 1 else 's'}"
        took = "no trick" if tricks == 0 else took
        who = "You" if seat == reader else name
        if line is None:
            said.append(f"{who} won {took}: {signed(settlement.net()[seat])} chips.")
        elif line.in_points:
            said.append(f"{who} won {took}: {seat_words(line, name)}.")
        else:
            chips = line.seat(name)
            parts = chips.parts()
            what = f"{', '.join(parts)}: {signed(chips.net)} chips" if parts else "no chips in or out"
            said.append(f"{who} won {took}; {what}.")
    return " ".join(said)


def summary_html(model: TableModel, *, four_colour: bool = False) -> str:
    """The finished hand on the Table tab, or "" while a hand is in play (or for a hand settled as dealt,
    which :mod:`widgets.views.opening` shows)."""
    hand = model.hand
    if not hand.is_over or hand.settlement is None or not hand.actions:
        return ""
    names = list(model.names)
    hands = []
    for seat, (name, dealt) in enumerate(zip(names, hand.dealt, strict=True)):
        pieces = dealt or ()  # a dealer who sat out the deal was dealt nothing
        who = f"{name} (you)" if seat == model.seat else name
        label = f"{who}'s hand as dealt: " + ", ".join(p.name for p in pieces)
        drawn = "".join(piece_html(p, 30, four_colour=four_colour) for p in pieces)
        hands.append(
            f'<div class="loo-summary-hand" role="group" aria-label="{escape(label)}">{escape(who)}<br>{drawn}</div>'
        )
    tricks = "".join(
        f"<li>{trick_html(trick, names, number=k, title='', four_colour=four_colour)}</li>"
        for k, trick in enumerate(hand.tricks, start=1)
    )
    played = f'<h3>The tricks</h3><ol aria-label="the tricks of the hand">{tricks}</ol>' if tricks else ""
    lines = model.hand_lines()
    line = lines[-1] if lines else None  # the hand as the game's accounts book it
    words = settlement_words(hand.settlement, names, model.seat, line)
    return (
        f'{STYLE}<section class="loo-summary" aria-label="The hand just played">'
        f'<h3>The hands as dealt</h3><div class="loo-summary-hands">{"".join(hands)}</div>{played}'
        f'<h3>The settlement</h3><p class="loo-summary-words">{escape(words)}</p>'
        f"{settlement_html(hand.settlement, names, line)}</section>"
    )
