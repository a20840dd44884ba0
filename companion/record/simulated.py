"""One game played at random, seeded, as a record (`companion simulate`): the rules fuzzer's
single run, and test data that replays like any record of a game at a table.

`companion.sim` plays many such games and verifies them; this is the one game whose record a
person keeps, with the players' names in its header.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from companion.engine import Game, random_playout
from companion.kits import Kit, load_kit
from companion.record.format import Record
from companion.record.replay import record_of

__all__ = ["RandomGame", "play_random", "random_start"]


@dataclass(frozen=True)
class RandomGame:
    record: Record
    actions: int
    finished: bool
    """False: cut after `max_actions` (a runaway)."""


def random_start(game: str, rules: Callable[[Kit, dict[str, Any]], Any], kit: str, *,
                 seed: int, options: Mapping[str, Any]) -> tuple[Game[Any], Kit]:
    """A new seeded game of `game` (its `rules`, on `kit`: a name or folder) with `options`,
    and the kit it is played on. KitError for a kit that does not load, ValueError for a kit
    of another game, EngineError or ValueError for options the rules refuse."""
    loaded = load_kit(kit)
    if loaded.game != game:
        raise ValueError(f"the kit {loaded.id} is for {loaded.game}, not {game}")
    return Game(rules(loaded, dict(options)), seed=seed), loaded


def play_random(game: Game[Any], kit: Kit, *, max_actions: int,
                started_at: datetime | None = None,
                players: Mapping[str, str] | None = None) -> RandomGame:
    """`game` played on at random to its end (or cut after `max_actions`), recorded as
    starting at `started_at` (default: now, once played). DeadEnd (an EngineError) when
    nobody can act: a rules bug, left to surface as one."""
    playout = random_playout(game, max_actions=max_actions)
    started = started_at or datetime.now(UTC).replace(microsecond=0)
    record = record_of(game, kit, started_at=started, source="simulator",
                       players=dict(players or {}))
    return RandomGame(record, playout.actions, playout.finished)
