"""The server's guard on the kernel websocket: no traceback or stderr output reaches a browser."""

from __future__ import annotations

import json

import pytest

from widgets.server import TABLE_NAME, must_withhold


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
