"""The book and its tables offline after one visit (web/sw.js, web/inpage/offline.js; docs/browser.md).

A reader opens a chapter on a static host (Debian's nginx with deploy/static-nginx.conf, serving a copy
of the built book this test may change), opens its table and plays, loses the network, reloads, and
reads and plays on from what the browser kept; the page says it is offline. Then the book is rebuilt
with a changed page and a changed file of the table: the new build's worker replaces the kept copy
whole, so the new page and the new file are served, offline too, and the old cache is gone.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Frame, Page, expect

from tests.browser.table_page import act
from tests.conftest import BOOK, ROOT, _free_port, need_book
from tests.helpers.nginx import running_nginx, static_conf
from tests.helpers.web import web_module

SHOTS = ROOT / "test-results"
CHAPTER = "book/loo/play.html"
GAME = "three-card-loo"
STARTS = 120_000  # Pyodide's first start on a busy machine
WAIT = 120_000  # a table's first start and the keeping of its files, on a busy machine (as conftest STARTS)
MARK = b"\n// rebuilt for tests/browser/test_offline.py\n"
# Which of the addresses each of the worker's caches keeps. CacheStorage.match with a cacheName never
# makes a cache: opening one the new worker has just deleted would make it again, empty (seen here).
CACHES = """async (urls) => {
  const out = {};
  for (const name of await caches.keys()) {
    if (!name.startsWith("lanterloo-offline-")) continue;
    out[name] = [];
    for (const url of urls) {
      if (await caches.match(url, {cacheName: name, ignoreVary: true})) out[name].push(url);
    }
  }
  return out;
}"""

WORKERS = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  const say = (w) => w && w.state;
  return r && {installing: say(r.installing), waiting: say(r.waiting), active: say(r.active)};
}"""


service_worker = web_module("service_worker")


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A copy of the built book (its address and folder), served by nginx as a static host serves it."""
    need_book()
    folder = tmp_path / "site"
    shutil.copytree(BOOK, folder)
    port = _free_port()
    logs = tmp_path / "nginx"
    logs.mkdir()
    with running_nginx(logs, static_conf(folder, port), port):
        yield f"http://127.0.0.1:{port}", folder


def kept(page: Page, urls: list[str]) -> dict[str, list[str]]:
    """The service worker's caches, each with those of ``urls`` it keeps."""
    return dict(page.evaluate(CACHES, urls))


def wait_until_kept(page: Page, urls: list[str], *, only: str | None = None, beside: bool = False) -> list[str]:
    """Wait until one cache keeps every one of ``urls``; its addresses. With ``only``, that cache, and no
    other beside it unless ``beside``."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        caches = kept(page, urls)
        if only is None or set(caches) == {only} or (beside and only in caches):
            for name, addresses in caches.items():
                if (only is None or name == only) and all(url in addresses for url in urls):
                    return addresses
        if time.monotonic() > deadline:
            missing = {name: [url for url in urls if url not in kept] for name, kept in caches.items()}
            workers = page.evaluate(WORKERS)
            raise AssertionError(f"wanted in {only or 'one cache'}; each cache lacks: {missing}; workers: {workers}")
        time.sleep(0.2)


def open_the_table(page: Page) -> Frame:
    box = page.locator(f"#live-{GAME}")
    play_here = box.get_by_role("button", name="Play here", exact=True)
    play_here.scroll_into_view_if_needed()
    play_here.click()
    shown = box.locator("iframe.loo-offer-frame")
    expect(shown).to_be_visible(timeout=WAIT)
    frame = shown.element_handle().content_frame()
    assert frame is not None
    expect(frame.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
    expect(frame.locator(".loo-board")).to_be_visible()
    return frame


def saved(page: Page) -> dict[str, Any]:
    text = page.evaluate(f"localStorage.getItem('lanterloo-inpage:{GAME}')")
    assert text, "the game is not kept in the browser's storage"
    return dict(json.loads(text))


def play_a_card(frame: Frame, page: Page) -> None:
    """Take the reader's choices (declaring, or dealing the next hand, as it comes) until the reader has
    played a card: each choice a button the reader sees, each move kept in the browser's storage."""
    for _ in range(12):
        before, seen = saved(page)["count"], len(saved(page)["events"])
        choice = frame.locator(".loo-next") if frame.locator(".loo-next").is_enabled() else None
        choice = choice or frame.locator(".loo-choices button.mod-primary").first
        expect(choice).to_be_visible()
        box = choice.bounding_box()
        assert box and box["width"] > 10 and box["height"] > 10, box
        act(frame)  # type: ignore[arg-type]  # a frame has the locator, evaluate and wait_for_function act uses
        page.wait_for_function(
            "([key, before]) => JSON.parse(localStorage.getItem(key)).count > before",
            arg=[f"lanterloo-inpage:{GAME}", before],
            timeout=WAIT,
        )
        new = saved(page)["events"][seen:]
        if any(e["type"] == "act" and e["action"].get("seat") == 0 and "play" in e["action"] for e in new):
            board = frame.locator(".loo-board").bounding_box()
            assert board and board["width"] > 200 and board["height"] > 100, board
            return
    raise AssertionError(f"no card played in twelve moves: {saved(page)['events'][-12:]}")


def rebuild(folder: Path) -> str:
    """The book rebuilt with a changed page and a changed file of the table's: the page's text, the
    table's worker script, its digest in the manifest, and the service worker written again for them
    (web/service_worker.py, as web/build_inpage.py writes it). The new cache's name."""
    chapter = folder / CHAPTER
    text = chapter.read_text()
    anchor = '<article class="bd-article">'
    assert text.count(anchor) == 1
    chapter.write_text(text.replace(anchor, anchor + '<p id="rebuilt">This page was rebuilt.</p>'))
    worker = folder / "inpage" / "worker.mjs"
    worker.write_bytes(worker.read_bytes() + MARK)
    manifest_path = folder / "inpage" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["worker"]["worker.mjs"] = service_worker.digest(worker.read_bytes())
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    assert service_worker.write(folder, "rebuilt")
    for changed in (worker, manifest_path, folder / "sw.js"):  # the host would send a stale compressed copy
        for suffix in (".gz", ".br"):
            changed.with_name(changed.name + suffix).unlink(missing_ok=True)
    return f"lanterloo-offline-{service_worker.build_of(folder, 'rebuilt')['version']}"


@pytest.mark.browser_context_args(service_workers="allow")  # tests/browser/conftest.py blocks it elsewhere
def test_a_reader_who_opened_a_chapter_and_its_table_reads_and_plays_on_offline_and_a_rebuild_replaces_the_copy(
    page: Page, site: tuple[str, Path]
) -> None:
    base, folder = site
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1366, "height": 768})
    chapter = f"{base}/{CHAPTER}"
    play_page = f"{base}/play/{GAME}.html"
    table_files = [f"{base}/{path}" for path in service_worker.build_of(folder, "")["table"]]

    # The host sends the worker as JavaScript, and has it revalidated on every visit: a new build is seen.
    for path in ("sw.js", "inpage/offline.js", "inpage/manifest.json", CHAPTER):
        response = page.request.get(f"{base}/{path}")
        assert response.ok and response.headers.get("cache-control") == "no-cache", (path, response.headers)
    assert "javascript" in page.request.get(f"{base}/sw.js").headers["content-type"]

    # Read: the page and its files are kept, and nothing of a table's.
    page.goto(chapter, timeout=WAIT)
    wait_until_kept(page, [chapter])
    assert not any(kept(page, table_files).values()), "a table's files were kept for a reader who opened none"
    expect(page.locator(".loo-offline-note")).to_have_count(0)

    # Opened and played: the table's files are kept, each checked against the build's digest.
    frame = open_the_table(page)
    play_a_card(frame, page)
    wait_until_kept(page, [chapter, play_page, *table_files])
    [old] = kept(page, [])
    played = saved(page)["count"]

    # No network: the chapter comes from the kept copy, says it is offline, and its table plays on.
    page.context.set_offline(True)
    page.reload(timeout=WAIT)
    note = page.locator(".loo-offline-note")
    expect(note).to_be_visible()
    expect(note).to_have_attribute("role", "status")
    expect(note).to_contain_text("You are offline")
    frame = open_the_table(page)
    assert saved(page)["count"] == played, "the game did not resume where it was"
    play_a_card(frame, page)
    page.locator(f"#live-{GAME}").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "offline-chapter-table-1366x768.png"))

    # The play page alone, offline, on a phone: the note above the table, which plays on.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(play_page, timeout=WAIT)
    expect(page.locator("[data-loo-ready]")).to_have_count(1, timeout=STARTS)
    expect(page.locator(".loo-board")).to_be_visible()
    expect(page.locator(".loo-offline-note")).to_be_visible()
    page.screenshot(path=str(SHOTS / "offline-table-390x844.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(SHOTS / "offline-table-1366x768.png"))

    # Rebuilt, and the reader back online: the new worker, as it installs, carries the kept pages and
    # table over from the host, afresh, into a cache of its own. It takes over, and deletes the old
    # cache, once the old worker is idle: Chromium may wait for that until the reader leaves the book
    # (seen here, about 1 run in 3: the new worker still waiting two minutes on), so the reader leaves and
    # comes back. Offline again, the new page and file are served.
    new = rebuild(folder)
    assert new != old
    page.context.set_offline(False)
    page.goto(chapter, timeout=WAIT)
    wait_until_kept(page, [chapter, play_page, *table_files], only=new, beside=True)
    page.goto("about:blank")
    page.goto(chapter, timeout=WAIT)
    wait_until_kept(page, [chapter, play_page, *table_files], only=new)
    page.context.set_offline(True)
    page.reload(timeout=WAIT)
    expect(page.locator("#rebuilt")).to_be_visible()
    expect(page.locator(".loo-offline-note")).to_be_visible()
    served: Any = page.evaluate("async () => (await fetch('/inpage/worker.mjs')).text()")
    assert served.endswith(MARK.decode()), "the kept worker script is the old build's"
    frame = open_the_table(page)
    play_a_card(frame, page)
    assert list(kept(page, [])) == [new]
    assert errors == [], errors
