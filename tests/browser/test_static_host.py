"""The static host the in-browser tables are tested on is a school's own: Debian's nginx with
``deploy/static-nginx.conf`` serving the built book, no Lanterloo server (tests/conftest.py::static_site,
where every in-browser table of the tests starts, its first visit and the returning reader's). Here what
that host sends: the compressed copies ``make book`` wrote beside the big files (web/precompress.py),
as they are, and module scripts as JavaScript."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.conftest import BOOK

# The files of a table's first visit that are big enough to be worth a copy (each is checked to have one).
BIG = ("pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", "widgets/embed-amd.js", "inpage/worker.mjs")


def test_the_static_host_sends_the_compressed_copies_as_they_are_and_the_browser_takes_them(
    page: Page, static_site: str
) -> None:
    for name in BIG:
        copies = [BOOK / f"{name}{suffix}" for suffix in (".gz", ".br")]
        assert all(copy.is_file() for copy in copies), f"make book wrote no copies of {name}"
    page.goto(f"{static_site}/play/index.html")
    for name in BIG:
        # What the browser fetched: its bytes on the wire (encodedBodySize) are the .gz copy's, made at
        # build time (nginx's own gzip, level 5, would differ), and decoded they are the file.
        got = page.evaluate(
            """async (url) => {
                const r = await fetch(url, {cache: "no-store"});
                const body = await r.arrayBuffer();
                const t = performance.getEntriesByName(new URL(url, location.href).href).pop();
                return {type: r.headers.get("content-type"), decoded: body.byteLength,
                        sent: t.encodedBodySize, unpacked: t.decodedBodySize};
            }""",
            f"/{name}",
        )
        size = (BOOK / name).stat().st_size
        assert got["sent"] == (BOOK / f"{name}.gz").stat().st_size, (name, got)
        assert got["decoded"] == got["unpacked"] == size, (name, got)
        if name.endswith("mjs"):
            assert "javascript" in got["type"], f"{name} was sent as {got['type']}: a browser refuses it as a module"
    # The WebAssembly, sent compressed, compiles as it streams in (it needs its own type for that).
    compiled = page.evaluate(
        "async () => (await WebAssembly.compileStreaming(fetch('/pyodide/pyodide.asm.wasm')))"
        " instanceof WebAssembly.Module"
    )
    assert compiled is True
