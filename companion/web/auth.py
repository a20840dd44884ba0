"""Who is asking, and what every request must pass before it is read.

- The caller's role comes from a bearer token in the `Authorization` header (the referee's,
  or a paired phone's), never from the request's body; EventSource cannot send headers, so
  the live stream also reads a `?token=` (the header first, the same way: `bearer`).
- The `Host` header must name this server (its host names and addresses): a page on another
  site that rebinds its DNS name to the Pi's address cannot reach the API (Flask's
  `TRUSTED_HOSTS`, checked first on every request).
- State-changing requests need a JSON body and, when the browser sends one, an `Origin`
  matching the server (CSRF).
- Bodies are bounded (`MAX_CONTENT_LENGTH`), JSON is parsed strictly (no NaN or Infinity,
  which strict JSON readers reject and the record must never hold; nesting bounded), and each
  client is rate-limited (Flask-Limiter).
"""

from __future__ import annotations

import contextlib
import json
import math
import socket
from collections.abc import Iterable
from typing import Any

from flask import abort, current_app, request

from companion.engine import PUBLIC
from companion.i18n import language
from companion.web.hub import Hub

__all__ = ["MAX_DEPTH", "bearer", "body", "client_key", "depth", "finite", "hub", "own_hosts",
           "require_change_allowed", "require_json_from_here", "role", "token"]

MAX_BODY = 64 * 1024
"""Bytes a request body may have: an action, an answer or a correction is far smaller."""
MAX_TOKEN = 128
"""Characters of a bearer token (ours are 24-32): a longer one is not looked up."""
MAX_DEPTH = 32
"""Levels a request body may nest: the deepest real one (a correction's arguments) has 4."""


def hub() -> Hub:
    found: Hub = current_app.extensions["hub"]
    return found


def bearer(header: str, query: str | None = None) -> str | None:
    """The token an `Authorization` header holds (`Bearer ...`), else the query's (`query`:
    given for the live stream only), if it is one we could have issued. The Flask routes and
    the server's front (`web.asgi`) both read a credential this way."""
    if header.startswith("Bearer "):
        found = header[len("Bearer "):].strip()
    elif query is not None:
        found = query  # EventSource cannot send headers: read-only
    else:
        return None
    return found if 0 < len(found) <= MAX_TOKEN else None


def token() -> str | None:
    """The bearer token of the request (the query's only for the live stream)."""
    return bearer(request.headers.get("Authorization", ""),
                  request.args.get("token", "") if request.endpoint == "stream.stream" else None)


def role() -> str:
    """The caller's role; `public` without a valid token."""
    return hub().tokens.role(token())


STALE = ("this screen's pairing is no longer valid (revoked, or paired again on another "
         "phone): ask the referee to pair it again")
"""Why a page whose token is unknown gets no view: it must say so, not fall back silently to
the public view while its tools fail."""


def viewer() -> str:
    """The role of a page reading its view: 401 for a token that is not (or no longer)
    valid, so the page tells its user instead of showing the public view as theirs."""
    found = token()
    who = hub().tokens.role(found)
    if found is not None and who == PUBLIC:
        abort(401, STALE)
    return who


def lang() -> str:
    """The language the screen asked for (`?lang=`), one we have, else English."""
    return language(request.args.get("lang", "")[:16])


def client_key() -> str:
    """Who a rate limit counts: a valid token's holder, else the network address."""
    who = token()
    if who is not None and hub().tokens.role(who) != PUBLIC:
        return "token:" + who
    return "addr:" + (request.remote_addr or "?")


def require_json_from_here() -> None:
    """A state-changing request: JSON, and from a page of this server (CSRF)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/") != request.host_url.rstrip("/"):
        abort(403, "cross-site request refused")
    if not request.is_json:
        abort(415, "send JSON")


def require_change_allowed() -> str:
    """The caller's role for a state-changing request, or 401/403/415."""
    if not request.headers.get("Authorization", "").startswith("Bearer "):
        abort(401, "changes need a bearer token in the Authorization header")
    require_json_from_here()
    who = role()
    if who == PUBLIC:
        abort(403, "unknown or revoked token")
    return who


def body() -> dict[str, Any]:
    """The request's JSON object, parsed strictly: 400 for anything else."""
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw or b"{}", parse_constant=_no_constant)
    except RecursionError:
        abort(400, "the JSON is nested too deeply")
    except (ValueError, UnicodeDecodeError) as exc:
        abort(400, f"not JSON: {exc}")
    if not isinstance(data, dict):
        abort(400, "send a JSON object")
    if depth(data) > MAX_DEPTH:
        abort(400, f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
    if not finite(data):
        abort(400, "NaN and Infinity (1e999 is read as one) are not numbers JSON allows here")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _items(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        return value.values()
    return value if isinstance(value, list) else ()


def depth(value: Any) -> int:
    """How deeply `value` nests (a number: 0; `[1]`: 1), found without recursion: a body
    nested hundreds deep is refused in a sentence, not by a crash with a long trace."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level + 1)
            stack.extend((child, level + 1) for child in _items(item))
    return deepest


def finite(value: Any) -> bool:
    """No NaN or infinity anywhere (json's own parser turns 1e999 into infinity); without
    recursion, however deep `value` nests."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        stack.extend(_items(item))
    return True


def own_hosts(bound: str | None = None, extra: Iterable[str] = ()) -> list[str]:
    """The names and addresses this server answers to: the loopback names, the machine's
    host names (with `.local`, mDNS) and its addresses, the address it is bound to, and
    any the user adds (`COMPANION_HOSTS`, `serve --host-name`)."""
    names = {"localhost", "127.0.0.1", "::1", "[::1]"}
    hostname = socket.gethostname()
    names |= {hostname, f"{hostname}.local", socket.getfqdn()}
    for name in (hostname, socket.getfqdn()):
        with contextlib.suppress(OSError):
            names |= {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    names.add(_outbound_address())
    if bound and bound not in ("0.0.0.0", "::"):
        names.add(bound)
    names |= {name.strip() for name in extra if name.strip()}
    return sorted(n for n in names if n)


def _outbound_address() -> str:
    """The address other devices on the network reach this one at (no packet is sent: a UDP
    socket only picks its route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return ""
