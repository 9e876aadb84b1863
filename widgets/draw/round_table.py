"""The live table's drawing round the cloth, by its old name: now :func:`widgets.draw.table_board.board_html`
with ``layout=ROUND``. Kept only for :func:`widgets.kernel.table_router.warm_up`, whose module is
another's to change; it goes once that calls the one renderer itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loo.core.protocols import View
from widgets.draw.table_board import ROUND, board_html


def round_board_html(view: View, names: Sequence[str], seat: int, **options: Any) -> str:
    """:func:`~widgets.draw.table_board.board_html` round the cloth."""
    return board_html(view, names, seat, layout=ROUND, **options)
