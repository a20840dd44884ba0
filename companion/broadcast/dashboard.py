"""The broadcast dashboard (`companion broadcast URL`): every table of the event on one page.

A Flask app over the broadcast's own store: the page of all tables (each board a thumbnail drawn
by the game's own screen module, whose turn, the impact, the result), one table live full-screen,
any game replayed from the store, the event's standings (wins per player, with the names of a
pairing file when given) and the export of every game's public record. It reads only what the
tables broadcast: it never sees more than their public screens did.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, Flask, abort, current_app, jsonify, render_template, request, send_file
from flask.typing import ResponseReturnValue

from companion.broadcast.store import BroadcastStore, TableRow
from companion.kits import KitError, load_kit
from companion.web import screens
from companion.web.board import UnknownPart, board_data, parts_asked

__all__ = ["create_dashboard", "export_all", "load_names", "standings", "summary"]

bp = Blueprint("dashboard", __name__)


def load_names(path: Path | None) -> dict[str, dict[str, str]]:
    """A pairing file: `{table: {role: player name}}` (YAML or JSON); names the standings use
    before the names a table's record carries."""
    if path is None:
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    tables = data.get("tables", data) if isinstance(data, dict) else {}
    return {str(t): {str(r): str(n) for r, n in (roles or {}).items()}
            for t, roles in tables.items()}


def _name(names: Mapping[str, Mapping[str, str]], table: str, about: Mapping[str, Any],
          role: str) -> str:
    return (names.get(table, {}).get(role) or (about.get("players") or {}).get(role)
            or f"{table} {role}")


def _impact(view: Mapping[str, Any]) -> dict[str, Any] | None:
    battle = view.get("battle")
    return battle.get("impact") if isinstance(battle, dict) else None


def summary(store: BroadcastStore, names: Mapping[str, Mapping[str, str]]) -> list[dict[str, Any]]:
    """Each table's current game in a line: who plays, whose turn, impact, result, progress."""
    rows = []
    for row in store.tables():
        latest = store.latest(row.table, row.game_id) or {}
        view = latest.get("view") or {}
        rows.append({
            "table": row.table, "game_id": row.game_id, "title": row.about.get("title"),
            "players": {r: _name(names, row.table, row.about, r)
                        for r in row.about.get("roles", [])},
            "to_move": latest.get("to_move", []), "impact": _impact(view),
            "outcome": latest.get("outcome"), "seq": latest.get("seq", 0),
            "last_seq": row.last_seq, "received": row.received,
            "last": latest.get("words", [])[-1:] if latest else [],
            "action": latest.get("action"),
        })
    return rows


def _finished(store: BroadcastStore, row: TableRow) -> dict[str, Any] | None:
    latest = store.latest(row.table, row.game_id)
    if latest is None or latest.get("outcome") is None or latest["seq"] < row.last_seq:
        return None
    outcome: dict[str, Any] = latest["outcome"]
    return outcome


def standings(store: BroadcastStore, names: Mapping[str, Mapping[str, str]],
              ) -> list[dict[str, Any]]:
    """Wins, draws and games per player over every finished game of the event."""
    table: dict[str, dict[str, Any]] = {}
    for row in store.games():
        outcome = _finished(store, row)
        if outcome is None:
            continue
        for role in row.about.get("roles", []):
            name = _name(names, row.table, row.about, role)
            line = table.setdefault(name, {"player": name, "wins": 0, "draws": 0, "games": 0})
            line["games"] += 1
            if outcome.get("winner") == role:
                line["wins"] += 1
            elif outcome.get("winner") is None:
                line["draws"] += 1
    return sorted(table.values(), key=lambda r: (-r["wins"], -r["draws"], r["player"]))


def export_all(store: BroadcastStore) -> dict[str, str]:
    """Every game's public record as JSON Lines (a header line, then one line per message),
    by file name: what the event leaves behind once it ends."""
    files = {}
    for row in store.games():
        header = store.header(row.table, row.game_id) or {}
        lines = [json.dumps({"broadcast": header}),
                 *(json.dumps(m) for m in store.messages(row.table, row.game_id))]
        files[f"{row.table}-game{row.game_id}.jsonl"] = "\n".join(lines) + "\n"
    return files


def _store() -> BroadcastStore:
    store: BroadcastStore = current_app.extensions["broadcast_store"]
    return store


def _names() -> dict[str, dict[str, str]]:
    names: dict[str, dict[str, str]] = current_app.extensions["broadcast_names"]
    return names


@bp.get("/")
def index() -> ResponseReturnValue:
    return render_template("broadcast_index.html", event=current_app.config["EVENT"])


@bp.get("/tables/<table>")
def live(table: str) -> ResponseReturnValue:
    """One table, live, full-screen (`?thumb=1`: the index's thumbnail of it)."""
    mode = "thumb" if request.args.get("thumb") else "live"
    return render_template("broadcast_frame.html", table=table, game_id="", mode=mode,
                           event=current_app.config["EVENT"])


@bp.get("/tables/<table>/<int:game_id>/replay")
def replay(table: str, game_id: int) -> ResponseReturnValue:
    return render_template("broadcast_frame.html", table=table, game_id=game_id, mode="replay",
                           event=current_app.config["EVENT"])


@bp.get("/api/tables")
def api_tables() -> ResponseReturnValue:
    return jsonify({"event": current_app.config["EVENT"],
                    "tables": summary(_store(), _names()),
                    "standings": standings(_store(), _names()),
                    "games": [{"table": g.table, "game_id": g.game_id,
                               "title": g.about.get("title"), "received": g.received,
                               "last_seq": g.last_seq} for g in _store().games()]})


@bp.get("/api/tables/<table>/latest")
def api_latest(table: str) -> ResponseReturnValue:
    """The table's current game and its newest message (204 if it is still `?after=SEQ`)."""
    rows = [r for r in _store().tables() if r.table == table]
    if not rows:
        abort(404, f"no table {table!r} has broadcast yet")
    row = rows[0]
    latest = _store().latest(table, row.game_id)
    seq = latest["seq"] if latest else 0
    if request.args.get("game", type=int) == row.game_id \
            and request.args.get("after", type=int) == seq:
        return "", 204
    return jsonify({"table": table, "game_id": row.game_id, "about": row.about,
                    "last_seq": row.last_seq, "message": latest})


@bp.get("/api/tables/<table>/games/<int:game_id>")
def api_game(table: str, game_id: int) -> ResponseReturnValue:
    header = _store().header(table, game_id)
    if header is None:
        abort(404, f"no game {game_id} of table {table!r}")
    return jsonify({**header, "messages": _store().messages(table, game_id)})


@bp.get("/api/standings")
def api_standings() -> ResponseReturnValue:
    return jsonify(standings(_store(), _names()))


@bp.get("/board/<kit>")
def board(kit: str) -> ResponseReturnValue:
    """A kit's printed board, for the screen modules (the same answer as a table's)."""
    try:
        return jsonify(board_data(load_kit(kit), parts_asked(request.args.get("parts"))))
    except KitError:
        abort(404, f"no kit {kit!r}")
    except UnknownPart as exc:
        return jsonify({"message": str(exc)}), 404


@bp.get("/export.zip")
def export() -> ResponseReturnValue:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in export_all(_store()).items():
            archive.writestr(name, text)
    out.seek(0)
    event = current_app.config["EVENT"]
    return send_file(out, mimetype="application/zip", as_attachment=True,
                     download_name=f"{event}-broadcast.zip")


def create_dashboard(store: BroadcastStore, event: str,
                     names: Mapping[str, Mapping[str, str]] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(EVENT=event, JSON_SORT_KEYS=False)
    app.extensions["broadcast_store"] = store
    app.extensions["broadcast_names"] = dict(names or {})
    app.register_blueprint(bp)
    app.register_blueprint(screens.bp)
    return app


def run_dashboard(url_text: str, db: Path, host: str = "0.0.0.0", port: int = 8080,
                  names: Path | None = None, ready: Any = None) -> None:
    """Subscribe to every table of the URL's event and serve the dashboard until stopped.

    A broker that refuses the dashboard's credentials stops it (BroadcastError); one that
    cannot be reached yet does not: the page serves what the store has and fills in later.
    """
    from werkzeug.serving import make_server

    from companion.broadcast.subscriber import Subscriber
    from companion.broadcast.url import BroadcastError, parse_url

    url = parse_url(url_text)
    store = BroadcastStore(db)
    subscriber = Subscriber(url, store).start()
    try:
        subscriber.wait_connected(10)
    except BroadcastError:
        if subscriber.refused:
            subscriber.stop()
            raise
    server = make_server(host, port, create_dashboard(store, url.event, load_names(names)),
                         threaded=True)
    if ready is not None:
        ready(server.server_port)
    try:
        server.serve_forever()
    finally:
        subscriber.stop()
        store.close()
