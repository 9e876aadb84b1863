"""Lanterloo's rules package: Loo and its relatives, standard library only.

>>> from loo import Card
>>> Card.parse("JC").name
'knave of clubs'
"""

from typing import TYPE_CHECKING, Any

from loo.core.cards import Card, CardError, Hand, Rank, Suit, full_pack, parse_cards
from loo.core.shuffle import shuffled_pack
from loo.svg import register_drawings

if TYPE_CHECKING:
    from loo.games.loo.dealing import Deal, DealError, deal_three_card

register_drawings()  # cards, hands and tiles draw themselves in a notebook (loo.core.drawers)

__all__ = [
    "Card",
    "CardError",
    "Deal",
    "DealError",
    "Hand",
    "Rank",
    "Suit",
    "deal_three_card",
    "full_pack",
    "parse_cards",
    "shuffled_pack",
]


def __getattr__(name: str) -> Any:
    """Loo's plain deal (:mod:`loo.games.loo.dealing`), imported when first asked for: importing ``loo``
    for another game's table loads none of Loo's own modules."""
    if name in ("Deal", "DealError", "deal_three_card"):
        from loo.games.loo import dealing

        return getattr(dealing, name)
    raise AttributeError(f"module 'loo' has no attribute {name!r}")
