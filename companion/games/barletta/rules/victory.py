"""L Vittoria: victory points for captured and killed knights (L1), and the sudden defeat of a
side with no knight left on the field (L2; knights in their camp are not on it)."""

from __future__ import annotations

from companion.games.barletta.kit import SIDES, BarlettaKit
from companion.games.barletta.rules.context import Batch, enemy
from companion.games.barletta.rules.state import BState

__all__ = ["check_field", "final", "points"]


def points(kit: BarlettaKit, state: BState, side: str) -> int:
    """L1: twice the VC of each enemy knight captured, the VC of each one killed."""
    total = 0
    for knight in state.gone.get(enemy(side), ()):
        value = kit.vc(knight)
        total += 2 * value if state.knights[knight].out == "captured" else value
    return total


def check_field(batch: Batch) -> None:
    """L2: a side with no knight on the field loses at once (both: a draw)."""
    empty = [s for s in SIDES if not any(
        k.on_field for n, k in batch.state.knights.items() if batch.side(n) == s)]
    if not empty:
        return
    winner = None if len(empty) == 2 else enemy(empty[0])
    batch.emit("GameEnded", termination="no knight on the field", winner=winner, rule="L2",
               points={s: points(batch.kit, batch.state, s) for s in SIDES})


def final(batch: Batch) -> None:
    """L1, after the fifth turn (C): the higher victory points win; equal points draw."""
    scores = {s: points(batch.kit, batch.state, s) for s in SIDES}
    best = max(scores.values())
    leaders = [s for s in SIDES if scores[s] == best]
    batch.emit("GameEnded", termination="victory points", points=scores, rule="L1",
               winner=leaders[0] if len(leaders) == 1 else None)
