"""The game record format: JSON Lines, a header then one line per accepted action.

The same file is the recording, the replay input, the test-scenario format and what players
share (as PGN is for chess). It is documented in docs/record-format.md. Readers report the first
bad line by number; a newer format version is refused with a clear message, older ones are
upcast line by line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.core import Action, Event, canonical_json

__all__ = [
    "FORMAT", "SOURCES", "VERSION", "Entry", "Header", "KitRef", "Record", "RecordError",
    "dumps_entry", "dumps_header", "read_record", "write_record",
]

FORMAT: Final = "tabletop-companion-record"
VERSION = 1
Source = Literal["camera", "card_reader", "scanner", "button", "tablet", "referee", "simulator"]
SOURCES: tuple[str, ...] = Source.__args__  # type: ignore[attr-defined]

# Upcasters turn a line of an older format version into the next version's shape.
UPCASTERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


class RecordError(Exception):
    """A record that cannot be read: names the file and the line."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = path if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {message}")


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class KitRef(_Line):
    id: str
    version: str


class Header(_Line):
    """Line 1: what game this is, on which kit, with which options, seed and players."""

    format: Literal["tabletop-companion-record"] = FORMAT
    version: int = VERSION
    game: str
    kit: KitRef
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    players: dict[str, str] = Field(default_factory=dict)
    started_at: str


class _ActionLine(_Line):
    role: str
    verb: str
    args: dict[str, Any] = Field(default_factory=dict)


class _EntryLine(_Line):
    seq: int = Field(ge=1)
    time: str
    source: Source
    by: str | None = None
    note: str | None = None
    action: _ActionLine
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Entry:
    """One accepted action: who entered it, from which source, and the events it produced."""

    seq: int
    time: str
    source: str
    action: Action
    events: tuple[Event, ...]
    by: str | None = None
    note: str | None = None
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Record:
    path: str
    header: Header
    entries: tuple[Entry, ...]


def dumps_header(header: Header) -> str:
    return canonical_json(header.model_dump(mode="json"))


def dumps_entry(entry: Entry) -> str:
    data: dict[str, Any] = {
        "seq": entry.seq, "time": entry.time, "source": entry.source,
        "action": entry.action.to_json(), "events": [e.to_json() for e in entry.events],
    }
    if entry.by is not None:
        data["by"] = entry.by
    if entry.note is not None:
        data["note"] = entry.note
    return canonical_json(data)


def write_record(target: Path | IO[str], header: Header, entries: Iterable[Entry]) -> None:
    """Write a whole record (header first); a path is replaced, a stream appended to."""
    lines = [dumps_header(header), *(dumps_entry(e) for e in entries)]
    text = "".join(line + "\n" for line in lines)
    if isinstance(target, Path):
        target.write_text(text, encoding="utf-8")
    else:
        target.write(text)


def read_record(path: Path) -> Record:
    """Read and validate a record; RecordError names the first bad line."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(name, None, f"cannot read the record: {exc}") from exc
    lines = list(_numbered(text))
    if not lines:
        raise RecordError(name, 1, "the record is empty: line 1 must be the header")
    number, first = lines[0]
    header = _header(name, number, _json(name, number, first))
    entries: list[Entry] = []
    for number, line in lines[1:]:
        data = _upcast(_json(name, number, line), header.version)
        entries.append(_entry(name, number, data, expected_seq=len(entries) + 1))
    if text and not text.endswith("\n"):
        raise RecordError(name, lines[-1][0], "the last line is not terminated: the record "
                          "was cut off while being written (truncated)")
    return Record(name, header, tuple(entries))


def _numbered(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def _json(path: str, number: int, line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(path, number, f"not valid JSON ({exc.msg} at column {exc.colno}); "
                          "the line is corrupt or truncated") from exc
    if not isinstance(data, dict):
        raise RecordError(path, number, "each line must be a JSON object")
    return data


def _header(path: str, number: int, data: Mapping[str, Any]) -> Header:
    if data.get("format") != FORMAT:
        raise RecordError(path, number, f"not a game record: the header's format must be "
                          f"'{FORMAT}', got {data.get('format')!r}")
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise RecordError(path, number, f"bad format version {version!r}")
    if version > VERSION:
        raise RecordError(path, number, f"format version {version} is newer than this companion "
                          f"reads (up to {VERSION}): update the companion to read it")
    try:
        header = Header.model_validate(_upcast(dict(data), version))
    except ValidationError as exc:
        raise RecordError(path, number, f"bad header: {_first_error(exc)}") from exc
    return header.model_copy(update={"version": VERSION})


def _upcast(data: dict[str, Any], version: int) -> dict[str, Any]:
    while version < VERSION:
        data = UPCASTERS[version](data)
        version += 1
    return data


def _entry(path: str, number: int, data: Mapping[str, Any], expected_seq: int) -> Entry:
    try:
        line = _EntryLine.model_validate(data)
    except ValidationError as exc:
        raise RecordError(path, number, f"bad action line: {_first_error(exc)}") from exc
    if line.seq != expected_seq:
        raise RecordError(path, number, f"sequence number {line.seq} where {expected_seq} was "
                          "expected: a line is missing, repeated or out of order")
    bad = [i for i, e in enumerate(line.events) if not isinstance(e.get("type"), str)]
    if bad:
        raise RecordError(path, number, f"bad action line: events[{bad[0]}] has no 'type'")
    return Entry(
        seq=line.seq, time=line.time, source=line.source, by=line.by, note=line.note,
        action=Action(line.action.role, line.action.verb, line.action.args),
        events=tuple(Event.from_json(e) for e in line.events), line=number,
    )


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"])
    return f"{where}: {error['msg']}" if where else error["msg"]
