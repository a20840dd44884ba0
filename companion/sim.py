"""Random-play simulation of whole games: a property test on small runs, a fuzzer on large ones.

Each game is played in full-knowledge mode with random legal choices for every side, written as
a game record, read back and re-verified through the engine (as `companion replay --check`
does). A game that dead-ends, runs away or whose record does not verify is a failure.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.engine import DeadEnd, Game, random_playout
from companion.games import AnyGame, game
from companion.kits import Kit, load_kit
from companion.record import read_record, record_of, replay, write_record
from companion.record.store import winners_mark

__all__ = ["SimReport", "simulate"]


@dataclass
class SimReport:
    games: int = 0
    seconds: float = 0.0
    actions: int = 0
    game: str = ""
    wins: Counter[str] = field(default_factory=Counter)
    """Finished games by winner (`draw` for none)."""
    endings: Counter[str] = field(default_factory=Counter)
    """Finished games by how they ended: `winner: termination (rule R)`."""
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "games_per_s": round(self.games / self.seconds, 2) if self.seconds else None,
            "wins": dict(sorted(self.wins.items())),
            "endings": dict(sorted(self.endings.items(), key=lambda kv: (-kv[1], kv[0]))),
            "avg_actions": round(self.actions / self.games, 1) if self.games else 0,
            "all_records_verified": not self.failures,
            "failures": self.failures,
        }


def simulate(game_name: str, games: int, seed: int, out: Path | None = None,
             max_actions: int = 10_000, tick: Callable[[], None] = lambda: None,
             options: Mapping[str, Any] | None = None) -> SimReport:
    """Play `games` seeded random games of a game (name or alias) with `options` (the
    player count, a board side...) and verify each one's record (`tick` after each: a
    progress bar). Raises UnknownGameName for a name no game has, ValueError for options the
    game does not have or values it refuses."""
    spec = game(game_name)
    report = SimReport(game=spec.name)
    kit = load_kit(spec.kit)
    with tempfile.TemporaryDirectory() as scratch:
        folder = out or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        for n in range(seed, seed + games):
            _one(spec, kit, n, folder / f"{spec.name}-{n}.jsonl", max_actions, report,
                 dict(options or {}))
            tick()
        report.seconds = time.perf_counter() - start
    return report


def _one(spec: AnyGame, kit: Kit, seed: int, path: Path, max_actions: int,
         report: SimReport, options: dict[str, Any]) -> None:
    played: Game[Any] = Game(spec.rules(kit, options), seed=seed)
    report.games += 1
    try:
        random_playout(played, max_actions=max_actions)
    except DeadEnd as exc:
        report.failures.append(f"seed {seed}: dead end: {exc}")
        return
    report.actions += len(played.history)
    outcome = played.outcome
    if outcome is None:
        report.failures.append(f"seed {seed}: no result after {max_actions} actions (runaway)")
        return
    won = winners_mark(outcome.winners)  # a shared victory names each winner
    report.wins[won] += 1
    report.endings[f"{won}: {outcome.termination} (rule {outcome.rule})"] += 1
    record = record_of(played, kit, started_at=datetime(2026, 1, 1, tzinfo=UTC),
                       source="simulator")
    write_record(path, record.header, record.entries)
    result = replay(read_record(path))
    if not result.ok:
        report.failures.append(f"seed {seed}: {path.name}: {result.problem}")
