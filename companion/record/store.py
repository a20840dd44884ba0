"""The event store: every game on SQLite, durable before an action is acknowledged.

One row per game (its header, how many entries it has and the hash of the last one) and one
row per accepted action (the record line and its hash). The database runs in WAL mode with
`synchronous=FULL`, and each append is one transaction: when `append` returns, the action
survives a power cut. On load, the hash chain and the stored count and head are checked, so
a truncated, reordered or edited game is reported instead of replayed.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.record.format import (
    Entry,
    Header,
    Record,
    RecordError,
    chain_start,
    dumps_entry,
    dumps_header,
    link,
    parse_record,
)
from companion.userdata import data_dir

__all__ = ["SNAPSHOT_LIMIT", "GameRow", "Store", "StoreError", "default_path"]

SCHEMA_VERSION = 1
SNAPSHOT_LIMIT = 512 * 1024
"""Largest frame snapshot kept per camera action (bytes)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    started_at TEXT NOT NULL,
    players TEXT NOT NULL,
    entries INTEGER NOT NULL DEFAULT 0,
    head TEXT NOT NULL,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(Exception):
    """The database cannot be used as it is: names the file and what is wrong with it."""


def default_path() -> Path:
    """`games.sqlite` in the user's data directory (embedded default; `COMPANION_DATA`
    moves it with every other file the companion keeps)."""
    return data_dir() / "games.sqlite"


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    started_at: str
    players: str
    entries: int
    outcome: str | None

    @property
    def finished(self) -> bool:
        return self.outcome is not None


class Store:
    """The games database. Open it once per process; every write is its own transaction."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            # One connection shared by the web server's threads, serialised by `_lock`.
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            problem = db.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                raise StoreError(f"{self.path}: the database is damaged ({problem}); it was "
                                 "left untouched: restore it from a backup or export")
            db.executescript(_SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable games database ({exc}); it was left "
                             "untouched") from exc
        version = int(db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: made by a newer companion (schema {version}); "
                             "update the companion to open it")
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _read(self, query: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(query, args).fetchall()

    # --- writing ---------------------------------------------------------------------------

    def create(self, header: Header) -> int:
        """A new game; returns its id."""
        players = ", ".join(f"{role} {name}" for role, name in header.players.items())
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, header, started_at, players, head) "
                "VALUES (?, ?, ?, ?, ?)",
                (header.game, dumps_header(header), header.started_at, players,
                 chain_start(header)))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, entry: Entry, snapshot: bytes | None = None) -> Entry:
        """Store one accepted action durably, chained to the one before; returns it hashed.

        Only when this returns may the action be acknowledged at the table.
        """
        if snapshot is not None:
            _check_jpeg(snapshot)
        with self._transaction() as db:
            count, head = db.execute("SELECT entries, head FROM games WHERE id=?",
                                     (game_id,)).fetchone()
            if entry.seq != count + 1:
                raise StoreError(f"game {game_id}: entry {entry.seq} appended after {count}")
            hashed = Entry(entry.seq, entry.time, entry.source, entry.action, entry.events,
                           entry.by, entry.note, hash=link(head, entry))
            assert hashed.hash is not None
            db.execute("INSERT INTO entries VALUES (?, ?, ?, ?)",
                       (game_id, hashed.seq, dumps_entry(hashed), hashed.hash))
            db.execute("UPDATE games SET entries=?, head=? WHERE id=?",
                       (hashed.seq, hashed.hash, game_id))
            if snapshot is not None:
                db.execute("INSERT INTO snapshots VALUES (?, ?, ?)",
                           (game_id, hashed.seq, snapshot))
        return hashed

    def finish(self, game_id: int, outcome: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET outcome=? WHERE id=?", (outcome, game_id))

    def delete(self, game_id: int) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM games WHERE id=?", (game_id,))

    # --- reading ---------------------------------------------------------------------------

    def games(self, *, search: str = "", unfinished: bool = False) -> list[GameRow]:
        """Stored games, newest first; `search` matches the game, players or start time."""
        query = ("SELECT id, game, started_at, players, entries, outcome FROM games "
                 "WHERE (game || ' ' || players || ' ' || started_at) LIKE ?")
        if unfinished:
            query += " AND outcome IS NULL"
        rows = self._read(query + " ORDER BY id DESC", (f"%{search}%",))
        return [GameRow(*row) for row in rows]

    def game(self, game_id: int) -> GameRow:
        rows = self._read("SELECT id, game, started_at, players, entries, outcome "
                          "FROM games WHERE id=?", (game_id,))
        row = rows[0] if rows else None
        if row is None:
            raise StoreError(f"{self.path}: no game {game_id}")
        return GameRow(*row)

    def snapshot(self, game_id: int, seq: int) -> bytes | None:
        rows = self._read("SELECT jpeg FROM snapshots WHERE game_id=? AND seq=?", (game_id, seq))
        return bytes(rows[0][0]) if rows else None

    def load(self, game_id: int) -> Record:
        """The game's record, checked: count, order and hash chain; RecordError if not."""
        with self._lock:  # one consistent read of the game and its entries
            rows = self._read("SELECT header, entries, head FROM games WHERE id=?", (game_id,))
            if not rows:
                raise StoreError(f"{self.path}: no game {game_id}")
            header_line, count, head = rows[0]
            lines = [line for (line,) in self._read(
                "SELECT line FROM entries WHERE game_id=? ORDER BY seq", (game_id,))]
        name = f"{self.path}#game{game_id}"
        record = _parse(name, header_line, lines)
        if len(record.entries) != count:
            raise RecordError(name, None, f"the game should have {count} actions but "
                              f"{len(record.entries)} are stored: actions were lost")
        last = record.entries[-1].hash if record.entries else chain_start(record.header)
        if last != head:
            raise RecordError(name, None, "the last stored action does not match the game's "
                              "head hash: the store was changed outside the companion")
        return record


def _parse(name: str, header_line: str, lines: list[str]) -> Record:
    """The file reader's parser and checks, on the stored lines."""
    record = parse_record(name, "".join(f"{line}\n" for line in [header_line, *lines]))
    if lines and not record.chained:
        raise RecordError(name, None, "stored actions without their hashes")
    return Record(name, record.header, record.entries, chained=record.chained)


def _check_jpeg(data: bytes) -> None:
    if not (data.startswith(b"\xff\xd8") and data.rstrip(b"\x00").endswith(b"\xff\xd9")):
        raise StoreError("a frame snapshot must be a JPEG image")
    if len(data) > SNAPSHOT_LIMIT:
        raise StoreError(f"a frame snapshot is {len(data)} bytes; the limit is {SNAPSHOT_LIMIT}")
