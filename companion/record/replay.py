"""Replay a record through the engine: rebuild any point of a game and verify the whole of it.

The record, not any in-memory state, is the truth: replaying it re-runs every action through
the current rules and compares the events they produce with the events recorded. An action the
rules now reject, or events that differ, are reported with the record's line number.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from companion.engine import REFEREE, Game, IllegalAction, UnknownGame, rules_class
from companion.kits import Kit, KitError, load_kit
from companion.record.format import Entry, Header, KitRef, Record, RecordError

__all__ = [
    "UNDO", "Replay", "ReplayProblem", "Replayer", "new_game", "record_of", "repatch", "replay",
]


@dataclass(frozen=True)
class ReplayProblem:
    """The first line where the record and the engine disagree."""

    line: int
    kind: str
    """`illegal` (the rules reject the action) or `divergence` (different events)."""
    message: str
    rule: str | None = None

    def __str__(self) -> str:
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"line {self.line}: {self.kind}{rule}: {self.message}"


@dataclass(frozen=True)
class Replay:
    record: Record
    game: Game[Any]
    applied: int
    """How many action lines were replayed."""
    problem: ReplayProblem | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def new_game(header: Header, path: str, kit: str | Path | None = None) -> Game[Any]:
    """The game a header describes, at its start; RecordError (line 1) if it cannot be set up."""
    try:
        cls = rules_class(header.game)
    except UnknownGame as exc:
        raise RecordError(path, 1, str(exc)) from exc
    loaded = _kit(header, path, kit)
    try:
        rules = cls(loaded, header.options)
    except ValueError as exc:
        raise RecordError(path, 1, f"bad options for {header.game}: {exc}") from exc
    return Game(rules, seed=header.seed)


def _kit(header: Header, path: str, kit: str | Path | None) -> Kit:
    try:
        loaded = load_kit(kit if kit is not None else header.kit.id)
    except KitError as exc:
        raise RecordError(path, 1, f"cannot load kit '{kit or header.kit.id}': {exc}") from exc
    if loaded.game != header.game:
        raise RecordError(path, 1, f"kit '{loaded.id}' is for {loaded.game}, "
                          f"the record is a game of {header.game}")
    if kit is None and loaded.version != header.kit.version:
        raise RecordError(path, 1, f"the record was made with kit {header.kit.id} version "
                          f"{header.kit.version}, this companion has version {loaded.version}: "
                          "pass --kit with a copy of the recorded version")
    return loaded


UNDO = "undo"
"""`referee undo {"seq": N}`: entry N is taken back (recorded, never deleted)."""


class Replayer:
    """Feeds entries to a game one by one, taking undos into account.

    The game is always the fold of the entries still in force (`effective`): an undo removes
    the last one and steps the game back (`Game.undo`, no replay), so the record stays
    append-only.
    """

    def __init__(self, header: Header, path: str, kit: str | Path | None = None) -> None:
        self.header, self.path, self.kit = header, path, kit
        self.game = new_game(header, path, kit)
        self.effective: list[Entry] = []

    def feed(self, entry: Entry) -> ReplayProblem | None:
        if entry.action.role == REFEREE and entry.action.verb == UNDO:
            return self._undo(entry)
        problem = _apply(self.game, entry)
        if problem is None:
            self.effective.append(entry)
        return problem

    def undo_refusal(self) -> str | None:
        """Why the last step cannot be undone, or None if it can."""
        if not self.effective:
            return "nothing to undo"
        last = self.effective[-1]
        if self.game.rules.undo_barrier(last.action, last.events):
            return (f"action {last.seq} drew at random or showed hidden information: it and "
                    "everything before it stand")
        return None

    def _undo(self, entry: Entry) -> ReplayProblem | None:
        line = entry.line or 0
        target = entry.action.args.get("seq")
        refusal = self.undo_refusal()
        if refusal is None and target != self.effective[-1].seq:
            refusal = f"only the last action in force ({self.effective[-1].seq}) can be undone"
        if refusal is not None:
            return ReplayProblem(line, "illegal", f"undo of {target}: {refusal}", "undo")
        self.effective.pop()
        self.game.undo()
        return None


def replay(record: Record, *, kit: str | Path | None = None,
           upto_line: int | None = None) -> Replay:
    """Re-run the record's actions (up to file line `upto_line`), stopping at the first problem."""
    replayer = Replayer(record.header, record.path, kit)
    applied = 0
    for entry in record.entries:
        if upto_line is not None and entry.line is not None and entry.line > upto_line:
            break
        problem = replayer.feed(entry)
        if problem is not None:
            return Replay(record, replayer.game, applied, problem)
        applied += 1
    return Replay(record, replayer.game, applied, None)


def _apply(game: Game[Any], entry: Entry) -> ReplayProblem | None:
    line = entry.line or 0
    try:
        events = game.apply(entry.action)
    except IllegalAction as exc:
        return ReplayProblem(line, "illegal", f"{entry.action.text()}: {exc.describe()}",
                             exc.rule)
    if events != entry.events:
        return ReplayProblem(line, "divergence", _difference(entry.events, events))
    return None


def _difference(recorded: tuple[Any, ...], produced: tuple[Any, ...]) -> str:
    for index, (old, new) in enumerate(zip(recorded, produced, strict=False)):
        if old != new:
            return (f"event {index + 1} differs: the record has {old.text()}, "
                    f"the engine now produces {new.text()}")
    return (f"the record has {len(recorded)} event(s), the engine now produces "
            f"{len(produced)}")


def record_of(game: Game[Any], kit: Kit, *, started_at: datetime, source: str,
              players: dict[str, str] | None = None, step: timedelta = timedelta(seconds=30),
              ) -> Record:
    """A record of a game played in memory (the simulator's output), one line per ply."""
    header = Header(
        game=game.rules.game_type.name, kit=KitRef(id=kit.id, version=kit.version),
        options=dict(game.rules.options), seed=game.seed, players=players or {},
        started_at=_stamp(started_at),
    )
    entries = tuple(
        Entry(seq=n, time=_stamp(started_at + n * step), source=source,
              action=ply.action, events=ply.events, line=n + 1)
        for n, ply in enumerate(game.history, start=1)
    )
    return Record("<memory>", header, entries)


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Repatch:
    """How today's engine reads an old record: its outcome then and now."""

    record: Record
    recorded: str | None
    now: str | None
    problem: ReplayProblem | None

    @property
    def changed(self) -> bool:
        return self.recorded != self.now or self.problem is not None


def repatch(record: Record, *, kit: str | Path | None = None) -> Repatch:
    """Re-run the actions with the current rules, ignoring the recorded events (a rules fix may
    change them), and compare the game's outcome with the one recorded."""
    replayer = Replayer(record.header, record.path, kit)
    recorded = None
    problem = None
    for entry in record.entries:
        ended = [e for e in entry.events if e.type == "GameEnded"]
        if ended:
            recorded = _outcome_text(ended[-1].data)
        if entry.action.role == REFEREE and entry.action.verb == UNDO:
            problem = replayer.feed(entry)
        else:
            try:
                replayer.game.apply(entry.action)
                replayer.effective.append(entry)
            except IllegalAction as exc:
                problem = ReplayProblem(entry.line or 0, "illegal",
                                        f"{entry.action.text()}: {exc.describe()}", exc.rule)
        if problem is not None:
            break
    outcome = replayer.game.outcome
    now = None if outcome is None else _outcome_text(outcome.to_json())
    return Repatch(record, recorded, now, problem)


def _outcome_text(data: Any) -> str:
    return f"{data.get('winner') or 'draw'} ({data.get('rule')}: {data.get('termination')})"

