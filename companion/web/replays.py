"""Stored games for the replay viewer, replayed once and kept as positions.

A replay viewer scrubs back and forth; replaying the record from its start for each step cost
0.2-0.74 s a request and let a few clients slow the live table down. States are immutable
values, so keeping every position of a game costs a reference each: a game is replayed once per
length of its record (a record only grows, an undo included, so its length tells a changed
record apart) and each step is then a lookup.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from companion.engine import Game
from companion.record.format import Record
from companion.record.replay import Replayer

__all__ = ["Positions", "ReplayCache"]


@dataclass(frozen=True)
class Positions:
    """Every position of one stored game: after 0, 1, ... of its record's lines."""

    record: Record
    steps: tuple[tuple[int, Any], ...]
    """(lines replayed, state) after each prefix of the record; a line the rules refuse
    stops the replay there, as `replay` does."""
    rules: Any
    finished: bool

    @property
    def total(self) -> int:
        return len(self.record.entries)

    def at(self, lines: int | None) -> tuple[int, Game[Any]]:
        """(lines replayed, the game there) after the first `lines` lines (None: all)."""
        index = self.total if lines is None else max(0, min(lines, self.total))
        applied, state = self.steps[index]
        return applied, Game.from_state(self.rules, state)


def positions_of(record: Record) -> Positions:
    replayer = Replayer(record.header, record.path)
    steps: list[tuple[int, Any]] = [(0, replayer.game.state)]
    applied, stopped = 0, False
    for entry in record.entries:
        if not stopped:
            stopped = replayer.feed(entry) is not None
            applied += not stopped
        steps.append((applied, replayer.game.state))
    return Positions(record, tuple(steps), replayer.game.rules,
                     replayer.game.outcome is not None)


class ReplayCache:
    """The positions of the last few stored games asked for."""

    def __init__(self, games: int = 8) -> None:
        self._games: OrderedDict[tuple[int, int], Positions] = OrderedDict()
        self._size = games
        self._lock = threading.Lock()

    def positions(self, game_id: int, record: Record) -> Positions:
        key = (game_id, len(record.entries))
        with self._lock:
            known = self._games.get(key)
            if known is not None:
                self._games.move_to_end(key)
                return known
        found = positions_of(record)
        with self._lock:
            self._games[key] = found
            while len(self._games) > self._size:
                self._games.popitem(last=False)
        return found
