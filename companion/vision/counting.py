"""Rumble Nation soldiers counted per region and colour, and the dice read, from one frame.

The board's pose comes from its four corner markers (`table.calibrate`, as for Sekigahara);
the frame is then warped to a top view in board millimetres, where a soldier is a small square
of known area. Colours are told apart by hue where they are vivid (chroma, not saturation:
chroma survives the additive glare of a lamp) and by darkness against the board around them
for black (a morphological closing estimates that board, so uneven light and glare cancel).
Touching soldiers of one colour merge into one clump; a clump counts as its area divided by one
soldier's area, measured at half its contrast so that blur neither adds nor removes area. Vision
knows colours and zones only: what a count means is the referee's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from companion.vision.detect import DetectorConfig, TagDetector, TagRead
from companion.vision.dice import DiceReading, read_dice
from companion.vision.geometry import Geometry, Zone
from companion.vision.table import BoardNotFound, Calibration, calibrate

__all__ = ["BoardNotFound", "RumbleBoard", "RumbleReader", "RumbleReading", "SoldierColour",
           "count_soldiers", "soldier_clumps"]

TOP_PX_PER_MM = 2.0
"""Resolution of the top view soldiers are counted in: a cube of 8 mm is 16 x 16 pixels."""
TRAY_PX_PER_MM = 6.0
"""Resolution of the dice tray's view: a 3 mm pip is 18 pixels wide (before blur)."""


@dataclass(frozen=True)
class SoldierColour:
    """A player's colour: a hue range (OpenCV degrees, 0-180, may wrap), or dark (black)."""

    name: str
    hue: tuple[int, int] | None

    def candidates(self, hue: np.ndarray, chroma: np.ndarray, darkness: np.ndarray,
                   board: RumbleBoard) -> np.ndarray:
        """Pixels that may belong to a soldier of this colour (a generous first cut)."""
        if self.hue is None:
            return (darkness > board.dark_min * 0.6) & (chroma < board.chroma_min)
        low, high = self.hue
        inside = (hue >= low) & (hue <= high) if low <= high else (hue >= low) | (hue <= high)
        return inside & (chroma > board.chroma_min * 0.8)


@dataclass(frozen=True)
class RumbleBoard:
    """The table's geometry (`calibration/rumble_nation/board.yaml`) and the kit's regions."""

    geometry: Geometry
    regions: tuple[Zone, ...]
    tray: Zone
    cube_mm: float
    reach_mm: float
    min_share: float
    chroma_min: float
    dark_min: float
    colours: tuple[SoldierColour, ...]
    die_mm: float
    pip_mm: float
    dice: int

    @classmethod
    def load(cls, kit: Any = None, path: Path | None = None) -> RumbleBoard:
        """The Rumble Nation table from its calibration file and the shipped kit by default."""
        if kit is None:
            from companion.kits import load_kit

            kit = load_kit("rumble_nation")
        if path is None:
            from companion.userdata import board_file

            path = board_file(kit.game)
        geometry = Geometry.load(kit, path)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        soldiers, dice = data["soldiers"], data["dice"]
        colours = tuple(SoldierColour(name, None if spec.get("dark") else
                                      (int(spec["hue"][0]), int(spec["hue"][1])))
                        for name, spec in soldiers["colours"].items())
        return cls(geometry, tuple(z for z in geometry.zones if z.radius is not None),
                   geometry.zone("dice_tray"), float(soldiers["cube_mm"]),
                   float(soldiers["reach_mm"]), float(soldiers["min_share"]),
                   float(soldiers["chroma_min"]), float(soldiers["dark_min"]), colours,
                   float(dice["die_mm"]), float(dice["pip_mm"]), int(dice["count"]))

    def patch_rect(self, zone: Zone) -> tuple[float, float, float, float]:
        """The square (mm: left, top, width, height) the camera's view of `zone` is cut to:
        its circle, the reach, and a margin for the board light's estimate."""
        half = (zone.radius or 0) + self.reach_mm + 4
        return zone.center[0] - half, zone.center[1] - half, 2 * half, 2 * half

    def region_at(self, x: float, y: float) -> str | None:
        """The region whose centre is nearest to board point (x, y), if within reach."""
        best = min(self.regions, key=lambda z: z.distance(x, y))
        assert best.radius is not None
        return best.id if best.distance(x, y) <= best.radius + self.reach_mm else None


@dataclass(frozen=True)
class RumbleReading:
    """One frame: soldiers per region per colour (every region and colour listed), the dice."""

    counts: Mapping[str, Mapping[str, int]]
    dice: DiceReading
    calibration: Calibration


def soldier_clumps(board: RumbleBoard, patch: np.ndarray, zone: Zone,
                   px_per_mm: float = TOP_PX_PER_MM) -> dict[str, list[float]]:
    """The areas (mm^2) of each colour's clumps of soldiers in `zone`, from `patch`: a top
    view of the square around the zone's circle (`patch_rect`). Clumps nearer another
    region's centre are that region's, and only what lies within reach of the circle is
    looked at (the board's edge, its lines and names lie beyond)."""
    smooth = cv2.GaussianBlur(patch, (0, 0), 0.8)
    b, g, r = cv2.split(smooth)
    value = cv2.max(cv2.max(b, g), r)
    chroma = cv2.subtract(value, cv2.min(cv2.min(b, g), r)).astype(np.int16)
    hue = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)[:, :, 0]
    darkness = _board_light(value, px_per_mm, board.cube_mm) - value.astype(np.int16)
    board_chroma = float(np.median(chroma))
    smallest = board.cube_mm ** 2 * board.min_share * px_per_mm ** 2
    left, top, _, _ = board.patch_rect(zone)
    disc = np.zeros(value.shape, np.uint8)
    cv2.circle(disc, (value.shape[1] // 2, value.shape[0] // 2),
               round(((zone.radius or 0) + board.reach_mm) * px_per_mm), 1, -1)
    found = {}
    for colour in board.colours:
        strength = darkness if colour.hue is None else chroma - board_chroma
        mask = colour.candidates(hue, chroma, darkness, board).astype(np.uint8) & disc
        least = board.dark_min if colour.hue is None else board.chroma_min
        found[colour.name] = [
            area / px_per_mm ** 2 for (x, y), area in _clumps(mask, strength, smallest, least)
            if board.region_at(left + x / px_per_mm, top + y / px_per_mm) == zone.id]
    return found


def count_soldiers(board: RumbleBoard,
                   clumps: Mapping[str, Mapping[str, list[float]]]) -> dict[str, dict[str, int]]:
    """Soldiers per region and colour from the clumps' areas (region -> colour -> mm^2): each
    clump is its area over one soldier's, as seen in this frame (`_lone_soldier`)."""
    counts: dict[str, dict[str, int]] = {region: {} for region in clumps}
    for colour in board.colours:
        areas = [a for found in clumps.values() for a in found[colour.name]]
        one = _lone_soldier(areas, board.cube_mm ** 2)
        for region, found in clumps.items():
            counts[region][colour.name] = sum(round(a / one) for a in found[colour.name])
    return counts


def _lone_soldier(areas: list[float], unit: float) -> float:
    """The area one soldier of a colour covers in this frame: the median of the clumps near
    the nominal area, when there are two or more, else the nominal area. Lighting, blur and
    the sides a camera sees make a soldier look a few per cent larger or smaller, enough to
    turn six touching soldiers into seven."""
    lone = sorted(a for a in areas if 0.7 * unit <= a <= 1.4 * unit)
    return float(np.median(lone)) if len(lone) >= 2 else unit


def _clumps(mask: np.ndarray, strength: np.ndarray, smallest: float,
            least: float) -> list[tuple[tuple[float, float], float]]:
    """Each connected clump's centre and area in pixels, the area taken at half the clump's
    own contrast (the median of `strength` over it): a blurred edge is then split evenly.
    Clumps of less contrast than `least` (drawn lines, text, shading) are not soldiers."""
    found, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    result = []
    for label in range(1, found):
        if stats[label, cv2.CC_STAT_AREA] < smallest / 2:
            continue
        x, y, w, h = stats[label, :4]
        inside = labels[y:y + h, x:x + w] == label
        values = strength[y:y + h, x:x + w][inside]
        contrast = float(np.percentile(values, 50))
        if contrast < least:
            continue
        area = float(np.count_nonzero(values > contrast / 2))
        if area >= smallest:
            result.append(((float(centres[label][0]), float(centres[label][1])), area))
    return result


def _board_light(value: np.ndarray, px_per_mm: float, cube_mm: float) -> np.ndarray:
    """How bright the bare board would be at each pixel: a closing (dark things up to six
    soldiers wide removed) on a reduced copy, smoothed, enlarged back."""
    scale = 0.5 / px_per_mm
    small = cv2.resize(value, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    side = max(3, round(6 * cube_mm * 0.5)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    closed = cv2.GaussianBlur(cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel), (0, 0), 2.0)
    light = cv2.resize(closed, (value.shape[1], value.shape[0]), interpolation=cv2.INTER_LINEAR)
    return light.astype(np.int16)


def _view(frame: np.ndarray, calibration: Calibration, rect: tuple[float, float, float, float],
          px_per_mm: float) -> np.ndarray:
    """The board rectangle `rect` (mm: left, top, width, height) seen from straight above."""
    left, top, width, height = rect
    to_view = np.array([[px_per_mm, 0, -left * px_per_mm], [0, px_per_mm, -top * px_per_mm],
                        [0, 0, 1]], np.float64)
    size = (round(width * px_per_mm), round(height * px_per_mm))
    return cv2.warpPerspective(frame, to_view @ calibration.to_board, size,
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@dataclass
class RumbleReader:
    """Reads frames of a Rumble Nation table: board pose, soldiers, dice."""

    board: RumbleBoard
    detector: TagDetector = field(default_factory=lambda: TagDetector(DetectorConfig(
        max_side=1280)))
    """Only the four 40 mm corner markers are looked for: still 40 pixels wide in a frame
    reduced to 1280 pixels, and found there in a fraction of the time."""

    def read(self, frame: np.ndarray) -> RumbleReading:
        """Raises BoardNotFound (saying how many corner markers were seen) when the board
        cannot be placed, and ValueError for a frame that is not a colour image."""
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError(f"expected a BGR colour frame, got an array of shape {frame.shape}")
        calibration = calibrate(self.board.geometry, self.board_reads(frame))
        clumps = {zone.id: soldier_clumps(self.board, self.region_view(frame, calibration, zone),
                                          zone) for zone in self.board.regions}
        assert self.board.tray.rect is not None
        tray = _view(frame, calibration, self.board.tray.rect, TRAY_PX_PER_MM)
        dice = read_dice(tray, TRAY_PX_PER_MM, self.board.die_mm, self.board.pip_mm,
                         self.board.dice)
        return RumbleReading(count_soldiers(self.board, clumps), dice, calibration)

    def region_view(self, frame: np.ndarray, calibration: Calibration,
                    zone: Zone) -> np.ndarray:
        """The top view of `zone`'s square (`RumbleBoard.patch_rect`) soldiers are counted in."""
        return _view(frame, calibration, self.board.patch_rect(zone), TOP_PX_PER_MM)

    def board_reads(self, frame: np.ndarray) -> list[TagRead]:
        """The corner markers only: soldiers and dice carry no tags."""
        return [r for r in self.detector.detect(frame) if r.id in self.board.geometry.corners]
