"""Cards and dominoes drawn as SVG with the standard library alone.

Every function returns a string of markup that a notebook, a static page or
a widget can show as it is.  Each card or tile carries its accessible name (a
``<title>`` and an ``aria-label``), so a screen reader says "queen of
hearts" or "six-three" rather than nothing.  The markup uses no ``id``
attributes, so any number of cards can share a page, and the same value
always gives the same markup (:func:`share_drawings` alone adds ids, from a
prefix its caller makes unique).

>>> svg = card_svg(Card.parse("QH"))
>>> svg.startswith("<svg") and 'aria-label="queen of hearts"' in svg
True
>>> 'aria-label="six-three"' in tile_svg(Tile.parse("6-3"))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Protocol

from loo.core.cards import Card, Hand, Rank, Suit
from loo.core.drawers import register
from loo.core.tiles import Tile


class DrawnDeal(Protocol):
    """What :func:`deal_html` reads of a deal (:class:`loo.games.loo.dealing.Deal` is one): drawing knows
    no game's deal."""

    @property
    def hands(self) -> Sequence[Hand]: ...

    @property
    def miss(self) -> Hand: ...

    @property
    def turnup(self) -> Card: ...

    @property
    def dealer(self) -> int: ...

    @property
    def eldest(self) -> int: ...


# One card is drawn in a 100 x 140 box, the proportions of a real playing card.
CARD_W, CARD_H = 100, 140
RED, BLACK = "#b3122e", "#1a1a1a"
# The four-colour deck's extra inks; like red and black, each keeps a contrast of at least
# 6:1 with the face (WCAG AA asks 4.5:1), so the corner index stays legible.
BLUE, GREEN = "#1d4fb8", "#1a6b35"
FACE_FILL = "#fffdf7"
TWO_COLOURS = {Suit.CLUBS: BLACK, Suit.DIAMONDS: RED, Suit.HEARTS: RED, Suit.SPADES: BLACK}
FOUR_COLOURS = {Suit.CLUBS: GREEN, Suit.DIAMONDS: BLUE, Suit.HEARTS: RED, Suit.SPADES: BLACK}
BACK_FILL, BACK_LINE = "#24456b", "#c9a646"

# Suit outlines in a unit box (0..1), drawn as paths so no font is needed.
_SUIT_PATHS = {
    Suit.DIAMONDS: "M.5 0L.88 .5L.5 1L.12 .5Z",
    Suit.HEARTS: (
        "M.5 .95C.12 .62 0 .45 0 .28C0 .1 .14 0 .28 0C.4 0 .47 .07 .5 .17"
        "C.53 .07 .6 0 .72 0C.86 0 1 .1 1 .28C1 .45 .88 .62 .5 .95Z"
    ),
    Suit.SPADES: (
        "M.5 0C.88 .33 1 .48 1 .62C1 .78 .88 .86 .75 .86C.64 .86 .56 .8 .53 .72"
        "L.62 1H.38L.47 .72C.44 .8 .36 .86 .25 .86C.12 .86 0 .78 0 .62C0 .48 .12 .33 .5 0Z"
    ),
    Suit.CLUBS: (
        "M.5 .02A.21 .21 0 1 1 .5 .44A.21 .21 0 1 1 .5 .02Z"
        "M.27 .36A.21 .21 0 1 1 .27 .78A.21 .21 0 1 1 .27 .36Z"
        "M.73 .36A.21 .21 0 1 1 .73 .78A.21 .21 0 1 1 .73 .36Z"
        "M.45 .5H.55L.63 1H.37Z"
    ),
}

# Pip centres for the number cards, in card coordinates (the top half; pips
# below the middle line are drawn upside down, as on a real card).
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(50, 30), (50, 110)],
    3: [(50, 30), (50, 70), (50, 110)],
    4: [(30, 30), (70, 30), (30, 110), (70, 110)],
}
_PIPS[5] = _PIPS[4] + [(50, 70)]
_PIPS[6] = _PIPS[4] + [(30, 70), (70, 70)]
_PIPS[7] = _PIPS[6] + [(50, 50)]
_PIPS[8] = _PIPS[6] + [(50, 50), (50, 90)]
_PIPS[9] = [(float(x), y) for x in (30, 70) for y in (30, 56.7, 83.3, 110)] + [(50, 70)]
_PIPS[10] = [(float(x), y) for x in (30, 70) for y in (30, 56.7, 83.3, 110)] + [(50, 43), (50, 97)]


def suit_colour(suit: Suit, *, four_colour: bool = False) -> str:
    """The ink of a suit: red and black, or with ``four_colour`` blue diamonds and green clubs.

    >>> suit_colour(Suit.DIAMONDS), suit_colour(Suit.DIAMONDS, four_colour=True)
    ('#b3122e', '#1d4fb8')
    """
    return (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]


def _pip(suit: Suit, cx: float, cy: float, size: float, *, flip: bool = False) -> str:
    """One suit symbol of the given size centred on (cx, cy)."""
    x, y = cx - size / 2, cy - size / 2
    transform = f"translate({x:g} {y:g}) scale({size:g})"
    if flip:
        transform = f"rotate(180 {cx:g} {cy:g}) " + transform
    return f'<path transform="{transform}" d="{_SUIT_PATHS[suit]}"/>'


def _corner(card: Card) -> str:
    """The index in the top-left corner: rank above a small suit symbol."""
    size = 15 if card.rank == Rank.TEN else 18
    return (
        f'<text x="10" y="21" text-anchor="middle" font-size="{size}" '
        f'font-family="Georgia, \'DejaVu Serif\', serif" font-weight="bold">{card.rank.symbol}</text>'
        + _pip(card.suit, 10, 31, 12)
    )


def _face(card: Card, colour: str) -> str:
    """The middle of the card: pips for number cards, a framed figure for court cards."""
    if card.rank == Rank.ACE:
        return _pip(card.suit, 50, 70, 44)
    if card.rank.is_court:
        frame = f'<rect x="22" y="24" width="56" height="92" rx="4" fill="none" stroke="{colour}" stroke-width="1.5"/>'
        letter = (
            f'<text x="50" y="84" text-anchor="middle" font-size="40" '
            f"font-family=\"Georgia, 'DejaVu Serif', serif\">{card.rank.symbol}</text>"
        )
        return frame + letter + _pip(card.suit, 50, 40, 16) + _pip(card.suit, 50, 100, 16, flip=True)
    return "".join(_pip(card.suit, x, y, 17, flip=y > 70) for x, y in _PIPS[int(card.rank)])


def _card_group(card: Card, x: float = 0, y: float = 0, *, four_colour: bool = False) -> str:
    """The card's drawing as an SVG group with its accessible name."""
    name = escape(card.name)
    colour = suit_colour(card.suit, four_colour=four_colour)
    corner = _corner(card)
    return (
        f'<g transform="translate({x:g} {y:g})" role="img" aria-label="{name}">'
        f"<title>{name}</title>"
        f'<rect x=".5" y=".5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="7" '
        f'fill="{FACE_FILL}" stroke="#555" stroke-width="1"/>'
        f'<g fill="{colour}">{corner}'
        f'<g transform="rotate(180 50 70)">{corner}</g>'
        f"{_face(card, colour)}</g></g>"
    )


def _back_group(x: float = 0, y: float = 0, label: str = "a card face down") -> str:
    """The back of a card: shown for a card the viewer may not see."""
    stripes = "".join(
        f'<line x1="{i}" y1="8" x2="{i - 40}" y2="132" stroke="{BACK_LINE}" stroke-width="1.2" opacity=".55"/>'
        for i in range(20, 150, 10)
    )
    return (
        f'<g transform="translate({x:g} {y:g})" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>"
        f'<rect x=".5" y=".5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="7" fill="#fff" stroke="#555"/>'
        f'<svg x="8" y="8" width="84" height="124" viewBox="8 8 84 124">'
        f'<rect x="8" y="8" width="84" height="124" rx="4" fill="{BACK_FILL}"/>{stripes}</svg>'
        f'<rect x="8" y="8" width="84" height="124" rx="4" fill="none" stroke="{BACK_LINE}" stroke-width="2"/>'
        f"</g>"
    )


def _svg(body: str, width: float, height: float, scale: float, label: str, role: str, kind: str = "loo-cards") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{kind}" role="{role}" '
        f'aria-label="{escape(label)}" width="{width * scale:g}" height="{height * scale:g}" '
        f'viewBox="0 0 {width:g} {height:g}">{body}</svg>'
    )


def card_svg(card: Card, *, width: float = 72, four_colour: bool = False) -> str:
    """One card, ``width`` pixels wide; ``four_colour`` inks diamonds blue and clubs green."""
    return _svg(_card_group(card, four_colour=four_colour), CARD_W, CARD_H, width / CARD_W, card.name, "img")


def back_svg(*, width: float = 72, label: str = "a card face down") -> str:
    """The back of one card."""
    return _svg(_back_group(label=label), CARD_W, CARD_H, width / CARD_W, label, "img")


def hand_svg(
    cards: Sequence[Card | None],
    *,
    width: float = 72,
    overlap: float = 0.0,
    label: str | None = None,
    four_colour: bool = False,
) -> str:
    """A row of cards, ``width`` pixels per card; ``None`` draws a card face down.

    ``overlap`` is the fraction of each card covered by the next (0 lays them
    side by side, 0.5 fans them as a player holds them).
    """
    gap = 8.0
    step = CARD_W * (1 - overlap) + (gap if overlap == 0 else 0)
    groups = [
        _card_group(c, i * step, four_colour=four_colour) if c is not None else _back_group(i * step)
        for i, c in enumerate(cards)
    ]
    total_w = CARD_W + step * (len(cards) - 1) if cards else CARD_W
    if label is None:
        names = [c.name if c is not None else "a card face down" for c in cards]
        label = f"{len(cards)} cards: " + ", ".join(names) if cards else "no cards"
    return _svg("".join(groups), total_w, CARD_H, width / CARD_W, label, "group")


def deal_html(
    deal: DrawnDeal, *, names: Sequence[str] | None = None, show_miss: bool = False, four_colour: bool = False
) -> str:
    """A deal laid out seat by seat: each hand face up, the miss face down, the turn-up face up."""
    seats = len(deal.hands)
    names = list(names) if names is not None else [f"Seat {i + 1}" for i in range(seats)]
    rows = []
    for seat, hand in enumerate(deal.hands):
        marks = []
        if seat == deal.dealer:
            marks.append("dealer")
        if seat == deal.eldest:
            marks.append("eldest hand")
        tag = f" ({', '.join(marks)})" if marks else ""
        label = f"{names[seat]}: " + ", ".join(hand.names())
        rows.append(
            f'<div class="loo-seat"><div class="loo-seat-name">{escape(names[seat])}{escape(tag)}</div>'
            f"{hand_svg(hand.cards, width=56, label=label, four_colour=four_colour)}</div>"
        )
    miss_cards: list[Card | None] = list(deal.miss.cards) if show_miss else [None] * len(deal.miss)
    miss_label = None if show_miss else "the miss: three cards face down"
    rows.append(
        f'<div class="loo-seat"><div class="loo-seat-name">The miss</div>'
        f"{hand_svg(miss_cards, width=56, label=miss_label, four_colour=four_colour)}</div>"
    )
    rows.append(
        f'<div class="loo-seat"><div class="loo-seat-name">Turn-up (trumps: {deal.turnup.suit.plural})</div>'
        f"{card_svg(deal.turnup, width=56, four_colour=four_colour)}</div>"
    )
    return (
        '<div class="loo-deal" style="display:flex;flex-wrap:wrap;gap:12px 20px;'
        'font-family:system-ui,sans-serif;font-size:14px">' + "".join(rows) + "</div>"
    )


# Dominoes.  A tile is drawn lying down, 200 x 100, high end on the left (standing up it is
# 100 x 200, high end on top): two square halves split by a groove, black pips on ivory.
TILE_LONG, TILE_SHORT = 200, 100
TILE_FILL, TILE_EDGE, PIP_INK = "#f7f1df", "#5f5646", "#1a1a1a"
_PIP_R = 8.5
_TILE_GAP = 12.0  # between tiles in a row, in tile units

# Pip places in a half standing up, on a 3 x 3 grid of (column, row) steps from the centre:
# the layouts of a die, with the six as two columns of three along the tile.
_TILE_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
_PIP_STEP = 24.0


def _tile_frame(fill: str, edge: str, vertical: bool) -> str:
    w, h = (TILE_SHORT, TILE_LONG) if vertical else (TILE_LONG, TILE_SHORT)
    return (
        f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="12" '
        f'fill="{fill}" stroke="{edge}" stroke-width="3"/>'
    )


def _tile_half(number: int, ox: float, oy: float, vertical: bool) -> str:
    """The pips of one end, in the 100 x 100 square whose corner is (ox, oy)."""
    circles = []
    for col, row in _TILE_PIPS[number]:
        # Lying down, the half turns a quarter: the six's columns become rows along the tile.
        dx, dy = (col, row) if vertical else (row, col)
        cx, cy = ox + 50 + dx * _PIP_STEP, oy + 50 + dy * _PIP_STEP
        circles.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{_PIP_R:g}"/>')
    return "".join(circles)


def _tile_group(tile: Tile, x: float = 0, *, vertical: bool = False, label: str | None = None) -> str:
    """A tile's drawing as an SVG group with its accessible name."""
    name = escape(tile.name if label is None else label)
    second = (0, 100) if vertical else (100, 0)
    groove = (
        '<line x1="14" y1="100" x2="86" y2="100"' if vertical else '<line x1="100" y1="14" x2="100" y2="86"'
    ) + f' stroke="{TILE_EDGE}" stroke-width="3" stroke-linecap="round"/>'
    return (
        f'<g transform="translate({x:g} 0)" role="img" aria-label="{name}"><title>{name}</title>'
        f"{_tile_frame(TILE_FILL, TILE_EDGE, vertical)}{groove}"
        f'<g fill="{PIP_INK}">{_tile_half(tile.high, 0, 0, vertical)}'
        f"{_tile_half(tile.low, *second, vertical)}</g></g>"
    )


def _tile_back_group(x: float = 0, *, vertical: bool = False, label: str = "a tile face down") -> str:
    """The back of a tile, plain but for an inner line, so it is not mistaken for the double blank."""
    w, h = (TILE_SHORT, TILE_LONG) if vertical else (TILE_LONG, TILE_SHORT)
    return (
        f'<g transform="translate({x:g} 0)" role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
        f"{_tile_frame(BACK_FILL, TILE_EDGE, vertical)}"
        f'<rect x="10" y="10" width="{w - 20}" height="{h - 20}" rx="6" fill="none" '
        f'stroke="{BACK_LINE}" stroke-width="2"/></g>'
    )


def _tile_box(vertical: bool, width: float | None) -> tuple[float, float, float]:
    """The drawn tile's width and height in tile units, and the scale that makes it ``width`` pixels wide."""
    w, h = (TILE_SHORT, TILE_LONG) if vertical else (TILE_LONG, TILE_SHORT)
    if width is None:
        width = 48 if vertical else 96
    return w, h, width / w


def tile_svg(tile: Tile, *, width: float | None = None, vertical: bool = False, label: str | None = None) -> str:
    """One domino, ``width`` pixels wide (96 lying down, 48 standing up, unless given).

    It lies with its high end on the left, or stands with it on top. ``label`` replaces the
    accessible name, which is otherwise the tile's own (``"six-three"``, ``"double blank"``).

    >>> svg = tile_svg(Tile.parse("6-6"))
    >>> svg.count("<circle"), 'width="96" height="48"' in svg
    (12, True)
    """
    w, h, scale = _tile_box(vertical, width)
    group = _tile_group(tile, vertical=vertical, label=label)
    return _svg(group, w, h, scale, tile.name if label is None else label, "img", "loo-tiles")


def tile_back_svg(*, width: float | None = None, vertical: bool = False, label: str = "a tile face down") -> str:
    """The back of one domino, for a tile the viewer may not see."""
    w, h, scale = _tile_box(vertical, width)
    return _svg(_tile_back_group(vertical=vertical, label=label), w, h, scale, label, "img", "loo-tiles")


def tiles_svg(
    tiles: Sequence[Tile | None],
    *,
    width: float | None = None,
    vertical: bool = False,
    label: str | None = None,
) -> str:
    """A row of dominoes, ``width`` pixels per tile; ``None`` draws a tile face down.

    >>> svg = tiles_svg([Tile.parse("6-3"), None])
    >>> 'aria-label="2 tiles: six-three, a tile face down"' in svg
    True
    """
    w, h, scale = _tile_box(vertical, width)
    step = w + _TILE_GAP
    groups = [
        _tile_group(t, i * step, vertical=vertical) if t is not None else _tile_back_group(i * step, vertical=vertical)
        for i, t in enumerate(tiles)
    ]
    if label is None:
        names = [t.name if t is not None else "a tile face down" for t in tiles]
        count = "1 tile" if len(tiles) == 1 else f"{len(tiles)} tiles"
        label = f"{count}: " + ", ".join(names) if tiles else "no tiles"
    total_w = w + step * (len(tiles) - 1) if tiles else w
    return _svg("".join(groups), total_w, h, scale, label, "group", "loo-tiles")


# ----- one drawing per piece, for pages that show the same cards many times -------------------

_MIN_SHARED = 120  # a drawing shorter than this costs less inline than as a reference


def _group_body_end(markup: str, start: int) -> int:
    """Where the group whose contents begin at ``start`` closes: the index of its ``</g>``."""
    depth, i = 0, start
    while True:
        close = markup.find("</g>", i)
        opened = markup.find("<g", i)
        if close < 0:
            raise ValueError("a drawing's group is not closed")
        if 0 <= opened < close:
            if markup[opened + 2] in " >":  # a group opens inside (not, say, a <glyph>)
                depth += 1
            i = opened + 2
        elif depth:
            depth -= 1
            i = close + 4
        else:
            return close


def share_drawings(markup: str, prefix: str) -> str:
    """``markup`` with each piece's drawing written once and referred to wherever it recurs.

    Every card, tile or back drawn by this module is a group holding its ``<title>`` and then its
    drawing.  A drawing met more than once moves into one hidden ``<defs>`` at the front, under an
    id made from ``prefix`` and its place in the list, and each group keeps its own name and
    position but draws through ``<use>``.  A step-through of a hand repeats the same dozen cards in
    every frame, so this makes it several times smaller while drawing exactly the same picture.
    ``prefix`` must be unique on the page (the drawings' ids start with it).

    >>> page = card_svg(Card.parse("QH")) + card_svg(Card.parse("QH"))
    >>> shared = share_drawings(page, "v1")
    >>> shared.count('<use href="#v1-0"/>'), shared.count("<title>queen of hearts</title>")
    (2, 2)
    >>> len(shared) < len(page)
    True
    >>> share_drawings("<p>no drawings</p>", "v1")
    '<p>no drawings</p>'
    """
    spans: list[tuple[int, int, str]] = []
    counts: dict[str, int] = {}
    i = 0
    while (t := markup.find("<title>", i)) >= 0:
        body_start = markup.find("</title>", t) + len("</title>")
        end = _group_body_end(markup, body_start)
        body = markup[body_start:end]
        spans.append((body_start, end, body))
        counts[body] = counts.get(body, 0) + 1
        i = end
    ids: dict[str, str] = {}
    for body, n in counts.items():
        if n > 1 and len(body) >= _MIN_SHARED:
            ids[body] = f"{prefix}-{len(ids)}"
    if not ids:
        return markup
    out, last = [], 0
    for start, end, body in spans:
        if body in ids:
            out.append(markup[last:start])
            out.append(f'<use href="#{ids[body]}"/>')
            last = end
    out.append(markup[last:])
    defs = "".join(f'<g id="{ref}">{body}</g>' for body, ref in ids.items())
    hidden = (
        '<svg aria-hidden="true" focusable="false" width="0" height="0" '
        f'style="position:absolute;width:0;height:0;overflow:hidden"><defs>{defs}</defs></svg>'
    )
    return hidden + "".join(out)


def register_drawings() -> None:
    """Let cards, hands and tiles draw themselves in a notebook with this module's drawings
    (:mod:`loo.core.drawers`: the pieces ask, and never import this module)."""
    register(Card, card_svg)
    register(Hand, lambda hand: hand_svg(hand.cards))
    register(Tile, tile_svg)
