"""The build's own scripts under ``web/`` (not a package), loaded as modules for the tests."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from tests.conftest import ROOT


def web_module(name: str) -> ModuleType:
    """``web/<name>.py``, loaded afresh."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "web" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
