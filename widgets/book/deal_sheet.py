"""Printable deal sheets: the book's seeded deals written out, to lay out with a real pack.

A class can play the book's example hands with real cards. For each seed the sheet lists every
player's cards (or tiles, at the domino games) in the order the viewer shows them, the miss or
misses, the turn-up, and, where the game draws from it, the stock in order. The deal comes from
:func:`widgets.book.play_hand` with ``finish=False``, the function behind the book's step-through
viewers, so the sheet and the viewer of the same seed always hold the same deal.

The sheet is one self-contained HTML document: no script, no picture, no link out. It prints
black on white, one deal to a page, each card named in words beside its symbol, and each
player's cards in a box of their own, so the teacher can cut the page into slips.

>>> sheet = deal_sheet("three-card-loo", "peel", [12], seats=5)
>>> sheet.startswith("<!DOCTYPE html>"), "Q♥</span> queen of hearts" in sheet  # seed 12 turns up the queen
(True, True)
>>> link = download_link(sheet)
>>> link.startswith('<a download="lanterloo-deals.html" href="data:text/html;charset=utf-8;base64,')
True
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape
from typing import Any

from loo.core.cards import Card
from loo.core.protocols import MissHand
from loo.core.rules import RecordError
from loo.core.tiles import NUMBER_PLURALS, Tile
from loo.kits import GAMES, kit
from loo.options import GAME_NAMES, PRESET_LABELS
from loo.registry import entry
from widgets.book import NAMES, play_hand

__all__ = ["deal_sheet", "download_link", "piece_text", "sheet_preview"]

# Games whose players draw fresh cards from the stock in order (exchanges, purchases): the sheet
# lists the stock top first so the real table draws what the viewer shows.
_STOCK_DRAWN = ("five-card-loo", "irish-loo")

_STYLE = """
@page { margin: 12mm; }
html { color: #000; background: #fff; }
body { font-family: Georgia, "Times New Roman", serif; font-size: 13pt; line-height: 1.3; margin: 1em auto;
  max-width: 46em; padding: 0 1em; }
h1 { font-size: 18pt; margin: 0 0 .15em; }
h2 { font-size: 13pt; margin: 0; }
p { margin: .2em 0; }
.intro { border-bottom: 2px solid #000; padding-bottom: .4em; margin-bottom: .6em; }
.deal { break-after: page; page-break-after: always; padding-top: .3em; }
.deal:last-of-type { break-after: auto; page-break-after: auto; }
.box { border: 2px dashed #000; border-radius: 6px; padding: .25em .7em; margin: .45em 0;
  break-inside: avoid; page-break-inside: avoid; }
.part { border-style: solid; }
.pieces { list-style: none; margin: .1em 0 0; padding: 0; font-size: 16pt; }
.pieces li { display: inline-block; margin: 0 1.3em .1em 0; white-space: nowrap; }
.sym { font-weight: bold; font-family: "DejaVu Sans", Arial, sans-serif; }
.stock { columns: 4 8em; font-size: 11pt; margin: .1em 0 0 1.6em; padding: 0; }
.stock li { break-inside: avoid; }
.note { font-size: 11pt; font-weight: normal; }
@media print { body { max-width: none; margin: 0; padding: 0; } .intro { font-size: 11pt; } }
"""


def piece_text(piece: Card | Tile) -> tuple[str, str]:
    """A card or tile as the sheet writes it: its symbol and its name in words.

    >>> piece_text(Card.parse("QH")), piece_text(Card.parse("10S")), piece_text(Tile.parse("4-4"))
    (('Q♥', 'queen of hearts'), ('10♠', 'ten of spades'), ('4-4', 'double four'))
    """
    if isinstance(piece, Card):
        return piece.rank.symbol + piece.suit.symbol, piece.name
    return str(piece), piece.name


def _pieces(pieces: Sequence[Card | Tile], *, marks: dict[Card | Tile, str] | None = None) -> str:
    items = []
    for piece in pieces:
        symbol, name = piece_text(piece)
        mark = f" ({escape(marks[piece])})" if marks and piece in marks else ""
        items.append(
            f'<li data-piece="{escape(str(piece))}"><span class="sym">{escape(symbol)}</span> {escape(name)}{mark}</li>'
        )
    return f'<ul class="pieces">{"".join(items)}</ul>'


def _box(title: str, body: str, *, note: str = "", part: str | None = None, seat: int | None = None) -> str:
    attrs = f' data-part="{part}"' if part else f' data-seat="{seat}"'
    kind = "box part" if part else "box seat"
    aside = f' <span class="note">({escape(note)})</span>' if note else ""
    return f'<div class="{kind}"{attrs}><h2>{title}{aside}</h2>{body}</div>'


def _stock(pieces: Sequence[Card | Tile], what: str) -> str:
    items = "".join(f'<li data-piece="{escape(str(p))}">{escape(" ".join(piece_text(p)))}</li>' for p in pieces)
    note = f"{what}; stack them face down, the first on top"
    return _box("The stock, top first", f'<ol class="stock">{items}</ol>', note=note, part="stock")


def _section(game: str, hand: Any, seed: int, label: str) -> str:
    names = hand.names
    dealer = hand.dealer
    n = len(names)
    eldest = (dealer + 1) % n
    head = (
        f'<section class="deal" data-seed="{seed}" id="seed-{seed}">'
        f"<h1>{escape(GAME_NAMES[game])}: seed {seed}</h1>"
        f"<p>Rules: {escape(label)}. {n} players. {escape(names[dealer])} deals; "
        f"{escape(names[eldest])}, on the dealer's left, is the eldest hand and speaks first.</p>"
    )
    pam = hand.pam_card if isinstance(hand, MissHand) else None
    marks: dict[Card | Tile, str] = {pam: "Pam"} if pam is not None else {}
    boxes = []
    for seat in range(n):
        role = " (eldest hand)" if seat == eldest else " (dealer)" if seat == dealer else ""
        pieces = hand.dealt[seat]
        body = _pieces(pieces, marks=marks) if pieces is not None else "<p>Sits out this deal: no cards.</p>"
        boxes.append(_box(f"{escape(names[seat])}{role}", body, seat=seat))
    boxes += _MIDDLE[entry(game).package](game, hand, marks)
    foot = (
        f'<p class="note">Made by Lanterloo from seed {seed}. The book\'s step-through of the same game, '
        f"rules, players and seed starts from exactly these {entry(game).pieces}.</p>"
    )
    return head + "".join(boxes) + foot + "</section>"


# What lies on the table beside the players' hands, drawn by each game package's own function.
def _dominoes_middle(game: str, hand: Any, marks: dict[Card | Tile, str]) -> list[str]:
    trumps = f"face up all hand; trumps are the {NUMBER_PLURALS[hand.turnup.high]}, its higher end"
    boxes = [_box("The turn-up", _pieces([hand.turnup]), note=trumps, part="turnup")]
    spare = entry(game).spare
    for i, miss in enumerate(hand.misses, start=1):
        if len(hand.misses) == 1:
            title, note = f"The {spare}", f"face down; the player who takes the {spare} gets these {len(miss)}"
        else:
            title = f"{spare.capitalize()} {i}"
            note = f"face down; the {_ordinal(i)} player to take a {spare} gets these {len(miss)}"
        boxes.append(_box(title, _pieces(miss), note=note, part=f"{spare}-{i}"))
    unused = len(hand.stock) - sum(len(m) for m in hand.misses)
    if unused:
        boxes.append(f'<p class="note">The other {unused} tiles stay face down in the boneyard, unused.</p>')
    return boxes


def _nap_middle(game: str, hand: Any, marks: dict[Card | Tile, str]) -> list[str]:
    boxes = ['<p class="note">No card is turned up at Nap: the first card led makes its suit trumps.</p>']
    if hand.garnet:
        boxes.append(_box("Sir Garnet's extra hand", _pieces(hand.garnet), part="garnet"))
    if hand.peep_card is not None:
        boxes.append(_box("The peep card", _pieces([hand.peep_card]), part="peep"))
    if hand.rules.purchase:
        boxes.append(_stock(hand.stock, "cards bought are dealt from here in turn"))
    return boxes


def _loo_middle(game: str, hand: Any, marks: dict[Card | Tile, str]) -> list[str]:
    boxes = []
    if hand.miss:
        note = "face down beside the dealer; nobody looks at it"
        boxes.append(_box("The miss", _pieces(hand.miss), note=note, part="miss"))
    trumps = f"face up on the stock; trumps are {hand.turnup.suit.plural}"
    boxes.append(_box("The turn-up", _pieces([hand.turnup], marks=marks), note=trumps, part="turnup"))
    if game in _STOCK_DRAWN:
        boxes.append(_stock(hand.stock, "exchanges are dealt from here in turn"))
    return boxes


_MIDDLE = {"loo.games.loo": _loo_middle, "loo.games.nap": _nap_middle, "loo.games.dominoes": _dominoes_middle}


def _ordinal(i: int) -> str:
    return ("first", "second", "third", "fourth")[i - 1] if i <= 4 else f"{i}th"


def _check(game: str, preset: str | None, seeds: Sequence[int], seats: int, names: Sequence[str] | None) -> Any:
    """The rules to deal by, once every argument is known good; a ValueError names the one that is not."""
    if game not in GAMES:
        raise ValueError(f"game: unknown game {game!r}; the games are {', '.join(GAMES)}")
    try:
        rules = kit(game).read_rules(game, preset)
    except RecordError as error:
        raise ValueError(f"preset: {error.message}") from None
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) or not seeds:
        raise ValueError(f"seeds: give a list of one or more whole numbers, not {seeds!r}")
    for seed in seeds:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seeds: {seed!r} is not a whole number")
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < 2:
        raise ValueError(f"seats: {seats!r} is out of range; every game needs at least two players")
    if names is not None:
        if isinstance(names, str) or len(names) != seats:
            raise ValueError(f"names: give {seats} names, one for each seat, not {names!r}")
        if any(not isinstance(name, str) or not name.strip() for name in names):
            raise ValueError(f"names: every name must be some text, not {names!r}")
    return rules


def deal_sheet(
    game: str,
    preset: str | None,
    seeds: Sequence[int],
    *,
    seats: int,
    names: Sequence[str] | None = None,
) -> str:
    """A printable HTML document with one page per seed: each player's cards, the miss and the turn-up.

    ``game``, ``preset``, ``seats`` and ``names`` are those of :func:`widgets.book.play_hand` (the
    last seat deals, so the first is the eldest hand); ``names`` defaults to the book's Ann, Ben,
    Cat and so on. A ``ValueError`` names the argument at fault: an unknown game or preset, no
    seeds, or more players than the pack or the set can deal to.

    >>> deal_sheet("domino-loo", "celko", [53], seats=5)
    Traceback (most recent call last):
    ...
    ValueError: seats: 5 is out of range for Domino Loo: the domino games are for two to four players (DL-EQP-02), not 5
    """
    rules = _check(game, preset, seeds, seats, names)
    who = list(names) if names is not None else [*NAMES, *(f"Player {i + 1}" for i in range(len(NAMES), seats))][:seats]
    label = f"{PRESET_LABELS.get(rules.preset_name, rules.preset_name)}; preset {rules.preset_name}"
    sections = []
    for seed in seeds:
        try:
            hand = play_hand(game, preset, seed=seed, seats=seats, names=who, finish=False)
        except ValueError as error:  # the pack or the set is too small for this many (AMB-02, DL-EQP-02)
            raise ValueError(f"seats: {seats} is out of range for {GAME_NAMES[game]}: {error}") from None
        sections.append(_section(game, hand, seed, label))
    seed_list = ", ".join(str(s) for s in seeds)
    title = f"Lanterloo deal sheets: {GAME_NAMES[game]}, seed{'s' if len(seeds) > 1 else ''} {seed_list}"
    piece = entry(game).pieces
    intro = (
        '<header class="intro">'
        f"<p><strong>{escape(title)}</strong></p>"
        f"<p>Lay out each deal with a real {'double-six set' if piece == 'tiles' else 'pack'}: give every "
        f"player the {piece} in their box (cut along the dashed lines if you like), then place the rest as "
        f"the boxes with solid lines say. Play the hand, then compare it with the book's step-through of "
        f"the same seed.</p></header>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en-GB"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{intro}{''.join(sections)}</body></html>\n"
    )


def download_link(sheet: str, filename: str = "lanterloo-deals.html", text: str = "Download the deal sheets") -> str:
    """An ``<a download>`` link carrying ``sheet`` in a data: URI, so a static page needs no file beside it."""
    data = base64.b64encode(sheet.encode("utf-8")).decode("ascii")
    return f'<a download="{escape(filename)}" href="data:text/html;charset=utf-8;base64,{data}">{escape(text)}</a>'


def sheet_preview(sheet: str, *, title: str, height: int = 520) -> str:
    """``sheet`` framed in a page as it will print, its styles kept apart from the page's own."""
    return (
        f'<div class="loo-deal-sheet-preview"><iframe title="{escape(title)}" srcdoc="{escape(sheet, quote=True)}" '
        f'style="width:100%;height:{int(height)}px;border:1px solid #b9c3cf;border-radius:4px;background:#fff">'
        "</iframe></div>"
    )
