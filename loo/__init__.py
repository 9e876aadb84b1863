"""Lanterloo's rules package: Loo and its relatives, standard library only.

>>> from loo import Card
>>> Card.parse("JC").name
'knave of clubs'
"""

from loo.cards import Card, CardError, Hand, Rank, Suit, full_pack, parse_cards
from loo.deal import Deal, DealError, deal_three_card, shuffled_pack
from loo.svg import register_drawings

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
