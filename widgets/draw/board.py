"""The table drawn as HTML from one seat's view: seats, the dealer, the trick, the turn-up, the pool.

Every function here reads a seat's view (or a record's public facts), never the whole deal, so
what it draws is what that seat may see. The live table, the step-through viewer and the book
all draw the table with these functions, so a hand looks the same wherever a reader meets it.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from loo.core.actions import Action
from loo.core.cards import Card, Rank, Suit
from loo.core.protocols import CallingView, DeclaringView, MissesView, MissView, Piece, TurnupView, View
from loo.core.tiles import Tile
from loo.games.loo.rules import Game, Pam, Rules
from loo.registry import spec
from loo.svg import card_svg, hand_svg, tile_svg, tiles_svg

DECLARATIONS = {"stand": "Stand", "miss": "Take the miss", "throw": "Throw up"}
CALLS = {"pass": "Pass", "misery": "Misery", "nap": "Nap", "wellington": "Wellington"}
LIST_VERBS = {"exchange": "Exchange", "garnet": "Throw out", "purchase": "Buy"}
CALLED = {"pass": "passed", "misery": "calls Misery", "nap": "calls Nap", "wellington": "calls Wellington"}
NAP_CONTRACTS = {"1": "for one trick", "2": "for two tricks", "3": "for three tricks", "4": "for four tricks",
                 "nap": "Nap, all five tricks", "wellington": "Wellington, all five at double stakes",
                 "misery": "Misery, to take no trick"}  # fmt: skip
SAID = {"stand": "stands", "miss": "took the miss", "throw": "threw up", "for-pool": "plays the miss for the pool"}


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


def seat_marks(view: View, p: int, seat: int, seats: int) -> list[str]:
    """What the table says beside seat ``p``'s name: dealer, eldest hand, its declaration or call, turn, tricks."""
    marks = []
    if p == view.dealer:
        marks.append("dealer")
    if p == (view.dealer + 1) % seats:
        marks.append("eldest hand")
    declared = view.declared if isinstance(view, DeclaringView) else None
    said = declared[p] if declared is not None else None
    if said:
        marks.append(SAID.get(said, said))
    calls = view.calls if isinstance(view, CallingView) else None
    called = calls[p] if calls is not None else None
    if called:
        marks.append(CALLED.get(called, f"calls {called}"))
    if view.to_act == p:
        marks.append("to play" if p != seat else "your turn")
    won = sum(1 for t in view.tricks if t.winner == p)
    if won:
        marks.append(f"{won} trick{'s' if won != 1 else ''}")
    return marks


def has_pool(view: View) -> bool:
    """Whether the table plays for a pool of chips: not Nap without a kitty, nor a domino game scored in points."""
    if str(getattr(view.rules, "domino_scoring", "chips")) != "chips":
        return False
    return bool(view.pool) or not isinstance(view, CallingView)


def board_html(
    view: View,
    names: Sequence[str],
    seat: int,
    *,
    show_own: bool = True,
    open_hands: Sequence[Sequence[Piece] | None] | None = None,
    four_colour: bool = False,
    open_label: str = ", face up for teaching",
) -> str:
    """The table as ``seat`` sees it, as HTML: seats, the dealer, the trick, the turn-up and the pool.

    ``open_hands`` (the teaching switch, or a finished record) gives every seat's pieces to draw
    face up; without it the other seats' hands are drawn face down, as many as they hold.
    ``open_label`` follows the seat's name in the accessible name of a hand shown so.
    ``four_colour`` draws the cards of the four-colour deck.
    """
    tiles = spec(str(view.rules.game)).piece == "tile"

    def face_down(size: int, label: str) -> str:
        return (
            tiles_svg([None] * size, width=40, label=label) if tiles else hand_svg([None] * size, width=32, label=label)
        )

    rows = []
    pam = pam_card(view)
    for p, name in enumerate(names):
        marks = seat_marks(view, p, seat, len(names))
        who = f"{name} (you)" if p == seat else name
        size = view.hand_sizes[p]
        shown = open_hands[p] if open_hands is not None and p != seat else None
        if p == seat and not show_own:
            cards = ""
        elif p == seat and view.hand:  # once every piece is played, no empty drawing of the hand
            named = ", ".join(piece_name(c, pam) for c in view.hand)
            cards = pieces_html(view.hand, width=56, label=f"your hand: {named}", four_colour=four_colour)
        elif shown:
            named = ", ".join(piece_name(c, pam) for c in shown)
            label = f"{name}'s hand{open_label}: {named}"
            cards = pieces_html(shown, width=40, label=label, four_colour=four_colour)
        else:
            cards = face_down(size, f"{name}'s hand: {size} face down") if size else ""
        rows.append(
            f'<div class="loo-seat"><div class="loo-seat-name">{escape(who)}'
            f"{' · ' + escape(', '.join(marks)) if marks else ''}</div>{cards}</div>"
        )
    trick = " ".join(
        f'<span class="loo-play">{escape(names[p])}: ' + piece_html(c, four_colour=four_colour) + "</span>"
        for p, c in view.current
    )
    if trick:
        trick = "On the table: " + trick
    else:
        trick = (
            "The hand is over."
            if view.settlement is not None
            else f"No {'tile' if tiles else 'card'} on the table yet."
        )
    turnup = view.turnup if isinstance(view, TurnupView) else None
    extras = []
    if isinstance(view, CallingView):
        caller, call, trump = view.caller, view.call, view.trump
        if caller is not None and call:
            trumps = f"; trumps are {trump.plural}" if trump is not None and view.trumps_fixed else ""
            contract = NAP_CONTRACTS.get(call, f"{call} tricks")
            extras.append(
                f'<div class="loo-contract">{escape(names[caller])} plays {escape(contract)}{escape(trumps)}.</div>'
            )
        peep = view.peep_card
        if peep is not None and seat == view.seat:  # the peeper's own sight, never another's
            extras.append(f'<div class="loo-peep">You peeped at: {piece_html(peep, four_colour=four_colour)}</div>')
    if turnup is not None:
        extras.append(f'<div class="loo-turnup">Turn-up: {piece_html(turnup, four_colour=four_colour)}</div>')
    miss = view.miss_left if isinstance(view, MissView) else view.misses_left if isinstance(view, MissesView) else 0
    if miss and view.settlement is None:
        what = f"{miss} miss{'es' if miss != 1 else ''} face down" if tiles else f"{miss} cards face down"
        extras.append(f'<div class="loo-miss">The miss: {escape(what)}</div>' if tiles else
                      f'<div class="loo-miss">The miss: {face_down(miss, f"the miss: {what}")}</div>')  # fmt: skip
    if has_pool(view):
        said = "This hand was played for a pool of" if view.settlement is not None else "Pool:"
        extras.append(f'<div class="loo-pool">{said} {view.pool} chips</div>')
    return (
        '<div class="loo-board" style="font-family:system-ui,sans-serif;font-size:14px">'
        '<div style="display:flex;flex-wrap:wrap;gap:10px 18px">' + "".join(rows) + "</div>"
        f'<div class="loo-trick" aria-label="the trick in progress">{trick}</div>' + "".join(extras) + "</div>"
    )
