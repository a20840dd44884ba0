"""The table session, generic: one game at one table.

A game folder that can be played at the table offers a `table` capability: a factory that,
given its rules and a `TableSetup` (where the calibration is, which tags and codes the physical
set carries), builds `TableParts`: a reader (pixels to a reading), a tracker (readings to
stable diffs, ignoring hands) and a `TableReferee` (diffs, card codes and buttons to rulings).
`TableSession` joins them with the record and the tablet; it knows no pixels, no HTTP and no
particular game. The vocabulary (Proposal, Question, Alert) is the engine core's. These
protocols are the host's side of the contract (`companion.games.contract`): mypy holds each
game's `table` capability to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from companion.engine.core import Alert, Ruling
from companion.table.registry import TableRegistry

if TYPE_CHECKING:
    import numpy as np

    from companion.engine.core.rules import Rules

__all__ = ["Reader", "TableBuilder", "TableParts", "TableReferee", "TableRegistry", "TableSetup",
           "Tracker"]

# The game's state, its table readings and its diffs are the game's own types: the session only
# passes them from one of the game's parts to another, so they are `Any` here.


class TableReferee(Protocol):
    """A game's reading of its table. `state` is the game's own state type."""

    desync: Alert | None
    """Set when the table showed something illegal: the session waits until it is put back."""

    @property
    def rules(self) -> Rules[Any, Any]:
        """The game's rules (the session asks whether a waiting question still applies)."""
        ...

    @property
    def registry(self) -> TableRegistry:
        """Which piece each tag is on, which card each code names (the set check reads it)."""
        ...

    def on_diff(self, state: Any, diff: Any) -> list[Ruling]:
        """What a stable change on the table means."""
        ...

    def on_card(self, state: Any, code: str) -> list[Ruling]:
        """What a scanned card code means (or nothing yet: it waits for a move)."""
        ...

    def card_owner(self, state: Any, code: str) -> str | None:
        """The role that may play the card with this code now (a code typed on a phone goes
        on only if it is that phone's side's); None for a code it does not know."""
        ...

    def on_button(self, state: Any, name: str) -> list[Ruling]:
        """What a table button means now (`confirm`, `next_phase`, ...)."""
        ...

    def decisions(self, state: Any) -> list[Ruling]:
        """Choices the table cannot show, asked on the tablet once nothing else waits."""
        ...

    def table_matches(self, state: Any, seen: Any) -> bool:
        """Whether the stable table `seen` agrees with the record (clears the desync)."""
        ...

    def expected(self, state: Any) -> Any:
        """What the tracker should take as the table now, after an action entered by hand."""
        ...

    def forget_inputs(self) -> None:
        """Cards scanned and waiting went with an action entered on the tablet."""
        ...


class Tracker(Protocol):
    """Readings in, a stable diff out once the table has been still long enough."""

    @property
    def stable(self) -> Any:
        """The last stable state of the table (None before the first)."""
        ...

    def feed(self, reading: Any) -> Any:
        """One frame's reading; a diff (truthy) when the stable table changed, else None."""
        ...

    def settle(self, expected: Any) -> None:
        """Take `expected` as the table now (a person said what the camera could not see)."""
        ...


class Reader(Protocol):
    def read(self, frame: np.ndarray) -> Any:
        """One camera frame to a reading (the game's own type, fed to its tracker)."""
        ...


ReaderT = TypeVar("ReaderT", bound=Reader, covariant=True)
TrackerT = TypeVar("TrackerT", bound=Tracker, covariant=True)
RefereeT = TypeVar("RefereeT", bound=TableReferee, covariant=True)


@dataclass(frozen=True)
class TableParts(Generic[ReaderT, TrackerT, RefereeT]):
    """A game's table: its reader, tracker and referee, typed as the game's own so that its
    simulated player can use them (`TableParts[BarlettaReader, BarlettaTracker, ...]`)."""

    reader: ReaderT
    tracker: TrackerT
    referee: RefereeT


AnyParts = TableParts[Reader, Tracker, TableReferee]
"""A table as the session sees it: any game's parts, through the protocols."""


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


R_contra = TypeVar("R_contra", bound="Rules[Any, Any]", contravariant=True)
P_co = TypeVar("P_co", bound=AnyParts, covariant=True)


class TableBuilder(Protocol[R_contra, P_co]):
    """A game's `table` capability: the parts for a table of `rules`, from `setup`."""

    def __call__(self, rules: R_contra, setup: TableSetup, /) -> P_co:
        ...
