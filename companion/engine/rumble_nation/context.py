"""The batch of events one action produces, folded as it goes (as in Sekigahara)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine.core import Event
from companion.engine.rumble_nation.state import RNState, evolve
from companion.kits.rumble_nation import RumbleNationKit

__all__ = ["Batch", "soldiers_for"]


def soldiers_for(die: int) -> int:
    """5.1: the single die deploys 1 soldier on 1-2, 2 on 3-4, 3 on 5-6."""
    return (die + 1) // 2


@dataclass
class Batch:
    kit: RumbleNationKit
    state: RNState
    events: list[Event] = field(default_factory=list)

    def emit(self, kind: str, **data: Any) -> None:
        if self.state.outcome is not None:
            return
        event = Event(kind, data)
        self.events.append(event)
        self.state = evolve(self.state, event)
