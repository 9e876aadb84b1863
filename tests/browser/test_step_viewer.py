"""The step-through viewer in real chromium, as the static book has it: the HTML alone, no kernel,
no server and no Python behind the page. Buttons, keys, autoplay, two viewers on one page, and
the page without scripts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from widgets.views.step_viewer import AUTOPLAY_MS, SCRIPT, StepViewer

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LOO = GOLDEN / "L3-DIV-02-one-chip-a-trick.json"
DOMINO = GOLDEN / "DL-DLR-03-dealer-plays-for-the-pool.json"


def steps_in(path: Path) -> int:
    return len(json.loads(path.read_text(encoding="utf-8"))["actions"])


def html_of(path: Path, **options: object) -> str:
    return StepViewer(path.read_text(encoding="utf-8"), **options).to_html()  # type: ignore[arg-type]


def page_of(*fragments: str) -> str:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'></head><body>"
        + "".join(fragments)
        + "</body></html>"
    )


@pytest.fixture
def quiet(page: Page) -> Iterator[Page]:
    """The page, refusing every request and failing the test on any console error."""
    errors: list[str] = []
    asked: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", lambda route: (asked.append(route.request.url), route.abort()))
    yield page
    assert errors == [], f"errors in the page: {errors}"
    assert asked == [], f"the page asked for: {asked}"


def shows(viewer: Locator, k: int) -> None:
    """Exactly frame k of this viewer is on screen."""
    expect(viewer.locator(f'[data-loo-frame="{k}"]')).to_be_visible()
    expect(viewer.locator("[data-loo-frame]:visible")).to_have_count(1)


def button(viewer: Locator, name: str) -> Locator:
    return viewer.get_by_role("button", name=name, exact=True)


def test_buttons_and_keys_step_through_the_hand(quiet: Page) -> None:
    page = quiet
    last = steps_in(LOO)
    page.set_content(page_of(html_of(LOO, commentary={1: "Ann stands on her ace."})))
    viewer = page.locator("[data-loo-steps]")
    expect(viewer).to_have_attribute("data-ready", "1")
    shows(viewer, 0)
    expect(viewer.locator("[data-loo-nojs]")).to_have_count(0)
    expect(button(viewer, "First step")).to_be_disabled()
    expect(button(viewer, "Back one step")).to_be_disabled()
    frame = viewer.locator('[data-loo-frame="0"]')
    assert frame.evaluate("f => getComputedStyle(f).animationName") == "loo-steps-in"

    button(viewer, "Forward one step").click()
    shows(viewer, 1)
    expect(viewer.locator('[data-loo-frame="0"]')).to_be_hidden()
    expect(viewer.locator('[data-loo-frame="1"]')).to_contain_text("Ann stands on her ace.")
    expect(viewer.locator("[data-loo-live]")).to_have_text(f"Step 1 of {last}: Ann stands")
    button(viewer, "Back one step").click()
    shows(viewer, 0)

    viewer.focus()
    page.keyboard.press("End")
    shows(viewer, last)
    expect(button(viewer, "Forward one step")).to_be_disabled()
    page.keyboard.press("Home")
    shows(viewer, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shows(viewer, 2)
    page.keyboard.press("ArrowLeft")
    shows(viewer, 1)

    button(viewer, "Last step").click()
    shows(viewer, last)
    expect(button(viewer, "Forward one step")).to_be_disabled()
    expect(button(viewer, "Last step")).to_be_disabled()
    expect(button(viewer, "Back one step")).to_be_enabled()
    # the pressed button is now disabled, so the keys keep working from the viewer itself
    assert page.evaluate("document.activeElement.hasAttribute('data-loo-steps')")
    page.keyboard.press("ArrowLeft")
    shows(viewer, last - 1)


def test_play_steps_on_its_own_and_stops_at_the_end(quiet: Page) -> None:
    page = quiet
    last = steps_in(LOO)
    page.emulate_media(reduced_motion="reduce")
    page.clock.install()
    page.set_content(page_of(html_of(LOO)))
    viewer = page.locator("[data-loo-steps]")
    frame = viewer.locator('[data-loo-frame="0"]')
    assert frame.evaluate("f => getComputedStyle(f).animationName") == "none"  # no animation, still steps

    button(viewer, "Play").click()
    expect(button(viewer, "Pause")).to_be_visible()
    page.clock.run_for(AUTOPLAY_MS + 50)
    shows(viewer, 1)
    page.clock.run_for(AUTOPLAY_MS)
    shows(viewer, 2)
    page.clock.run_for(AUTOPLAY_MS * last)
    shows(viewer, last)
    expect(button(viewer, "Play")).to_be_visible()  # stopped by itself
    page.clock.run_for(AUTOPLAY_MS * 3)
    shows(viewer, last)

    viewer.focus()
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    expect(button(viewer, "Pause")).to_be_visible()
    page.clock.run_for(AUTOPLAY_MS + 50)
    shows(viewer, 1)
    page.keyboard.press("k")
    expect(button(viewer, "Play")).to_be_visible()
    page.clock.run_for(AUTOPLAY_MS * 3)
    shows(viewer, 1)


def test_two_viewers_on_a_page_keep_to_themselves(quiet: Page) -> None:
    page = quiet
    page.set_content(page_of(html_of(LOO), "<p>Between the two.</p>", html_of(DOMINO, seat=0)))
    one, two = page.locator("[data-loo-steps]").nth(0), page.locator("[data-loo-steps]").nth(1)
    expect(one).to_have_attribute("data-ready", "1")
    expect(two).to_have_attribute("data-ready", "1")

    button(one, "Forward one step").click()
    shows(one, 1)
    shows(two, 0)
    two.focus()
    page.keyboard.press("End")
    shows(two, steps_in(DOMINO))
    shows(one, 1)

    # the script again, as a page holding a third viewer would run it: nothing is set up twice
    page.evaluate(
        "body => { const s = document.createElement('script'); s.textContent = body; document.body.appendChild(s); }",
        SCRIPT.removeprefix("<script>").removesuffix("</script>"),
    )
    button(one, "Forward one step").click()
    shows(one, 2)


def test_without_scripts_every_position_shows(browser: Browser) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.set_content(page_of(html_of(DOMINO)))
        viewer = page.locator("[data-loo-steps]")
        expect(viewer.locator("[data-loo-frame]:visible")).to_have_count(steps_in(DOMINO) + 1)
        expect(viewer.locator("[data-loo-bar]")).to_be_hidden()
        expect(viewer.locator("[data-loo-nojs]")).to_be_visible()
    finally:
        context.close()


def test_the_projector_view_fills_the_window_with_large_cards_and_words_and_escape_leaves_it(quiet: Page) -> None:
    """Issue 29: at 1920x1080 the viewer sat in a column with 13-15 px words and small cards. Its
    "Projector view" button lays it over the whole window, drawn large; Escape (or the button) leaves."""
    quiet.set_viewport_size({"width": 1920, "height": 1080})
    quiet.set_content(page_of("<h1>A chapter</h1><p>Its words.</p>", html_of(LOO)))
    viewer = quiet.locator("[data-loo-steps]")
    toggle = button(viewer, "Projector view")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    box = viewer.bounding_box()
    assert box is not None and (box["x"], box["y"], box["width"], box["height"]) == (0, 0, 1920, 1080), box
    sizes = quiet.evaluate(
        """() => {
          const frame = document.querySelector('[data-loo-frame]:not([hidden])');
          const cards = [...frame.querySelectorAll('svg')].map(e => e.getBoundingClientRect().height);
          const words = [...frame.querySelectorAll('p, span')].filter(e => e.getBoundingClientRect().height > 0)
            .map(e => e.getBoundingClientRect().height);
          return {tallest: Math.max(...cards), line: Math.min(...words)};
        }"""
    )
    assert sizes["tallest"] >= 120 and sizes["line"] >= 24, sizes  # a line box at 24 px or more
    quiet.screenshot(path=str(Path(__file__).resolve().parents[2] / "test-results" / "step-viewer-projector.png"))
    quiet.keyboard.press("ArrowRight")  # its keys still step
    shows(viewer, 1)
    quiet.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    box = viewer.bounding_box()
    assert box is not None and box["width"] < 1920
    quiet.set_viewport_size({"width": 390, "height": 844})  # a phone projects nothing: no button there
    expect(toggle).to_be_hidden()
    expect(viewer.locator("[data-loo-go=forward]")).to_be_visible()
