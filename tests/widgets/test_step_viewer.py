"""The step-through viewer's HTML, read without a browser: one frame per position, the right words
in the right frame, nothing a seat could not see, the same string every time."""

from __future__ import annotations

import dataclasses
import doctest
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest

import widgets.views.step_viewer as step_viewer
from loo.core.actions import Action, IllegalActionError
from loo.core.cards import Card, full_pack
from loo.core.rules import RecordError
from loo.core.tiles import Tile, full_set
from loo.records import load
from widgets.table.chips import points_words
from widgets.views.step_viewer import StepViewer

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))
ALL_PIECES: list[Any] = [*full_pack(), *full_set()]


@dataclasses.dataclass
class Frame:
    number: int
    hidden: bool
    text: str = ""
    labels: list[str] = dataclasses.field(default_factory=list)


FRAME = re.compile(r'<section class="loo-steps-frame" data-loo-frame="(\d+)"[^>]*?( hidden)?>(.*?)</section>', re.S)
LABEL = re.compile(r'aria-label="([^"]*)"')
TAG = re.compile(r"<[^>]*>")


def frames_of(html: str) -> list[Frame]:
    """A viewer's frames in order, each with its text (card titles included) and its aria-labels.

    Regular expressions rather than an HTML parser: the markup is our own, and a parser is slow
    on thousands of SVG paths.
    """
    return [
        Frame(int(number), bool(hidden), unescape(TAG.sub(" ", body)), [unescape(x) for x in LABEL.findall(body)])
        for number, hidden, body in FRAME.findall(html)
    ]


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def pieces_in(value: Any) -> set[Any]:
    """Every card or tile anywhere in a seat's view (its hand, put-outs, tricks, settlement...)."""
    if isinstance(value, (Card, Tile)):
        return {value}
    if isinstance(value, (tuple, list)):
        return set().union(*(pieces_in(v) for v in value)) if value else set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(pieces_in(getattr(value, f.name)) for f in dataclasses.fields(value) if f.name != "rules"))
    return set()


BY_NAME = {p.name: p for p in ALL_PIECES}
NAMED = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(name) for name in sorted(BY_NAME, key=len, reverse=True)) + r")(?![\w-])"
)


def shown(frame: Frame) -> set[Any]:
    """The pieces a frame names anywhere: in a card's label, a hand's label, or the text."""
    words = " | ".join(frame.labels) + " | " + frame.text
    return {BY_NAME[name] for name in NAMED.findall(words)}


def played_out(game: str, seed: int, seats: int, rules: Any = None) -> dict[str, Any]:
    """A seeded record of ``game`` played to the end by always taking the first legal action."""
    obj: dict[str, Any] = {
        "format": "loo-record/1",
        "game": game,
        "seats": ["Ann", "Ben", "Cat", "Dan", "Eve"][:seats],
        "dealer": seats - 1,
        # at least the deal price (L3-STK-07, L5-STK-01); at dominoes everyone's ante and the dealer's (DL-SC-01)
        "pool": 0 if game == "nap" else 5 * (seats + 1) if game.startswith("domino") else 5,
        "deal": {"seed": seed},
        "actions": [],
    }
    if rules is not None:
        obj["rules"] = rules
    hand = load(json.dumps(obj)).start()
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.push(legal[0])
    obj["actions"] = [a.to_record() for a in hand.actions]
    return obj


# ----- every golden record ----------------------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_frame_per_position_with_its_counter_and_action(path: Path) -> None:
    raw = json.loads(text_of(path))
    n = len(raw["actions"])
    viewer = StepViewer(text_of(path))
    frames = frames_of(viewer.to_html())
    assert [f.number for f in frames] == list(range(n + 1))
    assert [f.hidden for f in frames] == [False] + [True] * n  # only the deal shows at first
    names = raw["seats"]
    for k, frame in enumerate(frames):
        assert f"Step {k} of {n}" in frame.text
        assert viewer.steps[k].text in frame.text
        if k == 0:
            continue
        action = raw["actions"][k - 1]
        assert viewer.steps[k].text.startswith(names[action["seat"]] + " ")
        if "play" in action:
            piece = Tile.parse(action["play"]) if "domino" in raw["game"] else Card.parse(action["play"])
            assert f"the {piece.name}" in viewer.steps[k].text
        # the sentence is in this frame and in no frame before it
        assert all(viewer.steps[k].text not in f.text for f in frames[:k] if viewer.steps[k].text)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_page_needs_nothing_from_outside_and_carries_its_script(path: Path) -> None:
    html = StepViewer(text_of(path)).to_html()
    assert "http://" not in html and "https://" not in html
    assert html.count("<script>") == 1 and html.rstrip().endswith("</script>")
    assert re.search(r'<div class="loo-steps" data-loo-steps tabindex="0" role="group" aria-label="[^"]+"', html)
    assert 'aria-live="polite"' in html
    # the only ids are the shared drawings', made from the viewer's own content: no clash on a page
    ids = re.findall(r' id="([^"]+)"', html)
    assert ids and len(ids) == len(set(ids))
    prefixes = {i.rsplit("-", 1)[0] for i in ids}
    assert len(prefixes) == 1 and prefixes.pop().startswith("loo-d")
    for ref in set(re.findall(r'<use href="#([^"]+)"/>', html)):
        assert ref in ids
    for label in ("First step", "Back one step", "Play", "Forward one step", "Last step"):
        assert f'aria-label="{label}"' in html
    assert re.search(r'data-loo-go="first" aria-label="First step" disabled', html)
    assert re.search(r'data-loo-go="back" aria-label="Back one step" disabled', html)
    assert not re.search(r'data-loo-go="forward" aria-label="Forward one step" disabled', html)
    assert "<noscript>" in html


def test_two_viewers_on_a_page_share_no_drawing_id_and_a_drawing_is_written_once() -> None:
    cards = [p for p in RECORDS if p.name.startswith(("L3", "L5", "NAP"))]
    first, second = (StepViewer(text_of(p)).to_html() for p in cards[:2])
    ids = [set(re.findall(r' id="([^"]+)"', h)) for h in (first, second)]
    assert ids[0] and ids[1] and not ids[0] & ids[1]
    # a card shown in many frames is drawn once: named pieces far outnumber the drawn faces
    faces = first.count('<rect x=".5" y=".5" width="99" height="139" rx="7" fill="#fffdf7"')
    assert first.count("<title>") > 3 * faces > 0
    assert StepViewer(text_of(cards[0])).to_html() == first  # the same record gives the same page


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_last_frame_settles_as_the_checker_does(path: Path) -> None:
    raw = json.loads(text_of(path))
    expected = json.loads(text_of(path.with_name(path.stem + ".expected.json")))
    viewer = StepViewer(raw)
    last = viewer.steps[-1].html
    assert "Settlement" in last
    assert all("Settlement" not in s.html for s in viewer.steps[:-1])
    rows = re.findall(r'<tr><th scope="row">([^<]*)</th>((?:<td>[^<]*</td>)+)</tr>', last)
    assert [name for name, _ in rows] == raw["seats"]
    cells = [re.findall(r"<td>([^<]*)</td>", cells) for _, cells in rows]
    assert [int(c[0]) for c in cells] == expected["tricks_won"]

    def number(text: str) -> int:
        return int(text.replace("\u2212", "-").lstrip("+"))

    if "settlement" in expected:  # Nap: the net chips each seat wins or loses
        assert [number(c[-1]) for c in cells] == expected["settlement"]
    elif "points" in expected:  # in words that say which way is good: at Rounce fewer points is better
        scoring = "rounce" if "rounce" in json.dumps([raw["game"], raw["rules"]]) else "points"
        assert [c[1] for c in cells] == [points_words(p, scoring) for p in expected["points"]]
    else:
        assert [int(c[1]) for c in cells] == expected["payouts"]
        assert [int(c[2]) for c in cells] == expected["loos"]
        assert f"The next pool starts with {expected['next_pool']} chip" in last


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_commentary_goes_into_its_own_frame(path: Path) -> None:
    n = len(json.loads(text_of(path))["actions"])
    notes = {0: "Before anyone speaks.", n // 2: "Halfway: watch the trumps.", n: "And so it ends."}
    frames = frames_of(StepViewer(text_of(path), commentary=notes).to_html())
    for frame in frames:
        for k, note in notes.items():
            assert (note in frame.text) == (frame.number == k)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_seat_sees_only_what_it_saw_at_each_step(path: Path) -> None:
    record = load(text_of(path))
    for seat in range(len(record.seats)):
        frames = frames_of(StepViewer(record, seat=seat).to_html())
        hand = record.start()
        seen = pieces_in(hand.view(seat))
        for k, frame in enumerate(frames):
            if k:
                hand.push(record.actions[k - 1])
                seen |= pieces_in(hand.view(seat))
            leaked = shown(frame) - seen
            assert not leaked, f"seat {seat}, step {k}: {sorted(p.name for p in leaked)}"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_hand_is_face_up_for_the_book(path: Path) -> None:
    record = load(text_of(path))
    first = frames_of(StepViewer(record).to_html())[0]
    dealt = {piece for h in record.hands if h for piece in h}
    assert dealt <= shown(first)  # so the test above would catch a face shown in the seat mode
    assert "loo-steps-hands" not in StepViewer(record).to_html()  # each hand sits in its seat's row


@pytest.mark.parametrize("path", RECORDS[:3] + RECORDS[-3:], ids=lambda p: p.stem)
def test_the_same_input_gives_the_same_string(path: Path) -> None:
    notes = {1: "One."}
    a = StepViewer(text_of(path), commentary=notes, title="T").to_html()
    b = StepViewer(json.loads(text_of(path)), commentary=notes, title="T").to_html()
    c = StepViewer(load(text_of(path)), commentary=notes, title="T").to_html()
    assert a == b == c
    assert StepViewer(text_of(path), seat=1).to_html() == StepViewer(text_of(path), seat=1).to_html()


# ----- every game --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "seats", "rules"),
    [
        ("three-card-loo", 5, None),
        ("five-card-loo", 4, None),
        ("irish-loo", 4, None),
        ("nap", 4, None),
        ("domino-loo", 4, None),
        ("domino-rounce", 3, None),
    ],
)
@pytest.mark.parametrize("seed", [3, 11])
def test_every_game_steps_through(game: str, seats: int, rules: Any, seed: int) -> None:
    obj = played_out(game, seed, seats, rules)
    viewer = StepViewer(obj, seat=0)
    frames = frames_of(viewer.to_html())
    assert len(frames) == len(obj["actions"]) + 1
    assert "Settlement" in frames[-1].text
    assert frames_of(StepViewer(obj).to_html())[-1].text.count("Settlement") == 1


def test_a_record_that_stops_early_says_who_is_to_act() -> None:
    obj = json.loads(text_of(GOLDEN / "L3-DIV-02-one-chip-a-trick.json"))
    obj["actions"] = obj["actions"][:6]
    viewer = StepViewer(obj)
    assert "The record stops here" in viewer.steps[-1].html
    assert "Settlement" not in viewer.steps[-1].html


def test_what_others_put_out_face_down_is_only_counted() -> None:
    path = GOLDEN / "L5-STK-03-half-a-crown.json"
    exchange = StepViewer(text_of(path), seat=0).steps[5].text
    assert exchange == "Ben exchanges one card"
    assert StepViewer(text_of(path), seat=1).steps[5].text == "Ben exchanges the king of spades"
    assert StepViewer(text_of(path)).steps[5].text == "Ben exchanges the king of spades"


# ----- errors ------------------------------------------------------------------------------------


def test_a_bad_record_raises_the_engines_error_naming_the_field() -> None:
    obj = json.loads(text_of(GOLDEN / "L3-DIV-02-one-chip-a-trick.json"))
    bad = json.loads(json.dumps(obj))
    bad["deal"]["hands"][1][0] = "ZZ"
    with pytest.raises(RecordError) as caught:
        StepViewer(bad)
    assert caught.value.field == "deal.hands[1][0]"
    with pytest.raises(RecordError) as caught:
        StepViewer("{not json")
    assert caught.value.field == "record"
    with pytest.raises(RecordError) as caught:
        StepViewer({**obj, "actions": [{"seat": 0, "declare": "stand", "note": "x"}]})
    assert caught.value.field == "actions[0].note"


def test_an_illegal_action_raises_with_its_index() -> None:
    obj = json.loads(text_of(GOLDEN / "L3-DIV-02-one-chip-a-trick.json"))
    obj["actions"][3] = {"seat": 0, "declare": "stand"}
    with pytest.raises(IllegalActionError) as caught:
        StepViewer(obj)
    assert caught.value.index == 3


def test_commentary_and_seat_must_be_in_the_hand() -> None:
    text = text_of(GOLDEN / "L3-DIV-02-one-chip-a-trick.json")
    with pytest.raises(ValueError, match="commentary key 15"):
        StepViewer(text, commentary={15: "too late"})
    with pytest.raises(ValueError, match="seat 5"):
        StepViewer(text, seat=5)
    with pytest.raises(TypeError):
        StepViewer(42)


def test_commentary_is_text_not_markup() -> None:
    html = StepViewer(text_of(GOLDEN / "L3-DIV-02-one-chip-a-trick.json"), commentary={2: "<b>bold</b> & co"}).to_html()
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html and "<b>bold</b>" not in html


# ----- notebook and live table -------------------------------------------------------------------


def test_a_notebook_cell_and_a_live_table_get_the_same_html() -> None:
    viewer = StepViewer(text_of(GOLDEN / "NAP-SET-03-three-each-way.json"), seat=2)
    assert viewer._repr_html_() == viewer.to_html()
    out = viewer.widget()
    assert [o["output_type"] for o in out.outputs] == ["display_data"]
    assert out.outputs[0]["data"]["text/html"] == viewer.to_html()


def test_describe_names_each_verb() -> None:
    names = ["Ann", "Ben", "Cat"]
    say = step_viewer.describe
    assert say(Action(0, "call", "pass"), names) == "Ann passes"
    assert say(Action(1, "call", "3"), names) == "Ben calls three"
    assert say(Action(1, "call", "nap"), names) == "Ben goes Nap"
    assert say(Action.play(2, "AS"), names, leading=True) == "Cat leads the ace of spades"
    assert say(Action(0, "play", Tile.parse("6-3"), suit=3), names, leading=True) == (
        "Ann leads the six-three, calling threes"
    )
    assert say(Action(2, "for-pool", True), names, game="three-card-loo") == "Cat plays the miss for the pool"
    assert say(Action(2, "take-turnup", Card.parse("2S")), names, viewer=0) == (
        "Cat takes the turn-up, discarding a card face down"
    )
    assert say(Action(0, "garnet", ()), names, game="nap") == "Ann takes up Sir Garnet's five cards"
    assert say(Action(0, "exchange", ()), names) == "Ann keeps every card"


def test_the_modules_doctests_pass() -> None:
    result = doctest.testmod(step_viewer, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_face_up_the_untaken_domino_misses_are_drawn_and_one_seats_view_never_shows_them() -> None:
    from widgets.book import example_hand

    viewer = example_hand("domino-rounce", "rounce", seed=65, seats=3)
    first = viewer.steps[0].html
    assert "the dummy to be taken next:" in first and "the dummy to be taken second:" in first
    assert "face down" not in first  # nothing is hidden in the face-up book view
    seat_view = example_hand("domino-rounce", "rounce", seed=65, seats=3, seat=0)
    assert all("to be taken" not in step.html for step in seat_view.steps)


def test_a_viewer_can_open_at_a_later_step_and_still_go_back_to_the_deal() -> None:
    text = text_of(GOLDEN / "L3-DIV-02-one-chip-a-trick.json")
    html = StepViewer(text, start=3).to_html()
    shown = re.findall(r'<section class="loo-steps-frame" data-loo-frame="(\d+)"[^>]*?(?: hidden)?>', html)
    visible = re.findall(r'data-loo-frame="(\d+)" data-loo-say="[^"]*">', html)
    assert visible == ["3"] and len(shown) > 4
    assert 'data-loo-start="3"' in html
    # the way back is open: First and Back are enabled at a later step
    assert re.search(r'data-loo-go="first" aria-label="First step">', html)
    assert "data-loo-start=" not in StepViewer(text).to_html()
    with pytest.raises(ValueError, match="start 99"):
        StepViewer(text, start=99)
