"""The ``review`` command of ``python -m loo``: every decision of a hand record weighed (:mod:`loo.review`).

``review RECORD`` (a ``loo-record/1`` file, ``-`` for standard input, or a ``records.jsonl`` of one
record a line, as the teacher's console downloads) prints one line of JSON for each record: each
decision with what was chosen, the best choice, what the choice gave up with its 95% interval, the
verdict and why. ``--seat`` reviews one seat (a number or a name); ``--text`` prints plain lines
instead. A record that cannot be read, or whose actions the laws refuse, is reported as ``check``
reports it, with the same exit status (2 or 1); the worst status of all the records is the command's.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from loo.records import check, json_line, load
from loo.review import HandReview, review


def add_review_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "review",
        help="weigh every decision of a hand record against the best, as JSON",
        description="Weigh each decision of a hand record (or of each record of a .jsonl file) against "
        "the best choice, over deals consistent with what the deciding seat knew, and print one JSON "
        "line per record.",
    )
    parser.add_argument("record", help="a loo-record/1 JSON file, a .jsonl file of records, or - for standard input")
    parser.add_argument("--seat", help="review this seat only: its number or its player's name")
    parser.add_argument("--text", action="store_true", help="plain lines instead of JSON")
    parser.set_defaults(run=cmd_review, prog=parser.prog)


def _texts(path: str) -> list[str]:
    """The records the file holds: one, or one a line for a ``.jsonl`` file."""
    if path == "-":
        data = sys.stdin.read()
    else:
        with open(path, encoding="utf-8") as f:
            data = f.read()
    if path.endswith(".jsonl"):
        return [line for line in data.splitlines() if line.strip()]
    return [data]


def _seats(record: Any, seat: str | None) -> list[int] | None:
    if seat is None:
        return None
    if seat in record.seats:
        return [list(record.seats).index(seat)]
    if seat.isdigit() and int(seat) < len(record.seats):
        return [int(seat)]
    raise ValueError(f"no seat {seat!r}: the seats are {', '.join(record.seats)} (or 0 to {len(record.seats) - 1})")


def _result(done: HandReview, names: list[str]) -> dict[str, Any]:
    costliest = done.costliest
    return {
        "ok": True,
        "unit": done.unit,
        "given_up": round(done.given_up, 2),
        "costliest": costliest.index if costliest is not None else None,
        "decisions": [d.to_record(names) for d in done.decisions],
    }


def _text(result: dict[str, Any]) -> str:
    if not result.get("ok"):
        return str(result.get("message", json.dumps(result)))
    lines = []
    for d in result["decisions"]:
        low, high = d["interval"]
        chose = " ".join(str(v) for k, v in d["chose"].items() if k != "seat")
        best = " ".join(str(v) for k, v in d["best"].items() if k != "seat")
        line = f"action {d['action']}, {d['player']}: {chose}"
        if d["verdict"] != "best":
            line += f" (best: {best}; gave up {d['gave_up']:+g}, {low:g} to {high:g})"
        lines.append(f"{line}: {d['verdict']}." + (f" {d['why']}" if d["why"] else ""))
    lines.append(f"Given up in all: {result['given_up']:g} (in stakes of {result['unit']:g}).")
    return "\n".join(lines)


def cmd_review(args: argparse.Namespace) -> int:
    try:
        texts = _texts(args.record)
    except (OSError, UnicodeDecodeError) as error:
        message = f"record: cannot read {args.record!r}: {getattr(error, 'strerror', None) or error}"
        print(json_line({"ok": False, "error": "invalid-record", "message": message}))
        return 2
    worst = 0
    for text in texts:
        status, result = check(text)  # an unreadable record, or an illegal action, as check reports it
        if status == 0:
            record = load(text)
            try:
                seats = _seats(record, args.seat)
            except ValueError as error:
                print(f"{args.prog}: error: --seat: {error}", file=sys.stderr)
                return 2
            result = _result(review(record, seats), list(record.seats))
        worst = max(worst, status)
        print(_text(result) if args.text else json_line(result))
    return worst
