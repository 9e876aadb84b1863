"""Citations labelled by their source's short name: [Peel], [Hoffmann], rather than [Pee], [Hof].

The bibliography's entries carry a ``shorthand`` field (book/references.bib); this pybtex style
uses it as the label, falling back to the entry's key, and is otherwise pybtex's ``unsrt``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle


class ShorthandLabels(BaseLabelStyle):  # type: ignore[misc]
    def format_labels(self, sorted_entries: Iterable[Any]) -> Iterator[str]:
        for entry in sorted_entries:
            yield entry.fields.get("shorthand", entry.key)


class LanterlooStyle(UnsrtStyle):  # type: ignore[misc]
    default_label_style = ShorthandLabels


def setup(app: Any) -> dict[str, Any]:
    register_plugin("pybtex.style.formatting", "lanterloo", LanterlooStyle)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
