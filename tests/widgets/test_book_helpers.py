"""The book's helpers: seeded example hands, prescribed actions, and the live-table offer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from widgets.book import TABLES, ExampleError, example_hand, live_table_offer, play_hand, record_of, steps_of


def test_a_seed_gives_the_same_hand_every_time_and_another_seed_another_hand() -> None:
    first = play_hand("three-card-loo", "peel", seed=12)
    assert first.is_over
    assert record_of(play_hand("three-card-loo", "peel", seed=12)) == record_of(first)
    assert record_of(play_hand("three-card-loo", "peel", seed=13))["deal"] != record_of(first)["deal"]


def test_prescribed_actions_come_first_and_the_bots_finish_the_hand() -> None:
    hand = play_hand("three-card-loo", "britannica", seed=12, actions=[{"seat": 0, "declare": "miss"}])
    assert steps_of(hand)[0] == {"seat": 0, "declare": "miss"}
    assert hand.is_over and hand.settlement is not None
    stopped = play_hand("three-card-loo", "britannica", seed=12, actions=[{"seat": 0, "declare": "miss"}], finish=False)
    assert not stopped.is_over and steps_of(stopped) == [{"seat": 0, "declare": "miss"}]


def test_an_action_the_laws_refuse_is_named_with_its_law() -> None:
    with pytest.raises(ExampleError, match=r"actions\[0\].*L3-DECL-01"):
        play_hand("three-card-loo", "britannica", seed=12, actions=[{"seat": 3, "declare": "stand"}])
    with pytest.raises(ExampleError, match=r"actions\[0\]\.declare"):
        play_hand("three-card-loo", "britannica", seed=12, actions=[{"seat": 0, "declare": "fold"}])
    with pytest.raises(ExampleError, match="names"):
        play_hand("three-card-loo", seed=1, seats=4, names=["Ann", "Ben"])


def test_options_override_the_preset() -> None:
    plain = play_hand("three-card-loo", "britannica", seed=5, finish=False)
    club = play_hand("three-card-loo", "britannica", seed=5, finish=False, options={"club-law": True})
    assert not plain.rules.club_law and club.rules.club_law
    assert record_of(club)["rules"] == {"preset": "britannica", "club-law": True}


@pytest.mark.parametrize(
    ("game", "preset", "seats"),
    [
        ("five-card-loo", "pam", 5),
        ("irish-loo", None, 5),
        ("nap", None, 4),
        ("domino-loo", None, 4),
        ("domino-rounce", "rounce", 4),
    ],
)
def test_every_game_makes_a_viewer_with_its_commentary(game: str, preset: str | None, seats: int) -> None:
    viewer = example_hand(game, preset, seed=4, seats=seats, commentary={0: "The deal."}, title="An example")
    html = viewer.to_html()
    assert "The deal." in html and "An example" in html
    assert len(viewer.steps) == len(steps_of(play_hand(game, preset, seed=4, seats=seats))) + 1


def test_the_offer_names_its_table_and_says_how_to_start_the_server() -> None:
    html = live_table_offer("nap", what="Call a Nap.").data
    assert 'id="live-nap"' in html and 'data-loo-table="nap"' in html
    assert "make serve" in html and "Call a Nap." in html
    # one button, seen on every host (it opens the in-browser table until the server says it is there)
    assert re.search(r'<p data-loo-offer-buttons><button type="button" data-loo-play-here[^>]*>Play here<', html)
    # the table's slot is in no hidden part of the box: a table opened there is seen (issue 27)
    slot = html.index("data-loo-frame-slot")
    for hidden in re.finditer(r"<(div|p|details)[^>]*\bhidden\b[^>]*>", html):
        end = html.index(f"</{hidden.group(1)}>", hidden.end())
        assert not hidden.start() < slot < end, hidden.group(0)
    assert "https://" not in html and re.findall(r'href="([^"]+)"', html) == ["../play/nap.html"]
    # the table in the reader's browser: a plain word on what it cannot hide, shown until the server answers
    assert re.search(r"<p class=\"loo-offer-note\" data-loo-note-browser>[^<]*cannot hide the other hands", html)


def test_an_offer_for_a_game_without_a_table_is_refused_and_every_table_can_be_offered() -> None:
    with pytest.raises(ValueError, match="whist"):
        live_table_offer("whist")
    served = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "book" / "tables").glob("*.ipynb"))
    assert sorted(TABLES) == served
