"""Compressed copies beside the in-browser tables' files, for hosts that serve them as they are.

A static host that compresses as it sends (most do, with gzip at a middling level) spends a core on
every big file for every reader, and brotli, about a tenth smaller again for WebAssembly and half the
size of gzip for the widget bundle, it seldom makes on the fly. Hosts that serve a file's compressed
copy when one lies beside it (nginx's ``gzip_static``, Caddy's ``precompressed``; docs/browser.md says
how) send these instead: ``<name>.gz`` (gzip at its highest level) and
``<name>.br`` (brotli, at its highest level up to :data:`BROTLI_BEST_UP_TO` bytes, and at level 6 above:
for Pyodide's 9.6 MB of WebAssembly the highest costs a core nearly a minute and level 9 five seconds,
where level 6 takes under one for 2% more bytes than 9 and 15% more than 11).

Only files that shrink by :data:`WORTH` or more get copies, and a copy newer than its file is not made
again, so a second build costs nothing. The zips of compiled modules store their files uncompressed
(web/compile_inpage.py) so that these copies compress each zip whole.
``make book`` runs this over ``_assets`` (web/build_inpage.py), whose files are then published.

Usage: python web/precompress.py DIR
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import brotli

# What a browser fetches for a table and a host would compress: scripts, WebAssembly, pages, styles, data
# and the zips of compiled modules (stored). Not the widget bundle's icon fonts: a browser of today
# fetches only their woff2, which is compressed already.
SUFFIXES = frozenset({".js", ".mjs", ".wasm", ".html", ".css", ".json", ".zip"})
SMALLEST = 1024  # smaller files are not worth a second request's header
WORTH = 0.9  # a copy is kept only if it is at most this part of its file
BROTLI_BEST_UP_TO = 512 << 10
COPIES = (".gz", ".br")


def gz(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def br(data: bytes) -> bytes:
    return bytes(brotli.compress(data, quality=11 if len(data) <= BROTLI_BEST_UP_TO else 6))


ENCODERS: dict[str, Callable[[bytes], bytes]] = {".gz": gz, ".br": br}


def sources(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in SUFFIXES and path.stat().st_size >= SMALLEST:
            yield path


def precompress(folder: Path) -> dict[str, int]:
    """Write the compressed copies of ``folder``'s files that are missing or older than their file,
    and remove those that no longer belong (their file gone, or not worth a copy). Returns how many
    copies were written, kept as they were, and removed."""
    counts = {"written": 0, "kept": 0, "removed": 0}
    wanted: set[Path] = set()
    for path in sources(folder):
        data: bytes | None = None
        for suffix, encode in ENCODERS.items():
            copy = path.with_name(path.name + suffix)
            if copy.is_file() and copy.stat().st_mtime_ns >= path.stat().st_mtime_ns:
                wanted.add(copy)
                counts["kept"] += 1
                continue
            data = path.read_bytes() if data is None else data
            packed = encode(data)
            if len(packed) > WORTH * len(data):
                continue
            temporary = copy.with_name(copy.name + ".tmp")
            temporary.write_bytes(packed)
            temporary.replace(copy)
            wanted.add(copy)
            counts["written"] += 1
    for copy in sorted(folder.rglob("*")):
        if copy.suffix in COPIES and copy.is_file() and copy not in wanted:
            copy.unlink()
            counts["removed"] += 1
    return counts


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python web/precompress.py DIR", file=sys.stderr)
        return 2
    counts = precompress(Path(argv[0]))
    print(f"compressed copies: {counts['written']} written, {counts['kept']} up to date, {counts['removed']} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
