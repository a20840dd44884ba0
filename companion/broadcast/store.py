"""The broadcast's own store: every message from every table, once, in its own SQLite file.

A message is keyed by (table, game id, sequence number): a repeat (QoS 1 delivers at least
once, a table sends again after a restart or a resend request) is counted and dropped. What
the dashboard shows, replays, ranks and exports is read from here, never from a table.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["BroadcastStore", "TableRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    tbl TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    event TEXT NOT NULL,
    about TEXT NOT NULL,
    started_at TEXT,
    last_seq INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL,
    PRIMARY KEY (tbl, game_id)
);
CREATE TABLE IF NOT EXISTS messages (
    tbl TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    received REAL NOT NULL,
    PRIMARY KEY (tbl, game_id, seq)
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class TableRow:
    """A table's current game as the dashboard knows it."""

    table: str
    game_id: int
    about: dict[str, Any]
    last_seq: int
    """How far the table's record goes (its retained state, or its newest message)."""
    received: int
    """How many of those messages the store holds."""


class BroadcastStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                   timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _read(self, query: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(query, args).fetchall()

    # --- writing (the subscriber's thread) --------------------------------------------------

    def game(self, body: Mapping[str, Any]) -> None:
        """A table's retained state: which game it plays and how far its record goes."""
        with self._lock:
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tbl, game_id) DO "
                "UPDATE SET about=excluded.about, last_seq=MAX(last_seq, excluded.last_seq), "
                "updated=excluded.updated",
                (body["table"], body["game_id"], body["event"], json.dumps(body["game"]),
                 body.get("started_at"), int(body["last_seq"]), time.time()))

    def add(self, body: Mapping[str, Any], received: float | None = None) -> bool:
        """Keep a table's message; False (and counted) if the store already had it."""
        key = (body["table"], int(body["game_id"]), int(body["seq"]))
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO messages VALUES (?, ?, ?, ?, ?, ?)",
                (*key, body["kind"], json.dumps(body), received or time.time()))
            if cursor.rowcount == 0:
                self._count("repeats")
                return False
            self.game({**body, "last_seq": key[2]})
        return True

    def _count(self, name: str) -> None:
        self._db.execute("INSERT INTO counters VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET "
                         "value=value+1", (name,))

    # --- reading ------------------------------------------------------------------------------

    def counter(self, name: str) -> int:
        rows = self._read("SELECT value FROM counters WHERE name=?", (name,))
        return int(rows[0][0]) if rows else 0

    def tables(self) -> list[TableRow]:
        """Every table's newest game (a table's games database numbers them in order)."""
        rows = self._read(
            "SELECT g.tbl, g.game_id, g.about, g.last_seq, "
            "(SELECT COUNT(*) FROM messages m WHERE m.tbl=g.tbl AND m.game_id=g.game_id) "
            "FROM games g WHERE g.game_id = (SELECT MAX(game_id) FROM games h "
            "WHERE h.tbl=g.tbl) ORDER BY g.tbl")
        return [TableRow(t, g, json.loads(a), last, got) for t, g, a, last, got in rows]

    def games(self) -> list[TableRow]:
        rows = self._read(
            "SELECT g.tbl, g.game_id, g.about, g.last_seq, "
            "(SELECT COUNT(*) FROM messages m WHERE m.tbl=g.tbl AND m.game_id=g.game_id) "
            "FROM games g ORDER BY g.tbl, g.game_id")
        return [TableRow(t, g, json.loads(a), last, got) for t, g, a, last, got in rows]

    def seqs(self, table: str, game_id: int) -> list[int]:
        return [s for (s,) in self._read("SELECT seq FROM messages WHERE tbl=? AND game_id=? "
                                         "ORDER BY seq", (table, game_id))]

    def messages(self, table: str, game_id: int) -> list[dict[str, Any]]:
        """A game's messages in the order of its record."""
        return [json.loads(p) for (p,) in self._read(
            "SELECT payload FROM messages WHERE tbl=? AND game_id=? ORDER BY seq",
            (table, game_id))]

    def latest(self, table: str, game_id: int) -> dict[str, Any] | None:
        rows = self._read("SELECT payload FROM messages WHERE tbl=? AND game_id=? "
                          "ORDER BY seq DESC LIMIT 1", (table, game_id))
        return json.loads(rows[0][0]) if rows else None

    def received_at(self) -> dict[tuple[str, int, int], float]:
        """When each message reached the store (the benchmark's arrival times)."""
        return {(t, g, s): r for t, g, s, r in self._read(
            "SELECT tbl, game_id, seq, received FROM messages")}

    def header(self, table: str, game_id: int) -> dict[str, Any] | None:
        rows = self._read("SELECT event, about, started_at, last_seq FROM games WHERE tbl=? "
                          "AND game_id=?", (table, game_id))
        if not rows:
            return None
        event, about, started, last = rows[0]
        return {"event": event, "table": table, "game_id": game_id,
                "game": json.loads(about), "started_at": started, "last_seq": last}
