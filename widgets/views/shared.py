"""One layout and one style widget shared by many widgets, instead of one each.

Every ipywidgets control makes a ``Layout`` widget of its own, and most make a style widget as
well, even when both are left at their defaults. A live table has about fifty controls, so it
was mostly made of these: 149 widgets, 94 of them layouts and styles nobody changes. Each is a
message from the kernel when the table is built and a model the browser must fetch and build
before the table can be played. Widgets built with :func:`lean` share one default layout (or one
of the named layouts below) and one default style of their kind.

A shared layout must never be changed through one of its widgets; :func:`own_layout` gives a
widget a layout of its own, a copy of the shared one, before it is changed (as
``widgets.views.table_view`` does to show and hide a row).

>>> a, b = lean(ipw.Button, description="A"), lean(ipw.Button, description="B")
>>> a.layout is b.layout and a.style is b.style and is_shared(a.layout)
True
>>> own_layout(a).display = "none"
>>> b.layout.display is None and not is_shared(a.layout)
True
>>> row = lean(ipw.HBox, layout=ROW)
>>> row.layout.flex_flow
'row wrap'
"""

from __future__ import annotations

from typing import Any, TypeVar

import ipywidgets as ipw

W = TypeVar("W", bound=ipw.DOMWidget)

DEFAULT = "default"
ROW = "row"
"""Children laid out left to right, wrapping onto the next line, centred on one another."""
AUTO_WIDTH = "auto-width"
"""As wide as its content (a button with a long label)."""

_LAYOUTS: dict[str, dict[str, str]] = {
    DEFAULT: {},
    ROW: {"flex_flow": "row wrap", "align_items": "center"},
    AUTO_WIDTH: {"width": "auto"},
}

_LAYOUT_PROPERTIES = tuple(name for name in ipw.Layout.class_trait_names(sync=True) if not name.startswith("_"))

_made: dict[Any, ipw.Widget] = {}


def _alive(widget: ipw.Widget | None) -> bool:
    return widget is not None and widget.comm is not None  # a closed widget has no comm


def shared_layout(name: str = DEFAULT) -> ipw.Layout:
    """The layout every widget asking for ``name`` shares (made again if it was closed)."""
    layout = _made.get(name)
    if not _alive(layout):
        layout = _made[name] = ipw.Layout(**_LAYOUTS[name])
        layout.observe(_kept_as_made, names=list(_LAYOUT_PROPERTIES))
    assert isinstance(layout, ipw.Layout)
    return layout


class SharedLayoutChanged(RuntimeError):
    """A shared layout was changed: every widget sharing it would change with it (hidden, say)."""


_restoring: set[int] = set()  # the shared layouts being set back (their own change is not refused)


def _kept_as_made(change: Any) -> None:
    """A shared layout refuses a change, loudly, and keeps its value: the change would reach every
    widget that shares it (a button hidden through it once hid the whole table). Change
    ``own_layout(widget)`` instead."""
    layout, name = change["owner"], change["name"]
    if id(layout) in _restoring:
        return
    _restoring.add(id(layout))
    try:
        setattr(layout, name, change["old"])
    finally:
        _restoring.discard(id(layout))
    raise SharedLayoutChanged(f"a shared layout's {name} was set to {change['new']!r}: use own_layout(widget)")


def shared_style(style_class: type[ipw.Widget]) -> ipw.Widget:
    """The default style of ``style_class`` (``ButtonStyle``, ``HTMLStyle``…) that its widgets share."""
    style = _made.get(style_class)
    if not _alive(style):
        style = _made[style_class] = style_class()
    assert style is not None
    return style


def is_shared(widget: ipw.Widget) -> bool:
    """Whether ``widget`` is a layout or style shared by :func:`lean` widgets."""
    return any(widget is made for made in _made.values())


def lean(cls: type[W], *args: Any, layout: str | ipw.Layout = DEFAULT, **kwargs: Any) -> W:
    """``cls(*args, **kwargs)`` with a shared layout (``layout`` names it) and its kind's shared style.

    A ``layout`` given as a ``Layout`` is the widget's own; a ``style`` given is kept.
    """
    kwargs["layout"] = shared_layout(layout) if isinstance(layout, str) else layout
    style = cls.class_traits().get("style")
    if style is not None and "style" not in kwargs:
        kwargs["style"] = shared_style(style.klass)
    widget: W = cls(*args, **kwargs)
    return widget


def own_layout(widget: ipw.DOMWidget) -> ipw.Layout:
    """``widget``'s layout, first made its own (a copy of the shared one) if it was shared."""
    layout = widget.layout
    if is_shared(layout):
        copied = {name: getattr(layout, name) for name in _LAYOUT_PROPERTIES}
        widget.layout = ipw.Layout(**{name: value for name, value in copied.items() if value is not None})
    result: ipw.Layout = widget.layout
    return result


def button(description: str, tooltip: str, css: str) -> ipw.Button:
    """A :func:`lean` button labelled ``description``, with its ``tooltip`` and one CSS class ``css``
    (what the page's script and the tests find it by)."""
    return lean(ipw.Button, description=description, tooltip=tooltip, _dom_classes=[css])


def switch(description: str, tooltip: str) -> ipw.Checkbox:
    """A :func:`lean` check box, off, labelled ``description`` beside it (not indented), with its ``tooltip``."""
    return lean(ipw.Checkbox, value=False, description=description, indent=False, tooltip=tooltip)
