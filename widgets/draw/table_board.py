"""The table drawn as HTML from one seat's view, by one renderer: :func:`board_html`.

It draws the seats (each with its marks: dealer, eldest hand, what it declared or called, the turn,
its tricks), the hands, the trick in progress and what the middle of the table tells everyone
(the contract, trumps, the peep, the turn-up, the miss, the pool). It reads a seat's view, or the
hands the teaching switch or a finished record opens, never the whole deal, so what it draws is
what that seat may see. Two layouts lay out the same facts (:class:`Layout`):

- :data:`LIST`, the printed views' (the step-through viewer, the book's records and questions, the
  console): the seats in a row, then the trick and the facts below them;
- :data:`ROUND`, the live table's: the seats round a green cloth, the reader at the bottom. Play goes
  to the left, so the next seat after the reader's sits on the left of the cloth, the seats after it
  across the top, and the last before the reader on the right (:func:`places`). The middle of the
  cloth holds the trick, each piece above its player's name, and the facts beside it. Its looks are
  in the card sheet (:func:`widgets.draw.card_style.table_rules`), which every live table has; the
  reader's own hand, when it is the row of card buttons, sits just below the cloth.

What differs between the games comes from the game's descriptor (:func:`loo.registry.spec`): whether
its pieces are cards or tiles decides how a hand is drawn face down, what the miss is called and
what the empty trick says. What differs between the layouts is the :class:`Layout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from loo.core.cards import Card
from loo.core.protocols import CallingView, DeclaringView, MissesView, MissView, Piece, TurnupView, View
from loo.core.tiles import NUMBER_PLURALS, Tile
from loo.registry import spec
from loo.svg import hand_svg, tiles_svg
from widgets.draw.board import pam_card, piece_html, piece_name, pieces_html

__all__ = ["LIST", "ROUND", "Layout", "board_html", "miss_words", "places", "trumps_words"]

CALLED = {"pass": "passed", "misery": "calls Misery", "nap": "calls Nap", "wellington": "calls Wellington"}
NAP_CONTRACTS = {
    "1": "for one trick",
    "2": "for two tricks",
    "3": "for three tricks",
    "4": "for four tricks",
    "nap": "Nap, all five tricks",
    "wellington": "Wellington, all five at double stakes",
    "misery": "Misery, to take no trick",
}
SAID = {"stand": "stands", "miss": "took the miss", "throw": "threw up", "for-pool": "plays the miss for the pool"}
SIDES = ("left", "top", "right")
OPEN_WIDTH = 40  # another seat's card face up (teaching, or a finished hand), in pixels; a tile is 1.4 times as wide
BACK_WIDTH = 46  # another seat's card face down, fanned round the cloth


@dataclass(frozen=True)
class Layout:
    """How the table is laid out: round a cloth or in a row, and the sizes and words that go with it."""

    round: bool  # the seats round a cloth, the reader at the bottom; else in a row above the trick
    own_width: float  # the reader's own cards, in pixels
    trick_width: float  # a card in the trick
    peep_width: float  # the card the reader peeped at
    turnup_width: float
    turnup_words: str  # what comes before the turn-up's drawing
    pool_over_words: str  # what the pool is called once the hand is over


LIST = Layout(
    round=False,
    own_width=56,
    trick_width=40,
    peep_width=40,
    turnup_width=40,
    turnup_words="Turn-up: ",
    pool_over_words="This hand was played for a pool of",
)
ROUND = Layout(
    round=True,
    own_width=64,
    trick_width=60,
    peep_width=36,
    turnup_width=48,
    turnup_words="Turn-up",
    pool_over_words="Played for a pool of",
)


@dataclass(frozen=True)
class _Drawing:
    """One drawing of the table: what :func:`board_html` was given, and the game's pieces."""

    view: View
    names: Sequence[str]
    seat: int
    layout: Layout
    tiles: bool  # the game is played with tiles (its descriptor's piece), not cards
    pam: Card | None
    four_colour: bool
    open_hands: Sequence[Sequence[Piece] | None] | None
    open_label: str

    @property
    def noun(self) -> str:
        return "tile" if self.tiles else "card"


def places(seats: int, seat: int) -> dict[str, list[int]]:
    """Where each other seat sits round the cloth, as seen from ``seat`` at the bottom.

    Play goes to the left: the seat after the reader's is on the left, the last before it on the
    right, and the rest across the top, in the order they play.

    >>> places(4, 0)
    {'left': [1], 'top': [2], 'right': [3]}
    >>> places(5, 2)
    {'left': [3], 'top': [4, 0], 'right': [1]}
    >>> places(2, 1), places(3, 0)
    ({'left': [], 'top': [0], 'right': []}, {'left': [1], 'top': [], 'right': [2]})
    """
    others = [(seat + k) % seats for k in range(1, seats)]
    if len(others) == 1:
        return {"left": [], "top": others, "right": []}
    if len(others) == 2:
        return {"left": others[:1], "top": [], "right": others[1:]}
    side = 2 if len(others) >= 7 else 1  # a big table puts two seats on each side
    return {"left": others[:side], "top": others[side:-side], "right": others[-side:]}


def trumps_words(view: View) -> str | None:
    """The trump suit in words, where the table knows it: "diamonds", "sixes"; None where no suit is trumps yet."""
    if isinstance(view, CallingView):
        if view.trump is not None and view.trumps_fixed:
            return view.trump.plural
        return None
    turnup = view.turnup if isinstance(view, TurnupView) else None
    if isinstance(turnup, Card):
        return turnup.suit.plural
    if isinstance(turnup, Tile):
        return NUMBER_PLURALS[turnup.high]  # the turn-up's higher end names trumps (DL-DEAL-04)
    return None


def miss_words(count: int, tiles: bool) -> str:
    """The miss still on the table, in words: "3 cards face down", "1 spare hand face down"."""
    if tiles:  # each of the dominoes' misses is a whole spare hand of tiles
        return f"{count} spare hand{'s' if count != 1 else ''} face down"
    return f"{count} card{'s' if count != 1 else ''} face down"


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
    layout: Layout = LIST,
    show_own: bool = True,
    open_hands: Sequence[Sequence[Piece] | None] | None = None,
    four_colour: bool = False,
    open_label: str = ", face up for teaching",
    note: str = "",
    over: str = "",
) -> str:
    """The table as ``seat`` sees it, as HTML, laid out by ``layout`` (see the module's text).

    ``show_own`` draws the reader's pieces in their place (the live table turns it off while they
    are the row of buttons under the cloth). ``open_hands`` (the teaching switch, or a finished
    record) gives every other seat's pieces to draw face up; without it their hands are drawn face
    down, as many as they hold. ``open_label`` follows the seat's name in the accessible name of a
    hand shown so; ``four_colour`` draws the cards of the four-colour deck. Seat -1 is nobody's:
    no "you", every hand drawn from ``open_hands``. Round the cloth alone, ``note`` is a line added
    to the middle's facts and ``over`` a drawing laid over the middle (the last trick, when asked
    for), neither of which moves anything else.
    """
    if (note or over) and not layout.round:
        raise ValueError("a note or a drawing over the middle goes round the cloth (layout=ROUND)")
    drawing = _Drawing(
        view,
        names,
        seat,
        layout,
        tiles=spec(str(view.rules.game)).piece == "tile",
        pam=pam_card(view),
        four_colour=four_colour,
        open_hands=open_hands,
        open_label=open_label,
    )
    facts = "".join(_facts(drawing, note))
    if not layout.round:
        rows = "".join(_seat_html(drawing, p, _row_hand(drawing, p, show_own)) for p in range(len(names)))
        return (
            '<div class="loo-board" style="font-family:system-ui,sans-serif;font-size:14px">'
            f'<div style="display:flex;flex-wrap:wrap;gap:10px 18px">{rows}</div>{_trick_html(drawing)}{facts}</div>'
        )
    at = places(len(names), seat)
    sides = "".join(
        f'<div class="loo-side loo-side-{where}">'
        + "".join(_seat_html(drawing, p, _other_hand(drawing, p), where) for p in at[where])
        + "</div>"
        for where in SIDES
    )
    laid = f'<div class="loo-over">{over}</div>' if over else ""
    middle = f'<div class="loo-middle">{_trick_html(drawing)}<div class="loo-facts">{facts}</div>{laid}</div>'
    me = _seat_html(drawing, seat, _own_at_bottom(drawing, show_own), "bottom")
    return f'<div class="loo-board"><div class="loo-felt loo-round">{sides}{middle}{me}</div></div>'


def _face_down(d: _Drawing, size: int, label: str) -> str:
    """``size`` pieces face down: fanned round the cloth (tiles on end), in a row in the printed views."""
    if d.layout.round:
        if d.tiles:
            return tiles_svg([None] * size, width=20, vertical=True, label=label)
        return hand_svg([None] * size, width=BACK_WIDTH, overlap=0.55, label=label)
    return (
        tiles_svg([None] * size, width=40, label=label) if d.tiles else hand_svg([None] * size, width=32, label=label)
    )


def _own_pieces(d: _Drawing, pieces: Sequence[Piece]) -> str:
    named = ", ".join(piece_name(c, d.pam) for c in pieces)
    return pieces_html(pieces, width=d.layout.own_width, label=f"your hand: {named}", four_colour=d.four_colour)


def _other_hand(d: _Drawing, p: int) -> str:
    """Seat ``p``'s hand: face up where ``open_hands`` gives it, else face down, as many as it holds."""
    shown = d.open_hands[p] if d.open_hands is not None else None
    if shown:
        named = ", ".join(piece_name(c, d.pam) for c in shown)
        label = f"{d.names[p]}'s hand{d.open_label}: {named}"
        return pieces_html(shown, width=OPEN_WIDTH, label=label, four_colour=d.four_colour)
    size = d.view.hand_sizes[p]
    return _face_down(d, size, f"{d.names[p]}'s hand: {size} face down") if size else ""


def _row_hand(d: _Drawing, p: int, show_own: bool) -> str:
    """Seat ``p``'s hand in the row of seats: the reader's own face up while it holds any."""
    if p != d.seat:
        return _other_hand(d, p)
    if not show_own:
        return ""
    if d.view.hand:  # once every piece is played, no empty drawing of the hand
        return _own_pieces(d, d.view.hand)
    size = d.view.hand_sizes[p]
    return _face_down(d, size, f"{d.names[p]}'s hand: {size} face down") if size else ""


def _own_at_bottom(d: _Drawing, show_own: bool) -> str:
    """The reader's hand at the bottom of the cloth, greyed while it is not to be played yet."""
    view, seat = d.view, d.seat
    waiting = view.to_act != seat and view.settlement is None
    if show_own and view.hand:  # once every piece is played, no empty drawing of the hand
        own = _own_pieces(d, view.hand)
        return f'<div class="loo-own-waiting">{own}</div>' if waiting else own
    if show_own and view.hand is None and 0 <= seat < len(view.hand_sizes) and view.hand_sizes[seat]:
        # Three-card Loo: a hand is looked at only when its owner's turn to declare comes (CF-17).
        # It is dealt all the same: drawn face down, with why, so that nobody thinks they have none.
        size = view.hand_sizes[seat]
        return (
            f'<div class="loo-own-waiting">{_face_down(d, size, f"your hand: {size} face down")}</div>'
            f'<p class="loo-own-note">Your {size} cards, face down: you look at them when your turn to '
            "declare comes (CF-17).</p>"
        )
    return ""


def _seat_html(d: _Drawing, p: int, cards: str, where: str = "") -> str:
    """Seat ``p``'s name, its marks and its hand; round the cloth, placed ``where`` and lit on its turn."""
    view, names, seat = d.view, d.names, d.seat
    marks = seat_marks(view, p, seat, len(names))
    place = ""
    if d.layout.round:
        if p == seat and view.put_out and view.settlement is None:  # what the reader changed (exchanged, discarded)
            count = len(view.put_out)
            marks.insert(-1 if view.to_act == p else len(marks), f"put out {count} {d.noun}{'s' if count != 1 else ''}")
        place = f" loo-at-{where}" + (" loo-to-act" if view.to_act == p and view.settlement is None else "")
    who = f"{names[p]} (you)" if p == seat else names[p]
    return (
        f'<div class="loo-seat{place}"><div class="loo-seat-name">{escape(who)}'
        f"{' · ' + escape(', '.join(marks)) if marks else ''}</div>{cards}</div>"
    )


def _trick_html(d: _Drawing) -> str:
    """The trick in progress: round the cloth each piece above its player's name, in a row "Ann: Q♥"."""
    view, names, width, four = d.view, d.names, d.layout.trick_width, d.four_colour
    group = ' role="group"' if d.layout.round else ""
    if not view.current:
        said = "The hand is over." if view.settlement is not None else f"No {d.noun} on the table yet."
        empty = " loo-trick-empty" if d.layout.round else ""
        return f'<div class="loo-trick{empty}"{group} aria-label="the trick in progress">{said}</div>'
    if d.layout.round:
        plays = "".join(
            f'<figure class="loo-play">{piece_html(c, width, four_colour=four)}'
            f"<figcaption>{escape(names[p])}</figcaption></figure>"
            for p, c in view.current
        )
    else:
        plays = "On the table: " + " ".join(
            f'<span class="loo-play">{escape(names[p])}: {piece_html(c, width, four_colour=four)}</span>'
            for p, c in view.current
        )
    return f'<div class="loo-trick"{group} aria-label="the trick in progress">{plays}</div>'


def _facts(d: _Drawing, note: str) -> list[str]:
    """What the middle of the table tells everyone: the contract, trumps, the peep, the turn-up, the
    miss and the pool; round the cloth, ``note`` first, and trumps on a line of their own."""
    view, names, layout, four = d.view, d.names, d.layout, d.four_colour
    facts = [note] if note else []
    trumps = trumps_words(view)
    if isinstance(view, CallingView):
        caller, call = view.caller, view.call
        if caller is not None and call:
            contract = NAP_CONTRACTS.get(call, f"{call} tricks")
            told = f"; trumps are {trumps}" if trumps is not None and not layout.round else ""
            facts.append(f'<div class="loo-contract">{escape(names[caller])} plays {escape(contract + told)}.</div>')
            if layout.round and trumps is None and view.settlement is None:
                facts.append('<div class="loo-trumps">Trumps: the suit of the first lead</div>')
        peep = view.peep_card
        if peep is not None and d.seat == view.seat:  # the peeper's own sight, never another's
            drawn = piece_html(peep, layout.peep_width, four_colour=four)
            facts.append(f'<div class="loo-peep">You peeped at: {drawn}</div>')
    if layout.round and trumps is not None:
        facts.append(f'<div class="loo-trumps">Trumps: <b>{escape(trumps)}</b></div>')
    turnup = view.turnup if isinstance(view, TurnupView) else None
    if turnup is not None:
        drawn = piece_html(turnup, layout.turnup_width, four_colour=four)
        facts.append(f'<div class="loo-turnup">{layout.turnup_words}{drawn}</div>')
    miss = view.miss_left if isinstance(view, MissView) else view.misses_left if isinstance(view, MissesView) else 0
    if miss and view.settlement is None:
        if layout.round:
            what = miss_words(miss, d.tiles)
        else:
            what = f"{miss} miss{'es' if miss != 1 else ''} face down" if d.tiles else f"{miss} cards face down"
        drawn = escape(what) if d.tiles else _face_down(d, miss, f"the miss: {what}")
        facts.append(f'<div class="loo-miss">The miss: {drawn}</div>')
    if has_pool(view):  # not Nap without a kitty, nor a game scored in points
        said = layout.pool_over_words if view.settlement is not None else "Pool:"
        chips = f"<b>{view.pool} chips</b>" if layout.round else f"{view.pool} chips"
        facts.append(f'<div class="loo-pool">{said} {chips}</div>')
    return facts
