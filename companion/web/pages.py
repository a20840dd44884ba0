"""The HTML pages. They carry no game data: each page fetches its role's view by token."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

bp = Blueprint("pages", __name__)


@bp.get("/")
def table() -> ResponseReturnValue:
    """The shared table display (public): map, week, legality panel, battle, bookkeeping."""
    return render_template("table.html", page="table")


@bp.get("/play")
def play() -> ResponseReturnValue:
    """A player's phone, paired by token (in the URL fragment, never sent to the server)."""
    return render_template("table.html", page="play")


@bp.get("/referee")
def referee() -> ResponseReturnValue:
    """Manual entry of every action, corrections, undo, pairing."""
    return render_template("table.html", page="referee")


@bp.get("/replay/<int:game_id>")
def replay(game_id: int) -> ResponseReturnValue:
    """A stored game, step by step."""
    return render_template("replay.html", game_id=game_id)
