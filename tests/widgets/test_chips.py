"""One accounting of a hand's chips (widgets.table.chips): it is the game's ledger, part by part, and every
place that shows a hand's chips or points says the same numbers: the result line, the finished hand's
prose and settlement table on the Table tab, and the Ledger tab.

The hand issue 27 reported is here by its deal code: Ann deals the second hand of a Peel game and is
looed, so she puts in her stake of 3 and pays a loo of 6, 9 in all; every place must say −9, and show
the 3 and the 6.
"""

from __future__ import annotations

import random
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from tests.helpers.loo_helpers import EVERY_TABLE_GAME
from tests.helpers.playing import finish_table
from widgets.table.chips import MINUS, HandLine, SeatChips, seat_words, signed
from widgets.table.model import TableModel
from widgets.views.hand_summary import summary_html
from widgets.views.ledger_view import LedgerView
from widgets.views.live_table import LiveTable

# Every table game, with the kitty that feeds Nap's pool from every player, and Domino Loo for points.
GAMES = [
    *EVERY_TABLE_GAME,
    ("nap", {"preset": "hoffmann", "kitty-mode": "dealer-and-players"}),
    ("domino-loo", "celko-points"),
]
DEALER_LOOED = "l3.peel.s0.n1"  # Ann, the reader, deals hand 2 (after Eve's single) and is looed


class Cells(HTMLParser):
    """Every table's rows as lists of cell texts, and each table's headings."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_in(html: str) -> list[list[list[str]]]:
    parser = Cells()
    parser.feed(html)
    return parser.tables


def column(rows: list[list[str]], head: str, names: list[str]) -> dict[str, str]:
    """The cells under the heading ``head`` of a table with a row per player, by player."""
    heads = next(row for row in rows if head in row)
    at = heads.index(head)
    return {row[0]: row[at] for row in rows if row and row[0] in names}


def stand_to_the_end(model: TableModel) -> None:
    while not model.hand.is_over:
        legal = model.legal()
        assert model.act(next((a for a in legal if a.verb == "stand"), legal[0]))


def ledger_parts(model: TableModel, index: int) -> dict[str, int]:
    """Each player's chips in hand ``index`` (from 0) as the engine's ledger booked them."""
    net = dict.fromkeys(model.balances(), 0)
    for entry in model.table_game.ledger:
        if entry.hand == index:
            net[entry.player] -= entry.amount
    return net


def every_place_agrees(table: LiveTable, ledger: LedgerView) -> HandLine:
    """The finished hand's line agrees with the ledger and the settlement, and every place shows it."""
    model = table.model
    lines = model.hand_lines()
    line = lines[-1]
    names = list(model.names)
    # The accounting is the ledger's: each net is what the ledger booked, and the parts add up to it.
    assert dict(line.net) == ledger_parts(model, len(lines) - 1)
    assert sum(model.balances().values()) + model.pool == 0
    settlement = model.hand.settlement
    assert settlement is not None and model.table_game.results[-1].settlement is settlement
    for seat, name in enumerate(names):
        chips = line.seat(name)
        assert chips.dealer == (name == line.dealer)
        assert chips.net == chips.won + chips.settled - chips.put_in
        if hasattr(settlement, "stakes"):  # Nap: the record's settlement is every chip but the kitty's feed
            assert (chips.settled, chips.fees, chips.won) == (
                settlement.stakes[seat],
                settlement.pool_paid[seat],
                settlement.pool_taken[seat],
            )
        else:  # the record's payouts and loos are the parts the play decided
            assert (chips.won, chips.looed) == (settlement.payouts[seat], settlement.loos[seat])
        # the settlement's net leaves out what was paid before the deal: the stake, an ante, a kitty's feed
        assert (
            chips.net == settlement.net()[seat] - chips.dealt - chips.began - chips.ante - chips.penalty
            or line.in_points
        )
    # The result line under the table names every player with the same words.
    result = unescape(table.table._result_html())
    for name in names:
        assert f"{name}: {seat_words(line, name)}" in result, (result, name)
    # The finished hand's prose and its settlement table.
    summary = summary_html(model)
    words = unescape(summary.split('class="loo-summary-words">', 1)[1].split("</p>", 1)[0])
    settle = tables_in(summary)[-1]
    if line.in_points:
        assert "+" not in words and "+" not in " ".join(" ".join(r) for r in settle)  # never a bare "+5"
        head = next(h for h in settle[0] if h.startswith("Score now"))
        better = "lower" if line.scoring == "rounce" else "higher"
        assert f"({better} is better)" in head
        assert column(settle, head, names) == {n: str(line.scores[n]) for n in names}
        assert all(seat_words(line, n) in words for n in names)
    else:
        assert column(settle, "Net chips", names) == {n: signed(line.net[n]) for n in names}
        if any(s.dealt for s in line.seats):
            stake = column(settle, "Stake", names)
            assert all(int(stake[s.name]) == s.dealt + s.began + s.ante for s in line.seats)
        for name in names:
            chips = line.seat(name)
            who = "You" if name == names[model.seat] else name
            said = words.split(f"{who} won ", 1)[1].split(". ", 1)[0].rstrip(".")
            assert all(part in said for part in chips.parts()), (said, chips)
            assert said.endswith(f": {signed(chips.net)} chips") or not chips.parts(), said
    # The Ledger tab: the chips hand by hand, or the scores first where the game is scored in points.
    shown = tables_in(ledger._table.value)[0]
    if line.in_points:
        assert "Scores hand by hand" in ledger._table.value and "chips" not in ledger._chart.value
        last = next(row for row in shown if row and row[0] == str(line.number))
        assert [int(re.match(r"-?\d+", cell).group()) for cell in last[2:]] == [line.scores[n] for n in ledger._names()]
        better = "Lower is better" if line.scoring == "rounce" else "Higher is better"
        assert ledger._table.value.index(better) < ledger._table.value.index("<table")
    else:
        last = next(row for row in shown if row and row[0] == str(line.number))
        players = ledger._names()
        assert [cell.replace(MINUS, "-") for cell in last[3 : 3 + len(players)]] == [
            signed(line.net[p]).replace(MINUS, "-") for p in players
        ]
    return line


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=[f"{g}-{r}" if isinstance(r, str) else g for g, r in GAMES])
def test_every_place_shows_the_same_chips_for_random_hands(game: str, rules: object) -> None:
    for seed in (1, 2, 3):
        model = TableModel(game, rules=rules, seed=seed, rng=random.Random(seed))
        table, ledger = LiveTable(model), LedgerView(model)
        chooser = random.Random(seed + 100)
        hands = 0
        for _ in range(5):
            finish_table(model, chooser)
            every_place_agrees(table, ledger)
            hands += 1
            if not model.new_hand():
                break
        assert hands >= 2 or model.table_game.is_over


def test_the_dealer_who_is_looed_pays_his_stake_and_the_loo_everywhere() -> None:
    model = TableModel(code=DEALER_LOOED, rng=random.Random(1))
    table, ledger = LiveTable(model), LedgerView(model)
    stand_to_the_end(model)
    line = every_place_agrees(table, ledger)
    assert line.number == 2 and line.dealer == "Ann"
    assert line.seat("Ann") == SeatChips("Ann", dealer=True, dealt=3, looed=6)
    assert line.seat("Ann").words() == f"put 3 in as dealer, looed 6: {MINUS}9"
    assert model.hand.settlement is not None and model.hand.settlement.net()[0] == -6  # the play's part alone
    result = unescape(table.table._result_html())
    assert f"Ann: put 3 in as dealer, looed 6: {MINUS}9" in result
    assert not re.search(r"Ann[^;]*[−-]6\b", result), "the dealer's stake left out somewhere"
    summary = unescape(summary_html(model))
    assert f"You won no trick; put 3 in as dealer, looed 6: {MINUS}9 chips." in summary
    settle = tables_in(summary)[-1]
    assert column(settle, "Stake", ["Ann"])["Ann"] == "3"
    assert column(settle, "Looed for", ["Ann"])["Ann"] == "6"
    assert column(settle, "Net chips", ["Ann"])["Ann"] == f"{MINUS}9"


def test_rounce_says_which_way_is_good_and_shows_no_pool() -> None:
    model = TableModel("domino-rounce", preset="rounce", seed=3, rng=random.Random(3))
    table, ledger = LiveTable(model), LedgerView(model)
    assert "Pool:" not in table.table._board.value
    finish_table(model, random.Random(4))
    line = every_place_agrees(table, ledger)
    assert "pool" not in table.table._board.value.lower()
    result = unescape(table.table._result_html())
    assert "lower is better" in result and "The pool carries" not in result
    worse = [n for n, p in line.points.items() if p > 0]
    better = [n for n, p in line.points.items() if p < 0]
    assert better, "somebody took a trick"
    for name in better:
        assert f"{name}: {-line.points[name]} point" in result and "nearer to out" in seat_words(line, name)
    for name in worse:
        assert "further from out" in seat_words(line, name)
    # The scores are the Ledger tab's table; no table of chips that never move, nor a chart of the pool.
    assert ledger._table.value.count("<table") == 1 and "Scores hand by hand" in ledger._table.value
    assert "Chips hand by hand" not in ledger._table.value and ledger._chart.value == ""
