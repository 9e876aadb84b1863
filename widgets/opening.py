"""A hand settled as it was dealt, shown to the reader as an event: Peel's single.

Under Peel's rules a game opens with a single (L3-SGL-01), and a hand in which every stander
took a trick is followed by another (L3-SGL-08): everyone gets one card face up, and the best card
of the turn-up's suit above the turn-up takes the pool (L3-SGL-03), the rest paying the single's
loo (L3-SGL-04). No one makes a choice in it, so the table (:meth:`TableModel._past_the_deal`)
deals the next hand at once; this module draws what happened, so that no chip is lost unseen: the
turn-up, each player's card turned in turn, who took the pool, and one sentence saying why.

It reads only what is public once the single is over: its record (every card of it was face up)
and the ledger's line for it.
"""

from __future__ import annotations

from html import escape
from typing import Any

from loo.cards import Card
from loo.reasons import Reason
from widgets.board import piece_html
from widgets.model import HandLine, TableModel

STYLE = """<style>
.loo-opening{border:1px solid #c9b98f;border-left:5px solid #8a6d1d;border-radius:6px;background:#fffaf0;
padding:6px 10px;margin:0 0 8px;font-family:system-ui,sans-serif;font-size:14px}
.loo-opening h3{font-size:15px;margin:0 0 4px}
.loo-opening-cards{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:flex-end}
.loo-opening-seat{text-align:center;font-size:12px;animation:loo-turn .5s ease-out both}
.loo-opening-won{outline:3px solid #2f6f4f;outline-offset:2px;border-radius:4px;animation:loo-turn .5s ease-out both,
loo-won .6s ease-out both}
.loo-opening-said{margin:6px 0 0;animation:loo-turn .6s ease-out both}
@keyframes loo-turn{from{opacity:0;transform:rotateY(90deg)}to{opacity:1;transform:none}}
@keyframes loo-won{from{outline-color:transparent}to{outline-color:#2f6f4f}}
@media (prefers-reduced-motion:reduce){.loo-opening *{animation:none!important}}
</style>"""
STEP = 0.35  # seconds between one card turned and the next


def settled_at_deal(model: TableModel) -> tuple[dict[str, Any], HandLine] | None:
    """The record and ledger line of the hand settled at its deal just before the hand in play, if any."""
    if model.hand.is_over or not model.records:
        return None
    record = model.records[-1]
    if record.get("actions") or record.get("deal_kind") != Reason.SINGLE.value:
        return None
    lines = model.hand_lines()
    return (record, lines[-1]) if lines and lines[-1].reason == Reason.SINGLE else None


def _who(name: str, reader: str) -> str:
    return "you" if name == reader else name


def single_sentence(record: dict[str, Any], line: HandLine, reader: str) -> str:
    """What happened in the single, and why, in one sentence with its laws."""
    names: list[str] = list(record["seats"])
    cards = [Card.parse(hand[0]) for hand in record["deal"]["hands"]]
    turnup = Card.parse(record["deal"]["turnup"])
    dealer = names[int(record["dealer"])]
    opening = (
        "This game opened with Peel's single (L3-SGL-01)"
        if line.number == 1
        else "Every stander took a trick in the last hand, so Peel's single came next (L3-SGL-08)"
    )
    dealt = f"{_who(dealer, reader)} turned up the {turnup.name} and dealt everyone one card face up"
    takers = [name for name, amount in line.net.items() if amount > 0]
    payers = [name for name, paid in line.loos.items() if paid]
    each = max(line.loos.values(), default=0)
    if takers:
        taker = takers[0]
        card = cards[names.index(taker)]
        pronoun = "your" if taker == reader else f"{taker}'s"
        result = (
            f"{pronoun} {card.name} was the best {turnup.suit.plural[:-1]} above it, so {_who(taker, reader)} "
            f"took the pool of {line.pool_before} chips (L3-SGL-03)"
        )
        rest = f"the others paid {each} each into this hand's pool (L3-SGL-04)" if payers else ""
    else:
        result = f"no card beat it in {turnup.suit.plural}, so everyone was looed (L3-SGL-05)"
        rest = f"each paid {each} and the pool, now {line.pool_after} chips, carries to this hand" if payers else ""
    said = f"{opening}: {dealt}; {result}" + (f", and {rest}" if rest else "") + "."
    return said[:1].upper() + said[1:]


def opening_html(model: TableModel, *, four_colour: bool = False) -> str:
    """The single just settled, drawn as a short event, or "" if the hand in play followed none."""
    found = settled_at_deal(model)
    if found is None:
        return ""
    record, line = found
    reader = model.names[model.seat]
    names: list[str] = list(record["seats"])
    turnup = Card.parse(record["deal"]["turnup"])
    taker = next((name for name, amount in line.net.items() if amount > 0), None)
    seats = [
        f'<div class="loo-opening-seat">{escape("Turn-up")}<br>{piece_html(turnup, 36, four_colour=four_colour)}</div>'
    ]
    for index, (name, hand) in enumerate(zip(names, record["deal"]["hands"], strict=True), start=1):
        card = Card.parse(hand[0])
        won = " loo-opening-won" if name == taker else ""
        delay = f"animation-delay:{index * STEP:.2f}s" + (f",{(len(names) + 1) * STEP:.2f}s" if won else "")
        label = f"{name} (you)" if name == reader else name
        seats.append(
            f'<div class="loo-opening-seat{won}" style="{delay}">{escape(label)}<br>'
            f"{piece_html(card, 36, four_colour=four_colour)}</div>"
        )
    said_delay = f"animation-delay:{(len(names) + 1) * STEP:.2f}s"
    return (
        STYLE + f'<div class="loo-opening" role="region" aria-label="The single, before this hand">'
        f"<h3>Hand {line.number}: the single, settled as it was dealt</h3>"
        f'<div class="loo-opening-cards">{"".join(seats)}</div>'
        f'<p class="loo-opening-said" style="{said_delay}">{escape(single_sentence(record, line, reader))} '
        "Then this hand was dealt.</p></div>"
    )
