"""No module of the engine or the widgets grows past about 600 lines (issue 19): a module that long
owns more than one thing, and should be split by what it owns."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 620  # "about 600"


def test_no_module_of_the_engine_or_widgets_is_longer_than_about_600_lines() -> None:
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for folder in ("loo", "widgets")
        for path in (ROOT / folder).rglob("*.py")
    }
    assert len(sizes) > 50, "the engine's and widgets' modules were not found"
    too_long = {name: n for name, n in sizes.items() if n > LIMIT}
    assert too_long == {}, f"split these modules by what they own: {too_long}"


def test_no_module_meets_its_size_by_packing_lines_past_the_formatter() -> None:
    """Issue 30, point 7: modules once stayed under the limit with 114 ``# fmt: skip`` lines packing
    calls and lists onto fewer lines. The formatter lays out every line of the engine and the widgets."""
    packed = [
        f"{path.relative_to(ROOT).as_posix()}:{number}"
        for folder in ("loo", "widgets")
        for path in (ROOT / folder).rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "fmt: skip" in line or "fmt: off" in line
    ]
    assert packed == [], f"let ruff format lay these out: {packed}"
