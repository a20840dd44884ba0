"""`companion serve`: the table's web server.

Uvicorn (an ASGI server) runs `web.asgi.CompanionServer`: the live streams are coroutines on its
event loop, so an idle phone or tablet holds no thread, and the Flask app (the API and the
pages) runs on a small pool of threads beside them. One process: the live table's thread, the
recording session and the streams share the hub.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from flask import Flask

from companion.engine import REFEREE
from companion.live import LiveTable, TableOptions
from companion.record.session import Session
from companion.record.store import Store
from companion.web import create_app
from companion.web.asgi import SERVER_LIMITS, CompanionServer, HeadersInTime
from companion.web.hub import Hub

__all__ = ["ServeOptions", "run"]


@dataclass(frozen=True)
class ServeOptions:
    db: Path | None
    game_id: int
    referee_token: str
    host: str = "0.0.0.0"  # the local network: the tablet and the phones are other devices
    port: int = 8000
    threads: int = 16
    """Threads for the API and the pages (live streams need none)."""
    host_names: tuple[str, ...] = ()
    """Names the server also answers to, besides its own names and addresses (a router's
    DNS name for the Pi, say): any other Host header is refused."""
    table: TableOptions | None = None
    """The live table (camera, card reader, buttons); None: the tablet alone."""
    broadcast: str | None = None
    """The tournament broadcast's URL (mqtt://table:password@host:port/event), if any."""
    public_url: str | None = None
    """Where the phones reach this server (pairing links and QR codes), e.g.
    http://192.168.1.20:8000; None: the host the referee's browser used."""


def build_app(options: ServeOptions) -> Flask:
    """The app, with the live table's thread started next to the game it records."""
    store = Store(options.db)
    hub = Hub(Session.resume(store, options.game_id))
    hub.tokens.roles[options.referee_token] = REFEREE
    app = create_app({"BOUND_HOST": options.host, "EXTRA_HOSTS": options.host_names,
                      "PUBLIC_URL": options.public_url}, hub=hub)
    if options.table is not None:
        live = LiveTable(hub, options.table)
        live.start()
        app.extensions["table"] = live
    if options.broadcast is not None:
        from companion.broadcast import start_publisher

        app.extensions["broadcast"] = start_publisher(hub, options.broadcast)
    return app


class _Server(uvicorn.Server):
    """Uvicorn, ending the live streams first when it stops (they would hold it up)."""

    def __init__(self, config: uvicorn.Config, front: CompanionServer) -> None:
        super().__init__(config)
        self.front = front

    async def shutdown(self, sockets: Any = None) -> None:
        self.front.close_streams()
        await super().shutdown(sockets)


def run(options: ServeOptions) -> None:
    """Serve until interrupted (SIGINT, SIGTERM); then stop the live table."""
    app = build_app(options)
    server = CompanionServer(app, threads=options.threads)
    config = uvicorn.Config(server, host=options.host, port=options.port, lifespan="off",
                            log_level="warning", timeout_graceful_shutdown=3,
                            http=HeadersInTime, **SERVER_LIMITS)
    try:
        _Server(config, server).run()
    finally:
        live = app.extensions.get("table")
        if live is not None:
            live.stop()
