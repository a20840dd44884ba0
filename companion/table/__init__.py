"""The table session, generic: one game at one table.

A game folder that can be played at the table offers a `table` capability: a factory that,
given its rules and a `TableSetup` (where the calibration is, which tags and codes the physical
set carries), builds `TableParts`: a reader (pixels to a reading), a tracker (readings to
stable diffs, ignoring hands) and a `TableReferee` (diffs, card codes and buttons to rulings).
`TableSession` joins them with the record and the tablet; it knows no pixels, no HTTP and no
particular game. The vocabulary (Proposal, Question, Alert) is the engine core's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.engine.core import Alert, Ruling
from companion.table.registry import TableRegistry

__all__ = ["TableBuilder", "TableParts", "TableReferee", "TableRegistry", "TableSetup",
           "Tracker"]


class TableReferee(Protocol):
    """A game's reading of its table. `state` is the game's own state type."""

    desync: Alert | None
    """Set when the table showed something illegal: the session waits until it is put back."""

    def on_diff(self, state: Any, diff: Any) -> list[Ruling]:
        """What a stable change on the table means."""

    def on_card(self, state: Any, code: str) -> list[Ruling]:
        """What a scanned card code means (or nothing yet: it waits for a move)."""

    def card_owner(self, state: Any, code: str) -> str | None:
        """The role that may play the card with this code now (a code typed on a phone goes
        on only if it is that phone's side's); None for a code it does not know."""
        ...

    def on_button(self, state: Any, name: str) -> list[Ruling]:
        """What a table button means now (`confirm`, `next_phase`, ...)."""

    def decisions(self, state: Any) -> list[Ruling]:
        """Choices the table cannot show, asked on the tablet once nothing else waits."""

    def table_matches(self, state: Any, seen: Any) -> bool:
        """Whether the stable table `seen` agrees with the record (clears the desync)."""

    def expected(self, state: Any) -> Any:
        """What the tracker should take as the table now, after an action entered by hand."""

    def forget_inputs(self) -> None:
        """Cards scanned and waiting went with an action entered on the tablet."""


class Tracker(Protocol):
    """Readings in, a stable diff out once the table has been still long enough."""

    @property
    def stable(self) -> Any:
        """The last stable state of the table (None before the first)."""

    def feed(self, reading: Any) -> Any:
        """One frame's reading; a diff (truthy) when the stable table changed, else None."""

    def settle(self, expected: Any) -> None:
        """Take `expected` as the table now (a person said what the camera could not see)."""


class Reader(Protocol):
    def read(self, frame: Any) -> Any:
        """One camera frame to a reading."""


@dataclass
class TableParts:
    reader: Reader
    tracker: Tracker
    referee: TableReferee


@dataclass(frozen=True)
class TableSetup:
    """Where the table's facts come from; None: the defaults (shipped calibration, the
    simulated table's set with tags in kit order)."""

    calibration: Path | None = None
    """A folder with board.yaml (and camera.yaml from `companion calibrate`)."""
    registry: TableRegistry | None = None
    camera_height_mm: float | None = None
    """The camera's height above the map, where calibration has none (parallax)."""
    crowd: bool = False
    """The simulated player puts pieces down touching others when a place is full."""


TableBuilder = Callable[[Any, TableSetup], TableParts]
"""A game's `table` capability: (rules, setup) -> TableParts."""
