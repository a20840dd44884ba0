"""The broadcast's outbox, in the table's own games database, beside the record.

The action is recorded first, as always (`companion.record`); the record is the outbox's source.
The publisher turns each record line it has not yet put in the outbox into its public message
(`companion.broadcast.public`) and stores it here, then sends the messages in order and marks
each one the broker acknowledged. A crash anywhere in between loses nothing: on restart the
record lines past the outbox are turned into messages again, and messages not acknowledged are
sent again (the dashboard drops repeats by game id and sequence number).

This module opens its own SQLite connection to the file (WAL mode lets it read while the store
writes) and never touches the store's tables. It writes with `synchronous=NORMAL`: a power cut
may forget the last acknowledgements, which only means sending those messages again.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from companion.broadcast import public
from companion.engine import PUBLIC, Action, Event
from companion.record.format import Entry, Header
from companion.record.replay import Replayer
from companion.web.replays import line_words, rule_of

__all__ = ["Outbox"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS broadcast_outbox (
    channel TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (channel, game_id, seq)
);
"""


def _entry(line: str) -> Entry:
    """A stored record line, as the record's reader makes it (the store has checked it)."""
    data = json.loads(line)
    action = data["action"]
    return Entry(seq=data["seq"], time=data["time"], source=data["source"],
                 action=Action(action["role"], action["verb"], action.get("args", {})),
                 events=tuple(Event.from_json(e) for e in data["events"]),
                 by=data.get("by"), note=data.get("note"))


class Outbox:
    """One game's outbox for one broadcast channel; used from the publisher's thread."""

    def __init__(self, db: Path, channel: str, game_id: int, names: tuple[str, str]) -> None:
        self.channel, self.game_id, self.names = channel, game_id, names
        self._lock = threading.Lock()
        self._db = sqlite3.connect(db, isolation_level=None, timeout=30,
                                   check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        header_line = self._db.execute("SELECT header FROM games WHERE id=?",
                                       (game_id,)).fetchone()
        if header_line is None:
            raise LookupError(f"{db}: no game {game_id} to broadcast")
        self.header = Header.model_validate_json(header_line[0])
        self._replayer = Replayer(self.header, f"{db}#game{game_id}")
        self._fed = 0
        self._entries: list[Entry] = []
        self._before: list[Any] = []
        """The position each fed line was taken in (states are immutable: a reference each),
        so a line, or the line an undo takes back, is said where it was played."""
        self._said: dict[tuple[int, str, str], str] = {}
        self._about = public.about(self.header, self._replayer.game)
        self._catch_up()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _rows(self, query: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(query, args).fetchall()

    def _lines(self, after: int) -> list[tuple[int, str]]:
        return [(seq, line) for seq, line in self._rows(
            "SELECT seq, line FROM entries WHERE game_id=? AND seq>? ORDER BY seq",
            (self.game_id, after))]

    @property
    def built(self) -> int:
        """The last sequence number turned into a message."""
        row = self._rows("SELECT MAX(seq) FROM broadcast_outbox WHERE channel=? AND game_id=?",
                         (self.channel, self.game_id))
        return int(row[0][0] or 0)

    def _catch_up(self) -> None:
        """Replay the record up to the messages already built (a restart), without rebuilding
        them: the game is needed to put the next lines into words."""
        built = self.built
        for seq, line in self._lines(0):
            if seq > built:
                break
            self._feed(_entry(line))

    def _feed(self, entry: Entry) -> dict[str, Any]:
        self._before.append(self._replayer.game.state)
        self._entries.append(entry)
        problem = self._replayer.feed(entry)
        if problem is not None:
            raise ValueError(f"game {self.game_id}: the record does not replay: {problem}")
        self._fed = entry.seq
        return public.message(self.names, self.game_id, self.header, entry,
                              self._said_publicly(entry), self._replayer.game, self._about)

    def _said_publicly(self, entry: Entry) -> public.Said:
        """The line as the table display's game log says it (the game's words for `PUBLIC`,
        in the position it was taken in), with the rule its events cite."""
        rules = self._replayer.game.rules
        words = line_words(rules, self._entries, lambda seq: self._before[seq - 1], entry.seq,
                           PUBLIC, public.LANG, self._said)
        rule = rule_of(entry.events)
        return public.Said(words, rule, rules.rule_summary(rule, public.LANG) if rule else "")

    def build(self) -> int:
        """Put every record line past the outbox into it, in order; how many were added."""
        added = 0
        for seq, line in self._lines(self._fed):
            body = self._feed(_entry(line))
            with self._lock:
                self._db.execute("INSERT OR IGNORE INTO broadcast_outbox VALUES (?, ?, ?, ?, 0)",
                                 (self.channel, self.game_id, seq, json.dumps(body)))
            added += 1
        return added

    def unacked(self, after: int = 0, limit: int = 200) -> list[tuple[int, str]]:
        """Messages not yet acknowledged, past `after`, in order."""
        return [(s, p) for s, p in self._rows(
            "SELECT seq, payload FROM broadcast_outbox WHERE channel=? AND game_id=? "
            "AND acked=0 AND seq>? ORDER BY seq LIMIT ?",
            (self.channel, self.game_id, after, limit))]

    def payloads(self, first: int, last: int) -> list[tuple[int, str]]:
        """Messages `first`..`last`, acknowledged or not (a dashboard's resend request)."""
        return [(s, p) for s, p in self._rows(
            "SELECT seq, payload FROM broadcast_outbox WHERE channel=? AND game_id=? "
            "AND seq BETWEEN ? AND ? ORDER BY seq", (self.channel, self.game_id, first, last))]

    def acked(self, seqs: list[int]) -> None:
        with self._lock:
            self._db.executemany(
                "UPDATE broadcast_outbox SET acked=1 WHERE channel=? AND game_id=? AND seq=?",
                [(self.channel, self.game_id, s) for s in seqs])

    def pending(self) -> int:
        """How many messages wait for the broker's acknowledgement."""
        row = self._rows("SELECT COUNT(*) FROM broadcast_outbox WHERE channel=? AND game_id=? "
                         "AND acked=0", (self.channel, self.game_id))
        return int(row[0][0])

    def recorded(self) -> int:
        row = self._rows("SELECT COUNT(*) FROM entries WHERE game_id=?", (self.game_id,))
        return int(row[0][0])

    def state(self) -> dict[str, Any]:
        """The retained state after the last message built."""
        latest = self.payloads(self._fed, self._fed)
        body = json.loads(latest[0][1]) if latest else None
        return public.state(self.names, self.game_id, self.header, self._replayer.game,
                            self._fed, body)
