"""Each game's screen module, served from the game's own package (as Rally the Troops' server
hosts each module's `play.js`).

The page shell imports it by the URL the view names (`companion.web.about.screen_url`). Only a
game's declared screen file can be served this way: the name is resolved through the game
registry and the file is the one its spec names, so no other file of a package is reachable.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, send_file
from flask.typing import ResponseReturnValue

from companion.games import MissingCapability, UnknownGameName, game
from companion.i18n import LANGUAGES, catalog

__all__ = ["bp"]

bp = Blueprint("screens", __name__)


@bp.get("/games/<name>/screen.js")
def screen(name: str) -> ResponseReturnValue:
    """The game's screen module; 404 with a sentence when the game has none (yet)."""
    try:
        path = game(name).need_screen()
    except (MissingCapability, UnknownGameName) as exc:
        abort(404, str(exc))
    if not path.is_file():
        abort(404, f"{game(name).title}'s screen module {path.name} is missing from its package")
    return send_file(path, mimetype="text/javascript", max_age=0)


@bp.get("/i18n/<lang>/<name>.json")
def words(lang: str, name: str) -> ResponseReturnValue:
    """The page shell's and the game's screen words in `lang` (English text -> translation),
    from their message catalogs: a screen translates with it in the browser."""
    if lang not in LANGUAGES:
        abort(404, f"no language '{lang}' (languages: {', '.join(LANGUAGES)})")
    packages = ["companion.web"]
    try:
        packages.insert(0, game(name).package)
    except UnknownGameName:
        if name != "shell":
            abort(404, f"no game '{name}'")
    merged: dict[str, str] = {}
    for package in reversed(packages):  # the game's own words win over the shell's
        merged.update(catalog(package, lang))
    response = jsonify({"lang": lang, "languages": dict(LANGUAGES), "words": merged})
    response.headers["Cache-Control"] = "no-cache"
    return response
