"""The HTML pages. They carry no game data: each page fetches its role's view by token (the
list of stored games carries only what the games table holds: who played, when, the result)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

from companion.i18n import LANGUAGES

bp = Blueprint("pages", __name__)


@bp.get("/")
def table() -> ResponseReturnValue:
    """The shared table display (public): map, week, legality panel, battle, bookkeeping."""
    return render_template("table.html", page="table", languages=LANGUAGES)


@bp.get("/play")
def play() -> ResponseReturnValue:
    """A player's phone, paired by token (in the URL fragment, never sent to the server)."""
    return render_template("table.html", page="play", languages=LANGUAGES)


@bp.get("/referee")
def referee() -> ResponseReturnValue:
    """Manual entry of every action, corrections, undo, pairing."""
    return render_template("table.html", page="referee", languages=LANGUAGES)


@bp.get("/replays")
def stored_games() -> ResponseReturnValue:
    """Every stored game, newest first, each linked to its replay (no hidden state: who
    played, when, how long, the result)."""
    from companion.web.replay_api import game_list

    return render_template("replays.html", games=game_list(), **_words())


@bp.get("/replay/<int:game_id>")
def replay(game_id: int) -> ResponseReturnValue:
    """A stored game, step by step; a page saying so (404) for a game that is not there, or
    cannot be read, rather than an empty viewer. Replaying it here also warms the positions
    the viewer's first steps ask for."""
    from companion.record import RecordError
    from companion.record.store import StoreError
    from companion.web.auth import hub
    from companion.web.replay_api import replays

    try:
        replays().stored(hub().session.store, game_id)
    except (RecordError, StoreError):
        return render_template("missing.html", game_id=game_id, **_words()), 404
    return render_template("replay.html", game_id=game_id, **_words())


def _words() -> dict[str, Any]:
    """The page's language (`?lang=`) and its words in it, for the replay pages' templates."""
    from companion.i18n import translator
    from companion.web.auth import lang

    language = lang()
    return {"lang": language, "t": translator(language, "companion.web"), "languages": LANGUAGES}
