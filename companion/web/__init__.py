"""The tablet and the phones: a Flask app over the live table (`Hub`).

`create_app(test_config=None, hub=None)` follows Flask's tutorial factory. Every response is
computed from the engine's per-role views, on the server: a page or a message never carries
what its role may not see. Requests authenticate with a per-role bearer token (the referee's,
or a paired phone's) sent in the `Authorization` header, never in a cookie, so another site
cannot make a browser act for a player (CSRF); state-changing requests also need a JSON body
and, when the browser sends one, an `Origin` matching the server. What every request must
pass first (host, size, rate) is in `auth`; the JSON API answers every error in JSON.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import time
from typing import Any

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from flask_limiter import Limiter
from werkzeug.exceptions import HTTPException

from companion.record.store import StoreError
from companion.web.auth import MAX_BODY, client_key, own_hosts
from companion.web.hub import Hub

__all__ = ["ARRIVED", "create_app"]

log = logging.getLogger(__name__)

ARRIVED = "companion.arrived"
"""The WSGI environ key the server sets to the time (monotonic) a request arrived."""
LATE_AFTER = 5.0
"""Seconds after which a change that waited for the server is refused, not applied late."""
DISK_FULL = "the disk is full: not recorded (free some space on the companion's card)"


def create_app(test_config: dict[str, Any] | None = None, hub: Hub | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=MAX_BODY, MAX_FORM_MEMORY_SIZE=MAX_BODY,
        RATELIMIT_DEFAULT="40 per second;1200 per minute", RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_HEADERS_ENABLED=True, EXTRA_HOSTS=(), BOUND_HOST=None)
    if test_config:
        app.config.update(test_config)
    if hub is None:
        raise ValueError("create_app needs the live table (hub=Hub(session))")
    app.extensions["hub"] = hub
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = own_hosts(app.config["BOUND_HOST"],
                                                app.config["EXTRA_HOSTS"])

    from companion.web import api, pages, replay_api, screens, stream

    limiter = Limiter(client_key, app=app, default_limits_exempt_when=_is_referee)
    app.extensions["limiter"] = limiter
    app.before_request(_check_host_and_time)
    app.register_blueprint(pages.bp)
    app.register_blueprint(screens.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(replay_api.bp)
    app.register_blueprint(stream.bp)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _server_error)
    return app


def _is_referee() -> bool:
    """The referee's screen is not rate-limited: it is the server's own operator (and the
    tool that must keep working when phones misbehave)."""
    from companion.engine import REFEREE
    from companion.web.auth import role

    return role() == REFEREE


def _check_host_and_time() -> None:
    """First on every request: the Host must be this server's (reading `request.host`
    checks it against TRUSTED_HOSTS: 400 otherwise), and a change that waited too long
    for the server is refused rather than applied late."""
    _ = request.host
    arrived = request.environ.get(ARRIVED)
    if arrived is not None and request.method != "GET" \
            and time.monotonic() - arrived > LATE_AFTER:
        from flask import abort
        abort(503, "the companion was too busy to apply this in time: nothing was done, "
                   "send it again")


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/api"


def _http_error(exc: HTTPException) -> ResponseReturnValue:
    """The JSON API answers errors in JSON (pages keep their HTML error pages)."""
    if not _wants_json():
        return exc
    message = exc.description or exc.name
    if exc.code == 429:
        message = f"too many requests from this device ({message}): wait a moment"
    return jsonify({"rule": None, "message": message, "legal": []}), exc.code or 500


def _server_error(exc: Exception) -> ResponseReturnValue:
    """An unexpected error: logged here, never shown (a traceback names files and paths).
    A full disk is said as such: the action was not recorded."""
    if _disk_full(exc):
        log.error("not recorded: %s", exc)
        return _answer(507, DISK_FULL)
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _answer(500, "the companion hit an unexpected error: nothing was changed; the "
                        "referee can see the details in its log")


def _answer(code: int, message: str) -> ResponseReturnValue:
    if _wants_json():
        return jsonify({"rule": None, "message": message, "legal": []}), code
    return message, code, {"Content-Type": "text/plain; charset=utf-8"}


def _disk_full(exc: BaseException) -> bool:
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, OSError) and cause.errno == errno.ENOSPC:
            return True
        if isinstance(cause, (sqlite3.OperationalError, StoreError)) \
                and "full" in str(cause).lower():
            return True
        cause = cause.__cause__ or cause.__context__
    return False
