"""The role-filtered JSON API: views, actions, undo, corrections, pairing, board (the
replays' routes are in `replay_api`).

Who acted, from where, is set here from the credential (`auth.role`, `hub.source_of`), never
read from the request; every body is parsed strictly and bounded (`auth.body`, `bounded`).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from companion.engine import REFEREE, Action, IllegalAction
from companion.kits import Kit
from companion.record.replay import UNDO
from companion.record.session import UndoRefused
from companion.web.auth import (
    body,
    client_key,
    finite,
    hub,
    lang,
    require_change_allowed,
    require_json_from_here,
    viewer,
)
from companion.web.board import UnknownPart, board_data, parts_asked
from companion.web.hub import NOT_YOUR_CARD, PairingGone, source_of
from companion.web.present import present

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_ARGS = 4096
"""Bytes of an action's arguments as JSON: the largest real action (a move of a whole stack
with its paths) is under 1 KiB."""
CLAIMS = "10 per minute"
"""Pairing claims a device may make (a phone makes one)."""
MAX_WORDS = 200
"""Characters of a correction's author or reason."""


@bp.get("/view")
def view() -> ResponseReturnValue:
    who = viewer()
    return jsonify(present(who, hub().view(who, lang())))


def _action(data: dict[str, Any]) -> Action:
    """The action a body describes, bounded and finite, or 400."""
    try:
        act = (Action.from_text(str(data["text"])) if "text" in data
               else Action.from_json(data))
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        abort(400, f"an action is {{role, verb, args}} or {{text}}: {exc}")
    args = act.to_json()["args"]
    if not finite(args):
        abort(400, "NaN and Infinity are not numbers an action takes")
    if len(json.dumps(args)) > MAX_ARGS:
        abort(400, f"an action's arguments are at most {MAX_ARGS} bytes of JSON")
    return act


@bp.post("/action")
def action() -> ResponseReturnValue:
    who = require_change_allowed()
    act = _action(body())
    if act.role == REFEREE or act.verb == UNDO:
        abort(403, "corrections and undos have their own tools (an author and a reason for a "
                   "correction): not sent as an action")
    try:
        events = hub().act(who, act, source_of(who))
    except PermissionError as exc:
        abort(403, str(exc))
    except IllegalAction as exc:
        return jsonify({"rule": exc.rule, "message": exc.message,
                        "legal": list(exc.legal)}), 422
    return jsonify({"events": events})


@bp.post("/undo")
def undo() -> ResponseReturnValue:
    who = require_change_allowed()
    body()  # any body fields (`by`, `source`) are ignored: the credential says who and where
    try:
        if who == REFEREE:
            hub().undo(who)
            asked = False
        else:  # at once where the phone may; else the referee is asked
            asked = hub().ask_undo(who)
    except PermissionError as exc:
        abort(403, str(exc))
    except UndoRefused as exc:
        return jsonify({"rule": "undo", "message": str(exc), "legal": []}), 422
    return jsonify({"ok": True, "asked_referee": asked})


@bp.post("/take-back")
def take_back() -> ResponseReturnValue:
    """One tap on a reading the table played at once (issue 36): `{"seq": N}`, the line the
    notice showed, so that a late tap never takes back a later action."""
    who = require_change_allowed()
    seq = body().get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int):
        abort(400, "seq is the number of the line to take back")
    try:
        hub().take_back(who, seq)
    except PermissionError as exc:
        abort(403, str(exc))
    except UndoRefused as exc:
        return jsonify({"rule": "undo", "message": str(exc), "legal": []}), 409
    return jsonify({"ok": True})


@bp.post("/undo/request")
def undo_request() -> ResponseReturnValue:
    """The referee allows or declines a player's request to take back its last action."""
    who = require_change_allowed()
    if who != REFEREE:
        abort(403, "only the referee settles an undo request")
    allow = body().get("allow")
    if not isinstance(allow, bool):
        abort(400, "allow is true or false")
    try:
        hub().settle_undo_request(allow)
    except PermissionError as exc:
        abort(409, str(exc))
    except UndoRefused as exc:
        return jsonify({"rule": "undo", "message": str(exc), "legal": []}), 422
    return jsonify({"ok": True})


@bp.post("/answer")
def answer() -> ResponseReturnValue:
    """The acting side (or the referee) answers the referee's question by its option's number."""
    who = require_change_allowed()
    choice = body().get("choice")
    if not isinstance(choice, int) or isinstance(choice, bool):
        abort(400, "answer with the number of the chosen option")
    try:
        events = hub().answer(who, choice, source_of(who))
    except PermissionError as exc:
        abort(403, str(exc))
    except IllegalAction as exc:
        return jsonify({"rule": exc.rule, "message": exc.message, "legal": list(exc.legal)}), 422
    return jsonify({"events": events})


@bp.post("/scan")
def scan() -> ResponseReturnValue:
    """A card code typed on a screen, when no scanner is at hand (the fallback, 6)."""
    who = require_change_allowed()
    code = body().get("code", "")
    code = code.strip() if isinstance(code, str) else ""
    if not code or len(code) > 64 or not code.isprintable():
        if who != REFEREE:
            abort(403, NOT_YOUR_CARD)  # the same refusal as any code not the phone's own
        abort(400, "a card code is 1-64 printable characters")
    try:
        event = hub().scanned(code, who)
    except PermissionError as exc:
        abort(403, str(exc))
    return jsonify({"code": event.code, "reader": event.reader})


@bp.post("/pause")
def pause() -> ResponseReturnValue:
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee pauses the game")
    paused = body().get("paused", True)
    if not isinstance(paused, bool):
        abort(400, "paused is true or false")  # "no" would be true to bool(): a pause
    hub().pause(paused)
    return jsonify({"paused": hub().paused})


@bp.post("/correct")
def correct() -> ResponseReturnValue:
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee corrects the record")
    data = body()
    args, by, note = data.get("args") or {}, data.get("by", ""), data.get("note", "")
    if not isinstance(args, dict) or not isinstance(by, str) or not isinstance(note, str):
        abort(400, "a correction is {args: {...}, by: author, note: reason}")
    if len(by) > MAX_WORDS or len(note) > MAX_WORDS:
        abort(400, f"a correction's author and reason are at most {MAX_WORDS} characters")
    if not finite(args) or len(json.dumps(args)) > MAX_ARGS:
        abort(400, f"a correction's arguments are finite numbers, at most {MAX_ARGS} bytes")
    try:
        hub().correct(args, by=by, note=note)
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
    # The address the phones reach the table at (serve's --public-url, or the LAN address it
    # found), never the host the referee's browser happened to use (localhost on the Pi).
    base = current_app.config.get("PUBLIC_URL") or request.host_url.rstrip("/")
    return jsonify({"role": who, "url": hub().offer_pairing(who, base)})


@bp.post("/pair/claim")
def claim() -> ResponseReturnValue:
    """A phone presents the one-time secret from the QR code (no token yet): it gets its
    token, valid once the referee confirms the code it shows."""
    require_json_from_here()
    with current_app.extensions["limiter"].limit(CLAIMS, key_func=client_key):
        # A secret cannot be guessed by trying, nor six digits in the 10 minutes an offer
        # lasts at 10 claims a minute (and the referee still confirms the phone's code).
        secret = body().get("pair")
        if not isinstance(secret, str) or not 0 < len(secret) <= 64:
            abort(400, "send the pairing secret from the QR code, or its six digits")
        try:
            device, code = hub().claim_pairing(secret)
        except PairingGone as exc:
            abort(410, str(exc))
    return jsonify({"token": device, "code": code})


@bp.post("/pair/<who>/confirm")
def confirm(who: str) -> ResponseReturnValue:
    """The referee confirms the code shown by the phone that claimed `who`'s pairing."""
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee pairs devices")
    code = body().get("code")
    if not isinstance(code, str) or len(code) > 16:
        abort(400, "send the code the phone shows")
    try:
        hub().confirm_pairing(who, code)
    except PermissionError as exc:
        abort(403, str(exc))
    return jsonify({"role": who, "paired": True})


@bp.delete("/pair/<who>")
def unpair(who: str) -> ResponseReturnValue:
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee revokes devices")
    return jsonify({"revoked": hub().revoke(who)})


@bp.post("/setcheck")
def set_check() -> ResponseReturnValue:
    """The referee starts or ends the set check (`{"on": true}`): each piece held under the
    camera and each card at the reader is named on the referee's screen."""
    if require_change_allowed() != REFEREE:
        abort(403, "only the referee runs the set check")
    on = body().get("on")
    if not isinstance(on, bool):
        abort(400, "on is true or false")
    try:
        hub().start_set_check(on)
    except PermissionError as exc:
        abort(409, str(exc))
    return jsonify({"running": on})


@bp.get("/board")
def board() -> ResponseReturnValue:
    """The live game's board: its kit's map, and the parts its screen asks for (`?parts=`)."""
    return _board(hub().session.game.rules.kit)


def _board(kit: Kit) -> ResponseReturnValue:
    try:
        return jsonify(board_data(kit, parts_asked(request.args.get("parts"))))
    except UnknownPart as exc:
        return jsonify({"message": str(exc)}), 404
