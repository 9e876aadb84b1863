"""Gzip for every text and script the server sends.

Voila builds its tornado application before it applies ``tornado_settings``, so the setting
``compress_response`` given there compresses nothing; :func:`compress_responses` appends
:class:`GzipResponses` to the application's output transforms instead, which tornado applies to
every response: the book's files, the table pages, Voila's scripts, the startup bundle and the
card sheet. Besides tornado's own list (text, JavaScript, JSON, XML, SVG) it compresses
WebAssembly and uncompressed font files (Pyodide's runtime in the book, the icon fonts).

A static file is the same bytes for every reader, and gzip costs about 50 ms of a core per
megabyte (0.2 s for the 3.8 MB startup bundle): a response with an ``Etag`` (a static file, the
startup bundle, the card sheet) of :data:`CACHE_MIN_BYTES` or more is compressed once per
version and kept (at most :data:`CACHE_BYTES`), so a class of thirty opening its tables at once
does not gzip Voila's scripts thirty times. A partial response (206, a range) is sent as it is.
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict
from typing import Any

import tornado.httputil
import tornado.web

CACHE_BYTES = 64 << 20  # compressed static responses kept, in all
CACHE_MIN_BYTES = 32 << 10  # a smaller response is compressed each time (a page's own HTML, say): cheap
EXTRA_TYPES = frozenset(
    {
        "application/wasm",
        "application/manifest+json",
        "application/ld+json",
        "application/vnd.ms-fontobject",
        "font/ttf",
        "font/otf",
        "application/x-font-ttf",
    }
)


class _Cache:
    """Compressed bodies by (path, Etag), the least recently used dropped past ``limit`` bytes."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.bodies: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.size = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> bytes | None:
        with self._lock:
            body = self.bodies.get(key)
            if body is not None:
                self.bodies.move_to_end(key)
            return body

    def put(self, key: tuple[str, str], body: bytes) -> None:
        if len(body) > self.limit:
            return
        with self._lock:
            old = self.bodies.pop(key, None)
            self.size -= len(old) if old is not None else 0
            self.bodies[key] = body
            self.size += len(body)
            while self.size > self.limit:
                _, dropped = self.bodies.popitem(last=False)
                self.size -= len(dropped)


cache = _Cache()


class GzipResponses(tornado.web.GZipContentEncoding):
    """Tornado's gzip transform, for more content types, with static files compressed once."""

    CONTENT_TYPES = tornado.web.GZipContentEncoding.CONTENT_TYPES | EXTRA_TYPES

    def __init__(self, request: tornado.httputil.HTTPServerRequest) -> None:
        super().__init__(request)
        self._path = request.path
        self._key: tuple[str, str] | None = None  # a static body to compress whole and keep
        self._parts: list[bytes] = []
        self._cached = False  # the whole body was sent from the cache: the handler's chunks are dropped

    def transform_first_chunk(
        self, status_code: int, headers: tornado.httputil.HTTPHeaders, chunk: bytes, finishing: bool
    ) -> tuple[int, tornado.httputil.HTTPHeaders, bytes]:
        if status_code != 200 or "Content-Range" in headers:
            self._gzipping = False
        etag = headers.get("Etag")
        ctype = str(headers.get("Content-Type", "")).split(";")[0]
        if (
            self._gzipping
            and etag
            and "Content-Encoding" not in headers
            and self._compressible_type(ctype)
            and (not finishing or len(chunk) >= CACHE_MIN_BYTES)
        ):
            self._key = (self._path, etag)
            headers["Vary"] = f"{headers['Vary']}, Accept-Encoding" if "Vary" in headers else "Accept-Encoding"
            headers["Content-Encoding"] = "gzip"
            body = cache.get(self._key)
            if body is not None:
                self._cached = True
                headers["Content-Length"] = str(len(body))
                return status_code, headers, body
            if finishing:
                body = self._whole(chunk)
                headers["Content-Length"] = str(len(body))
                return status_code, headers, body
            headers.pop("Content-Length", None)
            self._parts.append(chunk)
            return status_code, headers, b""
        return super().transform_first_chunk(status_code, headers, chunk, finishing)

    def transform_chunk(self, chunk: bytes, finishing: bool) -> bytes:
        if self._cached:
            return b""
        if self._key is not None:
            self._parts.append(chunk)
            return self._whole(b"") if finishing else b""
        return super().transform_chunk(chunk, finishing)

    def _whole(self, last: bytes) -> bytes:
        assert self._key is not None
        body = gzip.compress(b"".join([*self._parts, last]), compresslevel=self.GZIP_LEVEL, mtime=0)
        self._parts = []
        cache.put(self._key, body)
        return body


def compress_responses(app: Any) -> None:
    """Make ``app`` (a tornado application) gzip what it sends to a client that accepts it."""
    if GzipResponses not in app.transforms:
        app.transforms.append(GzipResponses)
