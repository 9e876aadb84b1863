"""A PostgreSQL server of the tests' own: Debian's ``postgresql`` package, its cluster made with
``initdb`` in a temporary folder and started with ``pg_ctl`` on a free port of the loopback address
(``make test`` installs the package). PostgreSQL will not run as root: run as root, the tests run it
as the ``postgres`` user the package made, in a folder that user owns. It trusts every local
connection, keeps nothing past the session, and does not sync to disk (the tests' data is thrown away).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

USER = "lanterloo"  # the cluster's superuser, as the tests connect
INITDB = ("-E", "UTF8", "--locale=C", "--no-sync")
START = ("-w", "-t", "60", "start")  # and wait until it takes connections, a minute at most


def server_bin() -> Path | None:
    """The folder of the newest PostgreSQL's programs Debian installed, if any."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else None


@dataclass
class Postgres:
    """A running cluster: its port, and fresh databases on it for the tests."""

    port: int
    folder: Path
    _names: Iterator[int] = field(default_factory=itertools.count)
    _shared: str | None = None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The address of a new, empty database."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def emptied_database(self) -> str:
        """The address of the session's shared database with no tables in it (a few milliseconds,
        where a new database takes most of a second): for the store's tests, one at a time."""
        import psycopg

        if self._shared is None:
            self._shared = self.new_database()
        with psycopg.connect(self._shared, autocommit=True, options="-c lock_timeout=5000") as admin:
            admin.execute(
                "DROP TABLE IF EXISTS seat_codes, seats, pending_deals, opening_deals, events, tables, lanterloo_schema"
            )
        return self._shared

    def log(self) -> str:
        return (self.folder / "server.log").read_text(errors="replace")

    def processes(self) -> list[int]:
        """The cluster's processes: the postmaster (``postmaster.pid``'s first line) and its children."""
        postmaster = int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        children: list[int] = []
        for task in Path(f"/proc/{postmaster}/task").iterdir():
            with contextlib.suppress(OSError):
                children += [int(pid) for pid in (task / "children").read_text().split()]
        return [postmaster, *children]

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """The whole cluster stopped (SIGSTOP) for the block, as a database whose machine hangs: it
        takes connections (the kernel accepts them) and answers nothing. SIGCONT when the block ends,
        whatever happens in it. The postmaster is stopped first, so it starts no process meanwhile."""
        stopped: list[int] = []
        try:
            for pid in self.processes():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
                    stopped.append(pid)
            yield
        finally:
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster for the block's length (see the module's docstring)."""
    programs = server_bin()
    if programs is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql (make test installs it)")
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-postgres-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses root: its own user runs it, in a folder it owns
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", _free_port()
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
        "-c full_page_writes=off -c max_connections=200"
    )
    try:
        subprocess.run(
            [*as_user, str(programs / "initdb"), "-D", str(data), "-A", "trust", "-U", USER, *INITDB],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                *as_user,
                str(programs / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "server.log"),
                *START,
            ],
            check=True,
            capture_output=True,
        )
        yield Postgres(port, folder)
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(
                [*as_user, str(programs / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                capture_output=True,
            )
        shutil.rmtree(folder, ignore_errors=True)
