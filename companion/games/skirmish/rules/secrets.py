"""What a side may not see in Skirmish (the `secrets` capability): the other side's blocks
standing face down, until revealed in battle or eliminated."""

from __future__ import annotations

from companion.games.skirmish.rules import SkirmishRules
from companion.games.skirmish.rules.state import SkirmishState

__all__ = ["secrets"]


def secrets(rules: SkirmishRules, state: SkirmishState, role: str) -> set[str]:
    """The block ids `role` may not see now (`public`: both sides')."""
    return {b for b, side in state.owner.items() if side != role and b not in state.revealed
            and b not in state.eliminated}
