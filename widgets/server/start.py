"""The server's command line (``python -m widgets.server``, ``lanterloo``), in the steps of a start.

:func:`main` runs them in turn: :func:`read_command_line` (the arguments, then the files they
name), :func:`configure` (the tables' database, the kernels' environment, the port, the server's
own settings), :func:`build_app` (Voila made and initialised, its log), :func:`announce` (what a
teacher is told, once the tables are ready) and :func:`widgets.server.app.serve`. A step that
finds something wrong raises :class:`Refused`, which :func:`main` prints as one line, exiting with
status 2, before anything listens.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from traitlets.config import Config

from widgets.draw.card_style import PAGE_SHEET_ENV
from widgets.server.app import (
    BASE_URL,
    LanterlooServer,
    announce_when_ready,
    keep_own_tornado_settings,
    passed_settings,
    preheated_kernels,
    serve,
    server_config,
)
from widgets.server.classroom import class_banner, set_public_origin, student_addresses
from widgets.server.console_address import console_banner
from widgets.server.logs import share_server_log, split_server_log
from widgets.server.options import command_line
from widgets.server.pages import TABLE_NAME, TEMPLATES
from widgets.server.seats import DEFAULT_MAX_TABLES, default_share, open_tables_database
from widgets.store.postgres import is_database_url, shown
from widgets.store.sqlite import default_path
from widgets.views.safety import KERNEL_LOG_DAYS, log_dir, prune_kernel_logs

__all__ = ["Asked", "Built", "Configured", "Refused", "announce", "build_app", "configure", "main", "read_command_line"]

log = logging.getLogger("lanterloo.server")


class Refused(Exception):
    """Why the server will not start, in one line for the person starting it."""


@dataclass(frozen=True)
class Asked:
    """The command line, checked: its arguments (their defaults filled in) and what they name."""

    args: argparse.Namespace
    settings: list[str]  # Voila's settings passed through, as its ``initialize`` takes them
    base_url: str  # "/", or "/loo/"
    book: Path
    tables: Path
    pools: dict[str, int]  # the preheated kernels of each class table's notebook (--class-table, --class-size)
    db: Path | str  # an SQLite file, or a PostgreSQL address (several processes may share it)


@dataclass(frozen=True)
class Configured:
    """What :func:`configure` found and made: the database's state as the server starts, and the console's token."""

    not_saving: str | None  # None if games can be saved, else why not
    unused: int  # tables forgotten, never played
    idle: int  # tables forgotten, not played for --keep-days
    console_token: str  # the teacher's console's (widgets.server.console)


@dataclass(frozen=True)
class Built:
    """The server made, with the configuration it was made from and where its log goes."""

    app: LanterlooServer
    config: Config
    log_file: Path


def main(argv: list[str] | None = None) -> int:
    """Start the server as ``argv`` (else the command line) asks, and serve till stopped: 0; 2 if refused."""
    try:
        asked = read_command_line(argv)
        configured = configure(asked)
        built = build_app(asked)
    except Refused as refused:
        return _fail(str(refused))
    announce(asked, built, configured)
    serve(built.app, asked.args.port)
    return 0


def read_command_line(argv: list[str] | None) -> Asked:
    """The arguments, their defaults filled in and checked, then the files and folders they name."""
    args, extra = command_line(_program_name()).parse_known_args(argv)
    if args.ip is None:
        args.ip = "0.0.0.0" if args.teach else "127.0.0.1"
    if args.class_size is None:
        args.class_size = 30 if args.teach else 1
    if args.max_tables is None:
        args.max_tables = max(DEFAULT_MAX_TABLES, args.class_size + 10)
    _check_numbers(args)
    base_url = "/" + args.base_url.strip("/") + "/" if args.base_url.strip("/") else "/"
    if not BASE_URL.fullmatch(base_url):
        raise Refused(f"--base-url {args.base_url[:80]!r}: give a path such as /loo/ (letters, digits, - _ . ~)")
    try:
        settings = passed_settings(extra)
    except ValueError as problem:
        raise Refused(str(problem)) from None
    book = args.book.resolve()
    if not (book / "index.html").is_file():
        raise Refused(f"no built book at {book} (build it with `make book`, or give its folder with --book)")
    tables = args.tables.resolve()
    if not tables.is_dir():
        raise Refused(f"no table folder at {tables} (give the folder of the table notebooks with --tables)")
    offered = sorted(p.stem for p in tables.glob("*.ipynb") if TABLE_NAME.match(p.stem))
    class_tables = args.class_table or ["three-card-loo"]
    unknown = [name for name in class_tables if name not in offered]
    if unknown and args.class_table:
        raise Refused(f"--class-table {unknown[0]!r} is not a table here (the tables: {', '.join(offered)})")
    pools = {name: args.class_size for name in class_tables if name in offered}
    return Asked(args, settings, base_url, book, tables, pools, _database(args, book, tables))


def _check_numbers(args: argparse.Namespace) -> None:
    """The numbers given are in their bounds; with no --max-tables-per-client, a class's share is set."""
    if args.keep_days <= 0:
        raise Refused("--keep-days must be more than 0")
    if args.max_tables < 1:
        raise Refused("--max-tables must be 1 or more")
    if args.max_idle < 1:
        raise Refused("--max-idle must be 1 or more")
    if not 1 <= args.class_size <= 200:
        raise Refused("--class-size must be from 1 to 200")
    if not 5 <= args.reconnect_grace <= 3600:
        raise Refused("--reconnect-grace must be from 5 to 3600 seconds")
    if args.max_tables_per_client is None:  # a class behind one router shares one address
        args.max_tables_per_client = max(default_share(args.max_tables), args.class_size)
    if args.max_tables_per_client < 1:
        raise Refused("--max-tables-per-client must be 1 or more")
    if not 1 <= args.request_timeout <= 3600:
        raise Refused("--request-timeout must be from 1 to 3600 seconds")


def _database(args: argparse.Namespace, book: Path, tables: Path) -> Path | str:
    """The tables' database: --db, else $LANTERLOO_DB, else the default file; never inside a served folder."""
    place: str | None = args.db if args.db is not None else os.environ.get("LANTERLOO_DB")
    if place is not None and is_database_url(place):
        return place
    db = (Path(place).expanduser() if place else default_path()).resolve()
    for folder, what in ((book, "the built book"), (tables, "the table folder")):
        if db.is_relative_to(folder):  # the book is served file by file: the saved games would be too
            raise Refused(f"the tables' database {db} must not be inside {what} ({folder})")
    return db


def configure(asked: Asked) -> Configured:
    """Open the tables' database, set the kernels' environment, make sure of the port and give the
    server class its settings."""
    args, db = asked.args, asked.db
    try:  # before the server listens: a connection of its own, closed before any request comes
        not_saving, unused, idle = open_tables_database(db, args.keep_days * 86_400)
    except Exception as exc:
        raise Refused(f"cannot open the tables' database {shown(str(db))}: {exc}") from None
    os.environ["LANTERLOO_DB"] = str(db)  # the kernels save their games in the same database
    os.environ[PAGE_SHEET_ENV] = "1"  # the table pages link the card sheet: the kernels need not send it
    # Voila finds templates on the Jupyter data path; ours is shipped beside this module.
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(TEMPLATES), os.environ.get("JUPYTER_PATH", "")) if p)
    try:  # say so plainly if the port is taken, rather than a traceback later
        with socket.create_server((args.ip, args.port)):
            pass
    except OSError as exc:
        raise Refused(f"cannot listen on {args.ip}:{args.port}: {exc.strerror}") from None
    LanterlooServer.book_dir = asked.book
    LanterlooServer.db_path = db
    LanterlooServer.max_tables = args.max_tables
    LanterlooServer.request_timeout = args.request_timeout
    LanterlooServer.allowed_hosts = tuple(args.allowed_host)
    LanterlooServer.behind_proxy = args.behind_proxy
    LanterlooServer.max_tables_per_client = min(args.max_tables_per_client, args.max_tables)
    LanterlooServer.console_token = token = secrets.token_urlsafe(24)
    LanterlooServer.class_games = tuple(asked.pools) or ("three-card-loo",)
    LanterlooServer.students_land = bool(args.teach)
    _more_files()
    LanterlooServer.reconnect_grace = args.reconnect_grace
    return Configured(not_saving, unused, idle, token)


def build_app(asked: Asked) -> Built:
    """Voila's configuration, the server made and initialised with the settings passed through, and
    its log split between its file and the terminal."""
    args = asked.args
    config = server_config(
        tables=asked.tables,
        port=args.port,
        ip=args.ip,
        max_idle=args.max_idle,
        base_url=asked.base_url,
        pools=asked.pools,
    )
    app = LanterlooServer(config=config)
    try:
        app.initialize(asked.settings)
    except Exception as problem:  # a setting Voila could not take (a bad value, say)
        raise Refused(f"Voila would not start with the settings given: {problem}") from None
    keep_own_tornado_settings(app)
    log_file = args.log_file if args.log_file is not None else log_dir() / f"server-{args.port}.log"
    try:
        split_server_log(app.log, log_file, getattr(logging, args.log_level.upper()))
    except OSError as error:
        raise Refused(f"cannot write the server's log at {log_file}: {error.strerror}") from None
    share_server_log(app.log)
    return Built(app, config, log_file)


def announce(asked: Asked, built: Built, configured: Configured) -> None:
    """Log what the start tidied, print that the tables are being made ready, and arrange for the
    addresses, the console and where games are saved to be printed once they are."""
    args = asked.args
    not_saving, unused, idle = configured.not_saving, configured.unused, configured.idle
    if unused or idle:
        log.info("forgot %d tables never played and %d not played for %g days", unused, idle, args.keep_days)
    pruned = prune_kernel_logs()
    if pruned:
        log.info("removed %d kernel logs older than %d days from %s", pruned, KERNEL_LOG_DAYS, log_dir())
    words: list[str] = []
    if not_saving is None:
        words.append(f"Games are saved in {shown(str(asked.db))}")
    else:  # said at once, and not only once the tables are ready
        print(
            f"Games are NOT being saved just now: {not_saving}. The tables are played all the same, each saying "
            "its game is not being saved, and saving starts again once the database can be written.",
            flush=True,
        )
    words.append(
        f"At most {args.max_tables} live tables at once (--max-tables), "
        f"{LanterlooServer.max_tables_per_client} for one client address (--max-tables-per-client)"
    )
    words.append(f"The server's log: {built.log_file}  (--log-level info shows it here too)")
    words += _addresses(args.ip, args.port, asked.base_url, configured.console_token)
    preheated = preheated_kernels(built.config.VoilaKernelManager.kernel_pools_config)
    if args.class_size > 1:
        print(
            f"Making {preheated} tables ready, {args.class_size} of them of {', '.join(asked.pools)} for a class "
            f"(--class-size, about {args.class_size * 50} MB): the addresses follow when they are ready",
            flush=True,
        )
    else:
        print(f"Lanterloo is starting: making its {preheated} tables ready…", flush=True)
    app = built.app
    kernels = lambda: getattr(app, "kernel_manager", None)  # noqa: E731 (Voila makes it as it starts)
    announce_when_ready(kernels, preheated, "\n".join(words), limit=60 + 2 * preheated)


def _addresses(ip: str, port: int, base_url: str, token: str) -> list[str]:
    """Where the book, the class's pages and the console are reached; the class's address is also
    set as the one the links handed out to students name (issue 29)."""
    words = []
    urls = student_addresses(ip, port)
    set_public_origin(urls[0] if urls else None)
    if urls:
        words.append(class_banner(urls, colour=sys.stdout.isatty()))
        project = f"http://127.0.0.1:{port}{base_url}class"
        words.append(f"A page to project, with the address and its QR code: {project}")
    here = "127.0.0.1" if ip in ("0.0.0.0", "") else ip
    words.append(f"Lanterloo is being served at http://{here}:{port}{base_url}  (press Ctrl-C to stop)")
    address = f"http://{here}:{port}{base_url}console"
    words.append(console_banner(address, token, port, base_url))
    return words


def _more_files() -> None:
    """Let the server open as many files (connections among them) as the system allows it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
    except (ImportError, ValueError, OSError):
        pass


def _program_name() -> str:
    """``lanterloo`` when run as the console script, else how it was run."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m widgets.server" if name in ("", "__main__.py", "server.py") else name


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2
