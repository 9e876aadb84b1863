"""Suits, ranks and cards, with the parse/format pair of docs/records.md.

The canonical form of a card is its rank (``A K Q J 10 9 8 7 6 5 4 3 2``)
followed by its suit letter (``C D H S``): ``QH``, ``10S``.  Readers also
accept ``T`` for ten, lower case, and the suit symbols; writers always
write the canonical form.

>>> Card.parse("qh")
Card.parse('QH')
>>> str(Card.parse("T♠"))
'10S'
>>> Card.parse("QH").name
'queen of hearts'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum

from loo.core.drawers import drawn


class CardError(ValueError):
    """A card (or list of cards) that cannot be read.

    The message quotes the input with ``!r`` and says what a card looks like.
    """


class Suit(IntEnum):
    """The four suits, in the order used for sorting a hand for display."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in the canonical card form: ``C D H S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♣ ♦ ♥ ♠``."""
        return "♣♦♥♠"[self]

    @property
    def plural(self) -> str:
        """The suit's name as spoken in a card's name: ``clubs``."""
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(IntEnum):
    """Ranks valued so that a higher rank wins: the ace is high in play (L3-GEN-03)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    KNAVE = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The rank as written in the canonical card form: ``A K Q J 10 … 2``."""
        return _RANK_SYMBOLS[self]

    @property
    def spoken(self) -> str:
        """The rank as spoken, in the sources' words: ``knave``, not ``jack``."""
        return _RANK_SPOKEN[self]

    @property
    def is_court(self) -> bool:
        return self in (Rank.KNAVE, Rank.QUEEN, Rank.KING)


_RANK_SYMBOLS = {
    Rank.ACE: "A",
    Rank.KING: "K",
    Rank.QUEEN: "Q",
    Rank.KNAVE: "J",
    **{Rank(v): str(v) for v in range(2, 11)},
}
_RANK_SPOKEN = {
    Rank.ACE: "ace",
    Rank.KING: "king",
    Rank.QUEEN: "queen",
    Rank.KNAVE: "knave",
    Rank.TEN: "ten",
    Rank.NINE: "nine",
    Rank.EIGHT: "eight",
    Rank.SEVEN: "seven",
    Rank.SIX: "six",
    Rank.FIVE: "five",
    Rank.FOUR: "four",
    Rank.THREE: "three",
    Rank.TWO: "two",
}

# Reader aliases (docs/records.md, "Cards and tiles"): T for ten, lower case, suit symbols.
_RANK_BY_TEXT = {r.symbol: r for r in Rank} | {"T": Rank.TEN}
_SUIT_BY_TEXT = {s.letter: s for s in Suit} | {s.symbol: s for s in Suit}
_VARIATION_SELECTOR = "\ufe0f"  # typed suit emoji often carry it: "♥️"
_EXPECTED = (
    "a card is a rank (A K Q J 10 9 8 7 6 5 4 3 2, or T for ten) and a suit (C D H S or ♣ ♦ ♥ ♠), such as 'QH' or '10S'"
)


@functools.total_ordering
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card of the 52-card pack.

    Cards sort by suit, then rank, which groups a hand by suit for display.
    Equality and hashing use both fields, so cards work in sets and as keys.
    ``index`` numbers the pack from 0 (the two of clubs) to 51 (the ace of spades), suit by suit:
    the form the engine's rule functions compute on (:data:`CARDS` maps it back).
    """

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.suit * 13 + self.rank - 2)
        object.__setattr__(self, "_hash", hash((self.rank, self.suit)))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is Card:
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card, accepting the aliases of docs/records.md; raise :class:`CardError` otherwise.

        >>> Card.parse("10s") == Card(Rank.TEN, Suit.SPADES)
        True
        >>> try:
        ...     Card.parse("1C")
        ... except CardError as error:
        ...     print(error)  # doctest: +ELLIPSIS
        invalid card '1C': '1' is not a rank; a card is a rank (A K Q J 10 9 8 7 6 5 4 3 2, or T for ten) and ...
        """
        if not isinstance(text, str):
            raise CardError(f"invalid card {text!r}: expected text, got {type(text).__name__}")
        body = text.replace(_VARIATION_SELECTOR, "").upper()
        if not body:
            raise CardError(f"invalid card {text!r}: it is empty; {_EXPECTED}")
        if len(body) < 2:
            raise CardError(f"invalid card {text!r}: too short; {_EXPECTED}")
        rank_text, suit_text = body[:-1], body[-1]
        suit = _SUIT_BY_TEXT.get(suit_text)
        rank = _RANK_BY_TEXT.get(rank_text)
        if suit is None and rank is None:
            raise CardError(f"invalid card {text!r}: {_EXPECTED}")
        if suit is None:
            raise CardError(f"invalid card {text!r}: {text[-1]!r} is not a suit; {_EXPECTED}")
        if rank is None:
            raise CardError(f"invalid card {text!r}: {text[:-1]!r} is not a rank; {_EXPECTED}")
        return cls(rank, suit)

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.suit, self.rank) < (other.suit, other.rank)

    @property
    def name(self) -> str:
        """The card's accessible name, as a screen reader should say it: ``"queen of hearts"``."""
        return f"{self.rank.spoken} of {self.suit.plural}"

    def _repr_svg_(self) -> str | None:
        return drawn(self)  # loo.svg's card_svg


def parse_cards(texts: Iterable[str] | str) -> tuple[Card, ...]:
    """Read several cards: a list of card strings, or one string separated by spaces or commas.

    >>> [str(c) for c in parse_cards("AS, t♥ 2c")]
    ['AS', '10H', '2C']
    """
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return tuple(Card.parse(t) for t in texts)


def full_pack() -> tuple[Card, ...]:
    """The 52 cards, in a fixed order (suit by suit, two to ace): the unshuffled pack."""
    return CARDS


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The pack made once, in :attr:`Card.index` order: ``CARDS[card.index] == card``."""


@dataclass(frozen=True)
class Hand:
    """A hand of cards as dealt, which renders itself in a notebook.

    >>> hand = Hand.parse("AS 10H 2C")
    >>> str(hand), len(hand)
    ('AS 10H 2C', 3)
    >>> hand.names()
    ['ace of spades', 'ten of hearts', 'two of clubs']
    """

    cards: tuple[Card, ...]

    @classmethod
    def parse(cls, texts: Iterable[str] | str) -> Hand:
        return cls(parse_cards(texts))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def names(self) -> list[str]:
        return [c.name for c in self.cards]

    def sorted(self) -> Hand:
        """The same cards grouped by suit, highest first within a suit (the way a player holds them)."""
        return Hand(tuple(sorted(self.cards, key=lambda c: (c.suit, -c.rank))))

    def _repr_svg_(self) -> str | None:
        return drawn(self)  # loo.svg's hand_svg
