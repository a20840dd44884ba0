"""The server's front: live streams on an event loop, everything else to the Flask app.

A live stream (`/stream`, server-sent events) is open for as long as a screen is. Served by
threads, every idle stream held one: 40 streams opened without a token froze the referee's view
and pause. Here a stream is a coroutine waiting on an `asyncio.Queue` that the hub fills after
each change, so an idle stream holds no thread; the Flask app (API and pages) runs on a small
pool of threads beside it (a2wsgi). Streams are capped per client address and in total, and
each request is stamped on arrival so that a change which waited too long for a thread is
refused instead of applied late (`web.ARRIVED`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask
from werkzeug.sansio.utils import host_is_trusted

from companion.engine import PUBLIC
from companion.i18n import language
from companion.web import ARRIVED
from companion.web.auth import MAX_TOKEN, STALE
from companion.web.hub import Hub
from companion.web.present import present

__all__ = ["CompanionServer"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

STAMP = b"x-companion-arrived"
KEEP_ALIVE = 15.0
"""Seconds between keep-alive comments on an idle stream, so dead connections are noticed."""


class CompanionServer:
    """The ASGI application `companion serve` runs (uvicorn)."""

    def __init__(self, app: Flask, *, threads: int = 16, streams: int = 1000,
                 streams_per_client: int = 16) -> None:
        self.app = app
        self.hub: Hub = app.extensions["hub"]
        self.wsgi = WSGIMiddleware(_stamped(app.wsgi_app), workers=threads)
        self.streams_cap, self.per_client_cap = streams, streams_per_client
        self.open: Counter[str] = Counter()
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
        if scope["type"] == "http" and scope["path"] == "/stream":
            await self.stream(scope, receive, send)
            return
        if scope["type"] == "http":
            headers = [(k, v) for k, v in scope["headers"] if k.lower() != STAMP]
            scope = {**scope, "headers": [*headers,
                                          (STAMP, repr(time.monotonic()).encode())]}
        await self.wsgi(scope, receive, send)  # type: ignore[arg-type]

    @property
    def streams(self) -> int:
        return sum(self.open.values())

    async def stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One screen's live views: its role's view now, then one after every change."""
        refusal = self._refusal(scope)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        client = (scope.get("client") or ("?", 0))[0]
        token = _query_token(scope)
        role = self.hub.tokens.role(token)
        if token is not None and role == PUBLIC:
            await _plain(send, 401, STALE)
            return
        self.open[client] += 1
        entry, inbox = self.hub.subscribe_async(role, asyncio.get_running_loop(),
                                                language(_query(scope, "lang")[:16]))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]})
            await self._pump(role, inbox, receive, send, token)
        finally:
            self.hub.unsubscribe(entry)
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]

    async def _pump(self, role: str, inbox: asyncio.Queue[dict[str, Any]], receive: Receive,
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
                    text = f"event: view\ndata: {json.dumps(present(role, view.result()))}\n\n"
                else:
                    view.cancel()
                    text = ": keep-alive\n\n"
                await send({"type": "http.response.body", "body": text.encode(),
                            "more_body": True})
        except OSError:
            return  # the screen went away mid-message
        finally:
            gone.cancel()
            closing.cancel()

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        """Why a stream is not opened: another site's host name, or too many streams."""
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        trusted = self.app.config.get("TRUSTED_HOSTS")
        if trusted is not None and not host_is_trusted(host, trusted):
            return 400, "this server does not answer to that host name"
        client = (scope.get("client") or ("?", 0))[0]
        if self.open[client] >= self.per_client_cap:
            return 429, f"at most {self.per_client_cap} live streams from one device"
        if self.streams >= self.streams_cap:
            return 503, f"at most {self.streams_cap} live streams at once"
        return None


def _query(scope: Scope, name: str) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return str((query.get(name) or [""])[0])


def _query_token(scope: Scope) -> str | None:
    found = _query(scope, "token")
    return found if 0 < len(found) <= MAX_TOKEN else None


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
