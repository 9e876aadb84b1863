"""The game in a minute: each game's rules in brief, for a newcomer, written once and shown everywhere.

Three lines a game (:data:`MINUTES`), each short enough to sit on one line beside a table page's
heading: how you win chips or points, what you decide, and the duty that binds you in play. No law
ID stands in them: the laws they rest on are one click away, under "The laws behind this", each a
reference that opens on a tap (:mod:`widgets.draw.law_refs`), with a link to the book's index of laws.

Shown on every table page: the server's (each table notebook, ``book/tables/<game>.ipynb``,
displays :func:`minute_html` in a cell tagged ``loo-minute``, which the lanterloo Voila template
puts beside the heading on a wide window and above the table on a narrow one) and the reader's
browser's (``web/build_inpage.py`` writes it into ``play/<game>.html``). It is open on a first
visit whatever the window's size, and folded on later ones (the page's script remembers it in
``localStorage`` under :data:`MINUTE_KEY` and the game). The Rules tab begins with it too, as the
rules in brief before the options (:func:`rules_in_brief_html`).

>>> sorted(MINUTES) == sorted(["three-card-loo", "five-card-loo", "irish-loo", "nap", "domino-loo", "domino-rounce"])
True
>>> "The game in a minute" in minute_html("nap")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from loo.registry import NAMES, entry
from widgets.draw.law_refs import LAW_STYLE, index_address, law_ref_html

__all__ = ["FOLD_SCRIPT", "MINUTES", "MINUTE_KEY", "MINUTE_STYLE", "Minute", "minute_html", "rules_in_brief_html"]

MINUTE_KEY = "lanterloo-minute-read:"
"""The browser's ``localStorage`` key, followed by the game, marking the game's minute seen once."""

FOLD_SCRIPT = (
    "<script>(function () {"
    'var box = document.querySelector("details[data-loo-minute]"); if (!box) { return; }'
    f'var key = "{MINUTE_KEY}" + box.getAttribute("data-loo-minute"), seen = null;'
    "try { seen = window.localStorage.getItem(key); } catch (e) { seen = null; }"
    "if (seen) { box.open = false; }"
    'try { window.localStorage.setItem(key, "1"); } catch (e) { /* private browsing: shown each time */ }'
    "})();</script>"
)
"""Put just after a static page's minute: folds it, before the page is drawn, if this browser has shown it
before (the server's table pages, whose minute comes with the table, do the same in the lanterloo Voila
template)."""


@dataclass(frozen=True)
class Minute:
    """A game in a minute: three plain sentences, and the laws behind them (by catalogue ID)."""

    game: str
    win: str  # how a player wins chips (or points), and loses them
    decide: str  # what a player decides in a hand
    duty: str  # the duty that binds a player in play
    laws: tuple[str, ...]

    def lines(self) -> tuple[tuple[str, str], ...]:
        """The minute's lines, each with its lead-in."""
        return (("To win", self.win), ("You decide", self.decide), ("In play", self.duty))


MINUTES: dict[str, Minute] = {
    minute.game: minute
    for minute in (
        Minute(
            "three-card-loo",
            "a trick wins a third of the pool; stand, win none, and you pay.",
            "stand, take the spare hand (the miss) instead, or throw up.",
            "follow suit, beating the best card if you can; if void, trump to win.",
            ("L3-DIV-01", "L3-LOO-01", "L3-LOO-02", "L3-DECL-01", "L3-PLAY-02", "L3-PLAY-03", "L3-PLAY-04"),
        ),
        Minute(
            "five-card-loo",
            "a trick takes a fifth of the pool, a flush all; win none and you pay.",
            "play or pass; if you play, change any of your cards.",
            "follow suit if you can; Pam, the knave of clubs, is the top trump.",
            ("L5-STK-02", "L5-PAY-02", "L5-FL-03", "L5-DECL-01", "L5-DECL-02", "L5-PLAY-02", "L5-RANK-01"),
        ),
        Minute(
            "irish-loo",
            "a trick wins a third of the pool; play, win none, and you pay.",
            "play or pass; if you play, change up to three cards.",
            "follow suit, beating the best card if you can; if void, trump to win.",
            ("IRL-01", "IRL-02", "IRL-03", "L3-DIV-01", "L3-LOO-01", "L3-PLAY-02", "L3-PLAY-03"),
        ),
        Minute(
            "nap",
            "bid tricks you'll take alone; make them and all pay you, else you pay.",
            "a bid above the last one, or pass; Nap is a bid of all five.",
            "the bidder's lead sets trumps; follow suit if you can, else anything.",
            ("NAP-CALL-01", "NAP-CALL-02", "NAP-CALL-05", "NAP-SET-03", "NAP-PLAY-01", "NAP-PLAY-02", "NAP-GEN-04"),
        ),
        Minute(
            "domino-loo",
            "a trick wins a fifth of the pool; play, win none, and you pay.",
            "play your tiles, swap for a fresh hand (the miss), or drop out.",
            "follow suit, else trump; trumps are the turn-up's higher number.",
            ("DL-SC-03", "DL-SC-04", "DL-DECL-01", "DL-DECL-02", "DL-DEAL-04", "DL-PLAY-01", "DL-PLAY-02"),
        ),
        Minute(
            "domino-rounce",
            "points: start on 15; a trick takes 1 off, none adds 5; 0 wins.",
            "play your tiles, take a spare hand (a dummy), or drop out.",
            "follow suit if you can, else play any tile: no one has to trump.",
            ("DR-05", "DR-06", "DR-08", "DR-10", "DR-03", "DL-PLAY-01", "DR-04"),
        ),
    )
}
assert tuple(MINUTES) == NAMES, "a minute for every game, in the registry's order"

MINUTE_STYLE = (
    "<style>"
    ".loo-minute{font-family:system-ui,sans-serif;font-size:14px;line-height:1.4;color:#1f1f1f;background:#fffdf6;"
    "border:1px solid #d8cca8;border-left:5px solid #1d5a3c;border-radius:6px;padding:.3em .7em;margin:.2em 0 .5em}"
    ".loo-minute>summary,.loo-minute-laws>summary{cursor:pointer;font-weight:600;color:#1d5a3c}"
    ".loo-minute>summary:focus-visible,.loo-minute-laws>summary:focus-visible{outline:3px solid #e0a000;"
    "outline-offset:2px}"
    # (specific enough to win over JupyterLab's rules for a list in an output)
    "details.loo-minute>ul.loo-minute-lines,section.loo-minute>ul.loo-minute-lines{margin:.2em 0;padding:0;"
    "list-style:none}.loo-minute li{margin:.1em 0}"
    # closed, "The laws behind this" sits on the summary's line, at its right (where there is room); open, under
    "details.loo-minute{position:relative}"
    "@media (min-width:360px){details.loo-minute>.loo-minute-laws:not([open]){position:absolute;top:.3em;right:.7em}}"
    "@media (max-width:600px){.loo-minute{font-size:13px;line-height:1.3;padding:.2em .5em}"
    ".loo-minute-laws>summary{font-size:12px}}"
    ".loo-minute h3{font-size:1em;margin:.2em 0;color:#1d5a3c}"
    ".loo-minute-laws{margin:0}.loo-minute-laws>div{margin:.3em 0;line-height:1.9}"
    ".loo-minute-laws a{color:#1d5a3c}"
    "</style>"
)


def _body(minute: Minute) -> str:
    items = "".join(f"<li><b>{escape(lead)}:</b> {escape(text)}</li>" for lead, text in minute.lines())
    refs = " ".join(law_ref_html(law_id) for law_id in minute.laws)
    index = index_address(minute.laws[0]).partition("#")[0]
    return (
        f'<ul class="loo-minute-lines">{items}</ul>'
        '<details class="loo-minute-laws"><summary>The laws behind this</summary>'
        f'<div>{refs} · <a href="{escape(index)}" target="_top">every law, in the index of laws</a></div></details>'
    )


def minute_html(game: str) -> str:
    """``game`` in a minute, as a box that opens and folds: open as sent; a page's script folds it on later visits."""
    minute = MINUTES[game]
    return (
        MINUTE_STYLE + LAW_STYLE + f'<details class="loo-minute" data-loo-minute="{escape(game)}" open '
        f'aria-label="{escape(entry(game).title)} in a minute">'
        f"<summary>The game in a minute</summary>{_body(minute)}</details>"
    )


def rules_in_brief_html(game: str) -> str:
    """``game``'s minute as the Rules tab begins: the rules in brief, before the options that change them."""
    return (
        MINUTE_STYLE + LAW_STYLE + '<section class="loo-minute loo-rules-brief" aria-label="The rules in brief">'
        f"<h3>{escape(entry(game).title)}: the rules in brief</h3>{_body(MINUTES[game])}</section>"
    )
