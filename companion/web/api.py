"""The role-filtered JSON API: views, actions, undo, corrections, pairing, board, replays."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from companion.engine import REFEREE, Action, Event, IllegalAction
from companion.kits import Kit
from companion.record import RecordError, replay
from companion.record.format import Record
from companion.record.replay import new_game
from companion.record.session import UndoRefused
from companion.record.store import StoreError
from companion.web.about import describe
from companion.web.auth import hub, require_change_allowed, role
from companion.web.board import UnknownPart, board_data, parts_asked
from companion.web.present import present

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/view")
def view() -> ResponseReturnValue:
    who = role()
    table = hub()
    table.pairing_used(request.headers.get("Authorization", "")[7:])
    return jsonify(present(who, table.view(who)))


@bp.post("/action")
def action() -> ResponseReturnValue:
    who = require_change_allowed()
    body: dict[str, Any] = request.get_json(silent=True) or {}
    try:
        act = (Action.from_text(body["text"]) if "text" in body else Action.from_json(body))
    except (KeyError, ValueError, TypeError) as exc:
        abort(400, f"an action is {{role, verb, args}} or {{text}}: {exc}")
    try:
        events = hub().act(who, act, body.get("source", "tablet"))
    except PermissionError as exc:
        abort(403, str(exc))
    except IllegalAction as exc:
        return jsonify({"rule": exc.rule, "message": exc.message,
                        "legal": list(exc.legal)}), 422
    return jsonify({"events": events})


@bp.post("/undo")
def undo() -> ResponseReturnValue:
    who = require_change_allowed()
    try:
        hub().undo(by=str((request.get_json(silent=True) or {}).get("by") or who))
    except UndoRefused as exc:
        return jsonify({"rule": "undo", "message": str(exc), "legal": []}), 422
    return jsonify({"ok": True})


@bp.post("/answer")
def answer() -> ResponseReturnValue:
    """The acting side (or the referee) answers the referee's question by its option's number."""
    who = require_change_allowed()
    choice = (request.get_json(silent=True) or {}).get("choice")
    if not isinstance(choice, int):
        abort(400, "answer with the number of the chosen option")
    try:
        events = hub().answer(who, choice)
    except PermissionError as exc:
        abort(403, str(exc))
    except IllegalAction as exc:
        return jsonify({"rule": exc.rule, "message": exc.message, "legal": list(exc.legal)}), 422
    return jsonify({"events": events})


@bp.post("/scan")
def scan() -> ResponseReturnValue:
    """A card code typed on a screen, when no scanner is at hand (the fallback, 6)."""
    who = require_change_allowed()
    code = str((request.get_json(silent=True) or {}).get("code", "")).strip()
    if not code or len(code) > 64 or not code.isprintable():
        abort(400, "a card code is 1-64 printable characters")
    event = hub().scanned(code, who)
    return jsonify({"code": event.code, "reader": event.reader})


@bp.post("/pause")
def pause() -> ResponseReturnValue:
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee pauses the game")
    hub().pause(bool((request.get_json(silent=True) or {}).get("paused", True)))
    return jsonify({"paused": hub().paused})


@bp.post("/correct")
def correct() -> ResponseReturnValue:
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee corrects the record")
    body = request.get_json(silent=True) or {}
    try:
        hub().correct(dict(body.get("args") or {}), by=str(body.get("by", "")),
                      note=str(body.get("note", "")))
    except IllegalAction as exc:
        return jsonify({"rule": exc.rule, "message": exc.message, "legal": []}), 422
    return jsonify({"ok": True})


@bp.post("/pair/<who>")
def pair(who: str) -> ResponseReturnValue:
    """The referee offers a phone pairing for a role; the table display shows its QR code."""
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee pairs devices")
    if who not in hub().roles:
        abort(404, f"no role {who!r}")
    base = request.host_url.rstrip("/")
    return jsonify({"role": who, "url": hub().offer_pairing(who, base)})


@bp.delete("/pair/<who>")
def unpair(who: str) -> ResponseReturnValue:
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee revokes devices")
    return jsonify({"revoked": hub().tokens.revoke(who)})


@bp.get("/board")
def board() -> ResponseReturnValue:
    """The live game's board: its kit's map, and the parts its screen asks for (`?parts=`)."""
    return _board(hub().session.game.rules.kit)


def _board(kit: Kit) -> ResponseReturnValue:
    try:
        return jsonify(board_data(kit, parts_asked(request.args.get("parts"))))
    except UnknownPart as exc:
        return jsonify({"message": str(exc)}), 404


def _stored(game_id: int) -> Record:
    try:
        return hub().session.store.load(game_id)
    except (RecordError, StoreError) as exc:
        abort(404, str(exc))


@bp.get("/replay/<int:game_id>/board")
def replay_board(game_id: int) -> ResponseReturnValue:
    """A stored game's board (its kit may differ from the live game's)."""
    record = _stored(game_id)
    return _board(new_game(record.header, record.path).rules.kit)


TURN_MARKS = (("TurnBegan", None), ("PhaseBegan", "movement"))
"""Events that begin a turn, with the phase they must name (if any): a player's turn begins
(`TurnBegan`), or a side's movement phase does. The engine has no generic notion of a turn yet;
a `Rules` hook saying where turns begin would replace this list."""


def _begins_turn(event: Event) -> bool:
    return any(event.type == kind and (phase is None or event.data.get("phase") == phase)
               for kind, phase in TURN_MARKS)


@bp.get("/replay/<int:game_id>/turns")
def replay_turns(game_id: int) -> ResponseReturnValue:
    """Where each turn begins, for stepping a replay by turn."""
    record = _stored(game_id)
    turns = [n for n, entry in enumerate(record.entries, start=1)
             if any(_begins_turn(e) for e in entry.events)]
    return jsonify({"total": len(record.entries), "turns": turns})


def _finished(game_id: int, record: Record) -> bool:
    """Whether the stored game has ended, replayed once per length of its record (a record
    only grows, an undo included, so the length tells a changed record apart) rather than once
    per step of a scrubbing replay viewer."""
    known: dict[tuple[int, int], bool] = current_app.extensions.setdefault("replay_finished", {})
    key = (game_id, len(record.entries))
    if key not in known:
        if len(known) > 256:
            known.clear()
        known[key] = replay(record).game.outcome is not None
    return known[key]


@bp.get("/replay/<int:game_id>")
def replay_view(game_id: int) -> ResponseReturnValue:
    """The position after `at` action lines: full information once the game is over (6)."""
    record = _stored(game_id)
    at = request.args.get("at", type=int)
    result = replay(record, upto_line=None if at is None else at + 1)
    final = _finished(game_id, record)
    who = role()
    shown = REFEREE if final or who == REFEREE else who
    return jsonify({"game_id": game_id, "total": len(record.entries), "at": result.applied,
                    "game": describe(result.game.rules, record.header.players),
                    "role": shown, "view": result.game.view(shown),
                    "to_move": list(result.game.to_move()),
                    "action": (record.entries[result.applied - 1].action.text()
                               if result.applied and shown == REFEREE else None)})
