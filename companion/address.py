"""Where the companion serves its pages and where the phones reach them, checked before
anything starts (`companion serve`, `setup --page`, `kit author`, `referee-link`).

A port that another program holds (another `companion serve`, say) is said in one sentence
before a game is stored that could not be served; an address for the phones that is not
http(s) is refused before it is printed on a QR code. (Beside `companion.web`, not in it:
importing the web package starts Flask, which `referee-link` has no use for.)
"""

from __future__ import annotations

import socket
import urllib.parse

from companion.userdata import lan_address

__all__ = ["EVERY_INTERFACE", "PortUnavailable", "check_port", "public_url", "reachable_host"]

EVERY_INTERFACE = ("0.0.0.0", "::")
"""Hosts that mean "serve on the local network": the phones need the LAN address instead."""


class PortUnavailable(ValueError):
    """The port cannot be bound; the message says which and what to do."""


def check_port(host: str, port: int) -> None:
    """Bind `host:port` once and let it go, as uvicorn will bind it; PortUnavailable when it
    cannot be (taken, or not this machine's address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise PortUnavailable(f"port {port} on {host} cannot be used ({exc.strerror}): is "
                                  "another companion serve running? Choose another with "
                                  "--port") from None


def reachable_host(host: str) -> str:
    """The host a phone reaches a server bound to `host` at: the LAN address when it serves
    on every interface, else `host` itself."""
    return lan_address() if host in EVERY_INTERFACE else host


def public_url(given: str | None, host: str, port: int) -> str:
    """Where the phones reach the table: `given` (--public-url, or the saved settings'), else
    the LAN address when serving on every interface, else the address served on. ValueError
    for a `given` that is not an http(s) address."""
    if given:
        parts = urllib.parse.urlsplit(given)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--public-url {given!r} is not an http(s) address such as "
                             "http://192.168.1.20:8000")
        return given.rstrip("/")
    return f"http://{reachable_host(host)}:{port}"
