"""The server's command line: its options and what each one says (``lanterloo --help``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from widgets.server.guards import DEFAULT_REQUEST_TIMEOUT
from widgets.server.pages import DEFAULT_BOOK, DEFAULT_TABLES
from widgets.server.seats import DEFAULT_MAX_TABLES
from widgets.server.sockets import RECONNECT_GRACE_SECONDS


def command_line(program: str) -> argparse.ArgumentParser:
    """The options of ``lanterloo`` (``program`` is how it was run); Voila's own settings pass through
    as ``--Class.name=value`` (:func:`widgets.server.app.passed_settings`)."""
    parser = argparse.ArgumentParser(
        prog=program,
        description="Serve Lanterloo's built book and its live tables on one address.",
        epilog=(
            "Any --Class.name=value is passed to Voila's configuration, for example "
            "--MappingKernelManager.cull_interval=30 or --VoilaExecutor.iopub_timeout=120 (every response is "
            "gzipped already); "
            "--ServerApp.name=value sets Voila's own setting of that name. "
            "Without --ip the server answers only this computer (127.0.0.1)."
        ),
        allow_abbrev=False,
    )
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000)")
    parser.add_argument(
        "--ip",
        default=None,
        help="the network address to listen on, which decides who can reach the server: 127.0.0.1 (the "
        "default) this computer only; 0.0.0.0 every computer on its networks, so that a class can reach "
        "it (the server then prints the addresses students type, with a QR code); one of the machine's "
        "addresses, that network only",
    )
    parser.add_argument(
        "--class",
        dest="teach",
        action="store_true",
        help="serve a class: listen on every network address (as --ip 0.0.0.0, unless --ip is given), print "
        "the addresses students type with a QR code (also shown large at /class, for a projector), open the "
        "students' page (/join: a seat's code, playing alone, the book) at the root address, and preheat "
        "--class-size tables",
    )
    parser.add_argument(
        "--class-size",
        type=int,
        default=None,
        metavar="N",
        help="students who open a table at about the same moment: N kernels of the class's table "
        "(--class-table) are started before they come, each about 50 MB (default: 30 with --class, else 1)",
    )
    parser.add_argument(
        "--class-table",
        action="append",
        default=[],
        metavar="NAME",
        help="the table a class plays, preheated for --class-size students (may be given more than once; "
        "default: three-card-loo); every other table keeps one kernel ready",
    )
    parser.add_argument(
        "--reconnect-grace",
        type=float,
        default=RECONNECT_GRACE_SECONDS,
        metavar="SECONDS",
        help="a table whose page went without a word (a crashed browser, a dropped network) is shut down this "
        "long after its connection closed, unless the page came back meanwhile (default: "
        f"{RECONNECT_GRACE_SECONDS:g})",
    )
    parser.add_argument(
        "--base-url",
        default="/",
        metavar="PATH",
        help="the path the server is reached under, for one behind a reverse proxy that passes the path on "
        "as it came: with /loo/, the book is at /loo/ and the tables at /loo/tables/ (default: /)",
    )
    parser.add_argument("--book", type=Path, default=DEFAULT_BOOK, help="the built book (default: _build/html)")
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES, help="folder holding only the table notebooks")
    parser.add_argument(
        "--max-idle",
        type=int,
        default=900,
        help="seconds a table's kernel may sit idle with no page connected before it is shut down (default: 900)",
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=None,
        help=(
            f"live tables open at once (default: {DEFAULT_MAX_TABLES}, or --class-size and 10 more if that is more); "
            "past that a reader gets a 'tables are full' page, and their saved game waits. Each table's kernel "
            "takes about 50 MB of memory, 40 about 2 GB, besides the kernels kept ready (one per table game, "
            "and --class-size for a class's table)"
        ),
    )
    parser.add_argument(
        "--max-tables-per-client",
        type=int,
        default=None,
        help="live tables (and new tables just handed out) one client address may have at once (default: "
        "all of them up to 8, else three quarters of --max-tables and at least 8: 30 of 40). A class behind "
        "one router shares one address: raise it for such a class, or set it to --max-tables to turn the "
        "share off",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the server answers to, besides localhost, this machine's host name and its IP addresses "
        "(may be given more than once): a request whose Host is none of these is refused, so that no other site "
        "can reach the tables by pointing its name at this machine",
    )
    parser.add_argument(
        "--behind-proxy",
        action="store_true",
        help="take a reader's address from the X-Real-IP (or X-Forwarded-For) header a reverse proxy sets, so "
        "that --max-tables-per-client counts each reader's address and not the proxy's; only for a server that "
        "nothing but the proxy can reach",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=DEFAULT_REQUEST_TIMEOUT,
        help=f"seconds the server waits for a request's headers, for its body, and on an idle connection "
        f"(default: {DEFAULT_REQUEST_TIMEOUT:g})",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="where games are saved: an SQLite file (default: $LANTERLOO_DB, else the user's data folder), or a "
        "PostgreSQL address, postgresql://user@host/dbname, which several server processes or machines may share",
    )
    parser.add_argument(
        "--keep-days", type=float, default=365, help="forget games not played for this many days (default: 365)"
    )
    parser.add_argument(
        "--log-file",
        type=Path,
        default=None,
        help="the server's log, every line of it (default: server-<port>.log in $LANTERLOO_LOG_DIR, else in "
        "~/.cache/lanterloo/logs)",
    )
    parser.add_argument(
        "--log-level",
        choices=["debug", "info", "warning", "error"],
        default="warning",
        help="the least serious log lines shown on the terminal as well as in the log file (default: warning; "
        "info shows Voila's and each kernel's lines, as the log file has them)",
    )
    return parser
