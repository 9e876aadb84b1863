"""A hand settled as it was dealt, shown to the reader as an event: Peel's single.

Under Peel's rules a game opens with a single (L3-SGL-01), and a hand in which every stander
took a trick is followed by another (L3-SGL-08): everyone gets one card face up, and the best card
of the turn-up's suit above the turn-up takes the pool (L3-SGL-03), the rest paying the single's
loo (L3-SGL-04). No one makes a choice in it, so the table (:meth:`TableModel.past_the_deal`)
deals the next hand at once; this module draws what happened, so that no chip is lost unseen: the
turn-up, each player's card turned in turn, who took the pool, and one sentence saying why in plain
words, its laws after it as references that open on a tap (:mod:`widgets.draw.law_refs`). The single's
turn-up is named as the single's: the hand in play, shown below it, has a turn-up of its own.

It reads only what is public once the single is over: its record (every card of it was face up)
and the ledger's line for it.
"""

from __future__ import annotations

from html import escape

from loo.core.cards import Card
from loo.core.reasons import Reason
from loo.games.loo.record import Record
from loo.games.loo.state import DealKind
from widgets.draw.board import piece_html
from widgets.draw.law_refs import LAW_STYLE, law_ref_html
from widgets.table.chips import HandLine
from widgets.table.model import TableModel

STYLE = (
    "<style>"
    ".loo-opening{border:1px solid #c9b98f;border-left:5px solid #8a6d1d;border-radius:6px;background:#fffaf0;"
    "padding:4px 8px;margin:0 0 6px;font-family:system-ui,sans-serif;font-size:13px;line-height:1.35}"
    ".loo-opening-cards{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:flex-end}"
    ".loo-opening-seat{text-align:center;font-size:11px}"
    # the single's turn-up named on one line, or on two on a narrow window (its cards then keep to one row)
    "@media (max-width:600px){.loo-opening-break{display:block}.loo-opening-cards{gap:2px 3px}}"
    # On a phone the sentence is folded under a one-line summary (the cards, the hand and its choices
    # must fit one screen); on a wider window it is shown whole beside the cards.
    ".loo-opening-brief{flex:1 1 300px;margin:2px 0 0}.loo-opening-brief>summary{cursor:pointer}"
    ".loo-opening-brief>summary:focus-visible{outline:3px solid #e0a000;outline-offset:2px}"
    "@media (min-width:601px){.loo-opening-brief{display:none}}"
    "@media (max-width:600px){.loo-opening>.loo-opening-said{display:none}}"
    ".loo-opening-won{outline:3px solid #2f6f4f;outline-offset:2px;border-radius:4px}"
    # the cards and the sentence side by side where the window is wide enough, one above the other if not
    ".loo-opening{display:flex;flex-wrap:wrap;align-items:center;gap:2px 16px}"
    ".loo-opening-said{margin:3px 0 0;overflow:hidden;flex:1 1 300px}"
    # Only a reader who has not asked for less motion sees the cards turned one by one; no text is
    # ever translucent (a reader, or axe, reads it at full contrast from the start).
    "@media (prefers-reduced-motion:no-preference){"
    ".loo-opening-seat>:last-child{animation:loo-turn .5s ease-out var(--loo-at,0s) both}"
    ".loo-opening-won{animation:loo-won .6s ease-out var(--loo-end,0s) both}"
    ".loo-opening-said{animation:loo-appear .8s ease-out var(--loo-end,0s) backwards}}"
    "@keyframes loo-turn{from{opacity:0;transform:rotateY(90deg)}to{opacity:1;transform:none}}"
    "@keyframes loo-appear{from{max-height:0}to{max-height:12em}}"
    "@keyframes loo-won{from{outline-color:rgba(47,111,79,0)}to{outline-color:#2f6f4f}}"
    "</style>"
)
"""The single's looks, sent with it (about 1 kB, only while a single is shown): the cards turned in turn,
who took the pool outlined, the sentence rolled out after them."""
STEP = 0.35  # seconds between one card turned and the next
CARD_WIDTH = 44  # as an opponent's card at the table (the single sits above the hand in play)


def settled_at_deal(model: TableModel) -> tuple[Record, HandLine] | None:
    """The record and ledger line of the hand settled at its deal just before the hand in play, if any."""
    records = model.hand_records
    if model.hand.is_over or not records:
        return None
    record = records[-1]
    if not isinstance(record, Record) or record.actions or record.deal_kind is not DealKind.SINGLE:
        return None
    lines = model.hand_lines()
    return (record, lines[-1]) if lines and lines[-1].reason == Reason.SINGLE else None


def single_cards(record: Record) -> list[Card | None]:
    """Each seat's one card of the single (None for a dealer who sat out the deal)."""
    return [hand[0] if hand else None for hand in record.hands]


def _who(name: str, reader: str) -> str:
    return "you" if name == reader else name


def single_sentence(record: Record, line: HandLine, reader: str) -> str:
    """What happened in the single, and why, in two plain sentences (its laws: :func:`single_laws`)."""
    names = list(record.seats)
    cards = single_cards(record)
    turnup = record.turnup
    why = "Peel's rules open a game"
    if line.number > 1:
        why = "Every stander took a trick last hand, so Peel's rules deal"
    opened = f"{why} with a single, one card each, which no one plays."
    taker = next((name for name, amount in line.net.items() if amount > 0), None)
    each = max(line.loos.values(), default=0)
    if taker is None:
        said = (
            f"{opened} No card beat the single's turn-up, the {turnup.name}, in its suit, so everyone paid "
            f"{each} into the pool of the hand now in play ({line.pool_after} chips)."
        )
    else:
        card = cards[names.index(taker)]
        assert card is not None  # who took the pool was dealt a card
        whose = "Your" if taker == reader else f"{taker}'s"
        said = (
            f"{opened} {whose} {card.name} was the best {turnup.suit.plural[:-1]} above the single's turn-up, "
            f"the {turnup.name}, so {_who(taker, reader)} took the pool of {line.pool_before} chips; the others "
            f"paid {each} each into the pool of the hand now in play."
        )
    return said


def single_brief(line: HandLine, reader: str) -> str:
    """What the single came to, in a few words (the summary of its folded sentence on a phone)."""
    taker = next((name for name, amount in line.net.items() if amount > 0), None)
    if taker is None:
        return f"everyone paid {max(line.loos.values(), default=0)}."
    return f"{'you' if taker == reader else taker} took {line.pool_before} chips."


def single_laws(line: HandLine) -> tuple[str, ...]:
    """The laws behind the single and its sentence: why it was dealt, and how it was settled."""
    why = "L3-SGL-01" if line.number == 1 else "L3-SGL-08"
    taker = next((name for name, amount in line.net.items() if amount > 0), None)
    return (why, "L3-SGL-05") if taker is None else (why, "L3-SGL-03", "L3-SGL-04")


def opening_html(model: TableModel, *, four_colour: bool = False) -> str:
    """The single just settled, drawn as a short event, or "" if the hand in play followed none."""
    found = settled_at_deal(model)
    if found is None:
        return ""
    record, line = found
    reader = model.names[model.seat]
    names = list(record.seats)
    turnup = record.turnup
    taker = next((name for name, amount in line.net.items() if amount > 0), None)
    seats = [
        f'<div class="loo-opening-seat">Single\'s<span class="loo-opening-break"> </span>turn-up<br>'
        f"{piece_html(turnup, CARD_WIDTH, four_colour=four_colour)}</div>"
    ]
    for index, (name, card) in enumerate(zip(names, single_cards(record), strict=True), start=1):
        if card is None:
            continue
        won = " loo-opening-won" if name == taker else ""
        delay = f"--loo-at:{index * STEP:.2f}s"  # its card turned after the one before
        label = f"{name} (you)" if name == reader else name
        seats.append(
            f'<div class="loo-opening-seat{won}" style="{delay}">{escape(label)}<br>'
            f"{piece_html(card, CARD_WIDTH, four_colour=four_colour)}</div>"
        )
    sentence = (
        f"{escape(single_sentence(record, line, reader))} "
        f'<span class="loo-opening-laws">The laws: {" ".join(law_ref_html(i) for i in single_laws(line))}</span>'
    )
    return (
        STYLE + LAW_STYLE + f'<div class="loo-opening" role="region" aria-label="The single, before this hand" '
        f'style="--loo-end:{(len(names) + 1) * STEP:.2f}s">'
        f'<div class="loo-opening-cards">{"".join(seats)}</div>'
        f'<div class="loo-opening-said"><b>Hand {line.number}, settled as dealt.</b> {sentence}</div>'
        f'<details class="loo-opening-brief"><summary><b>The single:</b> '
        f"{escape(single_brief(line, reader))} Why?</summary><b>Hand {line.number}, settled as dealt.</b> "
        f"{sentence}</details>"
        "</div>"
    )
