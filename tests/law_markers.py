"""Which tests check which law: the ``@pytest.mark.law(...)`` markers, read from the test files' source.

The coverage account (tests/engine/test_law_coverage.py) and the book's index of laws
(book/_ext/lanterloo_laws.py) both read the markers here, with ``ast`` and without running pytest,
so either works alone. A marker counts where pytest applies it: on a test function, on a test class
(each of its tests), or as a module's ``pytestmark`` (each test of the file). A law ID in a comment,
a name or a docstring does not count.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _marked_laws(node: ast.expr) -> list[str]:
    """The law IDs of ``pytest.mark.law("A", "B")`` (also in a list or tuple of markers)."""
    if isinstance(node, ast.List | ast.Tuple):
        return [law for element in node.elts for law in _marked_laws(element)]
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("pytest.mark.law", "mark.law"):
        return [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    return []


def _from_decorators(decorators: Iterable[ast.expr]) -> list[str]:
    return [law for decorator in decorators for law in _marked_laws(decorator)]


def markers_in(path: Path) -> dict[str, list[str]]:
    """``{test id: [law IDs]}`` for one test file; a test id is ``tests/x/test_y.py::test_z``
    (``::Class::test_z`` for a method), relative to the repository."""
    tree = ast.parse(path.read_text(), filename=str(path))
    name = path.resolve().relative_to(ROOT).as_posix()
    module: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            module += _marked_laws(node.value)
    found: dict[str, list[str]] = {}

    def visit(body: list[ast.stmt], prefix: str, inherited: list[str]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                laws = inherited + _from_decorators(node.decorator_list)
                if laws:
                    found[f"{name}::{prefix}{node.name}"] = list(dict.fromkeys(laws))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                visit(node.body, f"{prefix}{node.name}::", inherited + _from_decorators(node.decorator_list))

    visit(tree.body, "", module)
    return found


def law_markers(folder: Path = TESTS) -> dict[str, list[str]]:
    """``{test id: [law IDs]}`` for every test file under ``folder`` (all of tests/ by default)."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("test_*.py")):
        found.update(markers_in(path))
    return found


def marked_tests_by_law(folder: Path = TESTS) -> dict[str, list[str]]:
    """``{law ID: [test ids]}``: the other way round, each law's tests in file order."""
    tests: dict[str, list[str]] = {}
    for test, laws in law_markers(folder).items():
        for law in laws:
            tests.setdefault(law, []).append(test)
    return tests
