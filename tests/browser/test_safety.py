"""What a reader's browser can and cannot get from a live table, tested at the protocol level.

Each test talks to ``python -m widgets.server`` the way a page (or a script posing as one) does,
over HTTP and the kernel websocket (:mod:`tests.kernel_client`); no browser is needed. The
points, one per test or group of tests:

a) a browser cannot run code: an ``execute_request`` (or any request that reads or runs code) is
   refused by the server and never reaches the kernel;
b) no traceback and no stderr output ever reach a browser: neither from a real table whose
   callback fails (the kernel's own guards, :mod:`widgets.views.safety`, hold them), nor from a bare
   notebook with no guards at all (the server's filter, ``widgets.server.sockets.must_withhold``, does);
c) only the table notebooks can be rendered, and nothing outside the tables folder and the
   built book is served, in any spelling of a path;
d) no widget state a client receives holds a card the reader may not see.

One server serves the whole module, from a temporary tables folder: a copy of the real
three-card Loo table, a copy with a broken Hint (made from the real notebook at start), the
unguarded notebook of ``tests/fault_tables`` and a notebook that is not a table. Beside that
folder sit the server's database, its log and a notebook that must never run.
"""

from __future__ import annotations

import asyncio
import copy
import http.client
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from html import escape
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit

import pytest

from loo.core.cards import Card, full_pack
from loo.records import load
from tests.conftest import ROOT, Served, run_async, serve_server
from tests.helpers.seen import visible_to_reader
from tests.kernel_client import Frame, Protocol, TableClient
from widgets.draw.card_style import card_stylesheet
from widgets.store.sqlite import TableStore
from widgets.table.dealcode import parse_deal_code
from widgets.table.model import TableModel, code_record
from widgets.views.safety import READER_MESSAGE

FAULT_TABLES = ROOT / "tests" / "fault_tables"
OPEN_WAIT = 90.0  # a table's kernel may still be starting on a busy machine
WAIT = 30.0
QUIET = 3.0  # how long to watch for something that must not happen
PROTOCOLS: list[Protocol] = ["v1", "legacy"]
DEAL = "l3.peel.s0.n987654.d2.p9.knormal"  # a later hand: another dealer, a pool carried over

# The Hint button's model method, broken on purpose in a copy of the real table: it writes to
# stderr, prints a stack and raises. Put in before the table is built.
BROKEN_HINT = """import sys
import traceback

from widgets.table.model import TableModel


def broken_hint(self):
    print("FAULT-HINT-STDERR written to stderr", file=sys.stderr)
    traceback.print_stack()
    raise ZeroDivisionError("FAULT-HINT-EXPLODED")


TableModel.hint = broken_hint
"""

# What no frame a browser receives may contain: traces of a traceback or of the faults above.
TRACE_NEEDLES = (
    "Traceback",
    "most recent call last",
    '.py", line',
    "ZeroDivisionError",
    "TraitError",
    "ValueError",
    "KeyError",
    "RuntimeError",
    "FAULT-",
)

T = TypeVar("T")


def run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return run_async(scenario())


def notebook(*sources: str) -> dict[str, Any]:
    """A notebook of code cells."""
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell-{i}",
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for i, source in enumerate(sources)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def marker_code(marker: Path, said: str) -> str:
    """Code that leaves ``marker`` behind and prints ``said``: the proof that it ran."""
    return f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran'); print({said!r})"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The server, with its database and log beside a tables folder of test notebooks."""
    folder = tmp_path_factory.mktemp("safety")
    tables = folder / "tables"
    tables.mkdir()
    shutil.copy(ROOT / "book" / "tables" / "three-card-loo.ipynb", tables)
    # The real table, built exactly as its notebook builds it, with a broken Hint put in first.
    real = json.loads((ROOT / "book" / "tables" / "three-card-loo.ipynb").read_text())
    broken = copy.deepcopy(real)
    broken["cells"].insert(1, notebook(BROKEN_HINT)["cells"][0] | {"id": "broken-hint"})
    (tables / "fault-hint.ipynb").write_text(json.dumps(broken))
    shutil.copy(FAULT_TABLES / "fault-bare.ipynb", tables)
    # A notebook that is not a table (its name is not a table's), inside the folder; and one
    # outside it. Neither may ever run.
    (tables / "scratch_pad.ipynb").write_text(
        json.dumps(notebook(marker_code(folder / "scratch-pad-ran", "SCRATCH-PAD-RAN")))
    )
    (folder / "outside.ipynb").write_text(json.dumps(notebook(marker_code(folder / "outside-ran", "OUTSIDE-RAN"))))
    with serve_server(folder, tables=tables) as running:
        yield running


def frames_with_traces(frames: list[Frame]) -> list[str]:
    """Every frame that shows a reader an error, stderr or any trace of a traceback."""
    bad = []
    for frame in frames:
        if frame.msg_type == "error":
            bad.append(f"error message: {frame.raw[:300]}")
        elif frame.msg_type == "stream" and frame.content.get("name") == "stderr":
            bad.append(f"stderr: {frame.raw[:300]}")
        elif frame.content.get("status") == "error":
            bad.append(f"{frame.msg_type} with status error: {frame.raw[:300]}")
        else:
            bad += [
                f"{needle!r} in a {frame.msg_type}: {frame.raw[:300]}"
                for needle in TRACE_NEEDLES
                if frame.contains(needle)
            ]
    return bad


async def act(client: TableClient) -> None:
    """Play on as a reader would: deal the next hand if that is the choice, else take the first
    live choice; wait until the kernel has handled the click."""
    next_hand = client.button("loo-next")
    target = next_hand if client.enabled(next_hand) else client.choices()[0]
    await client.settled(await client.click(target))


def log_since(served: Served, offset: int) -> str:
    return served.log()[offset:]


async def poll(predicate: Callable[[], object], timeout: float = WAIT) -> None:
    """Wait until ``predicate()`` is true (for what no socket message announces, such as the log)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return
        await asyncio.sleep(0.1)


# ----- a) no code execution from a browser ---------------------------------------------------------


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_browser_cannot_run_code_in_a_tables_kernel(served: Served, tmp_path: Path, protocol: Protocol) -> None:
    """An ``execute_request`` sent over a real table's kernel websocket, on any channel, is dropped by
    the server: no reply, no output, no kernel activity, and the code's marker file never appears,
    although the very same code does leave it when run. So are the other requests that read the
    kernel's namespace or history (inspect, complete, history, is_complete) and the debugger's.
    Afterwards the socket still works: a kernel-info request is answered and a click plays."""
    marker = tmp_path / "executed"
    said = "EXECUTED-FROM-THE-BROWSER"
    code = marker_code(marker, said)
    # The code does what it says when it runs, so its marker's absence below means it did not run.
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    assert marker.read_text() == "ran"
    marker.unlink()

    async def scenario() -> None:
        client = await TableClient.open(served.base, "three-card-loo", protocol=protocol, timeout=OPEN_WAIT)
        offset = len(served.log())
        execute = {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {"x": code},
            "allow_stdin": False,
            "stop_on_error": True,
        }
        refused = {
            "execute on shell": await client.send("execute_request", execute),
            "execute on control": await client.send("execute_request", execute, "control"),
            "execute on stdin": await client.send("execute_request", execute, "stdin"),
            "inspect": await client.send("inspect_request", {"code": "os.environ", "cursor_pos": 3, "detail_level": 1}),
            "complete": await client.send("complete_request", {"code": "import o", "cursor_pos": 8}),
            "history": await client.send(
                "history_request", {"output": True, "raw": True, "hist_access_type": "tail", "n": 100}
            ),
            "is_complete": await client.send("is_complete_request", {"code": "x = ("}),
            "debug": await client.send(
                "debug_request", {"type": "request", "seq": 1, "command": "initialize", "arguments": {}}, "control"
            ),
        }
        # Alive: a later request is answered, and a click is handled and redraws the table.
        alive = await client.request("kernel_info_request", {})
        assert alive.content.get("status") == "ok"
        board = client.board()
        await act(client)
        assert client.board() != board, "the click played"
        await asyncio.sleep(QUIET)  # time enough for any stray execution to show itself
        assert not marker.exists(), "the browser's code ran in the kernel"
        for what, msg_id in refused.items():
            assert client.replies_to(msg_id) == [], f"the kernel answered the refused {what} request"
        assert client.search(said) == []
        kinds = {f.msg_type for f in client.frames}
        assert not kinds & {"execute_reply", "execute_result", "execute_input", "stream", "error"}, kinds
        # The server is what refused them (so the test would see it if that changed).
        log = log_since(served, offset)
        for kind in ("execute_request", "inspect_request", "complete_request", "history_request", "debug_request"):
            assert f'Received message of type "{kind}", which is not allowed' in log
        await client.close(shutdown=True)

    run(scenario)
    assert not marker.exists()


# ----- b) no traceback or stderr reaches a browser --------------------------------------------------


def test_a_failing_callback_at_a_real_table_shows_a_plain_message_and_no_traceback(served: Served) -> None:
    """A copy of the real three-card Loo table whose Hint raises ZeroDivisionError after writing to
    stderr and printing a stack. Clicking Hint over the websocket, then sending a value a trait
    refuses (TraitError), a message to a comm that does not exist and a widget comm_open (which the
    server refuses before the kernel sees it): no frame the client receives is an error message,
    stderr output or an error reply, or holds any trace of a traceback or of the fault. The reader
    gets the plain message of ``widgets.views.safety`` in the status line, the table plays on, and the
    kernel's own guards did all this (the server had nothing to withhold); the kernel's log holds
    what happened."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, "fault-hint", DEAL, timeout=OPEN_WAIT)
        offset = len(served.log())
        hint = client.button("loo-hint")
        await client.settled(await client.click(hint))
        message = escape(READER_MESSAGE)
        await client.wait_for(lambda: any(message in v for v in client.html_values()), WAIT, "the plain message")
        # Errors outside any callback of ours: a bad value for a synced trait, an unknown comm, a
        # widget comm the kernel cannot open.
        code_box = client.find("TextModel", "loo-code-input")
        assert len(code_box) == 1
        await client.settled(await client.set_state(code_box[0], value=12345))
        await client.settled(await client.comm_msg("no-such-comm", {"method": "custom", "content": {}}))
        # A widget comm opened from the page: the server refuses it before the kernel (issue 18).
        bogus = {"comm_id": "bogus-widget", "target_name": "jupyter.widget", "data": {"state": {}}}
        bogus_id = await client.send("comm_open", bogus, metadata={"version": "0.0.0"})
        # The table plays on.
        board = client.board()
        await act(client)
        assert client.board() != board, "the table still plays after the failure"
        assert not any(message in v for v in client.html_values()), "the message goes with the next move"
        await client.request("kernel_info_request", {})
        leaks = frames_with_traces(client.frames)
        assert leaks == [], "\n".join(leaks)
        assert "withheld" not in log_since(served, offset), "the kernel's guards, not the server, should hold these"
        assert client.replies_to(bogus_id) == [] and "refused a comm_open" in log_since(served, offset)
        await client.close(shutdown=True)

    run(scenario)
    logs = "".join(p.read_text(errors="replace") for p in served.folder.glob("kernel-*.log"))
    for happened in ("FAULT-HINT-EXPLODED", "FAULT-HINT-STDERR", "TraitError", "No such comm"):
        assert happened in logs, f"the kernel's log does not show {happened}: the fault did not happen as meant"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_server_alone_withholds_tracebacks_and_stderr_of_an_unguarded_notebook(
    served: Served, protocol: Protocol
) -> None:
    """A notebook with no guards at all (``tests/fault_tables/fault-bare.ipynb``): its button's
    callback writes to stderr, calls ``traceback.print_exc()`` and raises, so the kernel sends a
    stderr stream and an error message. The server's log shows it withheld both, and not one frame
    the client receives holds them or any trace of them; the socket still answers afterwards.
    Run in both wire forms the server may speak (v1 binary, and the legacy JSON)."""

    async def scenario() -> None:
        client = await TableClient.open(served.base, "fault-bare", protocol=protocol, timeout=OPEN_WAIT)
        offset = len(served.log())
        explode = client.find("ButtonModel", "fault-explode")
        assert len(explode) == 1, "the notebook shows its button"
        await client.settled(await client.click(explode[0]))
        withheld = (r"withheld error message", r"withheld stream message.*FAULT-BARE-STDERR")
        # Until the server says it withheld both, or the client got something it should not have.
        await poll(
            lambda: frames_with_traces(client.frames) or all(re.search(p, log_since(served, offset)) for p in withheld)
        )
        await client.request("kernel_info_request", {})  # whatever was sent before its reply is here
        leaks = frames_with_traces(client.frames)
        assert leaks == [], "\n".join(leaks)
        log = log_since(served, offset)
        for pattern in withheld:
            assert re.search(pattern, log), f"the server's log does not show {pattern!r}:\n{log[-3000:]}"
        assert "RuntimeError" in log, "the error withheld is the callback's"
        await client.close(shutdown=True)

    run(scenario)


# ----- c) only the table notebooks can be rendered; nothing else is served -------------------------


def http_chain(base: str, path: str) -> list[tuple[int, str, bytes]]:
    """GET ``path`` exactly as written (no normalising), following redirects on this server by hand;
    every response as (status, path, body)."""
    host = urlsplit(base)
    chain: list[tuple[int, str, bytes]] = []
    for _ in range(5):
        connection = http.client.HTTPConnection(host.hostname or "", host.port, timeout=OPEN_WAIT)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        chain.append((response.status, path, body))
        location = response.getheader("Location")
        if response.status not in (301, 302, 303, 307, 308) or not location:
            break
        target = urlsplit(location)
        assert target.netloc in ("", host.netloc), f"{path} redirects off the server, to {location}"
        path = target.path + (f"?{target.query}" if target.query else "")
    return chain


def refused_paths(folder: Path) -> list[str]:
    """Paths that must get a 4xx and no file content. The tables folder is ``folder/tables``;
    beside it sit the database, the server's log and ``outside.ipynb``."""
    outside = str(folder / "outside.ipynb")
    readme, pyproject, nap = str(ROOT / "README.md"), str(ROOT / "pyproject.toml"), str(ROOT / "book/tables/nap.ipynb")
    up = "../" * 12
    return [
        # Voila's renderer: anything but a table notebook in the folder
        "/voila/render/../outside.ipynb",
        "/voila/render/%2e%2e/outside.ipynb",
        "/voila/render/%2E%2E%2Foutside.ipynb",
        "/voila/render/..%2foutside.ipynb",
        "/voila/render/.%2e/outside.ipynb",
        "/voila/render/three-card-loo.ipynb/../../outside.ipynb",
        "/voila/render/./../outside.ipynb",
        f"/voila/render/{outside}",
        f"/voila/render/{quote(outside, safe='')}",
        f"/voila/render/{nap}",  # a table notebook, but not in this server's tables folder
        f"/voila/render/{up}{nap.lstrip('/')}",
        "/voila/render/../tables.sqlite3",
        "/voila/render/%2e%2e/server.out",
        f"/voila/render/{readme}",
        f"/voila/render/{up}etc/passwd",
        "/voila/render/",
        "/voila/render/nope.ipynb",
        "/voila/render/THREE-CARD-LOO.ipynb",
        "/voila/render/three-card-loo",
        # listings and the contents API
        "/voila/tree",
        "/voila/tree/",
        "/voila/api/contents",
        "/voila/api/contents/three-card-loo.ipynb",
        "/api/contents",
        "/api/contents/three-card-loo.ipynb",
        "/api/kernels",  # a list of kernels would let a reader reach another reader's table
        "/api/sessions",
        # Voila's file route: images only, never a notebook, never outside the folder
        "/voila/files/three-card-loo.ipynb",
        "/voila/files/../outside.ipynb",
        "/voila/files/%2e%2e/tables.sqlite3",
        "/voila/files/..%2fserver.out",
        f"/voila/files/{readme}",
        f"/voila/files/{up}etc/passwd",
        # the short links
        "/tables/../x",
        "/tables/..%2foutside",
        "/tables/%2e%2e/%2e%2e/pyproject.toml",  # (/tables/%2e%2e/ is the book's own root page)
        "/tables/UPPER",
        "/tables/THREE-CARD-LOO",
        "/tables/nope",
        "/tables/scratch_pad",
        "/tables/three-card-loo.ipynb",
        "/tables//etc/passwd",
        # the book's catch-all: the built book only
        "/../pyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/..%2f..%2f..%2fetc/passwd",
        f"/{up}etc/passwd",
        "//etc/passwd",
        f"/{pyproject}",
        "/book/../../pyproject.toml",
        "/_build/html/index.html",
        "/tables.sqlite3",
        "/../tables.sqlite3",
        "/%2e%2e/server.out",
        # Voila's own static routes
        "/voila/static/../../../../pyproject.toml",
        "/voila/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/voila/labextensions/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/voila/api/themes/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/voila/templates/lab/static/../../../../../../etc/passwd",
        "/voila/templates/%2e%2e/static/x",
        "/voila/templates/lanterloo",
        "/voila/templates/lanterloo/x/../../../../pyproject.toml",
        "/logout",
    ]


def secrets(folder: Path) -> dict[str, bytes]:
    """Pieces of every file that must not be served, to look for in every response."""
    return {
        "README.md": b"Lanterloo is an interactive",
        "pyproject.toml": b"[tool.ruff]",
        "/etc/passwd": b"root:x:0:0",
        "the database": b"SQLite format 3",
        "the server's log": b"Lanterloo is being served",
        "a notebook's source": b"install_kernel_guards",
        "outside.ipynb": b"OUTSIDE-RAN",
        "a notebook's cells": b'"cell_type"',
    }


def test_nothing_but_the_tables_and_the_book_is_served(served: Served) -> None:
    """Paths that reach outside the tables folder or the built book, in every spelling (``..``,
    ``%2e%2e``, ``%2f``, absolute paths, double slashes), the listing and contents routes and
    names that are not tables: each ends in a 4xx (a redirect, if any, leads to one), no response
    carries any of the files' content, and the notebook outside the folder never runs. The real
    table and the book's pages are still served."""
    leaks = []
    for path in refused_paths(served.folder):
        chain = http_chain(served.base, path)
        status = chain[-1][0]
        if not 400 <= status < 500 or any(200 <= s < 300 for s, _p, _b in chain):
            leaks.append(f"{path}: {[(s, p) for s, p, _b in chain]}")
        for what, needle in secrets(served.folder).items():
            if any(needle in body for _s, _p, body in chain):
                leaks.append(f"{path}: serves {what}")
    assert leaks == []
    assert not (served.folder / "outside-ran").exists(), "the notebook outside the tables folder ran"
    # What must still be served.
    for path in ("/", "/book/", "/book/index.html"):
        assert http_chain(served.base, path)[-1][0] == 200, path
    table = http_chain(served.base, "/tables/three-card-loo")
    assert [s for s, _p, _b in table] == [302, 200]
    assert "/voila/render/three-card-loo.ipynb?table=" in table[-1][1]
    kernel = re.search(rb'"kernelId": "([0-9a-f-]+)"', table[-1][2])
    assert kernel, "the table's page names its kernel"
    # Leave as the page does, so that its kernel does not wait to be culled.
    host = urlsplit(served.base)
    connection = http.client.HTTPConnection(host.hostname or "", host.port, timeout=WAIT)
    connection.request("POST", f"/voila/api/shutdown/{kernel.group(1).decode()}", body="_xsrf=")
    assert connection.getresponse().status == 204
    connection.close()


def test_a_notebook_in_the_tables_folder_that_is_not_a_table_never_runs(served: Served) -> None:
    """``scratch_pad.ipynb`` sits in the tables folder but its name is not a table's (as a draft or
    a stray copy might): it must be neither rendered nor run, not even preheated at the start."""
    chain = http_chain(served.base, "/voila/render/scratch_pad.ipynb")
    assert chain[-1][0] == 404, [(s, p) for s, p, _b in chain]
    assert not (served.folder / "scratch-pad-ran").exists(), "the notebook that is not a table ran"


# ----- d) no hidden card in any widget state -------------------------------------------------------


def shown_cards(text: str, cards: set[Card]) -> list[str]:
    """The cards of ``cards`` that ``text`` names: by name (labels, titles) or by face class."""
    return sorted(
        card.name for card in cards if card.name in text or re.search(rf"loo-card-{card}(?![0-9A-Za-z])", text)
    )


STYLESHEETS = {card_stylesheet(), card_stylesheet(four_colour=True)}


def not_the_stylesheet(_model_id: str, state: dict[str, Any]) -> bool:
    """The card stylesheet draws all 52 faces for every reader alike; it alone may name them all."""
    value = state.get("value")
    return isinstance(value, str) and value in STYLESHEETS


def states_sent_since(client: TableClient, start: int) -> str:
    """The text of every widget state sent to the client from frame ``start`` on, stylesheet aside."""
    sent = []
    for frame in client.frames[start:]:
        state = frame.data.get("state")
        if isinstance(state, dict) and not not_the_stylesheet("", state):
            sent.append(state)
        for entry in (frame.data.get("states") or {}).values():
            if not not_the_stylesheet("", entry.get("state") or {}):
                sent.append(entry.get("state"))
    return json.dumps(sent, ensure_ascii=False)


def test_no_widget_state_holds_a_card_the_reader_may_not_see(served: Served) -> None:
    """A table opened with a deal code: the client's own hand is the engine's deal of that code for
    the reader's seat, and neither the page nor any widget state the client holds (shown or not)
    names a card of another seat, of the miss or of the stock. After each click that plays the
    hand on, still no card the reader has not been shown; once the hand is over its cards are
    public. In the next hand, no state sent names one of its hidden cards, nor its seed."""
    deal = parse_deal_code(DEAL)
    names = TableModel(code=deal).names
    engine = load(json.dumps(code_record(deal, names))).start()
    others = {c for s in range(len(names)) if s != deal.seat for c in engine.holding(s)} | set(engine.miss or ())

    async def scenario() -> None:
        client = await TableClient.open(served.base, "three-card-loo", f"deal={DEAL}", timeout=OPEN_WAIT)
        table_id = client.table_id
        assert table_id
        store = TableStore(served.db)
        held = {w["description"] for w in client.widgets.values() if "loo-piece" in (w.get("_dom_classes") or ())}
        shown_hand = re.search(r'aria-label="your hand: ([^"]*)"', client.board())
        mine = set(shown_hand.group(1).split(", ")) if shown_hand else held
        assert mine == {c.name for c in engine.holding(deal.seat)}, "the reader holds the code's deal"
        everything = client.page + client.state_text(exclude=not_the_stylesheet)
        assert shown_cards(everything, others) == [], "another seat's card or the miss is in the page or a state"
        seen: set[Card] = set()
        for _ in range(8):
            model = TableModel.resume(store, table_id)
            if model.hand.is_over:
                break
            seen |= visible_to_reader(model)
            hidden = set(full_pack()) - seen
            assert shown_cards(client.state_text(exclude=not_the_stylesheet), hidden) == []
            await client.settled(await client.click(client.choices()[0]))
        assert TableModel.resume(store, table_id).hand.is_over, "the hand was played out"
        # The next hands: each a new deal, hidden anew. No state sent since it was dealt names one
        # of its hidden cards, and none names its seed. (A hand may be over as soon as it is dealt,
        # a "single" under Peel's rules: then on to the next.)
        checked = 0
        for _ in range(12):
            model = TableModel.resume(store, table_id)
            if model.hand.is_over:
                start, seen = len(client.frames), set()
                await client.settled(await client.click(client.button("loo-next")))
                continue
            seen |= visible_to_reader(model)
            text = states_sent_since(client, start) + "".join(v for v in client.html_values() if v not in STYLESHEETS)
            assert shown_cards(text, set(full_pack()) - seen) == []
            code = model.deal_code()
            assert code is not None and str(code.seed) not in text, "the hand's seed reached the page"
            checked += 1
            if checked == 3:
                break
            await client.settled(await client.click(client.choices()[0]))
        assert checked == 3, "three positions of later hands were checked"
        await client.close(shutdown=True)

    run(scenario)
