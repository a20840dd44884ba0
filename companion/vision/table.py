"""From a frame to a table snapshot: board calibration, zone mapping, and the stable tracker.

Calibration: the board's pose comes from the corner markers (four ids reserved for them, each
corner of each marker a correspondence), re-estimated on every frame they are seen in and kept
when a hand covers one. Zone mapping: each tag's centre goes to board millimetres and to the
zone there; between two zones or outside all of them it is ambiguous, never guessed. The
tracker trusts only still frames: a snapshot becomes stable after N agreeing frames, a tag
missing for a frame or two is not a move, and the output is the diff between stable snapshots.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.detect import TagDetector, TagRead, to_grey
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.intrinsics import Intrinsics
from companion.vision.stacks import Placed, assign_zones

__all__ = [
    "BoardNotFound", "Calibration", "Reading", "StableTracker", "TableDiff", "TableReader",
    "TableSnapshot", "calibrate",
]


class BoardNotFound(Exception):
    """Too few corner markers are visible to place the board, and no earlier calibration."""


@dataclass(frozen=True)
class Calibration:
    """Frame pixels <-> board millimetres."""

    to_board: np.ndarray
    corners_seen: int
    error_mm: float

    def board_point(self, x: float, y: float) -> tuple[float, float]:
        point = cv2.perspectiveTransform(np.array([[[x, y]]], np.float32), self.to_board)[0][0]
        return float(point[0]), float(point[1])

    def frame_point(self, x: float, y: float) -> tuple[float, float]:
        inverse = np.linalg.inv(self.to_board)
        point = cv2.perspectiveTransform(np.array([[[x, y]]], np.float32), inverse)[0][0]
        return float(point[0]), float(point[1])


def calibrate(geometry: Geometry, reads: list[TagRead], minimum: int = 3) -> Calibration:
    """The board's pose from the corner markers among `reads` (at least `minimum` of them)."""
    frame_pts, board_pts = [], []
    half = geometry.corner_size_mm / 2
    for read in reads:
        if read.id in geometry.corners:
            cx, cy = geometry.corners[read.id]
            board_pts += [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half),
                          (cx - half, cy + half)]
            frame_pts += [tuple(p) for p in read.corners]
    seen = len(frame_pts) // 4
    if seen < minimum:
        raise BoardNotFound(f"{seen} of {len(geometry.corners)} corner markers visible; "
                            f"{minimum} are needed to place the board")
    src, dst = np.array(frame_pts, np.float32), np.array(board_pts, np.float32)
    matrix, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
    if matrix is None:
        raise BoardNotFound("the corner markers do not fit one board")
    mapped = cv2.perspectiveTransform(src.reshape(-1, 1, 2), matrix).reshape(-1, 2)
    error = float(np.abs(mapped - dst).max())
    return Calibration(matrix, seen, error)


@dataclass(frozen=True)
class Reading:
    """One frame's tags: tag -> zone (or AMBIGUOUS), those outside every zone, unknown ids."""

    zones: Mapping[int, str]
    outside: tuple[int, ...]
    unknown: tuple[int, ...]
    board_found: bool
    moving: bool
    positions: Mapping[int, tuple[float, float]] = field(default_factory=dict)
    """Each placed or outside tag's centre in board millimetres (for reading stacks)."""


@dataclass
class TableReader:
    geometry: Geometry
    detector: TagDetector = field(default_factory=TagDetector)
    known_tags: frozenset[int] | None = None
    """The registered tags: any other id read is reported, never placed."""
    calibration: Calibration | None = None
    intrinsics: Intrinsics | None = None
    """The lens (from a ChArUco board): tag corners are undistorted before anything else."""
    camera_height_mm: float | None = None
    """The camera's height above the map (calibration camera.yaml): with the geometry's
    block height, tags are taken back from where they are seen to where their blocks stand."""
    motion_threshold: float = 0.02
    skin_threshold: float = 0.004
    _previous: np.ndarray | None = None

    def read(self, frame: np.ndarray) -> Reading:
        moving = self._motion(frame) or self._hand(frame)
        reads = self.detector.detect(frame)
        if self.intrinsics is not None:
            lens = self.intrinsics
            reads = [TagRead(r.id, lens.undistort(r.corners), r.hamming, r.margin)
                     for r in reads]
        try:
            self.calibration = calibrate(self.geometry, reads)
        except BoardNotFound:
            if self.calibration is None:
                return Reading({}, (), (), False, moving)
        assert self.calibration is not None
        zones: dict[int, str] = {}
        positions: dict[int, tuple[float, float]] = {}
        outside, unknown = [], []
        standing = self._standing(frame)
        for read in reads:
            if read.id in self.geometry.corners:
                continue
            if self.known_tags is not None and read.id not in self.known_tags:
                unknown.append(read.id)
                continue
            positions[read.id] = standing(*read.center)
            where = self.geometry.zone_of(*positions[read.id])
            if where is None:
                outside.append(read.id)
            else:
                zones[read.id] = where
        return Reading(zones, tuple(sorted(outside)), tuple(sorted(unknown)), True, moving,
                       positions)

    def _standing(self, frame: np.ndarray) -> Callable[[float, float], tuple[float, float]]:
        """For this frame: frame pixel of a tag -> board mm of the block it stands on. The tag
        stands `block_height_mm` up, so it is seen pushed away from the point under the camera
        (taken to look down on the frame's centre, found once a frame) by height / (camera -
        height)."""
        assert self.calibration is not None
        to_board = self.calibration.board_point
        height = self.geometry.block_height_mm
        if not self.camera_height_mm or not height:
            return to_board
        nx, ny = to_board(frame.shape[1] / 2, frame.shape[0] / 2)
        k = (self.camera_height_mm - height) / self.camera_height_mm

        def standing(x: float, y: float) -> tuple[float, float]:
            sx, sy = to_board(x, y)
            return nx + (sx - nx) * k, ny + (sy - ny) * k

        return standing

    def _hand(self, frame: np.ndarray) -> bool:
        """A hand resting over the table: a patch of skin tones (hue 0-22 degrees, some
        saturation) in a reduced frame. Moving hands are caught by `_motion` as well."""
        if frame.ndim != 3:
            return False
        small = _thumbnail(frame, 320)
        hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
        skin = cv2.inRange(hsv, (0, 60, 80), (11, 190, 255))
        return bool((skin > 0).mean() > self.skin_threshold)

    def _motion(self, frame: np.ndarray) -> bool:
        """Hands over the board: a large share of a reduced frame changed since the last."""
        thumb = _thumbnail(frame, 160)
        small = cv2.blur(to_grey(thumb), (3, 3)).astype(np.int16)
        previous, self._previous = self._previous, small
        if previous is None:
            return False
        changed = np.abs(small - previous) > 25
        return bool(changed.mean() > self.motion_threshold)


def _thumbnail(frame: np.ndarray, width: int) -> np.ndarray:
    """Every n-th pixel: enough to see hands and motion, and nearly free on a 12 MP frame."""
    step = max(1, frame.shape[1] // width)
    return np.ascontiguousarray(frame[::step, ::step])


@dataclass(frozen=True)
class TableSnapshot:
    zones: Mapping[int, str]
    confidence: float


@dataclass(frozen=True)
class TableDiff:
    moved: Mapping[int, tuple[str, str]]
    appeared: Mapping[int, str]
    disappeared: Mapping[int, str]

    def __bool__(self) -> bool:
        return bool(self.moved or self.appeared or self.disappeared)


@dataclass
class StableTracker:
    """Stable snapshots from readings; diffs between consecutive stable snapshots."""

    agree: int = 3
    """Still frames that must agree before a snapshot is stable."""
    grace: int = 2
    """Frames a tag may go unseen without being taken as gone."""
    stacks: Geometry | None = None
    """Read the map by stacks (`vision.stacks`) on this geometry instead of tag by tag."""
    link: float = 24.4
    """Blocks whose centres are this close (mm) are one stack (Layout.link for 14 mm tags)."""
    still: float = 6.0
    """A tag within this many mm of its last stable place has not been moved."""
    stable: TableSnapshot | None = None
    _history: list[dict[int, str]] = field(default_factory=list)
    _missing: dict[int, int] = field(default_factory=dict)
    _placed: dict[int, Placed] = field(default_factory=dict)
    _settled: dict[int, Placed] = field(default_factory=dict)
    _seen_at: dict[int, tuple[float, float]] = field(default_factory=dict)

    def feed(self, reading: Reading) -> TableDiff | None:
        """A diff when a new stable snapshot differs from the last; None otherwise."""
        if reading.moving or not reading.board_found:
            self._history.clear()  # hands over the board: nothing is trusted
            return None
        zones = self._with_grace(self._zones(reading))
        if AMBIGUOUS in zones.values():
            self._history.clear()
            return None
        self._history = [*self._history[-(self.agree - 1):], zones]
        if len(self._history) < self.agree or any(h != zones for h in self._history):
            return None
        previous = self.stable
        self.stable = TableSnapshot(zones, 1.0)
        self._placed = {t: Placed(z, reading.positions[t]) if t in reading.positions
                        else self._placed[t] for t, z in zones.items()
                        if t in reading.positions or t in self._placed}
        if previous is None or previous.zones == zones:
            return None if previous is not None else TableDiff({}, zones, {})
        return _diff(previous.zones, zones)

    def settle(self, zones: Mapping[int, str]) -> None:
        """People have said where the tags stand (an action entered on the tablet, so the
        record is the table as it stands): a stack the table leaves ambiguous takes those
        zones while its tags stay where they were seen last."""
        self._settled = {t: Placed(z, self._seen_at[t]) for t, z in zones.items()
                         if t in self._seen_at}

    def _zones(self, reading: Reading) -> dict[int, str]:
        if self.stacks is None or not reading.positions:
            return dict(reading.zones)
        self._seen_at = dict(reading.positions)
        zones, _ = assign_zones(self.stacks, reading.positions, self._placed, self.link,
                                self.still, self._settled)
        return zones

    def _with_grace(self, zones: dict[int, str]) -> dict[int, str]:
        if self.stable is None:
            return zones
        for tag, where in self.stable.zones.items():
            if tag in zones:
                self._missing.pop(tag, None)
            elif self._missing.get(tag, 0) < self.grace:
                self._missing[tag] = self._missing.get(tag, 0) + 1
                zones[tag] = where  # flickered out for a frame: still there
        return zones


def _diff(before: Mapping[int, str], after: Mapping[int, str]) -> TableDiff:
    moved = {t: (before[t], after[t]) for t in before if t in after and before[t] != after[t]}
    appeared = {t: z for t, z in after.items() if t not in before}
    gone = {t: z for t, z in before.items() if t not in after}
    return TableDiff(moved, appeared, gone)
