"""The rules picker driven as a reader would, by setting its controls' values and clicking: every game
and preset, options applied, refusals naming the option, and labels and sources on every control."""

from __future__ import annotations

import random
from collections.abc import Iterator

import ipywidgets as ipw
import pytest

from loo.core.laws import LAWS, source_name
from loo.kits import GAMES
from loo.options import GAME_NAMES, PRESET_LABELS, game_options, preset_rules, presets
from widgets.table.model import TableModel
from widgets.views.rules_picker import RulesPicker, shown_value
from widgets.views.safety import READER_MESSAGE


def picker(game: str = "three-card-loo", preset: str | None = None, seed: int = 3) -> RulesPicker:
    return RulesPicker(TableModel(game, preset=preset, seed=seed, rng=random.Random(seed)))


def descendants(widget: ipw.Widget) -> Iterator[ipw.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


def control(p: RulesPicker, key: str) -> ipw.ValueWidget:
    return p._rows_for(p.model.game)[key].control


def codes(law_ids: list[str]) -> list[str]:
    """The source codes the catalogue gives for ``law_ids``, in order."""
    return sorted({source.split(" ")[0] for law_id in law_ids for source in LAWS[law_id].sources})


def status(p: RulesPicker) -> str:
    return str(p._status.value)


def test_the_picker_starts_with_the_models_rules_and_the_options_closed() -> None:
    p = picker("five-card-loo")
    assert p._game.value == "five-card-loo" and p._preset.value == "pam"
    assert p._section.selected_index is None and p._section.titles == (
        f"Options ({len(game_options('five-card-loo'))})",
    )
    assert [label for label, _ in p._game.options] == [GAME_NAMES[g] for g in GAMES]
    assert control(p, "pam").value == "club-knave" and control(p, "must-head").value is False


@pytest.mark.parametrize("game", GAMES)
def test_every_game_and_preset_can_be_picked(game: str) -> None:
    p = picker("three-card-loo" if game != "three-card-loo" else "nap")
    p._game.value = game
    assert p.model.game == game
    assert p.model.rules.preset_name == p._preset.value == presets(game)[0]
    for preset in reversed(presets(game)):
        p._preset.value = preset
        assert p.model.game == game and p.model.rules == preset_rules(game, preset)
        assert PRESET_LABELS[preset] in dict((v, k) for k, v in p._preset.options)[preset]
        assert "New game of" in status(p)
        # The options show the preset's values.
        for key, row in p._rows_for(game).items():
            assert row.control.value == row.option.value_of(p.model.rules), key


def test_options_wait_for_apply_then_reach_the_model() -> None:
    p = picker("three-card-loo", "peel")
    before = p.model.rules
    control(p, "club-law").value = True
    control(p, "first-lead-rule").value = "any-trump"
    control(p, "loo-amount").value = 9
    assert p.model.rules is before, "no new game on a keystroke"
    p._apply.click()
    rules = p.model.rules
    assert rules.club_law and rules.first_lead_rule == "any-trump" and rules.loo_amount == 9
    assert rules.to_record() == {"preset": "peel", "loo-amount": 9, "first-lead-rule": "any-trump", "club-law": True}
    assert "3 options changed" in status(p)


def test_options_set_but_not_applied_survive_play() -> None:
    p = picker("five-card-loo", "pam", seed=6)
    control(p, "dealer-takes-turnup").value = True
    chooser = random.Random(1)
    while not p.model.hand.is_over:
        p.model.act(chooser.choice(p.model.legal()))
    assert control(p, "dealer-takes-turnup").value is True and not p.model.rules.dealer_takes_turnup


@pytest.mark.parametrize(
    ("game", "changes", "key", "label"),
    [
        ("three-card-loo", {"loo-mode": "capped", "loo-cap": 0}, "loo-cap", "Cap on an unlimited loo"),
        ("three-card-loo", {"deal-price": 0}, "deal-price", "Price of the deal"),
        ("nap", {"peep": True, "kitty-mode": "dealer"}, "kitty-mode", "Pool (kitty)"),
        ("domino-loo", {"domino-loo-fixed": True}, "domino-loo-fixed", "Loo is always the cap"),
    ],
)
def test_an_invalid_combination_names_the_option_and_changes_nothing(
    game: str, changes: dict[str, object], key: str, label: str
) -> None:
    p = picker(game)
    model = p.model
    rules, hand, version = model.rules, model.hand, model.version
    for name, value in changes.items():
        control(p, name).value = value
    p._apply.click()
    message = status(p)
    assert f"{label} ({key})" in message and "unchanged" in message
    assert message.count("<div") == 1 and "Traceback" not in message
    assert model.rules is rules and model.hand is hand and model.version == version
    assert control(p, key).value == changes[key], "the reader's choices stay, to be corrected"


def test_a_change_made_elsewhere_is_shown() -> None:
    p = picker("three-card-loo")
    p.model.new_game("domino-loo", rules={"preset": "celko-points", "game-points": 21})
    assert p._game.value == "domino-loo" and p._preset.value == "celko-points"
    assert control(p, "game-points").value == 21 and control(p, "domino-scoring").value == "points"
    assert p._options.children == tuple(row.box for row in p._rows_for("domino-loo").values())
    p.model.new_game("nap", rules="shilling")
    assert p._game.value == "nap" and control(p, "nap-win").value == 12


def test_back_to_the_preset_resets_the_options_without_a_new_game() -> None:
    p = picker("irish-loo")
    before = p.model.rules
    control(p, "club-law").value = True
    p._reset.click()
    assert control(p, "club-law").value is False and p.model.rules is before


def test_every_control_has_a_label_and_a_tooltip() -> None:
    p = picker()
    for game in GAMES:
        p._game.value = game
        shown = list(descendants(p))
        assert all(row.box in shown for row in p._rows_for(game).values())
        for widget in shown:
            if isinstance(widget, ipw.ValueWidget | ipw.Button) and not isinstance(widget, ipw.HTML):
                assert widget.description.strip(), widget
                assert widget.tooltip and widget.tooltip.strip(), widget.description
        assert all(title for title in p._section.titles)


@pytest.mark.parametrize("game", GAMES)
def test_the_sources_shown_are_those_of_the_fields_metadata(game: str) -> None:
    p = picker()
    p._game.value = game
    preset = p._preset.value
    for key, row in p._rows_for(game).items():
        option = row.option
        # Straight from the metadata: the laws the field's doc cites, and the sources those laws give.
        doc = p.model.rules.__dataclass_fields__[option.name].metadata["doc"]
        assert option.doc == doc and all(law_id in doc or law_id[:-2] in doc for law_id in option.laws)
        # The option's own laws name its sources; a conflict or ambiguity entry only when it cites no other.
        own = [law_id for law_id in option.laws if not law_id.startswith(("CF-", "AMB-"))]
        assert list(option.sources) == (codes(own) or codes(list(option.laws))), key
        value = shown_value(option, option.value_of(preset_rules(game, preset)))
        for where in (row.note.value, row.control.tooltip):
            text = where.replace("&#x27;", "'")
            named = text.split("Sources: ")[1].split(". ")[0].split("; it decides")[0]
            assert named.split("; ") == [source_name(code) for code in option.sources], key
            assert f"Preset ({PRESET_LABELS[preset]}): {value}." in text


def test_peels_king_rule_names_peel_alone() -> None:
    p = picker("three-card-loo", "enquire-within")
    row = p._rows_for("three-card-loo")["king-rule-when-ace-turned"]
    assert "Sources: Peel, Round Games with Cards." in row.note.value
    assert "Preset (Enquire Within): off." in row.note.value


def test_a_callback_error_is_a_polite_message(monkeypatch: pytest.MonkeyPatch) -> None:
    p = picker()

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(p.model, "new_game", broken)
    p._apply.click()
    assert READER_MESSAGE.split(",")[0] in status(p) and "boom" not in status(p)
