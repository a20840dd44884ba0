"""What each role may see (S1.1): own blocks in full, the enemy's as counts plus revealed ones."""

from __future__ import annotations

from typing import Any

from companion.engine.core import REFEREE
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules.state import SkirmishState

__all__ = ["view"]


def view(kit: SkirmishKit, state: SkirmishState, role: str) -> dict[str, Any]:
    """The public role and the other side see counts; S4.5 makes eliminated blocks public."""
    locations: dict[str, dict[str, Any]] = {}
    for loc in kit.locations:
        stacks = {}
        for side in kit.armies:
            blocks = state.blocks_at(loc.id, side)
            if blocks:
                stacks[side] = _stack(kit, state, blocks, sees_all=role in (side, REFEREE))
        if stacks:
            locations[loc.id] = stacks
    battle = state.battle
    return {
        "game": "skirmish",
        "role": role,
        "turn": state.turn,
        "active": state.active,
        "locations": locations,
        "eliminated": [{"block": b, "side": state.owner[b], "strength": kit.strength[b]}
                       for b in state.eliminated],  # S4.5: eliminated blocks are public
        "battle": None if battle is None else {
            "at": battle.at, "attacker": battle.attacker, "defender": battle.defender},
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def _stack(kit: SkirmishKit, state: SkirmishState, blocks: list[str], *,
           sees_all: bool) -> dict[str, Any]:
    shown = blocks if sees_all else [b for b in blocks if b in state.revealed]
    return {
        "count": len(blocks),
        "blocks": [{"block": b, "strength": kit.strength[b]} for b in shown],
    }

