"""A class in one room: the addresses students type to reach the server, and a QR code of them.

When the server listens on the network (``--class``, or ``--ip 0.0.0.0``), :func:`student_addresses`
lists an address per IPv4 address of the machine (loopback left out), with the port;
:func:`terminal_qr` draws a QR code of one in the terminal with Unicode half blocks (two rows of
modules a line), and ``/class`` (:class:`ClassPageHandler`) is a page a teacher can project: the
addresses in large type and each one's QR code as SVG (:func:`qr_svg`). The QR codes are made by
``segno`` (pure Python).

>>> urls = student_urls(["192.168.1.20"], 8000)
>>> urls
['http://192.168.1.20:8000/']
>>> size = len(qr_matrix(urls[0]))
>>> size >= 21 and (size - 17) % 4 == 0   # a QR code is 21, 25, 29, ... modules a side
True
"""

from __future__ import annotations

import contextlib
import fcntl
import html
import ipaddress
import socket
import struct
from collections.abc import Callable, Iterable, Sequence

import segno
import tornado.web

from widgets.server.plain_page import page

WILDCARDS = frozenset({"", "0.0.0.0", "::"})
_SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address
_QUIET = 2  # light modules around a terminal's code (the standard asks 4; 2 reads well on a screen)


def _interface_ipv4() -> list[str]:
    """Every IPv4 address of this machine's network interfaces (Linux), loopback included."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
                found.append(socket.inet_ntoa(packed[20:24]))
    return found


def _resolved_ipv4() -> list[str]:
    """This machine's IPv4 addresses as its host name resolves (where interfaces cannot be read)."""
    with contextlib.suppress(OSError):
        return [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return []


def machine_ipv4(sources: Iterable[Callable[[], list[str]]] = (_interface_ipv4, _resolved_ipv4)) -> list[str]:
    """This machine's IPv4 addresses other than loopback, private (LAN) ones first, each once."""
    seen: dict[str, None] = {}
    for source in sources:
        try:
            for address in source():
                seen.setdefault(address, None)
        except OSError:
            continue
    usable = [ipaddress.IPv4Address(a) for a in seen]
    usable = [a for a in usable if not a.is_loopback and not a.is_link_local]
    return [str(a) for a in sorted(usable, key=lambda a: (not a.is_private, a))]


def listening_ipv4(ip: str, machine: Callable[[], list[str]] = machine_ipv4) -> list[str]:
    """The addresses other computers can reach a server listening on ``ip`` at: every one of the
    machine's for a wildcard, ``ip`` itself for one address, none for loopback.

    >>> listening_ipv4("0.0.0.0", lambda: ["10.0.0.5", "192.168.1.20"])
    ['10.0.0.5', '192.168.1.20']
    >>> listening_ipv4("192.168.1.20"), listening_ipv4("127.0.0.1"), listening_ipv4("localhost")
    (['192.168.1.20'], [], [])
    """
    if ip in WILDCARDS:
        return machine()
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:  # a host name: this computer only if it is localhost
        return [] if ip.lower() in ("localhost", "localhost.localdomain") else [ip]
    return [] if address.is_loopback else [str(address)]


def student_urls(addresses: Sequence[str], port: int, path: str = "/") -> list[str]:
    """The address a student types for each of ``addresses`` (an IPv6 one in brackets)."""
    hosts = (f"[{a}]" if ":" in a else a for a in addresses)
    return [f"http://{host}{'' if port == 80 else f':{port}'}{path}" for host in hosts]


def student_addresses(ip: str, port: int) -> list[str]:
    """What students type to reach a server listening on ``ip``:``port`` (none if only this computer can)."""
    return student_urls(listening_ipv4(ip), port)


# The origin students reach the server at (the first of :func:`student_addresses`, without its last
# slash), set as the server starts (widgets.server.start.announce); None when only this computer can reach it.
_public_origin: str | None = None


def set_public_origin(url: str | None) -> None:
    global _public_origin
    _public_origin = url.rstrip("/") if url else None


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a request's host name, without its port) names this computer only."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def handed_out_origin(protocol: str, host: str, host_name: str, public: str | None = None) -> str:
    """The scheme and host of an address the server hands out to be opened on other devices (a seat's
    invitation link, say), for a request that came to ``protocol``://``host``.

    A teacher on the server's own computer often reaches it at 127.0.0.1 or localhost: a link copied
    from that request would send a student's device to itself. Then the address students reach it at
    (``public``, by default the one the server found as it started) is given instead; a request that
    came by any other name (the LAN address, a proxy's name) is answered with that name.

    >>> handed_out_origin("http", "127.0.0.1:8000", "127.0.0.1", "http://192.168.1.20:8000")
    'http://192.168.1.20:8000'
    >>> handed_out_origin("http", "192.168.1.20:8000", "192.168.1.20", "http://10.0.0.5:8000")
    'http://192.168.1.20:8000'
    >>> handed_out_origin("http", "localhost:8000", "localhost", None)   # nobody else can reach it
    'http://localhost:8000'
    """
    public = _public_origin if public is None else public
    if public and is_loopback_host(host_name):
        return public
    return f"{protocol}://{host}"


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` (error correction M, so a projected code survives a little glare),
    as rows of modules, True for dark, without its quiet zone."""
    code = segno.make_qr(text, error="m", boost_error=False)
    return [[bool(module) for module in row] for row in code.matrix]


def terminal_qr(text: str, *, colour: bool = True) -> str:
    """The QR code of ``text`` for a terminal: each line two rows of modules as Unicode half blocks,
    with a quiet zone. With ``colour``, black on white whatever the terminal's own colours (a phone
    reads a code dark on light); without, the blocks stand for dark modules."""
    rows = qr_matrix(text)
    width = len(rows[0]) + 2 * _QUIET
    light = [False] * width
    padded = [light] * _QUIET + [[False] * _QUIET + row + [False] * _QUIET for row in rows] + [light] * (_QUIET + 1)
    glyphs = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584", (True, True): "\u2588"}
    lines = []
    for top, bottom in zip(padded[0::2], padded[1::2], strict=False):
        line = "".join(glyphs[pair] for pair in zip(top, bottom, strict=True))
        lines.append(f"\x1b[30;107m{line}\x1b[0m" if colour else line)
    return "\n".join(lines)


def qr_svg(text: str, *, label: str) -> str:
    """The QR code of ``text`` as an inline SVG image, dark modules in one path, with ``label`` as
    its accessible name (a title, and a description naming the address it opens)."""
    rows = qr_matrix(text)
    side = len(rows) + 8  # the standard's quiet zone of four modules each side
    runs = []
    for y, row in enumerate(rows):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append(f"M{start + 4} {y + 4}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" role="img" '
        f'shape-rendering="crispEdges" class="loo-class-qr">'
        f"<title>{html.escape(label)}</title><desc>A QR code that opens {html.escape(text)}</desc>"
        f'<rect width="{side}" height="{side}" fill="#fff"/><path fill="#000" d="{"".join(runs)}"/></svg>'
    )


_PAGE_STYLE = """
  body { margin: 0; background: #fff; color: #111; font: 1.25rem/1.5 system-ui, -apple-system, "Segoe UI",
         Roboto, sans-serif; }
  main { max-width: 72rem; margin: 0 auto; padding: 2rem 1.5rem; }
  h1 { font-size: 2rem; margin: 0 0 1rem; }
  .loo-class-address { font: 700 clamp(1.25rem, 6vw, 4.5rem)/1.15 ui-monospace, "DejaVu Sans Mono", monospace;
                       overflow-wrap: anywhere; margin: 0 0 1rem; }
  .loo-class-one { display: flex; flex-wrap: wrap; gap: 2rem; align-items: center; margin: 0 0 2.5rem; }
  .loo-class-qr { width: min(22rem, 80vw); height: auto; }
  .loo-class-note { color: #333; max-width: 44rem; }
  a { color: #174a7c; }
"""


def class_page(urls: Sequence[str], *, listening: str) -> str:
    """``/class``: the addresses students type, large, each with its QR code, for a projector; or,
    for a server only this computer can reach, how to start one the class can reach."""
    if urls:
        blocks = "".join(
            f'<section class="loo-class-one" aria-label="Address {n}">'
            f'<p class="loo-class-address">{html.escape(url)}</p>'
            f"{qr_svg(url, label=f'QR code of {url}')}</section>"
            for n, url in enumerate(urls, 1)
        )
        lead = (
            "<p>On a computer, tablet or phone on this room's network, open a web browser and type the "
            "address below, or point a phone's camera at its code.</p>"
        )
        more = (
            "<p class='loo-class-note'>The machine has more than one network address: students use the one "
            "of the network they are on (a school's Wi-Fi usually starts 10. or 192.168.).</p>"
            if len(urls) > 1
            else ""
        )
    else:
        blocks = ""
        lead = (
            f"<p>This server listens on {html.escape(listening)}, which only this computer can reach. "
            "To let a class reach it, stop it (Ctrl-C) and start it again with <code>lanterloo --class</code> "
            "(or <code>make class</code>).</p>"
        )
        more = ""
    return page(
        "Join the class",
        f"""{lead}
{blocks}
{more}
<p class="loo-class-note">Then choose a game from <a href="/tables/">the tables</a>, or open the
address your teacher gives you with a deal code, so that everyone plays the same cards.</p>""",
        heading="Join the class at Lanterloo's tables",
        style=_PAGE_STYLE,
    )


class ClassPageHandler(tornado.web.RequestHandler):
    """``/class``: the page a teacher projects (:func:`class_page`) for a server listening on ``ip``."""

    def initialize(self, ip: str, port: int) -> None:
        self.ip = ip
        self.port = port

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")  # the machine's addresses change with its network
        self.write(class_page(student_addresses(self.ip, self.port), listening=self.ip))


def class_banner(urls: Sequence[str], *, colour: bool) -> str:
    """What the server prints for a class at start: the addresses, and a QR code of the first."""
    if not urls:
        return ""
    lines = ["", "Students on this network open Lanterloo at:"]
    lines += [f"    {url}" for url in urls]
    lines += ["", terminal_qr(urls[0], colour=colour), ""]
    return "\n".join(lines)
