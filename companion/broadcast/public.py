"""What a table tells the world after each recorded action: the public screen's view, in words.

Everything a message carries is what the shared table display shows at that moment, from the
game's own statement of what a spectator may know: the engine's view for `PUBLIC` (the position,
as the shared tablet draws it) and each record line said by the game's rules to `PUBLIC`
(`Rules.say_recorded`, in the position the line was taken in: the words of the table display's
game log, `web.replays.line_words`). A secret choice (a plan, a bid, a face-down card) is said
as the table says it ("Red makes a secret plan and bid") until the rules reveal it. The record's
own action arguments and events, which name hidden things, never reach a message, nor does any
name list built from them: what a game hides decides what is broadcast. A referee's note (free
text) and a record line's hash (a digest of hidden data) are never sent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine import PUBLIC, REFEREE, Game
from companion.record.format import Entry, Header
from companion.record.replay import UNDO
from companion.web.about import describe

__all__ = ["LANG", "VERSION", "Said", "about", "message", "state", "strings_in"]

VERSION = 2
"""2: `action` and `words` are the game's own public words (1 put the record's arguments and
events through a list of names the public view showed)."""
LANG = "en"
"""The broadcast's language (the dashboard's pages are in English)."""


@dataclass(frozen=True)
class Said:
    """A record line as the table display's game log says it: its words and the rule its
    events cite, with that rule's one-line summary."""

    words: str
    rule: str = ""
    summary: str = ""


def about(header: Header, game: Game[Any]) -> dict[str, Any]:
    """The game as a dashboard needs it: its screen module, roles, players and kit."""
    return {**describe(game.rules, header.players), "kit": header.kit.id}


def _kind(entry: Entry) -> str:
    if entry.action.role == REFEREE and entry.action.verb == UNDO:
        return "retraction"
    return "correction" if entry.action.role == REFEREE else "action"


def _details(said: Said) -> list[str]:
    """The line's detail on the dashboard: the rule it applied, in the project's words."""
    if not said.rule:
        return []
    return [f"Rule {said.rule}: {said.summary}" if said.summary else f"Rule {said.rule}"]


def message(names: tuple[str, str], game_id: int, header: Header, entry: Entry, said: Said,
            game: Game[Any], described: dict[str, Any] | None = None) -> dict[str, Any]:
    """The public message for `entry`, said to the public (`said`), with the game after it;
    each carries the game's description, so a dashboard needs no other message to show it."""
    event, table = names
    kind = _kind(entry)
    body: dict[str, Any] = {
        "v": VERSION, "kind": kind, "event": event, "table": table, "game_id": game_id,
        "seq": entry.seq, "time": entry.time, "source": entry.source, "by": entry.by,
        "game": described or about(header, game), "started_at": header.started_at,
        "action": said.words, "words": _details(said),
        **_position(game, game.view(PUBLIC)),
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


def strings_in(data: Any) -> Iterator[str]:
    """Every string a message carries, as a key or a value (the leak sweeps read them)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, Mapping):
            yield from (str(k) for k in item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
