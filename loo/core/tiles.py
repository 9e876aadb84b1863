"""Dominoes of a double-six set, written high end first: ``6-3``, ``0-0`` (docs/records.md).

>>> Tile.parse("3-6"), str(Tile.parse("3-6")), Tile.parse("6-6").name
(Tile.parse('6-3'), '6-3', 'double six')
>>> len(full_set())
28
"""

from __future__ import annotations

from dataclasses import dataclass

from loo.core.drawers import drawn

NUMBERS = ("blank", "one", "two", "three", "four", "five", "six")
NUMBER_PLURALS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")  # a suit of dominoes


class TileError(ValueError):
    """A tile that cannot be read: the message quotes it and says what a tile looks like."""


_EXPECTED = "a tile is two numbers from 0 to 6 joined by a dash, such as '6-3' or '0-0'"


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A domino: ``high`` >= ``low``. Tiles sort by high end, then low end."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high <= 6):
            raise TileError(f"invalid tile {self.high}-{self.low}: {_EXPECTED}, high end first")

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with ends ``a`` and ``b`` in either order."""
        return cls(max(a, b), min(a, b))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``6-3``; the ends may come in either order, and spaces around the dash are allowed.

        The ends are ASCII digits (``'٣-6'`` is refused, as a card's rank is), and a long end is refused
        without being turned into a number.
        """
        if not isinstance(text, str):
            raise TileError(f"invalid tile {text!r}: expected text, got {type(text).__name__}")
        parts = [p.strip() for p in text.replace("–", "-").split("-")]
        if len(parts) != 2 or not all(p and p.isascii() and p.isdigit() for p in parts):
            raise TileError(f"invalid tile {text!r}: {_EXPECTED}")  # ASCII digits only, as for cards' ranks
        ends = [p.lstrip("0") or "0" for p in parts]
        if any(len(e) > 1 or e > "6" for e in ends):  # compared as text: a 5,000-digit end is never made a number
            raise TileError(f"invalid tile {text!r}: the ends run from 0 to 6 in a double-six set")
        a, b = (int(e) for e in ends)
        return cls.of(a, b)

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    def has(self, number: int) -> bool:
        return number in (self.high, self.low)

    def other(self, number: int) -> int:
        """The end that is not ``number`` (for a double, ``number`` itself)."""
        return self.low if self.high == number else self.high

    @property
    def name(self) -> str:
        """The accessible name: ``"six-three"``, ``"double blank"``."""
        if self.is_double:
            return f"double {NUMBERS[self.high]}"
        return f"{NUMBERS[self.high]}-{NUMBERS[self.low]}"

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    def _repr_svg_(self) -> str | None:
        return drawn(self)  # loo.svg's tile_svg


def full_set() -> tuple[Tile, ...]:
    """The 28 tiles of a double-six set, in a fixed order."""
    return tuple(Tile(h, low) for h in range(7) for low in range(h + 1))
