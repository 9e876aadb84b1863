"""Watching the play (issue 20), in the browser at the default pace: the reader's card shows at once, a
computer player's card follows, the finished trick stays with its winner named, and the key L shows
the last trick. The pace is the browser's: no message passes between the page and its kernel while
the moves are laid out, and a key shows the rest at once. The pace chosen is kept through a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.table_page import WAIT

pytestmark = pytest.mark.browser


# Each frame of the page's kernel websockets, either way, stamped with the page's own clock as the page
# sends or receives it. (Playwright's frame events reach the test only when it next calls the browser,
# so a time taken in the test says when the test heard of a frame, not when it passed.)
KERNEL_FRAMES = """
(() => {
  const Native = window.WebSocket;
  window.__kernelFrames = [];
  window.__kernelAsked = [];  // the msg_id of each request the page sent its kernel
  window.__kernelIdle = [];   // the text of each "idle" status the kernel sent (naming the request done)
  const text = (data) => typeof data === "string" ? data
    : data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? new TextDecoder().decode(data) : "";
  const note = () => window.__kernelFrames.push(performance.now());
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (String(args[0]).includes("/channels")) {
        this.addEventListener("message", (event) => {
          note();
          const said = text(event.data);
          if (/"execution_state":\\s*"idle"/.test(said)) { window.__kernelIdle.push(said); }
        });
        const send = this.send.bind(this);
        this.send = (data) => {
          note();
          const asked = /"msg_id":\\s*"([^"]+)"/.exec(text(data));
          if (asked) { window.__kernelAsked.push(asked[1]); }
          return send(data);
        };
      }
    }
  };
})();
"""

# True once the kernel has answered every request the page sent it (its "idle" status, whose parent is
# the request, has come) and the websocket has then been silent for a moment.
ALL_ANSWERED = """
() => window.__kernelAsked.every((id) => window.__kernelIdle.some((said) => said.includes(id)))
  && performance.now() - Math.max(0, ...window.__kernelFrames) > 300
"""


def page_now(page: Page) -> float:
    return float(page.evaluate("performance.now()"))


def frames_between(page: Page, start: float, end: float) -> list[float]:
    """The page's kernel frames from ``start`` to ``end`` (the page's clock, in ms)."""
    return list(page.evaluate("([a, b]) => window.__kernelFrames.filter((t) => t >= a && t <= b)", [start, end]))


def test_the_computer_players_cards_come_in_turn_and_the_last_trick_is_one_key_away(
    browser: Browser, site: str
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 1000})  # no stored pace: the default
    try:
        context.add_init_script(KERNEL_FRAMES)
        page = context.new_page()
        page.goto(f"{site}/tables/nap?deal=nap.hoffmann.s0.n3", wait_until="commit", timeout=WAIT)
        expect(page.locator(".loo-pace button.mod-active")).to_have_text("Normal", timeout=WAIT)
        page.locator(".loo-choices button", has_text="Call 2").click()  # the others pass: Ann leads
        card = page.locator(".loo-choices .loo-card-button.mod-primary").first
        expect(card).to_be_visible(timeout=WAIT)
        card.click()
        # On the cloth, each card a figure named for its player (only what shows is in the page's
        # accessibility tree: the frame of the reel now on show, or the table as it stands).
        trick = page.locator(".loo-board .loo-trick")

        def laid_by(player: str) -> Locator:
            return trick.get_by_role("figure", name=player, exact=True)

        expect(laid_by("Ann")).to_be_visible(timeout=5_000)  # the reader's own card, at once
        expect(page.locator(".loo-show-rest")).to_be_visible()
        expect(page.locator(".loo-choices")).to_be_hidden()  # the choices wait for the moves
        expect(laid_by("Ben")).to_have_count(0)  # the computer players' cards come after
        # The click's answer is all in once the kernel has said it is done with the click (its "idle"
        # status: a click's answer can pause while its move is saved, longer than any quiet spell on a
        # busy machine): from there to the end of the moves the page is alone (a pace kept by the kernel
        # would send each move in turn).
        page.wait_for_function(ALL_ANSWERED, timeout=10_000, polling=50)
        assert page.evaluate("window.__kernelAsked.length") > 0, "the click sent the kernel nothing"
        expect(page.locator(".loo-show-rest")).to_be_visible()  # the moves still being laid out
        quiet_from = page_now(page)
        expect(laid_by("Ben")).to_be_visible(timeout=5_000)
        expect(page.locator(".loo-announce")).to_contain_text("Ben plays")
        expect(page.locator(".loo-announce")).to_have_attribute("role", "log")  # a live region of the moves
        expect(page.locator(".loo-announce")).to_have_attribute("aria-live", "polite")
        # The trick won is named on the cloth, in the middle's facts (in the reel's frame that ends it).
        won = page.locator(".loo-just:visible", has_text="Trick 1 just played: Dan won it with the seven of diamonds")
        expect(won).to_have_count(1, timeout=10_000)
        expect(won).to_be_visible()
        expect(laid_by("Dan")).to_be_visible()  # the finished trick stays on the table
        expect(page.locator(".loo-choices .loo-card-button.mod-primary").first).to_be_visible(timeout=10_000)
        talk = frames_between(page, quiet_from, page_now(page))
        assert talk == [], f"{len(talk)} websocket frames while the moves were laid out: the pace is not the browser's"
        page.locator(".loo-choices .loo-card-button").first.focus()
        page.keyboard.press("l")
        panel = page.locator(".loo-board .loo-over")  # laid over the middle of the cloth
        expect(panel).to_be_visible(timeout=5_000)
        expect(panel).to_contain_text("Last trick, trick 1: Dan won it")
        expect(page.locator(".loo-last")).to_have_class(re.compile(r"\bmod-active\b"))
        page.keyboard.press("l")
        # A key while the moves are laid out shows the table at once, and the moves skipped are said together.
        page.locator(".loo-choices .loo-card-button.mod-primary").first.focus()
        page.keyboard.press("Enter")
        rest = page.locator(".loo-show-rest")
        expect(rest).to_be_focused(timeout=5_000)  # the keyboard reader lands on the one control of the moment
        page.keyboard.press("Enter")
        expect(rest).to_be_hidden()
        expect(page.locator(".loo-choices button:focus")).to_have_count(1)  # and then back on the choices
        said = page.locator(".loo-announce").inner_text()
        assert said.count(" plays ") + said.count(" leads ") >= 2, said
        page.locator(".loo-pace button", has_text="Faster").click()
        page.reload(wait_until="commit")
        expect(page.locator(".loo-pace button.mod-active")).to_have_text("Faster", timeout=WAIT)
        expect(page.locator(".loo-show-rest")).to_be_hidden()  # the last reel is not played again on a reload
    finally:
        context.close()
