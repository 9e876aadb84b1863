"""loo.options: every game's options with labels, choices, laws and sources, read from the rules' metadata."""

from __future__ import annotations

import pytest

from loo.core.laws import LAWS
from loo.core.rules import RecordError
from loo.games.dominoes.rules import PRESETS as DOMINO_PRESETS
from loo.games.loo.rules import PRESETS, Rules
from loo.games.nap.rules import PRESETS as NAP_PRESETS
from loo.kits import GAMES, kit
from loo.options import (
    _CHOICE_LABELS,
    _LABELS,
    GAME_NAMES,
    PRESET_LABELS,
    PRESET_SOURCES,
    cited_laws,
    default_preset,
    game_options,
    option,
    preset_rules,
    presets,
    rules_value,
    sources_of,
)


def test_every_game_has_a_name_and_its_presets() -> None:
    assert set(GAME_NAMES) == set(GAMES)
    every = {**PRESETS, **NAP_PRESETS, **DOMINO_PRESETS}
    assert set(PRESET_LABELS) == set(PRESET_SOURCES) == set(every)
    listed = [p for game in GAMES for p in presets(game)]
    assert sorted(listed) == sorted(every), "each preset belongs to exactly one game"
    for game in GAMES:
        assert default_preset(game) in presets(game)
        assert default_preset(game) == kit(game).read_rules(game, None).preset_name


def test_law_ids_are_read_with_their_ranges_and_lists() -> None:
    assert cited_laws("L3-STK-01/02, L5-STK-01: chips") == ("L3-STK-01", "L3-STK-02", "L5-STK-01")
    assert cited_laws("NAP-MIS-01..05, AMB-39: Misery") == (*(f"NAP-MIS-0{i}" for i in range(1, 6)), "AMB-39")
    assert cited_laws("F.4, DL-PTS-01: chips (usual for three)") == ("DL-PTS-01",)
    assert cited_laws("no law here") == ()


@pytest.mark.parametrize("game", GAMES)
def test_every_option_cites_real_laws_and_has_labels(game: str) -> None:
    for o in game_options(game):
        assert o.laws, f"{o.key} cites no law"
        assert all(law_id in LAWS for law_id in o.laws), o.laws
        assert o.sources and set(o.sources) <= set(sources_of(o.laws))
        assert o.name in _LABELS or game.startswith("domino"), f"{o.key} has no label"
        if o.choices:
            assert set(o.choices) == set(_CHOICE_LABELS[o.kind]), f"{o.key}: a choice without a label"
            labels = [o.choice_label(c) for c in o.choices]
            assert len(set(labels)) == len(labels)


def test_the_options_of_each_game_are_those_its_rules_allow() -> None:
    assert [o.name for o in game_options("three-card-loo")] == [f.name for f in Rules.options(Rules().game)]
    assert "pam" in {o.key for o in game_options("five-card-loo")}
    assert "pam" not in {o.key for o in game_options("irish-loo")}
    assert "miss-position" not in {o.key for o in game_options("irish-loo")}  # Irish Loo has no miss
    with pytest.raises(RecordError, match=r"rules\.pam"):
        option("three-card-loo", "pam")


def test_sources_prefer_the_options_own_laws() -> None:
    assert option("three-card-loo", "king-rule-when-ace-turned").sources == ("000",)  # Peel alone
    assert option("three-card-loo", "courts-equal-in-cut").sources == ("001",)  # Enquire Within's cut
    assert option("domino-loo", "first-lead-rule").sources == ("004",)  # not the card games of CF-02
    assert option("three-card-loo", "first-lead-rule").sources == sources_of(("CF-02",))  # only a CF cited
    assert all(o.sources == ("002",) for o in game_options("nap") if o.key != "revoke-replay")
    assert option("nap", "nap-win").settles == ("CF-31", "AMB-37")


@pytest.mark.parametrize("game", GAMES)
def test_rules_value_is_what_the_engine_reads_back(game: str) -> None:
    for preset in presets(game):
        base = preset_rules(game, preset)
        assert rules_value(game, preset, {o.key: o.value_of(base) for o in game_options(game)}) == preset
        for o in game_options(game):
            if o.choices:
                others = [c for c in o.choices if c != o.value_of(base)]
                if not others:
                    continue  # an enumeration of one value (dominoes' first deal): nothing to change
                new: object = others[0]
            else:
                new = not o.value_of(base) if o.kind is bool else int(o.value_of(base)) + 1
            value = rules_value(game, preset, {o.key: new})
            assert value == {"preset": preset, o.key: new}
            try:
                rules = kit(game).read_rules(game, value)
            except RecordError as error:  # some single changes make a combination the engine refuses
                assert error.field.startswith("rules.")
                continue
            assert o.value_of(rules) == new
