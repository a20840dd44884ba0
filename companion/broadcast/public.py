"""What a table tells the world after each recorded action: the public screen's view, in words.

The redaction is the public screen's own: the engine's view for `PUBLIC` (what the shared tablet
shows), nothing else. The record's actions and events name hidden things (the blocks drawn, the
card bid, the daimyo chosen), so they are put into words through an allow-list: a name in an
action or event is kept only if the public view shows it (before or after the action); any other
becomes "hidden". A message can therefore never say more than the public screen showed at that
moment. A referee's note (free text) and a record line's hash (a digest of hidden data) are
never sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from companion.engine import PUBLIC, REFEREE, Action, Event, Game
from companion.record.format import Entry, Header
from companion.record.replay import UNDO
from companion.web.about import describe

__all__ = ["HIDDEN", "VERSION", "about", "message", "public_strings", "state", "words"]

VERSION = 1
HIDDEN = "hidden"


def public_strings(data: Any) -> set[str]:
    """Every string in a view, as a key or a value: the names the public screen shows."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, Mapping):
            found.update(str(k) for k in item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def _redact(value: Any, shown: set[str]) -> Any:
    if isinstance(value, str):
        return value if value in shown else HIDDEN
    if isinstance(value, Mapping):
        return {(k if k in shown else HIDDEN): _redact(v, shown) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(v, shown) for v in value]
    return value


def _phrase(value: Any) -> str:
    if isinstance(value, list):
        hidden = sum(1 for v in value if v == HIDDEN)
        named = [_phrase(v) for v in value if v != HIDDEN]
        return ", ".join([*named, *([f"{hidden} {HIDDEN}"] if hidden else [])]) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_phrase(v)}" for k, v in value.items())
    return "none" if value is None else str(value).replace("_", " ")


def _title(kind: str) -> str:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind).replace("_", " ")
    return spaced[:1].upper() + spaced[1:].lower()


def words(kind: str, data: Mapping[str, Any], shown: set[str]) -> str:
    """`BlocksDrawn {...}` -> "Blocks drawn: blocks 2 hidden, side ishida, to osaka".

    An event's field names are its schema (never a piece's name); every name inside is kept
    only if `shown` (the public view's strings) has it.
    """
    fields = [f"{key.replace('_', ' ')} {_phrase(_redact(value, shown))}"
              for key, value in sorted(data.items()) if key != "rule"]
    rule = f" (rule {data['rule']})" if isinstance(data.get("rule"), str) else ""
    return f"{_title(kind)}{': ' if fields else ''}{', '.join(fields)}{rule}"


def _action_words(action: Action, shown: set[str]) -> str:
    return words(f"{action.role} {action.verb}", action.args, shown)


def _event_words(events: tuple[Event, ...], shown: set[str]) -> list[str]:
    return [words(event.type, event.data, shown) for event in events]


def about(header: Header, game: Game[Any]) -> dict[str, Any]:
    """The game as a dashboard needs it: its screen module, roles, players and kit."""
    return {**describe(game.rules, header.players), "kit": header.kit.id}


def _kind(action: Action) -> str:
    if action.role == REFEREE and action.verb == UNDO:
        return "retraction"
    return "correction" if action.role == REFEREE else "action"


def message(names: tuple[str, str], game_id: int, header: Header, entry: Entry,
            before: dict[str, Any], game: Game[Any],
            described: dict[str, Any] | None = None) -> dict[str, Any]:
    """The public message for `entry`, given the public view before it and the game after;
    each carries the game's description, so a dashboard needs no other message to show it."""
    event, table = names
    after = game.view(PUBLIC)
    shown = public_strings(before) | public_strings(after) | set(game.rules.roles)
    kind = _kind(entry.action)
    body: dict[str, Any] = {
        "v": VERSION, "kind": kind, "event": event, "table": table, "game_id": game_id,
        "seq": entry.seq, "time": entry.time, "source": entry.source, "by": entry.by,
        "game": described or about(header, game), "started_at": header.started_at,
        "action": _action_words(entry.action, shown),
        "words": _event_words(entry.events, shown),
        **_position(game, after),
    }
    if kind == "retraction":
        body["retracts"] = [int(entry.action.args["seq"])]
        body["words"] = [f"Action {entry.action.args['seq']} was taken back"]
    return body


def _position(game: Game[Any], view: dict[str, Any]) -> dict[str, Any]:
    outcome = game.outcome
    return {"view": view, "to_move": list(game.to_move()),
            "outcome": None if outcome is None else outcome.to_json()}


def state(names: tuple[str, str], game_id: int, header: Header, game: Game[Any],
          last_seq: int, latest: dict[str, Any] | None) -> dict[str, Any]:
    """The retained state: which game the table plays, how far its record goes, the position."""
    event, table = names
    return {"v": VERSION, "kind": "state", "event": event, "table": table, "game_id": game_id,
            "last_seq": last_seq, "game": about(header, game), "started_at": header.started_at,
            **_position(game, game.view(PUBLIC)), "latest": latest}


def strings_in(message_body: Mapping[str, Any]) -> Iterator[str]:
    """Every string a message carries (the leak sweeps read them)."""
    yield from public_strings(message_body)
