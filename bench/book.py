"""How long the book takes to build: once clean, then again with nothing changed.

The target (issue 6): a clean build under 5 minutes on the project's 2-core machine, execution
cached for rebuilds. The build is the test command's own (`jupyter-book build . -W -n
--keep-going`), written to a temporary folder so the project's `_build/` is left alone. Also
reported: each page's size, and the largest.

    python bench/book.py

Figures on the project's machine are in the issue notes, not asserted by any test.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JB = Path(sys.executable).parent / "jupyter-book"


def build(out: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [str(JB), "build", ".", "-W", "-n", "--keep-going", "--path-output", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"the build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return took


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="lanterloo-book-") as tmp:
        out = Path(tmp)
        clean = build(out)
        cached = build(out)
        pages = sorted((out / "_build" / "html" / "book").rglob("*.html"))
        sizes = {p.relative_to(out / "_build" / "html").as_posix(): p.stat().st_size for p in pages}
    print(f"clean build:  {clean:6.1f} s")
    print(f"cached build: {cached:6.1f} s (nothing changed)")
    print(f"pages: {len(sizes)}, {sum(sizes.values()) / 1e6:.1f} MB in all")
    for name, size in sorted(sizes.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {size / 1e3:7.0f} kB  {name}")


if __name__ == "__main__":
    main()
