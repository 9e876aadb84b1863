"""The in-browser table's last resort for a standard module left out of the book's compiled cut
(widgets.kernel.stdlib): the whole library is fetched once, on the first miss, and the import goes on."""

from __future__ import annotations

import io
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from widgets.kernel.stdlib import WholeLibrary, install

NAMES = frozenset({"lanterloo_probe_mod", "lanterloo_probe_pkg", "lanterloo_probe_cut"})


def whole_library() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("lanterloo_probe_mod.py", "ANSWER = 42\n")
        archive.writestr("lanterloo_probe_pkg/__init__.py", "")
        archive.writestr("lanterloo_probe_cut/__init__.py", "IN_THE_CUT = False\n")
        archive.writestr("lanterloo_probe_cut/extra.py", "FROM = 'whole'\n")
        archive.writestr("lanterloo_probe_pkg/sub.py", "from lanterloo_probe_mod import ANSWER\nTWICE = 2 * ANSWER\n")
    return buffer.getvalue()


@pytest.fixture
def finder(tmp_path: Path) -> Iterator[tuple[WholeLibrary, list[str], list[str]]]:
    fetched: list[str] = []
    lines: list[str] = []

    def fetch() -> bytes:
        fetched.append("whole")
        return whole_library()

    found = WholeLibrary(fetch, lines.append, NAMES, str(tmp_path / "whole.zip"))
    sys.meta_path.append(found)
    try:
        yield found, fetched, lines
    finally:
        sys.meta_path.remove(found)
        for name in [n for n in sys.modules if n.startswith("lanterloo_probe")]:
            del sys.modules[name]


def test_a_missing_standard_module_and_a_submodule_come_from_one_fetch_of_the_whole_library(
    finder: tuple[WholeLibrary, list[str], list[str]],
) -> None:
    _, fetched, lines = finder
    import lanterloo_probe_pkg.sub  # type: ignore[import-not-found]

    assert lanterloo_probe_pkg.sub.TWICE == 84
    assert fetched == ["whole"]  # once, for the package, its module and the module it imports
    assert "lanterloo_probe_pkg was not in the book's cut" in lines[0]
    assert lines[1:] == ["the standard library's module lanterloo_probe_mod comes from the whole library"]


def test_a_submodule_left_out_of_a_package_in_the_cut_comes_from_the_whole_library(
    finder: tuple[WholeLibrary, list[str], list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, fetched, _ = finder
    cut = tmp_path / "cut"
    (cut / "lanterloo_probe_cut").mkdir(parents=True)
    (cut / "lanterloo_probe_cut" / "__init__.py").write_text("IN_THE_CUT = True\n")
    monkeypatch.syspath_prepend(str(cut))
    import lanterloo_probe_cut.extra  # type: ignore[import-not-found]

    assert lanterloo_probe_cut.IN_THE_CUT and lanterloo_probe_cut.extra.FROM == "whole"
    assert fetched == ["whole"]


def test_a_module_outside_the_standard_library_is_not_its_business(
    finder: tuple[WholeLibrary, list[str], list[str]],
) -> None:
    _, fetched, lines = finder
    with pytest.raises(ModuleNotFoundError):
        import lanterloo_not_a_module  # type: ignore[import-not-found]  # noqa: F401
    assert fetched == [] and lines == []


def test_offline_the_import_fails_as_it_would_have_and_the_log_says_why(tmp_path: Path) -> None:
    def fetch() -> bytes:
        raise OSError("the network is down")

    lines: list[str] = []
    found = WholeLibrary(fetch, lines.append, NAMES, str(tmp_path / "whole.zip"))
    sys.meta_path.append(found)
    try:
        with pytest.raises(ModuleNotFoundError):
            import lanterloo_probe_mod  # type: ignore[import-not-found]  # noqa: F401
    finally:
        sys.meta_path.remove(found)
    assert "could not be fetched: the network is down" in lines[-1]
    assert not found.fetched


def test_installed_once_and_last() -> None:
    before = list(sys.meta_path)
    try:
        first = install(whole_library, print)
        assert install(whole_library, print) is first
        assert sys.meta_path[-1] is first and len(sys.meta_path) == len(before) + 1
    finally:
        sys.meta_path[:] = before
