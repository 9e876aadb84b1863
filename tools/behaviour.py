#!/usr/bin/env python3
"""The engine's behaviour, pinned: what ``loo check`` answers on every golden record and on many
random records of every game, kept as digests in ``tools/behaviour.json``.

Run it before and after a change to the engine that must not change what it does (issue 19's
core): ``.venv/bin/python tools/behaviour.py`` compares and prints each game's result;
``--write`` records the engine's answers as they are now. A unit test
(``tests/engine/test_behaviour_pinned.py``) compares the first block of each game on every run.

A random record (:func:`random_record`) is a seeded deal of one game under one of its presets,
some options changed at random (a few to values a record may refuse), two to seven seats, a
random dealer and pool, and random legal play stopped at a random point or played to the end;
one in five then has one action changed (another seat, another legal action from elsewhere in
the hand, one dropped, or two swapped), so that refusals, and the laws they cite, are pinned too.
The answers are digested in blocks of :data:`BLOCK` records, so that a difference is found to
its block, and :func:`block_records` (``--show GAME:BLOCK``) then prints its records and answers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loo.kits import GAMES, kit  # noqa: E402
from loo.options import game_options, presets, rules_value  # noqa: E402
from loo.records import RecordError, check, load  # noqa: E402

PINNED = ROOT / "tools" / "behaviour.json"
GOLDEN = ROOT / "tests" / "golden"
BLOCK = 100
DEFAULT_RECORDS = 10_000
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def _options(game: str, rng: random.Random) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for option in game_options(game):
        if rng.random() >= 0.25:
            continue
        if option.choices:
            values[option.key] = rng.choice(option.choices)
        elif option.kind is bool:
            values[option.key] = rng.random() < 0.5
        elif option.kind is int:
            values[option.key] = rng.choice((0, 1, 2, 3, 5, 6, 12))
    return values


def _mutate(actions: list[dict[str, Any]], pool: list[dict[str, Any]], rng: random.Random) -> None:
    """Change one action of ``actions`` (``pool``: legal actions seen elsewhere in the hand)."""
    if not actions:
        return
    i = rng.randrange(len(actions))
    kind = rng.randrange(4)
    if kind == 0:
        actions[i] = {**actions[i], "seat": rng.randrange(len(NAMES))}
    elif kind == 1 and pool:
        actions[i] = dict(rng.choice(pool))
    elif kind == 2:
        del actions[i]
    else:
        j = rng.randrange(len(actions))
        actions[i], actions[j] = actions[j], actions[i]


def random_record(game: str, index: int) -> str:
    """Random record number ``index`` of ``game``, the same on every machine and every run."""
    rng = random.Random(f"lanterloo-behaviour:{game}:{index}")
    preset = rng.choice(presets(game))
    rules_obj = rules_value(game, preset, _options(game, rng))
    # Mostly seat counts the game allows, now and then one it refuses.
    seats = rng.choice((2, 3, 3, 4, 4, 4, 5) if game.startswith("domino") else (2, 3, 3, 4, 4, 5, 5, 6, 7))
    obj: dict[str, Any] = {
        "format": "loo-record/1",
        "game": game,
        "rules": rules_obj,
        "seats": list(NAMES[:seats]),
        "dealer": rng.randrange(seats),
        "deal": {"seed": rng.randrange(2**32)},
        "actions": [],
    }
    game_kit = kit(game)
    try:
        rules = game_kit.read_rules(game, rules_obj)
        obj["pool"] = game_kit.pool(rules, seats) * rng.choice((1, 1, 1, 2, 3))
        hand = load(json.dumps(obj)).start()
    except (RecordError, ValueError):
        obj.setdefault("pool", rng.randrange(40))
        return json.dumps(obj)  # a record the engine refuses: its answer is pinned all the same
    actions: list[dict[str, Any]] = []
    seen: list[dict[str, Any]] = []
    stop = rng.random() < 0.3
    while not hand.is_over:
        legal = hand.legal_actions()
        if not legal or (stop and rng.random() < 0.1):
            break
        seen += [action.to_record() for action in legal[:4]]
        action = rng.choice(legal)
        actions.append(action.to_record())
        hand.push(action)
    if rng.random() < 0.2:
        _mutate(actions, seen, rng)
    obj["actions"] = actions
    return json.dumps(obj)


def answer(text: str) -> str:
    """``loo check``'s exit status and output on ``text``, as one line."""
    status, output = check(text)
    return json.dumps([status, output], sort_keys=True, ensure_ascii=False)


def block_digest(game: str, block: int) -> str:
    digest = hashlib.sha256()
    for index in range(block * BLOCK, (block + 1) * BLOCK):
        text = random_record(game, index)
        digest.update(text.encode())
        digest.update(answer(text).encode())
    return digest.hexdigest()[:20]


def golden_answers() -> dict[str, str]:
    """Each golden record's file name and a digest of the answer ``loo check`` gives it."""
    found = {}
    for path in sorted(GOLDEN.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        found[path.name] = hashlib.sha256(answer(path.read_text()).encode()).hexdigest()[:20]
    return found


def current(records: int, games: tuple[str, ...]) -> dict[str, Any]:
    blocks = -(-records // BLOCK)
    return {
        "block": BLOCK,
        "golden": golden_answers(),
        "games": {game: [block_digest(game, b) for b in range(blocks)] for game in games},
    }


def block_records(game: str, block: int) -> str:
    """Describe the records of ``block`` (their texts and answers), to compare with another version."""
    lines = []
    for index in range(block * BLOCK, (block + 1) * BLOCK):
        text = random_record(game, index)
        lines.append(f"{game} #{index}: {text}\n  -> {answer(text)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=DEFAULT_RECORDS, help="random records per game (10000)")
    parser.add_argument("--games", nargs="*", choices=GAMES, default=list(GAMES))
    parser.add_argument("--write", action="store_true", help="pin the engine's answers as they are now")
    parser.add_argument("--show", metavar="GAME:BLOCK", help="print one block's records and answers")
    args = parser.parse_args(argv)
    if args.show:
        game, _, block = args.show.partition(":")
        try:
            print(block_records(game, int(block)))
        except BrokenPipeError:  # | head
            sys.stderr.close()
        return 0
    began = time.monotonic()
    now = current(args.records, tuple(args.games))
    took = time.monotonic() - began
    if args.write:
        PINNED.write_text(json.dumps(now, indent=1) + "\n")
        print(f"pinned {len(now['golden'])} golden records and {args.records} random records of "
              f"{len(args.games)} games in {PINNED.relative_to(ROOT)} ({took:.0f} s)")  # fmt: skip
        return 0
    pinned = json.loads(PINNED.read_text())
    same = True
    golden_diff = sorted(k for k in set(now["golden"]) | set(pinned["golden"])
                         if now["golden"].get(k) != pinned["golden"].get(k))  # fmt: skip
    print(f"golden records: {len(now['golden'])}, " + ("all the same" if not golden_diff else f"differ: {golden_diff}"))
    same &= not golden_diff
    for game, digests in now["games"].items():
        old = pinned["games"].get(game, [])
        differ = [b for b, d in enumerate(digests) if b >= len(old) or old[b] != d]
        print(f"{game}: {len(digests) * BLOCK} records, "
              + ("all the same" if not differ else f"{len(differ)} blocks differ, first {differ[0]} "
                 f"(see it with --show {game}:{differ[0]})"))  # fmt: skip
        same &= not differ
    print(f"({took:.0f} s)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
