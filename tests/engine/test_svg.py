"""SVG rendering of cards and tiles: well-formed, accessible, legible, and nothing hidden named face down."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from loo import Card, Hand, deal_three_card, full_pack
from loo.core.cards import Suit
from loo.core.tiles import Tile, full_set
from loo.svg import (
    BLACK,
    BLUE,
    FACE_FILL,
    GREEN,
    PIP_INK,
    RED,
    TILE_FILL,
    back_svg,
    card_svg,
    deal_html,
    hand_svg,
    suit_colour,
    tile_back_svg,
    tile_svg,
    tiles_svg,
)

SVG = "{http://www.w3.org/2000/svg}"


def test_every_card_is_well_formed_svg_with_its_name() -> None:
    for card in full_pack():
        root = ET.fromstring(card_svg(card))
        assert root.tag == SVG + "svg"
        assert root.get("aria-label") == card.name
        titles = [t.text for t in root.iter(SVG + "title")]
        assert titles == [card.name]
        assert card.rank.symbol in "".join(t.text or "" for t in root.iter(SVG + "text"))


def test_notebooks_display_cards_and_hands_directly() -> None:
    card = Card.parse("QH")
    assert card._repr_svg_() == card_svg(card)
    hand = Hand.parse("AS 10H 2C")
    root = ET.fromstring(hand._repr_svg_())
    names = [g.get("aria-label") for g in root.iter(SVG + "g") if g.get("role") == "img"]
    assert names == ["ace of spades", "ten of hearts", "two of clubs"]
    assert root.get("role") == "group"


def test_face_down_cards_name_no_card() -> None:
    markup = hand_svg([None, None, None], label="the miss")
    assert not any(c.name in markup for c in full_pack())
    ET.fromstring(markup)
    assert "face down" in back_svg()


def test_no_ids_so_many_cards_can_share_a_page() -> None:
    assert " id=" not in hand_svg(list(full_pack()))


def test_deal_html_hides_the_miss_unless_asked() -> None:
    d = deal_three_card(random.Random(3), seats=5, dealer=4)
    hidden = deal_html(d)
    shown = deal_html(d, show_miss=True)
    for card in d.miss:
        assert card.name not in hidden
        assert card.name in shown
    assert "dealer" in hidden and "eldest hand" in hidden


# The four-colour deck.


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a ``#rrggbb`` colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, from 1 (none) to 21 (black on white)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_helper_agrees_with_known_ratios() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48


def test_every_suit_ink_passes_wcag_aa_on_the_face() -> None:
    for four_colour in (False, True):
        for suit in Suit:
            assert contrast(suit_colour(suit, four_colour=four_colour), FACE_FILL) >= 4.5, (suit, four_colour)
    assert contrast(PIP_INK, TILE_FILL) >= 4.5


def test_four_colour_suits_have_four_inks_and_two_colour_two() -> None:
    assert len({suit_colour(s, four_colour=True) for s in Suit}) == 4
    assert len({suit_colour(s) for s in Suit}) == 2
    # Hearts and spades keep their usual inks; diamonds and clubs change.
    for suit in Suit:
        same = suit_colour(suit) == suit_colour(suit, four_colour=True)
        assert same == (suit in (Suit.HEARTS, Suit.SPADES))


def test_the_two_decks_differ_only_in_ink() -> None:
    for card in full_pack():
        plain, four = card_svg(card), card_svg(card, four_colour=True)
        ink = suit_colour(card.suit, four_colour=True)
        assert ink in four
        assert four.replace(ink, suit_colour(card.suit)) == plain
        assert (plain == four) == (card.suit in (Suit.HEARTS, Suit.SPADES))


def test_both_decks_are_well_formed_and_keep_every_name() -> None:
    for four_colour in (False, True):
        for card in full_pack():
            root = ET.fromstring(card_svg(card, four_colour=four_colour))
            assert root.get("aria-label") == card.name
            assert root.get("role") == "img"
            assert [t.text for t in root.iter(SVG + "title")] == [card.name]
        root = ET.fromstring(hand_svg([*full_pack(), None], four_colour=four_colour))
        names = [g.get("aria-label") for g in root.iter(SVG + "g") if g.get("role") == "img"]
        assert names == [c.name for c in full_pack()] + ["a card face down"]


def test_a_four_colour_hand_and_deal_use_the_four_inks() -> None:
    assert GREEN in hand_svg(Hand.parse("AC").cards, four_colour=True)
    assert GREEN not in hand_svg(Hand.parse("AC").cards)
    d = deal_three_card(random.Random(3), seats=5, dealer=4)
    assert deal_html(d, four_colour=True).replace(BLUE, RED).replace(GREEN, BLACK) == deal_html(d)


# Dominoes.


def _pips_per_end(markup: str, *, vertical: bool) -> tuple[int, int]:
    """Pip circles in the high end (left, or top) and in the low end, found by where they sit."""
    root = ET.fromstring(markup)
    places = [float(c.get("cy" if vertical else "cx", "nan")) for c in root.iter(SVG + "circle")]
    first = sum(1 for p in places if p < 100)
    second = sum(1 for p in places if 100 < p < 200)
    assert first + second == len(places), "a pip on the groove or off the tile"
    return first, second


def test_every_tile_has_the_right_pips_in_each_end() -> None:
    for tile in full_set():
        for vertical in (False, True):
            markup = tile_svg(tile, vertical=vertical)
            assert _pips_per_end(markup, vertical=vertical) == (tile.high, tile.low), (tile, vertical)


def test_pips_stay_inside_their_end_and_never_touch() -> None:
    for number in range(1, 7):
        root = ET.fromstring(tile_svg(Tile(number, 0)))  # all the pips in the left end
        circles = [
            (float(c.get("cx", "0")), float(c.get("cy", "0")), float(c.get("r", "0")))
            for c in root.iter(SVG + "circle")
        ]
        for x, y, r in circles:
            assert 0 < x - r and x + r < 100 and 0 < y - r and y + r < 100
        for i, (x1, y1, r1) in enumerate(circles):
            for x2, y2, r2 in circles[i + 1 :]:
                assert ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 > r1 + r2


def test_every_tile_is_well_formed_svg_with_its_name() -> None:
    for tile in full_set():
        for vertical in (False, True):
            root = ET.fromstring(tile_svg(tile, vertical=vertical))
            assert root.tag == SVG + "svg"
            assert root.get("role") == "img"
            assert root.get("aria-label") == tile.name
            assert [t.text for t in root.iter(SVG + "title")] == [tile.name]
    assert 'aria-label="your six-three"' in tile_svg(Tile.parse("6-3"), label="your six-three")


def test_tiles_lie_down_unless_asked_to_stand() -> None:
    lying = ET.fromstring(tile_svg(Tile.parse("5-2")))
    assert (lying.get("width"), lying.get("height"), lying.get("viewBox")) == ("96", "48", "0 0 200 100")
    standing = ET.fromstring(tile_svg(Tile.parse("5-2"), vertical=True))
    assert (standing.get("width"), standing.get("height")) == ("48", "96")
    assert ET.fromstring(tile_svg(Tile.parse("5-2"), width=150)).get("height") == "75"


def test_a_row_of_tiles_names_each_and_hides_the_face_down() -> None:
    row = [Tile.parse("6-3"), None, Tile.parse("0-0")]
    root = ET.fromstring(tiles_svg(row))
    assert root.get("role") == "group"
    assert root.get("aria-label") == "3 tiles: six-three, a tile face down, double blank"
    names = [g.get("aria-label") for g in root.iter(SVG + "g") if g.get("role") == "img"]
    assert names == ["six-three", "a tile face down", "double blank"]
    assert ET.fromstring(tiles_svg([Tile.parse("1-0")])).get("aria-label") == "1 tile: one-blank"
    assert ET.fromstring(tiles_svg([])).get("aria-label") == "no tiles"
    assert ET.fromstring(tiles_svg([None, None], label="their hand")).get("aria-label") == "their hand"


def test_face_down_tiles_name_no_tile_and_show_no_pips() -> None:
    for markup in (tile_back_svg(), tiles_svg([None] * 7), tiles_svg([None] * 7, vertical=True)):
        root = ET.fromstring(markup)
        assert not any(t.name in markup for t in full_set())
        assert not list(root.iter(SVG + "circle"))
    assert "face down" in tile_back_svg()


def test_tile_drawings_are_deterministic_without_ids_and_render_in_notebooks() -> None:
    markup = tiles_svg([*full_set(), None])
    assert markup == tiles_svg([*full_set(), None])
    assert " id=" not in markup
    assert " id=" not in tile_back_svg(vertical=True)
    tile = Tile.parse("4-4")
    assert tile._repr_svg_() == tile_svg(tile)
