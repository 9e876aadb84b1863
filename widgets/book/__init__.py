"""What the book's pages use: seeded example hands, and the offer of a live table.

Every example in the book is made here from fixed seeds, so a page shows the same hand on every
build and a reader can deal it again with the same numbers:

- :func:`play_hand` deals a hand from a seed and lets seeded computer players finish it, after
  any actions the page prescribes (to show a law at work: a declaration, a card, a call);
- :func:`example_hand` wraps that hand in the step-through viewer, which works in the static book;
- the "What would you do?" questions are in :mod:`widgets.book.quiz` (judging a position) and
  :mod:`widgets.book.questions` (the book's questions);
- :func:`live_table_offer` puts a box on the page that, when the page is served by
  ``make serve``, links to the live table for the game and can open it inside the page; anywhere
  else (a static copy, a file on disk) it says plainly how to start the server.

>>> hand = play_hand("three-card-loo", "britannica", seed=3)
>>> hand.is_over
True
>>> steps_of(play_hand("three-card-loo", "britannica", seed=3)) == steps_of(hand)
True
>>> steps_of(hand)[0]
{'seat': 0, 'declare': 'stand'}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from loo import registry
from loo.core.actions import Action, IllegalActionError
from loo.core.protocols import Hand
from loo.core.rules import RecordError
from loo.kits import kit
from loo.options import GAME_NAMES
from loo.records import record_type
from loo.registry import spec
from widgets.views.step_viewer import StepViewer

if TYPE_CHECKING:
    from IPython.display import HTML

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Guy", "Hal")
"""The players' names in the book's examples, seat 0 first (seat 0 is the eldest hand when the
last seat deals)."""

TABLES = registry.NAMES  # every game has a live table (book/tables/<game>.ipynb)
"""Games with a live table of their own (book/tables/<game>.ipynb)."""


class ExampleError(ValueError):
    """A prescribed action the laws refuse, or a hand that stops before it is over; names which."""


def _rules(game: str, preset: str | None, options: Mapping[str, Any] | None) -> Any:
    the_kit = kit(game)
    if not options:
        return the_kit.read_rules(game, preset)
    value: dict[str, Any] = {"preset": preset} if preset else {}
    value.update({k.replace("_", "-"): v for k, v in options.items()})
    return the_kit.read_rules(game, value)


def play_hand(
    game: str,
    preset: str | None = None,
    *,
    seed: int,
    seats: int = 5,
    dealer: int | None = None,
    pool: int | None = None,
    options: Mapping[str, Any] | None = None,
    actions: Sequence[Mapping[str, Any]] = (),
    bot: str = "thumb",
    bot_seed: int = 0,
    names: Sequence[str] | None = None,
    finish: bool = True,
) -> Hand:
    """A hand of ``game`` dealt from ``seed``: ``actions`` first, then seeded computer players to the end.

    ``preset`` names the source's rules (``None``: the game's default) and ``options`` overrides
    single options by key (``{"club-law": True}``). ``dealer`` defaults to the last seat, so seat 0
    is the eldest hand; ``pool`` defaults to one deal's stakes for the game. ``actions`` are written
    as in a record (``{"seat": 2, "declare": "miss"}``, ``{"seat": 0, "play": "AS"}``); the
    players are the engine's
    ``bot`` (``thumb`` plays by the old authors' rules of thumb) with choices drawn from
    ``bot_seed``. ``finish=False`` stops after ``actions``.
    """
    the_kit = kit(game)
    rules = _rules(game, preset, options)
    dealer = seats - 1 if dealer is None else dealer
    stake = the_kit.pool(rules, seats) if pool is None else pool
    who = tuple(names) if names is not None else NAMES[:seats]
    if len(who) != seats:
        raise ExampleError(f"names: {len(who)} names for {seats} seats")
    hand = the_kit.deal(rules, random.Random(seed), seats, dealer, stake, names=list(who))
    piece = spec(game).parse_piece
    for i, obj in enumerate(actions):
        try:
            hand.push(Action.from_record(dict(obj), where=f"actions[{i}]", seats=seats, piece=piece))
        except (RecordError, IllegalActionError) as error:  # the engine's own message names the law
            raise ExampleError(f"actions[{i}] {dict(obj)!r}: {error}") from error
    if finish:
        players = [the_kit.make_bot(bot) for _ in range(seats)]
        choices = random.Random(bot_seed)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None  # a hand in play always has a seat to act
            hand.push(players[seat].choose(hand.view(seat), choices))
    return hand


def example_hand(
    game: str,
    preset: str | None = None,
    *,
    seed: int,
    commentary: Mapping[int, str] | None = None,
    title: str | None = None,
    seat: int | None = None,
    **deal: Any,
) -> StepViewer:
    """:func:`play_hand`'s hand in the step-through viewer, every hand face up unless ``seat`` is given.

    ``commentary`` maps step numbers (0: the deal; *k*: after the *k*-th action) to a note shown
    in that step. The other keywords go to :func:`play_hand`.
    """
    hand = play_hand(game, preset, seed=seed, **deal)
    return StepViewer(record_of(hand), commentary=commentary, seat=seat, title=title)


def record_of(hand: Hand) -> dict[str, Any]:
    """The ``loo-record/1`` record of ``hand`` (of any game), as JSON data."""
    return dict(record_type(str(hand.rules.game)).of_hand(hand).to_json())


def steps_of(hand: Hand) -> list[dict[str, Any]]:
    """The actions of ``hand`` as a record writes them; the viewer's step *k* follows item *k - 1*.

    A page finds the step a note belongs to with
    ``steps_of(hand).index({"seat": 2, "declare": "miss"}) + 1``.
    """
    return [a.to_record() for a in hand.actions]


_OFFER_SCRIPT = """<script>
(function () {
  var box = document.currentScript.previousElementSibling;
  if (!box || box.getAttribute("data-loo-offer-ready")) return;
  box.setAttribute("data-loo-offer-ready", "1");
  var table = box.getAttribute("data-loo-table");
  var button = box.querySelector("[data-loo-play-here]");
  var other = box.querySelector("[data-loo-play-browser]");
  var otherLine = box.querySelector("[data-loo-offer-alt]");
  var fresh = box.querySelector("[data-loo-new-table]");
  var link = box.querySelector("[data-loo-open-link]");
  var browserNote = box.querySelector("[data-loo-note-browser]");
  var serverNote = box.querySelector("[data-loo-note-server]");
  var off = box.querySelector("[data-loo-offer-off]");
  var frame = box.querySelector("[data-loo-frame-slot]");
  // The play pages sit at the site's root, beside book/: Sphinx names the root of every page.
  var root = document.documentElement.getAttribute("data-content_root") || "../";
  // The server's tables sit beside book/ too, under the server's base URL if it has one.
  var tablesAt = new URL(root + "tables/", location.href).pathname;
  var deal = new URLSearchParams(location.search).get("deal");
  var playPage = root + "play/" + table + ".html" + (deal ? "?deal=" + encodeURIComponent(deal) : "");
  // Where "Play here" opens the table: "browser" (the page's own Python: any static host) until the
  // Lanterloo server says it serves this game's table, then "server" (which hides the other hands).
  var home = "browser";
  var key = "lanterloo-table:" + table;
  function saved() {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  // The in-browser table's page, started out of sight before the click (warmUp, below), or null.
  var warm = null;
  function shown() {
    var f = frame.firstChild;
    if (!f || f === warm) return null;
    return f.getAttribute("data-loo-in-browser") ? "browser" : "server";
  }
  function draw() {
    var now = shown(), address = saved();
    var server = home === "server";
    // One button opens the table of this host's home and closes whichever table is open.
    button.textContent = now ? "Close the table" : (server && address ? "Back to your game" : "Play here");
    button.setAttribute("aria-expanded", now ? "true" : "false");
    other.setAttribute("aria-expanded", now === "browser" ? "true" : "false");
    otherLine.hidden = !server || !!now;
    fresh.hidden = !(server && address) || now === "browser";
    browserNote.hidden = server && now !== "browser";
    serverNote.hidden = !server || now === "browser";
    off.hidden = server;
    link.href = server && now !== "browser" ? (address || tablesAt + table) : playPage;
  }
  function remember(address) {
    try {
      if (address) { localStorage.setItem(key, address); } else { localStorage.removeItem(key); }
    } catch (e) { /* storage blocked: the table still works, it is just not remembered */ }
    draw();
  }
  function tableFrame(where, address) {
    var inBrowser = where === "browser";
    var f = document.createElement("iframe");
    f.src = inBrowser ? playPage : (address || tablesAt + table);
    f.title = box.getAttribute("data-loo-title") + (inBrowser ? ", in your browser" : "");
    if (inBrowser) f.setAttribute("data-loo-in-browser", "1");
    f.className = "loo-offer-frame";
    f.addEventListener("load", function () {
      if (inBrowser) return;  // the play page keeps its own game, in this browser's storage
      try {
        var at = f.contentWindow.location;
        if (/[?&]table=/.test(at.search)) remember(at.pathname + at.search);
      } catch (e) { /* not our origin: nothing to remember */ }
    });
    return f;
  }
  function open(where, address) {
    var f;
    if (warm && where === "browser") {
      // Started when the pointer or the focus came: shown as it stands, ready or nearly.
      f = warm;
      warm = null;
      f.classList.remove("loo-offer-warming");
      f.removeAttribute("inert");
      f.removeAttribute("aria-hidden");
      f.removeAttribute("tabindex");
    } else {
      if (warm) { frame.removeChild(warm); warm = null; }
      f = tableFrame(where, address);
      frame.appendChild(f);
    }
    draw();
    // The table opens where the reader clicked: bring the whole frame into view, with the button that
    // closes it, if it is not (the row's scroll-margin clears the book's sticky header).
    var r = f.getBoundingClientRect();
    if (r.bottom > window.innerHeight || r.top < 0) {
      box.querySelector("[data-loo-offer-buttons]").scrollIntoView({block: "start"});
    }
    f.focus();
  }
  function close(then) {
    // Unload the table's page before removing it, so that its page tells the server to shut its
    // kernel down at once (a frame just removed from the page never says goodbye).
    var f = frame.firstChild;
    if (!f) { then(); return; }
    var done = false;
    function finish() {
      if (done) return;
      done = true;
      frame.textContent = "";
      warm = null;
      draw();
      then();
    }
    f.addEventListener("load", finish);
    setTimeout(finish, 1500);
    f.src = "about:blank";
  }
  // Whether this host is the Lanterloo server is asked as the page loads (below); a reader who
  // presses "Play here" before the answer comes waits for it (ASK_WAIT_MS at most), rather than
  // getting the in-browser table on a busy server that would have kept the other hands hidden.
  var ASK_WAIT_MS = 5000;
  var asked = null;
  var waiting = false;
  button.addEventListener("click", function () {
    if (shown()) { close(function () {}); return; }
    if (waiting) return;
    if (!asked) { open(home, home === "server" ? saved() : null); return; }
    waiting = true;
    button.setAttribute("aria-busy", "true");
    button.textContent = "Opening…";
    var late = new Promise(function (done) { setTimeout(done, ASK_WAIT_MS); });
    Promise.race([asked, late]).then(function () {
      waiting = false;
      button.removeAttribute("aria-busy");
      if (!shown()) open(home, home === "server" ? saved() : null);
    });
  });
  other.addEventListener("click", function () { if (!shown()) open("browser", null); });
  // Python's start in the reader's browser takes seconds: it begins when the reader's pointer or
  // focus reaches a button that opens the in-browser table, in a frame laid out at the table's size
  // and out of sight, so that the click finds it ready or on its way. Not for the server's table
  // (the server keeps its own kernels ready), nor where the browser asks to save data.
  function warmUp(inBrowserAnyway) {
    if (warm || shown() || waiting) return;
    if (asked) { asked.then(function () { warmUp(inBrowserAnyway); }); return; }
    if (home !== "browser" && !inBrowserAnyway) return;
    if (navigator.connection && navigator.connection.saveData) return;
    warm = tableFrame("browser", null);
    warm.classList.add("loo-offer-warming");
    warm.setAttribute("inert", "");  // nor its frame's content: no focus, no click, nothing read aloud
    warm.setAttribute("aria-hidden", "true");
    warm.setAttribute("tabindex", "-1");
    frame.appendChild(warm);
  }
  ["pointerenter", "focus", "touchstart"].forEach(function (kind) {
    button.addEventListener(kind, function () { warmUp(false); }, {passive: true});
    other.addEventListener(kind, function () { warmUp(true); }, {passive: true});
  });
  fresh.addEventListener("click", function () {
    close(function () { remember(null); open("server", null); });
  });
  draw();
  // The Lanterloo server marks every page it serves with the tables it offers; a static host
  // answers this same request (for the page itself, so never a 404) without the mark. A page
  // opened as a file asks nothing: its in-browser table says how to serve the folder.
  if (location.protocol === "http:" || location.protocol === "https:") {
    asked = fetch(location.pathname, {method: "HEAD", cache: "no-store"})
      .then(function (r) {
        var tables = (r.headers.get("X-Lanterloo-Tables") || "").split(",");
        if (tables.indexOf(table) < 0 || shown()) return;
        home = "server";
        draw();
      })
      .catch(function () {})
      .then(function () { asked = null; });
  }
})();
</script>"""

_OFFER_STYLE = """<style>
.loo-offer{border:1px solid #b9c3cf;border-left:5px solid #2f6f4f;border-radius:6px;padding:.6em 1em;margin:1em 0;
background:rgba(47,111,79,.06)}
.loo-offer p{margin:.3em 0}
.loo-offer button{font:inherit;padding:.3em .8em;border-radius:4px;border:1px solid #2f6f4f;background:#2f6f4f;
color:#fff;cursor:pointer;margin-right:.6em}
.loo-offer button[data-loo-play-here]{font-weight:600;padding:.45em 1.2em}
.loo-offer button[data-loo-new-table]{background:#fff;color:#2f6f4f}
.loo-offer button.loo-offer-textual{background:none;border:none;padding:0;margin:0;color:#1d5a3c;
text-decoration:underline}
.loo-offer .loo-offer-note{font-size:.9em;color:#4a4a4a}
.loo-offer details summary{cursor:pointer;color:#1d5a3c}
.loo-offer button:focus-visible,.loo-offer a:focus-visible,.loo-offer summary:focus-visible{outline:3px solid #e0a000;
outline-offset:2px}
.loo-offer [data-loo-offer-buttons]{scroll-margin-top:4.5rem}
.loo-offer-frame{display:block;width:100%;height:calc(100vh - 9.5rem);min-height:480px;max-height:900px;
border:1px solid #b9c3cf;border-radius:4px;margin-top:.6em;background:#fff}
.loo-offer [data-loo-frame-slot]{position:relative}
.loo-offer-frame.loo-offer-warming{position:absolute;top:0;left:0;visibility:hidden;pointer-events:none}
</style>"""


def live_table_offer(game: str, *, what: str | None = None) -> HTML:
    """A box offering the live table for ``game`` (one of :data:`TABLES`), played inside the page.

    Its one *Play here* button opens the table right under it. On any static host that is the table
    that runs in the reader's own browser (``play/<game>.html``), and the box says plainly that such
    a table cannot hide the other hands. Served by ``make serve``, the page finds the tables the
    server offers in a header of its own address (``X-Lanterloo-Tables``, same origin); if its
    game's is there, *Play here* opens the server's table, which keeps the other hands hidden, and
    the in-browser one is offered as a plain-text alternative. The box remembers the reader's server
    table in this browser (``localStorage``), so that closing the table or leaving the page and
    coming back reopens their game, until they ask for a new table; closing the table unloads its
    page first, so that the page shuts its kernel down at once. A page offers a game's table once at
    most (the box's id is ``live-<game>``, and the index of laws links to it).
    """
    from IPython.display import HTML

    if game not in TABLES:
        raise ValueError(f"no live table for {game!r}; the tables are {', '.join(TABLES)}")
    name = GAME_NAMES[game]
    title = f"Live table: {name}"
    hint = f" {escape(what)}" if what else ""
    html = (
        _OFFER_STYLE + f'<div class="loo-offer" id="live-{game}" role="region" aria-label="{escape(title)}"'
        f' data-loo-table="{game}"'
        f' data-loo-title="{escape(title)}">'
        f"<p><strong>{escape(title)}.</strong> Play whole games of {escape(name)} against the computer players, "
        f"with the pool carried from hand to hand.{hint}</p>"
        '<p class="loo-offer-note" data-loo-note-browser>This table runs in your own browser, with nothing to '
        "install. The whole deal is then in your computer, so it cannot hide the other hands from a curious "
        "reader.</p>"
        '<p class="loo-offer-note" data-loo-note-server hidden>This table runs on the Lanterloo server, which '
        "keeps the other hands hidden.</p>"
        '<details class="loo-offer-note" data-loo-offer-off><summary>Tables that keep the other hands '
        "hidden</summary><p>Those run on the Lanterloo server, on your own machine. In the project's folder, "
        "run <code>make serve</code>, then open this page from <code>http://127.0.0.1:8000/</code>: "
        "<em>Play here</em> then opens the server's table.</p></details>"
        "<p data-loo-offer-buttons>"
        '<button type="button" data-loo-play-here aria-expanded="false">Play here</button>'
        '<button type="button" data-loo-new-table hidden>Start a new table</button>'
        f'<a href="../play/{game}.html" target="_blank" rel="noopener" data-loo-open-link>'
        "Open it on a page of its own</a></p>"
        '<p class="loo-offer-note" data-loo-offer-alt hidden>Or '
        '<button type="button" class="loo-offer-textual" data-loo-play-browser aria-expanded="false">'
        "play it in your browser instead</button>, with no server at all.</p>"
        "<div data-loo-frame-slot></div>"
        "</div>" + _OFFER_SCRIPT
    )
    return HTML(html)
