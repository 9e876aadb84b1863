"""The deployment recipe (``deploy/``) for a school: its ``nginx.conf``, run by Debian's nginx, in
front of two Lanterloo processes under the base URL ``/loo/`` that share one PostgreSQL database
(:mod:`tests.helpers.postgres`). No container runtime runs on the test machines, so the compose
file's nginx configuration is what is tested, with the ports of the processes put in place of the
compose services' names.

A table opened through one process is played on through the other (the same ``?table=`` address
resumes the saved game there), and when a process stops, its readers' tables come back through the
other at their last move, and through the process itself once it is started again. No browser:
HTTP and the kernel websocket (:class:`tests.kernel_client.TableClient`), through nginx.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import urllib.request
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT, Served, _free_port, run_async, serve_server
from tests.helpers.nginx import running_nginx
from tests.kernel_client import TableClient, fetch

DEPLOY = ROOT / "deploy"
TABLE = "three-card-loo"
DEAL = "deal=l3.peel.s0.n12"
PREFIX = "/loo/"
WAIT = 120.0


def nginx_conf(first: int, second: int, listen: int) -> str:
    """deploy/nginx.conf with the two processes at ``first`` and ``second`` and nginx at ``listen``."""
    text = (DEPLOY / "nginx.conf").read_text()
    for name, port in (("lanterloo-1:8000", first), ("lanterloo-2:8000", second)):
        assert text.count(f"server {name} ") == 1, f"nginx.conf names {name} once"
        text = text.replace(f"server {name} ", f"server 127.0.0.1:{port} ")
    assert text.count("listen 80;") == 1
    return text.replace("listen 80;", f"listen 127.0.0.1:{listen};")


def cookie(key: str) -> dict[str, str]:
    """The cookie nginx.conf routes a browser by."""
    return {"Cookie": f"lanterloo_server={key}"}


async def play_one(client: TableClient) -> str:
    """One move of the reader's (or the next hand, if the hand is over); the board after it."""
    before = client.board()
    choices = client.choices()
    msg_id = await client.click(choices[0] if choices else client.button("loo-next"))
    await client.settled(msg_id)
    return await client.wait_for(lambda: client.board() if client.board() != before else None, 30, "a move")


async def routed_elsewhere(site: str, kernel_id: str) -> str:
    """A cookie key that nginx routes to the process that does not run ``kernel_id``."""
    for n in range(1, 64):
        if (await fetch(f"{site}/api/kernels/{kernel_id}", headers=cookie(f"reader-{n}"))).code == 404:
            return f"reader-{n}"
    raise AssertionError("nginx sent every browser to one process")


def test_the_compose_file_runs_two_processes_under_the_base_url_nginx_serves() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    conf = (DEPLOY / "nginx.conf").read_text()
    assert services["nginx"]["volumes"] == ["./nginx.conf:/etc/nginx/nginx.conf:ro"]
    for name in ("lanterloo-1", "lanterloo-2"):
        command = services[name]["command"]
        assert f"--base-url={PREFIX}" in command and any(c.startswith("--db=postgresql://") for c in command)
        assert f"server {name}:8000 " in conf, f"nginx.conf sends readers to {name}"
    assert f"location {PREFIX} " in conf and f"Path={PREFIX};" in conf
    assert '"/srv/lanterloo/.venv/bin/lanterloo"' in (DEPLOY / "Dockerfile").read_text()


def test_two_processes_behind_nginx_share_the_tables_and_a_restart_loses_nothing(
    postgres: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    db = postgres.new_database()
    tables = tmp_path_factory.mktemp("one-table")
    shutil.copy(ROOT / "book" / "tables" / f"{TABLE}.ipynb", tables)
    ports = {"a": _free_port(), "b": _free_port()}
    proxy = _free_port()
    site = f"http://127.0.0.1:{proxy}{PREFIX}".rstrip("/")

    def start(name: str) -> contextlib.AbstractContextManager[Served]:
        folder = tmp_path_factory.mktemp(f"process-{name}")
        extra = ("--db", db, "--behind-proxy")
        return serve_server(folder, *extra, tables=tables, base_url=PREFIX, port=ports[name])

    with contextlib.ExitStack() as everything:
        stoppable = {name: contextlib.ExitStack() for name in ports}  # each process can be stopped alone
        for stack in stoppable.values():
            everything.enter_context(stack)
        processes = {name: stoppable[name].enter_context(start(name)) for name in ports}
        conf = nginx_conf(ports["a"], ports["b"], proxy)
        everything.enter_context(running_nginx(tmp_path_factory.mktemp("nginx"), conf, proxy))

        def owner(kernel_id: str) -> str:
            (name,) = [n for n, p in processes.items() if kernel_id in p.kernel_ids()]
            return name

        async def scenario() -> None:
            # The book and the tables' scripts, through nginx, compressed.
            for path in ("/book/teaching.html", "/tables/voila-startup.js"):
                asked = urllib.request.Request(site + path, headers={"Accept-Encoding": "gzip"})
                with urllib.request.urlopen(asked, timeout=WAIT) as answer:
                    assert answer.status == 200 and answer.headers["Content-Encoding"] == "gzip", path
            # A reader opens a table through nginx and plays; which process has its kernel?
            first = await TableClient.open(site, TABLE, DEAL, timeout=WAIT, headers=cookie("reader-0"))
            table_id = first.table_id
            assert table_id is not None
            here = owner(first.kernel_id)
            there = next(n for n in processes if n != here)
            await play_one(first)
            board = await play_one(first)
            # A browser whose cookie nginx sends to the other process: that process has no such kernel.
            key = await routed_elsewhere(site, first.kernel_id)
            await first.close(shutdown=True)
            # The same table's address through the other process resumes the game, and plays on.
            second = await TableClient.open(site, TABLE, f"table={table_id}", timeout=WAIT, headers=cookie(key))
            assert owner(second.kernel_id) == there and second.table_id == table_id
            assert second.board() == board, "the game as it was left in the other process"
            board = await play_one(second)
            await second.close()  # the page goes without a word: its process is about to stop
            # That process stops: its reader's table comes back through the other one, at its last move.
            stoppable[there].close()
            processes[there].process.wait(timeout=30)
            third = await TableClient.open(site, TABLE, f"table={table_id}", timeout=WAIT, headers=cookie(key))
            assert third.kernel_id in processes[here].kernel_ids()
            assert third.board() == board, "nothing lost when a process stopped"
            board = await play_one(third)
            await third.close(shutdown=True)
            # Started again, the process serves the same table at its last move (asked directly:
            # nginx leaves a process it found down alone for ten seconds).
            processes[there] = stoppable[there].enter_context(start(there))
            direct = f"http://127.0.0.1:{ports[there]}{PREFIX}".rstrip("/")
            fourth = await TableClient.open(direct, TABLE, f"table={table_id}", timeout=WAIT)
            assert fourth.board() == board, "nothing lost when a process restarted"
            await fourth.close(shutdown=True)
            assert re.fullmatch(r"[\w-]{22}", table_id)

        run_async(scenario())
