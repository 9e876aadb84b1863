"""The stylesheet that draws card and tile buttons: a face for every piece, and a text mode that shows names."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from urllib.parse import unquote

import pytest

from loo.core.cards import Suit, full_pack
from loo.core.tiles import Tile, full_set
from loo.svg import back_svg, card_svg, suit_colour, tile_back_svg, tile_svg
from widgets.draw.card_style import CARD_PX, TEXT_ONLY_CLASS, TILE_PX, card_class, card_stylesheet, tile_class

PICTURE = f":not(.{TEXT_ONLY_CLASS} *)"


def css_rules(sheet: str) -> list[tuple[str | None, list[str], str]]:
    """(at-rule or None, selectors, declarations) for each rule; enough for this flat sheet.

    The faces' data URIs escape braces, so a brace always belongs to the CSS.
    """
    assert sheet.startswith("<style>") and sheet.endswith("</style>")
    body = sheet.removeprefix("<style>").removesuffix("</style>")
    rules: list[tuple[str | None, list[str], str]] = []
    media: str | None = None
    i = 0
    while i < len(body):
        if media is not None and body[i] == "}":
            media, i = None, i + 1
            continue
        opening = body.index("{", i)
        head = body[i:opening]
        if head.startswith("@"):
            media, i = head, opening + 1
            continue
        closing = body.index("}", opening)
        rules.append((media, head.split(","), body[opening + 1 : closing]))
        i = closing + 1
    assert media is None, "an at-rule left open"
    return rules


def face_of(sheet: str, cls: str) -> str:
    """The SVG a class paints, decoded from its data URI."""
    [declarations] = [d for _, sels, d in css_rules(sheet) if sels == [f".{cls}"]]
    prefix = "background-image:url('data:image/svg+xml,"
    assert declarations.startswith(prefix) and declarations.endswith("')!important")
    return unquote(declarations.removeprefix(prefix).removesuffix("')!important"))


@pytest.fixture(params=[False, True], ids=["two-colour", "four-colour"])
def four_colour(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


def test_classes_name_the_piece() -> None:
    assert card_class(next(iter(full_pack()))) == "loo-card-2C"
    assert tile_class(Tile.parse("3-6")) == "loo-tile-6-3"
    assert len({card_class(c) for c in full_pack()} | {tile_class(t) for t in full_set()}) == 52 + 28


def test_every_card_and_tile_has_its_face(four_colour: bool) -> None:
    sheet = card_stylesheet(four_colour=four_colour)
    for card in full_pack():
        face = face_of(sheet, card_class(card))
        assert face == card_svg(card, width=CARD_PX, four_colour=four_colour)
        assert ET.fromstring(face).get("aria-label") == card.name
    for tile in full_set():
        face = face_of(sheet, tile_class(tile))
        assert face == tile_svg(tile, width=TILE_PX)
        assert ET.fromstring(face).get("aria-label") == tile.name
    assert face_of(sheet, "loo-card-back") == back_svg(width=CARD_PX)
    assert face_of(sheet, "loo-tile-back") == tile_back_svg(width=TILE_PX)


def test_the_data_uris_escape_what_must_be_escaped(four_colour: bool) -> None:
    sheet = card_stylesheet(four_colour=four_colour)
    for _, _, declarations in css_rules(sheet):
        if "data:" in declarations:
            uri = declarations.split("url('", 1)[1].rsplit("')", 1)[0]
            assert not set(uri) & set("#<>'{}\n\\")  # a fragment, markup, the string's quote, CSS
            assert re.fullmatch(r"(?:[^%]|%[0-9A-F]{2})*", uri)  # every % starts an escape


def test_the_four_colour_sheet_changes_only_diamonds_and_clubs() -> None:
    plain, four = card_stylesheet(), card_stylesheet(four_colour=True)
    for card in full_pack():
        changed = face_of(plain, card_class(card)) != face_of(four, card_class(card))
        assert changed == (suit_colour(card.suit) != suit_colour(card.suit, four_colour=True))
        assert changed == (card.suit in (Suit.DIAMONDS, Suit.CLUBS))
    for tile in full_set():
        assert face_of(plain, tile_class(tile)) == face_of(four, tile_class(tile))
    strip = [(m, s) for m, s, d in css_rules(plain) if "data:" not in d]
    assert strip == [(m, s) for m, s, d in css_rules(four) if "data:" not in d]


def test_sheets_are_cached_per_deck_and_stay_small() -> None:
    assert card_stylesheet() is card_stylesheet()
    assert card_stylesheet(four_colour=True) is card_stylesheet(four_colour=True)
    assert card_stylesheet() != card_stylesheet(four_colour=True)
    for sheet in (card_stylesheet(), card_stylesheet(four_colour=True)):
        assert len(sheet.encode()) < 400_000


def test_names_are_hidden_only_behind_pictures_never_in_text_only_mode(four_colour: bool) -> None:
    rules = css_rules(card_stylesheet(four_colour=four_colour))
    hiding = [(m, sels) for m, sels, d in rules if "color:transparent" in d]
    assert hiding
    for media, selectors in hiding:
        assert media is None
        assert all(s.endswith(PICTURE) for s in selectors), selectors
    # Text-only mode removes every picture, faces and backs alike, and wins over them.
    text_rules = [r for r in rules if r[1][0].startswith(f".{TEXT_ONLY_CLASS} ")]
    [(media, selectors, declarations)] = [r for r in text_rules if "background-image" in r[2]]
    assert media is None
    assert set(selectors) == {
        f".{TEXT_ONLY_CLASS} .{c}"
        for c in ("loo-card-button", "loo-card-back", "loo-tile-button", "loo-tile-back", "loo-tile-lead")
    }
    assert declarations == "background-image:none!important"
    # An illegal piece in text is struck through, not faded: its name must stay readable.
    [(_, struck, how)] = [r for r in text_rules if "line-through" in r[2]]
    assert all(s.endswith(".loo-illegal") for s in struck) and "opacity:1" in how
    # Sizes and padding that make a button a picture are picture-only, so text buttons keep their own.
    for media, selectors, declarations in rules:
        pieces = [s for s in selectors if ".loo-card-" in s or ".loo-tile-" in s]  # not the cloth's own boxes
        if media is None and pieces and ("width:" in declarations or "padding:" in declarations):
            assert all(s.endswith(PICTURE) for s in pieces), selectors


def test_a_lifting_piece_moves_only_for_readers_who_allow_motion() -> None:
    rules = css_rules(card_stylesheet())
    # The faces' own SVG transforms place pips; only the declarations of the rules are looked at.
    moving = [m for m, _, d in rules if "data:" not in d and ("transform" in d or "transition" in d)]
    assert moving
    assert set(moving) == {"@media (prefers-reduced-motion:no-preference)"}


def test_high_contrast_mode_shows_names_in_bordered_buttons() -> None:
    rules = [(s, d) for m, s, d in css_rules(card_stylesheet()) if m == "@media (forced-colors:active)"]
    selectors = {s for sels, d in rules if "color:ButtonText!important" in d for s in sels}
    bordered = {s for sels, d in rules if "border:1px solid ButtonText!important" in d for s in sels}
    unpainted = {s for sels, d in rules if "background-image:none!important" in d for s in sels}
    for piece in ("loo-card-button", "loo-tile-button", "loo-card-back", "loo-tile-back"):
        # The plain selector reaches text-only pieces, the scoped one outranks the picture rules.
        assert {f".{piece}", f".{piece}{PICTURE}"} <= selectors
        assert {f".{piece}", f".{piece}{PICTURE}"} <= bordered
        assert f".{piece}{PICTURE}" in unpainted
