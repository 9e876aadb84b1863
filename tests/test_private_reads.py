"""No module of ``loo`` or ``widgets`` reads or sets another object's private attributes (issue 30, point 4).

A name that begins with one underscore is its module's own: any code in the module that defines it (a
method, an attribute given a value, or one declared in a class body) may use it on any object, as a
class's copy of itself or a class method's new instance does. Elsewhere ``obj._name`` is refused, for
an object of the project's own classes and of other packages' alike: each place that needs something of
another module asks for it by a public name. :data:`OTHER_PACKAGES` lists the few private names of
other packages that the server must reach, each with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("loo", "widgets")

# Private names of other packages used on purpose, with why; nothing of the project's own is here.
OTHER_PACKAGES = {
    "_SubParsersAction": "argparse names the type of add_subparsers() only so (loo.cli, loo.review_cli)",
    "_Environ": "os.environ's type, for a function that takes it or a plain dict (widgets.kernel.table_kernel)",
    "_initialize": "Voila's kernel pool fills itself only through it (widgets.server.app)",
    "_handle_signal_stop": "jupyter_server's Ctrl-C handler, called after the server's goodbye (widgets.server.app)",
    "_request_summary": "tornado's one-line summary of a request, for the access log (widgets.server.logs)",
    "_abort": "tornado's websocket connection has no public way to drop a client that reads nothing",
    "_cache": "Voila keeps each kernel's request details in a class-level dict it never empties (sockets.py)",
    "_waiters": "and the pages waiting for them in another: the server drops those of kernels gone",
}


def defined_here(tree: ast.Module) -> set[str]:
    """The private names a module defines: its functions and methods, the attributes its methods give
    values on their own object (``self._x = ...``) and those its class bodies declare."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def private_reads(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    own = defined_here(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and node.value.func.id == "super":
            continue
        if node.attr in own or node.attr in OTHER_PACKAGES:
            continue
        found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reads_another_objects_private_attributes() -> None:
    found = [
        line
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "share" not in path.relative_to(ROOT).parts
        for line in private_reads(path)
    ]
    assert found == [], "\n".join(found)


def test_the_check_finds_a_private_read_and_allows_a_modules_own(tmp_path: Path) -> None:
    """The rule itself, on a module written here: another module's private attribute is found; one
    this module defines, and the few of other packages listed, are not."""
    module = tmp_path / "probe.py"
    module.write_text(
        "class A:\n    def __init__(self):\n        self._mine = 1\n\n"
        "def copy(a, b, env):\n    b._mine = a._mine\n    return a._theirs, env._Environ\n"
    )
    assert private_reads(module, tmp_path) == ["probe.py:7: a._theirs"]
