"""The console scripts pyproject.toml declares exist, and answer --help under their own names."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

SCRIPTS = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]["scripts"]


def test_the_two_scripts_are_declared() -> None:
    assert set(SCRIPTS) == {"lanterloo", "loo"}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_each_script_answers_help_under_its_own_name(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    module, _, function = SCRIPTS[name].partition(":")
    main = getattr(importlib.import_module(module), function)
    monkeypatch.setattr(sys, "argv", [f"/somewhere/bin/{name}", "--help"])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: {name} ")


def test_output_into_a_closed_pipe_ends_quietly() -> None:
    """``loo ... | head`` where head has gone: no traceback, the shell's status for SIGPIPE."""
    root = Path(__file__).resolve().parents[2]
    reader, writer = os.pipe()
    os.close(reader)  # nobody will read what loo writes
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}  # stdout buffered
    try:
        done = subprocess.run(
            [sys.executable, "-m", "loo", "deal", "--seed", "1", "--cards"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            cwd=root,
            env=env,
        )
    finally:
        os.close(writer)
    assert "Traceback" not in done.stderr and done.stderr == ""
    assert done.returncode == 141
