"""Command line: ``python -m loo check|deal|simulate|review``.

``check RECORD`` (or ``-`` for standard input) replays a hand record and prints
one JSON object, exiting 0 for a legal record, 1 for an illegal action and 2
for a record that cannot be read (docs/records.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from loo.core.rules import MAX_MESSAGE_CHARS, clip
from loo.records import MAX_RECORD_BYTES, check, json_line


def _read(path: str) -> bytes | str:
    """The record's bytes, at most one more than a record may have (so a huge input is not read whole)."""
    limit = MAX_RECORD_BYTES + 1
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        return stdin.read(limit) if stdin is not None else sys.stdin.read(limit)  # a test's StringIO has no bytes
    with open(path, "rb") as f:
        return f.read(limit)


def _print_json(result: dict[str, object]) -> None:
    """One line of JSON, its text as it is where the output can hold it, else escaped (a record may quote a
    lone surrogate, which no encoding writes)."""
    line = json_line(result)
    try:
        line.encode(sys.stdout.encoding or "utf-8")
    except UnicodeEncodeError:
        line = json_line(result, ascii_only=True)
    print(line)


def cmd_check(args: argparse.Namespace) -> int:
    try:
        text = _read(args.record)
    except OSError as error:
        message = clip(f"record: cannot read {args.record!r}: {error.strerror}", MAX_MESSAGE_CHARS)
        _print_json({"ok": False, "error": "invalid-record", "message": message})
        return 2
    status, result = check(text)
    _print_json(result)
    return status


def _program_name() -> str:
    """``loo`` when run as the console script, ``python -m loo`` when run as a module."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "python -m loo" if name in ("", "__main__.py", "-c") else name


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=_program_name(), description="Lanterloo's rules engine for Loo and its relatives."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    p_check = commands.add_parser("check", help="replay a hand record and report on it as JSON")
    p_check.add_argument("record", help="a loo-record/1 JSON file, or - for standard input")
    p_check.set_defaults(run=cmd_check)
    from loo import cli  # the deal and simulate commands

    cli.add_commands(commands)
    from loo.review_cli import add_review_command  # weighing a record's decisions

    add_review_command(commands)
    args = parser.parse_args(argv)
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # a buffered stdout meets a closed pipe here, not at the interpreter's exit
        return status
    except BrokenPipeError:  # the reader of the output went away (`loo ... | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the interpreter's last flush does not fail too
        return 141  # what a shell reports for a command ended by SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
