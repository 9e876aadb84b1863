"""The bytes of a first visit, without and with compression: a table page and a book page.

A server is started as `make serve` starts it (bench/tables_common.py), and Debian's chromium
(Playwright) pays a first visit, its cache empty, to a new three-card table (until it is
playable) and to a chapter of the book that embeds widgets (until the page's load event and
the network is quiet). Every response is counted: its body as sent (after any compression) and
its headers. The visit is made twice: once asking for no compression (``Accept-Encoding:
identity``, what every visit moved before the server compressed), once as a browser asks
(gzip). Also printed: the largest responses of the compressed visit, and their encoding.

    flock /tmp/heavy.lock .venv/bin/python bench/bytes.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import Request, sync_playwright
from tables_common import CHROMIUM, CHROMIUM_ARGS, load_average, server

PLAYABLE = ".loo-choices button.mod-primary, .loo-picks button, .loo-next"
BOOK_PAGE = "/book/first-hand.html"  # the page whose widgets need the widget manager's script


@dataclass
class Visit:
    """What one first visit moved."""

    responses: list[tuple[str, int, str]] = field(default_factory=list)  # url, body bytes as sent, encoding
    headers: int = 0

    @property
    def body(self) -> int:
        return sum(size for _, size, _ in self.responses)


def visit(browser: object, url: str, *, compressed: bool, table: bool) -> Visit:
    headers = {} if compressed else {"Accept-Encoding": "identity"}
    context = browser.new_context(extra_http_headers=headers)  # type: ignore[attr-defined]
    page = context.new_page()
    seen = Visit()

    def finished(request: Request) -> None:
        response = request.response()
        if response is None or request.url.startswith(("data:", "blob:")):
            return
        sizes = request.sizes()
        encoding = response.headers.get("content-encoding", "")
        seen.responses.append((request.url, int(sizes["responseBodySize"]), encoding))
        seen.headers += int(sizes["responseHeadersSize"])

    page.on("requestfinished", finished)
    page.goto(url, wait_until="load", timeout=120_000)
    if table:
        page.wait_for_selector(PLAYABLE, state="visible", timeout=120_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    time.sleep(0.5)
    context.close()
    return seen


def mb(n: int) -> str:
    return f"{n / 1e6:6.2f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=6, help="largest responses listed per visit (6)")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}  {load_average()}")
    with tempfile.TemporaryDirectory(prefix="lanterloo-bench-bytes-") as folder:
        with server(Path(folder)) as served, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, path, table in (("table page", "/tables/three-card-loo", True), ("book page", BOOK_PAGE, False)):
                plain = visit(browser, served.base + path, compressed=False, table=table)
                packed = visit(browser, served.base + path, compressed=True, table=table)
                saved = 1 - packed.body / plain.body if plain.body else 0.0
                print(f"\n{name} ({path}), first visit: {len(packed.responses)} responses")
                print(f"  without compression: {mb(plain.body)} of bodies, {mb(plain.headers)} of headers")
                print(f"  with gzip:           {mb(packed.body)} of bodies ({saved:.0%} less)")
                for url, size, encoding in sorted(packed.responses, key=lambda r: -r[1])[: args.top]:
                    short = url.replace(served.base, "")
                    print(f"    {size / 1e3:9.1f} kB  {encoding or 'identity':8s} {short[:90]}")
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
