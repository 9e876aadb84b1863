"""Compile what a table in the reader's browser imports, once, at build time (run inside Pyodide).

``web/compile_inpage.mjs`` runs this in Pyodide under Node.js, so that the bytecode is the browser's
own Python's (3.14: the build machine's Python may be any other version), with the work folder
mounted at the path given as its one argument. That folder holds Pyodide's standard library
(``python_stdlib.zip``, source files only), the wheels of ``web/inpage-requirements.txt`` and the
project's ``lanterloo.zip``. Written into it:

* ``stdlib.zip``: the standard library's modules a table imports, compiled, without their sources. A
  browser that started Python from Pyodide's own zip compiled every module it imported from source
  at each first visit (about 3 of the 4.5 seconds Python took to start here); this zip is also a
  fraction of the whole library's size. Which modules: those imported by Pyodide's start, by the
  table's preparation (``widgets.kernel.inpage.prepare``), by every module of the project's code, and
  by every ``import`` written anywhere in the code shipped (a function's own imports too). A module
  the browser asks for that is not in it comes from the whole library, fetched then
  (``widgets.kernel.stdlib``), and the page's log says so.
* ``site.zip``: the wheels' packages (their tests left out) and the project's code, every module as
  its bytecode alone (``name.pyc`` where ``name.py`` was), other files as they are. Unpacked by the
  worker into ``/lanterloo``.
* ``report.json``: the modules and sizes, for a maintainer (kept in ``web/.compiled/``).

Every ``.pyc`` is hash-based and unchecked: Python loads it without looking for its source's date,
and the same sources always give the same bytes. Each is compiled as ``python -OO`` compiles (the
server's table kernels run so), and the zips store their files uncompressed: the host compresses a zip
whole (``web/precompress.py``'s copies), which finds what the modules share, where a zip's own deflate
compressed each file alone (brotli over the stored zips: 1.87 MB against 2.74 MB of deflated zips).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import sys
import zipfile
from importlib import _bootstrap_external  # type: ignore[attr-defined]
from pathlib import Path

SITE = Path("/lanterloo-site")
DATE = (2020, 1, 1, 0, 0, 0)
OURS = ("loo", "widgets")  # the project's packages
COMMAND_LINE = {"loo.__main__", "loo.cli", "loo.review_cli"}  # shipped with loo, never run by a table
LEFT_OUT = {"tests"}  # a wheel's folders never shipped
# As the server's table kernels run (``python -OO``): no docstrings and no asserts in the bytecode. The
# docstrings were a sixth of the project's compiled code, and nothing a table runs reads one.
OPTIMIZE = 2
STDLIB = next(Path(entry) for entry in sys.path if entry.endswith(".zip"))  # Pyodide's, /lib/python3NN.zip


def bytecode(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True, optimize=OPTIMIZE)
    return bytes(_bootstrap_external._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=DATE)
    info.compress_type = zipfile.ZIP_STORED
    archive.writestr(info, data)


def unpack_site(work: Path) -> list[str]:
    """The wheels and the project's code into SITE; the paths of the files kept, sorted."""
    kept: list[str] = []
    for part in sorted([*work.glob("*.whl"), work / "lanterloo.zip"]):
        with zipfile.ZipFile(part) as archive:
            for name in archive.namelist():
                parts = name.split("/")
                if name.endswith("/") or LEFT_OUT & set(parts) or parts[0].endswith(".dist-info"):
                    continue
                (SITE / name).parent.mkdir(parents=True, exist_ok=True)
                (SITE / name).write_bytes(archive.read(name))
                kept.append(name)
    return sorted(kept)


def imports_written(path: Path) -> set[str]:
    """Every absolute module an ``import`` names in the file, wherever the statement is."""
    tree = ast.parse(path.read_bytes(), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def origin_of(module: object) -> str:
    return str(getattr(getattr(module, "__spec__", None), "origin", None) or "")


def module_of(name: str) -> str:
    return name[: -len(".py")].replace("/", ".").removesuffix(".__init__")


def main(work: Path) -> None:
    kept = unpack_site(work)
    sys.path.insert(0, str(SITE))
    from widgets.kernel import inpage

    inpage.prepare()
    for name in kept:  # and every module of the project's a table may load by name (a game's spec)
        if name.endswith(".py") and name.split("/")[0] in OURS and module_of(name) not in COMMAND_LINE:
            importlib.import_module(module_of(name))
    # Then, to a fixed point, every module named by an import statement (at a module's top or in a
    # function) of the shipped modules imported so far: what a table may import later, on a click.
    scanned: set[str] = set()
    while True:
        files = {origin for origin in map(origin_of, list(sys.modules.values())) if origin.startswith(f"{SITE}/")}
        if not files - scanned:
            break
        for origin in sorted(files - scanned):
            scanned.add(origin)
            for imported in sorted(imports_written(Path(origin))):
                try:
                    importlib.import_module(imported)
                except Exception:  # a name imported from a module, or a module Pyodide lacks: fine
                    pass
    used: set[str] = set()
    prefix = str(STDLIB) + "/"
    for origin in map(origin_of, list(sys.modules.values())):
        if origin.startswith(prefix):
            used.add(origin[len(prefix) :])
    with zipfile.ZipFile(STDLIB) as whole, zipfile.ZipFile(work / "stdlib.zip", "w") as out:
        for name in sorted(used):
            add(out, name + "c", bytecode(whole.read(name), name))
    with zipfile.ZipFile(work / "site.zip", "w") as out:
        for name in kept:
            data = (SITE / name).read_bytes()
            if name.endswith(".py"):
                add(out, name + "c", bytecode(data, name))
            else:
                add(out, name, data)
    report = {
        "stdlib_modules": sorted(module_of(name) for name in used),
        "stdlib_bytes": (work / "stdlib.zip").stat().st_size,
        "site_bytes": (work / "site.zip").stat().st_size,
        "whole_stdlib_bytes": STDLIB.stat().st_size,
        "site_modules": sorted(module_of(name[len(f"{SITE}/") :]) for name in scanned),
    }
    (work / "report.json").write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
