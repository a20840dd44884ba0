"""The server's front: live streams on an event loop, everything else to the Flask app.

A live stream (`/stream`, server-sent events) is open for as long as a screen is. Served by
threads, every idle stream held one: 40 streams opened without a token froze the referee's view
and pause. Here a stream is a coroutine waiting on an `asyncio.Queue` that the hub fills after
each change, so an idle stream holds no thread; the Flask app (API and pages) runs on a small
pool of threads beside it (a2wsgi).

No stalled request holds the table (issue 35). Ten connections sending headers with
`Content-Length: 1000` and then only `{` held every thread of that pool, each waiting on its
body, and the referee's view and pause timed out. So, before any thread sees a request:
- its headers must arrive within `HEADERS_SECONDS` of the connection (or of the answer
  before, on a kept-alive one: `HeadersInTime`, uvicorn's h11 protocol with that deadline);
- its whole body is read here, on the event loop, within `BODY_SECONDS` (else 408 and the
  connection is closed), at most `MAX_BODY` bytes (else 413, unread);
- a device without a valid token may have only `UNKNOWN_BODIES` bodies being read at once and
  send `UNKNOWN_PER_MINUTE` a minute (else 429, unread), and all such devices together
  `UNKNOWN_BODIES_IN_ALL` (else 503): the limits come before the body, not after;
- the referee's requests run on a pool of their own (`referee_threads`), which no phone or
  unpaired device can take.
Streams are served by rank: the referee's and the table display's (the Pi's own screen, on
loopback) always, each paired role its own share, devices without a token a share well below
the total. Each change is serialised once per role, language and version, whatever the number
of streams (`_Fanout`). Each request is stamped once its body is in, so that a change which
waited too long for a thread is refused instead of applied late (`web.ARRIVED`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask
from uvicorn.protocols.http.h11_impl import H11Protocol
from werkzeug.sansio.utils import host_is_trusted

from companion.engine import PUBLIC, REFEREE
from companion.i18n import language
from companion.web import ARRIVED
from companion.web.auth import MAX_BODY, STALE, bearer
from companion.web.hub import Hub
from companion.web.present import present

__all__ = ["SERVER_LIMITS", "CompanionServer", "HeadersInTime"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

STAMP = b"x-companion-arrived"
KEEP_ALIVE = 15.0
"""Seconds between keep-alive comments on an idle stream, so dead connections are noticed."""
HEADERS_SECONDS = 5.0
"""Seconds a request's headers may take to arrive (a phone on a poor network sends them in
well under one)."""
BODY_SECONDS = 5.0
"""Seconds a request's body may take to arrive once its headers have (ours are under 5 KiB)."""
UNKNOWN_BODIES = 2
"""Bodies being read at once from one device without a valid token (a phone pairing sends
one)."""
UNKNOWN_BODIES_IN_ALL = 64
"""Bodies being read at once from all devices without a valid token."""
UNKNOWN_PER_MINUTE = 30
"""Requests with a body a device without a valid token may send a minute (pairing is one)."""
DISPLAY = "display"
"""The rank of the table display on the Pi's own screen (a browser on loopback)."""
PHONE = "phone"
UNKNOWN_STREAMS = 500
"""Streams of all devices without a token together: half the total, so the paired phones' share
and the referee's stay free whatever they open."""
SHARE = 16
"""Streams of one referee token, of the Pi's own screen, of one paired role or of one device
without a token."""

SERVER_LIMITS: dict[str, Any] = {
    "timeout_keep_alive": 5, "h11_max_incomplete_event_size": 16384,
}
"""Uvicorn's own limits `companion serve` runs with (with `http=HeadersInTime`): an idle
kept-alive connection is closed after 5 s, and headers are at most 16 KiB."""


class HeadersInTime(H11Protocol):
    """Uvicorn's h11 protocol, with a deadline for a request's headers: a connection that has
    not sent a whole request's headers `HEADERS_SECONDS` after it opened (or after the answer
    before) is closed. Uvicorn itself waits for headers for ever (its keep-alive timeout ends
    when the first byte comes); a request in progress has its body's deadline instead."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_headers_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_headers_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        deadline = getattr(self, "_headers_deadline", None)
        if deadline is not None:
            deadline.cancel()
        super().connection_lost(exc)

    def _arm_headers_deadline(self) -> None:
        previous = getattr(self, "_headers_deadline", None)
        if previous is not None:
            previous.cancel()
        self._headers_deadline = self.loop.call_later(HEADERS_SECONDS, self._headers_late)

    def _headers_late(self) -> None:
        in_progress = self.cycle is not None and not self.cycle.response_complete
        if not in_progress and not self.transport.is_closing():
            self.transport.close()


class _Fanout:
    """The live streams of one role and language share one subscription to the hub: each
    change reaches the loop once, is serialised once (per role, language and version) and is
    handed to every stream as the same bytes. Issue 35: with a view sent and serialised per
    stream, 480 streams and a change a second made the referee wait 222 ms."""

    KEPT = 2
    """Views waiting for a stream that reads slowly: each is the whole state, so older
    ones are dropped rather than piled up."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.groups: dict[tuple[str, str], _Group] = {}

    def join(self, role: str, lang: str) -> asyncio.Queue[bytes]:
        """A new stream's queue: the latest view at once, then one after every change."""
        group = self.groups.get((role, lang))
        if group is None:
            group = self.groups[role, lang] = _Group(role)
            entry, inbox = self.hub.subscribe_async(role, asyncio.get_running_loop(), lang)
            group.entry = entry
            group.task = asyncio.ensure_future(self._spread(group, inbox))
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        group.members.add(queue)
        if group.latest:
            queue.put_nowait(group.latest)
        return queue

    def leave(self, role: str, lang: str, queue: asyncio.Queue[bytes]) -> None:
        group = self.groups.get((role, lang))
        if group is None:
            return
        group.members.discard(queue)
        if not group.members:
            del self.groups[role, lang]
            if group.entry is not None:
                self.hub.unsubscribe(group.entry)
            if group.task is not None:
                group.task.cancel()

    @staticmethod
    async def _spread(group: _Group, inbox: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            view = await inbox.get()
            group.latest = f"event: view\ndata: {json.dumps(present(group.role, view))}\n\n" \
                .encode()
            for queue in group.members:
                while queue.qsize() >= _Fanout.KEPT:
                    queue.get_nowait()
                queue.put_nowait(group.latest)


class _Group:
    """The streams of one role and language, and their one subscription."""

    def __init__(self, role: str) -> None:
        self.role = role
        self.members: set[asyncio.Queue[bytes]] = set()
        self.latest = b""
        self.entry: Any = None
        self.task: asyncio.Future[None] | None = None


class CompanionServer:
    """The ASGI application `companion serve` runs (uvicorn)."""

    def __init__(self, app: Flask, *, threads: int = 16, referee_threads: int = 4,
                 streams: int = 1000, streams_per_client: int = SHARE,
                 unknown_streams: int = UNKNOWN_STREAMS,
                 body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.hub: Hub = app.extensions["hub"]
        self.wsgi = WSGIMiddleware(_stamped(app.wsgi_app), workers=threads)
        self.referee_wsgi = WSGIMiddleware(_stamped(app.wsgi_app), workers=referee_threads)
        """The referee's own threads: a phone or an unpaired device never waits in them."""
        self.streams_cap, self.per_client_cap = streams, streams_per_client
        self.unknown_streams = unknown_streams
        """Streams without a token, from all devices together: well below `streams`, so the
        paired phones' share stays free."""
        self.body_seconds = body_seconds
        self.open: Counter[tuple[str, str]] = Counter()
        """Open streams by (rank, whose): a referee token, a paired role or an address."""
        self.reading: Counter[str] = Counter()
        """Bodies being read from each address without a valid token."""
        self.sent: dict[str, deque[float]] = {}
        """When each address without a valid token last sent a body (the last minute's)."""
        self.fanout = _Fanout(self.hub)
        self._closing: asyncio.Event | None = None

    def close_streams(self) -> None:
        """The server is stopping: every live stream ends now (the screens reconnect to the
        next server) rather than holding the shutdown up. Call on the server's loop."""
        self._closing_event().set()

    def _closing_event(self) -> asyncio.Event:
        if self._closing is None:
            self._closing = asyncio.Event()
        return self._closing

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]
            return
        if scope["path"] == "/stream":
            await self.stream(scope, receive, send)
            return
        token = bearer(_header(scope, b"authorization"))
        role = self.hub.tokens.role(token)
        client = _client(scope)
        unknown = role == PUBLIC and _has_body(scope)
        if unknown:
            refusal = self._unknown_refusal(client)
            if refusal is not None:
                await _json(send, *refusal)
                return
            self.reading[client] += 1
        try:
            body = await self._body(scope, receive, send)
        finally:
            if unknown:
                self.reading[client] -= 1
                if not self.reading[client]:
                    del self.reading[client]
        if body is None:
            return
        headers = [(k, v) for k, v in scope["headers"] if k.lower() != STAMP]
        scope = {**scope, "headers": [*headers, (STAMP, repr(time.monotonic()).encode())]}
        pool = self.referee_wsgi if role == REFEREE else self.wsgi
        await pool(scope, _replay(body, receive), send)  # type: ignore[arg-type]

    def _unknown_refusal(self, client: str) -> tuple[int, str] | None:
        """Why a body from a device without a valid token is not read: refused before a byte
        of it is (429 for one device's excess, 503 when all together are too many)."""
        now = time.monotonic()
        sent = self.sent.setdefault(client, deque())
        while sent and now - sent[0] > 60:
            sent.popleft()
        if len(sent) >= UNKNOWN_PER_MINUTE or self.reading[client] >= UNKNOWN_BODIES:
            return 429, "too many requests from this device: wait a moment"
        if sum(self.reading.values()) >= UNKNOWN_BODIES_IN_ALL:
            return 503, "too many devices are sending at once: try again in a moment"
        sent.append(now)
        if len(self.sent) > 4096:  # addresses seen once long ago
            for gone in [a for a, times in self.sent.items() if not times]:
                del self.sent[gone]
        return None

    async def _body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The request's whole body, read on the event loop within `body_seconds`; None once
        answered (408: too slow, 413: too large) or gone. No thread waits on a slow body."""
        declared = _header(scope, b"content-length")
        if declared.isdigit() and int(declared) > MAX_BODY:
            await _json(send, 413, f"a request body is at most {MAX_BODY} bytes")
            return None
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = bytes(message.get("body", b""))
                    size += len(chunk)
                    if size > MAX_BODY:
                        await _json(send, 413, f"a request body is at most {MAX_BODY} bytes")
                        return None
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            log.info("dropped %s %s from %s: its body did not arrive within %.0f s",
                     scope.get("method"), scope.get("path"), _client(scope), self.body_seconds)
            await _json(send, 408, "the request did not arrive in time: send it again")
            return None

    @property
    def streams(self) -> int:
        return sum(self.open.values())

    def _stream_rank(self, scope: Scope, role: str, token: str | None) -> tuple[str, str]:
        """(rank, whose) of a stream: the referee's token; the Pi's own screen; a paired
        role; or a device without a token, by its address."""
        client = _client(scope)
        if role == REFEREE:
            return REFEREE, token or ""
        if role != PUBLIC:
            return PHONE, role
        if _own_screen(client):
            return DISPLAY, client
        return PUBLIC, client

    async def stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One screen's live views: its role's view now, then one after every change. The
        credential is read as everywhere else (the `Authorization` header), or from `?token=`
        (EventSource cannot send headers); a stale one is answered 401."""
        token = bearer(_header(scope, b"authorization"), _query(scope, "token"))
        role = self.hub.tokens.role(token)
        rank = self._stream_rank(scope, role, token)
        refusal = self._refusal(scope, rank)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        if token is not None and role == PUBLIC:
            await _plain(send, 401, STALE)
            return
        self.open[rank] += 1
        lang = language(_query(scope, "lang")[:16])
        inbox = self.fanout.join(role, lang)
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]})
            await self._pump(role, inbox, receive, send, token)
        finally:
            self.fanout.leave(role, lang, inbox)
            self.open[rank] -= 1
            if not self.open[rank]:
                del self.open[rank]

    async def _pump(self, role: str, inbox: asyncio.Queue[bytes], receive: Receive,
                    send: Send, token: str | None = None) -> None:
        gone = asyncio.ensure_future(_disconnected(receive))
        closing = asyncio.ensure_future(self._closing_event().wait())
        try:
            while True:
                view = asyncio.ensure_future(inbox.get())
                done, _ = await asyncio.wait({view, gone, closing}, timeout=KEEP_ALIVE,
                                             return_when=asyncio.FIRST_COMPLETED)
                if gone in done or closing in done:
                    view.cancel()
                    if closing in done:
                        await send({"type": "http.response.body", "body": b"",
                                    "more_body": False})
                    return
                if token is not None and self.hub.tokens.role(token) != role:
                    # Revoked (or paired again elsewhere): the stream ends here, and the page,
                    # reconnecting, is told its pairing is gone.
                    view.cancel()
                    await send({"type": "http.response.body", "body": b"",
                                "more_body": False})
                    return
                if view in done:
                    text = view.result()
                else:
                    view.cancel()
                    text = b": keep-alive\n\n"
                await send({"type": "http.response.body", "body": text, "more_body": True})
        except OSError:
            return  # the screen went away mid-message
        finally:
            gone.cancel()
            closing.cancel()

    def _refusal(self, scope: Scope, rank: tuple[str, str]) -> tuple[int, str] | None:
        """Why a stream is not opened: another site's host name, or its rank's share is
        full. The referee's and the Pi's own screen's are refused only past their own share
        (16 each), whatever else is open."""
        host = _header(scope, b"host")
        trusted = self.app.config.get("TRUSTED_HOSTS")
        if trusted is not None and not host_is_trusted(host, trusted):
            return 400, "this server does not answer to that host name"
        kind, _whose = rank
        share = SHARE if kind in (REFEREE, DISPLAY, PHONE) else self.per_client_cap
        if self.open[rank] >= share:
            return 429, f"at most {share} live streams from one device"
        if kind in (REFEREE, DISPLAY):
            return None
        if kind == PUBLIC and self._unknown_open() >= self.unknown_streams:
            return 503, f"at most {self.unknown_streams} live streams without a pairing"
        if self.streams >= self.streams_cap:
            return 503, f"at most {self.streams_cap} live streams at once"
        return None

    def _unknown_open(self) -> int:
        return sum(n for (kind, _), n in self.open.items() if kind == PUBLIC)


def _client(scope: Scope) -> str:
    return str((scope.get("client") or ("?", 0))[0])


def _own_screen(client: str) -> bool:
    """Whether a request comes from the Pi itself (the table display on its own screen): the
    loopback address a browser on the Pi uses (127.0.0.1 or ::1), which no other device can
    send from."""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return False
    return address in (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope["headers"]:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


def _has_body(scope: Scope) -> bool:
    """Whether a request says it has a body (its length, or chunks)."""
    length = _header(scope, b"content-length")
    return (length not in ("", "0")) or bool(_header(scope, b"transfer-encoding"))


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body read already, handed to the app as one message; then the connection's own
    messages (its disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replayed


async def _json(send: Send, status: int, text: str) -> None:
    """An answer before the app saw the request, as the API answers (JSON with a sentence);
    the connection is closed after it (a body left unread cannot be skipped)."""
    data = json.dumps({"rule": None, "message": text, "legal": []}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


def _query(scope: Scope, name: str) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return str((query.get(name) or [""])[0])


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _plain(send: Send, status: int, text: str) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
    await send({"type": "http.response.body", "body": text.encode()})


def _stamped(wsgi: Callable[..., Any]) -> Callable[..., Any]:
    """The arrival time, from the header the front set (a client's own was removed), into
    the WSGI environ where the app reads it."""
    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        stamp = environ.pop("HTTP_X_COMPANION_ARRIVED", None)
        if stamp is not None:
            environ[ARRIVED] = float(stamp)
        return wsgi(environ, start_response)
    return app
