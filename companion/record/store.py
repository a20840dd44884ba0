"""The event store: every game on SQLite, durable before an action is acknowledged.

One row per game (its header, how many entries it has and the hash of the last one) and one
row per accepted action (the record line and its hash). The database runs in WAL mode with
`synchronous=FULL`, and each append is one transaction: when `append` returns, the action
survives a power cut. On load, the hash chain and the stored count and head are checked, so
a truncated, reordered or edited game is reported instead of replayed.

A new database is built under a temporary name and moved into place once its tables exist, so
the file at the database's name is always whole: an empty file there is reported, never taken
for a new database. A game being served is claimed (`Store.claim`, an flock on a file beside
the database), so a second server cannot write to it; the kernel drops the claim when its
holder dies, even by kill -9.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
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

__all__ = ["SNAPSHOT_LIMIT", "Claim", "DiskFull", "GameClaimed", "GameRow", "Store",
           "StoreError", "default_path"]

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
CREATE TABLE IF NOT EXISTS devices (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    digest TEXT NOT NULL PRIMARY KEY,
    role TEXT NOT NULL,
    paired_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS table_state (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
"""


class StoreError(Exception):
    """The database cannot be used as it is: names the file and what is wrong with it."""


class DiskFull(StoreError):
    """SQLite's "database or disk is full": the transaction was rolled back, nothing kept."""


class GameClaimed(StoreError):
    """Another process is serving the game: two writers would fork its record."""

    def __init__(self, game_id: int, pid: int | None) -> None:
        self.game_id, self.pid = game_id, pid
        holder = f"process {pid}" if pid is not None else "another process"
        super().__init__(f"game {game_id} is already being served by {holder}")


@dataclass
class Claim:
    """This process serves the game: an exclusive flock on `path`, held until `release` (or
    the death of every process holding the descriptor: a forked child shares it)."""

    game_id: int
    path: Path
    fd: int = field(repr=False)
    owner: int = field(default_factory=os.getpid)
    """The process that claimed the game: only it drops the claim for everyone."""

    def release(self) -> None:
        """Drop the claim and its file (unlinked while still locked, so that a process that
        opened the old file and locks it next sees it is gone and starts again).

        In a forked child (a pre-forking server's worker may run the command's cleanup too)
        this only closes the child's copy of the descriptor: the owner still holds the lock.
        """
        if self.fd < 0:
            return
        if os.getpid() == self.owner and _same_file(self.fd, self.path):
            self.path.unlink(missing_ok=True)
        os.close(self.fd)
        self.fd = -1

    def __enter__(self) -> Claim:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


def default_path() -> Path:
    """`games.sqlite` in the user's data directory (embedded default; `COMPANION_DATA`
    moves it with every other file the companion keeps)."""
    return data_dir() / "games.sqlite"


def winners_mark(winners: Sequence[str]) -> str:
    """Who won, as the games table marks it: "red", "red and blue" (a shared victory) or
    "draw"; `GameRow.result` reads it back."""
    return " and ".join(winners) or "draw"


def outcome_mark(winners: Sequence[str], how: str) -> str:
    """The games table's mark of a finished game: "red: how", "red and blue: how", "draw:
    how"."""
    return f"{winners_mark(winners)}: {how}"


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

    @property
    def result(self) -> tuple[tuple[str, ...], str] | None:
        """`outcome_mark` read back: (each winner's role, none for a draw; how it ended)."""
        if self.outcome is None:
            return None
        won, _, how = self.outcome.partition(": ")
        return (() if won == "draw" else tuple(won.split(" and "))), how


class Store:
    """The games database. Open it once per process; every write is its own transaction."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        if not self.path.exists():
            self._create()
        self._db = self._open()

    def _create(self) -> None:
        """A new database, built under a temporary name and linked into place once whole: the
        file at `path` is never a half-made database, so an empty one is not ours."""
        if self.path.is_symlink():  # to a drive that is not mounted, say: create nothing
            raise StoreError(f"{self.path}: a symlink to {self.path.readlink()}, which does "
                             "not exist (a drive not mounted?); no database was created")
        building = self.path.with_name(f".{self.path.name}.{secrets.token_hex(6)}.new")
        try:
            db = sqlite3.connect(building, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.executescript(_SCHEMA)
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            finally:
                db.close()  # the last connection: checkpointed into the file, WAL removed
            _link(building, self.path)
            _fsync_folder(self.path.parent)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: cannot create the games database ({exc})") from exc
        finally:
            for leftover in (building, *(building.with_name(building.name + end)
                                         for end in ("-wal", "-shm", "-journal"))):
                leftover.unlink(missing_ok=True)

    def _open(self) -> sqlite3.Connection:
        if self.path.is_file() and self.path.stat().st_size == 0:
            raise StoreError(f"{self.path}: the file is empty (0 bytes): it is not a games "
                             "database, and the companion never leaves an empty one (it builds "
                             "a new database under another name first); it was left untouched: "
                             "restore it from a backup, or remove it to start a new database")
        try:
            # One connection shared by the web server's threads, serialised by `_lock`.
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            problem = db.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                raise StoreError(f"{self.path}: the database is damaged ({problem}); it was "
                                 "left untouched: restore it from a backup or export")
            if not db.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchall():
                raise StoreError(f"{self.path}: an SQLite database, but not a games database "
                                 "(it has no companion tables); it was left untouched")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(_SCHEMA)  # tables an older companion's database may lack
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
        """One durable transaction: committed whole, or rolled back whole (COMMIT itself may
        fail, on a full disk); SQLite's "database or disk is full" becomes DiskFull."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError) and _full(exc):
                    raise DiskFull(f"{self.path}: the disk is full") from exc
                raise

    def _read(self, query: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(query, args).fetchall()

    # --- writing ---------------------------------------------------------------------------

    def create(self, header: Header) -> int:
        """A new game; returns its id."""
        with self._transaction() as db:
            return _insert_game(db, header)

    def import_game(self, header: Header, entries: Sequence[Entry],
                    outcome: str | None) -> int:
        """A whole game in one transaction: all its entries and its outcome, or nothing (a
        crash or a full disk midway never leaves half a game to be resumed)."""
        with self._transaction() as db:
            game_id = _insert_game(db, header)
            for entry in entries:
                _insert_entry(db, game_id, entry)
            if outcome is not None:
                db.execute("UPDATE games SET outcome=? WHERE id=?", (outcome, game_id))
        return game_id

    def append(self, game_id: int, entry: Entry, snapshot: bytes | None = None, *,
               outcome: str | None = None) -> Entry:
        """Store one accepted action durably, chained to the one before; returns it hashed.
        `outcome`, if the action ended the game, is stored in the same transaction.

        Only when this returns may the action be acknowledged at the table.
        """
        if snapshot is not None:
            _check_jpeg(snapshot)
        with self._transaction() as db:
            hashed = _insert_entry(db, game_id, entry)
            if snapshot is not None:
                db.execute("INSERT INTO snapshots VALUES (?, ?, ?)",
                           (game_id, hashed.seq, snapshot))
            if outcome is not None:
                db.execute("UPDATE games SET outcome=? WHERE id=?", (outcome, game_id))
        return hashed

    def finish(self, game_id: int, outcome: str | None) -> None:
        """Mark the game finished with `outcome`, or (None) in progress again."""
        with self._transaction() as db:
            db.execute("UPDATE games SET outcome=? WHERE id=?", (outcome, game_id))

    def claim(self, game_id: int) -> Claim:
        """Claim the game for this process (a server), or GameClaimed naming the process that
        holds it. Release it with `Claim.release` (or `with`); a holder's death releases it."""
        self.game(game_id)  # no claim on a game that is not there
        path = self.path.with_name(f"{self.path.name}.game{game_id}.lock")
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _pid(fd)
                os.close(fd)
                raise GameClaimed(game_id, holder) from None
            if _same_file(fd, path):  # not unlinked by a holder releasing it meanwhile
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return Claim(game_id, path, fd)

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

    # --- paired phones and what the table's people did, kept across a restart ---------------

    def pair_device(self, game_id: int, digest: str, role: str, at: str) -> None:
        """A phone paired for `role`: its token's digest (never the token itself) is kept, so
        the phone still works after the server restarts."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO devices VALUES (?, ?, ?, ?)",
                       (game_id, digest, role, at))

    def devices(self, game_id: int) -> dict[str, str]:
        """The game's paired phones: token digest -> role."""
        return {str(digest): str(role) for digest, role in
                self._read("SELECT digest, role FROM devices WHERE game_id=?", (game_id,))}

    def revoke_devices(self, game_id: int, role: str) -> int:
        with self._transaction() as db:
            return db.execute("DELETE FROM devices WHERE game_id=? AND role=?",
                              (game_id, role)).rowcount

    def put_table_state(self, game_id: int, key: str, value: Any) -> None:
        """Something a person did at the table that the record does not hold (the pause, a
        waiting question): kept so that a restart brings it back."""
        with self._transaction() as db:
            if value is None:
                db.execute("DELETE FROM table_state WHERE game_id=? AND key=?", (game_id, key))
            else:
                db.execute("INSERT OR REPLACE INTO table_state VALUES (?, ?, ?)",
                           (game_id, key, json.dumps(value)))

    def table_state(self, game_id: int) -> dict[str, Any]:
        return {str(key): json.loads(value) for key, value in
                self._read("SELECT key, value FROM table_state WHERE game_id=?", (game_id,))}

    def snapshot_seqs(self, game_id: int) -> set[int]:
        """The actions of a game that kept a camera snapshot (for the game log's links)."""
        return {int(row[0]) for row in
                self._read("SELECT seq FROM snapshots WHERE game_id=?", (game_id,))}

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
        # The stored count and head hash are this record's seal: it is whole.
        return Record(name, record.header, record.entries, chained=True, sealed=True)


def _insert_game(db: sqlite3.Connection, header: Header) -> int:
    players = ", ".join(f"{role} {name}" for role, name in header.players.items())
    cursor = db.execute(
        "INSERT INTO games (game, header, started_at, players, head) VALUES (?, ?, ?, ?, ?)",
        (header.game, dumps_header(header), header.started_at, players, chain_start(header)))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _insert_entry(db: sqlite3.Connection, game_id: int, entry: Entry) -> Entry:
    """Chain `entry` to the game's head and store it (inside the caller's transaction)."""
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
    return hashed


def _full(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or \
        "database or disk is full" in str(exc)


def _link(built: Path, path: Path) -> None:
    """Give the built database its name, unless another process gave it one first (link, not
    rename, so that theirs is never replaced); rename where links are not supported (FAT)."""
    try:
        os.link(built, path)
    except FileExistsError:
        pass
    except OSError:
        if not path.exists():
            built.replace(path)


def _fsync_folder(folder: Path) -> None:
    """Make a new name in `folder` durable (the rename or link itself, not only the data)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _pid(fd: int) -> int | None:
    """The claim holder's process id, as it wrote it in the lock file."""
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), path.stat())
    except FileNotFoundError:
        return False


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
