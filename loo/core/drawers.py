"""How a card, a hand or a tile draws itself in a notebook (Jupyter's ``_repr_svg_``).

The vocabulary (:mod:`loo.core.cards`, :mod:`loo.core.tiles`) asks :func:`drawn`; the drawing module
(:mod:`loo.svg`, which the package ``loo`` imports) says how with :func:`register`. So the pieces never
import their drawing, and the drawing imports the pieces: one direction, no circle.

>>> class Pebble: ...
>>> drawn(Pebble()) is None
True
>>> register(Pebble, lambda p: "<svg/>")
>>> drawn(Pebble())
'<svg/>'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_DRAWERS: dict[type, Callable[[Any], str]] = {}


def register(kind: type, draw: Callable[[Any], str]) -> None:
    """Draw each ``kind`` of piece with ``draw`` (its SVG markup)."""
    _DRAWERS[kind] = draw


def drawn(piece: object) -> str | None:
    """``piece`` drawn as SVG, or None (Jupyter then shows its text) if no drawing is registered."""
    draw = _DRAWERS.get(type(piece))
    return draw(piece) if draw is not None else None
