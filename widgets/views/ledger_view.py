"""The game's chips hand by hand: a ledger table and a small chart of the pool.

:class:`LedgerView` observes a :class:`widgets.table.model.TableModel` and shows, for every finished
hand, the dealer, the pool played for, what each player won (+) or paid (-), the loos paid into
the pool and what the pool carried to the next hand, with each player's running balance and a
total row. The stakes already paid for a hand still in play get a row of their own, so the
totals are the model's own ``balances()`` and ``pool`` and show that no chip is lost: the
balances and the pool add up to zero.

Chips are public at the table, so nothing here reveals a hidden card.

The chart is SVG text drawn here with the standard library alone (:func:`line_chart_svg`): no
plotting library is loaded into a table's kernel, and the same code can run in the reader's
browser. It is drawn only when the finished hands change, not on every card played (which changes
the model's version).

>>> lines = [(1, 3), (2, 12), (3, 6)]
>>> svg = pool_chart_svg(lines)
>>> svg.startswith("<svg") and 'role="img"' in svg and svg == pool_chart_svg(lines)
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from html import escape

import ipywidgets as ipw

from loo.core.protocols import PointsGame, TileRules
from widgets.table.chips import MINUS, HandLine, points_words, scoring_rule, signed
from widgets.table.model import TableModel
from widgets.views.safety import guarded
from widgets.views.shared import lean, shared_layout

NO_HAND = "No hand finished yet."

_STYLE = """<style>
.loo-ledger-scroll{overflow-x:auto;max-width:100%}
.loo-ledger-view .widget-html,.loo-ledger-view .widget-html-content{min-width:0;max-width:100%}
.loo-ledger th,.loo-ledger td{white-space:nowrap}
.loo-ledger caption{white-space:normal}
.loo-ledger.loo-scores td{white-space:normal;min-width:5.5em;vertical-align:top}
.loo-ledger.loo-scores th{vertical-align:top}
.loo-ledger{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:0.9em}
.loo-ledger caption{text-align:left;font-weight:bold;padding:0.2em 0}
.loo-ledger th,.loo-ledger td{padding:0.15em 0.5em;border-bottom:1px solid #ccc}
.loo-ledger td{text-align:right}
.loo-ledger td.loo-ledger-name{text-align:left}
.loo-ledger .loo-ledger-who{color:#555;font-size:0.85em}
.loo-ledger tfoot th,.loo-ledger tfoot td{border-top:2px solid #555;font-weight:bold}
.loo-ledger tr.loo-ledger-in-play{font-style:italic}
.loo-pool-chart{margin:0.5em 0}
.loo-pool-chart figcaption{font-size:0.85em;color:#444}
</style>"""


def ledger_table(
    lines: Sequence[HandLine],
    balances: Mapping[str, int],
    pool: int,
    names: Sequence[str],
    in_play: tuple[int, str, int] | None = None,
) -> str:
    """The ledger as an accessible HTML table.

    ``lines`` are the finished hands (``TableModel.hand_lines()``), ``balances`` and ``pool`` the
    model's totals now, and ``in_play`` (hand number, dealer, pool played for) a hand whose stakes
    are paid but which is not yet settled: its row holds what the players have paid in so far.
    """
    finished = lines[-1].balances if lines else dict.fromkeys(names, 0)
    stakes = {name: balances.get(name, 0) - finished.get(name, 0) for name in names}
    heads = "".join(f'<th scope="col">{escape(name)}</th>' for name in names)
    n = len(names)
    rows: list[str] = []
    for line in lines:
        rows.append(
            "<tr>"
            f'<th scope="row">{line.number}</th>'
            f'<td class="loo-ledger-name">{escape(line.dealer)}</td>'
            f"<td>{line.pool_before}</td>"
            + "".join(f"<td>{signed(line.net.get(name, 0))}</td>" for name in names)
            + f"<td>{_loos({s.name: s.dealt + s.began + s.ante for s in line.seats}, names)}</td>"
            + f"<td>{_loos(line.loos, names)}</td>"
            f"<td>{line.pool_after}</td>"
            + "".join(f"<td>{signed(line.balances.get(name, 0))}</td>" for name in names)
            + "</tr>"
        )
    if in_play is not None and any(stakes.values()):
        number, dealer, played_for = in_play
        rows.append(
            '<tr class="loo-ledger-in-play">'
            f'<th scope="row">{number} (in play)</th>'
            f'<td class="loo-ledger-name">{escape(dealer)}</td>'
            f"<td>{played_for}</td>"
            + "".join(f"<td>{signed(stakes[name])}</td>" for name in names)
            + "<td></td><td></td><td></td>"
            + "".join(f"<td>{signed(balances.get(name, 0))}</td>" for name in names)
            + "</tr>"
        )
    loos = sum(sum(line.loos.values()) for line in lines)
    staked = sum(s.dealt + s.began + s.ante for line in lines for s in line.seats)
    held = sum(balances.get(name, 0) for name in names)
    total = (
        "<tr>"
        '<th scope="row">Total</th><td></td><td></td>'
        + "".join(f"<td>{signed(balances.get(name, 0))}</td>" for name in names)
        + f"<td>{staked}</td><td>{loos}</td><td>{pool}</td>"
        + "".join(f"<td>{signed(balances.get(name, 0))}</td>" for name in names)
        + "</tr>"
    )
    check = (
        f'<tr class="loo-ledger-check"><td colspan="{6 + 2 * n}" style="text-align:left">'
        f"The players' balances add up to {signed(held)} and the pool holds {pool}: "
        f"together {signed(held + pool)}, so every chip is accounted for.</td></tr>"
        if held + pool == 0
        else f'<tr class="loo-ledger-check"><td colspan="{6 + 2 * n}" style="text-align:left">'
        f"The balances ({signed(held)}) and the pool ({pool}) do not add up to zero.</td></tr>"
    )
    return (
        '<table class="loo-ledger">'
        "<caption>Chips hand by hand: each player's net for the hand (won +, paid "
        f"{MINUS}), counting the stakes paid in before the deal (the dealer's, and any ante) and the "
        "loos paid into the pool; what the pool carried over; and the running balances</caption>"
        "<thead><tr>"
        '<th scope="col" rowspan="2">Hand</th>'
        '<th scope="col" rowspan="2">Dealer</th>'
        '<th scope="col" rowspan="2">Pool played for</th>'
        f'<th scope="colgroup" colspan="{n}">Net this hand</th>'
        '<th scope="col" rowspan="2">Stakes paid in</th>'
        '<th scope="col" rowspan="2">Loos paid in</th>'
        '<th scope="col" rowspan="2">Carried over</th>'
        f'<th scope="colgroup" colspan="{n}">Balance after the hand</th>'
        f"</tr><tr>{heads}{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody>"
        f"<tfoot>{total}{check}</tfoot>"
        "</table>"
    )


def scores_table(lines: Sequence[HandLine], names: Sequence[str], scoring: str, game_points: int) -> str:
    """The scores of a game scored in points, hand by hand: each player's score after every hand and
    what the hand did to it in words, which say which way is good (at Rounce fewer points is better)."""
    start = game_points if scoring == "rounce" else 0
    heads = "".join(f'<th scope="col">{escape(name)}</th>' for name in names)
    rows = ['<tr><th scope="row">Start</th><td></td>' + "".join(f"<td>{start}</td>" for _ in names) + "</tr>"]
    for line in lines:
        cells = "".join(
            f"<td>{line.scores.get(name, start)}<br>"
            f'<span class="loo-ledger-who">({escape(points_words(line.points.get(name, 0), scoring))})</span></td>'
            for name in names
        )
        rows.append(
            f'<tr><th scope="row">{line.number}</th><td class="loo-ledger-name">{escape(line.dealer)}</td>{cells}</tr>'
        )
    return (
        '<table class="loo-ledger loo-scores">'
        "<caption>Scores hand by hand: each player's score after the hand, and what the hand did to it</caption>"
        '<thead><tr><th scope="col" rowspan="2">Hand</th><th scope="col" rowspan="2">Dealer</th>'
        f'<th scope="colgroup" colspan="{len(names)}">Score after the hand</th></tr><tr>{heads}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _loos(loos: Mapping[str, int], names: Sequence[str]) -> str:
    paid = [(name, loos[name]) for name in names if loos.get(name)]
    if not paid:
        return "0"
    who = ", ".join(f"{escape(name)} {amount}" for name, amount in paid)
    return f'{sum(a for _, a in paid)} <span class="loo-ledger-who">({who})</span>'


def pool_description(points: Sequence[tuple[int, int]]) -> str:
    """Words for the chart, for readers who cannot see it: every point, or a summary of many.

    >>> pool_description([(1, 3), (2, 12)])
    'Line chart of the chips in the pool after each hand: hand 1, 3; hand 2, 12.'
    >>> pool_description([])
    'Line chart of the chips in the pool after each hand: no hand finished yet.'
    """
    if not points:
        return "Line chart of the chips in the pool after each hand: no hand finished yet."
    if len(points) <= 12:
        said = "; ".join(f"hand {n}, {p}" for n, p in points)
        return f"Line chart of the chips in the pool after each hand: {said}."
    low = min(points, key=lambda np: np[1])
    high = max(points, key=lambda np: np[1])
    return (
        f"Line chart of the chips in the pool after each of {len(points)} hands: "
        f"lowest {low[1]} after hand {low[0]}, highest {high[1]} after hand {high[0]}, "
        f"and {points[-1][1]} after the last."
    )


def pool_chart_svg(points: Sequence[tuple[int, int]]) -> str:
    """An SVG line chart of (hand number, pool after the hand), as text with a title and alt text.

    The same points give the same text: the drawing is made from the points alone.

    >>> svg = pool_chart_svg([(1, 3), (2, 12)])
    >>> '<desc>Line chart of the chips in the pool after each hand: hand 1, 3; hand 2, 12.</desc>' in svg
    True
    """
    return line_chart_svg(points, x_label="Hand", y_label="Chips in the pool", description=pool_description(points))


# The chart's drawing units: a pixel each at its widest, which is about the ledger's own width.
CHART_W, CHART_H = 400, 210
MAX_TICKS = 6
# Colours on the chart's own white ground, with their contrast (WCAG asks 4.5:1 for text, 3:1 for
# a graphic): the line and markers 6.8:1 (6.1:1 on the light tint under the line), the axis titles
# 12.6:1, the tick labels 7:1, the axis 4.5:1; the grid is only a guide.
INK, TITLE_INK, LABEL_INK, AXIS_INK, GRID_INK = "#1f5f8b", "#333333", "#595959", "#767676", "#e3e6ea"
_STEPS = (1, 2, 5)


def _steps() -> Iterator[int]:
    """The nice steps in order: 1, 2, 5, 10, 20, 50, 100 and so on."""
    power = 1
    while True:
        for step in _STEPS:
            yield step * power
        power *= 10


def nice_ticks(low: int, high: int, most: int = MAX_TICKS) -> list[int]:
    """At most ``most`` evenly spaced whole numbers, a step of 1, 2 or 5 times a power of ten apart, from
    a tick at or below ``low`` to one at or above ``high``: the ends of a value axis.

    >>> nice_ticks(0, 12), nice_ticks(0, 5), nice_ticks(-9, 6), nice_ticks(0, 0), nice_ticks(0, 2985)
    ([0, 5, 10, 15], [0, 1, 2, 3, 4, 5], [-10, -5, 0, 5, 10], [0, 1], [0, 1000, 2000, 3000])
    """
    high = max(high, low + 1)
    for step in _steps():
        first, last = low // step * step, -(-high // step) * step
        if (last - first) // step < most:
            return list(range(first, last + 1, step))
    raise AssertionError("unreachable")  # pragma: no cover


def inner_ticks(low: int, high: int, most: int = MAX_TICKS) -> list[int]:
    """At most ``most`` whole numbers between ``low`` and ``high``, a nice step apart: the ticks of an
    axis of counted things (hands) whose ends are the first and last counted.

    >>> inner_ticks(1, 3), inner_ticks(1, 8), inner_ticks(1, 300), inner_ticks(4, 4)
    ([1, 2, 3], [2, 4, 6, 8], [50, 100, 150, 200, 250, 300], [4])
    """
    for step in _steps():
        first, last = -(-low // step) * step, high // step * step
        if (last - first) // step < most:
            return list(range(first, last + 1, step))
    raise AssertionError("unreachable")  # pragma: no cover


def _number(value: int) -> str:
    """A tick label: thousands grouped, a true minus sign."""
    return f"{MINUS}{-value:,}" if value < 0 else f"{value:,}"


def _at(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def line_chart_svg(points: Sequence[tuple[int, int]], *, x_label: str, y_label: str, description: str) -> str:
    """A line chart of whole-number points in the order of their x, as SVG text made with the standard library.

    It scales to its container's width (up to :data:`CHART_W` pixels), writes its text in the
    page's font, is one image to a screen reader (``role="img"``, named and described by
    ``description``) and has no ids, so any number of charts can share a page. The value axis
    always shows zero; markers are drawn while the points stand apart, and only the last one's
    when they crowd.

    >>> svg = line_chart_svg([(1, 2), (2, 5)], x_label="Hand", y_label="Chips <&>", description="Two hands")
    >>> svg.startswith("<svg") and "Chips &lt;&amp;&gt;" in svg and "<title>Two hands</title>" in svg
    True
    """
    said = escape(description)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="loo-line-chart" viewBox="0 0 {CHART_W} {CHART_H}" '
        f'width="100%" style="display:block;width:100%;max-width:{CHART_W}px;height:auto;font-family:inherit" '
        f'role="img" aria-label="{said}"><title>{said}</title><desc>{said}</desc>'
        f'<rect width="{CHART_W}" height="{CHART_H}" fill="#fff"/>'
    )
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    y_ticks = nice_ticks(min(0, *ys) if ys else 0, max(0, *ys) if ys else 0)
    x_low, x_high = (min(xs), max(xs)) if xs else (0, 0)
    x_ticks = inner_ticks(x_low, x_high) if xs else []
    y_names = [_number(v) for v in y_ticks]
    # The plot's box: room on the left for the widest tick label, above for the value axis's title.
    left = 14 + 8 * max(len(name) for name in y_names)
    right, top, bottom = CHART_W - 12, 34, CHART_H - 46
    pad = 10  # the first and last markers stand clear of the box's sides
    y_low, y_high = y_ticks[0], y_ticks[-1]

    def px(x: float) -> float:
        if x_high == x_low:
            return (left + right) / 2
        return left + pad + (x - x_low) * (right - left - 2 * pad) / (x_high - x_low)

    def py(y: float) -> float:
        return bottom - (y - y_low) * (bottom - top) / (y_high - y_low)

    parts = [head]
    # Horizontal grid lines at the value ticks but zero, where the darker axis line goes.
    grid = "".join(f'<line x1="{left}" x2="{right}" y1="{_at(py(v))}" y2="{_at(py(v))}"/>' for v in y_ticks if v != 0)
    parts.append(f'<g stroke="{GRID_INK}" stroke-width="1" shape-rendering="crispEdges">{grid}</g>')
    labels = "".join(
        f'<text x="{left - 8}" y="{_at(py(v))}" dy="0.35em">{escape(name)}</text>'
        for v, name in zip(y_ticks, y_names, strict=True)
    )
    parts.append(
        f'<g class="loo-chart-y" font-size="13" fill="{LABEL_INK}" text-anchor="end" '
        f'style="font-variant-numeric:tabular-nums">{labels}</g>'
    )
    zero = _at(py(0))
    marks = "".join(f'<line x1="{_at(px(x))}" x2="{_at(px(x))}" y1="{bottom}" y2="{bottom + 5}"/>' for x in x_ticks)
    parts.append(
        f'<g stroke="{AXIS_INK}" stroke-width="1" shape-rendering="crispEdges">'
        f'<line x1="{left}" x2="{right}" y1="{zero}" y2="{zero}"/>{marks}</g>'
    )
    x_names = "".join(f'<text x="{_at(px(x))}" y="{bottom + 19}">{escape(_number(x))}</text>' for x in x_ticks)
    parts.append(
        f'<g class="loo-chart-x" font-size="13" fill="{LABEL_INK}" text-anchor="middle" '
        f'style="font-variant-numeric:tabular-nums">{x_names}</g>'
    )
    parts.append(
        f'<g font-size="13.5" fill="{TITLE_INK}">'
        f'<text x="6" y="{top - 16}" text-anchor="start">{escape(y_label)}</text>'
        f'<text x="{_at((left + right) / 2)}" y="{CHART_H - 8}" text-anchor="middle">{escape(x_label)}</text></g>'
    )
    if points:
        at = [(_at(px(x)), _at(py(y))) for x, y in points]
        line = " ".join(f"{x},{y}" for x, y in at)
        gap = (right - left - 2 * pad) / (len(points) - 1) if len(points) > 1 else float(CHART_W)
        if len(points) > 1:
            area = f"{at[0][0]},{zero} {line} {at[-1][0]},{zero}"
            parts.append(f'<polygon points="{area}" fill="{INK}" fill-opacity="0.08"/>')
            width = 2 if gap >= 4 else 1.25
            parts.append(
                f'<polyline points="{line}" fill="none" stroke="{INK}" stroke-width="{width}" '
                'stroke-linejoin="round" stroke-linecap="round"/>'
            )
        # A marker on every point while they stand apart; when they crowd, on the last alone.
        shown = range(len(points)) if gap >= 4 else [len(points) - 1]
        radius = 3.5 if gap >= 9 else 2.5
        dots = "".join(
            f'<circle cx="{at[i][0]}" cy="{at[i][1]}" r="{radius}">'
            f"<title>{escape(x_label)} {points[i][0]}: {escape(_number(points[i][1]))}</title></circle>"
            for i in shown
        )
        parts.append(f'<g class="loo-chart-marks" fill="{INK}" stroke="#fff" stroke-width="1.5">{dots}</g>')
    parts.append("</svg>")
    return "".join(parts)


class LedgerView(ipw.VBox):  # type: ignore[misc]
    """The game's ledger and pool chart for one model. Construct it, then display it; it never displays itself."""

    def __init__(self, model: TableModel, *, shown: bool = True) -> None:
        self.model = model
        self._shown = shown  # kept current only while shown (see set_shown)
        self._stale = False
        self._table = lean(ipw.HTML)
        self._chart = lean(ipw.HTML)
        self._note = lean(ipw.HTML)
        self._chart_key: tuple[tuple[int, int], ...] | None = None
        self.chart_draws = 0  # how many times the chart has been drawn (the cache keeps this low)
        self.chart_seconds = 0.0  # how long the last drawing took
        super().__init__(
            [self._table, self._chart, self._note], layout=shared_layout(), _dom_classes=["loo-ledger-view"]
        )
        self._wire()
        self._render()

    # ----- events: wired here and only here --------------------------------------------------

    def _wire(self) -> None:
        self.model.observe(guarded(self._say)(lambda _change: self._render()), names=["version"])

    def _say(self, message: str) -> None:
        self._note.value = f'<div role="status" aria-live="polite">{escape(message)}</div>'

    # ----- rendering -------------------------------------------------------------------------

    def _names(self) -> list[str]:
        balances = self.model.balances()
        return [*balances, *(name for name in self.model.names if name not in balances)]

    def set_shown(self, shown: bool) -> None:
        """Whether the ledger is on the reader's screen: hidden, it is not redrawn until shown again."""
        self._shown = shown
        if shown and self._stale:
            self._render()

    def _render(self) -> None:
        if not self._shown:
            self._stale = True
            return
        self._stale = False
        model = self.model
        lines = model.hand_lines()
        names = self._names()
        hand = model.hand
        in_play = None
        if not hand.is_over:
            in_play = (len(lines) + 1, str(hand.names[hand.dealer]), int(hand.pool))
        scoring = self._scoring()
        if scoring != "chips":  # no chip moves and there is no pool: the scores are the game
            rules = model.rules
            points = rules.game_points if isinstance(rules, TileRules) else 0
            rule = scoring_rule(scoring, points)  # said first, where a phone's reader sees it
            table = scores_table(lines, names, scoring, points)
            self._table.value = (
                _STYLE + f'<p class="loo-scores-rule"><b>{escape(rule[:1].upper() + rule[1:])}.</b></p>'
                f'<div class="loo-ledger-scroll">{table}</div>'
            )
            self._chart_key, self._chart.value = None, ""
            self._say("This game is scored in points, not chips: no chip changes hands, and there is no pool.")
            return
        table = ledger_table(lines, model.balances(), model.pool, names, in_play)
        # A wide table scrolls sideways in its own box on a phone instead of squeezing its rows tall.
        self._table.value = _STYLE + f'<div class="loo-ledger-scroll">{table}</div>'
        self._render_chart(lines)
        self._say("")

    def _render_chart(self, lines: Sequence[HandLine]) -> None:
        key = tuple((line.number, line.pool_after) for line in lines)
        if key == self._chart_key:
            return  # the finished hands are the same: keep the drawing
        self._chart_key = key
        if not key:
            self._chart.value = f"<p>{NO_HAND}</p>"
            return
        started = time.perf_counter()
        svg = pool_chart_svg(key)
        self.chart_seconds = time.perf_counter() - started
        self.chart_draws += 1
        self._chart.value = (
            f'<figure class="loo-pool-chart">{svg}'
            "<figcaption>The pool after each hand: the chips carried to the next deal.</figcaption></figure>"
        )

    def _scoring(self) -> str:
        """``"chips"``, or how a domino game scored in points counts them (``"points"``, ``"rounce"``)."""
        rules, game = self.model.rules, self.model.table_game
        if not isinstance(rules, TileRules) or not isinstance(game, PointsGame):
            return "chips"
        return str(rules.domino_scoring)
