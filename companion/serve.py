"""`companion serve`: the table's web server, a production WSGI server that holds live streams.

Gunicorn with one worker process and a thread per connection (`gthread`): every server-sent
event stream holds a thread, so a tablet and several phones stay connected. The game is chosen
in the main process (resume an unfinished one, or start anew) and opened in the worker, after
the fork, since an SQLite connection must not cross a fork.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

from companion.engine import REFEREE
from companion.live import LiveTable, TableOptions
from companion.record.session import Session
from companion.record.store import Store
from companion.web import create_app
from companion.web.hub import Hub

__all__ = ["ServeOptions", "run"]


@dataclass(frozen=True)
class ServeOptions:
    db: Path | None
    game_id: int
    referee_token: str
    host: str = "0.0.0.0"  # the local network: the tablet and the phones are other devices
    port: int = 8000
    threads: int = 32
    table: TableOptions | None = None
    """The live table (camera, card reader, buttons); None: the tablet alone."""


def build_app(options: ServeOptions) -> Flask:
    """The app for the worker process; the live table's thread starts here, after the fork,
    next to the game it records."""
    store = Store(options.db)
    hub = Hub(Session.resume(store, options.game_id))
    hub.tokens.roles[options.referee_token] = REFEREE
    app = create_app(hub=hub)
    if options.table is not None:
        live = LiveTable(hub, options.table)
        live.start()
        app.extensions["table"] = live
    return app


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        settings: dict[str, Any] = {
            "bind": f"{self.options.host}:{self.options.port}", "workers": 1,
            "worker_class": "gthread", "threads": self.options.threads, "timeout": 120,
            "graceful_timeout": 3, "accesslog": None, "errorlog": "-", "loglevel": "warning",
        }
        for key, value in settings.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return build_app(self.options)


def run(options: ServeOptions) -> None:
    _Gunicorn(options).run()
