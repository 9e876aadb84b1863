"""The live table drawn as a card table: the other seats round a green cloth, the reader at the bottom.

:func:`round_board_html` draws the same facts as :func:`widgets.draw.board.board_html` (it reads only
the reader's view, or the hands the teaching switch or a finished hand opens), laid out as
players sit: play goes to the left, so the next seat after the reader's sits on the left of the
cloth, the seats after it across the top, and the last before the reader on the right. The
middle of the cloth holds the trick in progress, each piece above its player's name, and beside
it what the eye looks for there: the trumps, the turn-up, the miss, the pool, the contract.

Its looks are in the card sheet (:func:`widgets.draw.card_style.table_rules`), which every live table
has; the reader's own hand, when it is the row of card buttons, sits just below the cloth.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from loo.core.cards import Card
from loo.core.protocols import CallingView, MissesView, MissView, Piece, TurnupView, View
from loo.core.tiles import NUMBER_PLURALS, Tile
from loo.registry import spec
from loo.svg import hand_svg, tiles_svg
from widgets.draw.board import NAP_CONTRACTS, has_pool, pam_card, piece_html, piece_name, pieces_html, seat_marks

SIDES = ("left", "top", "right")
TRICK_WIDTH = 60  # a card in the trick, in pixels (a tile is drawn 1.4 times as wide)
TURNUP_WIDTH = 48
BACK_WIDTH = 46  # an opponent's card face down, fanned
OPEN_WIDTH = 40  # an opponent's card face up (teaching, or a finished hand)


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


def _face_down(size: int, label: str, tiles: bool) -> str:
    if tiles:
        return tiles_svg([None] * size, width=20, vertical=True, label=label)
    return hand_svg([None] * size, width=BACK_WIDTH, overlap=0.55, label=label)


def _seat_html(
    view: View,
    names: Sequence[str],
    p: int,
    seat: int,
    *,
    where: str,
    cards: str,
) -> str:
    marks = seat_marks(view, p, seat, len(names))
    if p == seat and view.put_out and view.settlement is None:  # what the reader changed (exchanged, discarded)
        noun = spec(str(view.rules.game)).piece
        count = len(view.put_out)
        marks.insert(-1 if view.to_act == p else len(marks), f"put out {count} {noun}{'s' if count != 1 else ''}")
    who = f"{names[p]} (you)" if p == seat else names[p]
    turn = " loo-to-act" if view.to_act == p and view.settlement is None else ""
    return (
        f'<div class="loo-seat loo-at-{where}{turn}"><div class="loo-seat-name">{escape(who)}'
        f"{' · ' + escape(', '.join(marks)) if marks else ''}</div>{cards}</div>"
    )


def _hand_html(
    view: View,
    names: Sequence[str],
    p: int,
    open_hands: Sequence[Sequence[Piece] | None] | None,
    *,
    open_label: str,
    four_colour: bool,
    tiles: bool,
) -> str:
    pam = pam_card(view)
    shown = open_hands[p] if open_hands is not None else None
    if shown:
        named = ", ".join(piece_name(c, pam) for c in shown)
        label = f"{names[p]}'s hand{open_label}: {named}"
        return pieces_html(shown, width=OPEN_WIDTH, label=label, four_colour=four_colour)
    size = view.hand_sizes[p]
    return _face_down(size, f"{names[p]}'s hand: {size} face down", tiles) if size else ""


def _trick_html(view: View, names: Sequence[str], *, four_colour: bool, tiles: bool) -> str:
    if view.current:
        plays = "".join(
            f'<figure class="loo-play">{piece_html(c, TRICK_WIDTH, four_colour=four_colour)}'
            f"<figcaption>{escape(names[p])}</figcaption></figure>"
            for p, c in view.current
        )
        return f'<div class="loo-trick" role="group" aria-label="the trick in progress">{plays}</div>'
    said = "The hand is over." if view.settlement is not None else f"No {'tile' if tiles else 'card'} on the table yet."
    return f'<div class="loo-trick loo-trick-empty" role="group" aria-label="the trick in progress">{said}</div>'


def _facts_html(view: View, names: Sequence[str], seat: int, *, four_colour: bool, tiles: bool, note: str) -> str:
    """Trumps, the turn-up, the miss, the pool and the contract: what the middle of the table tells everyone;
    and ``note``, a line of the table's own (who won the trick just played)."""
    facts = [note] if note else []
    trumps = trumps_words(view)
    if isinstance(view, CallingView):
        caller, call = view.caller, view.call
        if caller is not None and call:
            contract = NAP_CONTRACTS.get(call, f"{call} tricks")
            facts.append(f'<div class="loo-contract">{escape(names[caller])} plays {escape(contract)}.</div>')
            if trumps is None and view.settlement is None:
                facts.append('<div class="loo-trumps">Trumps: the suit of the first lead</div>')
        peep = view.peep_card
        if peep is not None and seat == view.seat:  # the peeper's own sight, never another's
            facts.append(f'<div class="loo-peep">You peeped at: {piece_html(peep, 36, four_colour=four_colour)}</div>')
    if trumps is not None:
        facts.append(f'<div class="loo-trumps">Trumps: <b>{escape(trumps)}</b></div>')
    turnup = view.turnup if isinstance(view, TurnupView) else None
    if turnup is not None:
        facts.append(
            f'<div class="loo-turnup">Turn-up{piece_html(turnup, TURNUP_WIDTH, four_colour=four_colour)}</div>'
        )
    miss = view.miss_left if isinstance(view, MissView) else view.misses_left if isinstance(view, MissesView) else 0
    if miss and view.settlement is None:
        what = miss_words(miss, tiles)
        drawn = "" if tiles else _face_down(miss, f"the miss: {what}", tiles)
        facts.append(f'<div class="loo-miss">The miss: {escape(what) if tiles else drawn}</div>')
    if has_pool(view):  # not Nap without a kitty, nor a game scored in points
        said = "Played for a pool of" if view.settlement is not None else "Pool:"
        facts.append(f'<div class="loo-pool">{said} <b>{view.pool} chips</b></div>')
    return f'<div class="loo-facts">{"".join(facts)}</div>'


def round_board_html(
    view: View,
    names: Sequence[str],
    seat: int,
    *,
    show_own: bool = True,
    open_hands: Sequence[Sequence[Piece] | None] | None = None,
    four_colour: bool = False,
    open_label: str = ", face up for teaching",
    note: str = "",
    over: str = "",
) -> str:
    """The table as ``seat`` sees it, round a cloth, with that seat at the bottom (see the module's text).

    ``show_own`` draws the reader's pieces in their place (off while they are the row of buttons
    under the cloth); ``note`` is a line added to the middle's facts, and ``over`` a drawing laid over
    the middle (the last trick, when asked for), neither of which moves anything else on the cloth;
    the other arguments are :func:`widgets.draw.board.board_html`'s.
    """
    tiles = spec(str(view.rules.game)).piece == "tile"
    at = places(len(names), seat)
    sides = []
    for where in SIDES:
        seats = "".join(
            _seat_html(
                view,
                names,
                p,
                seat,
                where=where,
                cards=_hand_html(
                    view, names, p, open_hands, open_label=open_label, four_colour=four_colour, tiles=tiles
                ),
            )
            for p in at[where]
        )
        sides.append(f'<div class="loo-side loo-side-{where}">{seats}</div>')
    own = ""
    waiting = view.to_act != seat and view.settlement is None  # drawn greyed: not to be played yet
    if show_own and view.hand:  # once every piece is played, no empty drawing of the hand
        pam = pam_card(view)
        named = ", ".join(piece_name(c, pam) for c in view.hand)
        own = pieces_html(view.hand, width=64, label=f"your hand: {named}", four_colour=four_colour)
        if waiting:
            own = f'<div class="loo-own-waiting">{own}</div>'
    elif show_own and view.hand is None and 0 <= seat < len(view.hand_sizes) and view.hand_sizes[seat]:
        # Three-card Loo: a hand is looked at only when its owner's turn to declare comes (CF-17).
        # It is dealt all the same: drawn face down, with why, so that nobody thinks they have none.
        size = view.hand_sizes[seat]
        own = (
            f'<div class="loo-own-waiting">{_face_down(size, f"your hand: {size} face down", tiles)}</div>'
            f'<p class="loo-own-note">Your {size} cards, face down: you look at them when your turn to '
            "declare comes (CF-17).</p>"
        )
    facts = _facts_html(view, names, seat, four_colour=four_colour, tiles=tiles, note=note)
    laid = f'<div class="loo-over">{over}</div>' if over else ""
    trick = _trick_html(view, names, four_colour=four_colour, tiles=tiles)
    middle = f'<div class="loo-middle">{trick}{facts}{laid}</div>'

    me = _seat_html(view, names, seat, seat, where="bottom", cards=own)
    return f'<div class="loo-board"><div class="loo-felt loo-round">{"".join(sides)}{middle}{me}</div></div>'
