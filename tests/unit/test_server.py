"""The server's guard on the kernel websocket: no traceback or stderr output reaches a browser."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from widgets.server import (
    DEFAULT_TABLES,
    TABLE_NAME,
    TEMPLATES,
    LanterlooServer,
    must_withhold,
    server_config,
)


def v1(msg_type: str, content: dict[str, object], channel: str = "iopub") -> bytes:
    """A message in the v1 kernel websocket protocol, as jupyter_server sends it."""
    parts = [
        channel.encode(),
        json.dumps({"msg_type": msg_type, "msg_id": "x"}).encode(),
        b"{}",
        b"{}",
        json.dumps(content).encode(),
    ]
    count = len(parts) + 1
    offsets = [8 * (count + 1)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    head = count.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(parts)


def as_json(msg_type: str, content: dict[str, object]) -> str:
    return json.dumps({"header": {"msg_type": msg_type}, "content": content, "channel": "iopub"})


ERROR = {"ename": "RuntimeError", "evalue": "boom", "traceback": ["Traceback..."]}


@pytest.mark.parametrize("wrap", [v1, as_json, lambda t, c: {"header": {"msg_type": t}, "content": c}])
def test_errors_and_stderr_are_withheld_in_every_wire_form(wrap: object) -> None:
    make = wrap  # type: ignore[assignment]
    assert must_withhold(make("error", ERROR))  # type: ignore[operator]
    assert must_withhold(make("stream", {"name": "stderr", "text": "Traceback"}))  # type: ignore[operator]
    assert must_withhold(make("execute_reply", {"status": "error", **ERROR}))  # type: ignore[operator]


@pytest.mark.parametrize("wrap", [v1, as_json])
def test_ordinary_widget_traffic_passes(wrap: object) -> None:
    make = wrap  # type: ignore[assignment]
    assert not must_withhold(make("comm_msg", {"data": {"method": "update", "state": {"value": "x"}}}))  # type: ignore[operator]
    assert not must_withhold(make("stream", {"name": "stdout", "text": "hello"}))  # type: ignore[operator]
    assert not must_withhold(make("status", {"execution_state": "idle"}))  # type: ignore[operator]
    assert not must_withhold(make("execute_reply", {"status": "ok"}))  # type: ignore[operator]


def test_unreadable_bytes_pass_untouched() -> None:
    assert not must_withhold(b"\x00\x01garbage")


@pytest.mark.parametrize("name", ["three-card-loo", "nap", "domino-loo"])
def test_table_names_accept_tables(name: str) -> None:
    assert TABLE_NAME.match(name)


@pytest.mark.parametrize("name", ["..", "../etc/passwd", "Nap", "a/b", "", "-x"])
def test_table_names_refuse_anything_else(name: str) -> None:
    assert not TABLE_NAME.match(name)


def test_server_routes_tables_only_and_puts_the_book_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No tree or contents handler (no file listing); our websocket handler; the book answers last."""
    book = tmp_path / "html"
    book.mkdir()
    (book / "index.html").write_text("<p>book</p>")
    monkeypatch.setenv("JUPYTER_PATH", str(TEMPLATES))
    monkeypatch.setattr(LanterlooServer, "book_dir", book)
    config = server_config(tables=DEFAULT_TABLES, port=_free_port(), ip="127.0.0.1", max_idle=60)
    configured = LanterlooServer(config=config)
    configured.initialize([])
    assert configured.voila_configuration.preheat_kernel is True
    # Routing needs start()'s settings, and with preheating those schedule kernel start-ups on
    # whatever event loop runs next; route an otherwise identical app that does not preheat.
    config.VoilaConfiguration.preheat_kernel = False
    app = LanterlooServer(config=config)
    app.initialize([])
    app.init_settings()
    handlers = app.init_handlers()
    names = [spec[1].__name__ for spec in handlers]
    assert "TornadoVoilaTreeHandler" not in names
    assert "VoilaContentsHandler" not in names
    assert "VoilaKernelWebsocketHandler" not in names
    assert "TableKernelWebsocketHandler" in names
    assert names[-1] == "BookHandler" and handlers[-1][0] == r"/(.*)"
    # every book page names the tables on offer, for the book's live-table boxes
    assert handlers[-1][1].tables == tuple(sorted(p.stem for p in DEFAULT_TABLES.glob("*.ipynb")))
    assert app.voila_configuration.show_tracebacks is False
    assert app.voila_configuration.template == "lanterloo"
    assert app.config.MappingKernelManager.cull_idle_timeout == 60
    assert app.tornado_settings["disable_check_xsrf"] is True
    assert sorted(p.name for p in Path(app.root_dir).iterdir() if not p.name.startswith(".")) == sorted(
        p.name for p in DEFAULT_TABLES.glob("*.ipynb")
    ), "Voila's root holds only the table notebooks"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
