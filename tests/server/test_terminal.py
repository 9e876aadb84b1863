"""A quiet teacher's terminal (issue 29, point 6): what `lanterloo --class` prints from its start to its
tables being ready, as a teacher who mirrors the terminal on the projector sees it.

One block, once every preheated table is ready: where games are saved, the addresses students type
with their QR code, where the teacher's console is (never its token). Voila's own address line, the
notebooks' trust warnings and the kernels' lines go to the server's log file only, unless the
terminal is asked for them (``--log-level info``, which every other test's server is given)."""

from __future__ import annotations

import urllib.parse
import urllib.request
from pathlib import Path

from tests.conftest import serve_server, table_folder

TABLE = "three-card-loo"


def test_the_class_terminal_says_ready_once_with_the_addresses_and_keeps_the_rest_in_the_log(tmp_path: Path) -> None:
    tables = table_folder(tmp_path / "tables", TABLE)
    with serve_server(tmp_path, "--class", "--class-size", "2", "--log-level", "warning", tables=tables) as served:
        port = urllib.parse.urlsplit(served.base).port
        terminal = served.ready()
        # The address students are given opens their landing, not the book (issue 29, point 1).
        with urllib.request.urlopen(served.base + "/", timeout=30) as landing:
            assert landing.url == served.base + "/join" and b"Join your table" in landing.read()
        token = served.console_token()
        log_file = tmp_path / f"server-{port}.log"
        log = log_file.read_text()

    assert "Ready: 2 tables waiting for readers." in terminal, terminal
    lines = [line for line in terminal.splitlines() if line.strip()]
    # The first line says what is being made ready; nothing but the one block follows it.
    assert lines[0].startswith("Making 2 tables ready, 2 of them of three-card-loo for a class"), lines[0]
    assert lines[1].startswith("Ready:"), lines[:3]
    assert terminal.count("Ready:") == 1
    for said in ("Games are saved in", f"The server's log: {log_file}", "The teacher's console is at",
                 f"Lanterloo is being served at http://127.0.0.1:{port}/"):  # fmt: skip
        assert said in terminal, (said, terminal)
    # Voila's own address (another one), the trust warnings and the kernels' lines: in the log alone.
    for noise in ("Voilà is running at", "is not trusted", "Kernel pool of", "Kernel started"):
        assert noise not in terminal, (noise, terminal)
    for kept in ("Voilà is running at", "is not trusted", "Kernel pool of"):
        assert kept in log, (kept, log[-2000:])
    assert token not in terminal and token not in log
    assert "Traceback" not in terminal
