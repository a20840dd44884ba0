"""The replay viewer's API: the stored games, a game's positions, its moves in words, snapshots.

Who sees what is decided here, on the server, as for the live game: a stored game is shown as
the public sees it while it runs (a player's own live game as that player sees it, the
referee's token sees everything), and in full once it has ended (6). The move list is the
rules' own words (`Rules.say`) for that viewer, so a line never names a piece the viewer may
not see, and a correction's reason (free text that may name hidden blocks) is shown only to
whoever sees everything. A camera snapshot shows the tags, which a phone could decode into the
hidden blocks' identities: it is served once the game has ended, and before only to the
referee's token.

Every position is kept once replayed (`ReplayCache`): a step is a lookup and the view.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from companion.engine import PUBLIC, REFEREE
from companion.games import UnknownGameName
from companion.games import game as game_spec
from companion.i18n import translator
from companion.record import RecordError
from companion.record.replay import UNDO, new_game
from companion.record.store import GameRow, Store, StoreError
from companion.web.about import describe
from companion.web.auth import hub, lang, role
from companion.web.board import UnknownPart, board_data, parts_asked
from companion.web.replays import Positions, ReplayCache, outcome_said, rule_of

__all__ = ["bp", "game_list", "positions", "replays"]

bp = Blueprint("replay_api", __name__, url_prefix="/api")


SOURCES = {"camera": "camera", "card_reader": "card reader", "scanner": "card scanner",
           "button": "table button", "tablet": "referee's tablet", "phone": "phone",
           "referee": "referee", "simulator": "simulator"}
"""Where a record line came from (docs/record-format.md), as a player would say it: the live
game log's words (companion.js `SOURCES`), translated by the shell's catalog."""


def replays() -> ReplayCache:
    """The app's cache of replayed games."""
    cache: ReplayCache = current_app.extensions.setdefault("replays", ReplayCache())
    return cache


def _store() -> Store:
    return hub().session.store


def positions(game_id: int) -> Positions:
    """A stored game's positions; 404 naming the game only (never the database's path)."""
    try:
        return replays().stored(_store(), game_id)
    except (RecordError, StoreError):
        abort(404, f"no readable game {game_id}")


def _viewer(game_id: int, known: Positions) -> str:
    """The role a replay is shown as: everything once the game has ended or to the referee; a
    player's credential holds in its own live game only (another game as the public sees it)."""
    who = role()
    if who != REFEREE and game_id != hub().session.game_id:
        who = PUBLIC
    return REFEREE if known.finished or who == REFEREE else who


def _snapshots_served(known: Positions) -> bool:
    """Camera frames show the tags (hidden identities, decoded): after the game, or the
    referee."""
    return known.finished or role() == REFEREE


def _turns(known: Positions) -> list[int]:
    """The lines where a turn begins, as the game's rules say (`Rules.begins_turn`)."""
    return [n for n, entry in enumerate(known.record.entries, start=1)
            if any(known.rules.begins_turn(e) for e in entry.events)]


def _outcome(game: Any) -> dict[str, Any] | None:
    return outcome_said(game, lang())


# --- the list of stored games ------------------------------------------------------------------


def _title(name: str) -> str:
    try:
        return game_spec(name).title
    except UnknownGameName:
        return name


def _players(row: GameRow) -> list[dict[str, str]]:
    """The store's "role name, role name" as (role, name) pairs, for the list."""
    found = []
    for part in filter(None, (p.strip() for p in row.players.split(", "))):
        who, _, name = part.partition(" ")
        found.append({"role": who, "name": name})
    return found


def _result(row: GameRow) -> dict[str, Any] | None:
    """The games table's "winner: how" ("red and blue: how" for a shared victory, "draw: how")
    as its parts: `winners` (each winner's role), `winner` (the lone winner, else None)."""
    if row.result is None:
        return None
    winners, how = list(row.result[0]), row.result[1]
    return {"winner": winners[0] if len(winners) == 1 else None, "winners": winners, "how": how}


def game_list() -> list[dict[str, Any]]:
    """Every stored game, newest first: what the list of replays shows (no hidden state)."""
    live = hub().session.game_id
    found = []
    for row in _store().games():
        players = _players(row)
        result = _result(row)
        if result is not None:
            names = {p["role"]: p["name"] for p in players}
            result["name"] = names.get(result["winner"] or "", "")
            result["names"] = [names.get(role, "") for role in result["winners"]]
        found.append({"id": row.id, "game": row.game, "title": _title(row.game),
                      "players": players, "started": row.started_at, "actions": row.entries,
                      "result": row.outcome, "outcome": result, "finished": row.finished,
                      "live": row.id == live})
    return found


@bp.get("/replays")
def stored_games() -> ResponseReturnValue:
    return jsonify({"games": game_list()})


# --- one game ----------------------------------------------------------------------------------


@bp.get("/replay/<int:game_id>/board")
def replay_board(game_id: int) -> ResponseReturnValue:
    """A stored game's board (its kit may differ from the live game's)."""
    record = positions(game_id).record
    kit = new_game(record.header, record.path).rules.kit
    try:
        return jsonify(board_data(kit, parts_asked(request.args.get("parts"))))
    except UnknownPart as exc:
        return jsonify({"message": str(exc)}), 404


@bp.get("/replay/<int:game_id>/turns")
def replay_turns(game_id: int) -> ResponseReturnValue:
    """Where each turn begins, for stepping a replay by turn."""
    known = positions(game_id)
    return jsonify({"total": known.total, "turns": _turns(known)})


@bp.get("/replay/<int:game_id>")
def replay_view(game_id: int) -> ResponseReturnValue:
    """The position after `at` action lines, with the last of them in words and the outcome
    there (the viewer's victory banner)."""
    known = positions(game_id)
    applied, game = known.at(request.args.get("at", type=int))
    shown = _viewer(game_id, known)
    language = lang()
    return jsonify({"game_id": game_id, "total": known.total, "at": applied,
                    "game": describe(game.rules, known.record.header.players),
                    "role": shown, "view": game.view(shown),
                    "to_move": list(game.to_move()),
                    "action": known.words(applied, shown, language) if applied else None,
                    "last": _last(known, applied, shown, language),
                    "outcome": _outcome(game)})


def _last(known: Positions, applied: int, shown: str, language: str) -> dict[str, Any] | None:
    """The line that led to this position, as the live screens' `last`: its words and what the
    board may mark for it (`Rules.marks`: locations only, for everyone)."""
    if not applied:
        return None
    entry = known.record.entries[applied - 1]
    marks: dict[str, Any] = {}
    if entry.action.role != REFEREE:
        try:
            marks = dict(known.rules.marks(known.before(applied), entry.action))
        except (IndexError, KeyError, ValueError, TypeError):
            marks = {}
    return {"seq": entry.seq, "role": entry.action.role,
            "words": known.words(applied, shown, language), "marks": marks}


@bp.get("/replay/<int:game_id>/moves")
def replay_moves(game_id: int) -> ResponseReturnValue:
    """Every line of the record in words for the viewer (`?lang=`): who, from where, a
    correction's author (and its reason, to whoever sees everything), the rule it cites, a
    snapshot where one was kept and may be shown, and whether a later undo took it back."""
    known = positions(game_id)
    shown = _viewer(game_id, known)
    language = lang()
    words = translator(language, "companion.web")
    rules = known.rules
    undone = known.undone
    pictures = _snapshot_seqs(game_id) if _snapshots_served(known) else set()
    moves = []
    for entry in known.record.entries:
        rule = rule_of(entry.events)
        correction = entry.action.role == REFEREE and entry.action.verb == "correct"
        moves.append({
            "seq": entry.seq, "role": entry.action.role, "time": entry.time,
            "words": known.words(entry.seq, shown, language),
            "source": entry.source, "from": words(SOURCES.get(entry.source, entry.source)),
            "by": entry.by, "note": entry.note if shown == REFEREE else None,
            "correction": correction,
            "undo": entry.action.role == REFEREE and entry.action.verb == UNDO,
            "undone": entry.seq in undone,
            "rule": rule, "summary": rules.rule_summary(rule, language) if rule else "",
            "snapshot": (f"/api/replay/{game_id}/snapshot/{entry.seq}"
                         if entry.seq in pictures else None)})
    final = known.at(None)[1]
    return jsonify({"game_id": game_id, "total": known.total, "role": shown, "lang": language,
                    "turns": _turns(known), "moves": moves,
                    "outcome": _outcome(final) if known.finished else None})


@bp.get("/replay/<int:game_id>/snapshot/<int:seq>")
def replay_snapshot(game_id: int, seq: int) -> ResponseReturnValue:
    """The camera frame kept with line `seq` (JPEG): see the module's note on who may have it."""
    known = positions(game_id)
    if not _snapshots_served(known):
        abort(403, "the camera's snapshots show the tags: the referee sees them while the game "
                   "runs, everyone once it has ended")
    jpeg = _store().snapshot(game_id, seq)
    if jpeg is None:
        abort(404, f"game {game_id} kept no snapshot with action {seq}")
    response = Response(jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "private, max-age=3600" if known.finished \
        else "no-store"
    return response


def _snapshot_seqs(game_id: int) -> set[int]:
    """The lines of a game that kept a camera snapshot, without reading the images."""
    return _store().snapshot_seqs(game_id)
