"""The role-filtered JSON API: views, actions, undo, corrections, pairing, board, replays."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from companion.engine import REFEREE, Action, IllegalAction
from companion.kits import Kit
from companion.record import RecordError, replay
from companion.record.session import UndoRefused
from companion.record.store import StoreError
from companion.web.auth import hub, require_change_allowed, role
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
    """The map as drawn on every screen: public component facts only."""
    kit: Kit = hub().session.game.rules.kit
    locations = [loc.model_dump(include={"id", "name", "xy", "resource", "capital", "castle"})
                 for loc in getattr(kit, "locations", ())]
    roads = [r.model_dump() for r in getattr(kit, "roads", ())]
    tracks = getattr(kit, "tracks", None)
    return jsonify({"kit": kit.id, "locations": locations, "roads": roads,
                    "impact_track": list(tracks.impact_track) if tracks else [0, 48]})


@bp.get("/replay/<int:game_id>/turns")
def replay_turns(game_id: int) -> ResponseReturnValue:
    """Where each turn (a side's movement phase) begins, for stepping a replay by turn."""
    try:
        record = hub().session.store.load(game_id)
    except (RecordError, StoreError) as exc:
        abort(404, str(exc))
    turns = [n for n, entry in enumerate(record.entries, start=1)
             if any(e.type == "PhaseBegan" and e.data.get("phase") == "movement"
                    for e in entry.events)]
    return jsonify({"total": len(record.entries), "turns": turns})


@bp.get("/replay/<int:game_id>")
def replay_view(game_id: int) -> ResponseReturnValue:
    """The position after `at` action lines: full information once the game is over (6)."""
    store = hub().session.store
    try:
        record = store.load(game_id)
    except (RecordError, StoreError) as exc:
        abort(404, str(exc))
    at = request.args.get("at", type=int)
    result = replay(record, upto_line=None if at is None else at + 1)
    final = replay(record).game.outcome is not None
    who = role()
    shown = REFEREE if final or who == REFEREE else who
    return jsonify({"game_id": game_id, "total": len(record.entries), "at": result.applied,
                    "role": shown, "view": result.game.view(shown),
                    "action": (record.entries[result.applied - 1].action.text()
                               if result.applied and shown == REFEREE else None)})
