"""The batch of events one action produces, folded as it goes (the engine core's `Batch`)."""

from __future__ import annotations

from companion.engine import core
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.state import RNState, evolve

__all__ = ["Batch", "soldiers_for"]


def soldiers_for(die: int) -> int:
    """5.1: the single die deploys 1 soldier on 1-2, 2 on 3-4, 3 on 5-6."""
    return (die + 1) // 2


class Batch(core.Batch[RNState]):
    """Rumble Nation's events for one action; the kit at hand for the rules that need it."""

    def __init__(self, kit: RumbleNationKit, state: RNState) -> None:
        super().__init__(state, evolve)
        self.kit = kit
