"""Hands, arms and cards over a table of counted pieces, told by change, not by colour (issue #19).

Readers that count pieces by colour (Rumble Nation's soldiers, Shogun's cubes) read every frame
as if the table were still. A skin-colour rule cannot tell them a hand is there: skin shares
its hue with red pieces, red map art and cards, warm light and a dim room's gain push the table
into the skin band, and skin tones outside the band go unseen. So `ChangeWatch` keeps a
reference of the still table (reduced, blurred, its brightness and white balance evened out
against each new frame) and looks at what differs from it:

- a region of change that enters from the frame's edge or the table extent's edge (an arm
  reaches in from beyond the table), or that is larger than any pieces put down in one place
  could be, is something over the table, whatever its colour;
- smaller regions are the table changing (pieces put down, taken away): the counter reads them;
- most of the table changed a little is the light (a lamp switched on, a cloud), not a hand.

The reference is renewed only when the frame has been still for a few frames and nothing is
over the table: a hand resting on the board stays a hand for as long as it rests. Something
lying still over the table for very long (`adopt` frames: a card left on the map) becomes part
of the table, so that the game does not stall. The sensor's noise is measured at set-up, from
the first still pairs of frames, and the change threshold kept above it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.geometry import Geometry
from companion.vision.table import Calibration

__all__ = ["ChangeWatch", "Extent", "Watched", "evened", "reduced"]


@dataclass(frozen=True, eq=False)
class Extent:
    """Where the table is in the frame: its extent's corners (frame pixels) and its area."""

    corners: np.ndarray
    area_mm2: float

    @classmethod
    def of(cls, geometry: Geometry, calibration: Calibration) -> Extent:
        """The geometry's extent (board, tray and margins) as the calibration places it."""
        left, top, right, bottom = geometry.extent
        corners = [calibration.frame_point(x, y)
                   for x, y in ((left, top), (right, top), (right, bottom), (left, bottom))]
        return cls(np.array(corners, np.float32), (right - left) * (bottom - top))


@dataclass(frozen=True)
class Watched:
    """One frame's verdict."""

    moving: bool
    """The frame differs from the last one: something is moving."""
    over: bool
    """Something that is not pieces (a hand, an arm, a card) differs from the still table."""
    light: bool
    """Most of the table changed a little since the reference: the light, not a hand."""
    changed: float = 0.0
    """The share of the table that differs from the reference."""

    @property
    def trusted(self) -> bool:
        return not (self.moving or self.over or self.light)


def reduced(frame: np.ndarray, width: int, blur: float) -> np.ndarray:
    """The frame at `width` pixels, blurred, in floating point: every n-th pixel down to
    about twice the width (copying more of a 12 MP frame costs more than all the rest), then
    averaged and blurred, which lowers the sensor's noise well under the change threshold."""
    step = max(1, frame.shape[1] // (width * 2))
    sampled = np.ascontiguousarray(frame[::step, ::step])
    if sampled.ndim == 2:
        sampled = cv2.cvtColor(sampled, cv2.COLOR_GRAY2BGR)
    height = max(1, round(sampled.shape[0] * width / sampled.shape[1]))
    small = cv2.resize(sampled, (width, height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small.astype(np.float32), (0, 0), blur)


def evened(reference: np.ndarray, image: np.ndarray) -> np.ndarray:
    """`image` with each channel scaled so that its median matches `reference`'s: a brighter
    or dimmer room, another white balance, are not a change. (`vision.table` has the same
    step, private to its tag reader; this one is for readers without tags.)"""
    ref = np.median(reference[::2, ::2].reshape(-1, 3), axis=0)
    now = np.median(image[::2, ::2].reshape(-1, 3), axis=0)
    scaled: np.ndarray = image * (ref / np.maximum(now, 1.0))[None, None, :].astype(np.float32)
    return scaled


def difference(before: np.ndarray, image: np.ndarray) -> np.ndarray:
    """Per pixel, the largest channel's difference once the light is evened out."""
    found: np.ndarray = np.abs(evened(before, image) - before).max(axis=2)
    return found


def robust_sigma(change: np.ndarray, inside: np.ndarray) -> float:
    """The spread of a still pair's difference, robust to a few pixels that did change."""
    return float(np.median(change[inside])) * 1.4826 if inside.any() else 0.0


def touching(mask: np.ndarray, border: np.ndarray, largest_px: float) -> np.ndarray:
    """The regions of `mask` that reach `border` or are larger than `largest_px`."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                               connectivity=8)
    keep = np.zeros(count, bool)
    if count > 1:
        reach = np.bincount(labels[border], minlength=count) > 0
        keep = reach | (stats[:, cv2.CC_STAT_AREA] > largest_px)
        keep[0] = False
    found: np.ndarray = keep[labels]
    return found


@dataclass
class ChangeWatch:
    """Hands and arms over the table by change against the still table (see the module)."""

    largest_mm2: float = 5000.0
    """The largest change pieces put down or taken away in one place can make (the reader
    knows its pieces and regions); a hand is 7000 mm2 or more, with its arm far more."""
    width: int = 256
    """The reduced frame's width: a hand is 20 pixels or more across."""
    blur: float = 1.0
    floor: float = 14.0
    """The least difference (grey levels, light evened out) that counts as a change."""
    noise_factor: float = 6.0
    """A change is also at least this many times the still pairs' noise measured at set-up
    (a dim room's gain: the larger of the two)."""
    motion_share: float = 0.02
    """A frame with more than this share of the table changed since the last is moving."""
    light_share: float = 0.5
    """More than this share of the table changed a little (half the change threshold) since
    the reference: the light changed."""
    edge: int = 2
    """Reduced pixels within the frame's or the table extent's edge: a region there enters."""
    still: int = 2
    """Frames in a row without motion, nothing over the table, before the reference is
    renewed (the first frame has nothing to compare with: it is the first reference)."""
    adopt: int = 40
    """Still frames with the same thing over the table after which it is taken as part of the
    table (a card left on the map): a hand is never that still for that long."""
    setup: int = 4
    """Still pairs of frames the noise is measured on, at the start only: a noisy pair later
    (the camera knocked) must not raise the threshold for the rest of the game."""
    moved_px: float = 1.5
    """The table's corners moved this far (reduced pixels) since the reference: the camera
    moved, and the reference is taken again once the frame is still."""
    noise: float = 0.0
    reference: np.ndarray | None = field(default=None, repr=False)
    _extent: Extent | None = field(default=None, repr=False)
    _at: np.ndarray | None = field(default=None, repr=False)
    _last: np.ndarray | None = field(default=None, repr=False)
    _pairs: int = 0
    _still: int = 0
    _resting: int = 0

    @property
    def level(self) -> float:
        """The difference that counts as a change."""
        return max(self.floor, self.noise_factor * self.noise)

    def see(self, frame: np.ndarray, extent: Extent | None = None) -> Watched:
        """This frame's verdict; `extent` places the table (kept from an earlier frame when
        None: the board may be covered)."""
        image = reduced(frame, self.width, self.blur)
        scale = self.width / frame.shape[1]
        self._place(extent, scale)
        inside, border = self._table(image.shape[:2], scale)
        last, self._last = self._last, image
        moving = last is not None and last.shape == image.shape \
            and self._moving(last, image, inside)
        if self.reference is None or self.reference.shape != image.shape:
            return self._renew(image, moving, Watched(moving, False, False))
        change = difference(self.reference, image)
        share = float((change[inside] > self.level).mean()) if inside.any() else 0.0
        if float((change[inside] > self.level / 2).mean()) > self.light_share:
            return self._renew(image, moving, Watched(moving, False, True, share))
        changed = cv2.morphologyEx(((change > self.level) & inside).astype(np.uint8),
                                   cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        over = bool(touching(changed, border, self._largest_px(scale)).any())
        return self._renew(image, moving, Watched(moving, over, False, share))

    def _moving(self, last: np.ndarray, image: np.ndarray, inside: np.ndarray) -> bool:
        """Changed since the last frame; at set-up, a still pair measures the noise."""
        change = difference(last, image)
        if not inside.any():
            return False
        moving = float((change[inside] > self.level).mean()) > self.motion_share
        if not moving and self._pairs < self.setup:
            self.noise = max(self.noise, robust_sigma(change, inside))
            self._pairs += 1
        return moving

    def _renew(self, image: np.ndarray, moving: bool, seen: Watched) -> Watched:
        """Take `image` as the still table when it has been still `still` frames with
        nothing over it (or `adopt` frames with the same thing over it)."""
        self._still = 0 if moving else self._still + 1
        self._resting = self._resting + 1 if seen.over and not moving else 0
        first = self.reference is None and not moving
        if first or (self._still >= self.still and not seen.over) \
                or self._resting >= self.adopt:
            self.reference, self._resting = image, 0
            self._at = None if self._extent is None else self._extent.corners.copy()
        return seen

    def _place(self, extent: Extent | None, scale: float) -> None:
        """Keep the table's extent; drop the reference when the camera moved."""
        if extent is None:
            return
        self._extent = extent
        if self._at is not None and self.reference is not None \
                and float(np.abs(extent.corners - self._at).max()) * scale > self.moved_px:
            self.reference = None  # wait for a still frame to take it again

    def _table(self, shape: tuple[int, ...], scale: float) -> tuple[np.ndarray, np.ndarray]:
        """The table's pixels (the extent, a little inside its outline, whose contrast is
        not a change; the whole frame when the board was never placed) and its border."""
        h, w = shape[:2]
        frame = np.zeros((h, w), np.uint8)
        frame[self.edge:h - self.edge, self.edge:w - self.edge] = 1
        if self._extent is None:
            return np.ones((h, w), bool), frame == 0
        mask = np.zeros((h, w), np.uint8)
        corners = np.round(self._extent.corners * scale).astype(np.int32)
        cv2.fillConvexPoly(mask, corners, 1)
        inside = (cv2.erode(mask, np.ones((3, 3), np.uint8)) > 0) & (frame > 0)
        core = cv2.erode(inside.astype(np.uint8),
                         np.ones((2 * self.edge + 1, 2 * self.edge + 1), np.uint8))
        return inside, inside & (core == 0)

    def _largest_px(self, scale: float) -> float:
        """`largest_mm2` in reduced pixels; no size rule before the board was ever placed
        (the scale is unknown): then only the edge tells."""
        if self._extent is None:
            return float("inf")
        area = float(cv2.contourArea(self._extent.corners)) * scale ** 2
        return self.largest_mm2 * area / self._extent.area_mm2
