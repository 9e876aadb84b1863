"""The game's chips hand by hand: a ledger table and a small chart of the pool.

:class:`LedgerView` observes a :class:`widgets.model.TableModel` and shows, for every finished
hand, the dealer, the pool played for, what each player won (+) or paid (-), the loos paid into
the pool and what the pool carried to the next hand, with each player's running balance and a
total row. The stakes already paid for a hand still in play get a row of their own, so the
totals are the model's own ``balances()`` and ``pool`` and show that no chip is lost: the
balances and the pool add up to zero.

Chips are public at the table, so nothing here reveals a hidden card.

The chart is drawn by matplotlib straight to SVG text (a :class:`~matplotlib.figure.Figure`
with the SVG canvas; pyplot is never imported) and only when the finished hands change:
drawing takes tens of milliseconds, and the model's version changes on every card played.

>>> lines = [(1, 3), (2, 12), (3, 6)]
>>> svg = pool_chart_svg(lines)
>>> svg.startswith("<svg") and 'role="img"' in svg and svg == pool_chart_svg(lines)
True
"""

from __future__ import annotations

import hashlib
import io
import re
import time
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets as ipw
import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from widgets.model import HandLine, TableModel
from widgets.safety import guarded
from widgets.shared import lean, shared_layout

MINUS = "\u2212"  # a true minus sign: read as "minus", and as wide as a plus
NO_HAND = "No hand finished yet."

_STYLE = """<style>
.loo-ledger-scroll{overflow-x:auto;max-width:100%}
.loo-ledger th,.loo-ledger td{white-space:nowrap}
.loo-ledger caption{white-space:normal}
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


def signed(amount: int) -> str:
    """A chip amount with its sign: won ``+3``, paid ``−3`` (a minus sign), even ``0``.

    >>> signed(3), signed(-3), signed(0)
    ('+3', '−3', '0')
    """
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"{MINUS}{-amount}"
    return "0"


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
            + "<td></td><td></td>"
            + "".join(f"<td>{signed(balances.get(name, 0))}</td>" for name in names)
            + "</tr>"
        )
    loos = sum(sum(line.loos.values()) for line in lines)
    held = sum(balances.get(name, 0) for name in names)
    total = (
        "<tr>"
        '<th scope="row">Total</th><td></td><td></td>'
        + "".join(f"<td>{signed(balances.get(name, 0))}</td>" for name in names)
        + f"<td>{loos}</td><td>{pool}</td>"
        + "".join(f"<td>{signed(balances.get(name, 0))}</td>" for name in names)
        + "</tr>"
    )
    check = (
        f'<tr class="loo-ledger-check"><td colspan="{5 + 2 * n}" style="text-align:left">'
        f"The players' balances add up to {signed(held)} and the pool holds {pool}: "
        f"together {signed(held + pool)}, so every chip is accounted for.</td></tr>"
        if held + pool == 0
        else f'<tr class="loo-ledger-check"><td colspan="{5 + 2 * n}" style="text-align:left">'
        f"The balances ({signed(held)}) and the pool ({pool}) do not add up to zero.</td></tr>"
    )
    return (
        '<table class="loo-ledger">'
        "<caption>Chips hand by hand: each player's net for the hand (won +, paid "
        f"{MINUS}), the loos paid into the pool, what the pool carried over, and the running balances"
        "</caption>"
        "<thead><tr>"
        '<th scope="col" rowspan="2">Hand</th>'
        '<th scope="col" rowspan="2">Dealer</th>'
        '<th scope="col" rowspan="2">Pool played for</th>'
        f'<th scope="colgroup" colspan="{n}">Net this hand</th>'
        '<th scope="col" rowspan="2">Loos paid in</th>'
        '<th scope="col" rowspan="2">Carried over</th>'
        f'<th scope="colgroup" colspan="{n}">Balance after the hand</th>'
        f"</tr><tr>{heads}{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody>"
        f"<tfoot>{total}{check}</tfoot>"
        "</table>"
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
    """
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

    The same points give the same text: no date is written and the ids come from the points.
    """
    description = pool_description(points)
    figure = Figure(figsize=(4.0, 2.0))
    FigureCanvasSVG(figure)  # the figure's own canvas: no pyplot, no global figure manager
    axes = figure.add_subplot()
    hands = [n for n, _ in points]
    pools = [p for _, p in points]
    axes.plot(hands, pools, marker="o", markersize=4, linewidth=1.5, color="#1f5f8b", clip_on=False)
    axes.set_xlabel("Hand")
    axes.set_ylabel("Chips in the pool")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
    axes.set_ylim(bottom=0, top=max(1, *pools) * 1.1)
    if len(points) == 1:
        axes.set_xlim(hands[0] - 1, hands[0] + 1)
    axes.spines[["top", "right"]].set_visible(False)
    figure.subplots_adjust(left=0.17, right=0.97, top=0.95, bottom=0.24)
    salt = hashlib.sha256(repr(list(points)).encode()).hexdigest()[:8]
    out = io.StringIO()
    settings = {"svg.hashsalt": f"lanterloo-{salt}", "svg.fonttype": "none", "font.sans-serif": ["DejaVu Sans"]}
    with matplotlib.rc_context(settings):
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    return _accessible(_slim(out.getvalue()), description)


def _slim(svg: str) -> str:
    """Strip what a browser does not need: the XML prolog, layout ids, long decimals and whitespace."""
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r'<g id="[^"]*">', "<g>", svg)  # matplotlib's group ids repeat in every chart on a page
    svg = re.sub(r"(\d+\.\d\d)\d+", r"\1", svg)
    svg = re.sub(r">\s+<", "><", svg)
    svg = re.sub(r"\s*\n\s*", " ", svg)
    return svg.strip()


def _accessible(svg: str, description: str) -> str:
    text = escape(description)
    opening = re.match(r"<svg\b[^>]*>", svg)
    assert opening is not None
    head = opening.group(0)[:-1] + f' role="img" aria-label="{text}">'
    return f"{head}<title>{text}</title>{svg[opening.end() :]}"


class LedgerView(ipw.VBox):
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
            seat_names = getattr(hand, "names", None) or model.names
            in_play = (len(lines) + 1, str(seat_names[hand.dealer]), int(getattr(hand, "pool", model.pool)))
        table = ledger_table(lines, model.balances(), model.pool, names, in_play)
        # A wide table scrolls sideways in its own box on a phone instead of squeezing its rows tall.
        self._table.value = _STYLE + f'<div class="loo-ledger-scroll">{table}</div>'
        self._render_chart(lines)
        self._say(self._points_note())

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

    def _points_note(self) -> str:
        """Domino games scored in points keep their scores apart from chips: say so, with the scores."""
        scoring = getattr(self.model.rules, "domino_scoring", None)
        if scoring is None or str(scoring) == "chips":
            return ""
        scores: Any = getattr(self.model.table_game, "scores", None) or {}
        said = ", ".join(f"{name} {score}" for name, score in scores.items())
        return f"This game is scored in points, not chips; the scores now: {said}."
