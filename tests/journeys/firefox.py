"""Firefox ESR driven by WebDriver BiDi over a websocket: the ``firefox`` engine of
:mod:`tests.journeys.engines` (whose docstring says what a page can do)."""

from __future__ import annotations

import base64
import contextlib
import json
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tests.journeys.engines import WAIT, EngineError, Found, Page, Target

FIREFOX = "/usr/bin/firefox-esr"


class Bidi:
    """A WebDriver BiDi session over a websocket: commands answered by id, events collected."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.connection = connect(url, max_size=None, open_timeout=WAIT)
        self.socket = self.connection.__enter__()
        self.answers: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.ready = threading.Condition()
        self.next = 0
        self.reader = threading.Thread(target=self._read, daemon=True, name="bidi")
        self.reader.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for raw in self.socket:
                message = json.loads(raw)
                with self.ready:
                    if "id" in message and message.get("type") in ("success", "error"):
                        self.answers[message["id"]] = message
                    else:
                        self.events.append(message)
                    self.ready.notify_all()

    def send(self, method: str, params: dict[str, Any], timeout: float = WAIT * 3) -> dict[str, Any]:
        with self.ready:
            self.next += 1
            number = self.next
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        with self.ready:
            if not self.ready.wait_for(lambda: number in self.answers, timeout):
                raise EngineError(f"BiDi {method}: no answer in {timeout} s")
            answer = self.answers.pop(number)
        if answer["type"] == "error":
            raise EngineError(f"BiDi {method}: {answer.get('error')}: {answer.get('message')}")
        return dict(answer["result"])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.socket.close()


class FirefoxBrowser:
    """``firefox-esr --headless`` with a fresh profile, driven by WebDriver BiDi."""

    def __init__(self) -> None:
        if not Path(FIREFOX).exists():
            raise RuntimeError(f"{FIREFOX} is missing: install Debian's firefox-esr (make test does it)")
        self.profile = tempfile.mkdtemp(prefix="lanterloo-firefox-")
        # No updates, no telemetry, no first-run pages: a closed network has nothing to answer them.
        Path(self.profile, "user.js").write_text(
            'user_pref("app.update.enabled", false);\nuser_pref("browser.shell.checkDefaultBrowser", false);\n'
            'user_pref("datareporting.policy.dataSubmissionEnabled", false);\n'
            'user_pref("toolkit.telemetry.enabled", false);\n'
            'user_pref("network.captive-portal-service.enabled", false);\n'
            'user_pref("browser.safebrowsing.update.enabled", false);\n'
        )
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--profile", self.profile, "--remote-debugging-port=0"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        url = self._address()
        self.bidi = Bidi(url + "/session")
        self.bidi.send("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})
        self.bidi.send("session.subscribe", {"events": ["log.entryAdded"]})

    def _address(self) -> str:
        assert self.process.stderr is not None
        seen: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                break
            seen.append(line)
            if m := re.search(r"WebDriver BiDi listening on (ws://\S+)", line):
                threading.Thread(target=self._drain, daemon=True).start()
                return m[1]
        raise RuntimeError("firefox-esr did not start its WebDriver BiDi server:\n" + "".join(seen[-30:]))

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for _line in self.process.stderr:
            pass

    def page(self, width: int, height: int) -> BidiPage:
        return BidiPage(self.bidi, width, height)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.bidi.send("session.end", {}, timeout=10)
        self.bidi.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class BidiPage(Page):
    engine = "firefox"

    def __init__(self, bidi: Bidi, width: int, height: int) -> None:
        super().__init__()
        self.bidi = bidi
        self.user = bidi.send("browser.createUserContext", {})["userContext"]
        self.context = bidi.send("browsingContext.create", {"type": "tab", "userContext": self.user})["context"]
        self.seen = len(bidi.events)
        self.viewport(width, height)

    def goto(self, url: str) -> None:
        self.bidi.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def reload(self) -> None:
        self.bidi.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def _call(self, source: str, arg: Any) -> Any:
        result = self.bidi.send(
            "script.callFunction",
            {
                "functionDeclaration": source,
                "arguments": [{"type": "string", "value": arg}],
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": "none",
            },
        )
        if result.get("type") == "exception":
            raise EngineError(result["exceptionDetails"].get("text", "a script error"))
        return result["result"]["value"]

    def _actions(self, actions: list[dict[str, Any]]) -> None:
        self.bidi.send("input.performActions", {"context": self.context, "actions": actions})

    def _pointer_click(self, target: Target, found: Found) -> None:
        x, y = (round(v) for v in found.centre)
        steps = [{"type": "pointerMove", "x": x, "y": y, "origin": "viewport"}]
        steps += [{"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        self._actions([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": steps}])

    def _keys(self, keys: list[str]) -> None:
        steps = [{"type": t, "value": k} for k in keys for t in ("keyDown", "keyUp")]
        self._actions([{"type": "key", "id": "keyboard", "actions": steps}])

    def viewport(self, width: int, height: int) -> None:
        self.bidi.send(
            "browsingContext.setViewport", {"context": self.context, "viewport": {"width": width, "height": height}}
        )

    def _png(self) -> bytes:
        data = self.bidi.send("browsingContext.captureScreenshot", {"context": self.context})["data"]
        return base64.b64decode(data)

    def _engine_errors(self) -> list[str]:
        with self.bidi.ready:
            events = self.bidi.events[self.seen :]
        out = []
        for event in events:
            entry = event.get("params", {})
            if event.get("method") == "log.entryAdded" and entry.get("level") == "error":
                if entry.get("source", {}).get("userContext", self.user) == self.user:
                    out.append(f"{entry.get('type')}: {entry.get('text')}")
        return out

    def close(self) -> None:
        with contextlib.suppress(EngineError):
            self.bidi.send("browsingContext.close", {"context": self.context})
        with contextlib.suppress(EngineError):
            self.bidi.send("browser.removeUserContext", {"userContext": self.user})
