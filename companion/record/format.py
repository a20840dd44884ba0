"""The game record format: JSON Lines, a header then one line per accepted action.

The same file is the recording, the replay input, the test-scenario format and what players
share (as PGN is for chess). It is documented in docs/record-format.md. Readers report the first
bad line by number; a newer format version is refused with a clear message, older ones are
upcast line by line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from hashlib import sha256
from pathlib import Path
from typing import IO, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.core import Action, Event, canonical_json

__all__ = [
    "FORMAT", "SOURCES", "VERSION", "Entry", "Header", "KitRef", "Record", "RecordError",
    "chain_start", "chained", "dumps_entry", "dumps_header", "link", "parse_record",
    "read_record", "write_record",
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
    hash: str | None = None


class _Seal(_Line):
    entries: int = Field(ge=0)
    hash: str


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
    hash: str | None = field(default=None, compare=False)
    """This line's link in the hash chain (docs/record-format.md, Integrity)."""


@dataclass(frozen=True)
class Record:
    path: str
    header: Header
    entries: tuple[Entry, ...]
    chained: bool = False
    """Whether every line carried its hash and they all matched."""
    sealed: bool = False
    """Whether a seal line closed the record, and it matched."""


def dumps_header(header: Header) -> str:
    return canonical_json(header.model_dump(mode="json"))


def dumps_entry(entry: Entry, *, with_hash: bool = True) -> str:
    data: dict[str, Any] = {
        "seq": entry.seq, "time": entry.time, "source": entry.source,
        "action": entry.action.to_json(), "events": [e.to_json() for e in entry.events],
    }
    if entry.by is not None:
        data["by"] = entry.by
    if entry.note is not None:
        data["note"] = entry.note
    if with_hash and entry.hash is not None:
        data["hash"] = entry.hash
    return canonical_json(data)


def chain_start(header: Header) -> str:
    """The hash the chain starts from: the header's own."""
    return sha256(dumps_header(header).encode()).hexdigest()


def link(previous: str, entry: Entry) -> str:
    """An entry's hash covers the previous hash and the entry itself (without its hash)."""
    return sha256(f"{previous}\n{dumps_entry(entry, with_hash=False)}".encode()).hexdigest()


def chained(header: Header, entries: Iterable[Entry]) -> list[Entry]:
    """The entries with their hash chain filled in."""
    previous = chain_start(header)
    result = []
    for entry in entries:
        previous = link(previous, entry)
        result.append(replace(entry, hash=previous))
    return result


def dumps_seal(header: Header, entries: Sequence[Entry]) -> str:
    head = entries[-1].hash if entries else chain_start(header)
    return canonical_json({"seal": {"entries": len(entries), "hash": head}})


def write_record(target: Path | IO[str], header: Header, entries: Iterable[Entry]) -> None:
    """Write a whole record: header, hash-chained entries, and a seal that fixes its length.

    A path is replaced atomically (a new file renamed over the old, after fsync), so a crash
    while exporting never leaves half a record where a whole one was; a stream is appended to.
    """
    linked = chained(header, entries)
    lines = [dumps_header(header), *(dumps_entry(e) for e in linked), dumps_seal(header, linked)]
    text = "".join(line + "\n" for line in lines)
    if not isinstance(target, Path):
        target.write(text)
        return
    partial = target.with_name(target.name + ".partial")
    with partial.open("w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    partial.replace(target)


def read_record(path: Path) -> Record:
    """Read and validate a record; RecordError names the first bad line."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(name, None, f"cannot read the record: {exc}") from exc
    return parse_record(name, text)


def parse_record(name: str, text: str) -> Record:
    """Parse a record's text (`name` labels errors); RecordError names the first bad line."""
    lines = list(_numbered(text))
    if not lines:
        raise RecordError(name, 1, "the record is empty: line 1 must be the header")
    number, first = lines[0]
    header = _header(name, number, _json(name, number, first))
    entries: list[Entry] = []
    seal: tuple[int, _Seal] | None = None
    for number, line in lines[1:]:
        data = _json(name, number, line)
        if seal is not None:
            raise RecordError(name, number, "a line after the seal: the seal must come last")
        if "seal" in data:
            seal = (number, _read_seal(name, number, data))
            continue
        data = _upcast(data, header.version)
        entries.append(_entry(name, number, data, expected_seq=len(entries) + 1))
    if text and not text.endswith("\n"):
        raise RecordError(name, lines[-1][0], "the last line is not terminated: the record "
                          "was cut off while being written (truncated)")
    is_chained = _check_chain(name, header, entries)
    if seal is not None:
        _check_seal(name, header, entries, *seal)
    return Record(name, header, tuple(entries), chained=is_chained, sealed=seal is not None)


def _read_seal(path: str, number: int, data: Mapping[str, Any]) -> _Seal:
    try:
        return _Seal.model_validate(data["seal"])
    except ValidationError as exc:
        raise RecordError(path, number, f"bad seal: {_first_error(exc)}") from exc


def _check_chain(path: str, header: Header, entries: Sequence[Entry]) -> bool:
    """Verify the hash chain; False for a record without one (a hand-written scenario)."""
    hashed = [e for e in entries if e.hash is not None]
    if not hashed:
        return False
    previous = chain_start(header)
    for entry in entries:
        if entry.hash is None:
            raise RecordError(path, entry.line, "this line has no hash while others do: lines "
                              "were added or edited by hand")
        previous = link(previous, entry)
        if entry.hash != previous:
            raise RecordError(path, entry.line, "the hash chain breaks here: this line was "
                              "changed, or lines before it were removed, added or reordered")
    return True


def _check_seal(path: str, header: Header, entries: Sequence[Entry], number: int,
                seal: _Seal) -> None:
    if seal.entries != len(entries):
        raise RecordError(path, number, f"the seal counts {seal.entries} action lines but the "
                          f"record has {len(entries)}: lines were removed or added")
    head = entries[-1].hash if entries else chain_start(header)
    if head != seal.hash:
        raise RecordError(path, number, "the seal does not match the last line's hash: the "
                          "record was changed after it was sealed")


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
        events=tuple(Event.from_json(e) for e in line.events), line=number, hash=line.hash,
    )


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"])
    return f"{where}: {error['msg']}" if where else error["msg"]
