"""What the teacher's console hands out (issue 29): a shared table's people's seats with a button that
frees a held one, and, for tables just opened, slips to print (one a player) and a projector view of
their codes."""

from __future__ import annotations

import html
import time
from collections.abc import Sequence

from widgets.server.classroom import qr_svg
from widgets.server.shared_pages import seat_link
from widgets.store.seating import PERSON, SeatRow, shown_code
from widgets.table.model import DEFAULT_NAMES


def seats_html(rows: list[SeatRow], names: Sequence[str], free: str) -> str:
    """A shared table's people's seats, each held or free, with a button that frees a held one."""
    people = [r for r in rows if r.player == PERSON]
    if not people:
        return ""
    now = time.time()
    action = html.escape(free)
    items = []
    for row in people:
        name = html.escape(names[row.seat] if row.seat < len(names) else f"Seat {row.seat + 1}")
        if row.claimed_by is None:
            items.append(f"<li>{name}: free (the next browser to open its link has it)</li>")
            continue
        state = "its page is open" if row.here(now) else "its page has gone; it comes free by itself soon"
        items.append(
            f'<li>{name}: held, {state} <form method="post" action="{action}" class="free-seat" '
            f'style="display:inline"><input type="hidden" name="seat" value="{row.seat}">'
            f'<button aria-label="Free {name}\'s seat">Free this seat</button></form></li>'
        )
    return (
        '<h2>Seats</h2><ul class="seats">' + "".join(items) + "</ul>"
        '<p class="note">Freeing a seat lets the next browser to open its link have it: for a student whose '
        "browser crashed, or who moved to another device. Their page asks again every few seconds.</p>"
    )


# The page of tables just opened: on a projector, the codes and QR codes alone (the links are for
# copying); printed, the slips alone, cut along their dashed lines and handed out.
OPENED_STYLE = (
    "<style>.slips{display:none}"
    "html.loo-projector .seat-links td:last-child,html.loo-projector .seat-links th:last-child,"
    "html.loo-projector .opened-tools .note,html.loo-projector .deal-kept{display:none}"
    "@media print{main>*:not(.slips){display:none!important}"
    ".slips{display:grid;grid-template-columns:1fr 1fr;gap:0}"
    ".slip{border:1px dashed #000;padding:.4cm;break-inside:avoid;display:flex;gap:.4cm;align-items:center}"
    ".slip svg{width:3cm;height:3cm;flex:none}.slip p{margin:.1cm 0}.slip .slip-code{font-size:20pt;"
    "font-weight:700;letter-spacing:.08em}}</style>"
)


def slips_html(
    game: str, tables: list[tuple[int, str, list[str], list[str], list[str]]], host: str, base: str, join: str
) -> str:
    """A slip for each person's seat of each table (number, id, tokens, players, join codes): the table
    and seat, the address to open and the code to type, and a QR code of the seat's link. Printed only."""
    slips = []
    for number, table_id, tokens, players, codes in tables:
        for seat, (token, player, code) in enumerate(zip(tokens, players, codes, strict=True)):
            if player != PERSON:
                continue
            name = DEFAULT_NAMES[seat] if seat < len(DEFAULT_NAMES) else f"Seat {seat + 1}"
            link = host + seat_link(game, table_id, token, base=base)
            qr = qr_svg(link, label=f"Table {number}, {name}: a QR code of the seat's link")
            slips.append(
                f'<div class="slip"><div><p>Table {number}, the seat of {html.escape(name)}</p>'
                f"<p>Open <strong>{html.escape(join)}</strong> and type</p>"
                f'<p class="slip-code">{shown_code(code)}</p><p>or scan this code.</p></div>{qr}</div>'
            )
    return '<section class="slips" aria-label="Slips to print">' + "".join(slips) + "</section>"
