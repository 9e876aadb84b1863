"""One small driver for the journey tests, with one implementation per browser engine.

The journeys (``tests/journeys/journeys.py``) drive a page the way a person does, and must run
alike in Chromium (Playwright), Firefox ESR (WebDriver BiDi, spoken here over a websocket) and
WebKitGTK's MiniBrowser (classic W3C WebDriver, HTTP and JSON, through ``WebKitWebDriver`` under
an Xvfb of the test's own). Every engine is Debian's own package: nothing is downloaded.

How to use it: a journey in ``journeys.py`` takes the ``reader`` fixture, a fresh :class:`Page` at
1366x768 in the module's engine (its ``open_page`` fixture makes more, at any size), and is run in
every engine by the ``test_<engine>.py`` files, which import it. A new journey goes in ``journeys.py``
(or a module of its own, imported by those three files the same way)::

    page.goto(site + "/book/index.html")
    link = Target.role("link", "How to use this book", within="nav.bd-docs-nav")  # as a person names it
    page.click(link)                                           # a real pointer click on it
    page.visible(Target.of(".loo-board", frame="#live-three-card-loo iframe"), in_view=True)
    page.press("ArrowRight")
    page.shot("first-hand-1366")                               # test-results/<engine>-first-hand-1366.png
    assert page.errors() == []                                 # console.error and uncaught errors

What a page can do (the same in every engine):

- :meth:`Page.goto`, :meth:`Page.reload` (both wait for the load event), :meth:`Page.url`.
- :class:`Target` names what to find: a CSS selector, or a role (``button``, ``link``, ``tab``,
  ``heading``, ``textbox``) with its name (exact, or ``match="start"`` / ``"contains"``), inside an
  element (``within``) and inside a same-origin iframe (``frame``, a CSS selector in the top page).
  Of several matches the first visible one is taken (a page may hold hidden copies).
- :meth:`Page.find` reads a target once: how many match, how many are visible, the taken one's
  box in the top page's viewport (an iframe's offset added), whether it is in view, its text.
- :meth:`Page.visible` waits until the target is visible: a non-empty box, no hidden ancestor
  (``checkVisibility``), its frame visible too; with ``in_view=True`` also inside the viewport.
  It returns what :meth:`Page.find` read. :meth:`Page.gone` waits until nothing visible matches.
- :meth:`Page.click` waits until the target is visible, scrolls it into view if it is not (as a
  person scrolls), checks that the point at its centre hits it (nothing covers it) and clicks
  there with the engine's real pointer: Playwright's mouse, BiDi's ``input.performActions``, or
  WebDriver's element click (which does the same checks itself). Never a script's ``.click()``.
- :meth:`Page.type` clicks a field and types into it key by key, at a person's pace; :meth:`Page.press` presses one
  key (``Enter``, ``ArrowLeft``, ``Home``, ``End``, ``Tab`` or one character) where focus is.
- :meth:`Page.evaluate` runs ``(arg, doc, win) => ...`` in the page (or in ``frame``'s document)
  and returns its JSON result; :meth:`Page.wait_for` polls such a function until it is truthy.
- :meth:`Page.viewport` sets the viewport's size (the journeys use 1366x768, 1920x1080, 390x844).
- :meth:`Page.shot` writes a PNG of the viewport to ``test-results/``.
- :meth:`Page.errors` returns the page's errors so far: ``console.error`` calls and uncaught
  errors and rejections, in the page and its frames. Chromium and Firefox report them from the
  engine. WebKit's driver cannot read the console, so a hook is put into the page and each of its
  same-origin frames before every call the driver makes: an error thrown before the first call after
  a navigation is missed there.

:class:`Browser` is one running browser (one per engine per test process); its ``page()`` gives
a fresh page with its own storage (a Playwright context, a BiDi user context; WebKit has one
session, so its page clears the storage of the origins it visited when it closes).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

SHOTS = Path(__file__).resolve().parents[2] / "test-results"
WAIT = 30.0  # seconds, unless a call says otherwise
ROLES = {
    "button": "button, [role=button], input[type=button], input[type=submit]",
    "link": "a[href], [role=link]",
    "tab": "[role=tab]",
    "heading": "h1, h2, h3, h4, h5, h6, [role=heading]",
    "textbox": "input:not([type]), input[type=text], textarea, [role=textbox]",
}
# WebDriver's code points for the keys the journeys press (BiDi and classic WebDriver alike).
KEYS = {"Enter": "\ue007", "Tab": "\ue004", "Escape": "\ue00c", "End": "\ue010", "Home": "\ue011"}
KEYS |= {"ArrowLeft": "\ue012", "ArrowUp": "\ue013", "ArrowRight": "\ue014", "ArrowDown": "\ue015"}


@dataclass(frozen=True)
class Target:
    """What to find: ``css``, narrowed by ``name`` (the accessible name: aria-label, else the text),
    inside ``within`` (CSS) and inside the iframe ``frame`` (CSS, in the top page)."""

    css: str
    name: str | None = None
    match: str = "exact"  # or "start", "contains"
    within: str | None = None
    frame: str | None = None

    @classmethod
    def role(cls, role: str, name: str | None = None, **more: Any) -> Target:
        return cls(ROLES[role], name, **more)

    @classmethod
    def of(cls, css: str, **more: Any) -> Target:
        return cls(css, **more)

    def inside(self, frame: str) -> Target:
        return replace(self, frame=frame)

    def spec(self) -> dict[str, Any]:
        return {"css": self.css, "name": self.name, "match": self.match, "within": self.within, "frame": self.frame}


@dataclass
class Found:
    """A target as read once: ``count`` matches, ``shown`` of them visible; of the one taken, its box
    (x, y, width, height in the top viewport), whether it is visible, in view and hit at its centre."""

    count: int
    shown: int
    box: dict[str, float] = field(default_factory=dict)
    visible: bool = False
    in_view: bool = False
    hit: bool = False
    text: str = ""
    disabled: bool = False
    why: str = ""

    @property
    def centre(self) -> tuple[float, float]:
        return self.box["x"] + self.box["width"] / 2, self.box["y"] + self.box["height"] / 2


# The page side: where the document is (top or a frame), how a target is found and read.
_DOC = r"""
const __frameOf = (css) => {
  const all = [...document.querySelectorAll(css)];
  const seen = all.filter(f => { const r = f.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (!f.checkVisibility || f.checkVisibility()); });
  return seen[0] || all[0] || null;
};
const __docOf = (css) => {
  if (!css) return [document, window, null];
  const f = __frameOf(css);
  if (!f) return [null, null, 'no frame matches ' + css];
  let d = null;
  try { d = f.contentDocument; } catch (e) { return [null, null, 'the frame is not of this origin']; }
  if (!d || !d.documentElement) return [null, null, 'the frame has no document yet'];
  return [d, f.contentWindow, f];
};
"""
_SELECT = r"""
const __select = (spec, doc, frameShown) => {
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const nameOf = (el) => clean(el.getAttribute('aria-label') || el.innerText || el.textContent || el.value
    || el.getAttribute('title'));
  const scope = spec.within ? [...doc.querySelectorAll(spec.within)] : [doc];
  let all = scope.flatMap(s => [...s.querySelectorAll(spec.css)]);
  if (spec.name !== null) {
    all = all.filter(el => { const n = nameOf(el);
      return spec.match === 'exact' ? n === spec.name : spec.match === 'start' ? n.startsWith(spec.name)
        : n.includes(spec.name); });
  }
  const shows = (el) => { const r = el.getBoundingClientRect();
    return frameShown && r.width > 0 && r.height > 0
      && (!el.checkVisibility || el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})); };
  return [all, all.filter(shows), shows, clean];
};
"""
_INTO_VIEW = (
    "(spec) => { const f = document.querySelector(spec.frame); const doc = f && f.contentDocument;"
    " if (!doc) return 0; const [all, shown] = __select(spec, doc, true); const el = shown[0] || all[0];"
    " if (!el) return 0; const win = doc.defaultView;"
    " for (let box = el.parentElement; box; box = box.parentElement) {"
    "  const cs = win.getComputedStyle(box);"
    "  if (box.scrollHeight > box.clientHeight && /(auto|scroll)/.test(cs.overflowY)) {"
    "   const b = box.getBoundingClientRect(), r = el.getBoundingClientRect();"
    "   if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 2; } }"
    " const r = el.getBoundingClientRect();"
    " if (r.top < 0 || r.bottom > win.innerHeight) win.scrollBy(0, r.top - win.innerHeight / 2);"
    " const y = f.getBoundingClientRect().top + el.getBoundingClientRect().top;"
    " const h = el.getBoundingClientRect().height;"
    " if (y < 0 || y + h > innerHeight) window.scrollBy(0, y - innerHeight / 2); return 1; }"
)
_FIND = (
    _DOC
    + _SELECT
    + r"""
const __find = (spec) => {
  const [doc, win, frame] = __docOf(spec.frame);
  if (!doc) return {count: 0, shown: 0, why: frame};
  let dx = 0, dy = 0, frameShown = true;
  if (frame && frame.getBoundingClientRect) {
    const r = frame.getBoundingClientRect(), cs = getComputedStyle(frame);
    dx = r.left + frame.clientLeft + parseFloat(cs.paddingLeft);
    dy = r.top + frame.clientTop + parseFloat(cs.paddingTop);
    frameShown = r.width > 0 && r.height > 0 && (!frame.checkVisibility || frame.checkVisibility());
  }
  const [all, shown, shows, clean] = __select(spec, doc, frameShown);
  const el = shown[0] || all[0];
  if (!el) return {count: 0, shown: 0, why: 'nothing matches'};
  const r = el.getBoundingClientRect();
  const box = {x: r.left + dx, y: r.top + dy, width: r.width, height: r.height};
  // what can be seen: the top viewport, and inside a frame only the frame's own window of it
  let [L, T, R, B] = [0, 0, window.innerWidth, window.innerHeight];
  if (frame && frame.getBoundingClientRect) {
    [L, T] = [Math.max(L, dx), Math.max(T, dy)];
    [R, B] = [Math.min(R, dx + frame.clientWidth), Math.min(B, dy + frame.clientHeight)];
  }
  const across = Math.min(box.x + box.width, R) - Math.max(box.x, L);
  const down = Math.min(box.y + box.height, B) - Math.max(box.y, T);
  const inView = across > 0 && down >= Math.min(box.height, (B - T) / 3, 100) - 0.5;
  let hit = false;
  if (inView) {
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const at = doc.elementFromPoint(cx, cy);
    hit = !!at && (at === el || el.contains(at));
    if (hit && frame && frame.getBoundingClientRect) hit = document.elementFromPoint(cx + dx, cy + dy) === frame;
  }
  return {count: all.length, shown: shown.length, box, visible: shows(el), in_view: inView, hit,
    text: clean(el.innerText || el.value).slice(0, 4000), disabled: !!el.disabled, why: ''};
};
"""
)


class Page:
    """One page (tab) of a browser: see the module's docstring. Subclasses supply the engine's calls."""

    engine = ""

    def __init__(self) -> None:
        self._errors: list[str] = []

    # --- what each engine supplies ---

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def url(self) -> str:
        return str(self.evaluate("() => location.href"))

    def _call(self, source: str, arg: Any) -> Any:
        """Run ``source``, a function of one JSON value, in the top page; return its JSON result."""
        raise NotImplementedError

    def _pointer_click(self, target: Target, found: Found) -> None:
        raise NotImplementedError

    def _keys(self, keys: list[str]) -> None:
        raise NotImplementedError

    def viewport(self, width: int, height: int) -> None:
        raise NotImplementedError

    def _png(self) -> bytes:
        raise NotImplementedError

    def _engine_errors(self) -> list[str]:
        return []

    def close(self) -> None:
        raise NotImplementedError

    # --- the same for every engine ---

    def evaluate(self, function: str, arg: Any = None, *, frame: str | None = None) -> Any:
        """``function`` is ``(arg, doc, win) => value``, run against the top document or ``frame``'s."""
        source = (
            "async (json) => {" + _DOC + _SELECT + "const a = JSON.parse(json);"
            "const [doc, win, why] = __docOf(a.frame);"
            "if (!doc) throw new Error(why);"
            f"const value = await ({function})(a.arg, doc, win);"
            "return JSON.stringify(value === undefined ? null : value); }"
        )
        return json.loads(self._call(source, json.dumps({"arg": arg, "frame": frame})))

    def find(self, target: Target) -> Found:
        source = "async (json) => {" + _FIND + "return JSON.stringify(__find(JSON.parse(json))); }"
        return Found(**json.loads(self._call(source, json.dumps(target.spec()))))

    def _until(self, what: str, check: Callable[[], tuple[bool, Any]], timeout: float) -> Any:
        """Poll ``check`` (which says whether it is done, and its value or what it saw) until done."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                done, last = check()
            except EngineError as problem:  # a navigation under way, a frame not yet loaded
                done, last = False, str(problem)
            if done:
                return last
            if time.monotonic() > deadline:
                with contextlib.suppress(Exception):
                    self.shot(f"timed-out-{time.strftime('%H%M%S')}")
                raise AssertionError(f"{self.engine}: waited {timeout:.0f} s for {what}; last: {last}")
            time.sleep(0.1)

    def visible(
        self, target: Target, *, in_view: bool = False, within: float | None = None, timeout: float = WAIT
    ) -> Found:
        """Wait until ``target`` is visible (and in view, if asked; and no wider than ``within`` CSS px,
        if given, as a layout that has reflowed to a new window size is); what was read then."""

        def check() -> tuple[bool, Found]:
            found = self.find(target)
            ok = found.visible and found.box["width"] > 0 and found.box["height"] > 0
            fits = within is None or found.box["width"] <= within
            return ok and fits and (found.in_view or not in_view), found

        what = f"{target} to be visible" + (" in view" if in_view else "") + (f" within {within} px" if within else "")
        return self._until(what, check, timeout)  # type: ignore[no-any-return]

    def gone(self, target: Target, *, timeout: float = WAIT) -> None:
        self._until(f"{target} to be gone", lambda: (self.find(target).shown == 0, target), timeout)

    def wait_for(self, function: str, arg: Any = None, *, frame: str | None = None, timeout: float = WAIT) -> Any:
        """Poll ``(arg, doc, win) => value`` until its value is truthy; return that value."""

        def check() -> tuple[bool, Any]:
            value = self.evaluate(function, arg, frame=frame)
            return bool(value), value

        return self._until(function, check, timeout)

    def reveal(self, target: Target, *, timeout: float = WAIT) -> Found:
        """Wait until ``target`` is visible and scroll it into view if it is not (as a person scrolls).

        Scrolled to again every second while it is still out of view: a scroll begun as the page above
        it grew or shrank (a frame resized, a result drawn) may stop short, as WebKitGTK's did in CI."""
        found = self.visible(target, timeout=timeout)
        if found.in_view:
            return found
        last_scroll = [0.0]

        def scroll() -> None:
            last_scroll[0] = time.monotonic()
            self.evaluate(
                "(spec, doc) => { const [all, shown] = __select(spec, doc, true); const el = shown[0] || all[0];"
                " if (!el) return 0; const at = {block: 'center', inline: 'nearest'};"
                " try { el.scrollIntoView({...at, behavior: 'instant'}); } catch (e) { el.scrollIntoView(at); }"
                " return 1; }",
                target.spec(),
                frame=target.frame,
            )
            if target.frame:
                # WebKitGTK's scrollIntoView in a frame may leave the frame's scrolling boxes and the top
                # page as they were: scroll each box that holds the target, then the top page, by hand.
                self.evaluate(_INTO_VIEW, target.spec())

        def check() -> tuple[bool, Found]:
            seen = self.find(target)
            shown = seen.visible and seen.box["width"] > 0 and seen.box["height"] > 0
            if shown and seen.in_view:
                return True, seen
            if time.monotonic() - last_scroll[0] >= 1.0:
                with contextlib.suppress(EngineError):
                    scroll()
            return False, seen

        return self._until(f"{target} to be visible in view", check, timeout)  # type: ignore[no-any-return]

    def click(self, target: Target, *, timeout: float = WAIT) -> Found:
        """A real pointer click on the visible ``target`` (scrolled into view first if needed)."""
        self.reveal(target, timeout=timeout)
        # Where it is now and where it was at the last look the same (a smooth scroll, a layout after a
        # resize, may still be moving it: a click at where it was would land elsewhere), and uncovered;
        # moved out of view meanwhile (the page above it grew), it is scrolled to again, as a person would.
        seen: list[Found] = []

        def settled() -> tuple[bool, Found]:
            seen.append(self.find(target))
            if seen[-1].visible and not seen[-1].in_view:
                seen.append(self.reveal(target, timeout=timeout))
            return len(seen) > 1 and seen[-1].hit and seen[-1].box == seen[-2].box, seen[-1]

        found = self._until(f"{target} to stay still, not covered", settled, 5.0)
        self._pointer_click(target, found)
        return found

    def type(self, target: Target, text: str, *, pace: float = 0.1) -> None:
        """Click the field and type ``text`` into it a key every ``pace`` seconds, as a person types."""
        self.click(target)
        for key in text:
            self._keys([key])
            time.sleep(pace)

    def press(self, key: str) -> None:
        self._keys([KEYS.get(key, key)])

    def text(self, target: Target) -> str:
        return self.visible(target).text

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(exist_ok=True)
        path = SHOTS / f"{self.engine}-{name}.png"
        path.write_bytes(self._png())
        return path

    def errors(self) -> list[str]:
        return self._engine_errors() + list(self._errors)


class EngineError(RuntimeError):
    """The engine refused a call (a stale context mid-navigation, a script error)."""


# ----- Chromium, through Playwright ------------------------------------------------------------------


class PlaywrightPage(Page):
    engine = "chromium"

    def __init__(self, browser: Any, width: int, height: int) -> None:
        super().__init__()
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self._errors.append(f"uncaught: {e}"))
        self.page.on("console", lambda m: self._errors.append(m.text) if m.type == "error" else None)

    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="load", timeout=WAIT * 1000)

    def reload(self) -> None:
        self.page.reload(wait_until="load", timeout=WAIT * 1000)

    def _call(self, source: str, arg: Any) -> Any:
        from playwright.sync_api import Error

        try:
            return self.page.evaluate(source, arg)
        except Error as problem:
            raise EngineError(str(problem)) from problem

    def _pointer_click(self, target: Target, found: Found) -> None:
        self.page.mouse.click(*found.centre)

    def _keys(self, keys: list[str]) -> None:
        names = {v: k for k, v in KEYS.items()}
        for key in keys:
            self.page.keyboard.press(names.get(key, key))

    def viewport(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})

    def _png(self) -> bytes:
        return bytes(self.page.screenshot())

    def close(self) -> None:
        self.context.close()


ENGINES = ("chromium", "firefox", "webkit")


@contextlib.contextmanager
def launched(engine: str, playwright_browser: Callable[[], Any]) -> Iterator[Callable[[int, int], Page]]:
    """The engine's browser for a test process; yields a maker of fresh pages of a given size."""
    if engine == "chromium":
        browser = playwright_browser()
        yield lambda w, h: PlaywrightPage(browser, w, h)
        return
    from tests.journeys.firefox import FirefoxBrowser
    from tests.journeys.webkit import WebKitBrowser

    running: FirefoxBrowser | WebKitBrowser = FirefoxBrowser() if engine == "firefox" else WebKitBrowser()
    try:
        yield running.page
    finally:
        running.close()
