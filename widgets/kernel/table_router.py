"""The table a request asks for: what a table notebook displays under ``python -m widgets.server``,
and what the reader's browser opens (:mod:`widgets.kernel.inpage`).

:func:`table_for_request`, in a preheated kernel, shows "Dealing the cards…" at once and, when the
reader's request comes, puts in its place :func:`served_table`, which reads the request's query string
(``?table=<id>`` and perhaps ``?deal=<code>``) and resumes the saved game, or starts a new one and saves
it (:mod:`widgets.store.sqlite`); with ``&seat=<token>``, a seat of a shared table
(:mod:`widgets.multiseat.shared_view`);
a bad id or code gets a plain message. It sits above both the table (:mod:`widgets.views.live_table`) and the
shared table, which is one (so neither imports the other's router).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from urllib.parse import parse_qs

import ipywidgets as ipw

from widgets.draw.table_board import ROUND, board_html
from widgets.kernel.request import preheated, request_arrived
from widgets.table.dealcode import DealCodeError, parse_deal_code
from widgets.table.journal import BadTableId, Journals, StoreError, UnknownTable, server_store
from widgets.table.model import TableModel
from widgets.table.saving import ReplayError
from widgets.views.live_table import (
    DATABASE_AWAY,
    NO_TABLE,
    SERVER_DB_ENV,
    STORE_AWAY,
    LiveTable,
    notice,
)
from widgets.views.shared import lean

log = logging.getLogger("lanterloo.widgets.kernel.table_router")


DEALING = (
    '<p class="loo-dealing" role="status" aria-live="polite" style="font-size:1.1em;margin:1em 0">'
    "Dealing the cards…</p>"
)


def table_for_request(game: str, preset: str | None = None) -> ipw.Widget:
    """What a table notebook displays: the table the reader's request asks for (:func:`served_table`).

    In a kernel started for the request, that table, at once. In a preheated kernel, which runs
    its notebook before anyone asks, a box saying the cards are being dealt, returned at once: a
    task on the kernel's event loop waits for the request and then fills the box with the table.
    The notebook so finishes preheating, Voila sends the whole page the moment it is asked for,
    and the reader's browser loads the page's scripts while the kernel deals, where before it
    waited for the deal before it could start (about 0.2 s).
    """
    if not preheated():
        return served_table(game, preset, os.environ.get("QUERY_STRING", ""))
    box = lean(ipw.VBox, [lean(ipw.HTML, DEALING)], _dom_classes=["loo-table-box"])
    task = asyncio.ensure_future(_deal_when_asked(box, game, preset))
    _pending.add(task)  # kept until done: the event loop holds only a weak reference to a task
    task.add_done_callback(_pending.discard)
    return box


_pending: set[asyncio.Future[None]] = set()
TRIM_AFTER_SECONDS = 2.0


async def _deal_when_asked(box: ipw.VBox, game: str, preset: str | None) -> None:
    try:
        await request_arrived()
        table = served_table(game, preset, os.environ.get("QUERY_STRING", ""))
    except Exception:  # served_table answers its own errors; this is anything else
        log.exception("could not deal the table for a request")
        table = notice("Something went wrong opening this table, and it has been logged. Please try again.", game)
    dealing = box.children
    box.children = (table,)
    for widget in dealing:
        widget.close()
    # What the wait and the deal left free (the socket's buffers, the request's parsing), given back
    # once the reader's page has its table, between the reader's first clicks.
    asyncio.get_running_loop().call_later(TRIM_AFTER_SECONDS, give_back_memory)


def warm_up(game: str, preset: str | None = None) -> None:
    """Deal and draw a throwaway hand of ``game``, saving nothing and showing nothing.

    A table kernel's first deal pays for lazy imports and first-use caches (the computer players',
    the drawings'): 30 to 50 ms on this project's machine, where later deals take a few. A preheated
    kernel calls this before it waits for a reader (the table notebooks do), so no reader waits for it.
    """
    model = TableModel(game, preset=preset, seed=0, rng=random.Random(0))
    view = model.view()
    board_html(view, model.names, model.seat, layout=ROUND, show_own=True, open_hands=model.open_hands())
    model.unavailable()
    give_back_memory()


def give_back_memory() -> None:
    """Return the heap's free pages to the system (glibc's ``malloc_trim``): what the imports and the
    throwaway hand left free, a megabyte or two a kernel, which a class's thirty kernels all hold."""
    import gc

    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to give back this way
        pass


def _one(params: dict[str, list[str]], key: str) -> str | None:
    values = params.get(key)
    return values[-1] if values else None


def served_table(
    game: str,
    preset: str | None = None,
    query: str = "",
    *,
    store: Journals | None = None,
    rng: random.Random | None = None,
    browser: str | None = None,
) -> ipw.Widget:
    """The table a request asks for: ``query`` is its query string (``QUERY_STRING``, in a
    preheated kernel once :func:`widgets.kernel.request.request_arrived` has put it in ``os.environ``).

    ``?table=<id>``: the game saved under that id, at its last action; a new game, saved from its
    first move, if the id was reserved by the server but never played (``?deal=<code>`` then deals
    that code's hand). With ``&seat=<token>`` too, that seat of a shared table (:mod:`widgets.multiseat.shared_view`),
    for ``browser`` (the browser the server says holds the seat; by default, as the request's
    details tell it, ``HTTP_X_LANTERLOO_SEAT_BROWSER``); a ``deal=`` there is ignored, the table's
    deal being the server's. An unknown or malformed id, or a bad deal code, gets a plain message, never
    another table. Without a table id (a page not served by ``widgets.server``) the game is not saved.
    """
    params = parse_qs(query, keep_blank_values=True)
    table_id, deal = _one(params, "table"), _one(params, "deal")
    try:
        code = parse_deal_code(deal, game=game, rules=preset) if deal else None
    except DealCodeError as error:
        code_problem: str | None = f"That deal code cannot be used: {error.message}."
        code = None
    else:
        code_problem = None
    try:
        if table_id is None:
            if code_problem:
                return notice(code_problem, game, title="This deal cannot be dealt")
            unsaved = TableModel(game, preset=preset, code=code, rng=rng)
            if store is None and os.environ.get(SERVER_DB_ENV):  # the server's, which could not reserve an id
                unsaved.never_saved()
            return LiveTable(unsaved)
        if store is None:
            from widgets.store.sqlite import (
                TableStore,  # the server's database (SQLite or PostgreSQL), imported only here
            )

            store = TableStore()
        try:
            saved = store.load(table_id)
        except (BadTableId, UnknownTable) as error:
            log.info("refused table id: %s", error)
            return notice(NO_TABLE, game, title="No such table")
        if server_store(store):  # shared tables (issue 21) are the server's: the browser has none
            from widgets.multiseat.shared_view import SEAT_BROWSER_ENV, SHARED_NEEDS_SEAT, is_shared, served_shared

            token = _one(params, "seat")
            if token is not None:  # a seat of a shared table: its deal is the server's, never the address's
                holder = browser if browser is not None else os.environ.get(SEAT_BROWSER_ENV)
                return served_shared(game, preset, table_id, token, store, browser=holder)
            if is_shared(store, table_id):  # never a seat's cards (nor its moves) to whoever has the table's id
                return notice(SHARED_NEEDS_SEAT, game, title="A shared table")
        if saved.count:  # a game in progress: resume it (a deal code in the address was for its start)
            resumed = TableModel.resume(store, table_id, rng=rng)
            resumed.past_the_deal()  # a single saved before tables dealt on past it (issue 20): deal on now
            _follow_pending(resumed, store, table_id)
            return LiveTable(resumed, saved=True)
        if code_problem:
            return notice(code_problem, game, title="This deal cannot be dealt")
        model = TableModel(game, preset=preset, code=code, rng=rng)
        model.attach(store, table_id)
        _follow_pending(model, store, table_id)
        return LiveTable(model, saved=True)
    except StoreError as error:  # the database failed or did not answer in time, or its disk: nothing is lost
        log.warning("could not open table %s: %s", table_id, error)
        from widgets.store.postgres import is_database_url

        if is_database_url(str(getattr(store, "path", None) or os.environ.get(SERVER_DB_ENV, ""))):
            return notice(DATABASE_AWAY, game, title="The games cannot be loaded just now")
        return notice(STORE_AWAY, game, title="This table is waiting for the disk")
    except ReplayError:
        log.exception("table %s no longer replays", table_id)
        return notice(
            "This game was saved by an earlier version of these tables and can no longer be resumed. "
            "The server's log says why.",
            game,
        )
    except Exception:
        log.exception("could not open table %s", table_id)
        return notice("Something went wrong opening this table, and it has been logged. Please try again.", game)


def _follow_pending(model: TableModel, store: Journals, table_id: str) -> None:
    """The teacher's console may set a deal for this table (issue 21): widgets.multiseat.shared_view follows
    it, at the server's tables (the browser's keep no seats nor pending deals)."""
    if server_store(store):
        from widgets.multiseat.shared_view import follow_pending

        follow_pending(model, store, table_id)
