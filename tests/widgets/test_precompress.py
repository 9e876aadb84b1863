"""web/precompress.py: the compressed copies beside the in-browser tables' files."""

from __future__ import annotations

import gzip
import io
import os
import random
import sys
import zipfile
from pathlib import Path

import brotli

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "web"))
from precompress import BROTLI_BEST_UP_TO, precompress


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def stored_zip(files: dict[str, bytes]) -> bytes:
    """A zip that stores its files uncompressed, as web/compile_inpage.py writes its two."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_each_file_worth_it_gets_a_gzip_and_a_brotli_copy_that_give_it_back(tmp_path: Path) -> None:
    script = write(tmp_path / "inpage" / "worker.mjs", b"const answer = 42;\n" * 400)
    page = write(tmp_path / "play" / "nap.html", b"<p>A table in your browser.</p>\n" * 200)
    small = write(tmp_path / "inpage" / "tiny.js", b"let a = 1;\n")
    noise = write(tmp_path / "inpage" / "noise.js", random.Random(7).randbytes(50_000))  # compresses to nothing
    stored = write(tmp_path / "inpage" / "site.zip", stored_zip({"loo/a.pyc": b"code " * 2_000}))  # compressed whole
    font = write(tmp_path / "widgets" / "icons.woff2", b"w" * 5_000)
    assert precompress(tmp_path) == {"written": 6, "kept": 0, "removed": 0}
    for source in (script, page, stored):
        assert gzip.decompress(Path(f"{source}.gz").read_bytes()) == source.read_bytes()
        assert brotli.decompress(Path(f"{source}.br").read_bytes()) == source.read_bytes()
        assert Path(f"{source}.br").stat().st_size < Path(f"{source}.gz").stat().st_size < source.stat().st_size
    for left in (small, noise, font):
        assert not Path(f"{left}.gz").exists() and not Path(f"{left}.br").exists(), left


def test_a_second_build_writes_nothing_a_changed_file_is_copied_again_and_a_gone_ones_copies_go(tmp_path: Path) -> None:
    script = write(tmp_path / "a.js", b"function f() { return 1; }\n" * 300)
    gone = write(tmp_path / "b.css", b".loo { color: green; }\n" * 300)
    precompress(tmp_path)
    made = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    assert precompress(tmp_path) == {"written": 0, "kept": 4, "removed": 0}
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == made  # untouched
    write(script, b"function g() { return 2; }\n" * 300)
    later = made["a.js.gz"] + 10**9
    os.utime(script, ns=(later, later))  # newer than its copies, whatever the file system's clock grain
    gone.unlink()
    assert precompress(tmp_path) == {"written": 2, "kept": 0, "removed": 2}
    assert gzip.decompress((tmp_path / "a.js.gz").read_bytes()) == script.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.js", "a.js.br", "a.js.gz"]


def test_big_files_are_brotli_d_a_little_lower_and_still_given_back(tmp_path: Path) -> None:
    big = write(tmp_path / "runtime.wasm", bytes(range(256)) * (BROTLI_BEST_UP_TO // 256 + 10))
    precompress(tmp_path)
    assert brotli.decompress((tmp_path / "runtime.wasm.br").read_bytes()) == big.read_bytes()
