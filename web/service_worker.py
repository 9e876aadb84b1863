"""The service worker that keeps the book and its tables for a reader with no network (``sw.js``).

``web/build_inpage.py`` writes it at the root of ``_assets`` (published at the site's root, so that its
scope is the whole book) from the template ``web/sw.js`` and the build's ``inpage/manifest.json``:

* ``files``: every file a table's worker fetches, by its path below the site's root, with the digest of
  its content (the manifest's, and the manifest's own): the worker keeps such a file only if its
  content has that digest, so a cache never holds another build's copy;
* ``table``: those kept when a reader first opens a table (all but ``lazy``); ``lazy``: Pyodide's whole
  standard library, fetched only should a table import a module the compiled cut lacks, kept then;
* ``version``: a digest of all that, of the template, and of what the pages are made from (``pages``):
  a new build is a new ``sw.js``, so a new worker with a cache of its own, which replaces the old.

Usage: python web/service_worker.py FOLDER PAGES_VERSION  (FOLDER: ``_assets`` or a built site)
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "sw.js"
PLACEHOLDER = "const BUILD = null;"
LAZY = ("pyodide/python_stdlib.zip",)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def build_of(folder: Path, pages: str) -> dict[str, object]:
    """What the worker knows of this build, from ``folder``'s ``inpage/manifest.json``."""
    manifest_bytes = (folder / "inpage" / "manifest.json").read_bytes()
    manifest = json.loads(manifest_bytes)
    files = {"inpage/manifest.json": digest(manifest_bytes)}
    for part in ("files", "stdlib", "site", "worker"):
        for name, value in manifest[part].items():
            files[posixpath.normpath(posixpath.join("inpage", name))] = value
    template = TEMPLATE.read_bytes()
    version = digest(json.dumps([files, pages, digest(template)], sort_keys=True).encode())
    return {
        "version": version,
        "files": dict(sorted(files.items())),
        "table": sorted(path for path in files if path not in LAZY),
        "lazy": [path for path in LAZY if path in files],
    }


def service_worker(folder: Path, pages: str) -> str:
    template = TEMPLATE.read_text()
    if template.count(PLACEHOLDER) != 1:
        raise SystemExit(f"service_worker: {TEMPLATE} must hold {PLACEHOLDER!r} once")
    build = json.dumps(build_of(folder, pages), indent=1, sort_keys=True)
    return template.replace(PLACEHOLDER, f"const BUILD = {build};")


def write(folder: Path, pages: str) -> bool:
    """Write ``folder/sw.js``; whether it changed."""
    path = folder / "sw.js"
    text = service_worker(folder, pages)
    if path.is_file() and path.read_text() == text:
        return False
    temporary = path.with_name("sw.js.tmp")
    temporary.write_text(text)
    temporary.replace(path)
    return True


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    write(Path(sys.argv[1]), sys.argv[2])
