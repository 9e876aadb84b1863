"""Lanterloo's widgets: the live tables, the book's helpers and the server, in sub-packages (see
docs/engine.md): :mod:`widgets.draw` (HTML), :mod:`widgets.table` (a table's game),
:mod:`widgets.views` (the ipywidgets), :mod:`widgets.kernel` (a table's kernel, and the in-browser
bridge), :mod:`widgets.multiseat` (shared tables), :mod:`widgets.store` (the tables' database),
:mod:`widgets.book` (the book's helpers) and :mod:`widgets.server`."""
