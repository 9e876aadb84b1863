"""The view of a live table: what the reader's seat may see, and a control for every choice.

It reads only :meth:`TableModel.view` (the reader's seat's view), so no card or tile another
seat holds is ever put into a widget's state; the one exception is the teaching switch, which a
reader turns on to see every hand face up, and which is off until they do. Every click goes to
the model, which asks the engine; an illegal choice is not hidden but marked, and choosing it
shows the law it breaks. Events are wired in :meth:`TableView._wire` and nowhere else; the
constructor never displays.

At a shared table (``shared=True``) the controls that are the reader's own table's only are never
made: take-back, the teaching switch, a new game and loading a record. A control hidden from sight
would still be in the kernel, and answer a click sent through its comm.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

import ipywidgets as ipw

from loo.core.actions import Action
from loo.core.cards import Card
from loo.core.protocols import TileRules, View
from loo.core.tiles import NUMBER_PLURALS, Tile
from loo.records import MAX_RECORD_CHARS
from loo.registry import spec
from widgets.draw.board import LIST_VERBS, action_label, pam_card, piece_name
from widgets.draw.card_style import TEXT_ONLY_CLASS, card_class, card_stylesheet, sheet_in_page, tile_class
from widgets.draw.law_refs import law_ref_html, with_law_refs
from widgets.draw.table_board import ROUND, board_html
from widgets.table.chips import result_words
from widgets.table.hints import WORKING, describe, hint_html
from widgets.table.model import TableModel, in_words
from widgets.table.table_words import offered
from widgets.views.opening import opening_html
from widgets.views.replacing import Replacing
from widgets.views.safety import guarded
from widgets.views.shared import ROW, button, is_shared, lean, own_layout, shared_layout, switch
from widgets.views.watching import Watching

KEYS_HELP = (
    "Keys: Tab or the arrow keys move between choices, Enter or Space takes one; "
    "1 to 9 play your first to ninth card or tile (a tile that may lead either of its suits is picked, and Enter or "
    "the arrow keys choose the suit); in an exchange they pick a card or put it back, as Space or Enter does; "
    "U takes back, H asks for a hint, W explains, L shows the last trick, N deals the next hand."
)

UNDO_TIP = "Take back your last move (key U)"
UNDO_FINISHED_TIP = "A finished hand cannot be taken back: every card of it has been seen"


def _row(children: list[ipw.Widget] | tuple[ipw.Widget, ...] = (), cls: str = "") -> ipw.HBox:
    return lean(ipw.HBox, list(children), layout=ROW, _dom_classes=[cls] if cls else [])


def _picked(action: Action) -> bool:
    """Whether ``action`` is chosen by picking pieces and confirming (an exchange, a purchase, a throw-out)."""
    return action.verb in LIST_VERBS and not (action.verb == "garnet" and not action.value)


def _is_piece(action: Action) -> bool:
    """Whether ``action`` plays a card or tile named by itself (not a domino lead naming its suit)."""
    return action.verb == "play" and isinstance(action.value, Card | Tile) and action.suit is None


def _close(widgets: list[ipw.Widget]) -> None:
    """Close ``widgets`` and the layout and style widgets each one made for itself (not shared ones)."""
    for widget in widgets:
        parts = [getattr(widget, name, None) for name in ("layout", "style")]
        widget.close()
        for part in parts:
            if isinstance(part, ipw.Widget) and not is_shared(part):
                part.close()


def _show(widget: ipw.DOMWidget, shown: bool) -> None:
    own_layout(widget).display = None if shown else "none"


PICK_WHAT = {"exchange": "to exchange", "garnet": "to throw out", "purchase": "to give up for new ones"}


def pick_words(verb: str, *, tiles: bool = False) -> str:
    """What to do in an exchange (a purchase, a throw-out), said above the pieces to pick.

    >>> pick_words("exchange")
    '<p>Pick the cards to exchange, then press <b>Exchange</b> (with none picked, you keep them all).</p>'
    """
    button = LIST_VERBS[verb]
    keep = " (with none picked, you keep them all)" if verb != "garnet" else ""
    what = PICK_WHAT.get(verb, f"to {button.lower()}")
    return f"<p>Pick the {'tiles' if tiles else 'cards'} {what}, then press <b>{escape(button)}</b>{keep}.</p>"


class TableView(ipw.VBox):  # type: ignore[misc]
    """A table for one reader. Construct it with a model, then display it; it never displays itself."""

    def __init__(self, model: TableModel, *, page_sheet: bool | None = None, shared: bool = False) -> None:
        """``page_sheet``: whether the page already has the plain card sheet (the default: whether
        ``widgets.server`` said so, :func:`~widgets.draw.card_style.sheet_in_page`); then the view adds
        only the four-colour one, when it is asked for. ``shared``: a seat of a shared table (see above)."""
        self.model = model
        self.shared = shared
        self._page_sheet = sheet_in_page() if page_sheet is None else page_sheet
        # Card faces: the same for everyone, they reveal nothing.
        self._style = lean(ipw.HTML, "" if self._page_sheet else card_stylesheet())
        self._opening = lean(ipw.HTML)  # a single settled as it was dealt, before this hand (widgets.views.opening)
        self._board = lean(ipw.HTML, _dom_classes=["loo-standing"])
        self._choices = _row(cls="loo-choices")
        self._by_action: dict[Action, ipw.Button] = {}  # each legal choice's button, for the hint to point to
        self._unavailable = lean(ipw.HTML, _dom_classes=["loo-standing"])
        self._picks = _row(cls="loo-picks")
        # In an exchange, what to do, above the pieces to pick; shown only then (a layout of its own).
        self._pick_say = lean(ipw.HTML, layout=ipw.Layout(display="none"), _dom_classes=["loo-pick-say"])
        # Every widget shares its layout and style (widgets.views.shared), and is given its classes when
        # it is made: each choice button then opens with one message, and the table with fewer.
        self._confirm = lean(ipw.Button, description="Exchange", tooltip="Exchange the cards selected above")
        self._status = lean(ipw.HTML, _dom_classes=["loo-status", "loo-standing"])
        own = not shared  # the reader's own table: the controls a shared table has not
        self._undo = (
            lean(ipw.Button, description="Take back", tooltip=UNDO_TIP, _dom_classes=["loo-undo"]) if own else None
        )
        self._hint = button("Hint", "Ask the strong computer player for its choice (key H)", "loo-hint")
        self._why = button("Why?", "The law behind each of your choices now (key W)", "loo-why")
        self._explained = lean(ipw.HTML, _dom_classes=["loo-standing"])
        self._hinted = lean(ipw.HTML, _dom_classes=["loo-standing"])
        self._next = button("Next hand", "Deal the next hand of this game (key N)", "loo-next")
        self._new_game = (
            lean(ipw.Button, description="New game", tooltip="Start a new game: the ledger starts again")
            if own
            else None
        )
        self._teaching = (
            lean(
                ipw.ToggleButton,
                value=False,
                description="Show all hands",
                tooltip="Teaching: show every hand face up",
                icon="eye",
            )
            if own
            else None
        )
        self._four_colour = switch("Four-colour deck", "Blue diamonds and green clubs, so no two suits share a colour")
        self._text_only = switch("Cards as text", "Show cards and tiles as plain named buttons instead of pictures")
        # Asks before New game, and offers to undo it (a shared table has no New game).
        self._replacing = Replacing(model, self.say) if own else None
        # Export and import of records, folded away until wanted (export only, at a shared table).
        self._export_hand = lean(ipw.Button, description="Export this hand", tooltip="The finished hand as a record")
        self._export_game = lean(ipw.Button, description="Export the game", tooltip="Every finished hand as records")
        self._exported = lean(ipw.HTML)
        records_parts: list[ipw.Widget] = [_row([self._export_hand, self._export_game]), self._exported]
        if own:
            self._import_text = lean(
                ipw.Textarea,
                placeholder='Paste a loo-record/1 here: {"format": "loo-record/1", ...}',
                description="Record",
                layout=ipw.Layout(width="100%", height="7em"),
            )
            self._import = lean(
                ipw.Button, description="Load record", tooltip="Sit down at the hand the record describes"
            )
            self._upload = lean(
                ipw.FileUpload,
                accept=".json",
                multiple=False,
                description="Load a file",
                tooltip="Load a record from a .json file",
            )
            records_parts += [self._import_text, _row([self._import, self._upload])]
        title = "Records: export and import" if own else "Records: export the finished hands"
        self._records = lean(ipw.Accordion, [lean(ipw.VBox, records_parts)], titles=(title,), selected_index=None)
        self._keys = lean(ipw.HTML, f'<p class="loo-keys" style="font-size:12px;color:#555">{escape(KEYS_HELP)}</p>')
        self.watching = Watching(self)  # the moves laid out one by one, the last trick, the finished hand
        # The deck's options mean nothing for tiles: a domino table does not offer them.
        display = [self._four_colour, self._text_only] if spec(model.game).deck_options else [self.watching.pace]
        controls = [self._undo, self._hint, self._why, self.watching.last, self._next, self._new_game, self._teaching]
        controls = [w for w in controls if w is not None]
        super().__init__(
            [
                self._style,
                self._opening,
                self.watching.film,  # the moves of the latest change, played by the page before the table shows
                self._board,
                # the near edge of the cloth: the reader's hand or choices, and the cards to pick for an exchange
                lean(ipw.VBox, [self._choices, self._pick_say, self._picks], _dom_classes=["loo-near", "loo-standing"]),
                # what the reader needs to choose, just under the hand: whose turn, then Hint and Why?
                self._status,
                _row(controls, "loo-controls"),
                _row([self.watching.spoken], "loo-watch"),
                *([self._replacing] if self._replacing is not None else []),
                self._hinted,
                self._explained,
                self._unavailable,
                self.watching.summary,
                _row(display if len(display) == 1 else [*display, self.watching.pace], "loo-display"),
                self._records,
                self._keys,
            ],
            layout=shared_layout(),
            _dom_classes=["loo-table-view"],
        )
        self._wire()
        self.redraw()

    # ----- events: wired here and only here --------------------------------------------------

    def _wire(self) -> None:
        say = self.say
        model = self.model
        model.observe(guarded(say)(lambda _change: self.watching.changed()), names=["version"])
        self._hint.on_click(guarded(say)(lambda _b: self._show_hint()))
        self._why.on_click(guarded(say)(lambda _b: self._explain()))
        self._next.on_click(guarded(say)(lambda _b: model.new_hand()))
        self._confirm.on_click(guarded(say)(lambda _b: self._submit_picks()))
        self._export_hand.on_click(guarded(say)(lambda _b: self._show_export(whole_game=False)))
        self._export_game.on_click(guarded(say)(lambda _b: self._show_export(whole_game=True)))
        if self._undo is not None and self._new_game is not None and self._teaching is not None:
            self._wire_own_table()
        self._four_colour.observe(guarded(say)(lambda _change: self.redraw()), names=["value"])
        self._text_only.observe(guarded(say)(lambda change: self._set_text_only(change["new"])), names=["value"])

    def _wire_own_table(self) -> None:
        """The controls of a reader's own table (none of them is made at a shared table)."""
        say, model = self.say, self.model
        assert self._undo is not None and self._new_game is not None and self._teaching is not None
        replacing = self._replacing
        assert replacing is not None
        self._undo.on_click(guarded(say)(lambda _b: model.undo()))
        self._new_game.on_click(
            guarded(say)(lambda _b: replacing.ask("Start a new game", "Yes, new game", self._start_new_game))
        )
        self._teaching.observe(guarded(say)(lambda change: setattr(model, "teaching", change["new"])), names=["value"])
        self._import.on_click(guarded(say)(lambda _b: model.import_record(self._import_text.value)))
        self._upload.observe(guarded(say)(lambda change: self._load_upload(change["new"])), names=["value"])

    @property
    def four_colour(self) -> bool:
        """Whether the reader asked for the four-colour pack (each suit its own colour)."""
        return bool(self._four_colour.value)

    def leave_out_key(self, words: str) -> None:
        """Take ``words`` out of the line that lists the table's keys (a key this table does not offer)."""
        self._keys.value = self._keys.value.replace(words, "")

    def say(self, message: str) -> None:
        """Show ``message`` in the table's status line (read out by a screen reader)."""
        self._status.value = f'<div role="status" aria-live="polite">{with_law_refs(message)}</div>'

    # ----- rendering -------------------------------------------------------------------------

    def redraw(self) -> None:
        model = self.model
        view = model.view()
        specs = self._choice_specs(view)
        cards_as_buttons = any(_is_piece(action) for action, _legal, _slot in specs)
        # While the reader plays, the hand is the row of card buttons: draw it once, not twice.
        four = self._four_colour.value
        self._style.value = card_stylesheet(four_colour=True) if four else "" if self._page_sheet else card_stylesheet()
        # The controls' states, then the board (what the reader watches), then the new buttons: the
        # board goes out before the buttons, and whoever sees it changed finds the controls current.
        over = model.hand.is_over
        if self._undo is not None:
            self._undo.disabled = not model.can_undo
            # Why it is off, for a pointer and for the key U (which clicks the button only when it is on).
            self._undo.tooltip = (
                UNDO_TIP if model.can_undo else UNDO_FINISHED_TIP if over else "Nothing of yours to take back yet"
            )
        self._hint.disabled = not view.legal
        self._why.disabled = not view.legal
        self._explained.value = ""  # a fresh position: the last explanation no longer applies
        self._hinted.value = ""  # nor the last hint
        self._next.disabled = not over
        self._next.button_style = "primary" if over else ""
        self._export_hand.disabled = not over
        self._export_game.disabled = not model.records
        opening = opening_html(model, four_colour=four)
        if self._opening.value != opening:  # set only when it changes: its cards are turned once, not every move
            self._opening.value = opening
        picking = any(_picked(a) for a in view.legal)  # the hand is the row of toggles to pick from
        self._show_own = not (cards_as_buttons or picking)
        self.draw_board(view)
        self.watching.render(view)
        self._set_choices(self._choice_buttons(specs, pam_card(view)), self._pick_toggles(view))
        self._pick_say.layout.display = None if picking else "none"
        self._unavailable.value = self._unavailable_html(view)
        if self._teaching is not None:
            self._teaching.value = model.teaching
        self.say(model.message)

    def draw_board(self, view: View) -> None:
        """The cloth as it stands, with the middle's line on the trick just won and, while asked for,
        the last trick laid over the middle (:meth:`Watching.on_the_cloth`); the hand's result under it."""
        model = self.model
        note, over = self.watching.on_the_cloth(view)
        self._board.value = (
            board_html(
                view,
                model.names,
                model.seat,
                layout=ROUND,
                show_own=self._show_own,
                open_hands=model.open_hands(),
                four_colour=self._four_colour.value,
                note=note,
                over=over,
            )
            + self._result_html()
        )

    def _set_choices(self, choices: tuple[ipw.Widget, ...], picks: tuple[ipw.Widget, ...]) -> None:
        replaced = [*self._choices.children, *self._picks.children]
        self._choices.children, self._picks.children = choices, picks
        # The buttons of the last position are gone from the page: close them (with their layout
        # and style widgets), or a long game would leave thousands of widgets in the kernel, each
        # sent again to a page that reconnects.
        _close([w for w in replaced if w not in (self._confirm, *choices, *picks)])

    def _result_html(self) -> str:
        """Once the hand is over: what it paid, in a line (the ledger view has the whole game)."""
        hand = self.model.hand
        if not hand.is_over or not self.model.table_game.results:
            return ""
        line = self.model.hand_lines()[-1]
        # Once the hand is over its cards are public, so its deal code may be shown: the whole
        # code, since a bare seed re-deals only a game's first hand.
        deal = self.model.deal_code() if self.model.seed is not None else None
        code = f" Deal code {deal}." if deal is not None else ""
        rules = self.model.rules
        said = result_words(line, self.model.names, rules.game_points if isinstance(rules, TileRules) else 0)
        if not line.in_points and (line.pool_before or line.pool_after or self.model.game != "nap"):
            said += f" The pool carries {line.pool_after} chips to the next hand."  # Nap without a kitty has none
        return f'<p class="loo-result" role="status">{escape(said)}{code}</p>'

    def _unavailable_html(self, view: View) -> str:
        lines = [  # only choices this table has: no miss at Pam, no Misery where the rules leave it out
            f"<li><b>{escape(action_label(action))}</b>: not now. {with_law_refs(reason)}</li>"
            for action, reason in self.model.unavailable()
            if offered(action, view)
        ]
        if not lines:
            return ""
        return (
            '<ul class="loo-unavailable" aria-label="choices not open to you now" '
            'style="font-size:13px;color:#555;margin:2px 0 6px 1.2em;padding:0">' + "".join(lines) + "</ul>"
        )

    def _choice_specs(self, view: View) -> list[tuple[Action, bool, int | None]]:
        """The reader's choices now, as (action, legal, the piece's place in the hand or None)."""
        legal = [a for a in view.legal if not _picked(a)]
        specs: list[tuple[Action, bool, int | None]] = []
        playing = any(a.verb == "play" for a in legal)
        if playing and view.hand is not None:
            # Every piece the reader holds: the legal ones live, the others marked, and a click on
            # one of those says why it may not be played.
            for slot, piece in enumerate(view.hand, start=1):
                options = [a for a in legal if a.verb == "play" and a.value == piece]
                specs += [
                    (action, bool(options), slot) for action in options or [Action(self.model.seat, "play", piece)]
                ]
            legal = [a for a in legal if a.verb != "play"]
        return specs + [(action, True, None) for action in legal]

    def _choice_buttons(self, specs: list[tuple[Action, bool, int | None]], pam: Card | None) -> tuple[ipw.Widget, ...]:
        buttons = tuple(self._button(action, legal=legal, pam=pam, slot=slot) for action, legal, slot in specs)
        self._by_action = {action: b for (action, legal, _slot), b in zip(specs, buttons, strict=True) if legal}
        return buttons

    def _button(self, action: Action, *, legal: bool, pam: Card | None, slot: int | None = None) -> ipw.Button:
        label = action_label(action)
        name = piece_name(action.value, pam) if action.verb == "play" else label
        if action.suit is not None:  # a domino lead that names its suit: one button per suit, in words
            name = f"{name}, led as {NUMBER_PLURALS[action.suit]}"
        tooltip = name
        is_piece = _is_piece(action)
        classes = ["loo-choice"]
        if isinstance(action.value, Card) and is_piece:
            classes += ["loo-card-button", card_class(action.value)]
        elif is_piece:
            classes += ["loo-tile-button", tile_class(action.value)]
        elif action.suit is not None and isinstance(action.value, Tile):
            classes += ["loo-tile-lead", tile_class(action.value)]  # the tile's picture above its words
        if is_piece:
            classes.append("loo-piece")
        if not legal:
            classes.append("loo-illegal")
        if slot is not None:
            classes.append(f"loo-slot-{slot}")  # its digit key: the piece's place in the hand
        # Classes, layout and style given at construction: one message opens the button, where
        # adding each class afterwards, and a layout and a style of its own, would send five more.
        button = lean(
            ipw.Button,
            description=name,  # a card's or tile's button is named for it
            tooltip=tooltip if legal else f"{tooltip}: not allowed now (click to see why)",
            button_style="primary" if legal else "",
            _dom_classes=classes,
        )
        button.on_click(guarded(self.say)(lambda _b, a=action: self._choose(a, legal)))
        return button

    def _set_text_only(self, on: bool) -> None:
        if on:
            self.add_class(TEXT_ONLY_CLASS)
        else:
            self.remove_class(TEXT_ONLY_CLASS)
        self.redraw()

    def _choose(self, action: Action, legal: bool) -> None:
        if legal:
            self.model.act(action)
        else:  # a marked card: say why, with the law and its source, and change nothing
            self.say(self.model.why(action))

    def _pick_toggles(self, view: View) -> tuple[ipw.Widget, ...]:
        verbs = {a.verb for a in view.legal if _picked(a)}
        if not verbs or view.hand is None:
            return ()
        verb = sorted(verbs)[0]
        self._pick_verb = verb
        pam = pam_card(view)
        toggles = [  # the reader's own cards (or tiles), each clicked to pick it (it rises) or to put it back
            lean(
                ipw.ToggleButton,
                description=piece_name(p, pam),
                tooltip=f"{piece_name(p, pam)}: click to pick it to {LIST_VERBS[verb].lower()}, again to keep it",
                value=False,
                _dom_classes=(
                    ["loo-pick", "loo-card-button", card_class(p)]
                    if isinstance(p, Card)
                    else ["loo-pick", "loo-tile-button", tile_class(p)]
                ),
            )
            for p in view.hand
        ]
        self._pick_pieces = list(view.hand)
        self._pick_widgets = toggles
        self._confirm.description = LIST_VERBS[verb]
        self._confirm.tooltip = f"{LIST_VERBS[verb]} the pieces selected (none selected: keep them all)"
        self._pick_say.value = pick_words(verb, tiles=not isinstance(view.hand[0], Card))
        return (*toggles, self._confirm)

    def _submit_picks(self) -> None:
        if not self._picks.children:  # a click sent when there is nothing to pick (the button is not shown)
            self.say("There is nothing to pick now.")
            return
        chosen = tuple(p for p, t in zip(self._pick_pieces, self._pick_widgets, strict=True) if t.value)
        self.model.act(Action(self.model.seat, self._pick_verb, chosen))

    def _show_hint(self) -> None:
        """The hint in the status line and, in full, below the controls; while it is worked out (it
        may take a second) the button says so and the box says what is being done."""
        if not self.model.legal():
            self.say("It is not your turn.")
            return
        self._hint.disabled, self._hint.description = True, "Thinking…"
        self._hinted.value = f'<p class="loo-hint-working" role="status" style="font-size:13px">{escape(WORKING)}</p>'
        try:
            hint = self.model.hint()
        finally:
            self._hint.disabled, self._hint.description = False, "Hint"
        if hint is None:  # pragma: no cover - every game's strong player samples
            self._hinted.value = ""
            self.say("No hint can be given here.")
            return
        self._hinted.value = hint_html(hint)
        hinted = self._by_action.get(hint.choice)
        if hinted is not None:  # the page takes the keyboard's focus to it (table-keys.js)
            hinted.add_class("loo-hinted")
        # The status line names the choice only: the box below has the figures and the reason.
        self.say(f"Hint: {describe(hint.choice, hint.pam)}. The reasons and every choice's value are below.")

    def _explain(self) -> None:
        """Every choice the reader might make now, allowed or not, with its law and sources."""
        view = self.model.view()
        pam = pam_card(view)
        items = []
        for e in self.model.hand.explain():
            if e.action.seat != self.model.seat:
                continue
            if not offered(e.action, view):
                continue  # a choice this table does not have at all
            what = describe(e.action, pam) if e.action.verb == "play" else action_label(e.action)
            verdict = "allowed" if e.legal else "not allowed"
            reason = in_words(e.reason.strip())  # cards and tiles named as the table names them
            said = escape(reason[:1].upper() + reason[1:])
            items.append(f"<li><b>{escape(what)}</b>: {verdict}. {said} ({law_ref_html(e.law)})</li>")
        self._explained.value = (
            '<ul class="loo-explained" aria-label="why each choice is or is not allowed" '
            'style="font-size:13px;margin:4px 0 6px 1.2em;padding:0">' + "".join(items) + "</ul>"
            if items
            else ""
        )

    def _start_new_game(self) -> bool:
        if not self.model.new_game():  # the model has said why not (another tab played on, say)
            return False
        self.say("A new game: the ledger starts again.")
        return True

    # ----- records ---------------------------------------------------------------------------

    def _show_export(self, *, whole_game: bool) -> None:
        text = self.model.export(whole_game=whole_game)
        if text is None:
            self.say("A hand can be exported once it is over: its record shows every card.")
            return
        name = "lanterloo-game.json" if whole_game else "lanterloo-hand.json"
        self._exported.value = (
            f'<p><a download="{name}" href="data:application/json;charset=utf-8,{quote(text)}">'
            f"Download {escape(name)}</a></p>"
            f'<pre style="max-height:12em;overflow:auto;font-size:11px;white-space:pre-wrap">{escape(text)}</pre>'
        )

    def _load_upload(self, files: Any) -> None:
        if not files:
            return
        upload = files[0]
        try:
            text = bytes(upload["content"]).decode("utf-8")
        except UnicodeDecodeError:
            self.say(f"{upload.get('name', 'That file')} is not a text file of a record.")
            return
        if len(text) <= MAX_RECORD_CHARS:  # a longer file is refused unread, and not sent back to the page
            self._import_text.value = text
        self.model.import_record(text)
