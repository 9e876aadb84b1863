"""Serve the built book and the live tables from one process, on one origin.

``python -m widgets.server`` (the ``lanterloo`` command) starts a subclass of Voila
(:mod:`widgets.server.app`) that:

* serves the static book at the site root, after Voila's own routes, so the
  tables live at ``/voila/render/<table>.ipynb`` and ``/tables/<table>`` is a
  short link to them;
* gives Voila a root holding only the table notebooks, with no directory
  listing and no contents API;
* preheats a kernel per table (``--class-size`` of a class's table), culls idle kernels, lets a
  closing page shut its kernel down, and shuts down the kernel of a page that vanished once
  ``--reconnect-grace`` seconds pass with no page back (:class:`widgets.server.sockets.Departures`);
* runs at most ``--max-tables`` table kernels at once (:class:`TableSeats`): past that, a
  request for a table gets a plain "The tables are full" page (503) instead of a kernel;
* sets TCP no-delay on the kernel websocket (Nagle's algorithm otherwise adds
  ~40 ms to every click);
* drops error and stderr messages on their way to the browser, so no
  traceback ever reaches a reader, whatever a kernel does;
* uses the ``lanterloo`` template, which links nothing from a CDN;
* makes a table page quick to open: the page links the card sheet (:class:`CardSheetHandler`)
  rather than each table sending it, loads a do-nothing stand-in for MathJax (:data:`NO_MATH_JS`),
  gets the chunks of Voila's front end in one script rather than 68 (:data:`VOILA_STARTUP_CHUNKS`),
  and the pool of preheated kernels is refilled only once the reader's page has had the machine
  to itself (:data:`REFILL_DELAY_SECONDS`). A preheated kernel has run its notebook to the end
  before anyone asks (:func:`widgets.kernel.table_router.table_for_request`), so the page is sent whole
  at once and the kernel deals while the browser loads the page's scripts. While readers are
  playing, the pools refill one kernel at a time (:class:`OneRefillAtATime`), so a class that
  opened its tables together keeps a core for its clicks;
* gives every new table an id: ``/tables/<table>`` (and a table's Voila page asked for without
  one) is redirected to the same page with ``?table=<id>``, a fresh unguessable id reserved in
  the tables' database (``--db``, see :mod:`widgets.store.sqlite`), so the address bar holds the id from
  the first response, a reload at any moment comes back to the same game, no script has to
  rewrite the address, and a kernel can tell a new table (reserved, never played) from a forged
  or unknown id (not in the database); the kernel saves the game under that id and resumes it
  when the address is opened again. A deal code in the query (``?deal=...``) is kept;
* never waits for the database on the thread that answers requests (issue 28): every call to it
  runs on a few threads of its own (:mod:`widgets.server.database`), a request waits for it five
  seconds at most and then gets a plain "The games cannot be saved or loaded just now" (503),
  and no statement waits longer than a few seconds whatever the database does
  (:mod:`widgets.store.postgres`).

The server withstands its own readers (issue 18): every bound below is enforced where the input
enters, and each has a test that attacks it over the real websocket or HTTP
(``tests/browser/test_withstand.py``; ``bench/attack.py`` measures them):

* the request-details socket ``/voila/query/<kernel id>`` is the kernel's alone: it must show an
  HMAC of its id under its connection key (:class:`KernelRequestInfoHandler`), else 403;
* a kernel websocket message is at most :data:`MAX_MESSAGE_BYTES` (1 MB; tornado's
  ``websocket_max_message_size`` too), and a binary frame's part count (at most
  :data:`MAX_FRAME_PARTS`) and offsets must fit the frame before anything parses it
  (:func:`frame_problem`); otherwise the socket is closed;
* a page opens no comm but ``jupyter.widget.control`` (:data:`PAGE_COMM_TARGETS`), at most
  :data:`MAX_COMM_OPENS` per connection and :data:`MAX_COMM_OPEN_BYTES` each; messages with no
  readable header, on a channel a page does not use, of a type not allowed, or repeating one of
  the connection's last :data:`RECENT_MESSAGE_IDS` ids are dropped before the kernel;
* a kernel websocket whose page does not read is dropped once :data:`MAX_PENDING_BYTES` (8 MB)
  wait for it, and writing to a closed socket logs nothing;
* the HTTP server waits ``--request-timeout`` seconds (:data:`DEFAULT_REQUEST_TIMEOUT`, 30) for a
  request's headers, its body, and on an idle connection; reads at most :data:`MAX_HEADER_BYTES`
  (96 KB) of head and :data:`MAX_BODY_BYTES` (64 KB) of body; answers an address over
  :data:`MAX_URI_BYTES` (8 KB) with a plain 414; and, out of files, pauses accepting
  (:func:`quiet_accept_handler`) rather than log a traceback a turn;
* one client address holds at most ``--max-tables-per-client`` places (:func:`default_share`:
  all of a server's up to 8, else three quarters of ``--max-tables`` and at least 8);
* a request whose ``Host`` is not the server's (``localhost``, the host name, an IP address of
  this machine, or an ``--allowed-host`` name; :func:`host_allowed`) gets a plain 400, websockets
  included; a NUL in a book path is a 404;
* what the server logs about a client, its access log of failed requests included
  (:func:`log_request`, each address cut to 300 characters), goes through :class:`ClientLog`: at
  most :data:`LOG_LINES_PER_CLIENT_MINUTE` (60) lines a client address a minute, then one summary line.

The package, by what each module owns:

* :mod:`widgets.server.app`: the Voila subclass, its configuration and its running;
* :mod:`widgets.server.start`: the command line, in the steps of a start;
* :mod:`widgets.server.pages`: the book, the table pages and what they load;
* :mod:`widgets.server.seats`: places for live tables, new table ids, pool refills;
* :mod:`widgets.server.database`: the server's calls to the tables' database, off its event loop;
* :mod:`widgets.server.sockets`: the kernel websocket and the request-details socket;
* :mod:`widgets.server.guards`: HTTP timeouts and sizes, running out of files, host names;
* :mod:`widgets.server.logs`: the log's format, what a client may cause to be written, and no
  ``token=`` value in any line;
* :mod:`widgets.server.console`: the teacher's console, its token taken once for a session cookie;
* :mod:`widgets.server.classroom`: the addresses a class types, their QR codes, ``/class``;
* :mod:`widgets.server.compress`: gzip on every text and script sent;
* :mod:`widgets.server.kernels`: table kernels started lean (:mod:`widgets.kernel.table_kernel`).
"""

import sys

# jsonschema checks the "iri" formats with rfc3987_syntax when it is installed (jupyter-events asks
# for jsonschema's format extras), and importing that compiles 38 grammars: 3 s of the server's 6 s
# start, for every server and every test that starts one. No schema the server loads has an "iri"
# format (Jupyter's event schemas among them), so the import is refused and jsonschema leaves that
# one format unchecked. Set only if nothing has imported it yet.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

from widgets.server.start import main  # noqa: E402

__all__ = ["main"]
