"""The referee's own small pages, served before any game exists: the set-up page (`companion
setup --page`) and the kit author (`companion kit author`).

Each is its own small Flask app with no hub, and they share how they are served: the page itself
carries nothing, and every route under its API prefix needs the referee's token as a bearer token
(the page reads it from its link's fragment, as the referee's screen does). The host is checked,
a change is JSON from the page (CSRF), the API answers its errors in JSON with a sentence (the
page shows it), an unexpected error is logged and never shown, and the page runs under uvicorn
as `companion serve` does. What differs per page (its template, its API, its limits, its
sentences, its state) is a `RefereePage`; the toolkit and the words come from
`companion.web.screens.common`, as on the table's pages.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from flask import Blueprint, Flask, abort, current_app, jsonify, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_limiter import Limiter
from werkzeug.exceptions import HTTPException

from companion.i18n import LANGUAGES
from companion.web.auth import MAX_TOKEN, own_hosts, require_json_from_here
from companion.web.screens import common

__all__ = ["RefereePage", "create_page_app", "extension", "serve_page"]

log = logging.getLogger(__name__)

T = TypeVar("T")
PAGE = "referee_page"
"""The app's extension key for its `RefereePage` (and its token)."""


@dataclass(frozen=True)
class RefereePage:
    """One of the referee's small pages: what its app serves, and how it says no."""

    name: str
    """The page's files: its template `templates/NAME.html` (which extends
    `_referee_page.html`), its script `static/NAME.js` and its styles `static/NAME.css`."""
    path: str
    """The page's address ("/setup"); "/" leads there."""
    api: str
    """The prefix of its JSON API ("/setup/api/"): the referee's token only."""
    no_token: str
    """The 401's sentence: the page was opened without the referee's link."""
    wrong_token: str
    """The 403's sentence: a token that is not the referee's."""
    limits: str
    """Requests a device may make (flask-limiter's default limits)."""
    max_body: int
    """Bytes of a request's body (`MAX_CONTENT_LENGTH`)."""
    max_form: int
    """Bytes of a form kept in memory (`MAX_FORM_MEMORY_SIZE`)."""
    check_change: Callable[[], None] = require_json_from_here
    """What a change (any method but GET) must pass beyond the token: JSON from this page."""
    too_large: str | None = None
    """A 413's sentence when the refusal itself says no size (the page's own words)."""


@dataclass(frozen=True)
class _Served:
    page: RefereePage
    token: str


def create_page_app(page: RefereePage, blueprint: Blueprint, state: object, token: str,
                    host: str, host_names: tuple[str, ...]) -> Flask:
    """The page's app: `blueprint` holds its API, `state` is what the API works on (kept as
    `app.extensions[blueprint.name]`, read back with `extension`), `token` the referee's."""
    app = Flask(__name__)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=page.max_body, MAX_FORM_MEMORY_SIZE=page.max_form,
        RATELIMIT_DEFAULT=page.limits, RATELIMIT_STORAGE_URI="memory://",
        TRUSTED_HOSTS=own_hosts(host, host_names))
    app.extensions[PAGE] = _Served(page, token)
    app.extensions[blueprint.name] = state
    Limiter(lambda: request.remote_addr or "?", app=app)
    app.before_request(_check_request)
    app.add_url_rule("/", "home", lambda: redirect(page.path))
    app.add_url_rule(page.path, "page", _page)
    app.register_blueprint(common)
    app.register_blueprint(blueprint)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _server_error)
    return app


def extension(kind: type[T], key: str, app: Flask | None = None) -> T:
    """`app.extensions[key]` (the current app's by default), checked to be a `kind`: a typed
    lookup, so a page's state is typed where it is used."""
    found = (app or current_app).extensions[key]
    if not isinstance(found, kind):
        raise TypeError(f"app.extensions[{key!r}] is a {type(found).__name__}, not a "
                        f"{kind.__name__}")
    return found


def _page() -> ResponseReturnValue:
    """The page: it carries nothing of the referee's; its script asks the API for the rest."""
    page = extension(_Served, PAGE).page
    return render_template(f"{page.name}.html", name=page.name, languages=LANGUAGES)


def _check_request() -> None:
    """First on every request: the Host must be this server's (reading it checks it); the
    API is the referee's (bearer token), and a change passes the page's own check."""
    _ = request.host
    served = extension(_Served, PAGE)
    if not request.path.startswith(served.page.api):
        return
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        abort(401, served.page.no_token)
    given = header[len("Bearer "):].strip()[:MAX_TOKEN + 1]
    if len(given) > MAX_TOKEN or not hmac.compare_digest(given.encode(), served.token.encode()):
        abort(403, served.page.wrong_token)
    if request.method != "GET":
        served.page.check_change()


def _http_error(exc: HTTPException) -> ResponseReturnValue:
    """The API answers errors in JSON, with a sentence (the page shows it); the page's own
    routes keep Flask's error pages."""
    page = extension(_Served, PAGE).page
    if not request.path.startswith(page.api):
        return exc
    message = exc.description or exc.name
    if exc.code == 413 and page.too_large and "at most" not in message:
        message = page.too_large
    if exc.code == 429:
        message = f"too many requests from this device ({message}): wait a moment"
    return jsonify({"message": message}), exc.code or 500


def _server_error(exc: Exception) -> ResponseReturnValue:
    """An unexpected error: logged here, never shown (a traceback names files and paths)."""
    log.exception("unexpected error on %s %s", request.method, request.path)
    return jsonify({"message": "the companion hit an unexpected error: see its log"}), 500


def serve_page(app: Flask, host: str, port: int) -> None:
    """Serve `app` until interrupted, under uvicorn as `companion serve` does (a few worker
    threads, short keep-alive, bounded headers)."""
    import uvicorn
    from a2wsgi import WSGIMiddleware

    config = uvicorn.Config(WSGIMiddleware(app, workers=4),  # type: ignore[arg-type]
                            host=host, port=port, lifespan="off", log_level="warning",
                            timeout_keep_alive=5, timeout_graceful_shutdown=3,
                            h11_max_incomplete_event_size=16384)
    uvicorn.Server(config).run()
