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
from widgets.board import LIST_VERBS, action_label, board_html, piece_label, piece_name
from widgets.card_style import card_class, card_stylesheet
from widgets.model import TableModel
from widgets.safety import guarded


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
        toggles = [ipw.ToggleButton(description=piece_label(p), tooltip=piece_name(p), value=False) for p in view.hand]
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
