"""A hand record stepped through position by position, in a static page or at a live table.

:class:`StepViewer` replays a ``loo-record/1`` record (docs/records.md) with the engine and draws
one frame per position: step 0 is the deal before anyone acts, step *k* the position after the
record's *k*-th action. Every frame is written into the page, all but the first ``hidden``, and
one small inline script switches between them in the browser. So the viewer works in the static
book with no kernel behind it, and the same HTML shown through an ``ipywidgets.Output`` works at
a live table (:meth:`StepViewer.widget`).

Commentary comes beside the record, keyed by step number, because records are not extended
with fields of their own (other tools read them, and the reader refuses unknown keys).

``seat=None`` lays every hand face up: a finished record is public, and that is what the book
shows. ``seat=s`` draws each position from ``hand.view(s)`` alone, as seat *s* saw it then,
which is what a table needs while a hand is still being played: no other piece reaches the page.

>>> rec = {"format": "loo-record/1", "game": "three-card-loo", "seats": ["Ann", "Ben", "Cat"],
...        "dealer": 2, "pool": 3, "deal": {"seed": 7}, "actions": [{"seat": 0, "declare": "stand"}]}
>>> viewer = StepViewer(rec, commentary={1: "Ann likes her trumps."}, title="A first look")
>>> [(s.number, s.text, s.note) for s in viewer.steps]
[(0, 'Cat deals; Ann is first to act', None), (1, 'Ann stands', 'Ann likes her trumps.')]
>>> html = viewer.to_html()
>>> html.count("data-loo-frame="), html.count(" hidden>") >= 1, "<script>" in html
(2, True, True)
>>> viewer.to_html() == StepViewer(rec, commentary={1: "Ann likes her trumps."}, title="A first look").to_html()
True

A record that cannot be read raises the engine's :class:`~loo.core.rules.RecordError`, naming the
field at fault; an action the laws refuse raises :class:`~loo.core.actions.IllegalActionError` with
``index`` set to its place in ``actions``. Neither is caught here.

>>> StepViewer({**rec, "dealer": 9})
Traceback (most recent call last):
...
loo.core.rules.RecordError: dealer: seat 9 does not exist; seats are 0 to 2
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from loo.core.actions import Action, IllegalActionError
from loo.core.cards import Card
from loo.core.protocols import GameRecord, Hand, TrickRecord
from loo.core.spec import GameSpec
from loo.core.tiles import NUMBER_PLURALS, Tile
from loo.records import load, read_header, record_type
from loo.registry import GAMES, NAMES, entry, spec
from loo.svg import share_drawings
from widgets.draw.board import action_label
from widgets.draw.step_drawing import CALL_WORDS, face_up_board, miss_html, set_aside_html, settlement_html, trick_html
from widgets.draw.table_board import board_html

__all__ = ["AUTOPLAY_MS", "Step", "StepViewer", "describe"]

AUTOPLAY_MS = 1200  # one step every 1.2 s while playing

GAME_NAMES = {g.name: g.in_text for g in GAMES}  # as a sentence names each game (loo.registry)
COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Inline SVG in an HTML page is in the SVG namespace without saying so; dropping the attribute
# leaves the fragment with no URL in it at all.
SVG_NS = ' xmlns="http://www.w3.org/2000/svg"'


@dataclass(frozen=True)
class Step:
    """One position of the hand: its number, the sentence for the action that led to it, the commentary."""

    number: int
    text: str
    note: str | None
    html: str  # the frame's body: the table, the trick just won, the settlement at the end


# ----- reading the record -----------------------------------------------------------------------


def _read(record: Any) -> GameRecord:
    """A record object from JSON text, a parsed JSON object or a record object (returned as it is)."""
    read: GameRecord
    if isinstance(record, str):
        read = load(record)
        return read
    if isinstance(record, Mapping):
        obj = read_header(dict(record))
        read = record_type(obj.get("game")).from_json(obj)
        return read
    if isinstance(record, GameRecord):
        return record
    raise TypeError(f"a record is JSON text, a dict or a record from loo.records.load, not {type(record).__name__}")


def _game_name(record: GameRecord) -> str:
    game = str(record.game)
    return GAME_NAMES.get(game, game)


# ----- words ----------------------------------------------------------------------------------


def _count(n: int, noun: str) -> str:
    word = COUNTS[n] if n < len(COUNTS) else str(n)
    return f"{word} {noun}{'' if n == 1 else 's'}"


def _the(pieces: Sequence[Any]) -> str:
    """``the four of hearts and the king of spades``."""
    names = [f"the {p.name}" for p in pieces]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _noun(pieces: Sequence[Any]) -> str:
    return "tile" if pieces and isinstance(pieces[0], Tile) else "card"


def _spec(game: str) -> GameSpec:
    """The game's descriptor; Loo's where no game is named."""
    return spec(game if game in NAMES else "three-card-loo")


def describe(
    action: Action, names: Sequence[str], *, game: str = "", leading: bool = False, viewer: int | None = None
) -> str:
    """The action in a sentence, as ``viewer`` may know it (``None``: everything is public).

    Pieces a player puts out face down (exchanges, purchases, a discard for the turn-up, Sir
    Garnet's throw-out) are named only to the player himself; the others hear how many.

    >>> describe(Action.play(2, "JC"), ["Ann", "Ben", "Cat"])
    'Cat plays the knave of clubs'
    >>> describe(Action.declare(1, "miss"), ["Ann", "Ben", "Cat"])
    'Ben takes the miss'
    >>> describe(Action.declare(1, "throw"), ["Ann", "Ben", "Cat"], game="domino-loo")
    'Ben drops out'
    >>> from loo.core.cards import parse_cards
    >>> describe(Action.exchange(0, parse_cards("4H KS")), ["Ann", "Ben"], viewer=1)
    'Ann exchanges two cards'
    """
    who = names[action.seat]
    verb, value = action.verb, action.value
    sees = viewer is None or viewer == action.seat
    if verb == "declare":
        if value == "miss":
            return f"{who} takes the {entry(game).spare if game in NAMES else 'miss'}"
        dropping = _spec(game).throw_words
        return {"stand": f"{who} stands", "throw": f"{who} {dropping}"}.get(value, f"{who}: {action_label(action)}")
    if verb == "play":
        said = f", calling {NUMBER_PLURALS[action.suit]}" if action.suit is not None else ""
        civil = ' and says "Pam be civil"' if action.civil else ""
        return f"{who} {'leads' if leading else 'plays'} the {value.name}{said}{civil}"
    if verb == "call":
        if value == "pass":
            return f"{who} passes"
        if value == "nap":
            return f"{who} goes Nap"
        return f"{who} calls {CALL_WORDS.get(value, value)}"
    if verb == "for-pool":
        return f"{who} plays {_spec(game).for_pool_words}"
    if verb == "take-turnup":
        noun = "card" if isinstance(value, Card) else "tile"
        return f"{who} takes the turn-up, discarding {_the([value]) if sees else f'a {noun} face down'}"
    if verb == "peep":
        return f"{who} pays to peep at the top card"
    pieces = tuple(value) if verb in ("exchange", "garnet", "purchase") else ()
    shown = (_the(pieces) if sees else _count(len(pieces), _noun(pieces))) if pieces else ""
    if verb == "exchange" and game == "nap":
        if not pieces:
            return f"{who} leaves the peep card"
        return f"{who} takes the peep card, throwing out {shown if sees else 'a card'}"
    if verb == "exchange" and game == "domino-rounce":  # the dummy's taker discards down to five (DR)
        return f"{who} discards {shown}" if pieces else f"{who} discards nothing"
    if verb == "exchange":
        return f"{who} exchanges {shown}" if pieces else f"{who} keeps every {_noun(pieces)}"
    if verb == "purchase":
        return f"{who} buys {_count(len(pieces), 'card')}, discarding {shown}" if pieces else f"{who} buys no cards"
    if verb == "garnet":
        return f"{who} throws out {shown} and goes Nap" if pieces else f"{who} takes up Sir Garnet's five cards"
    return f"{who}: {action_label(action)}"


def _opening(hand: Hand, names: Sequence[str]) -> str:
    if hand.settlement is not None or hand.to_act is None:
        return f"{names[hand.dealer]} deals; the hand is settled at the deal"
    return f"{names[hand.dealer]} deals; {names[hand.to_act]} is first to act"


# ----- the page's behaviour: its style and its one script --------------------------------------

STYLE = (
    "<style>"
    ".loo-steps{font-family:system-ui,sans-serif;font-size:14px;max-width:100%;box-sizing:border-box;"
    "border:1px solid #c8c8c8;border-radius:8px;padding:8px 10px;margin:8px 0;position:relative}"
    ".loo-steps:focus-visible{outline:3px solid #e0a000;outline-offset:2px}"
    ".loo-steps svg{max-width:100%;height:auto;vertical-align:middle}"
    # a seat's hand keeps its drawn size and the seats wrap instead (a shrunk seat clipped its last card)
    ".loo-steps .loo-seat{flex:none;max-width:100%}.loo-steps .loo-seat svg{max-width:none}"
    ".loo-steps-title{margin:0 0 4px;font-weight:700}"
    ".loo-steps-bar{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:4px 0 8px}"
    ".loo-steps-bar[hidden]{display:none}"
    ".loo-steps-bar button{font:inherit;min-height:36px;min-width:40px;padding:4px 7px;border:1px solid #6b6b6b;"
    "border-radius:6px;background:#f6f6f6;color:#1a1a1a;cursor:pointer}"
    ".loo-steps-bar button:disabled{opacity:.45;cursor:default}"
    ".loo-steps-bar button:focus-visible{outline:3px solid #e0a000;outline-offset:1px}"
    ".loo-steps-bar .loo-steps-big-toggle{margin-left:auto}"
    ".loo-steps-bar .loo-steps-big-toggle[aria-pressed=true]{background:#1d5a3c;color:#fff}"
    # a phone projects nothing: there the button only took a line of the bar (as the tables' own button)
    "@media (max-width:700px){.loo-steps-bar .loo-steps-big-toggle[aria-pressed=false]{display:none}}"
    ".loo-steps.loo-steps-big{position:fixed;inset:0;z-index:2000;margin:0;background:#fff;overflow:auto;"
    "padding:10px 16px;box-sizing:border-box}"
    ".loo-steps.loo-steps-big>*{zoom:var(--loo-steps-zoom,2)}"
    ".loo-steps-head{margin:4px 0;font-weight:600}"
    ".loo-steps-note{margin:4px 0 8px;padding:6px 8px;background:#f4efdf;color:#1a1a1a;border-left:3px solid #c9a646}"
    ".loo-steps-trick,.loo-steps-miss{margin:6px 0}"
    ".loo-steps-trick .loo-play{display:inline-block;margin:2px 6px 2px 0}"
    ".loo-steps-settle{margin:8px 0 0}.loo-steps-settle p{margin:4px 0}"
    ".loo-steps-settle-head{font-weight:700}"
    ".loo-steps-settle table{border-collapse:collapse}"
    ".loo-steps-settle th,.loo-steps-settle td{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}"
    ".loo-steps-settle th[scope=row],.loo-steps-settle thead th:first-child{text-align:left}"
    ".loo-steps-nojs{font-style:italic;margin:4px 0}"
    ".loo-steps-vh{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
    "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}"
    "@media (prefers-reduced-motion:no-preference){.loo-steps-frame{animation:loo-steps-in .2s ease-out}}"
    "@keyframes loo-steps-in{from{opacity:.4}to{opacity:1}}"
    "</style>"
)

# Without scripts every position is shown, one after another.
NOSCRIPT = "<noscript><style>.loo-steps-frame[hidden]{display:block}</style></noscript>"

# Initialises every viewer on the page that is not yet marked data-ready, so any number of
# viewers share a page and running the script again does nothing.
SCRIPT = """<script>
(function () {
  "use strict";
  var DELAY = @DELAY@;
  function setup(root) {
    if (root.getAttribute("data-ready")) { return; }
    root.setAttribute("data-ready", "1");
    var frames = root.querySelectorAll("[data-loo-frame]");
    var last = frames.length - 1, at = 0, timer = null;
    var live = root.querySelector("[data-loo-live]");
    var bar = root.querySelector("[data-loo-bar]");
    function button(name) { return root.querySelector('[data-loo-go="' + name + '"]'); }
    var first = button("first"), back = button("back"), play = button("play");
    var forward = button("forward"), end = button("last");
    if (!live || !bar || !first || !back || !play || !forward || !end || last < 0) { return; }
    function show(k, announce) {
      k = Math.max(0, Math.min(last, k));
      for (var i = 0; i <= last; i++) { frames[i].hidden = i !== k; }
      at = k;
      first.disabled = back.disabled = at === 0;
      forward.disabled = end.disabled = at === last;
      if (announce) { live.textContent = frames[at].getAttribute("data-loo-say"); }
      var focused = document.activeElement;
      if (focused && focused.disabled && root.contains(focused)) { root.focus(); }
    }
    function label(playing) {
      play.querySelector("[data-loo-play-text]").textContent = playing ? "Pause" : "Play";
      play.querySelector("[data-loo-play-icon]").textContent = playing ? "\\u275a\\u275a" : "\\u25b6";
      play.setAttribute("aria-label", playing ? "Pause" : "Play");
    }
    function stop() {
      if (timer !== null) { clearTimeout(timer); timer = null; }
      label(false);
    }
    function tick() {
      timer = null;
      if (!root.isConnected) { return; }
      show(at + 1, true);
      if (at < last) { timer = setTimeout(tick, DELAY); } else { stop(); }
    }
    function start() {
      if (at === last) { show(0, true); }
      label(true);
      timer = setTimeout(tick, DELAY);
    }
    function toggle() { if (timer !== null) { stop(); } else { start(); } }
    var moves = {
      first: function () { return 0; }, back: function () { return at - 1; },
      forward: function () { return at + 1; }, last: function () { return last; }
    };
    function go(name) {
      if (name === "play") { toggle(); return; }
      stop();
      show(moves[name](), true);
    }
    root.addEventListener("click", function (event) {
      var target = event.target.closest ? event.target.closest("[data-loo-go]") : null;
      if (target && root.contains(target) && !target.disabled) { go(target.getAttribute("data-loo-go")); }
    });
    var keys = {ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last",
                " ": "play", k: "play", K: "play"};
    root.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var name = keys[event.key];
      if (!name) { return; }
      var onButton = event.target.closest && event.target.closest("button");
      if (event.key === " " && onButton) { return; }  /* Space presses the focused button itself */
      event.preventDefault();
      event.stopPropagation();
      go(name);
    });
    var big = root.querySelector("[data-loo-big]");
    function enlarge(on) {
      root.classList.toggle("loo-steps-big", on);
      big.setAttribute("aria-pressed", on ? "true" : "false");
      var zoom = Math.max(1, Math.min(2.4, window.innerWidth / 820));
      root.style.setProperty("--loo-steps-zoom", zoom.toFixed(3));
      root.focus();
    }
    if (big) {
      big.addEventListener("click", function () { enlarge(!root.classList.contains("loo-steps-big")); });
      root.addEventListener("keydown", function (event) {
        if (event.key === "Escape" && root.classList.contains("loo-steps-big")) { enlarge(false); }
      });
      if (new URLSearchParams(location.search).get("projector") === "1" &&
          document.querySelector("[data-loo-steps]") === root) { enlarge(true); }
    }
    var note = root.querySelector("[data-loo-nojs]");
    if (note) { note.parentNode.removeChild(note); }
    bar.hidden = false;
    show(parseInt(root.getAttribute("data-loo-start") || "0", 10) || 0, false);
  }
  var all = document.querySelectorAll("[data-loo-steps]");
  for (var i = 0; i < all.length; i++) { setup(all[i]); }
})();
</script>""".replace("@DELAY@", str(AUTOPLAY_MS))

CONTROLS = (
    ("first", "\u00ab", "First", "First step"),
    ("back", "\u2039", "Back", "Back one step"),
    ("play", "\u25b6", "Play", "Play"),
    ("forward", "\u203a", "Forward", "Forward one step"),
    ("last", "\u00bb", "Last", "Last step"),
)


def _controls(steps: int, start: int = 0) -> str:
    buttons = []
    for name, icon, text, aria in CONTROLS:
        disabled = (
            " disabled"
            if (start == 0 and name in ("first", "back")) or (steps == start and name in ("forward", "last"))
            else ""
        )
        # the play button's icon and word change with the state; the script finds them by these marks
        icon_html = f'<span aria-hidden="true"{" data-loo-play-icon" if name == "play" else ""}>{icon}</span>'
        text_html = f"<span data-loo-play-text>{text}</span>" if name == "play" else text
        inner = f"{icon_html} {text_html}" if name in ("first", "back", "play") else f"{text_html} {icon_html}"
        buttons.append(f'<button type="button" data-loo-go="{name}" aria-label="{aria}"{disabled}>{inner}</button>')
    # The projector view (issue 29): the viewer over the whole window, drawn large; Escape leaves it.
    buttons.append(
        '<button type="button" class="loo-steps-big-toggle" data-loo-big aria-pressed="false">Projector view</button>'
    )
    return '<div class="loo-steps-bar" data-loo-bar hidden>' + "".join(buttons) + "</div>"


def _shared(frames: Sequence[str]) -> str:
    """The frames with each card's drawing written once; ids come from the frames themselves, so
    the page is the same on every build and two different viewers on a page never share an id."""
    html = "".join(frames)
    return share_drawings(html, "loo-d" + hashlib.sha1(html.encode()).hexdigest()[:8])


# ----- the viewer -----------------------------------------------------------------------------


class StepViewer:
    """Step through a ``loo-record/1`` record: first, back, play/pause, forward and last.

    ``record`` is JSON text, a parsed JSON object, or a record from :func:`loo.records.load`.
    ``commentary`` maps step numbers (0 for the deal, *k* for after the *k*-th action) to plain
    text shown in that step's frame. ``seat`` draws every position as that seat saw it (``None``:
    every hand face up). ``title`` is shown above the viewer and names it for screen readers.
    ``start`` is the step shown first (the deal unless given).

    Raises :class:`~loo.core.rules.RecordError` (naming the field) for a record that cannot be read,
    :class:`~loo.core.actions.IllegalActionError` (with ``index``) for an action the laws refuse, and
    :class:`ValueError` for a commentary key or a seat that is not in the hand.
    """

    def __init__(
        self,
        record: Any,
        *,
        commentary: Mapping[int, str] | None = None,
        seat: int | None = None,
        title: str | None = None,
        start: int = 0,
    ) -> None:
        self.record = _read(record)
        self.names: tuple[str, ...] = tuple(self.record.seats)
        self.seat = seat
        self.title = title
        self.game = str(self.record.game)
        actions = tuple(self.record.actions)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(self.names)):
            raise ValueError(f"seat {seat!r} is not at this table: seats are 0 to {len(self.names) - 1}")
        notes = dict(commentary or {})
        for key in notes:
            if not isinstance(key, int) or isinstance(key, bool) or not 0 <= key <= len(actions):
                raise ValueError(f"commentary key {key!r} is not a step: steps are 0 (the deal) to {len(actions)}")
        self.steps: tuple[Step, ...] = tuple(self._replay(actions, notes))
        if not 0 <= start < len(self.steps):
            raise ValueError(f"start {start!r} is not a step: steps are 0 (the deal) to {len(actions)}")
        self.start = start

    # ----- frames ------------------------------------------------------------------------------

    def _replay(self, actions: Sequence[Action], notes: Mapping[int, str]) -> list[Step]:
        hand = self.record.start()
        steps = [self._step(hand, 0, _opening(hand, self.names), notes.get(0), None)]
        for k, action in enumerate(actions, start=1):
            leading = not hand.current_trick
            text = describe(action, self.names, game=self.game, leading=leading, viewer=self.seat)
            tricks_before = len(hand.tricks)
            try:
                hand.push(action)
            except IllegalActionError as error:
                error.index = k - 1
                raise
            won = hand.tricks[-1] if len(hand.tricks) > tricks_before else None
            if won is not None:
                text += f"; {self.names[won.winner]} wins the trick"
            steps.append(self._step(hand, k, text, notes.get(k), won))
        return steps

    def _step(self, hand: Hand, k: int, text: str, note: str | None, won: TrickRecord | None) -> Step:
        names = self.names
        if self.seat is None:
            body = face_up_board(hand, names) + miss_html(hand) + set_aside_html(hand)
        else:
            body = board_html(hand.view(self.seat), names, self.seat, show_own=True)
        if won is not None:
            body += trick_html(won, names)
        if hand.settlement is not None:
            body += settlement_html(hand.settlement, names)
        elif k == len(self.record.actions) and hand.to_act is not None:
            body += f'<p class="loo-steps-end">The record stops here, with {escape(names[hand.to_act])} to act.</p>'
        return Step(k, text, note, body.replace(SVG_NS, ""))

    # ----- output ------------------------------------------------------------------------------

    def _label(self) -> str:
        return self.title or f"Step-through of a hand of {_game_name(self.record)}"

    def to_html(self, *, share: bool = True) -> str:
        """The viewer as one self-contained HTML fragment: every frame, the controls and the script.

        ``share=False`` leaves each card's drawing in place, for a caller that puts several viewers
        together and writes each drawing once for all of them (:func:`loo.svg.share_drawings`).
        """
        last = len(self.steps) - 1
        frames = []
        for step in self.steps:
            count = f"Step {step.number} of {last}"
            note = f'<p class="loo-steps-note">{escape(step.note)}</p>' if step.note else ""
            say = f"{count}: {step.text}"
            frames.append(
                f'<section class="loo-steps-frame" data-loo-frame="{step.number}" data-loo-say="{escape(say)}"'
                f"{' hidden' if step.number != self.start else ''}>"
                f'<p class="loo-steps-head"><span class="loo-steps-count">{count}</span> \u00b7 '
                f'<span class="loo-steps-what">{escape(step.text)}</span></p>{note}{step.html}</section>'
            )
        title = f'<p class="loo-steps-title">{escape(self.title)}</p>' if self.title else ""
        return (
            f'<div class="loo-steps" data-loo-steps tabindex="0" role="group" aria-label="{escape(self._label())}"'
            ' data-lm-suppress-shortcuts="true"'
            + (f' data-loo-start="{self.start}"' if self.start else "")
            + ">"
            + STYLE
            + NOSCRIPT
            + title
            + '<p class="loo-steps-nojs" data-loo-nojs>The step controls need JavaScript.</p>'
            + _controls(last, self.start)
            + '<div class="loo-steps-vh" aria-live="polite" data-loo-live></div>'
            + (_shared(frames) if share else "".join(frames))
            + "</div>"
            + SCRIPT
        )

    def _repr_html_(self) -> str:
        return self.to_html()

    def widget(self) -> Any:
        """An ``ipywidgets.Output`` showing the viewer, for a live table (its script runs there too).

        Its output is written as the display data a notebook's ``display(HTML(...))`` makes, without
        IPython's classes: the tables in the reader's browser run with a stand-in for IPython that has
        none (widgets.kernel.inpage), and a review there failed on the import."""
        import ipywidgets as ipw

        out = ipw.Output(layout=ipw.Layout(max_width="100%"))
        out.add_class("loo-steps-output")
        shown = {"text/html": self.to_html(), "text/plain": f"<the steps of {self.title or 'a hand'}>"}
        out.outputs = ({"output_type": "display_data", "data": shown, "metadata": {}},)
        return out
