"""The in-browser table's Python half (widgets.kernel.inpage), run here with no IPython, as in Pyodide.

Each test runs in a fresh Python process: ``install`` replaces ``comm.create_comm`` for the whole
process, and IPython is kept out of it (``sys.modules["IPython"] = None``) so that the stand-in is
what ipywidgets imports, as in the reader's browser. The process plays the page: it collects what
Python posts and sends back clicks as the page's widget manager would.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

PAGE = textwrap.dedent(
    """
    import json, sys
    sys.modules["IPython"] = None  # as in Pyodide: no IPython to import
    posted = []
    from widgets.kernel import inpage
    inpage.install(lambda text: posted.append(json.loads(text)))
    import comm

    def opened():
        return {m["comm_id"]: m for m in posted if m["type"] == "comm_open"}

    def states():
        # each widget's state as the page's manager would hold it: opened, then updated
        current = {}
        for m in posted:
            if m["type"] == "comm_open":
                current[m["comm_id"]] = dict(m["data"]["state"])
            elif m["type"] == "comm_msg" and m["data"].get("method") in ("update", "echo_update"):
                current.setdefault(m["comm_id"], {}).update(m["data"]["state"])
            elif m["type"] == "comm_close":
                current.pop(m["comm_id"], None)
        return current

    def press(comm_id):
        inpage.receive(json.dumps({"type": "comm_msg", "comm_id": comm_id, "id": 7,
                                   "data": {"method": "custom", "content": {"event": "click"}}}))

    def click(description):
        for comm_id, state in states().items():
            if state.get("_model_name") == "ButtonModel" and state.get("description") == description \\
                    and not state.get("disabled"):
                press(comm_id)
                return True
        return False

    def click_a_choice():
        # the first of the reader's choices on offer (a bid, a card, a declaration)
        for comm_id, state in states().items():
            if state.get("_model_name") == "ButtonModel" and "loo-choice" in state.get("_dom_classes", []) \\
                    and not state.get("disabled"):
                press(comm_id)
                return True
        return False
    """
)


# Run from a folder of the project's code alone, as in the browser: first on the path, and the editable
# install's finder (which would find any module of this clone) taken away.
ONLY_FROM = """
import sys
sys.path.insert(0, {code!r})
sys.meta_path[:] = [f for f in sys.meta_path if "Editable" not in repr(f)]
"""


def run_page(script: str, code: Path = ROOT) -> list[Any]:
    """Run ``script`` after the page set-up above, with the project's code from ``code`` only; it prints
    JSON lines, returned parsed."""
    only = ONLY_FROM.format(code=str(code)) if code != ROOT else ""
    done = subprocess.run(
        [sys.executable, "-c", only + PAGE + textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=code,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def test_a_table_opens_as_widget_comms_and_is_displayed_by_its_model_id() -> None:
    [out] = run_page(
        """
        inpage.open_table("three-card-loo", "peel", "")
        ids = opened()
        shown = [m for m in posted if m["type"] == "display"]
        targets = {m["target_name"] for m in ids.values()}
        print(json.dumps({"shown": [m["model_id"] for m in shown], "known": sorted(ids),
                          "targets": sorted(targets), "ipython": type(sys.modules["IPython"]).__name__,
                          "saves": [m for m in posted if m["type"] == "save"]}))
        """
    )
    assert len(out["shown"]) == 1 and out["shown"][0] in out["known"], "the table's own model is displayed"
    assert out["targets"] == ["jupyter.widget"]
    assert out["ipython"] == "module"  # the stand-in
    assert len(out["saves"]) == 1 and out["saves"][0]["count"] >= 1, "the new game is kept as it starts"
    assert out["saves"][0]["events"][0]["type"] == "start"


def test_a_click_reaches_the_game_is_answered_idle_and_saved() -> None:
    [out] = run_page(
        """
        inpage.open_table("nap", "hoffmann", "?deal=nap.hoffmann.s0.n4242")
        before = len(posted)
        clicked = click("Pass")
        after = posted[before:]
        print(json.dumps({"clicked": clicked, "types": [m["type"] for m in after],
                          "saves": [m["count"] for m in after if m["type"] == "save"],
                          "start": [m for m in posted if m["type"] == "save"][0]["events"][0]}))
        """
    )
    assert out["clicked"]
    assert out["types"][-1] == "idle", "the page is told the message was handled"
    assert "comm_msg" in out["types"], "the table's widgets changed in the page"
    assert out["saves"] and out["saves"][-1] > 1, "the reader's move was kept"
    assert out["start"]["code"] == "nap.hoffmann.s0.n4242", "the deal code in the address was dealt"


def test_a_saved_game_resumes_where_it_was_left() -> None:
    [first] = run_page(
        """
        inpage.open_table("nap", "hoffmann", "?deal=nap.hoffmann.s0.n4242")
        assert click_a_choice()
        print(json.dumps([m for m in posted if m["type"] == "save"][-1]))
        """
    )
    kept = json.dumps({k: first[k] for k in ("table_id", "page", "count", "events")})
    [second] = run_page(
        f"""
        inpage.open_table("nap", "hoffmann", "", {kept!r})
        from widgets.table.journal import MemoryJournals
        saves = [m for m in posted if m["type"] == "save"]
        print(json.dumps({{"saves": saves, "opened": len(opened())}}))
        """
    )
    assert second["opened"] > 0 and second["saves"] == [], "resumed, with nothing new to keep"
    [third] = run_page(
        f"""
        inpage.open_table("nap", "hoffmann", "", {kept!r})
        assert click_a_choice()
        saves = [m for m in posted if m["type"] == "save"]
        print(json.dumps(saves[-1] if saves else None))
        """
    )
    assert third is not None and third["table_id"] == first["table_id"] and third["count"] > first["count"]


def test_an_unreadable_saved_game_gives_a_new_table() -> None:
    [out] = run_page(
        """
        inpage.open_table("domino-loo", None, "", "{not json")
        print(json.dumps({"displayed": sum(m["type"] == "display" for m in posted),
                          "saves": [m["count"] for m in posted if m["type"] == "save"]}))
        """
    )
    assert out == {"displayed": 1, "saves": [1]}, "a new game, kept from its start"


def test_links_to_new_tables_stay_on_the_page_and_the_note_says_where_the_game_is_kept() -> None:
    [out] = run_page(
        """
        from widgets.views import live_table
        address = live_table.home.address
        print(json.dumps([address("nap", "nap.hoffmann.s0.n1"), address("nap", None), live_table.home.saved_note]))
        """
    )
    assert out[:2] == ["?deal=nap.hoffmann.s0.n1", "?"]
    assert "kept in this browser" in out[2] and "address" not in out[2]


def test_prepare_imports_the_table_with_no_tie_to_the_page() -> None:
    """What the worker snapshots: the table's modules imported, nothing of the page's referred to."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
            import json, sys
            sys.modules["IPython"] = None
            from widgets.kernel import inpage
            inpage.prepare()
            import comm
            print(json.dumps({"post": inpage._post is None, "ipywidgets": "ipywidgets" in sys.modules,
                              "table": "widgets.views.live_table" in sys.modules,
                              "engine": "loo.games.loo.hand" in sys.modules,
                              "comm": comm.create_comm.__module__}))
            """
            ),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out == {"post": True, "ipywidgets": True, "table": True, "engine": True, "comm": "comm"}


def test_the_code_shipped_to_the_browser_plays_a_table_without_the_servers_packages(tmp_path: Path) -> None:
    """What the book ships to the reader's browser (web/build_inpage.py's zip, decided by package): loo
    whole and widgets but its server, store and multiseat packages (the book's questions ship: a table
    asks the reader's practice positions with them). Run from that zip alone, a
    table opens, takes a click and saves it, and the packages left out cannot be imported."""
    sys.path.insert(0, str(ROOT / "web"))
    try:
        import build_inpage
    finally:
        sys.path.remove(str(ROOT / "web"))
    zipfile.ZipFile(io.BytesIO(build_inpage.pack_code())).extractall(tmp_path)
    shipped = {p.parent.name for p in (tmp_path / "widgets").glob("*/__init__.py")}
    assert shipped == {"draw", "table", "views", "kernel", "book"}, shipped
    [out] = run_page(
        """
        import importlib.util
        inpage.open_table("three-card-loo", None, "", None)
        assert click_a_choice()
        left_out = [p for p in ("widgets.server", "widgets.store", "widgets.multiseat")
                    if importlib.util.find_spec(p) is not None]
        print(json.dumps({"from": inpage.__file__, "saves": [m["count"] for m in posted if m["type"] == "save"],
                          "left_out": left_out}))
        """,
        code=tmp_path,
    )
    assert out["from"].startswith(str(tmp_path)), out["from"]
    assert out["saves"][-1] >= 2 and out["left_out"] == [], out
