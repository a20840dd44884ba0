"""Each game's screen module, served from the game's own package (as Rally the Troops' server
hosts each module's `play.js`), and what every page and screen share: the front-end toolkit and
the words in the device's language.

The page shell imports a game's module by the URL the view names (`companion.web.about.
screen_url`). Only a game's declared screen file can be served this way: the name is resolved
through the game registry and the file is the one its spec names, so no other file of a package
is reachable.

`common` serves the toolkit (`static/toolkit.js`) at the one URL every script imports it by,
`/common/toolkit.js`, and the catalogs of words: it is part of `bp` (the table's app and the
broadcast's register `bp`) and registered alone by the referee's own small pages
(`companion.web.referee_page`), whose app has no game.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, jsonify, send_file
from flask.typing import ResponseReturnValue

from companion.games import MissingCapability, UnknownGameName, game
from companion.i18n import LANGUAGES, catalog

__all__ = ["TOOLKIT_URL", "bp", "common"]

TOOLKIT = Path(__file__).with_name("static") / "toolkit.js"
TOOLKIT_URL = "/common/toolkit.js"
"""Where every page script and game screen imports the toolkit from: one URL in every app, so
that a page and its game's screen share one module (and its words)."""

common = Blueprint("common", __name__)
bp = Blueprint("screens", __name__)


@common.get(TOOLKIT_URL)
def toolkit() -> ResponseReturnValue:
    """The front-end toolkit, an ES module (DOM helpers, words, zoom)."""
    return send_file(TOOLKIT, mimetype="text/javascript", max_age=0)


@common.get("/i18n/<lang>/<name>.json")
def words(lang: str, name: str) -> ResponseReturnValue:
    """The page shell's and the game's screen words in `lang` (English text -> translation),
    from their message catalogs: a screen translates with it in the browser. `shell` for the
    pages' own words alone."""
    if lang not in LANGUAGES:
        abort(404, f"no language '{lang[:16]}' (languages: {', '.join(LANGUAGES)})")
    packages = ["companion.web"]
    try:
        packages.insert(0, game(name).package)
    except UnknownGameName:
        if name != "shell":
            abort(404, f"no game '{name[:64]}'")
    merged: dict[str, str] = {}
    for package in reversed(packages):  # the game's own words win over the shell's
        merged.update(catalog(package, lang))
    response = jsonify({"lang": lang, "languages": dict(LANGUAGES), "words": merged})
    response.headers["Cache-Control"] = "no-cache"
    return response


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


bp.register_blueprint(common)
