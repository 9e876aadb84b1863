"""A class's tables on the real server (issue 21): a page that vanished frees its table
``--reconnect-grace`` seconds after its kernel websocket closed, and a page whose network blinked
and reconnected within that keeps its table. Scripted kernel-websocket clients stand in for the
pages (tests/kernel_client.py); the server runs one table notebook, with a grace of 5 s."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Iterator

import pytest
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from tests.conftest import ROOT, Served, run_async, serve_server
from tests.kernel_client import TableClient

TABLE = "three-card-loo"
GRACE = 5.0  # seconds (--reconnect-grace); the server looks every quarter of it


@pytest.fixture(scope="module")
def graced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tables = tmp_path_factory.mktemp("one-table")
    shutil.copy(ROOT / "book" / "tables" / f"{TABLE}.ipynb", tables)
    folder = tmp_path_factory.mktemp("graced")
    with serve_server(folder, "--reconnect-grace", str(GRACE), tables=tables) as served:
        yield served


async def _blink_and_vanish(served: Served) -> tuple[bool, bool, bool, float]:
    blinker = await TableClient.open(served.base, TABLE, timeout=120)
    vanisher = await TableClient.open(served.base, TABLE, timeout=120)
    await blinker.close()  # each drops its socket with no word, as a crashed page or lost Wi-Fi does
    await vanisher.close()
    gone_at = time.monotonic()
    await asyncio.sleep(1.5)  # the network comes back: the page's socket reconnects to its kernel
    ws_base = "ws" + served.base.removeprefix("http")
    again = f"{ws_base}/api/kernels/{blinker.kernel_id}/channels?session_id=again"
    back = await websocket_connect(HTTPRequest(again, headers={"Origin": served.base}))
    while vanisher.kernel_id in served.kernel_ids() and time.monotonic() - gone_at < 30:
        await asyncio.sleep(0.1)
    vanished_after = time.monotonic() - gone_at
    await asyncio.sleep(GRACE + 2 - (time.monotonic() - gone_at))  # past the grace, and a look since
    blinker_kept = blinker.kernel_id in served.kernel_ids()
    vanisher_kept = vanisher.kernel_id in served.kernel_ids()
    back.close()  # now the blinking page goes for good
    left = time.monotonic()
    while blinker.kernel_id in served.kernel_ids() and time.monotonic() - left < 30:
        await asyncio.sleep(0.1)
    return blinker_kept, vanisher_kept, blinker.kernel_id not in served.kernel_ids(), vanished_after


def test_a_vanished_page_frees_its_table_after_the_grace_and_a_blinking_one_keeps_it(graced: Served) -> None:
    blinker_kept, vanisher_kept, blinker_freed, vanished_after = run_async(_blink_and_vanish(graced))
    assert not vanisher_kept and GRACE <= vanished_after < GRACE + 3
    assert blinker_kept, "a page that reconnected within the grace lost its table"
    assert blinker_freed, "the blinking page's table stayed once the page went for good"
    assert "did not come back; shutting it down" in graced.log()
