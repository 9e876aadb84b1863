"""Card and tile faces for buttons: one stylesheet giving every card's and tile's button its drawing.

A button keeps the card's name as its label, so a screen reader says "queen of hearts" and the
keyboard reaches it like any button; the stylesheet paints the face over it and hides the text.
The sheet is the same for every reader and every deal: it tells nothing about who holds what.

Classes a view puts on its widgets:

- ``loo-card-button`` and ``card_class(card)`` on a card's button; ``loo-tile-button`` and
  ``tile_class(tile)`` on a domino's;
- ``loo-card-back`` (or ``loo-tile-back``) on a button or box that stands for a piece face down;
- ``loo-illegal`` on a piece that may not be played now;
- :data:`TEXT_ONLY_CLASS` on any container whose pieces should show as plain labelled buttons.

A view switches to the four-colour deck by showing ``card_stylesheet(four_colour=True)`` in place
of the plain sheet: the class names are the same.

At a live table the page itself links the plain sheet (``widgets.server`` serves :func:`card_css`
at :data:`SHEET_PATH`, and says so to its kernels through :data:`PAGE_SHEET_ENV`), so the sheet
is fetched once, cached by the browser, and not sent again through every table's widget state;
the view then adds only the four-colour sheet, when the reader asks for that deck.

Size, measured with the faces drawn 64 (cards) and 96 (tiles) pixels wide: 135,113 bytes for
either deck (the four-colour inks are as long as the plain ones), of which the 28 tile faces take
22.4 kB and the button rules 4.7 kB.  That is well inside the 400 kB budget, so the tiles share
the sheet and one ``<style>`` serves every game.  The test in tests/widgets/test_card_style.py keeps
the budget.  Picture rules are scoped with ``:not(.loo-text-only *)`` (Chrome 88, Firefox 84,
Safari 9); a browser older than that drops them and shows each name on an ordinary button.
"""

from __future__ import annotations

import os
from functools import cache
from urllib.parse import quote

from loo.cards import Card, full_pack
from loo.svg import back_svg, card_svg, tile_back_svg, tile_svg
from loo.tiles import Tile, full_set

TEXT_ONLY_CLASS = "loo-text-only"
"""On a container, its pieces show as ordinary buttons labelled with their names, with no picture."""
CARD_PX, TILE_PX = 64, 96  # drawn widths; a card is 64 x 90 px, a tile lying down 96 x 48 px
SHEET_PATH = "/tables/cards.css"
"""Where ``widgets.server`` serves the plain sheet, which its table pages link from their head."""
PAGE_SHEET_ENV = "LANTERLOO_PAGE_CARD_SHEET"
"""Set to ``1`` by ``widgets.server`` for its kernels: the page already has the plain sheet."""

# Pieces drawn as pictures, unless inside a text-only container.
_PICTURE = f":not(.{TEXT_ONLY_CLASS} *)"
_CARDS = (".loo-card-button", ".loo-card-back")
_TILES = (".loo-tile-button", ".loo-tile-back")


def card_class(card: Card) -> str:
    """The CSS class that paints ``card``'s face: ``loo-card-QH``."""
    return f"loo-card-{card}"


def tile_class(tile: Tile) -> str:
    """The CSS class that paints ``tile``'s face: ``loo-tile-6-3``."""
    return f"loo-tile-{tile}"


def _data_uri(svg: str) -> str:
    """The drawing as a CSS ``url('…')``, escaping only what a URL or a single-quoted string forbids.

    Spaces, ``=`` and double quotes may stand as they are, which keeps the sheet a third smaller
    than escaping everything; ``#`` must not, or the rest would be read as a fragment.
    """
    return "url('data:image/svg+xml," + quote(svg, safe=' "=/:;,.()!*?@$&+-_~') + "')"


def _selectors(classes: tuple[str, ...], suffix: str = "") -> str:
    return ",".join(c + suffix for c in classes)


def _rules() -> str:
    """How a piece's button looks in every state, as pictures and as text."""
    picture_all = _selectors(_CARDS + _TILES, _PICTURE)
    every = _selectors(_CARDS + _TILES)
    text_only = ",".join(f".{TEXT_ONLY_CLASS} {c}" for c in _CARDS + _TILES)
    return (
        # As a picture: the face fills the button and the name is there only for assistive technology.
        f"{picture_all}{{padding:0!important;border:none!important;background-color:transparent!important;"
        "background-size:contain;background-repeat:no-repeat;background-position:center;"
        "color:transparent!important;border-radius:7px;margin:2px 3px}"
        f"{_selectors(_CARDS, _PICTURE)}{{width:{CARD_PX}px!important;height:90px!important}}"
        f"{_selectors(_TILES, _PICTURE)}{{width:{TILE_PX}px!important;height:48px!important;border-radius:6px}}"
        ".loo-card-back{background-image:" + _data_uri(back_svg(width=CARD_PX)) + "!important}"
        ".loo-tile-back{background-image:" + _data_uri(tile_back_svg(width=TILE_PX)) + "!important}"
        f"{_selectors(('.loo-card-button.mod-primary', '.loo-tile-button.mod-primary'), _PICTURE)}"
        "{box-shadow:0 0 0 2px #1a6fd4,0 3px 6px rgba(0,0,0,.25)}"
        # Only a reader who has not asked for less motion sees a playable piece lift.
        "@media (prefers-reduced-motion:no-preference){"
        f"{picture_all}{{transition:transform .08s}}"
        f"{_selectors(('.loo-card-button.mod-primary', '.loo-tile-button.mod-primary'), _PICTURE + ':hover')}"
        "{transform:translateY(-4px)}}"
        f"{_selectors(('.loo-card-button.loo-illegal', '.loo-tile-button.loo-illegal'))}"
        "{opacity:.55;filter:grayscale(.4)}"
        f"{_selectors(_CARDS + _TILES, ':focus-visible')}{{outline:3px solid #e0a000;outline-offset:2px}}"
        # A drawn hand (one picture of the row) shrinks to fit a narrow screen rather than overflow it.
        f"{_selectors(('.loo-board svg.loo-cards', '.loo-board svg.loo-tiles'), _PICTURE)}"
        "{max-width:100%;height:auto}"
        # Text only: no picture; the button keeps the widget library's own size, colours and border.
        f"{text_only}{{background-image:none!important}}"
        # An illegal piece in text: struck through rather than faded, so its name stays readable.
        + ",".join(f".{TEXT_ONLY_CLASS} {c}.loo-illegal" for c in _CARDS + _TILES)
        + "{opacity:1!important;filter:none!important;text-decoration:line-through}"
        # Windows high contrast drops background images: show the name, in a bordered button.
        # Every piece, picture or text, gets a border there: the widget library's buttons have none.
        "@media (forced-colors:active){"
        f"{every},{picture_all}{{color:ButtonText!important;border:1px solid ButtonText!important}}"
        f"{picture_all}{{background-image:none!important;width:auto!important;height:auto!important;"
        "min-height:28px;padding:2px 10px!important}"
        f"{_selectors(('.loo-card-button.mod-primary', '.loo-tile-button.mod-primary'))}"
        "{border:2px solid Highlight!important}}"
    )


def _face(cls: str, svg: str) -> str:
    # !important so that a theme's ``background`` shorthand on buttons cannot wipe the face.
    return f".{cls}{{background-image:{_data_uri(svg)}!important}}"


@cache
def card_css(*, four_colour: bool = False) -> str:
    """The rules of :func:`card_stylesheet` as a CSS file, with no ``<style>`` element around them.

    >>> card_stylesheet() == f"<style>{card_css()}</style>"
    True
    """
    cards = "".join(_face(card_class(c), card_svg(c, width=CARD_PX, four_colour=four_colour)) for c in full_pack())
    tiles = "".join(_face(tile_class(t), tile_svg(t, width=TILE_PX)) for t in full_set())
    return _rules() + cards + tiles


@cache
def _stylesheet(four_colour: bool) -> str:
    return f"<style>{card_css(four_colour=four_colour)}</style>"


def card_stylesheet(*, four_colour: bool = False) -> str:
    """A ``<style>`` element for every card's and tile's face and for the states of their buttons.

    ``four_colour`` draws the cards of the four-colour deck (blue diamonds, green clubs); the
    class names are the same, so a view switches decks by swapping this one sheet.

    >>> sheet = card_stylesheet()
    >>> sheet.startswith("<style>") and ".loo-card-QH{" in sheet and ".loo-tile-6-3{" in sheet
    True
    >>> card_stylesheet() is sheet
    True
    """
    return _stylesheet(four_colour)


def sheet_in_page() -> bool:
    """Whether the page a table is drawn on already links the plain sheet (see :data:`PAGE_SHEET_ENV`)."""
    return os.environ.get(PAGE_SHEET_ENV) == "1"
