"""Disk faults for the tests of issue 28, point 10: files and folders that cannot be written, and a disk
that fills up and empties again.

:func:`read_only` makes files and folders read-only for every process, the server's and its kernels'
included: as root (who may write a read-only file) by making them immutable (``chattr +i``, as an
attacker with root would), otherwise by taking away their write permission. :func:`small_disk` is a
folder on a small disk of its own (a 4 MB tmpfs, mounted by root), which :meth:`SmallDisk.fill`
fills to the last byte and :meth:`SmallDisk.free` empties again. A test skips where the machine
cannot do it (not root, or no tmpfs).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT_USER = os.geteuid() == 0


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """``paths`` cannot be written by anyone while inside; as they were after. What was written is
    flushed to the disk first, as the system does within seconds anyway: a page of a file mapped into
    memory is then clean, and a process's next write to it asks the file system (which refuses an
    immutable file's)."""
    done: list[tuple[Path, int]] = []
    os.sync()
    try:
        for path in paths:
            if ROOT_USER:
                made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
                if made.returncode != 0:
                    pytest.skip(f"chattr +i is not supported here: {made.stderr.strip()}")
                done.append((path, -1))
            else:
                mode = stat.S_IMODE(path.stat().st_mode)
                path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
                done.append((path, mode))
        yield
    finally:
        for path, mode in reversed(done):
            if mode < 0:
                subprocess.run(["chattr", "-i", str(path)], check=False)
            else:
                path.chmod(mode)


def database_files(db: Path) -> list[Path]:
    """The database file, what SQLite keeps beside it (its journal, if any), and their folder."""
    return [*sorted(db.parent.glob(db.name + "*")), db.parent]


@dataclass
class SmallDisk:
    """A folder on a disk of a few megabytes of its own."""

    folder: Path

    @property
    def filler(self) -> Path:
        return self.folder / "filler"

    def fill(self) -> None:
        """Take every free byte of the disk."""
        chunk = b"\0" * 65536
        out = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (65536, 4096, 512, 1):
                try:
                    while os.write(out, chunk[:size]):
                        pass
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
        finally:
            os.close(out)
        assert shutil.disk_usage(self.folder).free < 4096, "the disk did not fill up"

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


@contextlib.contextmanager
def small_disk(where: Path, megabytes: int = 4) -> Iterator[SmallDisk]:
    """A tmpfs of ``megabytes`` mounted at ``where`` (made if missing), unmounted after."""
    if not ROOT_USER:
        pytest.skip("a disk that fills up is a tmpfs of its own, which only root can mount")
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m,mode=0700", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"a tmpfs cannot be mounted here: {mounted.stderr.strip()}")
    try:
        yield SmallDisk(where)
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], check=False)


def saved_count(db: Path, table_id: str) -> int:
    """How many events the database holds for the table, read without writing anything (the test's own
    look must not change the disk it looks at)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as con:
        row = con.execute("SELECT events FROM tables WHERE id = ?", (table_id,)).fetchone()
    return int(row[0]) if row else -1
