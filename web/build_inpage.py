"""Build what a table in the reader's browser needs, into ``_assets`` (published at the site's root).

``make book`` runs this after ``web/vendor.sh``, with the project's virtual environment:

* ``_assets/pyodide/``: Pyodide's core runtime, from the npm package pinned in ``web/package-lock.json``
  (its whole standard library among it, fetched by a browser only should a table ask for a module
  the compiled one below lacks: ``widgets.kernel.stdlib``);
* ``_assets/inpage/stdlib.zip`` and ``_assets/inpage/site.zip``: the standard library's modules a table
  imports, and the pure-Python wheels of ``web/inpage-requirements.txt`` (ipywidgets, traitlets, comm,
  downloaded from PyPI by pip with their hashes checked) with the project's own ``loo`` and
  ``widgets`` packages as they are in this clone (the same code the server's tables run), all compiled
  to the browser's Python's bytecode by ``web/compile_inpage.py``, run in Pyodide by Node.js;
* ``_assets/inpage/``: the page and worker scripts of ``web/inpage/``, and ``manifest.json``, which
  names every file the worker fetches with a digest of its content, so a browser never runs a
  stale copy beside a fresh one;
* ``_assets/play/<game>.html``: a page per game holding its table, and the game in a minute
  (``widgets.draw.minute``) above it, shown at once, while the table is being made ready;
* ``_assets/sw.js``: the service worker that keeps the pages a reader read and the tables they opened
  for when there is no network (``web/service_worker.py``), versioned by the manifest and by what the
  book's pages are made from (:func:`pages_version`), and ``_assets/inpage/offline.js``, which every
  book page (``_config.yml``) and play page loads to register it;
* beside every file of ``_assets`` worth it, its gzip and brotli copies (``web/precompress.py``), for
  hosts that send those as they are.

Nothing is fetched at run time from anywhere but the book's own origin. Idempotent: a file whose
content has not changed is not rewritten.

Usage: python web/build_inpage.py [--assets DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import html
import importlib.metadata
import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
PYODIDE = WEB / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
REQUIREMENTS = WEB / "inpage-requirements.txt"
WHEEL_CACHE = WEB / ".wheels"
# What web/compile_inpage.py made, by the digest of all it was made from: a build whose inputs have not
# changed does not start Node.js and Pyodide again.
COMPILED_CACHE = WEB / ".compiled"
COMPILER = (WEB / "compile_inpage.mjs", WEB / "compile_inpage.py")
SCRIPTS = WEB / "inpage"
# Keyboard play, the same file the server's table pages link (the lanterloo Voila template's own).
TEMPLATE_STATIC = ROOT / "widgets" / "share" / "jupyter" / "voila" / "templates" / "lanterloo" / "static"
TABLE_KEYS = TEMPLATE_STATIC / "table-keys.js"
# The guided first hand, the same file the server's table pages link.
GUIDE = TEMPLATE_STATIC / "guide.js"
# The project's code the browser runs: loo whole, and of widgets the packages a table is made of (its
# game, its drawing, its views, its kernel's router and the in-browser bridge), not those only the
# server uses (the server, the tables' database, shared tables) nor the book's build-time helpers.
SERVER_ONLY = {"server", "store", "multiseat"}  # packages of widgets (the book's questions ship: practice)
# What the book's pages are made from (besides the tools below): a change to any of them makes a new
# service worker, whose cache replaces the old one's (web/service_worker.py).
PAGE_SOURCES = ("_config.yml", "_toc.yml", "_static", "book", "loo", "widgets")
BOOK_TOOLS = ("jupyter-book", "sphinx", "sphinx-book-theme", "pydata-sphinx-theme", "myst-nb")
# The Python version Pyodide runs (314.x runs Python 3.14): the wheels must be for it.
BROWSER_PYTHON = "3.14"


def write_if_changed(path: Path, data: bytes) -> bool:
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    temporary.replace(path)
    return True


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def copy_pyodide(assets: Path) -> dict[str, str]:
    missing = [name for name in PYODIDE_FILES if not (PYODIDE / name).is_file()]
    if missing:
        raise SystemExit(f"build_inpage: {PYODIDE} lacks {', '.join(missing)}: run web/vendor.sh (npm ci) first")
    out: dict[str, str] = {}
    for name in PYODIDE_FILES:
        data = (PYODIDE / name).read_bytes()
        write_if_changed(assets / "pyodide" / name, data)
        out[name] = digest(data)
    return out


def fetch_wheels() -> list[Path]:
    """The pinned wheels, from the cache or PyPI, hashes checked by pip."""
    WHEEL_CACHE.mkdir(exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--no-deps",
        "--require-hashes",
        "--only-binary=:all:",
        "--python-version",
        BROWSER_PYTHON,
        "--dest",
        str(WHEEL_CACHE),
        "-r",
        str(REQUIREMENTS),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"build_inpage: pip could not fetch the browser's wheels:\n{done.stderr}")
    wanted = {
        line.split("==")[0].strip().lower().replace("-", "_"): line.split("==")[1].split()[0]
        for line in REQUIREMENTS.read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    return [next(WHEEL_CACHE.glob(f"{name}-{version}-*.whl")) for name, version in sorted(wanted.items())]


def compile_for_browser(wheels: list[Path], code: bytes) -> dict[str, bytes]:
    """``stdlib.zip`` and ``site.zip`` (see the module's doc), from the cache or web/compile_inpage.mjs."""
    inputs = {path.name: path.read_bytes() for path in [PYODIDE / "python_stdlib.zip", *wheels, *COMPILER]}
    inputs["lanterloo.zip"] = code
    key = hashlib.sha256(b"".join(name.encode() + digest(data).encode() for name, data in sorted(inputs.items())))
    cached = COMPILED_CACHE / key.hexdigest()[:24]
    outputs = ("stdlib.zip", "site.zip")
    if not all((cached / name).is_file() for name in outputs):
        node = shutil.which("node")
        if node is None:
            raise SystemExit("build_inpage: Node.js (node) is needed to compile the browser's Python: install nodejs")
        with tempfile.TemporaryDirectory() as work:
            for name, data in inputs.items():
                Path(work, name).write_bytes(data)
            done = subprocess.run([node, str(COMPILER[0]), str(PYODIDE), work], capture_output=True, text=True)
            if done.returncode != 0 or not all(Path(work, name).is_file() for name in outputs):
                raise SystemExit(f"build_inpage: compiling the browser's Python failed:\n{done.stdout}{done.stderr}")
            shutil.rmtree(COMPILED_CACHE, ignore_errors=True)  # one build's at a time
            cached.mkdir(parents=True)
            for name in (*outputs, "report.json"):
                shutil.copy(Path(work, name), cached / name)
    return {name: (cached / name).read_bytes() for name in outputs}


def pack_code() -> bytes:
    """``loo`` and ``widgets`` as one zip, the same bytes for the same sources (no dates, sorted)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for package in ("loo", "widgets"):
            for path in sorted((ROOT / package).rglob("*")):
                relative = path.relative_to(ROOT)
                if not path.is_file() or "__pycache__" in relative.parts or "share" in relative.parts:
                    continue
                if path.suffix not in (".py", ".toml", ".typed") or SERVER_ONLY & set(relative.parts):
                    continue
                info = zipfile.ZipInfo(relative.as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def pages_version() -> str:
    """A digest of what the book's pages are made from: their sources, the code their cells run, and the
    versions of the tools that build them. This runs before the pages are built, for the service worker."""
    hashed = hashlib.sha256()
    for name in PAGE_SOURCES:
        top = ROOT / name
        for path in sorted([top] if top.is_file() else top.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                hashed.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    for tool in BOOK_TOOLS:
        try:
            hashed.update(f"{tool}=={importlib.metadata.version(tool)}".encode())
        except importlib.metadata.PackageNotFoundError:
            hashed.update(f"{tool} missing".encode())
    return hashed.hexdigest()[:16]


PLAY_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name}: a live table in your browser · Lanterloo</title>
<link rel="icon" href="../favicon.ico">
<link rel="stylesheet" href="../inpage/inpage.css?v={css}">
<script>if (window.self !== window.top) document.documentElement.classList.add("loo-in-frame");</script>
</head>
<body>
<main class="loo-inpage" data-loo-game="{game}" data-loo-manifest="../inpage/manifest.json?v={manifest}">
<header class="loo-inpage-head">
<h1>{name}</h1>
<div class="loo-inpage-links">{links}</div>
</header>
<p class="loo-inpage-where" role="note"><strong>This table runs in your browser.</strong> A curious reader
could find the other players' cards here.<span class="loo-inpage-more"> The whole deal, every hand, is in
your own computer; the tables served by the Lanterloo server keep them hidden.</span></p>
{minute}
<div class="loo-inpage-status" role="status" aria-live="polite" data-loo-status>
<noscript>This table needs JavaScript, which is turned off in this browser.</noscript></div>
<div class="loo-inpage-table" data-loo-table-slot></div>
</main>
<script src="../inpage/inpage.js?v={js}"></script>
<script src="../inpage/offline.js?v={offline}"></script>
<script src="../widgets/require.js"></script>
<script>require.config({{paths: {{"@jupyter-widgets": "../widgets",
  "@jupyter-widgets/html-manager/dist": "../widgets"}}}});</script>
<script src="../widgets/embed-amd.js"></script>
<script src="../inpage/table-keys.js?v={keys}"></script>
<script src="../inpage/guide.js?v={guide}"></script>
</body>
</html>
"""


def play_pages(scripts: dict[str, str], manifest: str) -> dict[str, str]:
    """The in-browser tables' pages (``play/<game>.html``), each linking its chapter, how to play and
    the list of tables, and that list (``play/index.html``; the server has its own at ``/tables/``)."""
    sys.path.insert(0, str(ROOT))
    from loo.options import GAME_NAMES
    from widgets.book import TABLES
    from widgets.draw import law_refs
    from widgets.draw.minute import FOLD_SCRIPT, minute_html
    from widgets.draw.table_pages import links_html, tables_page

    law_refs.index_root = "../"  # the law index's links, from play/<game>.html
    pages = {
        f"{game}.html": PLAY_PAGE.format(
            game=game, name=html.escape(GAME_NAMES[game]), css=scripts["inpage.css"], js=scripts["inpage.js"],
            offline=scripts["offline.js"],
            keys=scripts["table-keys.js"], guide=scripts["guide.js"], manifest=manifest,
            links=links_html(game, "../", tables="index.html"), minute=minute_html(game) + FOLD_SCRIPT,
        )
        for game in TABLES
    }  # fmt: skip
    where = "These tables run in your own browser: the whole deal is in your computer, so they cannot hide it."
    pages["index.html"] = tables_page(lambda game: f"{game}.html", "../", where=where, games=TABLES)
    return pages


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assets", type=Path, default=ROOT / "_assets")
    args = parser.parse_args(argv)
    assets: Path = args.assets
    files = {f"../pyodide/{name}": value for name, value in copy_pyodide(assets).items()}
    compiled = compile_for_browser(fetch_wheels(), pack_code())
    for name, data in compiled.items():
        write_if_changed(assets / "inpage" / name, data)
    shutil.rmtree(assets / "inpage" / "wheels", ignore_errors=True)  # an older build's files
    (assets / "inpage" / "lanterloo.zip").unlink(missing_ok=True)
    scripts: dict[str, str] = {}
    for source in sorted([*SCRIPTS.iterdir(), TABLE_KEYS, GUIDE]):
        if source.suffix in (".js", ".mjs", ".css"):
            data = source.read_bytes()
            write_if_changed(assets / "inpage" / source.name, data)
            scripts[source.name] = digest(data)
    manifest = {
        "pyodide": "../pyodide/",
        "files": files,
        "stdlib": {"stdlib.zip": digest(compiled["stdlib.zip"])},
        "site": {"site.zip": digest(compiled["site.zip"])},
        "worker": {"worker.mjs": scripts["worker.mjs"]},
    }
    manifest_bytes = (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()
    write_if_changed(assets / "inpage" / "manifest.json", manifest_bytes)
    sys.path.insert(0, str(ROOT))
    for name, page in play_pages(scripts, digest(manifest_bytes)).items():
        write_if_changed(assets / "play" / name, page.encode())
    import service_worker  # web/, beside this file
    from precompress import precompress

    service_worker.write(assets, pages_version())

    counts = precompress(assets)
    written, kept, removed = counts["written"], counts["kept"], counts["removed"]
    print(f"compressed copies (.gz, .br): {written} written, {kept} up to date, {removed} removed")
    shutil.rmtree(WEB / "__pycache__", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
