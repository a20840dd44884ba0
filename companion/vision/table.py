"""From a frame to a table snapshot: board calibration, zone mapping, and the stable tracker.

Calibration: the board's pose comes from the corner markers (four ids reserved for them, each
corner of each marker a correspondence), re-estimated on every frame they are seen in and kept
when a hand covers one. Zone mapping: each tag's centre goes to board millimetres and to the
zone there; between two zones or outside all of them it is ambiguous, never guessed. The
tracker trusts only still frames: a snapshot becomes stable after N agreeing frames, a tag
missing for a frame or two is not a move, and the output is the diff between stable snapshots.

Blocks have a height (issue #19): a tag stands `block_height_mm` above the map and is seen
pushed away from the point under the camera; the reader takes it back by the camera's height.
Both come from the camera's pose (`vision.pose`), estimated with the board from the corner
markers on every frame and kept with it; without one, the frame's centre and a height given.

Occlusion by change (issue #19): a hand, an arm or a card is whatever differs from the last
stable table, whatever its colour. The reader's `Occlusion` keeps a reduced, blurred copy of
the frame the tracker last found stable (the tracker hands it back through `Reading.view`),
measures at set-up how much two still frames of the empty scene differ (the sensor's noise),
and flags a frame whose difference from that reference, after evening out brightness and white
balance, makes a region that enters from the frame's edge or is larger than a few blocks.
Smaller regions are the table changing (a block moved, put down, taken away) and are read as
such. Tags of the stable table that are not read where something covers them are hidden, not
gone. A saturated region (a lamp's reflection) is unknown: its tags are hidden, and the reading
names the zones the camera cannot see there (`Reading.blind`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.detect import TagDetector, TagRead, to_grey
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.intrinsics import Intrinsics
from companion.vision.pose import Pose, PoseNotFound, camera_pose, marker_points
from companion.vision.stacks import Placed, assign_zones

__all__ = [
    "Blind", "BoardNotFound", "Calibration", "Occlusion", "Parallax", "Reading", "StableTracker",
    "TableDiff", "TableReader", "TableSnapshot", "View", "calibrate",
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
    frame_pts, board_pts = marker_points(geometry, reads)
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
class Blind:
    """A part of the table the camera cannot see: a reflection saturates the sensor there."""

    box_mm: tuple[float, float, float, float]
    """Left, top, right, bottom, in board millimetres."""
    zones: tuple[str, ...]
    """The zones whose centres lie in it (to tell the players which: move the lamp)."""


@dataclass(frozen=True, eq=False)
class View:
    """One frame as the occlusion test sees it: reduced, in floating point; where its tags
    were read and where the board's corners are (reduced pixels). `keep` makes it the
    reference: the tracker calls it when the frame's table is the stable one."""

    image: np.ndarray
    scale: float
    """Reduced pixels per frame pixel."""
    places: Mapping[int, tuple[float, float]]
    calibration: Calibration | None
    owner: Occlusion

    def keep(self, tags: Iterable[int]) -> None:
        self.owner.keep(self, tags)

    def corners(self, geometry: Geometry) -> np.ndarray | None:
        """The table's extent's corners in reduced pixels."""
        if self.calibration is None:
            return None
        left, top, right, bottom = geometry.extent
        return self.from_board(np.array([[left, top], [right, top], [right, bottom],
                                         [left, bottom]], np.float32))

    def from_board(self, points: np.ndarray) -> np.ndarray:
        assert self.calibration is not None
        inverse = np.linalg.inv(self.calibration.to_board)
        pts = points.astype(np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, inverse).reshape(-1, 2) * self.scale

    def to_board(self, points: np.ndarray) -> np.ndarray:
        assert self.calibration is not None
        pts = (points.astype(np.float32) / self.scale).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.calibration.to_board).reshape(-1, 2)

    def px_per_mm2(self, geometry: Geometry) -> float:
        """Reduced pixels per square millimetre of the table (1 if the board is not placed)."""
        corners = self.corners(geometry)
        if corners is None:
            return 1.0
        left, top, right, bottom = geometry.extent
        return float(cv2.contourArea(corners)) / ((right - left) * (bottom - top))


@dataclass(frozen=True)
class Parallax:
    """How one frame's tags were taken back from where they are seen to where their blocks
    stand (a tag stands `block_height_mm` above the map: issue #19)."""

    under: tuple[float, float]
    """The board point (mm) under the camera: tags appear pushed away from it."""
    height_mm: float | None
    """The camera's height above the map; None: no correction (tags placed where seen)."""
    how: str
    """Where both came from, in words: the camera's pose, or the fallback and why."""
    pose: Pose | None = None


@dataclass(frozen=True)
class Reading:
    """One frame's tags: tag -> zone (or AMBIGUOUS), those outside every zone, unknown ids."""

    zones: Mapping[int, str]
    outside: tuple[int, ...]
    unknown: tuple[int, ...]
    board_found: bool
    moving: bool
    """Not to be trusted: motion, or something over the table (`occluded`) not yet still."""
    positions: Mapping[int, tuple[float, float]] = field(default_factory=dict)
    """Each placed or outside tag's centre in board millimetres (for reading stacks)."""
    occluded: bool = False
    """Something that is not the table (a hand, an arm, a card) differs from the stable table."""
    hidden: tuple[int, ...] = ()
    """Tags of the stable table not read here because something covers them or the camera
    cannot see there: hidden, not gone."""
    blind: tuple[Blind, ...] = ()
    """Where the camera cannot see (saturated by a reflection)."""
    view: View | None = field(default=None, compare=False, repr=False)
    """This frame for the occlusion test: the tracker keeps it when the table is stable."""
    parallax: Parallax | None = field(default=None, compare=False)
    """How the tags' positions allow for the blocks' height (the camera's pose, or not)."""


@dataclass
class Occlusion:
    """Occlusion by change against the last stable table, and saturated (unknown) regions.

    Differences are in grey levels of the reduced, blurred frame; sizes in board mm."""

    width: int = 256
    """The reduced frame's width: a 14 mm tag is about 3 pixels wide, a hand 30 or more."""
    blur: float = 1.0
    floor: float = 14.0
    """The least difference (grey levels, once brightness and white balance are evened out)
    that counts as a change, whatever the noise."""
    noise_factor: float = 6.0
    """A change is also at least this many times the difference measured between two still
    frames at set-up (the sensor's noise: at gain 8 the larger of the two)."""
    occluder_blocks: float = 8.0
    """A region that does not enter from the frame's edge occludes when larger than this many
    blocks' footprints (a hand is 20 or more; a stack carried away, a few)."""
    edge: int = 2
    """Pixels from the frame's border within which a region enters from the edge."""
    settle: int = 8
    """Still frames after which something lying on the table (a card, a resting arm) is
    trusted, the tags under it hidden."""
    saturated: float = 245.0
    """Every channel at least this bright in the reduced frame: the sensor is saturated."""
    blind_mm2: float = 2000.0
    """A saturated region with at least this much outside the boxes (a 50 mm disc) is blind;
    a white location circle in bright light is smaller, a white box is not the map's art."""
    moved_px: float = 1.5
    """The table's corners moved this far (reduced pixels) since the reference: the camera was
    moved, and the reference is dropped until the next stable table."""
    reference: View | None = None
    noise: float = 0.0
    """The difference between two still frames at set-up (robust sigma, grey levels): measured
    until the first stable table only, so that a noisy pair later (the camera knocked) does not
    raise the threshold for the rest of the game."""
    _measured: bool = False
    _last: np.ndarray | None = field(default=None, repr=False)
    _places: dict[int, tuple[float, float]] = field(default_factory=dict, repr=False)
    _still: int = 0

    def view(self, frame: np.ndarray, places: Mapping[int, tuple[float, float]],
             calibration: Calibration | None) -> View:
        """The frame reduced: every n-th pixel, then averaged (nearly free on 12 MP, and the
        averaging lowers the sensor's noise)."""
        step = max(1, frame.shape[1] // (self.width * 4))
        sampled = np.ascontiguousarray(frame[::step, ::step])
        if sampled.ndim == 2:
            sampled = cv2.cvtColor(sampled, cv2.COLOR_GRAY2BGR)
        height = max(1, round(sampled.shape[0] * self.width / sampled.shape[1]))
        small = cv2.resize(sampled, (self.width, height), interpolation=cv2.INTER_AREA)
        scale = self.width / frame.shape[1]
        return View(small.astype(np.float32), scale,
                    {t: (x * scale, y * scale) for t, (x, y) in places.items()}, calibration,
                    self)

    def keep(self, view: View, tags: Iterable[int]) -> None:
        """`view` is the stable table: the reference, with where each of `tags` stands (read
        there, or where it was last seen)."""
        self._places = {t: view.places[t] if t in view.places else self._places[t]
                        for t in tags if t in view.places or t in self._places}
        self.reference = view
        self._measured = True
        self._still = 0

    def judge(self, view: View, geometry: Geometry, moving: bool, read: Iterable[int],
              blind: np.ndarray) -> tuple[bool, bool, tuple[int, ...]]:
        """Occluded; trusted even so (it has lain still `settle` frames); and the stable
        table's tags, not read, under an occluder or in `blind`."""
        image = cv2.GaussianBlur(view.image, (0, 0), self.blur)
        last, self._last = self._last, image
        reference = self.reference
        now, then = view.corners(geometry), None if reference is None \
            else reference.corners(geometry)
        if now is not None and then is not None \
                and float(np.abs(now - then).max()) > self.moved_px:
            self.reference = reference = None  # the camera moved: wait for a stable table
        if reference is None:
            if not self._measured and last is not None and not moving \
                    and last.shape == image.shape:
                pair = float(np.median(np.abs(_evened(last, image) - last))) * 1.4826
                self.noise = max(self.noise, pair)  # set-up: the still scene's own noise
            return False, False, ()
        before = cv2.GaussianBlur(reference.image, (0, 0), self.blur)
        change = np.abs(_evened(before, image) - before).max(axis=2)
        changed = (change > max(self.floor, self.noise_factor * self.noise)).astype(np.uint8)
        changed[blind] = 0  # unknown, not a hand
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        h, w = changed.shape
        large = self.occluder_blocks * (geometry.tag_mm * 1.6) ** 2 * view.px_per_mm2(geometry)
        cover = np.zeros_like(changed)
        for label in range(1, count):
            x, y, bw, bh, area = stats[label]
            edge = min(x, y) < self.edge or x + bw > w - self.edge or y + bh > h - self.edge
            if edge or area > large:
                cover[labels == label] = 1
        occluded = bool(cover.any())
        self._still = self._still + 1 if occluded and not moving else 0
        under = cv2.dilate(cover | blind.astype(np.uint8), np.ones((5, 5), np.uint8))
        seen = set(read)
        hidden = tuple(sorted(t for t, (x, y) in self._places.items() if t not in seen
                              and 0 <= int(y) < h and 0 <= int(x) < w and under[int(y), int(x)]))
        return occluded, occluded and self._still >= self.settle, hidden

    def blind(self, view: View, geometry: Geometry) -> tuple[np.ndarray, tuple[Blind, ...]]:
        """Saturated regions with at least `blind_mm2` outside the boxes: their mask (grown
        by a third of their size: the reflection's halo) and the zones they cover."""
        saturated = (view.image.min(axis=2) >= self.saturated).astype(np.uint8)
        if view.calibration is None or not saturated.any():
            return np.zeros(saturated.shape, bool), ()
        least = self.blind_mm2 * view.px_per_mm2(geometry)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(saturated)
        mask = np.zeros(saturated.shape, np.uint8)
        boxes = [z.rect for z in geometry.zones if z.rect is not None]
        centres = view.from_board(np.array([z.center for z in geometry.zones], np.float32))
        found = []
        for label in range(1, count):
            area = stats[label][cv2.CC_STAT_AREA]
            if area < least:
                continue
            ys, xs = np.nonzero(labels == label)
            board = view.to_board(np.stack([xs, ys], axis=1))
            in_box = np.zeros(len(xs), bool)
            for bx, by, bw, bh in boxes:
                in_box |= (board[:, 0] >= bx) & (board[:, 0] <= bx + bw) \
                    & (board[:, 1] >= by) & (board[:, 1] <= by + bh)
            if (~in_box).sum() < least:
                continue
            grow = max(3, round(np.sqrt(area / np.pi) * 0.66)) | 1
            region = cv2.dilate((labels == label).astype(np.uint8),
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
            mask |= region
            h, w = region.shape
            zones = tuple(sorted(z.id for z, (x, y) in zip(geometry.zones, centres, strict=True)
                                 if 0 <= int(y) < h and 0 <= int(x) < w
                                 and region[int(y), int(x)]))
            found.append(Blind((float(board[:, 0].min()), float(board[:, 1].min()),
                                float(board[:, 0].max()), float(board[:, 1].max())), zones))
        return mask.astype(bool), tuple(found)


def _evened(reference: np.ndarray, image: np.ndarray) -> np.ndarray:
    """`image` with each channel scaled so its median matches `reference`'s: a brighter or
    dimmer room, another white balance, are not a change."""
    ref = np.median(reference[::2, ::2].reshape(-1, 3), axis=0)
    now = np.median(image[::2, ::2].reshape(-1, 3), axis=0)
    evened: np.ndarray = image * (ref / np.maximum(now, 1.0))[None, None, :].astype(np.float32)
    return evened


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
    """The camera's height above the map measured with a tape (camera.yaml `height_mm`). The
    camera's pose from the corner markers gives the height and the point under the camera
    (`pose`); given, this height wins over the pose's: a tape is good to a centimetre however
    the camera points, while without a lens calibration the pose's height is only as good as
    the focal length the view's perspective fixes (refused beyond 10 %), and a person who
    measured it meant it. The point under the camera always comes from the pose when there is
    one."""
    motion_threshold: float = 0.02
    occlusion: Occlusion = field(default_factory=Occlusion)
    """Hands, arms and cards by change against the stable table; saturated regions."""
    pose: Pose | None = None
    """The camera's pose from the corner markers (`vision.pose`), re-estimated with the board
    and kept, like it, while a hand covers a marker."""
    rectify_above: float = 1.6
    """A camera at the table's edge (issue #33) sees the far tags flattened: where the board's
    scale in the frame differs by more than this between two directions (1 / cos of the
    viewing angle: 1.6 is 51 degrees), the frame is also read rectified, the board redrawn
    as seen from above (`_rectified`), so that those tags are squares again; 0: never."""
    _previous: np.ndarray | None = None
    _raw_calibration: Calibration | None = None
    _no_pose: str = "no frame read yet"

    def read(self, frame: np.ndarray) -> Reading:
        reads = raw = self.detector.detect(frame)
        if self.intrinsics is not None:
            lens = self.intrinsics
            reads = [TagRead(r.id, lens.undistort(r.corners), r.hamming, r.margin)
                     for r in reads]
        try:
            self.calibration = calibrate(self.geometry, reads)
        except BoardNotFound:
            if self.calibration is None:
                return Reading({}, (), (), False, self._motion(frame))
        assert self.calibration is not None
        if self.intrinsics is None and self.rectify_above:
            reads = raw = self._rectified(frame, reads)
        self._estimate_pose(reads, (frame.shape[1], frame.shape[0]))
        view = self.occlusion.view(frame, {r.id: r.center for r in raw}, self._in_pixels(raw))
        blind_mask, blind = self.occlusion.blind(view, self.geometry)
        moving = self._motion(frame, blind_mask)
        occluded, settled, hidden = self.occlusion.judge(
            view, self.geometry, moving, (r.id for r in reads), blind_mask)
        zones: dict[int, str] = {}
        positions: dict[int, tuple[float, float]] = {}
        outside, unknown = [], []
        parallax = self._parallax(frame)
        standing = self._standing(parallax)
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
        return Reading(zones, tuple(sorted(outside)), tuple(sorted(unknown)), True,
                       moving or (occluded and not settled), positions, occluded, hidden, blind,
                       view, parallax)

    def _rectified(self, frame: np.ndarray, reads: list[TagRead]) -> list[TagRead]:
        """`reads` and the tags read on the board rectified, when the view is oblique enough
        (`rectify_above`): the frame warped to the board's plane at the largest scale the
        frame shows it at (no tag loses pixels; at most 12 MP), read again, and each tag
        found there only taken back to frame pixels. Tags on the pieces' tops lie in planes
        parallel to the map: rectified, they are squares too."""
        assert self.calibration is not None
        left, top, right, bottom = self.geometry.extent
        to_frame = np.linalg.inv(self.calibration.to_board)
        scales = [_scales(to_frame, x, y) for x in (left, right) for y in (top, bottom)]
        if max(big / max(small, 1e-9) for big, small in scales) <= self.rectify_above:
            return reads
        scale = min(max(big for big, _ in scales),
                    float(np.sqrt(12e6 / ((right - left) * (bottom - top)))))
        to_board_px = np.array([[scale, 0, -left * scale], [0, scale, -top * scale], [0, 0, 1]])
        size = (round((right - left) * scale), round((bottom - top) * scale))
        warp = to_board_px @ self.calibration.to_board
        board = cv2.warpPerspective(frame, warp, size, flags=cv2.INTER_LINEAR,
                                    borderValue=(0, 0, 0))
        back = np.linalg.inv(warp)
        found = {r.id for r in reads}
        added = [TagRead(r.id, cv2.perspectiveTransform(r.corners.reshape(-1, 1, 2)
                                                        .astype(np.float32), back)
                         .reshape(-1, 2), r.hamming, r.margin)
                 for r in self.detector.detect(board) if r.id not in found]
        return [*reads, *added]

    def _in_pixels(self, raw: list[TagRead]) -> Calibration:
        """The board in the frame's own pixels, as the occlusion test compares them: with a
        lens calibration the tags' corners were undistorted, so the pixels of the (distorted)
        frame are placed from the raw reads; the last fit is kept while too few corners show."""
        assert self.calibration is not None
        if self.intrinsics is None:
            return self.calibration
        with contextlib.suppress(BoardNotFound):
            self._raw_calibration = calibrate(self.geometry, raw)
        return self._raw_calibration or self.calibration

    def _estimate_pose(self, reads: list[TagRead], size: tuple[int, int]) -> None:
        """The camera's pose from this frame's corner markers (undistorted `reads`), with the
        lens's camera matrix if there is one; kept from an earlier frame when it cannot be
        estimated here (a hand over a marker), and the reason noted for the fallback."""
        if not self.geometry.block_height_mm:
            return  # flat tags: nothing to correct, no need for the pose
        lens = None if self.intrinsics is None else self.intrinsics.matrix
        try:
            self.pose = camera_pose(self.geometry, reads, size, lens)
        except PoseNotFound as why:
            self._no_pose = str(why)

    def _parallax(self, frame: np.ndarray) -> Parallax:
        """This frame's point under the camera and camera height: from the pose (the height
        given explicitly wins, see `camera_height_mm`); without a pose, as before the pose
        was estimated: the board point at the frame's centre, and the given height if any."""
        assert self.calibration is not None
        given = self.camera_height_mm or None
        if self.pose is not None:
            height = given or self.pose.height_mm
            source = "measured" if given else "from the pose"
            return Parallax(self.pose.under, height,
                            f"the camera's pose from the corner markers ({self.pose.source}); "
                            f"camera height {height:.0f} mm {source}", self.pose)
        under = self.calibration.board_point(frame.shape[1] / 2, frame.shape[0] / 2)
        if given is None:
            return Parallax(under, None, f"no camera pose ({self._no_pose}) and no camera "
                                         "height: tags placed where they are seen")
        return Parallax(under, given, f"no camera pose ({self._no_pose}): the point under the "
                                      f"camera taken at the frame's centre, camera height "
                                      f"{given:.0f} mm measured")

    def _standing(self, parallax: Parallax) -> Callable[[float, float], tuple[float, float]]:
        """Frame pixel of a tag -> board mm of the block it stands on. The tag stands
        `block_height_mm` up, so it is seen pushed away from the point under the camera by
        height / (camera - height): taken back towards it by (camera - height) / camera."""
        assert self.calibration is not None
        to_board = self.calibration.board_point
        height = self.geometry.block_height_mm
        if not parallax.height_mm or not height:
            return to_board
        nx, ny = parallax.under
        k = (parallax.height_mm - height) / parallax.height_mm

        def standing(x: float, y: float) -> tuple[float, float]:
            sx, sy = to_board(x, y)
            return nx + (sx - nx) * k, ny + (sy - ny) * k

        return standing

    def _motion(self, frame: np.ndarray, blind: np.ndarray | None = None) -> bool:
        """Hands over the board: a large share of a reduced frame changed since the last
        (a reflection coming or going, in `blind`, is not motion)."""
        thumb = _thumbnail(frame, 160)
        small = cv2.blur(to_grey(thumb), (3, 3)).astype(np.int16)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return False
        changed = np.abs(small - previous) > 25
        if blind is not None and blind.any():
            changed &= cv2.resize(blind.astype(np.uint8), (small.shape[1], small.shape[0]),
                                  interpolation=cv2.INTER_NEAREST) == 0
        return bool(changed.mean() > self.motion_threshold)


def _scales(to_frame: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """Frame pixels per board millimetre at board point (x, y), in the direction the board
    is seen largest and the one it is seen smallest (the homography's local Jacobian's
    singular values)."""
    p = to_frame @ np.array([x, y, 1.0])
    jacobian = (to_frame[:2, :2] * p[2] - np.outer(p[:2], to_frame[2, :2])) / p[2] ** 2
    big, small = np.linalg.svd(jacobian, compute_uv=False)
    return float(big), float(small)


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
        zones = self._with_grace(self._zones(reading), reading.hidden)
        if AMBIGUOUS in zones.values():
            self._history.clear()
            return None
        self._history = [*self._history[-(self.agree - 1):], zones]
        if len(self._history) < self.agree or any(h != zones for h in self._history):
            return None
        previous = self.stable
        self.stable = TableSnapshot(zones, 1.0)
        if reading.view is not None:  # the reader compares the next frames with this one
            reading.view.keep(zones)
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

    def _with_grace(self, zones: dict[int, str], hidden: Iterable[int] = ()) -> dict[int, str]:
        """Tags of the stable table not read: hidden ones are there (something covers them,
        or the camera cannot see there), others for `grace` frames (flicker)."""
        if self.stable is None:
            return zones
        covered = set(hidden)
        for tag, where in self.stable.zones.items():
            if tag in zones:
                self._missing.pop(tag, None)
            elif tag in covered:
                self._missing.pop(tag, None)
                zones[tag] = where  # hidden, not gone
            elif self._missing.get(tag, 0) < self.grace:
                self._missing[tag] = self._missing.get(tag, 0) + 1
                zones[tag] = where  # flickered out for a frame: still there
        return zones


def _diff(before: Mapping[int, str], after: Mapping[int, str]) -> TableDiff:
    moved = {t: (before[t], after[t]) for t in before if t in after and before[t] != after[t]}
    appeared = {t: z for t, z in after.items() if t not in before}
    gone = {t: z for t, z in before.items() if t not in after}
    return TableDiff(moved, appeared, gone)
