"""Who is asking: the role behind a bearer token, and the CSRF guard for changes."""

from __future__ import annotations

from flask import abort, current_app, request

from companion.engine import PUBLIC
from companion.web.hub import Hub

__all__ = ["hub", "require_change_allowed", "role"]


def hub() -> Hub:
    return current_app.extensions["hub"]  # type: ignore[no-any-return]


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[len("Bearer "):].strip()
    return request.args.get("token")  # EventSource cannot send headers: read-only streams


def role() -> str:
    """The caller's role; `public` without a valid token."""
    return hub().tokens.role(_token())


def require_change_allowed() -> str:
    """The caller's role for a state-changing request, or 401/403/415."""
    if not request.headers.get("Authorization", "").startswith("Bearer "):
        abort(401, "changes need a bearer token in the Authorization header")
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/") != request.host_url.rstrip("/"):
        abort(403, "cross-site request refused")
    if not request.is_json:
        abort(415, "send JSON")
    who = role()
    if who == PUBLIC:
        abort(403, "unknown or revoked token")
    return who
