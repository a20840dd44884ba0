"""Stable counts: how many pieces of each kind stand in each zone, and the dice in the tray, once
the table has been still for a few frames.

Some games put untagged pieces on the map (Rumble Nation's soldiers, counted by colour in each
region) and read dice in a tray. Their reader turns a frame into a `FrameCounts`; this tracker
turns readings into stable snapshots and the diff between consecutive ones, as
`table.StableTracker` does for tagged blocks. A frame is trusted only when nothing is in doubt:
no hand or motion over the table, the board placed, every zone read with confidence and every
die in the tray read. A snapshot is stable once `agree` trusted frames in a row show the same
counts and dice. Counts are compared exactly: a zone whose count flickers between frames never
becomes stable, so the referee is never handed a count the camera was unsure of.

A doubt that does not go away (two soldiers leaning on each other, a heap) would stall the
table if the tracker only waited. So once `doubt_after` still frames in a row show the same
counts outside the zones any of them doubted, the tracker hands the change on with those zones
marked doubtful: their counts are the last known ones (never the unsure reading), and the
referee asks what happened there instead of guessing. The same doubt is handed on once. A
doubt that flickers between zones from frame to frame (cubes parted in one frame, not in the
next) is one doubt over all of them.

Zones, kinds and faces are strings and numbers here: what a count means is the referee's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CountDiff", "CountSnapshot", "CountTracker", "Counts", "FrameCounts",
           "count_changes", "normalised"]

Counts = Mapping[str, Mapping[str, int]]
"""Zone -> kind (a colour, a piece type) -> how many stand there."""


def normalised(counts: Counts) -> dict[str, dict[str, int]]:
    """The counts without zeros or empty zones: one spelling for equal tables."""
    return {zone: {kind: n for kind, n in sorted(kinds.items()) if n}
            for zone, kinds in sorted(counts.items()) if any(kinds.values())}


def count_changes(before: Counts, after: Counts) -> dict[str, dict[str, int]]:
    """Zone -> kind -> how many more stand there in `after` (negative: fewer); zeros left out."""
    changes: dict[str, dict[str, int]] = {}
    for zone in sorted(set(before) | set(after)):
        was, now = before.get(zone, {}), after.get(zone, {})
        delta = {kind: now.get(kind, 0) - was.get(kind, 0) for kind in sorted(set(was) | set(now))}
        delta = {kind: n for kind, n in delta.items() if n}
        if delta:
            changes[zone] = delta
    return changes


@dataclass(frozen=True)
class FrameCounts:
    """One frame as a counting reader saw it."""

    counts: Counts
    dice: tuple[int | None, ...] = ()
    """The faces read in the tray, smallest first; None for a die seen but not read (covered,
    tilted); an empty tray reads ()."""
    moving: bool = False
    """A hand or motion over the table: nothing in this frame is trusted."""
    doubtful: frozenset[str] = frozenset()
    """Zones whose count the reader is unsure of (pieces in a heap, a clump between sizes)."""
    board_found: bool = True

    @property
    def still(self) -> bool:
        """The board in view, no hand or motion, every die read: all that a doubtful zone
        lacks from being trusted."""
        return self.board_found and not self.moving and None not in self.dice

    @property
    def trusted(self) -> bool:
        return self.still and not self.doubtful


@dataclass(frozen=True)
class CountSnapshot:
    """The table as it stands: counts (normalised) and the dice in the tray."""

    counts: Counts = field(default_factory=dict)
    dice: tuple[int, ...] | None = ()
    """Faces smallest first; () an empty tray; None: not known (a person settled the counts
    and the tray was not looked at since)."""
    doubtful: frozenset[str] = frozenset()
    """Zones the camera could not count: their counts are the last known ones, not seen."""

    def count(self, zone: str, kind: str) -> int:
        return self.counts.get(zone, {}).get(kind, 0)


@dataclass(frozen=True)
class CountDiff:
    """What changed between two stable snapshots (`before` None: the first one)."""

    before: CountSnapshot | None
    after: CountSnapshot

    @property
    def changes(self) -> dict[str, dict[str, int]]:
        """Zone -> kind -> how many more (negative: fewer) stand there now."""
        return count_changes(self.before.counts if self.before else {}, self.after.counts)

    @property
    def doubtful(self) -> frozenset[str]:
        """Zones whose counts the camera could not read in `after`: what changed there (if
        anything) is not in `changes`, and is for the referee to ask."""
        return self.after.doubtful

    @property
    def new_doubts(self) -> frozenset[str]:
        """Doubtful zones that were read with confidence (or known) before."""
        return self.after.doubtful - (self.before.doubtful if self.before else frozenset())

    @property
    def dice_changed(self) -> bool:
        """Whether the tray shows other dice (unknown before counts as no change)."""
        was = self.before.dice if self.before is not None else ()
        return was is not None and self.after.dice is not None and was != self.after.dice

    def __bool__(self) -> bool:
        return bool(self.changes) or self.dice_changed or bool(self.new_doubts)


@dataclass
class CountTracker:
    """Readings in, a `CountDiff` out when the still table shows something new."""

    agree: int = 3
    """Trusted frames in a row that must agree before a snapshot is stable."""
    stable: CountSnapshot | None = None
    untrusted: int = 0
    """Frames not trusted so far (hands, motion, doubtful zones, unread dice, no board)."""
    doubt_after: int = 8
    """Still frames in a row showing the same doubt before the change around it is handed on
    with the doubtful zones marked (a few seconds at the table's frame rate: a hand lifting
    or a piece settling clears a passing doubt well before)."""
    _history: list[CountSnapshot] = field(default_factory=list)
    _doubts: list[CountSnapshot] = field(default_factory=list)

    def feed(self, reading: FrameCounts) -> CountDiff | None:
        """A diff when a new stable snapshot differs from the last (the first stable snapshot
        is a diff from nothing, which may be empty); None otherwise."""
        if not reading.trusted:
            self.untrusted += 1
            self._history.clear()  # a hand came and went: the agreeing frames start again
            if not reading.still:
                self._doubts.clear()
                return None
            return self._doubt(reading)
        self._doubts.clear()
        seen = CountSnapshot(normalised(reading.counts), _faces(reading))
        self._history = [*self._history[-(self.agree - 1):], seen]
        if len(self._history) < self.agree or any(h != seen for h in self._history):
            return None
        return self._stable(seen)

    def _doubt(self, reading: FrameCounts) -> CountDiff | None:
        """A still frame with doubtful zones: handed on once it has stayed the same for
        `doubt_after` frames. Only after a first stable snapshot: a doubtful zone's count is
        the last known one, and at the first look there is none."""
        if self.stable is None:
            return None
        known = self.stable.counts
        raw = CountSnapshot(normalised({**{z: {} for z in known}, **reading.counts}),
                            _faces(reading), frozenset(reading.doubtful))
        self._doubts = [*self._doubts[-(self.doubt_after - 1):], raw]
        if len(self._doubts) < self.doubt_after:
            return None
        # A doubt that flickers between zones (cubes the reader parts in one frame and not
        # the next) is one doubt over all of them: else it never stays the same and the
        # table stalls for good. Everything outside agrees, or it is not still yet.
        doubtful = frozenset().union(*(h.doubtful for h in self._doubts))
        if any(_outside(h, doubtful) != _outside(raw, doubtful) for h in self._doubts):
            return None
        counts = {zone: (known.get(zone, {}) if zone in doubtful else kinds)
                  for zone, kinds in {**{z: {} for z in known}, **raw.counts}.items()}
        return self._stable(CountSnapshot(normalised(counts), raw.dice, doubtful))

    def _stable(self, seen: CountSnapshot) -> CountDiff | None:
        """`seen` is the table now: a diff if it shows something new (other counts, other
        dice, a zone newly in doubt)."""
        previous = self.stable
        if previous is not None and previous.counts == seen.counts \
                and previous.dice in (None, seen.dice) and seen.doubtful <= previous.doubtful:
            self.stable = seen  # the tray, unknown since a settle, is known again
            return None
        self.stable = seen
        return CountDiff(previous, seen)

    def settle(self, expected: CountSnapshot) -> None:
        """Take `expected` as the table now (an action entered on the tablet: the record is
        the table). The tray keeps what was seen when `expected` does not say."""
        dice = expected.dice
        if dice is None and self.stable is not None:
            dice = self.stable.dice
        doubtful = self.stable.doubtful if self.stable is not None else frozenset()
        self.stable = CountSnapshot(normalised(expected.counts), dice, doubtful)
        # a doubt already asked about stays asked: the record now says what stands there


def _outside(seen: CountSnapshot, zones: frozenset[str]) -> tuple[Any, Any]:
    """What `seen` says beyond `zones`: the counts elsewhere and the dice."""
    return {z: k for z, k in seen.counts.items() if z not in zones}, seen.dice


def _faces(reading: FrameCounts) -> tuple[int, ...]:
    return tuple(sorted(f for f in reading.dice if f is not None))
