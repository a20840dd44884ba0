"""The Barletta table, stable: what the referee is told when the table has changed.

Tags go through the shared `StableTracker` (still frames that agree, a tag missing for a frame
or two not gone, tags under a hand hidden, not gone); one knight per hex, so no stacks. The
dice are tracked beside them the same way: a tray read alike on `agree` still frames is
stable, a covered tray (None) changes nothing. A diff is emitted when the stable table (tags
and dice together) differs from the last one told: a move, a flip (one face's tag gone, the
other's appeared), a new throw, a tray emptied. Frames with hands or motion are never trusted.

A throw showing the same faces as the last one: the tray was covered (a hand took the dice
and threw them) and the dice now lie elsewhere on the felt. It is told as a diff whose
`before` has its dice unread (None), so that `FieldDiff.thrown` names the throw.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from companion.games.barletta.reader import BarlettaReading
from companion.games.barletta.table_state import FieldDiff, FieldSnapshot
from companion.vision.table import StableTracker

__all__ = ["BarlettaTracker"]


@dataclass
class BarlettaTracker:
    """Stable snapshots of the field and the tray; diffs between them."""

    agree: int = 3
    """Still frames that must agree before the table is stable."""
    moved_grey: float = 60.0
    """A cell of the tray's small copy this much lighter or darker than when the dice were
    last stable (grey levels, after evening out the light): a die lies elsewhere. Green felt
    against a white die differs by over 100."""
    tags: StableTracker = field(init=False)
    _told: FieldSnapshot | None = None
    _dice: tuple[int, ...] | None = None
    """The tray as last seen stable; None until first read."""
    _print: np.ndarray | None = None
    """The tray's small copy when its dice were last stable."""
    _covered: bool = False
    """The tray was covered since its dice were last stable (a hand in it)."""
    _rethrown: bool = False
    _history: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tags = StableTracker(agree=self.agree)

    @property
    def stable(self) -> FieldSnapshot | None:
        """The table as last told to the referee (or as people said it is: `settle`)."""
        return self._told

    def feed(self, reading: BarlettaReading) -> FieldDiff | None:
        """A diff when the stable table changed since the last one told; None otherwise
        (the first stable table is a diff from nothing: `before` None)."""
        self.tags.feed(reading.tags)
        self._feed_dice(reading)
        seen = self.tags.stable
        if seen is None or (self._dice is None and self._told is None):
            return None  # the first table waits for its tray too
        now = FieldSnapshot(dict(seen.zones), self._dice)
        told, self._told = self._told, now
        if told is not None and self._rethrown:
            self._rethrown = False
            return FieldDiff(replace(told, dice=None), now)  # the same faces, thrown again
        if told is not None and _same(told, now):
            return None
        return FieldDiff(told, now)

    def _feed_dice(self, reading: BarlettaReading) -> None:
        """The tray is stable when read alike on `agree` still frames; a covered or unclear
        tray, or a frame with hands, starts the count again and changes nothing."""
        if reading.tags.board_found and reading.dice is None:
            self._covered = True
        still = reading.tags.board_found and not reading.tags.moving
        if not still or reading.dice is None:
            self._history.clear()
            return
        self._history = [*self._history[-(self.agree - 1):], reading.dice]
        if len(self._history) < self.agree or any(d != reading.dice for d in self._history):
            return
        if self._covered and reading.dice and reading.dice == self._dice:
            self._rethrown = self._moved(reading.tray)
        if self._covered or self._print is None or reading.dice != self._dice:
            self._print = reading.tray
        self._covered = False
        self._dice = reading.dice

    def _moved(self, tray: np.ndarray | None) -> bool:
        """Whether the dice lie elsewhere than when last stable (the light evened out)."""
        if tray is None or self._print is None:
            return False
        evened = tray * (float(np.median(self._print)) / max(float(np.median(tray)), 1.0))
        return bool((np.abs(evened - self._print) > self.moved_grey).sum() >= 2)

    def settle(self, expected: FieldSnapshot) -> None:
        """People have said what the table shows (an action entered on the tablet): the next
        diff is from `expected`. Its dice None (the tray not said) keeps the tray as last
        seen, so that dice lying there are not told again as a new throw."""
        dice = expected.dice if expected.dice is not None else self._dice
        self._told = FieldSnapshot(dict(expected.zones), dice)
        self._rethrown = False


def _same(a: FieldSnapshot, b: FieldSnapshot) -> bool:
    return dict(a.zones) == dict(b.zones) and a.dice == b.dice
