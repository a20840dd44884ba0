"""Live updates by server-sent events: each screen receives its own role's view, pushed."""

from __future__ import annotations

import json
from collections.abc import Iterator

from flask import Blueprint, Response

from companion.web.auth import hub, lang, token, viewer
from companion.web.present import present

bp = Blueprint("stream", __name__)


@bp.get("/stream")
def stream() -> Response:
    who = viewer()
    tokens, held = hub().tokens, token()
    updates = hub().subscribe(who, lang())

    def messages() -> Iterator[str]:
        for update in updates:
            if held is not None and tokens.role(held) != who:
                return  # revoked: the stream ends, and the page is told when it reconnects
            if not update:
                yield ": keep-alive\n\n"
                continue
            yield f"event: view\ndata: {json.dumps(present(who, update))}\n\n"

    return Response(messages(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
