"""The server's own plain pages (not Voila's): a message, a form, the students' landing, the console.

One page shape for all of them, with nothing to load beyond the page itself. Its own module, below
every handler that answers with one, so that the database's "cannot be reached" page and the shared
tables' pages need not import each other.
"""

from __future__ import annotations

import html

PAGE_STYLE = """
  body { margin: 0; background: #f4f1ea; color: #1f1f1f;
         font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem; }
  h1 { font-size: 1.6rem; line-height: 1.2; margin: 0 0 .8rem; }
  h2 { font-size: 1.2rem; margin: 1.4rem 0 .5rem; }
  a { color: #174a7c; }
  table { border-collapse: collapse; margin: .5rem 0; max-width: 100%; }
  th, td { border: 1px solid #c9c2b2; padding: .3rem .5rem; text-align: left; vertical-align: top; }
  th { background: #e9e3d5; }
  .scroll { overflow-x: auto; }
  code, .link { word-break: break-all; font-size: .9rem; }
  form { margin: .5rem 0; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
  input, select, button { font: inherit; padding: .3rem .5rem; }
  button { background: #174a7c; color: #fff; border: 0; border-radius: .3rem; padding: .4rem 1rem; cursor: pointer; }
  .note { color: #555; font-size: .9rem; }
  .seat-qr svg { width: 6rem; height: 6rem; display: block; }
  .seat-code strong { font-size: 1.3rem; letter-spacing: .08em; white-space: nowrap; }
"""


def page(title: str, body: str, *, heading: str | None = None, style: str = PAGE_STYLE) -> str:
    """A plain page of the server's own (not Voila's): ``title`` in the browser's tab and as the page's
    heading (or ``heading``), then ``body`` (HTML), in ``style``."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Lanterloo</title>
<style>{style}</style>
</head>
<body>
<main>
<h1>{html.escape(heading if heading is not None else title)}</h1>
{body}
</main>
</body>
</html>
"""
