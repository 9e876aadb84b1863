"""Deal sheets: for each seed, exactly the cards of that seed's deal, seat by seat, with the miss and
the turn-up; the same deal as the step-through viewer's record; a ValueError naming bad input."""

from __future__ import annotations

import base64
import random
import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest

from loo.core.cards import Card, full_pack
from loo.core.tiles import Tile, full_set
from loo.kits import kit
from widgets.book import play_hand, record_of
from widgets.book.deal_sheet import deal_sheet, download_link, piece_text, sheet_preview


class SheetReader(HTMLParser):
    """Each deal section's pieces, by the seat or part (miss, turn-up, stock) whose box lists them."""

    def __init__(self) -> None:
        super().__init__()
        self.deals: dict[int, dict[str, list[str]]] = {}
        self.texts: dict[int, dict[str, list[str]]] = {}
        self._seed: int | None = None
        self._box: str | None = None
        self._piece: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section" and "data-seed" in a:
            self._seed = int(a["data-seed"] or "")
            self.deals[self._seed] = {}
            self.texts[self._seed] = {}
        elif tag == "div" and ("data-seat" in a or "data-part" in a):
            self._box = f"seat {a['data-seat']}" if "data-seat" in a else str(a["data-part"])
        elif tag == "li" and "data-piece" in a:
            assert self._seed is not None and self._box is not None, "a piece outside a deal's box"
            self._piece = str(a["data-piece"])
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._piece is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._piece is not None:
            assert self._seed is not None and self._box is not None
            self.deals[self._seed].setdefault(self._box, []).append(self._piece)
            self.texts[self._seed].setdefault(self._box, []).append(" ".join("".join(self._text).split()))
            self._piece = None
        elif tag == "div":
            self._box = None


def read(sheet: str) -> SheetReader:
    reader = SheetReader()
    reader.feed(sheet)
    return reader


def kit_deal(game: str, preset: str, seed: int, seats: int) -> Any:
    """The deal straight from the game's kit: a second road to the same cards, not through play_hand."""
    the_kit = kit(game)
    rules = the_kit.read_rules(game, preset)
    return the_kit.deal(rules, random.Random(seed), seats, seats - 1, the_kit.pool(rules, seats))


CARD_GAMES = [
    ("three-card-loo", "peel", 5, [3, 12, 40]),
    ("three-card-loo", "britannica", 7, [1]),
    ("five-card-loo", "pam", 5, [3, 8]),
    ("irish-loo", "irish", 4, [2]),
    ("nap", "hoffmann", 4, [13, 14]),
    ("nap", "hoffmann", 6, [5]),
]


@pytest.mark.parametrize(("game", "preset", "seats", "seeds"), CARD_GAMES)
def test_the_sheet_lists_exactly_each_seats_cards_the_miss_and_the_turnup(
    game: str, preset: str, seats: int, seeds: list[int]
) -> None:
    reader = read(deal_sheet(game, preset, seeds, seats=seats))
    assert list(reader.deals) == seeds
    for seed in seeds:
        deal = reader.deals[seed]
        hand = kit_deal(game, preset, seed, seats)
        for seat in range(seats):
            assert deal[f"seat {seat}"] == [str(c) for c in hand.dealt[seat]], (seed, seat)
        if game == "nap":
            assert "turnup" not in deal and "miss" not in deal
        else:
            assert deal["turnup"] == [str(hand.turnup)]
            assert deal.get("miss", []) == [str(c) for c in hand.miss]
        if game == "three-card-loo":
            assert len(deal["miss"]) == 3
        # every card of the deal is listed once; exchanges draw from the stock, so it is listed in order
        if game in ("five-card-loo", "irish-loo"):
            assert deal["stock"] == [str(c) for c in hand.stock]
        listed = [c for box in deal.values() for c in box]
        assert len(listed) == len(set(listed))
        if game in ("five-card-loo", "irish-loo"):
            assert sorted(listed) == sorted(str(c) for c in full_pack())


def test_the_sheet_holds_the_deal_the_step_through_viewer_shows() -> None:
    """The sheet and the viewer both start from play_hand: the record's deal is the sheet's, in order."""
    for game, preset, seats, seed in [
        ("three-card-loo", "peel", 5, 12),
        ("five-card-loo", "pam", 4, 3),
        ("nap", "hoffmann", 4, 14),
        ("domino-loo", "celko", 4, 53),
        ("domino-rounce", "rounce", 3, 65),
    ]:
        record = record_of(play_hand(game, preset, seed=seed, seats=seats))
        deal = read(deal_sheet(game, preset, [seed], seats=seats)).deals[seed]
        assert [deal[f"seat {s}"] for s in range(seats)] == record["deal"]["hands"]
        if "miss" in record["deal"]:
            assert deal["miss"] == record["deal"]["miss"]
        if "turnup" in record["deal"]:
            assert deal["turnup"] == [record["deal"]["turnup"]]


@pytest.mark.parametrize(
    ("game", "preset", "seats", "seed"),
    [("domino-loo", "celko", 4, 53), ("domino-loo", "celko", 3, 7), ("domino-rounce", "rounce", 4, 2)],
)
def test_domino_sheets_list_the_tiles_the_turnup_and_each_miss_or_dummy(
    game: str, preset: str, seats: int, seed: int
) -> None:
    deal = read(deal_sheet(game, preset, [seed], seats=seats)).deals[seed]
    hand = kit_deal(game, preset, seed, seats)
    for seat in range(seats):
        assert deal[f"seat {seat}"] == [str(t) for t in hand.dealt[seat]]
    assert deal["turnup"] == [str(hand.turnup)]
    spare = "dummy" if game == "domino-rounce" else "miss"
    assert [deal[f"{spare}-{i + 1}"] for i in range(len(hand.misses))] == [[str(t) for t in m] for m in hand.misses]
    listed = [t for box in deal.values() for t in box]
    assert len(listed) == len(set(listed)) and set(listed) <= {str(t) for t in full_set()}


def test_each_piece_is_written_in_symbols_and_in_words() -> None:
    texts = read(deal_sheet("three-card-loo", "peel", [12], seats=5)).texts[12]
    assert texts["turnup"] == ["Q♥ queen of hearts"]
    hand = kit_deal("three-card-loo", "peel", 12, 5)
    assert texts["seat 0"] == [" ".join(piece_text(c)) for c in hand.dealt[0]]
    assert all(re.fullmatch(r"(10|[2-9AKQJ])[♣♦♥♠] \w+ of \w+", t) for box in texts.values() for t in box)
    tiles = read(deal_sheet("domino-loo", "celko", [53], seats=4)).texts[53]
    assert tiles["turnup"] == ["4-1 four-one"]
    assert piece_text(Tile.parse("0-0")) == ("0-0", "double blank")
    assert piece_text(Card.parse("JC")) == ("J♣", "knave of clubs")


def test_pam_is_named_on_a_five_card_sheet() -> None:
    """The knave of clubs is marked wherever it lies, so a class knows Pam when they see it."""
    for seed in range(40):
        hand = kit_deal("five-card-loo", "pam", seed, 5)
        if any(Card.parse("JC") in h for h in hand.dealt):
            break
    sheet = deal_sheet("five-card-loo", "pam", [seed], seats=5)
    assert "knave of clubs (Pam)" in sheet


def test_the_sheet_is_a_whole_printable_document_with_no_script_and_one_page_a_deal() -> None:
    sheet = deal_sheet("nap", "hoffmann", [13, 14], seats=4, names=["Ada", "Bo", "Cy", "Di"])
    assert sheet.startswith("<!DOCTYPE html>") and sheet.rstrip().endswith("</html>")
    assert "<script" not in sheet and "http" not in sheet and "<img" not in sheet
    assert "break-after: page" in sheet and "@page" in sheet
    assert sheet.count('<section class="deal"') == 2
    assert "Di deals; Ada, on the dealer's left, is the eldest hand" in unescape(sheet)
    assert sheet == deal_sheet("nap", "hoffmann", [13, 14], seats=4, names=["Ada", "Bo", "Cy", "Di"])


def test_the_download_link_and_the_preview_carry_the_sheet_unchanged() -> None:
    sheet = deal_sheet("three-card-loo", "peel", [3], seats=4)
    link = download_link(sheet, "lesson-1.html", "Lesson 1")
    match = re.fullmatch(r'<a download="lesson-1\.html" href="data:text/html;charset=utf-8;base64,([A-Za-z0-9+/=]+)">'
                         r"Lesson 1</a>", link)  # fmt: skip
    assert match and base64.b64decode(match.group(1)).decode("utf-8") == sheet
    frame = sheet_preview(sheet, title="Deal sheet, seed 3")
    srcdoc = re.search(r'srcdoc="([^"]*)"', frame)
    assert srcdoc and unescape(srcdoc.group(1)) == sheet and 'title="Deal sheet, seed 3"' in frame


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"game": "whist", "preset": None, "seeds": [1], "seats": 4}, "game"),
        ({"game": "three-card-loo", "preset": "hoyle", "seeds": [1], "seats": 4}, "preset"),
        ({"game": "domino-loo", "preset": "peel", "seeds": [1], "seats": 4}, "preset"),
        ({"game": "three-card-loo", "preset": "peel", "seeds": [1], "seats": 17}, "seats"),
        ({"game": "three-card-loo", "preset": "peel", "seeds": [1], "seats": 1}, "seats"),
        ({"game": "five-card-loo", "preset": "pam", "seeds": [1], "seats": 11}, "seats"),
        ({"game": "nap", "preset": "hoffmann", "seeds": [1], "seats": 11}, "seats"),
        ({"game": "domino-loo", "preset": "celko", "seeds": [1], "seats": 5}, "seats"),
        ({"game": "domino-rounce", "preset": "rounce", "seeds": [1], "seats": 0}, "seats"),
        ({"game": "nap", "preset": "hoffmann", "seeds": [1], "seats": True}, "seats"),
        ({"game": "nap", "preset": "hoffmann", "seeds": [], "seats": 4}, "seeds"),
        ({"game": "nap", "preset": "hoffmann", "seeds": "12", "seats": 4}, "seeds"),
        ({"game": "nap", "preset": "hoffmann", "seeds": [1.5], "seats": 4}, "seeds"),
        ({"game": "nap", "preset": "hoffmann", "seeds": [1], "seats": 4, "names": ["Ann", "Ben"]}, "names"),
        ({"game": "nap", "preset": "hoffmann", "seeds": [1], "seats": 2, "names": ["Ann", " "]}, "names"),
    ],
)
def test_bad_input_raises_a_value_error_naming_what_was_wrong(kwargs: dict[str, Any], named: str) -> None:
    game, preset, seeds = kwargs.pop("game"), kwargs.pop("preset"), kwargs.pop("seeds")
    with pytest.raises(ValueError, match=rf"^{named}: ") as info:
        deal_sheet(game, preset, seeds, **kwargs)
    if named == "seats" and isinstance(kwargs["seats"], int) and kwargs["seats"] > 2:
        assert str(kwargs["seats"]) in str(info.value)
    if named == "game":
        assert "'whist'" in str(info.value)


def test_more_seats_than_the_book_has_names_for_get_names_of_their_own() -> None:
    reader = read(deal_sheet("three-card-loo", "peel", [5], seats=10))
    assert len([box for box in reader.deals[5] if box.startswith("seat ")]) == 10
    assert "Player 9" in deal_sheet("three-card-loo", "peel", [5], seats=10)
