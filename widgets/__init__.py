"""Lanterloo's widgets: the live tables, the book's helpers, and the server (:mod:`widgets.server`)."""
