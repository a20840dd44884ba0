"""The events one action produces, folded in as they are emitted.

Every game's `decide` builds its events this way: later checks within the same action see the
effect of earlier events (an overrun clears the way for the rest of a move), while the game's
own state stays untouched until the whole action is accepted. Once the game has ended, nothing
more happens: whatever the action would still have done is dropped (a game over is at once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from companion.engine.core.values import Event

__all__ = ["Batch"]

S = TypeVar("S")


class Batch(Generic[S]):
    """`state` after the events so far; `events` in the order emitted."""

    def __init__(self, state: S, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def ended(self) -> bool:
        """Whether the game is over (a state's `outcome`, where it has one)."""
        return getattr(self.state, "outcome", None) is not None

    def emit(self, kind: str, **data: Any) -> None:
        """Record and fold one event, unless the game is already over."""
        if self.ended():
            return
        event = Event(kind, data)
        self.events.append(event)
        self.state = self._evolve(self.state, event)
