"""The rest of Python's standard library, for a table in the reader's browser, fetched when first asked for.

The book ships the browser a standard library cut down to the modules a table imports, compiled
(``web/compile_inpage.py``). Should a table ever import a standard module left out of it, the finder
installed here fetches Pyodide's whole library (the source files, beside the cut one on the site) the
first time, and the import goes on from it: the reader waits a moment instead of losing the table.
The page's log says which module was asked for, so a maintainer adds it to the cut (a test checks
that no table of the book's needs it).
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from types import ModuleType

WHOLE = "/lib/python-whole-stdlib.zip"


@dataclass(eq=False)  # a finder is itself, whatever its fields
class WholeLibrary:
    """A finder last on ``sys.meta_path``, asked only for what no other finder found.

    ``fetch`` returns the whole library's zip (called once, on the first miss); ``log`` takes a line
    for the page's log; ``names`` are the standard library's top-level module names."""

    fetch: Callable[[], bytes]
    log: Callable[[str], None]
    names: frozenset[str] = frozenset(sys.stdlib_module_names)
    where: str = WHOLE
    fetched: bool = False

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name.partition(".")[0] not in self.names:
            return None
        if not self.fetched:
            self.log(f"the standard library's module {name} was not in the book's cut: fetching the whole library")
            try:
                data = self.fetch()
            except Exception as error:  # offline, say: the import fails as it would have
                self.log(f"the whole standard library could not be fetched: {error}")
                return None
            with open(self.where, "wb") as out:
                out.write(data)
            self.fetched = True
        else:
            self.log(f"the standard library's module {name} comes from the whole library")
        package = name.rpartition(".")[0].replace(".", "/")
        entry = f"{self.where}/{package}" if package else self.where
        return importlib.machinery.PathFinder.find_spec(name, [entry])


def install(fetch: Callable[[], bytes], log: Callable[[str], None]) -> WholeLibrary:
    """Put the finder last on ``sys.meta_path`` (once) and return it."""
    for finder in sys.meta_path:
        if isinstance(finder, WholeLibrary):
            return finder
    finder = WholeLibrary(fetch, log)
    sys.meta_path.append(finder)
    return finder
