"""Benchmarks: scripts that print figures (never timed tests).

`companion bench engine` measures the Sekigahara engine: the time to validate and apply one
action (median and 95th percentile over a long random sequence), and the time to replay a whole
game's record through the engine.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import UTC, datetime
from typing import Any

from companion.engine import CHANCE, Action, Game, chance_rng, rules_class
from companion.engine.sekigahara.combat import battles_due
from companion.kits import load_kit
from companion.record import record_of, replay

__all__ = ["bench_engine"]


def _peaceful(game: Game[Any], choices: list[Action], rng: random.Random) -> Action:
    """A random choice that avoids leaving both sides in one location: without combat rules
    (chapter 8) such a game would wait at its first battle."""
    ctx = game.rules.ctx  # type: ignore[attr-defined]
    rng.shuffle(choices)
    for action in choices:
        if action.verb != "move":
            return action
        events = game.rules.decide(game.state, action)
        after = game.state
        for event in events:
            after = game.rules.evolve(after, event)
        if not battles_due(ctx, after):
            return action
    return next(a for a in choices if a.verb == "end_movement")


def _play(seed: int, timings: list[float], max_actions: int) -> Game[Any]:
    kit = load_kit("sekigahara")
    game: Game[Any] = Game(rules_class("sekigahara")(kit), seed=seed)
    rng = random.Random(seed)
    while game.outcome is None and len(game.history) < max_actions:
        if CHANCE in game.to_move():
            action = game.rules.sample_chance(game.state, chance_rng(seed, len(game.history)))
        else:
            action = _peaceful(game, game.legal_actions(), rng)
        start = time.perf_counter()
        game.apply(action)
        timings.append(time.perf_counter() - start)
    return game


def bench_engine(actions: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Play random Sekigahara games until `actions` actions were applied; time each apply."""
    timings: list[float] = []
    games: list[Game[Any]] = []
    while len(timings) < actions:
        games.append(_play(seed + len(games), timings, 5000))
    whole = next((g for g in games if g.outcome is not None), games[-1])
    record = record_of(whole, whole.rules.kit, started_at=datetime.now(UTC), source="simulator")
    start = time.perf_counter()
    result = replay(record)
    replay_s = time.perf_counter() - start
    assert result.ok, result.problem
    ms = sorted(t * 1000 for t in timings)
    return {
        "actions": len(ms), "games": len(games),
        "action_ms_p50": round(statistics.median(ms), 4),
        "action_ms_p95": round(ms[int(0.95 * (len(ms) - 1))], 4),
        "replay_game_s": round(replay_s, 4),
        "replay_game_actions": len(whole.history),
        "replay_game_finished": whole.outcome is not None,
    }
