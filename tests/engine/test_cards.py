"""Cards: parse and canonical format as in docs/records.md ("Cards and tiles")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loo import Card, CardError, Hand, Rank, Suit, full_pack, parse_cards

CANONICAL = [r + s for s in "CDHS" for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]]


@pytest.mark.parametrize("text", CANONICAL)
def test_every_card_parses_and_formats_canonically(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert Card.parse(str(card)) == card


@pytest.mark.law("L3-GEN-02")
def test_the_pack_has_52_distinct_cards_in_canonical_form() -> None:
    pack = full_pack()
    assert len(pack) == 52 == len(set(pack))
    assert sorted(str(c) for c in pack) == sorted(CANONICAL)


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("TH", "10H"),  # T for ten
        ("tc", "10C"),
        ("qh", "QH"),  # lower case
        ("10s", "10S"),
        ("aS", "AS"),
        ("Q♥", "QH"),  # suit symbols
        ("A♠", "AS"),
        ("7♦", "7D"),
        ("J♣", "JC"),
        ("T♣", "10C"),
        ("k♥\ufe0f", "KH"),  # a typed heart emoji carries a variation selector
    ],
)
def test_reader_aliases(alias: str, canonical: str) -> None:
    assert str(Card.parse(alias)) == canonical


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("1C", "'1' is not a rank"),
        ("ZZ", "a card is a rank"),
        ("", "it is empty"),
        ("Q", "too short"),
        ("QX", "'X' is not a suit"),
        ("11H", "'11' is not a rank"),
        ("AHH", "'AH' is not a rank"),
        ("JOKER", "a card is a rank"),
        (" QH", "' Q' is not a rank"),
        ("0S", "'0' is not a rank"),
    ],
)
def test_bad_cards_are_rejected_with_a_clear_error(bad: str, says: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(bad)
    message = str(info.value)
    assert repr(bad) in message, "the error quotes the input"
    assert says in message
    assert "such as 'QH'" in message or "expected text" in message
    assert isinstance(info.value, ValueError)


def test_non_text_is_rejected() -> None:
    with pytest.raises(CardError, match="expected text, got int"):
        Card.parse(12)  # type: ignore[arg-type]


def test_accessible_names_use_the_sources_words() -> None:
    assert Card.parse("QH").name == "queen of hearts"
    assert Card.parse("JC").name == "knave of clubs"
    assert Card.parse("10D").name == "ten of diamonds"
    assert Card.parse("AS").name == "ace of spades"
    assert len({c.name for c in full_pack()}) == 52


def test_ordering_groups_by_suit_then_rank() -> None:
    hand = parse_cards("AS 2C KH 10C 3H")
    assert [str(c) for c in sorted(hand)] == ["2C", "10C", "3H", "KH", "AS"]
    assert Card(Rank.ACE, Suit.CLUBS) > Card(Rank.KING, Suit.CLUBS)


def test_hand_parse_and_sorted_for_display() -> None:
    hand = Hand.parse("2C, AS 10h")
    assert str(hand) == "2C AS 10H"
    assert str(hand.sorted()) == "2C 10H AS"
    assert Card.parse("AS") in hand and len(hand) == 3


def test_a_bad_card_in_a_list_names_that_card() -> None:
    with pytest.raises(CardError, match="'1C'"):
        parse_cards("AS 1C 2D")


cards = st.sampled_from(full_pack())


@given(cards, st.booleans(), st.booleans(), st.booleans())
def test_any_spelling_reads_back_to_the_same_card(card: Card, lower: bool, symbol: bool, tee: bool) -> None:
    rank = "T" if tee and card.rank == Rank.TEN else card.rank.symbol
    suit = card.suit.symbol if symbol else card.suit.letter
    text = rank + suit
    if lower:
        text = text.lower()
    assert Card.parse(text) == card
    assert str(Card.parse(text)) == str(card)


@given(st.text(max_size=4))
def test_parse_either_reads_a_real_card_or_raises_card_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardError:
        return
    assert card in full_pack()
    assert Card.parse(str(card)) == card
