"""A scripted action acted out at a table: what a simulated player does (cards scanned, buttons
pressed, pieces moved so the camera sees a change). Each game's simulated player turns its
actions into these inputs (`companion demo`, `companion bench referee`); the host feeds them
through the same readers, buttons and camera a real table uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from companion.engine import Action
from companion.table import AnyParts, TableSetup

if TYPE_CHECKING:
    import numpy as np

    from companion.engine.core.rules import Rules
    from companion.games.contract import Figures

__all__ = ["OnFrame", "Press", "Scan", "Seen", "SimulatedPlayer", "Simulator", "TableInput",
           "Tick"]


@dataclass(frozen=True)
class Scan:
    """A card code read by the card reader."""

    code: str


@dataclass(frozen=True)
class Press:
    """A table button pressed (`confirm`, `next_phase`, `leader`, ...)."""

    name: str


@dataclass(frozen=True)
class Seen:
    """A change the camera should see: the game's own diff (tags moved, soldiers counted)."""

    diff: Any


TableInput = Scan | Press | Seen


class SimulatedPlayer(Protocol):
    """A game's player at the simulated table: acts scripted actions out and photographs the
    table for the camera (frames go to `on_frame`, the table session's)."""

    @property
    def hidden(self) -> frozenset[str]:
        """Verbs nobody sees at the table (cards dealt face down): the companion deals them."""
        ...

    @property
    def crowded(self) -> int:
        """Pieces put down touching another place's pieces for want of room (counted)."""
        ...

    def begin(self, state: Any) -> None:
        """Put the table down as the game starts (the first stable frame)."""

    def act_out(self, before: Any, action: Action, after: Any) -> list[TableInput]:
        """What the player does at the table for `action`."""

    def show(self, seen: Seen) -> bool:
        """Make the change at the table and photograph it until the tracker is stable;
        whether it reported a change."""

    def illegal_move(self, state: Any) -> bool:
        """Make a change the rules forbid and photograph it (False: none could be made)."""

    def undo_illegal(self) -> None:
        """Put the table back as it was before `illegal_move`."""


@runtime_checkable
class AnswersAtTable(Protocol):
    """A simulated player who answers some questions at the table rather than with a tap,
    as players do (issue 36): La Disfida's attacker throws the dice rather than tap "attack"
    when the move could attack only one knight. The question is left to the next action's
    inputs, which show the answer."""

    def answered_at_table(self, action: Action, options: tuple[Action, ...]) -> bool:
        """Whether the next action's inputs answer the question listing `options` with
        `action`."""
        ...


R_contra = TypeVar("R_contra", bound="Rules[Any, Any]", contravariant=True)
P_contra = TypeVar("P_contra", bound=AnyParts, contravariant=True)

OnFrame = Callable[["np.ndarray"], object]
"""Where the simulated camera's frames go: the table session's `on_frame`."""
Tick = Callable[[int, int], None]
"""Progress of a long run: (done, of)."""


class Simulator(Protocol[R_contra, P_contra]):
    """A game's `simulator` capability: the table it plays at and its player there. Typed
    with the game's own rules and table parts, so its player may use what the game's reader
    and referee offer (mypy checks the two capabilities agree)."""

    def setup(self) -> TableSetup:
        """The `TableSetup` the simulated table is built with (camera height, crowding)."""
        ...

    def player(self, rules: R_contra, parts: P_contra, on_frame: OnFrame) -> SimulatedPlayer:
        """The player at this table, photographing it into `on_frame`."""
        ...

    def bench_referee(self, games: int, seed: int, tick: Tick | None = None) -> Figures:
        """Random games acted out at the level of the referee's readings and read back by it
        (`companion bench referee`): recovered, asked and missed actions."""
        ...
