"""A game being played and recorded: nothing is acknowledged before it is durable.

`Session.play` asks the engine first (an illegal action is refused and nothing is stored), then
appends the action with its events to the store in one durable transaction, and only then
returns: the caller lights the green light or updates the tablet after that. If the store
fails, the in-memory game is rebuilt from what the store holds, so memory never runs ahead of
the record. `Session.resume` rebuilds a game from its stored record after a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.engine import REFEREE, Action, Event, Game, IllegalAction, rules_class
from companion.kits import load_kit
from companion.record.format import (
    SOURCES,
    Entry,
    Header,
    KitRef,
    Record,
    RecordError,
    write_record,
)
from companion.record.replay import UNDO, Replayer, replay
from companion.record.store import Store

__all__ = ["Session", "UndoRefused", "import_record", "now"]


class UndoRefused(Exception):
    """An undo the rules of undo forbid (a draw or a reveal since, or nothing to undo)."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class Session:
    def __init__(self, store: Store, game_id: int, header: Header, replayer: Replayer,
                 entries: list[Entry], clock: Callable[[], str] = now) -> None:
        self.store, self.game_id, self.header = store, game_id, header
        self._replayer, self.entries, self.clock = replayer, entries, clock

    @property
    def game(self) -> Game[Any]:
        return self._replayer.game

    @classmethod
    def start(cls, store: Store, game_name: str, *, options: Mapping[str, Any] | None = None,
              seed: int = 0, players: Mapping[str, str] | None = None, kit: str | None = None,
              clock: Callable[[], str] = now) -> Session:
        """A new game, stored before its first action."""
        loaded = load_kit(kit or rules_class(game_name).game_type.kit)
        rules = rules_class(game_name)(loaded, options)
        header = Header(game=game_name, kit=KitRef(id=loaded.id, version=loaded.version),
                        options=dict(rules.options), seed=seed, players=dict(players or {}),
                        started_at=clock())
        game_id = store.create(header)
        return cls(store, game_id, header, Replayer(header, f"game {game_id}"), [], clock)

    @classmethod
    def resume(cls, store: Store, game_id: int, clock: Callable[[], str] = now) -> Session:
        """Rebuild a stored game by replaying its record: the record is the truth."""
        record = store.load(game_id)
        replayer = Replayer(record.header, record.path)
        for entry in record.entries:
            problem = replayer.feed(entry)
            if problem is not None:
                raise RecordError(record.path, entry.line, f"cannot resume: {problem}")
        return cls(store, game_id, record.header, replayer, list(record.entries), clock)

    def play(self, action: Action, source: str, *, by: str | None = None,
             note: str | None = None, snapshot: bytes | None = None) -> tuple[Event, ...]:
        """Apply and durably record `action`; IllegalAction leaves game and store untouched."""
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}: one of {', '.join(SOURCES)}")
        events = self.game.apply(action)
        entry = Entry(len(self.entries) + 1, self.clock(), source, action, events, by, note)
        self._store(entry, snapshot)
        if self.game.outcome is not None:
            outcome = self.game.outcome
            self.store.finish(self.game_id, f"{outcome.winner or 'draw'}: {outcome.termination}")
        return events

    def _store(self, entry: Entry, snapshot: bytes | None = None) -> None:
        try:
            stored = self.store.append(self.game_id, entry, snapshot)
        except BaseException:
            fresh = Session.resume(self.store, self.game_id, self.clock)
            self._replayer, self.entries = fresh._replayer, fresh.entries
            raise
        self.entries.append(stored)
        if not (entry.action.role == REFEREE and entry.action.verb == UNDO):
            self._replayer.effective.append(stored)

    def undo(self, *, by: str, source: str = "tablet") -> Entry:
        """Take back the last action, if no draw or reveal happened since; recorded as such."""
        refusal = self._replayer.undo_refusal()
        if refusal is not None:
            raise UndoRefused(refusal)
        target = self._replayer.effective[-1].seq
        entry = Entry(len(self.entries) + 1, self.clock(), source,
                      Action(REFEREE, UNDO, {"seq": target}), (), by=by)
        self._store(entry)
        self._replayer.feed(self.entries[-1])
        return self.entries[-1]

    def correct(self, args: Mapping[str, Any], *, by: str, note: str) -> tuple[Event, ...]:
        """A referee's correction, with its author and reason (both required)."""
        if not by.strip() or not note.strip():
            raise IllegalAction("referee", "a correction names its author and its reason")
        return self.play(Action(REFEREE, "correct", dict(args)), "referee", by=by, note=note)

    def record(self) -> Record:
        return Record(f"game {self.game_id}", self.header, tuple(self.entries), chained=True)

    def export(self, path: Path) -> None:
        write_record(path, self.header, self.entries)


def import_record(store: Store, record: Record) -> int:
    """Store a record file as a new game, after checking it replays cleanly."""
    result = replay(record)
    if result.problem is not None:
        raise RecordError(record.path, result.problem.line, f"not imported: {result.problem}")
    game_id = store.create(record.header)
    for entry in record.entries:
        store.append(game_id, entry)
    outcome = result.game.outcome
    if outcome is not None:
        store.finish(game_id, f"{outcome.winner or 'draw'}: {outcome.termination}")
    return game_id
