"""Debian's nginx, run by the tests themselves (``make test`` installs ``nginx-light``): in front of two
Lanterloo processes (``deploy/nginx.conf``, tests/browser/test_deploy.py) and as the static host the
in-browser tables are tested on (``deploy/static-nginx.conf``, :func:`static_conf`), each with its own
pid file and error log in a temporary folder, stopped when its block ends."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

NGINX = Path("/usr/sbin/nginx")
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@contextlib.contextmanager
def running_nginx(folder: Path, conf: str, port: int) -> Iterator[None]:
    """Debian's nginx with ``conf``, its pid and error log in ``folder``, until the block ends."""
    if not NGINX.exists():
        pytest.fail("nginx is not installed: apt-get install nginx-light (make test installs it)")
    (folder / "nginx.conf").write_text(conf)
    settings = f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log;"
    if os.geteuid() == 0:
        # Started by root, nginx's workers would run as nobody, who may not read a clone made in a
        # private folder (mktemp -d): they run as the tests' own user, as a non-root nginx's do.
        settings += " user root;"
    proc = subprocess.Popen([str(NGINX), "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", settings])
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                log = (folder / "error.log").read_text() if (folder / "error.log").exists() else ""
                pytest.fail(f"nginx did not start: {log[-2000:]}")
            time.sleep(0.1)
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def static_conf(root: Path, port: int) -> str:
    """deploy/static-nginx.conf with ``root`` for the book's folder and nginx at ``port`` on loopback."""
    text = (DEPLOY / "static-nginx.conf").read_text()
    assert text.count("root /srv/lanterloo;") == 1 and text.count("listen 8080;") == 1
    return text.replace("root /srv/lanterloo;", f"root {root};").replace("listen 8080;", f"listen 127.0.0.1:{port};")
