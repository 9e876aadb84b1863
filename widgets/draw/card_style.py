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

from loo.core.cards import Card, full_pack
from loo.core.tiles import Tile, full_set
from loo.svg import back_svg, card_svg, tile_back_svg, tile_svg

TEXT_ONLY_CLASS = "loo-text-only"
"""On a container, its pieces show as ordinary buttons labelled with their names, with no picture."""
CARD_PX, TILE_PX = 80, 96  # drawn widths; a card is 80 x 112 px, a tile lying down 96 x 48 px
# on a phone (a window under 480 px): five fit in a row, and the trick, the hand and the choices one screen
NARROW_CARD_PX, NARROW_TILE_PX = 50, 60
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
    # (and a domino lead's picture above its words, widgets.views.table_view)
    text_only = ",".join(f".{TEXT_ONLY_CLASS} {c}" for c in (*_CARDS, *_TILES, ".loo-tile-lead"))
    return (
        # As a picture: the face fills the button and the name is there only for assistive technology.
        f"{picture_all}{{padding:0!important;border:none!important;background-color:transparent!important;"
        "background-size:contain;background-repeat:no-repeat;background-position:center;"
        "color:transparent!important;border-radius:7px;margin:2px 3px}"
        f"{_selectors(_CARDS, _PICTURE)}{{width:{CARD_PX}px!important;height:{CARD_PX * 1.4:g}px!important}}"
        f"{_selectors(_TILES, _PICTURE)}{{width:{TILE_PX}px!important;height:48px!important;border-radius:6px}}"
        ".loo-card-back{background-image:" + _data_uri(back_svg(width=CARD_PX)) + "!important}"
        ".loo-tile-back{background-image:" + _data_uri(tile_back_svg(width=TILE_PX)) + "!important}"
        f"{_selectors(('.loo-card-button.mod-primary', '.loo-tile-button.mod-primary'), _PICTURE)}"
        "{box-shadow:0 0 0 2px #1a6fd4,0 3px 6px rgba(0,0,0,.25)}"
        # Only a reader who has not asked for less motion sees a playable piece lift.
        "@media (prefers-reduced-motion:no-preference){"
        f"{picture_all}{{transition:transform .08s}}"
        f"{_selectors(('.loo-card-button.mod-primary', '.loo-tile-button.mod-primary'), _PICTURE + ':hover')}"
        "{transform:translateY(-4px)}"
        f"{_selectors(_CARDS + _TILES, ':focus-visible')}{{transform:translateY(-6px)}}"
        f"{_selectors(('.loo-card-button.mod-active', '.loo-tile-button.mod-active'), _PICTURE)}"
        "{transform:translateY(-14px)}}"
        f"{_selectors(('.loo-card-button.loo-illegal', '.loo-tile-button.loo-illegal'))}"
        "{opacity:.55;filter:grayscale(.4)}"
        # The focused piece: a thick black and amber ring and a lift, unlike the blue edge of a playable one.
        f"{_selectors(_CARDS + _TILES, ':focus-visible')}"
        "{outline:3px solid #111!important;outline-offset:2px;box-shadow:0 0 0 7px #ffc21a!important}"
        # A piece picked to be exchanged (a pressed toggle) is ringed in red (and rises, below).
        f"{_selectors(('.loo-card-button.mod-active', '.loo-tile-button.mod-active'), _PICTURE)}"
        "{box-shadow:0 0 0 4px #c62828,0 6px 10px rgba(0,0,0,.35)!important}"
        f"@media (max-width:480px){{{_selectors(_CARDS, _PICTURE)}{{width:{NARROW_CARD_PX}px!important;"
        f"height:{NARROW_CARD_PX * 1.4:g}px!important;margin:2px!important}}"
        f"{_selectors(_TILES, _PICTURE)}{{width:{NARROW_TILE_PX}px!important;height:{NARROW_TILE_PX // 2}px!important;"
        "margin:2px!important}}"
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


FELT, FELT_EDGE = "#1d5a3a", "#0f3b24"
TABLE_RULES = (
    # The cloth: the other seats on the left, across the top and on the right, the trick and what the
    # middle of a table shows in the middle, the reader at the bottom (widgets.draw.table_board, round the cloth).
    ".loo-round{font-family:system-ui,sans-serif;font-size:14px;color:#fff}"
    f".loo-felt{{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,2.4fr) minmax(0,1fr);"
    "grid-template-areas:'top top top' 'left middle right' 'me me me';gap:6px 10px;"
    f"background:{FELT};border:6px solid {FELT_EDGE};border-bottom:none;border-radius:40px 40px 0 0;"
    "padding:6px 14px 10px}"
    ".loo-side-top{grid-area:top;display:flex;flex-wrap:wrap;justify-content:space-around;gap:6px 16px}"
    ".loo-side-left,.loo-side-right{display:flex;flex-direction:column;justify-content:center;gap:8px}"
    ".loo-side-left{grid-area:left;flex-direction:column-reverse;align-items:flex-start}"
    ".loo-side-right{grid-area:right;align-items:flex-end}"
    ".loo-round .loo-seat{display:flex;flex-direction:column;align-items:center;gap:2px;padding:3px 6px;"
    "border-radius:8px;border:2px solid transparent;min-width:0;max-width:100%}"
    ".loo-round .loo-seat-name{font-size:13px;text-align:center;line-height:1.25}"
    ".loo-round .loo-to-act{border-color:#ffc21a;background:rgba(255,194,26,.14)}"
    ".loo-round .loo-at-bottom{grid-area:me;justify-self:center}"
    ".loo-middle{grid-area:middle;display:flex;flex-wrap:wrap;align-items:center;justify-content:center;"
    "gap:8px 18px;min-height:96px;position:relative}"
    # The last trick, when asked for, laid over the middle (nothing on the cloth moves), and the line
    # naming the trick just won, among the middle's facts.
    ".loo-over{position:absolute;left:0;right:0;top:0;min-height:100%;z-index:3;display:flex;flex-direction:column;"
    f"align-items:center;justify-content:center;gap:2px;padding:4px;border-radius:10px;background:{FELT_EDGE}}}"
    ".loo-over .loo-won{color:#1b1b1b;margin:0}.loo-over-close{font-size:12px;margin:0;color:#e6f2ea}"
    ".loo-facts>.loo-just{display:block;max-width:17em;font-style:italic;color:#f3e7b0}"
    ".loo-round .loo-trick{display:flex;flex-wrap:wrap;justify-content:center;gap:4px 8px;min-width:120px}"
    ".loo-trick-empty{color:#e6f2ea;font-style:italic;align-self:center}"
    ".loo-round .loo-play{margin:0;display:flex;flex-direction:column;align-items:center}"
    ".loo-round .loo-play figcaption{font-size:12px}"
    # The middle's facts: the turn-up on the left (under its name), the trumps, miss and pool beside it.
    ".loo-facts{display:grid;grid-template-columns:auto auto;align-content:center;gap:3px 12px;padding:6px 10px;"
    "border-radius:8px;background:rgba(0,0,0,.28);font-size:13px;line-height:1.3}"
    ".loo-facts>div{display:flex;align-items:center;gap:6px;grid-column:2}.loo-facts:empty{display:none}"
    ".loo-facts>.loo-turnup{grid-column:1;grid-row:1/span 4;flex-direction:column;gap:1px;font-size:12px}"
    ".loo-round svg{max-width:100%;height:auto}"
    # The reader's hand and choices: the near edge of the cloth, just below it.
    ".loo-near{background:" + FELT + ";border:6px solid " + FELT_EDGE + ";border-top:none;"
    "border-radius:0 0 40px 40px;padding:4px 14px 14px;min-height:40px;margin:-6px 2px 6px!important}"
    ".loo-near>.loo-choices,.loo-near>.loo-picks{justify-content:center;padding-top:8px;overflow:visible}"
    ".loo-near>.loo-picks{padding-top:18px}.loo-near>.loo-picks:empty,.loo-near>.loo-choices:empty{display:none}"
    ".loo-near .jupyter-button:not(.loo-piece):not(.loo-pick){width:auto;min-width:8em;max-width:100%;"
    "padding:4px 14px;height:auto;min-height:32px;white-space:normal;overflow:visible}"
    # On a phone: the two side seats share a row under the top ones, and the middle takes the full width.
    # On a phone every other seat shares one row (the left, the top ones, the right), their hands drawn
    # small, and the middle takes the full width: the trick, the hand and the choices fit one screen.
    "@media (max-width:600px){.loo-felt{grid-template-columns:minmax(0,1fr) minmax(0,2fr) minmax(0,1fr);"
    "grid-template-areas:'left top right' 'middle middle middle' 'me me me';padding:6px 4px 2px;gap:4px 4px;"
    "border-radius:24px 24px 0 0;border-width:4px}"
    ".loo-side-left,.loo-side-right{justify-content:flex-start}.loo-side-top{gap:4px;flex-wrap:nowrap}"
    ".loo-round .loo-seat{padding:2px;min-width:0}.loo-round .loo-seat-name{font-size:12px}"
    ".loo-near{padding:2px 4px 8px;border-radius:0 0 24px 24px;border-width:4px}"
    # the choices in words share one row where their words fit (Stand, Take the miss, Throw up)
    ".loo-near .jupyter-button:not(.loo-piece):not(.loo-pick){min-width:0;flex:1 1 auto;padding:4px 8px}"
    # the tab's own margin round the table, narrow: the table takes the phone's width
    ".jupyter-widgets.jupyter-widget-tab>.widget-tab-contents:has(.loo-table-view){padding:2px}"
    ".loo-middle{min-height:0;gap:4px 10px}"
    ".loo-board .loo-round .loo-side svg{height:34px!important;width:auto!important;max-width:100%}"
    ".loo-round .loo-trick svg.loo-cards{width:44px;height:auto}"
    ".loo-round .loo-trick svg.loo-tiles{width:64px;height:auto}"
    ".loo-facts{padding:4px 8px}.loo-facts svg.loo-cards{width:36px;height:auto}"
    # the reader's pieces while a reel plays, as tall as their buttons on a phone
    ".loo-reel-hand svg.loo-cards{height:81px;width:auto}.loo-reel-hand svg.loo-tiles{height:30px;width:auto}"
    # the single settled as dealt, above the table: its cards smaller
    ".loo-opening .loo-opening-seat svg{width:30px;height:auto}.loo-opening{font-size:12px}}"
    # A domino lead that names its suit: the tile's picture, and under it the words (which suit it leads).
    f".loo-near .jupyter-button.loo-tile-lead{_PICTURE}{{background-repeat:no-repeat!important;"
    "background-position:center 6px!important;background-size:60px 30px!important;padding:40px 10px 6px!important;"
    "min-height:76px;line-height:1.25;font-size:13px}"
    "@media (forced-colors:active){.loo-tile-lead{background-image:none!important;padding:4px 10px!important}}"
    # Watching the play (widgets.views.pacing): while the page plays a reel of the computer players' moves, the
    # reel shows and the table as it stands waits, hidden; without the page's script the reel never shows.
    ".loo-film{display:none!important}.loo-playing .loo-film{display:block!important}"
    ".loo-playing .loo-standing{display:none!important}.loo-reel .loo-frame[hidden]{display:none}"
    # (as wide as the cloth above it: the reel is one widget, where the standing table's near edge is another)
    ".loo-reel-near{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:8px 16px;"
    "padding-top:10px!important;margin-left:0!important;margin-right:0!important}"
    ".loo-reel-hand{opacity:.8}.loo-reel-hand svg{max-width:100%;height:auto}"
    ".loo-own-waiting{opacity:.8}.loo-own-note{margin:2px 0 0;font-size:13px;max-width:22em;text-align:center}"
    ".loo-reel-near .loo-show-rest{width:auto;height:auto;min-height:32px;padding:4px 14px;font-size:14px}"
    # The controls under the hand, as wide as their words, so that they sit on one line.
    ".loo-controls .jupyter-button,.loo-controls .widget-toggle-button{width:auto;min-width:6.5em;padding:0 12px}"
    # An exchange says what to do, where the reader looks: pick, then press the button.
    ".loo-near .loo-pick-say{text-align:center;color:#fff;font:14px system-ui,sans-serif;height:auto;margin-top:8px}"
    ".loo-near .loo-pick-say p{margin:0}"
    # Tiles in the finished hand's summary drawn big enough to read their pips.
    ".loo-summary svg.loo-tiles{width:72px;height:36px;margin:1px}"
    "@media (max-width:480px){.loo-summary svg.loo-tiles{width:56px;height:28px}}"
    # Focus, plain to see on every control of the table: black and amber, never the blue of a legal choice.
    ".loo-table-view .jupyter-button:focus-visible,.loo-table-view .widget-toggle-button:focus-visible,"
    ".loo-table-view input:focus-visible,.loo-table-view textarea:focus-visible,.loo-skip:focus,"
    ".loo-show-rest:focus-visible"
    "{outline:3px solid #111!important;outline-offset:2px;box-shadow:0 0 0 6px #ffc21a!important}"
    ".loo-skip{position:absolute;left:8px;top:-60px;z-index:1000;background:#fff;color:#1d5a3a;padding:8px 14px;"
    "border-radius:6px;font:600 15px system-ui,sans-serif}"
    ".loo-skip:focus{top:8px}"
)
"""How the live table looks round its cloth (:mod:`widgets.draw.table_board`, its ROUND layout), and its focus rings."""


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
    return _rules() + TABLE_RULES + cards + tiles


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
