"""The service worker's writer (web/service_worker.py): what sw.js is told of a build, and its version."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers.web import web_module

service_worker = web_module("service_worker")

MANIFEST = {
    "files": {
        "../pyodide/pyodide.mjs": "a1",
        "../pyodide/pyodide.asm.wasm": "a2",
        "../pyodide/python_stdlib.zip": "a3",
    },
    "pyodide": "../pyodide/",
    "site": {"site.zip": "b1"},
    "stdlib": {"stdlib.zip": "b2"},
    "worker": {"worker.mjs": "b3"},
}


def folder_with(tmp_path: Path, manifest: dict[str, object]) -> Path:
    (tmp_path / "inpage").mkdir(exist_ok=True)
    (tmp_path / "inpage" / "manifest.json").write_text(json.dumps(manifest))
    return tmp_path


def test_the_worker_knows_every_file_a_table_fetches_by_its_path_and_digest(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, MANIFEST)
    build = service_worker.build_of(folder, "pages-1")
    manifest_digest = hashlib.sha256((folder / "inpage" / "manifest.json").read_bytes()).hexdigest()[:16]
    assert build["files"] == {
        "inpage/manifest.json": manifest_digest,
        "inpage/site.zip": "b1",
        "inpage/stdlib.zip": "b2",
        "inpage/worker.mjs": "b3",
        "pyodide/pyodide.asm.wasm": "a2",
        "pyodide/pyodide.mjs": "a1",
        "pyodide/python_stdlib.zip": "a3",
    }
    # Kept when a table is opened: all but Pyodide's whole standard library, kept only if fetched.
    assert build["table"] == sorted(set(build["files"]) - {"pyodide/python_stdlib.zip"})
    assert build["lazy"] == ["pyodide/python_stdlib.zip"]


def test_a_changed_file_or_page_is_a_new_version_and_the_same_build_the_same_worker(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, MANIFEST)
    assert service_worker.write(folder, "pages-1")
    first = (folder / "sw.js").read_text()
    assert not service_worker.write(folder, "pages-1"), "the same build rewrote sw.js"
    version = service_worker.build_of(folder, "pages-1")["version"]
    assert f'"version": "{version}"' in first and "const BUILD = null;" not in first
    assert service_worker.build_of(folder, "pages-2")["version"] != version
    changed = json.loads(json.dumps(MANIFEST))
    changed["worker"]["worker.mjs"] = "b4"
    assert service_worker.build_of(folder_with(tmp_path, changed), "pages-1")["version"] != version


def test_the_workers_digest_of_a_file_is_the_builds(tmp_path: Path) -> None:
    """sw.js keeps a table's file only if its SHA-256 digest, as it computes it, is the one
    web/build_inpage.py wrote: the two must agree on bytes of every value."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed (make book needs it too): apt-get install nodejs")
    source = (ROOT / "web" / "sw.js").read_text()
    [function] = re.findall(r"async function digestOf\(buffer\) \{.*?\n\}", source, re.S)
    data = bytes(range(256)) * 41
    script = f"{function}\ndigestOf(new Uint8Array({list(data)})).then((d) => console.log(d));"
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == service_worker.digest(data) == hashlib.sha256(data).hexdigest()[:16]
