"""The pieces drawn as HTML and put in words: a card or a tile, a row of them, their names, an action's label.

Every drawing of a hand uses these: the table (:func:`widgets.draw.table_board.board_html`), the
buttons of the live table, its hints and summaries, the step-through viewer and the book, so a
piece looks and reads the same wherever a reader meets it. Pam (:func:`pam_card`) follows from
public facts alone, so any seat may be told which card she is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loo.core.actions import Action
from loo.core.cards import Card, Rank, Suit
from loo.core.protocols import Piece, TurnupView, View
from loo.core.tiles import Tile
from loo.games.loo.rules import Game, Pam, Rules
from loo.svg import card_svg, hand_svg, tile_svg, tiles_svg

DECLARATIONS = {"stand": "Stand", "miss": "Take the miss", "throw": "Throw up"}
CALLS = {"pass": "Pass", "misery": "Misery", "nap": "Nap", "wellington": "Wellington"}
LIST_VERBS = {"exchange": "Exchange", "garnet": "Throw out", "purchase": "Buy"}


def piece_label(piece: Piece) -> str:
    """Short text for a card or tile on a button: ``Q♥``, ``6-3``."""
    if isinstance(piece, Card):
        return piece.rank.symbol + piece.suit.symbol
    return str(piece)


def pam_card(view: View) -> Card | None:
    """Pam, where the game has her: the knave of clubs, or with running Pam the trump knave (L5-RANK-01/02).

    Both follow from public facts (the rules and the turn-up), so any seat may be told which card she is.
    """
    rules = view.rules
    turnup = view.turnup if isinstance(view, TurnupView) else None
    if not isinstance(rules, Rules) or rules.game is not Game.FIVE_CARD or not isinstance(turnup, Card):
        return None
    return Card(Rank.KNAVE, turnup.suit if rules.pam is Pam.TRUMP_KNAVE else Suit.CLUBS)


def piece_name(piece: Piece, pam: Card | None = None) -> str:
    """A card's or tile's accessible name: "queen of hearts", "knave of clubs, Pam", "six-three"."""
    name = piece.name
    return f"{name}, Pam" if pam is not None and piece == pam else name


def action_label(action: Action) -> str:
    if action.verb == "declare":
        return DECLARATIONS.get(action.value, str(action.value))
    if action.verb == "call":
        return CALLS.get(action.value, f"Call {action.value}")
    if action.verb == "play":
        suit = f" (as {action.suit}s)" if action.suit is not None else ""
        return piece_label(action.value) + suit
    if action.verb == "for-pool":
        return "Play the miss for the pool"
    if action.verb == "take-turnup":
        return f"Take the turn-up, discard the {piece_name(action.value)}"  # the piece in words, in full
    if action.verb == "peep":
        return "Peep at the top card"
    if action.verb == "garnet" and not action.value:
        return "Take up Sir Garnet's extra hand"
    if action.verb in LIST_VERBS:
        pieces = ", ".join(piece_label(p) for p in action.value)
        return f"{LIST_VERBS[action.verb]} {pieces}" if pieces else f"{LIST_VERBS[action.verb]} nothing"
    return action.verb.replace("-", " ").capitalize()


def tile_html(tile: Tile, *, width: float = 64) -> str:
    """A domino drawn as a tile, named for screen readers ("six-three")."""
    return tile_svg(tile, width=width)


def piece_html(piece: Piece, width: float = 40, *, four_colour: bool = False) -> str:
    """One card, or one domino tile drawn a little wider to sit beside cards of ``width``."""
    if isinstance(piece, Card):
        return card_svg(piece, width=width, four_colour=four_colour)
    return tile_html(piece, width=width * 1.4)


def pieces_html(pieces: Sequence[Any], *, width: float, label: str, four_colour: bool = False) -> str:
    """A row of cards or domino tiles, drawn, with one accessible name for the row."""
    if all(isinstance(c, Card) for c in pieces):
        return hand_svg(list(pieces), width=width, label=label, four_colour=four_colour)
    return tiles_svg(list(pieces), width=width * 1.4, label=label)
