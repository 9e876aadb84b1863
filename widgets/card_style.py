"""Card faces for buttons: one stylesheet giving every card's button its drawing.

A button keeps the card's name as its label, so a screen reader says "queen of hearts" and the
keyboard reaches it like any button; the stylesheet paints the face over it and hides the text.
The sheet is the same for every reader and every deal: it tells nothing about who holds what.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import quote

from loo.cards import Card, full_pack
from loo.svg import card_svg


def card_class(card: Card) -> str:
    """The CSS class that paints ``card``'s face: ``loo-card-QH``."""
    return f"loo-card-{card}"


@cache
def card_stylesheet() -> str:
    """A ``<style>`` element for every card's face and for the state of a card button."""
    faces = "".join(
        f'.{card_class(c)}{{background-image:url("data:image/svg+xml,{quote(card_svg(c, width=64))}")}}'
        for c in full_pack()
    )
    rules = (
        ".loo-card-button{width:64px!important;height:90px!important;padding:0!important;border:none!important;"
        "background-color:transparent!important;background-size:contain;background-repeat:no-repeat;"
        "color:transparent!important;border-radius:7px;margin:2px 3px;transition:transform .08s}"
        ".loo-card-button.mod-primary{box-shadow:0 0 0 2px #1a6fd4,0 3px 6px rgba(0,0,0,.25)}"
        ".loo-card-button.mod-primary:hover{transform:translateY(-4px)}"
        ".loo-card-button.loo-illegal{opacity:.55;filter:grayscale(.4)}"
        ".loo-card-button:focus-visible{outline:3px solid #e0a000;outline-offset:2px}"
    )
    return f"<style>{rules}{faces}</style>"
