"""Choose the game and its rules: a preset named after its source, and every option of the law catalogue.

The tab begins with the game's rules in brief (:func:`widgets.draw.minute.rules_in_brief_html`), so
that a reader meets the rules before the options that change them.

:class:`RulesPicker` observes a :class:`widgets.table.model.TableModel`. The game and the preset are
single deliberate choices, so picking one starts a new game at once. The options are many small
ones, so they wait behind an "Options" section until the reader presses "Apply and start a new
game": a new game never starts on a keystroke. Each option shows its label, the sources that give
it and the preset's value (in a line under it and in its tooltip), all read from the rules'
field metadata through :mod:`loo.options`.

The engine is the judge of a combination: an invalid one (a capped loo with no cap, say) is
refused by the game's ``from_record`` with the option named, the reader sees that in one line,
and the table is left as it was. When the model's rules change from elsewhere (a record loaded,
another view), the picker shows them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as ipw

from loo.core.rules import RecordError
from loo.kits import GAMES, kit
from loo.options import (
    GAME_NAMES,
    PRESET_LABELS,
    Option,
    default_preset,
    game_options,
    preset_rules,
    presets,
    rules_value,
)
from widgets.draw.law_refs import with_law_refs
from widgets.draw.minute import rules_in_brief_html
from widgets.table.model import TableModel
from widgets.views.safety import guarded

# Bounds for the whole-number options. Chips and units run from 0 and the engine says why a 0 is
# refused where it is (a deal must cost something, L3-STK-07); these only stop absurd entries.
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "min-call": (1, 5),  # AMB-36: one trick to Nap
    "dealer-sits-out-above": (0, 12),
    "game-points": (0, 99),
}
DEFAULT_BOUNDS = (0, 9999)
_WIDE = {"description_width": "initial"}


@dataclass
class _Row:
    """One option's control and the line under it that names its sources and the preset's value."""

    option: Option
    control: ipw.ValueWidget
    note: ipw.HTML
    box: ipw.VBox


def shown_value(option: Option, value: Any) -> str:
    """An option's value in words: a choice's label, on or off, or the number."""
    if option.choices:
        return option.choice_label(str(value))
    if option.kind is bool:
        return "on" if value else "off"
    return str(value)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else f"{text}."


def sources_text(option: Option) -> str:
    """The sources that give ``option``, and the conflicts or ambiguities of the catalogue it decides."""
    text = "Sources: " + ("; ".join(option.source_names) or "none cited")
    if option.settles:
        text += f"; it decides {', '.join(option.settles)}"
    return text


class RulesPicker(ipw.VBox):  # type: ignore[misc]
    """A rules picker for one model. Construct it, then display it; it never displays itself."""

    def __init__(self, model: TableModel) -> None:
        self.model = model
        self._quiet = False  # set while the picker itself moves its controls to the model's rules
        self._shown: tuple[str, Any] | None = None
        self._rows: dict[str, dict[str, _Row]] = {}  # per game, built the first time it is shown
        self._game = ipw.Dropdown(
            options=[(GAME_NAMES[g], g) for g in GAMES],
            description="Game",
            tooltip="The game to play; choosing one starts a new game at once",
            style=_WIDE,
        )
        self._preset = ipw.Dropdown(
            description="Rules of",
            tooltip="The rules as one source gives them; choosing one starts a new game at once",
            style=_WIDE,
            layout=ipw.Layout(width="min(100%, 34em)"),
        )
        self._preset_note = ipw.HTML()
        self._options = ipw.VBox()
        self._apply = ipw.Button(
            description="Apply and start a new game",
            tooltip="Start a new game under the options above (the hand in play is given up)",
            button_style="primary",
            layout=ipw.Layout(width="auto"),
        )
        self._reset = ipw.Button(
            description="Back to the preset",
            tooltip="Set every option back to the chosen preset's value (nothing starts until you apply)",
            layout=ipw.Layout(width="auto"),
        )
        self._section = ipw.Accordion(
            children=[ipw.VBox([self._options, ipw.HBox([self._apply, self._reset])])],
            titles=("Options",),
            selected_index=None,  # closed: the default view is the two choices
        )
        self._status = ipw.HTML()
        self._brief = ipw.HTML()  # the game's rules in brief (widgets.draw.minute), before the choices that change them
        super().__init__([self._brief, self._game, self._preset, self._preset_note, self._section, self._status])
        self.add_class("loo-rules-picker")
        self._wire()
        self._show_model()

    # ----- events: wired here and only here --------------------------------------------------

    def _wire(self) -> None:
        say = self._say
        self.model.observe(guarded(say)(lambda _change: self._show_model()), names=["version"])
        self._game.observe(guarded(say)(self._on_game), names=["value"])
        self._preset.observe(guarded(say)(self._on_preset), names=["value"])
        self._apply.on_click(guarded(say)(lambda _b: self.apply()))
        self._reset.on_click(guarded(say)(lambda _b: self._back_to_preset()))
        # The option controls have no callbacks: they are read when "Apply" is pressed.

    def _say(self, message: str) -> None:
        self._status.value = f'<div role="status" aria-live="polite">{with_law_refs(message)}</div>'

    def _on_game(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            game = str(change["new"])
            if not self._start(game, default_preset(game)):
                self._show_model(again=True)  # the table is unchanged: so are the choices shown

    def _on_preset(self, change: dict[str, Any]) -> None:
        if not self._quiet and change["new"] is not None and not self._start(str(self._game.value), str(change["new"])):
            self._show_model(again=True)

    # ----- what the reader can do ------------------------------------------------------------

    def apply(self) -> bool:
        """Start a new game under the chosen preset with the options as set; False if the engine refuses them."""
        game, preset = str(self._game.value), str(self._preset.value)
        values = {key: row.control.value for key, row in self._rows_for(game).items()}
        return self._start(game, rules_value(game, preset, values))

    def _start(self, game: str, value: str | dict[str, Any]) -> bool:
        try:
            kit(game).read_rules(game, value)  # checked before the model is touched
        except RecordError as error:
            self._say(self._refusal(game, error))
            return False
        if not self.model.new_game(game, rules=value):  # refused (another tab played on): the model says why
            self._say(self.model.message)
            return False
        changed = len(value) - 1 if isinstance(value, dict) else 0
        preset = value["preset"] if isinstance(value, dict) else value
        extra = f", with {changed} option{'s' if changed != 1 else ''} changed" if changed else ""
        self._say(f"New game of {GAME_NAMES[game]}: {PRESET_LABELS.get(preset, preset)}{extra}.")
        return True

    def _refusal(self, game: str, error: RecordError) -> str:
        key = error.field.removeprefix("rules.")
        row = self._rows_for(game).get(key)
        what = f"{row.option.label} ({key})" if row is not None else error.field
        return f"Not applied: {what}: {error.message}. The game in play is unchanged."

    def _back_to_preset(self) -> None:
        game, preset = str(self._game.value), str(self._preset.value)
        base = preset_rules(game, preset)
        for row in self._rows_for(game).values():
            self._set(row, row.option.value_of(base))
        self._say(f"Options set to {PRESET_LABELS.get(preset, preset)}; apply them to start a new game.")

    # ----- showing the model's rules ---------------------------------------------------------

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def _show_model(self, *, again: bool = False) -> None:
        """Move the controls to the model's game and rules, if they changed since last shown (or ``again``)."""
        game, rules = self.model.game, self.model.rules
        if self._shown == (game, rules) and not again:
            return  # a card played, not a new game: keep any options the reader has set but not applied
        rows = self._rows_for(game)
        self._brief.value = rules_in_brief_html(game)
        with self._quietly():
            self._game.value = game
            self._preset.options = [(PRESET_LABELS.get(p, p), p) for p in presets(game)]
            self._preset.value = rules.preset_name
            for row in rows.values():
                self._set(row, row.option.value_of(rules))
        self._options.children = tuple(row.box for row in rows.values())
        self._section.set_title(0, f"Options ({len(rows)})")
        self._describe(game, str(rules.preset_name))
        self._shown = (game, rules)

    def _describe(self, game: str, preset: str) -> None:
        """Name the preset's source and put its value beside every option."""
        base = preset_rules(game, preset)
        label = PRESET_LABELS.get(preset, preset)
        self._preset_note.value = (
            f'<div class="loo-preset-note">{escape(GAME_NAMES[game])} as {escape(label)} gives it; '
            "change single rules under Options.</div>"
        )
        for row in self._rows_for(game).values():
            option = row.option
            preset_value = shown_value(option, option.value_of(base))
            about = _sentence(option.summary or option.label)
            in_preset = f"Preset ({label}): {preset_value}."
            row.control.tooltip = f"{about} {sources_text(option)}. {in_preset}"
            row.note.value = (
                f'<div class="loo-option-note" style="font-size:0.85em;color:#444;margin:0 0 0.4em 1em">'
                f"{with_law_refs(sources_text(option))}. {escape(in_preset)}</div>"
            )

    def _set(self, row: _Row, value: Any) -> None:
        if isinstance(row.control, ipw.BoundedIntText) and value > row.control.max:
            row.control.max = value  # a record may hold more than the usual bound; show it as it is
        row.control.value = value

    def _rows_for(self, game: str) -> dict[str, _Row]:
        if game not in self._rows:
            self._rows[game] = {o.key: self._row(o) for o in game_options(game)}
        return self._rows[game]

    def _row(self, option: Option) -> _Row:
        control: ipw.ValueWidget
        common: dict[str, Any] = {"description": option.label, "tooltip": option.label}
        if option.kind is bool:
            control = ipw.Checkbox(value=False, indent=False, **common)
        elif option.choices:
            control = ipw.Dropdown(
                options=[(option.choice_label(c), c) for c in option.choices],
                style=_WIDE,
                layout=ipw.Layout(width="auto"),
                **common,
            )
        else:
            low, high = INT_BOUNDS.get(option.key, DEFAULT_BOUNDS)
            control = ipw.BoundedIntText(value=low, min=low, max=high, style=_WIDE, **common)
        control.add_class("loo-option")
        note = ipw.HTML()
        return _Row(option, control, note, ipw.VBox([control, note]))
