"""The teacher's console's addresses (:mod:`widgets.server.console`, :mod:`widgets.server.console_results`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from widgets.server.class_tables import warm_up
from widgets.server.console import (
    ConsoleDeal,
    ConsoleFreeSeat,
    ConsoleHandler,
    ConsoleHome,
    ConsoleNothing,
    ConsoleOpen,
    ConsoleSessions,
    ConsoleSignOut,
    ConsoleTable,
)
from widgets.server.console_results import ConsoleDecisions, ConsoleRecords, ConsoleResults


def console_routes(token: str | None, db: Path | str | None, tables: Path, *, base: str = "") -> list[Any]:
    ConsoleHandler.token, ConsoleHandler.db, ConsoleHandler.tables = token, db, tables
    ConsoleHandler.sessions = ConsoleSessions()  # a new token: no session of the last one's holds
    warm_up()
    return [
        (base + r"/console/?", ConsoleHome),
        (base + r"/console/deal", ConsoleDeal),
        (base + r"/console/open", ConsoleOpen),
        (base + r"/console/results", ConsoleResults),
        (base + r"/console/decisions", ConsoleDecisions),
        (base + r"/console/table/([A-Za-z0-9_-]{22})", ConsoleTable),
        (base + r"/console/table/([A-Za-z0-9_-]{22})/free", ConsoleFreeSeat),
        (base + r"/console/records\.jsonl", ConsoleRecords),
        (base + r"/console/sign-out", ConsoleSignOut),
        (base + r"/console(/.*)", ConsoleNothing),
    ]
