"""The table's drawing, pinned: the HTML the board renderer gives for many positions of every game.

Each game is dealt under each of its presets (and a few options that draw more: Nap's peep, Sir
Garnet and purchase, Pam as the trump knave, Domino Loo scored in points), at several seat counts,
and played at random to the end; at every step the table is drawn as the live table draws it (round
the cloth, from each seat, with and without the reader's pieces, open hands, the four-colour pack,
a note and a drawing laid over the middle) and as the printed views draw it (the step-through
viewer's seat, the console's and the book's seat -1 with every hand open). The digest of all of it
is pinned by game, so that a change to the drawing code that changes what a reader sees fails
here, naming the game, before a browser test's screenshot would.

A change meant to alter the drawing re-pins it: the failure prints the new digest.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence

import pytest

from loo.kits import kit
from loo.options import presets, rules_value
from loo.registry import NAMES
from widgets.draw.table_board import LIST, ROUND, board_html

NAMES_AT_TABLE = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
# Options drawn on top of the presets: what makes the table draw more (a peep, a contract's trumps,
# Pam as the trump knave, a game scored in points with no pool).
MORE_OPTIONS: dict[str, tuple[dict[str, object], ...]] = {
    "nap": (
        {"peep": True, "sir-garnet": True},
        {"purchase": True, "misery": True},
        {"kitty-mode": "dealer", "wellington": True},
    ),
    "five-card-loo": ({"pam": "trump-knave"},),
    "domino-loo": ({"domino-scoring": "points"},),
}
SEATS = {"domino-loo": (3, 4), "domino-rounce": (3, 4)}
DEALS = 3  # seeded deals of each rules and seat count

PINNED = {
    "three-card-loo": "0c7530975eae86977392e148d8766bcd",
    "five-card-loo": "0031218dc6cef7ab46c98a53e7c0a8bb",
    "irish-loo": "0cd6bcbcc3a8ea0796d2b3f881cef485",
    "nap": "b27b234c9d77663dc7eb28fc3292e78d",
    "domino-loo": "0b266a32481a238d16c11506f4d55201",
    "domino-rounce": "e5b19bb6904cfd4e9419e06eef870363",
}


def _rules(game: str) -> Iterator[object]:
    for preset in presets(game):
        yield rules_value(game, preset, {})
    for options in MORE_OPTIONS.get(game, ()):
        yield rules_value(game, presets(game)[0], options)


def _drawings(game: str) -> Iterator[str]:
    """Every drawing of the table this file pins for ``game``, in a fixed order."""
    game_kit = kit(game)
    for number, rules_obj in enumerate(_rules(game)):
        rules = game_kit.read_rules(game, rules_obj)
        for seats in SEATS.get(game, (2, 4, 5)):
            names: Sequence[str] = NAMES_AT_TABLE[:seats]
            for deal in range(DEALS):
                rng = random.Random(f"board-drawing:{game}:{number}:{seats}:{deal}")
                dealer = rng.randrange(seats)
                hand = game_kit.deal(rules, rng, seats, dealer, game_kit.pool(rules, seats) * rng.choice((1, 2)))
                step = 0
                while True:
                    yield from _positions(hand, names, step)
                    legal = hand.legal_actions()
                    if hand.is_over or not legal:
                        break
                    hand.push(rng.choice(legal))
                    step += 1


def _positions(hand: object, names: Sequence[str], step: int) -> Iterator[str]:
    seats = len(names)
    holdings = [hand.holding(p) for p in range(seats)]  # type: ignore[attr-defined]
    seat = step % seats
    view = hand.view(seat)  # type: ignore[attr-defined]
    four = step % 3 == 0
    # The printed views: the step-through viewer's seat, the console's and the book's open table.
    yield board_html(view, names, seat, show_own=True, four_colour=four, layout=LIST)
    yield board_html(view, names, seat, show_own=False, open_hands=holdings)
    yield board_html(hand.view(0), names, -1, show_own=True, open_hands=holdings, open_label=", face up")  # type: ignore[attr-defined]
    yield board_html(view, names, -1, show_own=False, open_hands=holdings, open_label="")
    # The live table round the cloth: the reader's hand drawn or left to the buttons, hands open
    # for teaching, a note and the last trick laid over the middle.
    opened = holdings if step % 2 else None
    yield board_html(view, names, seat, show_own=True, open_hands=opened, four_colour=four, layout=ROUND)
    yield board_html(
        view, names, seat, show_own=False, open_hands=opened, note="<p>Ann wins</p>", over="<i>x</i>", layout=ROUND
    )
    other = hand.view((seat + 1) % seats)  # type: ignore[attr-defined]
    yield board_html(other, names, (seat + 1) % seats, show_own=True, layout=ROUND)


def _digest(game: str) -> tuple[str, int]:
    digest = hashlib.sha256()
    count = 0
    for html in _drawings(game):
        digest.update(html.encode())
        digest.update(b"\0")
        count += 1
    return digest.hexdigest()[:32], count


@pytest.mark.parametrize("game", NAMES)
def test_the_table_is_drawn_as_pinned(game: str) -> None:
    found, count = _digest(game)
    assert count > 300, f"{game}: only {count} drawings"
    assert found == PINNED[game], f"{game}: the table's drawing changed ({count} drawings); new digest {found}"


def test_a_note_or_a_drawing_over_the_middle_goes_round_the_cloth() -> None:
    game_kit = kit("nap")
    rules = game_kit.read_rules("nap", None)
    view = game_kit.deal(rules, random.Random(1), 4, 0, 0).view(1)
    with pytest.raises(ValueError, match="round the cloth"):
        board_html(view, NAMES_AT_TABLE[:4], 1, note="<p>Ann wins</p>")
    with pytest.raises(ValueError, match="round the cloth"):
        board_html(view, NAMES_AT_TABLE[:4], 1, over="<i>x</i>", layout=LIST)
    assert "<p>Ann wins</p>" in board_html(view, NAMES_AT_TABLE[:4], 1, note="<p>Ann wins</p>", layout=ROUND)
