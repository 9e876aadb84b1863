"""What the step-through viewer (:mod:`widgets.views.step_viewer`) draws of a hand shown face up: every
seat's pieces on the board, the cards dealt aside, the misses still to be taken, a trick just won,
and the settlement.

Each function reads a hand through the core's protocols (:mod:`loo.core.protocols`), and asks
for what only some games have (Nap's cards set aside, Loo's miss, the dominoes' misses, a
settlement in chips or in points) by those parts' protocols, never by the game's name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from html import escape

from loo.core.protocols import (
    CallingView,
    CallSettlement,
    ChipSettlement,
    ExtraCardsHand,
    FlushSettlement,
    Hand,
    MissesHand,
    MissesView,
    MissHand,
    MissView,
    PointsSettlement,
    Settlement,
    TileRules,
    TrickRecord,
)
from loo.svg import hand_svg
from widgets.draw.board import piece_html, pieces_html
from widgets.draw.table_board import board_html
from widgets.table.chips import HandLine, account_columns, points_words

__all__ = ["CALL_WORDS", "face_up_board", "miss_html", "set_aside_html", "settlement_html", "trick_html"]

CALL_WORDS = {  # a Nap call as a sentence says it ("calls three")
    "1": "one",
    "2": "two",
    "3": "three",
    "4": "four",
    "misery": "misery",
    "nap": "Nap",
    "wellington": "Wellington",
}


def face_up_board(hand: Hand, names: tuple[str, ...]) -> str:
    """Every seat's hand face up on the public table (the book's view of a finished record).

    The table is drawn from a view as nobody in particular (seat -1: no "you", no face-down backs),
    with every seat's pieces given to draw face up.
    """
    view = hand.view(hand.to_act if hand.to_act is not None else hand.dealer)
    if isinstance(view, MissView) and view.miss_left:
        view = dataclasses.replace(view, miss_left=0)  # type: ignore[type-var]  # drawn face up by miss_html
    if isinstance(view, MissesView) and view.misses_left:
        view = dataclasses.replace(view, misses_left=0)  # type: ignore[type-var]  # the domino misses (dummies) too
    shown = [hand.holding(p) for p in range(len(names))]  # the engine's full knowledge: all public here
    return board_html(view, names, -1, show_own=False, open_hands=shown, open_label="")


def set_aside_html(hand: Hand) -> str:
    """Nap's cards dealt aside, face up (only when every hand is shown): Sir Garnet's extra hand
    while the calling may still take it, and the peep card until it is taken or play begins."""
    view = hand.view(hand.dealer)
    if not isinstance(hand, ExtraCardsHand) or not isinstance(view, CallingView):
        return ""  # a game with no cards dealt aside
    phase = str(hand.phase)
    out = []
    garnet = hand.garnet
    if garnet and view.garnet_by is None and phase in ("purchase", "call"):
        names = ", ".join(c.name for c in garnet)
        label = f"Sir Garnet's extra hand, face down on the table: {names}"
        drawn = hand_svg(list(garnet), width=40, label=label)
        out.append(f'<div class="loo-steps-miss">Sir Garnet\'s extra hand: {drawn}</div>')
    peep = hand.peep_card
    if peep is not None and not view.peep_taken and phase in ("purchase", "call", "garnet", "exchange"):
        who = [hand.names[p] for p, looked in enumerate(view.peeped) if looked]
        seen = f" (seen by {', '.join(who)})" if who else ""
        label = f"the peep card, face down on the table{seen}: {peep.name}"
        drawn = hand_svg([peep], width=40, label=label)
        out.append(f'<div class="loo-steps-miss">The peep card{escape(seen)}: {drawn}</div>')
    return "".join(out)


def miss_html(hand: Hand) -> str:
    """The untaken miss of three-card Loo, or the domino misses (Rounce's dummies) still to be taken,
    face up (only when every hand is shown)."""
    if isinstance(hand, MissesHand):
        misses = hand.misses
        if str(hand.phase) != "declare":
            return ""
        word = "dummy" if isinstance(hand.rules, TileRules) and hand.rules.dummies else "miss"
        left = misses[len(hand.misses_taken) :]
        drawn = []
        for k, tiles in enumerate(left, start=1):
            named = ", ".join(t.name for t in tiles)
            order = ("next", "second", "third", "fourth", "fifth")[k - 1] if k <= 5 else f"number {k}"
            label = f"the {word} to be taken {order}: {named}"
            drawn.append(pieces_html(list(tiles), width=40, label=label))
        title = ("The dummies" if word == "dummy" else "The misses") if len(left) > 1 else f"The {word}"
        return f'<div class="loo-steps-miss">{title}: {" ".join(drawn)}</div>' if drawn else ""
    if not isinstance(hand, MissHand):
        return ""  # a game without Loo's miss
    miss = hand.miss
    if not miss or hand.miss_taken_by is not None or hand.playing_for_pool or str(hand.phase) != "declare":
        return ""
    names = ", ".join(c.name for c in miss)
    return f'<div class="loo-steps-miss">The miss: {hand_svg(list(miss), width=40, label=f"the miss: {names}")}</div>'


def trick_html(trick: TrickRecord, names: Sequence[str]) -> str:
    plays = " ".join(
        f'<span class="loo-play">{escape(names[p])}: {piece_html(piece)}</span>' for p, piece in trick.plays
    )
    return f'<div class="loo-steps-trick">{escape(names[trick.winner])} wins the trick: {plays}</div>'


def _chips(n: int) -> str:
    return f"{n} chip{'' if n == 1 else 's'}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("\u2212" + str(-n) if n < 0 else "0")


def settlement_html(settlement: Settlement, names: Sequence[str], line: HandLine | None = None) -> str:
    """Who won what: a sentence on how the hand ended, and a row per seat. With the hand's ``line`` of
    a game's accounts (:mod:`widgets.table.chips`) the rows are its chips in their parts, the dealer's stake
    among them, or its points in words; without one (a hand alone), the settlement's own figures."""
    n = len(names)
    reason = settlement.reason
    lines = []
    chips = settlement if isinstance(settlement, ChipSettlement) else None
    payouts = chips.payouts if chips is not None else None
    takers = [names[p] for p in range(n) if payouts and payouts[p]]
    if isinstance(settlement, CallSettlement):  # Nap
        if settlement.caller is None or settlement.made is None:
            lines.append(
                "Nobody called: the cards are dealt again." if reason == "redeal" else f"The hand ends: {reason}."
            )
        else:
            call = CALL_WORDS.get(str(settlement.call), str(settlement.call))
            outcome = "made it" if settlement.made else "failed"
            if reason == "caller-revoke":
                outcome = "revoked, and so loses the call"
            lines.append(f"{names[settlement.caller]} called {call} and {outcome}.")
    elif reason == "conceded":
        lines.append(f"{' and '.join(takers) or 'Nobody'} was left alone to play and takes the pool without play.")
    elif reason == "dealer-uncontested":
        lines.append(f"Everyone before the dealer threw up, so {' and '.join(takers) or 'the dealer'} takes the pool.")
    elif reason == "flush" and isinstance(settlement, FlushSettlement) and settlement.flush:
        seat, kind = settlement.flush
        lines.append(f"{names[seat]} shows a flush ({kind}) and sweeps the pool.")
    elif reason == "single":
        lines.append(f"The single cards decide: {' and '.join(takers) or 'nobody'} takes the pool.")
    looed = chips.looed if chips is not None else None
    if looed is not None and not isinstance(settlement, CallSettlement):
        lines.append("Looed: " + ", ".join(names[p] for p in looed) + "." if looed else "Nobody is looed.")
    heads, columns = ["Player", "Tricks"], [[str(x) for x in settlement.tricks_won]]
    if line is not None:
        more_heads, more = account_columns(line, names)
        heads += more_heads
        columns += more
    else:
        points = settlement.points if isinstance(settlement, PointsSettlement) else None
        if points is not None:  # at Rounce a score counts down, so fewer points is better
            scoring = str(getattr(settlement, "scoring", "points"))
            heads.append("Points this hand")
            columns.append([points_words(x, scoring) for x in points])
        else:
            if chips is not None and payouts is not None:
                heads += ["From the pool", "Looed for"]
                columns.append([str(x) for x in payouts])
                columns.append([str(x) for x in chips.loos])
            heads.append("Net chips")
            columns.append([_signed(x) for x in settlement.net()])
            if chips is not None:  # a hand alone: what was paid before its deal is the pool's, not counted here
                lines.append("The nets leave out the dealer's stake, paid into the pool before the deal.")
    head = "".join(f'<th scope="col">{h}</th>' for h in heads)
    rows = "".join(
        f'<tr><th scope="row">{escape(names[p])}</th>' + "".join(f"<td>{c[p]}</td>" for c in columns) + "</tr>"
        for p in range(n)
    )
    kitty = settlement.kitty if isinstance(settlement, CallSettlement) else True
    if kitty and not (line is not None and line.in_points):
        lines.append(f"The next pool starts with {_chips(settlement.next_pool)}.")
    text = "".join(f"<p>{escape(said)}</p>" for said in lines)
    return (
        f'<div class="loo-steps-settle"><p class="loo-steps-settle-head">Settlement</p>{text}'
        f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"
    )
