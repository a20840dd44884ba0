"""What a player may not see in La Disfida di Barletta (the `secrets` capability): nothing.
Every counter lies face up on the field and every roll is thrown in the open, so the leak
sweeps check only that nothing else goes wrong."""

from __future__ import annotations

from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.state import BState

__all__ = ["secrets"]


def secrets(rules: BarlettaRules, state: BState, role: str) -> set[str]:
    """Nothing is hidden in this game."""
    return set()
