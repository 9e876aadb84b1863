"""Write constraints.txt: the exact version of every Python package the README's commands install.

``make lock`` runs this. It resolves pyproject.toml's ranges (the dependencies and the ``test``
and ``postgres`` extras) afresh with pip, as a dry run that installs nothing, for Python 3.11.2: Debian 12's Python,
the oldest the project promises to run on. Resolving for the Python that happens to run this
script instead once pinned a package that needs 3.11.5, and a fresh Debian 12 could not install
it. pip and setuptools are pinned too, since the Makefile upgrades them before installing.

Usage: python tools/lock.py [OUTPUT]   (default: constraints.txt beside pyproject.toml)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_PYTHON = "3.11.2"
HEADER = (
    "# Exact versions of every Python package 'make serve' and 'make test' install.\n"
    f"# Written by 'make lock' (tools/lock.py) from pyproject.toml's ranges, for Python {TARGET_PYTHON}"
    " and up; do not edit by hand.\n"
)


def requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return ["pip", "setuptools", *project["dependencies"], *extras["test"], *extras["postgres"]]


def resolve(wanted: list[str]) -> dict[str, str]:
    """Name -> version of everything pip would install for ``wanted`` on the target Python."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--dry-run",
            "--ignore-installed",
            "--python-version",
            TARGET_PYTHON,
            "--only-binary=:all:",
            "--report",
            str(report),
            *wanted,
        ]
        subprocess.run(command, check=True)
        installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    return {item["metadata"]["name"]: item["metadata"]["version"] for item in installs}


def main(argv: list[str]) -> int:
    output = Path(argv[0]) if argv else ROOT / "constraints.txt"
    pins = resolve(requirements())
    lines = [f"{name}=={version}" for name, version in sorted(pins.items(), key=lambda item: item[0].lower())]
    output.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} pins to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
