"""5.2 The war phase and 6 the end of the game: all automatic once deployment ends."""

from __future__ import annotations

from companion.engine.core import Sentence
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.names import joined, player

__all__ = ["final_scores", "war"]


def _strength(batch: Batch, region: str, player: str) -> int:
    """Soldiers plus reinforcements; a daimyo counts as 2 soldiers in war (8)."""
    state = batch.state
    daimyo = 2 if state.daimyo_at.get(player) == region else 0
    return state.count(region, player) + state.reinforcements.get(region, {}).get(player, 0) \
        + daimyo


def _pool(batch: Batch, resolving: str) -> int:
    """Reinforcements free to send: those not standing in a region still to be fought. The
    region being resolved has lost its large castle to the winner (5.2.2) before he sends
    reinforcements (5.2.3), so those standing there are free again, as are those of regions
    resolved earlier (5.2.3: "usare quelli contenuti nelle regioni ... prive di segnalini
    castello grande")."""
    held = sum(n for where, players in batch.state.reinforcements.items()
               if where != resolving and where in batch.state.castles
               for n in players.values())
    return batch.kit.components.reinforcements - held


def war(batch: Batch) -> None:
    """Empty regions lose their castles; then regions are fought in ascending castle value."""
    batch.emit("WarBegan", rule="5.2")
    for where, value in sorted(batch.state.castles.items(), key=lambda item: item[1]):
        if not any(batch.state.units(where, p) for p in batch.state.players):
            batch.emit("CastleRemoved", region=where, value=value, rule="5.2")
    while batch.state.castles:
        where, value = min(batch.state.castles.items(), key=lambda item: item[1])
        _resolve(batch, where, value)
    final_scores(batch)


def _resolve(batch: Batch, where: str, value: int) -> None:
    state = batch.state
    strength = {p: _strength(batch, where, p) for p in state.players
                if _strength(batch, where, p)}
    ranked = sorted(strength, key=lambda p: (strength[p], state.katana.get(p, 0)), reverse=True)
    winner = ranked[0]
    runner = ranked[1] if len(ranked) > 1 and len(state.players) >= 3 else None
    batch.emit("RegionResolved", region=where, value=value, strength=strength, winner=winner,
               runner_up=runner, rule="5.2.1")
    batch.emit("CastleTaken", player=winner, region=where, value=value, size="large",
               rule="5.2.2")
    if runner is not None:
        batch.emit("CastleTaken", player=runner, region=where, value=value // 2, size="small",
                   rule="5.2.2")
    _reinforce(batch, where, winner)
    batch.emit("CastleRemoved", region=where, value=value, rule="5.2.3")


def _reinforce(batch: Batch, where: str, winner: str) -> None:
    """5.2.3: 1 (2 players) or 2 (3-4) reinforcements into each adjacent region where the
    winner has soldiers and whose castle is still on the map, while the pool lasts."""
    each = 1 if len(batch.state.players) == 2 else 2
    targets = [r for r in batch.kit.neighbours[where]
               if r in batch.state.castles and batch.state.units(r, winner)]
    placed: list[str] = []
    for target in sorted(targets, key=lambda r: batch.state.castles[r]):
        if _pool(batch, where) - each * len(placed) < each:
            break
        placed.append(target)
    if placed:
        batch.emit("ReinforcementsSent", player=winner, **{"from": where}, regions=placed,
                   each=each, rule="5.2.3")


def final_scores(batch: Batch) -> None:
    """6: the sum of the castles taken; a tie goes to the higher katana."""
    state = batch.state
    score = {p: sum(state.won.get(p, ())) for p in state.players}
    winner = max(state.players, key=lambda p: (score[p], state.katana.get(p, 0)))
    table = joined([Sentence("{player} {score}", player=player(p), score=score[p])
                    for p in state.players])
    batch.emit("GameEnded", winner=winner, termination=Sentence("castles: {scores}",
                                                                scores=table), rule="6",
               scores=score)
