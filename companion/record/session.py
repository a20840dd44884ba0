"""A game being played and recorded: nothing is acknowledged before it is durable.

`Session.play` asks the engine first (an illegal action is refused and nothing is stored), then
appends the action with its events to the store in one durable transaction, and only then
returns: the caller lights the green light or updates the tablet after that. If the store
fails, the in-memory game is rebuilt from what the store holds, so memory never runs ahead of
the record. `Session.resume` rebuilds a game from its stored record after a crash, and takes
from the record, not from the games table, whether the game is finished. A server claims the
game it serves (`claim=True`), so that no second process writes to it.
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
    RecordValueError,
    dumps_entry,
    integrity_problem,
    write_record,
)
from companion.record.replay import UNDO, Replayer, replay
from companion.record.store import (
    Claim,
    DiskFull,
    GameClaimed,
    Store,
    StoreError,
    outcome_mark,
)

__all__ = ["Session", "UndoRefused", "Unrecordable", "import_record", "now", "resume_newest"]


class UndoRefused(Exception):
    """An undo the rules of undo forbid (a draw or a reveal since, or nothing to undo)."""


class Unrecordable(IllegalAction):
    """An action the record cannot hold (NaN or Infinity in its arguments, a number of too many
    digits, nesting too deep): refused like an illegal one, before the rules see it, so that
    nothing is stored that could not be read back. Rule `record`."""

    def __init__(self, action: Action, problem: RecordValueError) -> None:
        super().__init__("record", f"{action.role} {action.verb}: {problem}", action=action)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class Session:
    def __init__(self, store: Store, game_id: int, header: Header, replayer: Replayer,
                 entries: list[Entry], clock: Callable[[], str] = now,
                 claim: Claim | None = None) -> None:
        self.store, self.game_id, self.header = store, game_id, header
        self._replayer, self.entries, self.clock = replayer, entries, clock
        self.claim = claim
        """Held while this process serves the game (`release` drops it)."""

    def release(self) -> None:
        """Drop this process's claim on the game, if it has one."""
        if self.claim is not None:
            self.claim.release()
            self.claim = None

    @property
    def game(self) -> Game[Any]:
        return self._replayer.game

    @property
    def last_in_force(self) -> Entry | None:
        """The last recorded action not taken back (the replayer keeps them, undos applied)."""
        effective = self._replayer.effective
        return effective[-1] if effective else None

    @classmethod
    def start(cls, store: Store, game_name: str, *, options: Mapping[str, Any] | None = None,
              seed: int = 0, players: Mapping[str, str] | None = None, kit: str | None = None,
              clock: Callable[[], str] = now, claim: bool = False) -> Session:
        """A new game, stored before its first action (and claimed, with `claim`); its
        `players` name roles of the game (ValueError for a role it does not have, before
        anything is stored)."""
        loaded = load_kit(kit or rules_class(game_name).game_type.kit)
        rules = rules_class(game_name)(loaded, options)
        unknown = sorted(set(players or {}) - set(rules.roles))
        if unknown:
            raise ValueError(f"no player {', '.join(unknown)} in this game (its players: "
                             f"{', '.join(rules.roles)})")
        header = Header(game=game_name, kit=KitRef(id=loaded.id, version=loaded.version),
                        options=dict(rules.options), seed=seed, players=dict(players or {}),
                        started_at=clock())
        game_id = store.create(header)
        held = store.claim(game_id) if claim else None
        return cls(store, game_id, header, Replayer(header, f"game {game_id}"), [], clock, held)

    @classmethod
    def resume(cls, store: Store, game_id: int, clock: Callable[[], str] = now, *,
               claim: bool = False) -> Session:
        """Rebuild a stored game by replaying its record: the record is the truth, also of
        whether the game is finished (a lost or stale mark in the games table is set right).

        With `claim`, the game is claimed first (GameClaimed if another process serves it) and
        released again if it cannot be resumed.
        """
        held = store.claim(game_id) if claim else None
        try:
            record = store.load(game_id)
            replayer = Replayer(record.header, record.path)
            for entry in record.entries:
                problem = replayer.feed(entry)
                if problem is not None:
                    raise RecordError(record.path, entry.line, f"cannot resume: {problem}")
            outcome = _outcome(replayer.game)
            if store.game(game_id).outcome != outcome:
                store.finish(game_id, outcome)
        except BaseException:
            if held is not None:
                held.release()
            raise
        return cls(store, game_id, record.header, replayer, list(record.entries), clock, held)

    def play(self, action: Action, source: str, *, by: str | None = None,
             note: str | None = None, snapshot: bytes | None = None) -> tuple[Event, ...]:
        """Apply and durably record `action`; IllegalAction (Unrecordable among them) leaves
        game and store untouched. A game-ending action and its outcome are one transaction."""
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}: one of {', '.join(SOURCES)}")
        entry = Entry(len(self.entries) + 1, self.clock(), source, action, (), by, note)
        try:
            dumps_entry(entry)  # before the rules see it: nothing to roll back
        except RecordValueError as exc:
            raise Unrecordable(action, exc) from exc
        events = self.game.apply(action)
        try:
            self._store(Entry(entry.seq, entry.time, source, action, events, by, note),
                        snapshot, outcome=_outcome(self.game))
        except RecordValueError as exc:  # the rules made events no record can hold
            raise Unrecordable(action, exc) from exc
        return events

    def _store(self, entry: Entry, snapshot: bytes | None = None, *,
               outcome: str | None = None) -> None:
        try:
            stored = self.store.append(self.game_id, entry, snapshot, outcome=outcome)
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
        ended = self.game.outcome is not None
        self._store(entry)
        self._replayer.feed(self.entries[-1])
        if ended and self.game.outcome is None:  # the game-ending action was taken back
            self.store.finish(self.game_id, None)
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


def _outcome(game: Game[Any]) -> str | None:
    """The games table's mark: who won and how, or None while the game goes on."""
    outcome = game.outcome
    if outcome is None:
        return None
    return outcome_mark(outcome.winners, outcome.termination)


def import_record(store: Store, record: Record, *, unchained: bool = False) -> int:
    """Store a record file as a new game, in one transaction, once it replays cleanly and is
    whole: a record without its seal (cut at the end) is refused, and one without hashes
    (nothing shows it whole) is taken only with `unchained`. DiskFull if the disk is full:
    then nothing is imported."""
    result = replay(record)
    if result.problem is not None:
        raise RecordError(record.path, result.problem.line, f"not imported: {result.problem}")
    problem = integrity_problem(record)
    if problem is not None and (record.chained or not unchained):
        hint = "" if record.chained else " (import it with --unchained if you trust it)"
        raise RecordError(problem.path, problem.line, f"not imported: {problem.message}{hint}")
    try:
        return store.import_game(record.header, record.entries, _outcome(result.game))
    except DiskFull as exc:
        raise DiskFull(f"{exc}: nothing imported from {record.path}") from exc


def resume_newest(store: Store, *, warn: Callable[[str], None]) -> Session | None:
    """The newest unfinished game that resumes cleanly, claimed for this process, or None.

    An unattended server must start: a game whose record cannot be read or replayed is
    skipped, `warn` says what is wrong with it, and it is left as it is for the referee (`games
    show`, `export`, a backup). A game its record shows finished (a mark lost in a crash) is
    marked so by `Session.resume` and skipped. GameClaimed if another process serves the one
    chosen: two servers on one database is a mistake to report, not to work around.
    """
    for row in store.games(unfinished=True):
        try:
            session = Session.resume(store, row.id, claim=True)
        except GameClaimed:
            raise
        except (RecordError, StoreError) as exc:
            warn(f"game {row.id} cannot be resumed: {exc}; it is left as it is (see `companion "
                 f"games show {row.id}`)")
            continue
        if session.game.outcome is None:
            return session
        session.release()
    return None
