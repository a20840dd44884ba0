"""The game record format: JSON Lines, a header then one line per accepted action.

The same file is the recording, the replay input, the test-scenario format and what players
share (as PGN is for chess). It is documented in docs/record-format.md. Readers report the first
bad line by number; a newer format version is refused with a clear message, older ones are
upcast line by line.
"""

from __future__ import annotations

import json
import math
import os
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from hashlib import sha256
from pathlib import Path
from typing import IO, Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.core import Action, Event, canonical_json

__all__ = [
    "DEPTH_LIMIT", "DIGITS_LIMIT", "FORMAT", "LINE_LIMIT", "SOURCES", "VERSION", "Entry",
    "Header", "KitRef", "Record", "RecordError", "RecordValueError", "chain_start", "chained",
    "dumps_entry", "dumps_header", "integrity_problem", "link", "parse_record", "read_record",
    "write_record",
]

FORMAT: Final = "tabletop-companion-record"
VERSION = 1
Source = Literal["camera", "card_reader", "scanner", "button", "tablet", "phone", "referee",
                 "simulator"]
SOURCES: tuple[str, ...] = get_args(Source)

LINE_LIMIT = 1024 * 1024
"""Longest record line read or written, in bytes: a real line is a few hundred bytes."""
DEPTH_LIMIT = 32
"""Deepest nesting of objects and arrays in a line (a real line nests four or five deep)."""
DIGITS_LIMIT = 100
"""Most digits in a number (Python's own limit, 4300, is a denial-of-service guard)."""

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


class RecordValueError(ValueError):
    """A value a record line cannot hold (NaN, Infinity, a number of too many digits, nesting
    too deep, a line too long): refused when writing, so that every line written reads back."""


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
    """The header's line; RecordValueError if a value in it could not be read back."""
    return _checked(lambda: canonical_json(header.model_dump(mode="json")))


def dumps_entry(entry: Entry, *, with_hash: bool = True) -> str:
    """The entry's line; RecordValueError if a value in it could not be read back."""
    return _checked(lambda: _entry_json(entry, with_hash=with_hash))


def _entry_json(entry: Entry, *, with_hash: bool) -> str:
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


def _checked(dump: Callable[[], str]) -> str:
    """The line `dump` makes, once the reader's own rules accept it: nothing is written that
    cannot be read back (json.dumps writes NaN and Infinity, which JSON does not have, and
    raises RecursionError or ValueError on values too deep or too long to spell)."""
    try:
        line = dump()
    except RecursionError:
        raise RecordValueError(f"cannot be recorded: {_TOO_DEEP}") from None
    except ValueError:
        raise RecordValueError("cannot be recorded: a number of more than 4300 digits: the "
                               f"limit is {DIGITS_LIMIT}") from None
    try:
        _read_line(line)
    except _Refused as exc:
        raise RecordValueError(f"cannot be recorded: {exc}") from None
    return line


def chain_start(header: Header) -> str:
    """The hash the chain starts from: the header's own."""
    return sha256(dumps_header(header).encode()).hexdigest()


def link(previous: str, entry: Entry) -> str:
    """An entry's hash covers the previous hash and the entry itself (without its hash).
    Unchecked: only lines that are written are checked (`dumps_entry`), once."""
    return sha256(f"{previous}\n{_entry_json(entry, with_hash=False)}".encode()).hexdigest()


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
    _replace_atomically(target, text.encode("utf-8"))


def _replace_atomically(target: Path, data: bytes) -> None:
    """Write `data` to a fresh file beside `target`, fsync it, rename it over `target`, fsync
    the folder. The fresh file is created with O_EXCL under a random name, so nothing already
    there (a symlink planted at a predictable name, another export's file) is written through."""
    fd, partial = _fresh_file(target)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _fresh_file(target: Path) -> tuple[int, Path]:
    """A new, empty file in `target`'s folder that no one else had (O_CREAT | O_EXCL, which
    never follows a symlink); the mode is 0666 less the umask, as `open` would give."""
    while True:
        partial = target.with_name(f".{target.name}.{secrets.token_hex(6)}.partial")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
            return os.open(partial, flags, 0o666), partial
        except FileExistsError:
            continue


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
        is_chained = True  # a seal on a header alone chains it: its hash is the header's
    return Record(name, header, tuple(entries), chained=is_chained, sealed=seal is not None)


def integrity_problem(record: Record) -> RecordError | None:
    """Why a record file cannot be trusted whole, or None: sealed and chained is whole.

    A chained record without its seal lost its end (the chain cannot tell: each line only
    vouches for those before it); a record without hashes may have lost or changed anything.
    The error names the last line that was read and checked.
    """
    last = (record.entries[-1].line or 1) if record.entries else 1
    if not record.chained:
        return RecordError(record.path, last, "not chained: no line carries a hash and there is "
                           "no seal, so nothing shows that the record is whole and unedited "
                           f"(lines may have been cut or changed, or it was written by hand); "
                           f"line {last} is the last line read")
    if not record.sealed:
        return RecordError(record.path, last, "truncated: the record has no seal, so lines may "
                           f"have been cut from its end; line {last} is the last good line")
    return None


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
    """Lines end at \\n only: str.splitlines would also split at U+2028, U+0085 and others,
    which canonical JSON (UTF-8 kept) writes as they are inside strings."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            yield number, line


def _json(path: str, number: int, line: str) -> dict[str, Any]:
    try:
        data = _read_line(line)
    except _Refused as exc:
        raise RecordError(path, number, str(exc)) from None
    if not isinstance(data, dict):
        raise RecordError(path, number, "each line must be a JSON object")
    return data


class _Refused(ValueError):
    """A line a record may not hold; the message says why, in words."""


_TOO_DEEP = f"nested too deeply (more than {DEPTH_LIMIT} levels of brackets)"


def _read_line(line: str) -> Any:
    """The line's JSON value, or _Refused. Python's json would raise RecursionError on deep
    nesting and ValueError on a number of 4300+ digits, and would accept NaN and Infinity:
    each becomes a sentence here, and the line's length is bounded before it is parsed."""
    try:
        size = len(line.encode("utf-8"))
    except UnicodeEncodeError:
        raise _Refused("text that is not valid Unicode (a lone surrogate)") from None
    if size > LINE_LIMIT:
        raise _Refused(f"a line of {size} bytes: the limit is 1 MiB; the line is refused")
    try:
        data = json.loads(line, parse_constant=_constant, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise _Refused(f"not valid JSON ({exc.msg} at column {exc.colno}); the line is corrupt "
                       "or truncated") from None
    except RecursionError:
        raise _Refused(_TOO_DEEP) from None
    if _depth(data) > DEPTH_LIMIT:
        raise _Refused(_TOO_DEEP)
    return data


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number: JSON has no NaN or Infinity, and a record holds "
                   "none")


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > DIGITS_LIMIT:
        raise _Refused(f"a number with {digits} digits: the limit is {DIGITS_LIMIT}")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or len(text) > DIGITS_LIMIT:
        raise _Refused(f"the number {text[:20]} is too large to be recorded")
    return value


def _depth(data: Any) -> int:
    """How deeply objects and arrays nest (1 for a flat object), without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return deepest


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
