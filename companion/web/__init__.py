"""The tablet and the phones: a Flask app over the live table (`Hub`).

`create_app(test_config=None, hub=None)` follows Flask's tutorial factory. Every response is
computed from the engine's per-role views, on the server: a page or a message never carries
what its role may not see. Requests authenticate with a per-role bearer token (the referee's,
or a paired phone's) sent in the `Authorization` header, never in a cookie, so another site
cannot make a browser act for a player (CSRF); state-changing requests also need a JSON body
and, when the browser sends one, an `Origin` matching the server.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.web.hub import Hub

__all__ = ["create_app"]


def create_app(test_config: dict[str, Any] | None = None, hub: Hub | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(JSON_SORT_KEYS=False)
    if test_config:
        app.config.update(test_config)
    if hub is None:
        raise ValueError("create_app needs the live table (hub=Hub(session))")
    app.extensions["hub"] = hub

    from companion.web import api, pages, screens, stream

    app.register_blueprint(pages.bp)
    app.register_blueprint(screens.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    return app
