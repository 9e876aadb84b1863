"""SVG rendering: well-formed, accessible, and no hidden card named in a face-down drawing."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from loo import Card, Hand, deal_three_card, full_pack
from loo.svg import back_svg, card_svg, deal_html, hand_svg

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
