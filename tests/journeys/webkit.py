"""WebKitGTK's MiniBrowser driven by classic W3C WebDriver (``WebKitWebDriver``, HTTP and JSON) under an
Xvfb of its own: the ``webkit`` engine of :mod:`tests.journeys.engines` (whose docstring says what a
page can do)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.journeys.engines import _SELECT, WAIT, EngineError, Found, Page, Target

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
XVFB = "/usr/bin/Xvfb"


# WebKit's driver cannot read the console: every call first puts this hook into the page and its frames.
_HOOK = r"""
const __hook = (w) => { try { if (!w || w.__looErrors) return; w.__looErrors = [];
  const error = w.console.error.bind(w.console);
  w.console.error = (...a) => { w.__looErrors.push(a.map(String).join(' ')); error(...a); };
  w.addEventListener('error', (e) => w.__looErrors.push('uncaught: ' + (e.message || e)));
  w.addEventListener('unhandledrejection', (e) => w.__looErrors.push('unhandled rejection: '
    + ((e.reason && e.reason.message) || e.reason)));
} catch (e) {} };
__hook(window); document.querySelectorAll('iframe').forEach((f) => __hook(f.contentWindow));
"""
_DRAIN = r"""
const out = []; const take = (w) => { try { if (w && w.__looErrors) out.push(...w.__looErrors.splice(0)); }
  catch (e) {} };
take(window); document.querySelectorAll('iframe').forEach((f) => take(f.contentWindow)); return out;
"""


# The clicks the document (the top page's, or the frame's the driver is in) has received: counted in the
# capture phase, before any handler of the page's, with an id that changes when the document does.
_CLICKS = r"""
if (!window.__looClicks) { window.__looClicks = {id: Math.random(), n: 0};
  document.addEventListener('click', () => { window.__looClicks.n += 1; }, true); }
return [window.__looClicks.id, window.__looClicks.n];
"""
# WebKitGTK's driver, on a loaded machine, now and then answers an element click as done though the
# page never got it (a card clicked, the table unchanged a minute later). A click the document did not
# receive within CLICK_LANDS seconds is made again, at most CLICK_TRIES times in all, and noted
# (WebDriverPage.lost_clicks): a click the page received and did nothing with still fails the journey.
CLICK_LANDS = 5.0
CLICK_TRIES = 3


class WebDriver:
    """A classic W3C WebDriver session, spoken as HTTP and JSON."""

    def __init__(self, base: str, capabilities: dict[str, Any]) -> None:
        self.base = base
        self.session = ""
        self.session = self.send("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})["sessionId"]

    def send(self, method: str, path: str, body: dict[str, Any] | None = None, timeout: float = WAIT * 3) -> Any:
        url = self.base + (f"/session/{self.session}" if self.session else "") + path
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as problem:
            detail = json.loads(problem.read() or b"{}").get("value", {})
            raise EngineError(f"WebDriver {method} {path}: {detail.get('error')}: {detail.get('message')}") from None


class WebKitBrowser:
    """WebKitGTK's MiniBrowser under an Xvfb of its own, driven by ``WebKitWebDriver``."""

    def __init__(self) -> None:
        for program in (WEBKIT_DRIVER, MINIBROWSER, XVFB):
            if not Path(program).exists():
                raise RuntimeError(f"{program} is missing: install webkit2gtk-driver and xvfb (make test does it)")
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "2200x1400x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()
        if not display:
            raise RuntimeError("Xvfb did not start")
        from tests.conftest import _free_port

        port = _free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="lanterloo-webkitdriver-", suffix=".log", delete=False)
        env = {**os.environ, "DISPLAY": f":{display}"}
        self.driver = subprocess.Popen(
            [WEBKIT_DRIVER, f"--port={port}"], env=env, stdout=self.log, stderr=subprocess.STDOUT
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/status", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or self.driver.poll() is not None:
                    raise RuntimeError("WebKitWebDriver did not start") from None
                time.sleep(0.1)
        options = {"binary": MINIBROWSER, "args": ["--automation"]}
        self.wd = WebDriver(base, {"browserName": "MiniBrowser", "webkitgtk:browserOptions": options})

    def page(self, width: int, height: int) -> WebDriverPage:
        return WebDriverPage(self.wd, width, height)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.wd.send("DELETE", "", timeout=20)
        for process in (self.driver, self.xvfb):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)


class WebDriverPage(Page):
    engine = "webkit"

    def __init__(self, wd: WebDriver, width: int, height: int) -> None:
        super().__init__()
        self.wd = wd
        self.origins: set[str] = set()
        self.lost_clicks: list[str] = []  # clicks the driver said it made and the page never got (see _CLICKS)
        self.viewport(width, height)

    def _drain(self) -> None:
        with contextlib.suppress(EngineError):
            self._errors += self.wd.send("POST", "/execute/sync", {"script": _DRAIN, "args": []})

    def goto(self, url: str) -> None:
        self._drain()
        self.wd.send("POST", "/url", {"url": url})
        self._call("async () => '1'", "")
        self.origins.add(re.sub(r"^(\w+://[^/]+).*", r"\1", url))

    def reload(self) -> None:
        self._drain()
        self.wd.send("POST", "/refresh")
        self._call("async () => '1'", "")

    def _call(self, source: str, arg: Any) -> Any:
        script = _HOOK + f"return ({source})(arguments[0]);"
        return self.wd.send("POST", "/execute/sync", {"script": script, "args": [arg]})

    def _element(self, target: Target) -> dict[str, str]:
        """WebDriver's reference to the target in the current frame, taken as :meth:`Page.find` takes it."""
        pick = "const [all, shown] = __select(arguments[0], document, true); return shown[0] || all[0] || null;"
        script = _SELECT + pick
        element = self.wd.send("POST", "/execute/sync", {"script": script, "args": [target.spec()]})
        if not element:
            raise EngineError(f"no element for {target}")
        return dict(element)

    def _pointer_click(self, target: Target, found: Found) -> None:
        if target.frame:
            frame = self._element(Target(target.frame))
            self.wd.send("POST", "/frame", {"id": frame})
        try:
            for attempt in range(CLICK_TRIES):
                page, before = self.wd.send("POST", "/execute/sync", {"script": _CLICKS, "args": []})
                element = self._element(replace(target, frame=None))
                key = next(iter(element.values()))
                self.wd.send("POST", f"/element/{key}/click")
                if self._click_landed(page, before):
                    break
                self.lost_clicks.append(f"{target} (try {attempt + 1})")
        finally:
            if target.frame:
                self.wd.send("POST", "/frame", {"id": None})

    def _click_landed(self, page: float, before: int) -> bool:
        """Whether the document received a click since it had counted ``before`` (or is another document
        now: the click followed a link), within :data:`CLICK_LANDS` seconds."""
        look = "return window.__looClicks ? [window.__looClicks.id, window.__looClicks.n] : null;"
        deadline = time.monotonic() + CLICK_LANDS
        while True:
            try:
                now = self.wd.send("POST", "/execute/sync", {"script": look, "args": []})
            except EngineError:  # a navigation under way: the click was taken
                return True
            if now is None or now[0] != page or now[1] > before:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)

    def _keys(self, keys: list[str]) -> None:
        steps = [{"type": t, "value": k} for k in keys for t in ("keyDown", "keyUp")]
        self.wd.send("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": steps}]})
        self.wd.send("DELETE", "/actions")

    def viewport(self, width: int, height: int) -> None:
        """The window's size, corrected by what the browser's own frame takes from the viewport."""
        for _ in range(3):
            inner = self._call("async () => [innerWidth, innerHeight]", "")
            if inner == [width, height]:
                return
            rect = self.wd.send("GET", "/window/rect")
            rect = {"width": rect["width"] + width - inner[0], "height": rect["height"] + height - inner[1]}
            self.wd.send("POST", "/window/rect", rect)
            time.sleep(0.2)

    def _png(self) -> bytes:
        return base64.b64decode(self.wd.send("GET", "/screenshot"))

    def close(self) -> None:
        self._drain()
        for origin in self.origins:  # one session for every page: the next starts with nothing kept
            with contextlib.suppress(EngineError):
                self.wd.send("POST", "/url", {"url": origin + "/"})
                self._call("async () => { localStorage.clear(); sessionStorage.clear(); return '1'; }", "")
        with contextlib.suppress(EngineError):
            self.wd.send("POST", "/url", {"url": "about:blank"})
