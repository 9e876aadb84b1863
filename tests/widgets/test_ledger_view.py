"""The ledger view, driven by whole hands of several games: its table holds the model's own numbers,
chips are conserved, and the pool chart is drawn once per finished hand, the same every time."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from tests.helpers.playing import finish_table
from widgets.table.model import TableModel
from widgets.views.ledger_view import (
    CHART_W,
    MAX_TICKS,
    MINUS,
    NO_HAND,
    LedgerView,
    inner_ticks,
    line_chart_svg,
    nice_ticks,
    pool_chart_svg,
    pool_description,
)

SVG = "{http://www.w3.org/2000/svg}"

GAMES = [
    ("three-card-loo", "peel"),
    ("three-card-loo", "enquire-within"),
    ("five-card-loo", "pam"),
    ("irish-loo", "irish"),
    ("nap", {"preset": "hoffmann", "kitty-mode": "dealer-and-players"}),
    ("domino-loo", "celko"),
]


class _Table(HTMLParser):
    """The cells of each row of the ledger table, by section (thead, tbody, tfoot)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[list[str]]] = {"thead": [], "tbody": [], "tfoot": []}
        self.caption = ""
        self.scopes: list[str | None] = []
        self._section = ""
        self._cell: list[str] | None = None
        self._in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.rows:
            self._section = tag
        elif tag == "tr":
            self.rows[self._section].append([])
        elif tag in ("td", "th"):
            self._cell = []
            if tag == "th":
                self.scopes.append(dict(attrs).get("scope"))
        elif tag == "caption":
            self._in_caption = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[self._section][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "caption":
            self._in_caption = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._in_caption:
            self.caption += data


def table_of(view: LedgerView) -> _Table:
    parser = _Table()
    parser.feed(view._table.value)
    return parser


def number(cell: str) -> int:
    """A cell's leading number: "+3", "−3", "12 (Ben 6, Dan 6)"."""
    return int(cell.split(" ")[0].replace(MINUS, "-"))


def play(game: str, rules: object, seed: int, hands: int) -> tuple[TableModel, LedgerView]:
    table = TableModel(game, rules=rules, seed=seed, rng=random.Random(seed))
    view = LedgerView(table)
    chooser = random.Random(seed + 1)
    for _ in range(hands):
        finish_table(table, chooser)
        if not table.new_hand():
            break
    return table, view


@pytest.mark.parametrize(("game", "rules"), GAMES)
def test_the_table_holds_the_models_numbers_and_every_chip(game: str, rules: object) -> None:
    for seed in (1, 2):
        table, view = play(game, rules, seed, hands=4)
        parsed = table_of(view)
        names = list(table.balances())
        n = len(names)
        assert parsed.rows["thead"][1] == names + names
        lines = table.hand_lines()
        body = parsed.rows["tbody"]
        assert len(lines) >= 3
        for line, row in zip(lines, body, strict=False):
            assert number(row[0]) == line.number and row[1] == line.dealer
            assert number(row[2]) == line.pool_before
            assert [number(c) for c in row[3 : 3 + n]] == [line.net[p] for p in names]
            # what was put in before the deal (the dealer's stake, antes), then the loos, each a part of the net
            assert number(row[3 + n]) == sum(s.dealt + s.began + s.ante for s in line.seats)
            assert number(row[4 + n]) == sum(line.loos.values())
            assert number(row[5 + n]) == line.pool_after
            assert [number(c) for c in row[6 + n :]] == [line.balances[p] for p in names]
        balances = table.balances()
        total, check = parsed.rows["tfoot"]
        assert total[0] == "Total"
        assert [number(c) for c in total[3 : 3 + n]] == [balances[p] for p in names]
        assert [number(c) for c in total[6 + n :]] == [balances[p] for p in names]
        assert number(total[5 + n]) == table.pool
        # Every row adds up: the finished hands and the stakes of the hand in play make the totals.
        in_play = body[len(lines) :]
        paid_since = any(balances[p] != lines[-1].balances[p] for p in names)
        assert len(in_play) == (1 if paid_since else 0)
        if in_play:
            assert in_play[0][0] == f"{len(lines) + 1} (in play)"
        for i, name in enumerate(names):
            assert sum(number(row[3 + i]) for row in body) == balances[name]
        assert sum(balances.values()) + table.pool == 0
        assert f"the pool holds {table.pool}: together 0" in check[0]


def test_the_table_is_accessible() -> None:
    _, view = play("five-card-loo", "pam", 3, hands=2)
    parsed = table_of(view)
    html = view._table.value
    assert "<caption>" in html and parsed.caption.startswith("Chips hand by hand")
    assert parsed.scopes and all(scope in ("col", "colgroup", "row") for scope in parsed.scopes)
    assert all(row[0] for row in parsed.rows["tbody"]), "each hand's row is headed by its number"


def test_the_chart_appears_after_the_first_finished_hand_and_not_before() -> None:
    table = TableModel("nap", preset="hoffmann", seed=5, rng=random.Random(5))
    view = LedgerView(table)
    assert not table.hand_lines()
    assert NO_HAND in view._chart.value and "<svg" not in view._chart.value
    assert view.chart_draws == 0
    finish_table(table, random.Random(6))
    assert "<svg" in view._chart.value and NO_HAND not in view._chart.value
    assert view.chart_draws == 1
    svg = view._chart.value
    assert 'role="img"' in svg and 'aria-label="Line chart of the chips in the pool' in svg and "<title>" in svg
    # A new game has no finished hand again.
    table.new_game()
    assert NO_HAND in view._chart.value


def test_the_chart_is_cached_while_a_hand_is_played() -> None:
    table = TableModel("five-card-loo", preset="pam", seed=8, rng=random.Random(8))
    view = LedgerView(table)
    chooser = random.Random(9)
    finish_table(table, chooser)
    for _ in range(10):  # until a hand in which the reader plays several times
        table.new_hand()
        draws, version = view.chart_draws, table.version
        while not table.hand.is_over:
            table.act(chooser.choice(table.legal()))
            if not table.hand.is_over:
                assert view.chart_draws == draws, "a card played does not redraw the chart"
        assert view.chart_draws == draws + 1  # the hand's end does, once
        if table.version >= version + 3:
            break
    else:
        pytest.fail("no hand of several moves in ten")
    assert 0 < view.chart_seconds < 2


def test_a_refused_take_back_after_the_hand_leaves_the_chart() -> None:
    table = TableModel("irish-loo", preset="irish", seed=4, rng=random.Random(4))
    view = LedgerView(table)
    assert NO_HAND in view._chart.value
    finish_table(table, random.Random(4))
    finished = view._chart.value
    assert "<svg" in finished
    assert not table.undo()  # a finished hand stays finished
    assert view._chart.value == finished and len(table.hand_lines()) == 1


def test_the_chart_is_deterministic_and_small() -> None:
    a_table, a = play("domino-loo", "celko", 11, hands=3)
    b_table, b = play("domino-loo", "celko", 11, hands=3)
    assert a_table.hand_lines() == b_table.hand_lines()
    assert a._chart.value == b._chart.value
    points = [(line.number, line.pool_after) for line in a_table.hand_lines()]
    svg = pool_chart_svg(points)
    assert svg == pool_chart_svg(points)
    assert svg.startswith("<svg") and "<?xml" not in svg and "Date" not in svg and "<metadata" not in svg
    assert len(svg.encode()) < 8000
    # No ids at all, so two charts on one page cannot clash.
    assert all("id" not in element.attrib for element in ET.fromstring(svg).iter())
    assert pool_chart_svg([(1, 3)]) != pool_chart_svg([(1, 4)])
    many = pool_chart_svg([(i, i % 7) for i in range(1, 31)])
    assert "30 hands" in many


def test_names_come_from_the_table() -> None:
    table = TableModel("nap", preset="hoffmann", names=("Wyn", "Xan", "Yul", "Zed"), seed=2, rng=random.Random(2))
    view = LedgerView(table)
    assert table_of(view).rows["thead"][1] == ["Wyn", "Xan", "Yul", "Zed"] * 2


def test_a_game_scored_in_points_says_so() -> None:
    _, view = play("domino-loo", "celko-points", 3, hands=1)
    assert "scored in points" in view._note.value
    _, chips = play("domino-loo", "celko", 3, hands=1)
    assert "scored in points" not in chips._note.value


def test_at_a_live_table_the_ledger_is_drawn_only_when_shown_and_the_rules_only_when_asked_for() -> None:
    """A live table opens quicker and plays faster with its hidden tabs idle: the ledger (and its
    chart, the slowest drawing) is brought up to date when its tab is opened, and the rules
    picker is built the first time the Rules tab is."""
    from widgets.views.live_table import LEDGER_TAB, RULES_TAB, LiveTable
    from widgets.views.rules_picker import RulesPicker

    table = TableModel("three-card-loo", rules="enquire-within", seed=5, rng=random.Random(5))
    live = LiveTable(table)
    assert live.picker is None and live.ledger.chart_draws == 0
    chooser = random.Random(6)
    for _ in range(2):
        finish_table(table, chooser)
        table.new_hand()
    assert live.ledger.chart_draws == 0, "a hidden ledger draws nothing"
    live.tabs.selected_index = LEDGER_TAB
    assert live.ledger.chart_draws == 1
    cells = _Table()
    cells.feed(live.ledger._table.value)
    assert len(cells.rows["tbody"]) >= 2, "the ledger shows the hands played while it was hidden"
    live.tabs.selected_index = RULES_TAB
    assert isinstance(live.picker, RulesPicker) and live._rules.children == (live.picker,)
    live.tabs.selected_index = 0
    finish_table(table, chooser)
    assert live.ledger.chart_draws == 1, "hidden again, it waits"


# ----- the chart's drawing, read back as XML --------------------------------------------------


class Chart:
    """A drawn chart parsed: its line's points, its markers and its tick labels with their places."""

    def __init__(self, svg: str) -> None:
        self.root = ET.fromstring(svg)  # well-formed XML, or this raises
        line = self.root.find(f"{SVG}polyline")
        self.line = [] if line is None else [tuple(map(float, xy.split(","))) for xy in line.get("points", "").split()]
        self.marks = [(float(c.get("cx", "")), float(c.get("cy", ""))) for c in self.root.iter(f"{SVG}circle")]
        self.y_ticks = [(tick_value(t.text), float(t.get("y", ""))) for t in self.group("loo-chart-y")]
        self.x_ticks = [(tick_value(t.text), float(t.get("x", ""))) for t in self.group("loo-chart-x")]

    def group(self, name: str) -> list[ET.Element]:
        found = [g for g in self.root.iter(f"{SVG}g") if g.get("class") == name]
        assert len(found) == 1
        return list(found[0].iter(f"{SVG}text"))

    def texts(self) -> list[str]:
        return [t.text or "" for t in self.root.iter(f"{SVG}text")]


def tick_value(label: str | None) -> int:
    """A tick label read as a whole number: "12", "−5" (a minus sign), "3,000"."""
    assert label is not None
    return int(label.replace(MINUS, "-").replace(",", ""))


def is_nice(step: int) -> bool:
    """1, 2 or 5 times a power of ten."""
    while step % 10 == 0:
        step //= 10
    return step in (1, 2, 5)


def assert_nice(values: list[int]) -> None:
    assert 1 <= len(values) <= MAX_TICKS
    steps = {b - a for a, b in itertools.pairwise(values)}
    assert len(steps) <= 1 and all(is_nice(step) for step in steps), values


def y_of(chart: Chart, value: int) -> float:
    """Where a tick's value is drawn, or between two ticks where it falls."""
    (v0, y0), (v1, y1) = chart.y_ticks[0], chart.y_ticks[-1]
    return y0 + (value - v0) * (y1 - y0) / (v1 - v0)


def test_the_chart_is_an_svg_image_with_the_description_as_title_and_desc() -> None:
    points = [(1, 3), (2, 12), (3, 6)]
    svg = pool_chart_svg(points)
    root = ET.fromstring(svg)
    said = pool_description(points)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img" and root.get("aria-label") == said
    assert root.findtext(f"{SVG}title") == said and root.findtext(f"{SVG}desc") == said
    # It scales with its container, up to about the width the old chart had, and writes in the page's font.
    assert root.get("viewBox") == f"0 0 {CHART_W} 210" and root.get("width") == "100%" and root.get("height") is None
    style = root.get("style", "")
    assert "max-width:400px" in style and "font-family:inherit" in style
    assert not [e for e in root.iter() if e.get("font-family")], "no font of its own"
    assert {"Hand", "Chips in the pool"} <= set(Chart(svg).texts())


def test_points_go_left_to_right_and_a_bigger_pool_higher_up() -> None:
    points = [(1, 3), (2, 12), (3, 6), (4, 0), (5, 15), (6, 6)]
    chart = Chart(pool_chart_svg(points))
    assert len(chart.line) == len(points) and chart.marks == chart.line
    xs = [x for x, _ in chart.line]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    for (_, a), (_, b), (_, ya), (_, yb) in zip(points, points[1:], chart.line, chart.line[1:], strict=False):
        assert (ya > yb) == (a < b) and (ya == yb) == (a == b)  # SVG's y grows downwards
    # Each point sits on its own value and hand as the ticks read them.
    for (hand, pool), (x, y) in zip(points, chart.line, strict=True):
        assert y == pytest.approx(y_of(chart, pool), abs=0.1)
        for value, tick_x in chart.x_ticks:
            if value == hand:
                assert x == pytest.approx(tick_x, abs=0.1)


def test_tick_labels_are_whole_numbers_a_nice_step_apart_and_cover_the_points() -> None:
    cases = [
        [(1, 3), (2, 12), (3, 6)],
        [(i, (i * 37) % 41) for i in range(1, 20)],
        [(1, 60), (2, 450), (3, 1200), (4, 2985), (5, 800)],
        [(1, -4), (2, 3), (3, -9), (4, 6)],  # a pool never goes below zero in these games, but the chart copes
    ]
    for points in cases:
        chart = Chart(pool_chart_svg(points))
        hands, pools = [n for n, _ in points], [p for _, p in points]
        y_values = [v for v, _ in chart.y_ticks]
        assert_nice(y_values)
        assert y_values[0] <= min(0, *pools) and y_values[-1] >= max(pools), "the value axis holds every point and 0"
        assert 0 in y_values
        ys = [y for _, y in chart.y_ticks]
        assert ys == sorted(ys, reverse=True), "bigger values higher up"
        x_values = [v for v, _ in chart.x_ticks]
        assert_nice(x_values)
        assert hands[0] <= x_values[0] and x_values[-1] <= hands[-1], "hand numbers that were played"
        assert x_values[-1] - x_values[0] >= (hands[-1] - hands[0]) / 2, "and spread over the game"
    assert [v for v, _ in Chart(pool_chart_svg([(1, 3), (2, 12), (3, 6)])).x_ticks] == [1, 2, 3]
    assert f"{MINUS}5" in Chart(pool_chart_svg(cases[3])).texts()
    assert "3,000" in Chart(pool_chart_svg(cases[2])).texts()


def test_nice_ticks_for_any_range() -> None:
    for low in range(-30, 31, 3):
        for high in [*range(low, low + 60), 999, 12345]:
            ticks = nice_ticks(low, high)
            assert_nice(ticks)
            assert len(ticks) >= 2 and ticks[0] <= low and ticks[-1] >= high
            inner = inner_ticks(low, high)
            assert_nice(inner)
            assert low <= inner[0] and inner[-1] <= high


def test_one_point_is_a_marker_above_its_hand() -> None:
    chart = Chart(pool_chart_svg([(1, 3)]))
    assert chart.line == [] and len(chart.marks) == 1
    assert [v for v, _ in chart.x_ticks] == [1]
    (x, y), ((_, tick_x),) = chart.marks[0], chart.x_ticks
    assert x == pytest.approx(tick_x) and y == pytest.approx(y_of(chart, 3))
    assert [v for v, _ in chart.y_ticks] == [0, 1, 2, 3]


def test_a_flat_line_lies_on_its_value() -> None:
    for value in (0, 5):
        chart = Chart(pool_chart_svg([(i, value) for i in range(1, 7)]))
        assert len({y for _, y in chart.line}) == 1
        assert chart.line[0][1] == pytest.approx(y_of(chart, value))
        ticks = [v for v, _ in chart.y_ticks]
        assert ticks[0] == 0 and ticks[-1] >= max(value, 1), "a pool always empty still has an axis"


def test_a_game_of_hundreds_of_hands_thins_its_markers() -> None:
    points = [(i, (i * 7919) % 43) for i in range(1, 301)]
    svg = pool_chart_svg(points)
    chart = Chart(svg)
    assert len(chart.line) == 300 and [x for x, _ in chart.line] == sorted(x for x, _ in chart.line)
    assert len(chart.marks) == 1 and chart.marks[0] == chart.line[-1], "one marker, on the last hand"
    x_values = [v for v, _ in chart.x_ticks]
    assert_nice(x_values)
    assert x_values[-1] == 300
    assert len(svg.encode()) < 12000
    assert "300 hands" in ET.fromstring(svg).findtext(f"{SVG}desc", "")
    # Fewer hands keep a marker on every point.
    assert len(Chart(pool_chart_svg(points[:40])).marks) == 40


def test_no_hand_is_an_empty_chart_not_an_error() -> None:
    chart = Chart(pool_chart_svg([]))
    assert chart.line == [] and chart.marks == [] and chart.x_ticks == []
    assert "no hand finished yet" in chart.root.findtext(f"{SVG}desc", "")


def test_every_text_is_escaped() -> None:
    nasty = "Chips <b>&amp; \"quoted\" 'it'</b> <script>alert(1)</script>"
    svg = line_chart_svg([(1, 2), (2, 5)], x_label=nasty, y_label=nasty, description=nasty)
    assert "<script>" not in svg and "<b>" not in svg
    root = ET.fromstring(svg)
    assert root.get("aria-label") == nasty and root.findtext(f"{SVG}title") == nasty
    assert root.findtext(f"{SVG}desc") == nasty
    assert Chart(svg).texts().count(nasty) == 2
    assert all((c.findtext(f"{SVG}title") or "").startswith(nasty) for c in root.iter(f"{SVG}circle"))


def _contrast(colour: str) -> float:
    """WCAG contrast of a #rrggbb colour against white."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def test_the_chart_keeps_wcag_contrast_on_its_white_ground() -> None:
    root = ET.fromstring(pool_chart_svg([(1, 3), (2, 12), (3, 6)]))
    rect = root.find(f"{SVG}rect")
    assert rect is not None and rect.get("fill") == "#fff" and rect.get("width") == str(CHART_W)
    text_inks = {g.get("fill") for g in root.iter(f"{SVG}g") if g.find(f"{SVG}text") is not None}
    assert text_inks and all(_contrast(ink or "") >= 4.5 for ink in text_inks)
    line = root.find(f"{SVG}polyline")
    assert line is not None and _contrast(line.get("stroke", "")) >= 3


def test_a_table_kernel_does_not_load_matplotlib() -> None:
    """The chart is the project's own SVG: no plotting library in every table's kernel (about 45 MB)."""
    code = "import widgets.views.live_table, sys; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "False"
