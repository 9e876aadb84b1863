"""The server's command line (``lanterloo``): its checks, the settings it passes to Voila, and its logs."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from widgets import server
from widgets.server import logs as server_logs
from widgets.server import pages as server_pages
from widgets.server.app import passed_settings
from widgets.server.logs import LOG_FORMAT, share_server_log
from widgets.views.safety import prune_kernel_logs


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-tables", "0"], "--max-tables must be 1 or more"),
        (["--keep-days", "0"], "--keep-days must be more than 0"),
        (["--max-idle", "0"], "--max-idle must be 1 or more"),
        (["--class-size", "0"], "--class-size must be from 1 to 200"),
        (["--reconnect-grace", "1"], "--reconnect-grace must be from 5 to 3600 seconds"),
        (["--Voila.root_dir=/"], "--Voila.root_dir is set by the server itself: use --tables"),
        (["--frobnicate"], "unrecognised argument '--frobnicate'"),
        (["--base-url", "/a b/"], "--base-url '/a b/': give a path such as /loo/"),
        (["--base-url", "/x/../"], "--base-url '/x/../': give a path such as /loo/"),
        (["--ServerApp.base_url=/x/"], "--Voila.base_url is set by the server itself: use --base-url"),
    ],
)
def test_bad_arguments_are_named_before_any_file_is_looked_for(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # No built book here: the argument's own error comes first, so this holds on a fresh clone.
    empty = tmp_path / "no-book"
    empty.mkdir()
    assert server.main(["--book", str(empty), "--db", str(tmp_path / "t.sqlite3"), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_a_postgresql_database_that_cannot_be_reached_is_named_without_its_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "index.html").write_text("<p>book</p>")
    url = "postgresql://loo:s3cret@127.0.0.1:1/tables"
    assert server.main(["--book", str(tmp_path / "book"), "--tables", str(tmp_path), "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot open the tables' database postgresql://loo:***@127.0.0.1:1/tables")
    assert "s3cret" not in err and "Traceback" not in err


def test_a_missing_book_names_the_folder_and_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert server.main(["--book", str(tmp_path), "--db", str(tmp_path / "t.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert f"no built book at {tmp_path.resolve()}" in err and "make book" in err and "--book" in err


def test_settings_pass_through_to_voila_and_serverapp_maps_to_voila() -> None:
    assert passed_settings(["--Voila.tornado_settings={'compress_response': True}", "--ServerApp.token=abc"]) == [
        "--Voila.tornado_settings={'compress_response': True}",
        "--Voila.token=abc",
    ]
    assert passed_settings(["--KernelManager.shutdown_wait_time=2"]) == ["--KernelManager.shutdown_wait_time=2"]
    for bad, reason in [
        ("--Voila.port=9", "use --port"),
        ("--ServerApp.ip=0.0.0.0", "use --ip"),
        ("--ServerApp.allow_origin=*", "has no 'allow_origin'"),
        ("--voila.port=9", "unrecognised argument"),
        ("--Voila.port", "unrecognised argument"),
        ("stray", "unrecognised argument"),
    ]:
        with pytest.raises(ValueError, match=reason):
            passed_settings([bad])


def test_a_long_bad_argument_is_cut_in_the_message() -> None:
    with pytest.raises(ValueError) as refused:
        passed_settings(["x" * 100_000])
    assert len(str(refused.value)) < 300


def test_the_help_names_the_program_and_explains_ip_and_settings(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["/usr/local/bin/lanterloo", "--help"])
    with pytest.raises(SystemExit) as exited:
        server.main(["--help"])
    assert exited.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("usage: lanterloo ")
    assert "--ip" in out and "0.0.0.0" in out and "--Class.name=value" in out and "--ServerApp.name=value" in out


def test_server_loggers_share_voilas_handlers_and_format() -> None:
    voila = logging.getLogger("test-voila")
    stream = _ListHandler()
    stream.setFormatter(logging.Formatter(LOG_FORMAT))
    voila.handlers = [stream]
    saved = {
        name: (logging.getLogger(name).handlers, logging.getLogger(name).level, logging.getLogger(name).propagate)
        for name in server_logs.SERVER_LOGGERS
    }
    try:
        share_server_log(logging.LoggerAdapter(voila, {}))
        logging.getLogger("lanterloo.server").info("forgot %d tables", 3)
        logging.getLogger("tornado.access").info("200 GET /card.css")  # below WARNING: not written
        logging.getLogger("tornado.access").warning("404 GET /nothing")
        for _ in range(3):  # pyzmq's line for every table closed with messages queued: once a minute
            logging.getLogger("tornado.general").warning("Got events for closed stream %s", "<stream>")
    finally:
        for name, (handlers, level, propagate) in saved.items():
            target = logging.getLogger(name)
            target.handlers, target.propagate = handlers, propagate
            target.setLevel(level)
    assert [line.split("] ", 1)[1] for line in stream.lines] == [
        "forgot 3 tables",
        "404 GET /nothing",
        "Got events for closed stream <stream>",
    ]
    assert stream.lines[0].startswith("[I ") and " lanterloo.server] " in stream.lines[0]
    assert stream.lines[1].startswith("[W ") and " tornado.access] " in stream.lines[1]


class _ListHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_a_kernel_log_file_appears_only_when_something_is_written(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import logging, os, sys
        from widgets.views.safety import install_kernel_guards
        path = install_kernel_guards()
        print(path.exists())
        logging.getLogger("lanterloo.widgets").warning("a line")
        print(path.exists(), path.read_text().count("a line"))
        """
    )
    env = {**os.environ, "LANTERLOO_LOG_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "1"]


def test_old_kernel_logs_are_pruned_and_nothing_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANTERLOO_LOG_DIR", str(tmp_path))
    now = time.time()
    old, recent, other = tmp_path / "kernel-1.log", tmp_path / "kernel-2.log", tmp_path / "notes.log"
    for path in (old, recent, other):
        path.write_text("x\n")
    os.utime(old, (now - 15 * 86_400, now - 15 * 86_400))
    os.utime(other, (now - 99 * 86_400, now - 99 * 86_400))
    assert prune_kernel_logs(14, now=now) == 1
    assert not old.exists() and recent.exists() and other.exists()
    assert prune_kernel_logs(14, now=now) == 0


# traitlets 5 calls a whole dict on the command line deprecated, but reads it with its types (the
# item form, --Voila.tornado_settings=key=value, makes every value a string: 'False' would be true).
@pytest.mark.filterwarnings("ignore:--tornado_settings=:DeprecationWarning")
def test_tornado_settings_given_are_added_to_the_servers_own_which_win(monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.server.app import LanterlooServer, keep_own_tornado_settings, own_tornado_settings, server_config

    monkeypatch.setattr(signal, "signal", lambda *_args: None)  # Voila's initialize takes SIGTERM: not in pytest
    app = LanterlooServer(
        config=server_config(tables=server_pages.DEFAULT_TABLES, port=8999, ip="127.0.0.1", max_idle=60)
    )
    app.initialize(
        passed_settings(["--Voila.tornado_settings={'compress_response': True, 'disable_check_xsrf': False}"])
    )
    assert app.tornado_settings == {"compress_response": True, "disable_check_xsrf": False}  # Voila's own reading
    keep_own_tornado_settings(app)
    assert app.tornado_settings["compress_response"] is True
    for key, value in own_tornado_settings().items():
        assert app.tornado_settings[key] == value, key


def test_the_server_starts_without_compiling_rfc3987s_grammars() -> None:
    """Importing rfc3987_syntax (jsonschema's checker of the "iri" formats) compiles 38 grammars:
    3 s of every server start, for a format no schema the server loads uses. The server's package
    refuses that import; jsonschema, and Voila with it, still load and validate."""
    script = (
        "import sys, widgets.server, jsonschema\n"
        "assert sys.modules['rfc3987_syntax'] is None, 'rfc3987_syntax was imported'\n"
        "checker = jsonschema.Draft202012Validator.FORMAT_CHECKER\n"
        "assert 'iri' not in checker.checkers and 'date-time' in checker.checkers\n"
        "jsonschema.validate({'a': 1}, {'properties': {'a': {'type': 'integer'}}})\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
