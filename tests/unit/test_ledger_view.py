"""The ledger view, driven by whole hands of several games: its table holds the model's own numbers,
chips are conserved, and the pool chart is drawn once per finished hand, the same every time."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest

from widgets.ledger_view import MINUS, NO_HAND, LedgerView, pool_chart_svg
from widgets.model import TableModel

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


def finish_hand(table: TableModel, chooser: random.Random) -> int:
    """Play the reader's random legal actions until the hand is over; the number of actions taken."""
    steps = 0
    while not table.hand.is_over:
        assert table.act(chooser.choice(table.legal()))
        steps += 1
    return steps


def play(game: str, rules: object, seed: int, hands: int) -> tuple[TableModel, LedgerView]:
    table = TableModel(game, rules=rules, seed=seed, rng=random.Random(seed))
    view = LedgerView(table)
    chooser = random.Random(seed + 1)
    for _ in range(hands):
        finish_hand(table, chooser)
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
            assert number(row[3 + n]) == sum(line.loos.values())
            assert number(row[4 + n]) == line.pool_after
            assert [number(c) for c in row[5 + n :]] == [line.balances[p] for p in names]
        balances = table.balances()
        total, check = parsed.rows["tfoot"]
        assert total[0] == "Total"
        assert [number(c) for c in total[3 : 3 + n]] == [balances[p] for p in names]
        assert [number(c) for c in total[5 + n :]] == [balances[p] for p in names]
        assert number(total[4 + n]) == table.pool
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
    finish_hand(table, random.Random(6))
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
    finish_hand(table, chooser)
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


def test_a_take_back_of_the_last_move_redraws_the_chart() -> None:
    table = TableModel("irish-loo", preset="irish", seed=4, rng=random.Random(4))
    view = LedgerView(table)
    finish_hand(table, random.Random(4))
    finished = view._chart.value
    assert "<svg" in finished
    assert table.undo()
    assert NO_HAND in view._chart.value and not table.hand_lines()


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
    assert 'id="figure_1"' not in svg  # no layout ids to clash with another chart on the page
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
    from widgets.live_table import LEDGER_TAB, RULES_TAB, LiveTable
    from widgets.rules_picker import RulesPicker

    table = TableModel("three-card-loo", rules="enquire-within", seed=5, rng=random.Random(5))
    live = LiveTable(table)
    assert live.picker is None and live.ledger.chart_draws == 0
    chooser = random.Random(6)
    for _ in range(2):
        finish_hand(table, chooser)
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
    finish_hand(table, chooser)
    assert live.ledger.chart_draws == 1, "hidden again, it waits"
