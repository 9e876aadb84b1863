"""The view of a live table: what the reader's seat may see, and a control for every choice.

It reads only :meth:`TableModel.view` (the reader's seat's view), so no card or tile another
seat holds is ever put into a widget's state. Every click goes to the model, which asks the
engine; an illegal choice is not hidden but marked, and choosing it shows the law it breaks.
Events are wired in :meth:`TableView._wire` and nowhere else; the constructor never displays.
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as ipw

from loo.actions import Action
from loo.cards import Card
from loo.svg import card_svg, hand_svg
from widgets.card_style import card_class, card_stylesheet
from widgets.model import TableModel
from widgets.safety import guarded

DECLARATIONS = {"stand": "Stand", "miss": "Take the miss", "throw": "Throw up"}
CALLS = {"pass": "Pass", "misery": "Misery", "nap": "Nap", "wellington": "Wellington"}
LIST_VERBS = {"exchange": "Exchange", "garnet": "Throw out", "purchase": "Buy"}
SAID = {"stand": "stands", "miss": "took the miss", "throw": "threw up", "for-pool": "plays the miss for the pool"}


def piece_label(piece: Any) -> str:
    """Short text for a card or tile on a button: ``Q♥``, ``6-3``."""
    if isinstance(piece, Card):
        return piece.rank.symbol + piece.suit.symbol
    return str(piece)


def piece_name(piece: Any) -> str:
    return str(getattr(piece, "name", piece))


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
        return f"Take the turn-up, discard {piece_label(action.value)}"
    if action.verb == "peep":
        return "Peep"
    return action.verb.replace("-", " ").capitalize()


class TableView(ipw.VBox):
    """A table for one reader. Construct it with a model, then display it; it never displays itself."""

    def __init__(self, model: TableModel) -> None:
        self.model = model
        self._style = ipw.HTML(card_stylesheet())  # card faces: the same for everyone, reveals nothing
        self._board = ipw.HTML()
        self._choices = ipw.HBox(layout=ipw.Layout(flex_flow="row wrap"))
        self._picks = ipw.HBox(layout=ipw.Layout(flex_flow="row wrap"))
        self._confirm = ipw.Button(description="Exchange", tooltip="Exchange the cards selected above")
        self._status = ipw.HTML()
        self._undo = ipw.Button(description="Take back", tooltip="Take back your last move", icon="")
        self._hint = ipw.Button(description="Hint", tooltip="Ask the strong computer player for its choice")
        self._new = ipw.Button(description="New hand", tooltip="Deal a new hand")
        super().__init__(
            [
                self._style,
                self._board,
                self._choices,
                self._picks,
                self._status,
                ipw.HBox([self._undo, self._hint, self._new]),
            ]
        )
        self.add_class("loo-table-view")
        self._wire()
        self._render()

    # ----- events: wired here and only here --------------------------------------------------

    def _wire(self) -> None:
        say = self._say
        self.model.observe(guarded(say)(lambda _change: self._render()), names=["version"])
        self._undo.on_click(guarded(say)(lambda _b: self.model.undo()))
        self._hint.on_click(guarded(say)(lambda _b: self._show_hint()))
        self._new.on_click(guarded(say)(lambda _b: self.model.new_hand()))
        self._confirm.on_click(guarded(say)(lambda _b: self._submit_picks()))

    def _say(self, message: str) -> None:
        self._status.value = f'<div role="status" aria-live="polite">{escape(message)}</div>'

    # ----- rendering -------------------------------------------------------------------------

    def _render(self) -> None:
        view = self.model.view()
        choices = self._choice_buttons(view)
        cards_as_buttons = any("loo-card-button" in b._dom_classes for b in choices)
        # While the reader plays, the hand is the row of card buttons: draw it once, not twice.
        self._board.value = board_html(view, self.model.names, self.model.seat, show_own=not cards_as_buttons)
        self._choices.children = choices
        self._picks.children = self._pick_toggles(view)
        self._undo.disabled = not self.model.can_undo
        self._hint.disabled = not view.legal
        self._say(self.model.message)

    def _choice_buttons(self, view: Any) -> tuple[ipw.Widget, ...]:
        legal = [a for a in view.legal if a.verb not in LIST_VERBS]
        buttons: list[ipw.Widget] = []
        playing = any(a.verb == "play" for a in legal)
        if playing and view.hand is not None:
            # Every piece the reader holds: the legal ones live, the others marked, and a click on
            # one of those says why it may not be played.
            for piece in view.hand:
                options = [a for a in legal if a.verb == "play" and a.value == piece]
                for action in options or [Action(self.model.seat, "play", piece)]:
                    buttons.append(self._button(action, legal=bool(options)))
            legal = [a for a in legal if a.verb != "play"]
        for action in legal:
            buttons.append(self._button(action, legal=True))
        return tuple(buttons)

    def _button(self, action: Action, *, legal: bool) -> ipw.Button:
        label = action_label(action)
        tooltip = piece_name(action.value) if action.verb == "play" else label
        is_card = action.verb == "play" and isinstance(action.value, Card)
        button = ipw.Button(
            description=piece_name(action.value) if is_card else label,  # a card's button is named for the card
            tooltip=tooltip if legal else f"{tooltip}: not allowed now (click to see why)",
            button_style="primary" if legal else "",
        )
        button.add_class("loo-choice")
        if is_card:
            button.add_class("loo-card-button")
            button.add_class(card_class(action.value))
        if not legal:
            button.add_class("loo-illegal")
        button.on_click(guarded(self._say)(lambda _b, a=action: self.model.act(a)))
        return button

    def _pick_toggles(self, view: Any) -> tuple[ipw.Widget, ...]:
        verbs = {a.verb for a in view.legal if a.verb in LIST_VERBS}
        if not verbs or view.hand is None:
            return ()
        verb = sorted(verbs)[0]
        self._pick_verb = verb
        toggles = [
            ipw.ToggleButton(description=piece_label(p), tooltip=piece_name(p), value=False) for p in view.hand
        ]
        self._pick_pieces = list(view.hand)
        self._pick_widgets = toggles
        self._confirm.description = LIST_VERBS[verb]
        return (*toggles, self._confirm)

    def _submit_picks(self) -> None:
        chosen = tuple(p for p, t in zip(self._pick_pieces, self._pick_widgets, strict=True) if t.value)
        self.model.act(Action(self.model.seat, self._pick_verb, chosen))

    def _show_hint(self) -> None:
        hint = self.model.hint()
        if hint is None:
            self._say("It is not your turn.")
            return
        action, value = hint
        worth = "" if value != value else f"; it expects to net {value:+.1f} chips"  # NaN: no estimate
        self._say(f"The strong player would choose: {action_label(action)}{worth}.")


def tile_html(tile: Any) -> str:
    """A domino as text with its accessible name (drawn tiles come with the widgets' next step)."""
    return f'<span class="loo-tile" role="img" aria-label="{escape(tile.name)}">{escape(str(tile))}</span>'


def board_html(view: Any, names: tuple[str, ...], seat: int, *, show_own: bool = True) -> str:
    """The table as ``seat`` sees it, as HTML: seats, the dealer, the trick, the turn-up and the pool."""
    rows = []
    declared = getattr(view, "declared", None)
    for p, name in enumerate(names):
        marks = []
        if p == view.dealer:
            marks.append("dealer")
        if declared is not None and declared[p]:
            marks.append(SAID.get(declared[p], declared[p]))
        if view.to_act == p:
            marks.append("to play" if p != seat else "your turn")
        won = sum(1 for t in view.tricks if t.winner == p)
        if won:
            marks.append(f"{won} trick{'s' if won != 1 else ''}")
        who = f"{name} (you)" if p == seat else name
        size = view.hand_sizes[p] if hasattr(view, "hand_sizes") else 0
        if p == seat and not show_own:
            cards = ""
        elif p == seat and view.hand is not None and all(isinstance(c, Card) for c in view.hand):
            cards = hand_svg(list(view.hand), width=56, label=f"your hand: {', '.join(c.name for c in view.hand)}")
        elif p == seat and view.hand is not None:
            cards = " ".join(tile_html(t) for t in view.hand)
        else:
            cards = hand_svg([None] * size, width=32, label=f"{name}'s hand: {size} face down") if size else ""
        rows.append(
            f'<div class="loo-seat"><div class="loo-seat-name">{escape(who)}'
            f'{" · " + escape(", ".join(marks)) if marks else ""}</div>{cards}</div>'
        )
    trick = " ".join(
        f'<span class="loo-play">{escape(names[p])}: '
        + (card_svg(c, width=40) if isinstance(c, Card) else tile_html(c))
        + "</span>"
        for p, c in view.current
    )
    turnup = getattr(view, "turnup", None)
    extras = []
    if turnup is not None:
        shown = card_svg(turnup, width=40) if isinstance(turnup, Card) else escape(str(turnup))
        extras.append(f'<div class="loo-turnup">Turn-up: {shown}</div>')
    if hasattr(view, "pool"):
        extras.append(f'<div class="loo-pool">Pool: {view.pool} chips</div>')
    return (
        '<div class="loo-board" style="font-family:system-ui,sans-serif;font-size:14px">'
        '<div style="display:flex;flex-wrap:wrap;gap:10px 18px">' + "".join(rows) + "</div>"
        f'<div class="loo-trick" aria-label="the trick in progress">{trick or "No card on the table yet."}</div>'
        + "".join(extras)
        + "</div>"
    )
