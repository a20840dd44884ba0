"""Pieces counted per region and colour from one frame, for pieces that carry no tags (cubes,
meeples): colours, pieces and regions are data, read from a board's calibration file.

A `CountingBoard` comes from a `board.yaml`: the corner markers and regions (`geometry.py`),
the unit piece's size, the player colours, and optionally a large piece in a player's colour
(round and bigger than the unit), a neutral piece (white, in nobody's colour), a dice tray, and
a tray whose pieces are counted by colour as a region's are (where a tower drops the cubes
thrown into it). Nothing here knows which game that is; what a count means is the referee's
business (`CountingBoard.kinds` only names a colour's pieces for it).

Per frame, the board's pose comes from its corner markers (`table.calibrate`), and the white
paper around them tells the light's colour and level (`colour.py`): each region's top view
(2 px/mm) is brought back to white light before anything in it is measured, so that a warm
lamp or a dim room read as daylight does. Then, in each region:

- colours: vivid ones by hue where chroma (max - min of B, G, R) is high, chroma surviving
  the additive glare of a lamp; dark ones by darkness against the board around them (a
  morphological closing estimates that board, so uneven light cancels); the neutral white by
  brightness above the board, with less chroma than the printed board has;
- count by area: touching pieces of one colour merge into one clump, and a clump counts as its
  area over one unit's, the area taken at half the clump's own contrast so that blur neither
  adds nor removes any; the unit's area is measured in the frame itself (or, with too few lone
  pieces of a colour there, is the one the colour calibration measured: `PieceColour.area`);
- large pieces: a round core of the large piece's radius inside a clump (the peak of its
  distance transform) is one; its disc is taken out of the clump before the rest is counted;
- doubt: a region is doubtful, and says why, when a clump is far from a whole number of pieces
  (two pieces overlapping, one half hidden), when something reaches into it from beyond (a
  hand, a sleeve), when a core is neither plainly a large piece nor plainly not, when glare
  leaves the board too bright to see a white piece on, or when the frame is too dark. Its
  counts are still given, as the best guess; the referee asks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from companion.vision.colour import DARKEST, WHITE_LEVEL, WhiteReference, balance, measure_white
from companion.vision.detect import DetectorConfig, TagDetector, TagRead
from companion.vision.dice import DiceReading, read_dice
from companion.vision.geometry import Geometry, Zone
from companion.vision.table import BoardNotFound, Calibration, calibrate

__all__ = ["TOP_PX_PER_MM", "TRAY_PX_PER_MM", "BoardNotFound", "Clump", "CountReading",
           "CountingBoard", "CountingReader", "DoubtLimits", "LargePiece", "NeutralPiece",
           "PieceColour", "RegionPieces", "board_tint", "count_soldiers", "piece_mask",
           "read_region", "soldier_clumps", "tally"]

TOP_PX_PER_MM = 2.0
"""Resolution of the top view pieces are counted in: a cube of 8 mm is 16 x 16 pixels."""
TRAY_PX_PER_MM = 6.0
"""Resolution of the dice tray's view: a 3 mm pip is 18 pixels wide (before blur)."""
_MARGIN_MM = 4.0
"""Board around a region's reach (or an area's rectangle) in its view: for the light's estimate."""


@dataclass(frozen=True)
class PieceColour:
    """A player's colour: a hue range (OpenCV degrees, 0-180, may wrap), or dark (black).
    `reference` is the colour (BGR, under white light) it was learned from, when it was."""

    name: str
    hue: tuple[int, int] | None
    reference: tuple[int, int, int] | None = None
    area: float | None = None
    """A lone piece's area (mm^2) as `read_region` measures it, learned by the colour
    calibration: a colour whose hue is opposite the board's loses its blurred edge (the blend
    of the two is grey), and looks a fifth smaller than the cube is. The unit for a frame
    showing too few lone pieces of the colour (`_lone_piece`); the cube's area when unknown."""

    @classmethod
    def from_spec(cls, name: str, spec: Mapping[str, Any]) -> PieceColour:
        """A calibration file's `colours:` entry (`hue` or `dark`, and `bgr`, `area`)."""
        reference = spec.get("bgr")
        area = spec.get("area")
        return cls(str(name), None if spec.get("dark") else _pair(spec["hue"]),
                   None if reference is None else
                   (int(reference[0]), int(reference[1]), int(reference[2])),
                   None if area is None else float(area))

    def candidates(self, hue: np.ndarray, chroma: np.ndarray, darkness: np.ndarray,
                   board: CountingBoard) -> np.ndarray:
        """Pixels that may belong to a piece of this colour (a generous first cut)."""
        if self.hue is None:
            return (darkness > board.dark_min * 0.6) & (chroma < board.chroma_min)
        low, high = self.hue
        inside = (hue >= low) & (hue <= high) if low <= high else (hue >= low) | (hue <= high)
        return inside & (chroma > board.chroma_min * 0.8)


@dataclass(frozen=True)
class LargePiece:
    """A round piece in a player's colour, larger than the unit (a leader): `core` is the range
    of its measured inner radius, as shares of its radius, that makes a core one."""

    name: str
    diameter_mm: float
    core: tuple[float, float] = (0.85, 1.2)
    doubt: float = 0.07
    """A core within this share of the radius outside `core` is doubtful, not decided."""


@dataclass(frozen=True)
class NeutralPiece:
    """White pieces of the unit's size and in nobody's colour: brighter than the board by
    `light_min` (white paper at 255) with less chroma than `chroma_max`."""

    name: str
    light_min: float
    chroma_max: float
    edge_chroma: float = 75.0
    """Where a white piece touches a coloured one, blended pixels up to this chroma are the
    white piece's (about half way to the least colourful piece colour)."""


@dataclass(frozen=True)
class DoubtLimits:
    """When a region's reading is doubtful (see the module's docstring)."""

    fit: float = 0.3
    """A clump farther than this from a whole number of pieces (in pieces)."""
    foreign: float = 50.0
    """Colour difference (BGR less its grey, so glare does not count) from the board's that
    marks a pixel as something that is not board."""
    intrusion_mm: float = 6.0
    """Something reaching in: touching the outer edge of the region's reach over at least this
    many millimetres, and reaching inside its circle by half a piece."""
    hue: float = 5.0
    """A clump whose hue is this far (OpenCV degrees) from its colour's learned hue..."""
    pale: float = 0.8
    """...and whose chroma is under this share of the learned chroma is unlike its pieces."""


@dataclass(frozen=True)
class CountingBoard:
    """A table's geometry, pieces and colours (a game's `calibration/board.yaml`)."""

    geometry: Geometry
    regions: tuple[Zone, ...]
    tray: Zone
    cube_mm: float
    reach_mm: float
    min_share: float
    chroma_min: float
    dark_min: float
    colours: tuple[PieceColour, ...]
    die_mm: float
    pip_mm: float
    dice: int
    """Dice read in the tray (0: the tray holds no dice)."""
    large: LargePiece | None = None
    neutral: NeutralPiece | None = None
    doubt: DoubtLimits = DoubtLimits()
    spots: Mapping[str, str] = field(default_factory=dict)
    """Colour -> region where the colour calibration asks for one piece of that colour."""
    seam: float = 0.0
    """The share of a piece's area the seam between two touching pieces adds to their clump
    (blur fills the hairline gap between them): n touching pieces cover n + seam * (n - 1)."""
    source: Path | None = None
    """The calibration file this board was read from."""
    tray_counted: bool = False
    """Whether the tray's pieces are counted by colour (`CountReading.tray`), as a region's are
    but over the tray's whole rectangle: pieces fall against its rim."""
    kinds: Mapping[str, str] = field(default_factory=dict)
    """Colour -> what the game calls its pieces, for a colour that is not a player's (green
    cubes may be farmers); a colour not listed is called by its name."""

    @classmethod
    def load(cls, kit: Any = None, path: Path | None = None) -> CountingBoard:
        """The table in `path` (by default the user's calibration of `kit`'s game, else the
        game's own; see `companion.userdata.board_file`), with the regions of `kit` (by
        default the kit of the game the file names). Raises TypeError when given neither."""
        if kit is None and path is None:
            raise TypeError("CountingBoard.load needs the kit or the board file")
        if path is None:
            from companion.userdata import board_file

            path = board_file(kit.game)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if kit is None:
            from companion.kits import load_kit

            kit = load_kit(data["game"])
        return cls.from_data(Geometry.load(kit, path), data, path)

    @classmethod
    def from_data(cls, geometry: Geometry, data: Mapping[str, Any],
                  source: Path | None = None) -> CountingBoard:
        """The board from a calibration file's contents (`pieces:`, or `soldiers:` as files
        written before large and neutral pieces were counted call it). Without `dice:` no dice
        are read; `tray:` names the tray's area (`dice_tray` by default) and whether its
        pieces are `counted`."""
        pieces, dice = data.get("pieces") or data["soldiers"], data.get("dice") or {}
        tray = data.get("tray") or {}
        colours = tuple(PieceColour.from_spec(name, spec)
                        for name, spec in pieces["colours"].items())
        large = pieces.get("large")
        neutral = pieces.get("neutral")
        return cls(
            geometry, tuple(z for z in geometry.zones if z.radius is not None),
            geometry.zone(str(tray.get("area", "dice_tray"))), float(pieces["cube_mm"]),
            float(pieces["reach_mm"]),
            float(pieces["min_share"]), float(pieces["chroma_min"]), float(pieces["dark_min"]),
            colours, float(dice.get("die_mm", 0)), float(dice.get("pip_mm", 0)),
            int(dice.get("count", 0)),
            LargePiece(str(large["name"]), float(large["diameter_mm"]),
                       _pair(large.get("core", (0.85, 1.2))), float(large.get("doubt", 0.07)))
            if large else None,
            NeutralPiece(str(neutral["name"]), float(neutral["light_min"]),
                         float(neutral["chroma_max"]), float(neutral.get("edge_chroma", 75)))
            if neutral else None,
            DoubtLimits(**{k: float(v) for k, v in pieces.get("doubt", {}).items()}),
            spots={str(k): str(v) for k, v in pieces.get("calibration_spots", {}).items()},
            seam=float(pieces.get("seam", 0.0)), source=source,
            tray_counted=bool(tray.get("counted", False)),
            kinds={str(k): str(v) for k, v in pieces.get("kinds", {}).items()})

    @property
    def large_mm(self) -> float:
        """The large piece's diameter (ValueError when the board has none)."""
        if self.large is None:
            raise ValueError("this board's calibration names no large piece")
        return self.large.diameter_mm

    def colour(self, name: str) -> PieceColour:
        return next(c for c in self.colours if c.name == name)

    def unit(self, name: str | None) -> float:
        """A lone piece's expected area (mm^2) for colour `name` (None: the neutral piece):
        as the calibration learned it, else the cube's."""
        colour = next((c for c in self.colours if c.name == name), None)
        return colour.area if colour is not None and colour.area else self.cube_mm ** 2

    def patch_rect(self, zone: Zone) -> tuple[float, float, float, float]:
        """The square (mm: left, top, width, height) the camera's view of `zone` is cut to:
        its circle, the reach, and a margin for the board light's estimate; for an area (a
        rectangle zone: the tray), the rectangle and the margin."""
        if zone.rect is not None:
            left, top, width, height = zone.rect
            return (left - _MARGIN_MM, top - _MARGIN_MM, width + 2 * _MARGIN_MM,
                    height + 2 * _MARGIN_MM)
        half = (zone.radius or 0) + self.reach_mm + _MARGIN_MM
        return zone.center[0] - half, zone.center[1] - half, 2 * half, 2 * half

    def kind(self, colour: str) -> str:
        """What the game calls `colour`'s pieces (`kinds`; the colour's name by default)."""
        return self.kinds.get(colour, colour)

    def region_at(self, x: float, y: float) -> str | None:
        """The region whose centre is nearest to board point (x, y), if within reach."""
        best = min(self.regions, key=lambda z: z.distance(x, y))
        assert best.radius is not None
        return best.id if best.distance(x, y) <= best.radius + self.reach_mm else None


def _pair(values: Any) -> Any:
    first, second = values
    return (type(first)(first), type(second)(second))


@dataclass(frozen=True)
class Clump:
    """Touching pieces of one colour (or the neutral pieces, colour `None`) in one region:
    its centre (board mm), its area (mm^2, at half its contrast), and the area of the large
    piece found in it (0 when none)."""

    colour: str | None
    centre: tuple[float, float]
    area: float
    large: float = 0.0


@dataclass(frozen=True)
class RegionPieces:
    """What one region's view holds: its clumps, and why its reading is doubtful (if it is)."""

    region: str
    clumps: tuple[Clump, ...]
    doubts: tuple[str, ...] = ()


@dataclass(frozen=True)
class CountReading:
    """One frame: unit pieces (soldiers) per region per colour, large pieces per region per
    colour, neutral pieces per region (every region and colour listed), the dice, and the
    regions whose counts are doubtful with the reasons."""

    counts: Mapping[str, Mapping[str, int]]
    dice: DiceReading
    calibration: Calibration
    large: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    neutral: Mapping[str, int] = field(default_factory=dict)
    doubts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    white: WhiteReference | None = None
    tray: Mapping[str, int] = field(default_factory=dict)
    """Unit pieces in the tray per colour (every colour listed) when the board counts the
    tray's pieces (`CountingBoard.tray_counted`); its doubts are under the tray's id."""

    @property
    def doubtful(self) -> tuple[str, ...]:
        """The regions (and the tray) whose counts are a guess: ask, do not trust them."""
        return tuple(sorted(self.doubts))


@dataclass(frozen=True)
class _Features:
    """A region's view, smoothed, measured per pixel."""

    bgr: np.ndarray
    value: np.ndarray
    chroma: np.ndarray
    hue: np.ndarray
    darkness: np.ndarray
    """How much darker than the bare board (`_board_light`) each pixel is."""
    lightness: np.ndarray
    """How much brighter."""
    disc: np.ndarray
    """Within the region's circle plus reach."""
    board_chroma: float
    board_level: float
    """The bare board's median brightness there."""


@dataclass(frozen=True)
class _Blob:
    """A connected clump in a view: centre and area in pixels, and its pixels (at half its
    contrast) in its bounding box."""

    centre: tuple[float, float]
    area: float
    core: np.ndarray
    origin: tuple[int, int]
    """The bounding box's top-left corner (x, y) in the view."""

    def pixels(self, image: np.ndarray) -> np.ndarray:
        """`image`'s values at the clump's pixels."""
        x, y = self.origin
        h, w = self.core.shape
        found: np.ndarray = image[y:y + h, x:x + w][self.core]
        return found


def read_region(board: CountingBoard, patch: np.ndarray, zone: Zone,
                px_per_mm: float = TOP_PX_PER_MM, tint: np.ndarray | None = None,
                ) -> RegionPieces:
    """The clumps in `zone` from `patch`, a top view (under white light: `colour.balance`) of
    the square around the zone's circle (`patch_rect`). Clumps nearer another region's centre
    are that region's, and only what lies within reach of the circle is looked at (the board's
    edge, its lines and names lie beyond). `tint` is the bare board's colour less its grey
    (`board_tint`), taken from the patch itself when not given: a hand covering most of the
    region would then pass for the board. An area (a rectangle zone: a counted tray) holds
    what lies inside its rectangle; nothing is said to reach into it, as pieces lie against
    its rim: a hand over it is the table reader's to see."""
    f = _features(board, patch, zone, px_per_mm)
    left, top, _, _ = board.patch_rect(zone)

    def mine(blob: _Blob) -> tuple[float, float] | None:
        x, y = left + blob.centre[0] / px_per_mm, top + blob.centre[1] / px_per_mm
        if zone.rect is not None:
            return (x, y) if zone.contains(x, y) else None
        return (x, y) if board.region_at(x, y) == zone.id else None

    found, doubts = _coloured(board, f, mine, px_per_mm)
    if board.neutral is not None:
        if f.board_level > WHITE_LEVEL - board.neutral.light_min * 0.6:
            doubts.append(f"the board is too bright here (glare?) to see a {board.neutral.name}")
        found += _neutral(board, board.neutral, f, mine, px_per_mm)
    if zone.rect is None and _reaches_in(board, f, zone, px_per_mm, tint):
        doubts.append("something reaches in from beyond the region (a hand?)")
    return RegionPieces(zone.id, tuple(found), tuple(doubts))


def _coloured(board: CountingBoard, f: _Features,
              mine: Callable[[_Blob], tuple[float, float] | None],
              px_per_mm: float) -> tuple[list[Clump], list[str]]:
    """Each player colour's clumps that are this region's (`mine` gives their board centre),
    a large piece found in each, and the doubts about those."""
    found: list[Clump] = []
    doubts: list[str] = []
    smallest = board.cube_mm ** 2 * board.min_share * px_per_mm ** 2
    vivid = max(board.chroma_min - f.board_chroma, board.chroma_min / 3)
    for colour in board.colours:
        dark = colour.hue is None
        strength = f.darkness if dark else f.chroma - np.int16(f.board_chroma)
        mask = colour.candidates(f.hue, f.chroma, f.darkness, board) & f.disc
        for blob in _clumps(mask, strength, smallest, board.dark_min if dark else vivid):
            where = mine(blob)
            if where is not None:
                large, doubt = _large_piece(board, blob, px_per_mm)
                found.append(Clump(colour.name, where, blob.area / px_per_mm ** 2,
                                   large / px_per_mm ** 2))
                unlike = _unlike(board, colour, f, blob)
                doubts += [why for why in (doubt and f"{doubt} ({colour.name})", unlike) if why]
    return found, doubts


def _unlike(board: CountingBoard, colour: PieceColour, f: _Features, blob: _Blob) -> str:
    """Why a clump is unlike the pieces of its colour ('' when it is not): its hue is off the
    colour's learned one and it is paler, as skin is next to red. Glare leaves the hue and
    lowers only the chroma, so it passes."""
    if colour.hue is None or colour.reference is None:
        return ""
    reference = cv2.cvtColor(np.array([[colour.reference]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
    b, g, r = (int(v) for v in colour.reference)
    angles = blob.pixels(f.hue).astype(np.float64) * (np.pi / 90)
    hue = float(np.angle(np.exp(1j * angles).mean())) * 90 / np.pi
    off = abs((hue - float(reference[0]) + 90) % 180 - 90)
    pale = float(np.median(blob.pixels(f.chroma))) / max(max(b, g, r) - min(b, g, r), 1)
    if off > board.doubt.hue and pale < board.doubt.pale:
        return f"a {colour.name} clump unlike a {colour.name} piece (skin, or clipped by glare?)"
    return ""


def _neutral(board: CountingBoard, neutral: NeutralPiece, f: _Features,
             mine: Callable[[_Blob], tuple[float, float] | None],
             px_per_mm: float) -> list[Clump]:
    """The white pieces' clumps that are this region's. Under glare the board comes near
    full scale and a white piece, clipped there, stands out less: its lightness is weighed
    against the room left above the board (0.6 of it counts as `light_min`)."""
    smallest = board.cube_mm ** 2 * board.min_share * px_per_mm ** 2
    headroom = np.maximum(WHITE_LEVEL - (f.value - f.lightness), 1.0)
    strength = f.lightness * np.maximum(1.0, neutral.light_min / (0.6 * headroom))
    bright = (strength > neutral.light_min * 0.6) & f.disc
    mask = (f.chroma < neutral.chroma_max) & bright
    # where a white piece touches a coloured one, the seam between them is a blend: its half
    # nearer the white (chroma up to `edge_chroma`) is the white piece's
    near = cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    mask |= near & bright & (f.chroma < neutral.edge_chroma)
    return [Clump(None, where, blob.area / px_per_mm ** 2)
            for blob in _clumps(mask, strength, smallest, neutral.light_min)
            if (where := mine(blob)) is not None]


def _features(board: CountingBoard, patch: np.ndarray, zone: Zone,
              px_per_mm: float) -> _Features:
    """The view smoothed against noise, and measured per pixel (see `_Features`)."""
    smooth = cv2.GaussianBlur(patch, (0, 0), 0.8)
    b, g, r = cv2.split(smooth)
    value = cv2.max(cv2.max(b, g), r)
    chroma = cv2.subtract(value, cv2.min(cv2.min(b, g), r)).astype(np.int16)
    hue = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)[:, :, 0]
    disc = _within(board, zone, value.shape, px_per_mm)
    sample = disc[::2, ::2] > 0  # medians over every other pixel: as good, four times faster
    board_chroma = float(np.median(chroma[::2, ::2][sample]))
    pieces = chroma > board_chroma + board.chroma_min / 2  # coloured pieces
    if board.neutral is not None:  # white pieces: brighter than the board, and grey
        pieces |= (chroma < board.neutral.chroma_max) & (
            _lightness(value, px_per_mm, board.cube_mm) > board.neutral.light_min * 0.6)
    light = _board_light(np.where(pieces, 0, value).astype(np.uint8), px_per_mm, board.cube_mm)
    return _Features(smooth, value, chroma, hue, light - value.astype(np.int16),
                     value.astype(np.int16) - light, disc.astype(bool), board_chroma,
                     float(np.median(light[::2, ::2][sample])))


def _within(board: CountingBoard, zone: Zone, shape: tuple[int, ...],
            px_per_mm: float) -> np.ndarray:
    """The part of a zone's view pieces are looked for in: a region's circle and its reach,
    an area's rectangle (`patch_rect` puts either in the view's middle)."""
    inside = np.zeros(shape[:2], np.uint8)
    if zone.rect is not None:
        edge = round(_MARGIN_MM * px_per_mm)
        inside[edge:shape[0] - edge, edge:shape[1] - edge] = 1
        return inside
    cv2.circle(inside, (shape[1] // 2, shape[0] // 2),
               round(((zone.radius or 0) + board.reach_mm) * px_per_mm), 1, -1)
    return inside


def _large_piece(board: CountingBoard, blob: _Blob, px_per_mm: float) -> tuple[float, str]:
    """The area (pixels) of the large piece in `blob` (0 when none), and why that is in doubt
    ('' when it is not). The piece is a round core: the largest disc inside the clump has
    about the piece's radius. A block of unit pieces two wide has an inner radius of one unit,
    so the large piece must be plainly wider than two units."""
    if board.large is None:
        return 0.0, ""
    core = np.pad(blob.core.astype(np.uint8), 1)
    distance = cv2.distanceTransform(core, cv2.DIST_L2, 5)
    peak = float(distance.max()) / px_per_mm / (board.large.diameter_mm / 2)
    low, high = board.large.core
    margin = board.large.doubt
    if low <= peak <= high:
        y, x = np.unravel_index(int(np.argmax(distance)), distance.shape)
        yy, xx = np.indices(core.shape)
        inside = (yy - y) ** 2 + (xx - x) ** 2 <= (float(distance.max()) + 1.0) ** 2
        return float(np.count_nonzero(core.astype(bool) & inside)), ""
    if low - margin <= peak < low or high < peak <= high + margin:
        return 0.0, f"a round core {peak:.2f} of a {board.large.name}'s radius"
    return 0.0, ""


def board_tint(patches: list[np.ndarray]) -> np.ndarray:
    """The board's colour less its grey (B, G, R; glare adds grey, so it cancels): the median
    over the patches of each one's median, so that a hand over a few regions does not move
    it. Printed art that differs from region to region would need it per region."""
    tints = [np.median(_tint(p[::4, ::4]).reshape(-1, 3), axis=0) for p in patches]
    result: np.ndarray = np.median(np.array(tints), axis=0).astype(np.int16)
    return result


def _tint(bgr: np.ndarray) -> np.ndarray:
    pixels = bgr.astype(np.int16)
    tint: np.ndarray = pixels - pixels.sum(axis=2, keepdims=True) // 3
    return tint


def _reaches_in(board: CountingBoard, f: _Features, zone: Zone, px_per_mm: float,
                expected: np.ndarray | None = None) -> bool:
    """Whether something not board crosses the edge of the region's reach and comes inside its
    circle by half a piece: a hand, an arm, a sleeve. Pieces stay inside their reach. Looked
    at in a copy of half the resolution: a hand is large."""
    scale = px_per_mm / 2
    small = cv2.resize(f.bgr, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    disc = cv2.resize(f.disc.astype(np.uint8), (small.shape[1], small.shape[0]),
                      interpolation=cv2.INTER_NEAREST).astype(bool)
    dark = cv2.resize(f.darkness, (small.shape[1], small.shape[0]),
                      interpolation=cv2.INTER_NEAREST) > board.dark_min * 0.6
    tint = _tint(small)
    if expected is None:
        expected = np.median(tint[disc], axis=0).astype(np.int16)
    far = np.square(tint - expected).sum(axis=2) > board.doubt.foreign ** 2
    found, labels = cv2.connectedComponents(((far | dark) & disc).astype(np.uint8),
                                            connectivity=8)
    if found <= 1:
        return False
    h, w = labels.shape
    yy, xx = np.indices((h, w))
    radius = np.hypot(xx + 0.5 - w / 2, yy + 0.5 - h / 2) / scale
    outer = (zone.radius or 0) + board.reach_mm
    crossing = np.bincount(labels[(radius > outer - 1.5) & disc], minlength=found)
    inner = set(np.unique(labels[radius < (zone.radius or 0) - board.cube_mm / 2])) - {0}
    least = board.doubt.intrusion_mm * 1.5 * scale ** 2  # along the edge, 1.5 mm deep
    return any(crossing[label] >= least for label in inner)


def _clumps(mask: np.ndarray, strength: np.ndarray, smallest: float,
            least: float) -> list[_Blob]:
    """Each connected clump whose area, taken at half the clump's own contrast (the median of
    `strength` over it), is at least `smallest`: a blurred edge is then split evenly. Clumps of
    less contrast than `least` (drawn lines, text, shading) are not pieces."""
    found, labels, stats, centres = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8)
    result = []
    for label in range(1, found):
        if stats[label, cv2.CC_STAT_AREA] < smallest / 2:
            continue
        x, y, w, h = stats[label, :4]
        inside = labels[y:y + h, x:x + w] == label
        values = strength[y:y + h, x:x + w]
        contrast = float(np.median(values[inside]))
        if contrast < least:
            continue
        core = inside & (values > contrast / 2)
        area = float(np.count_nonzero(core))
        if area >= smallest:
            result.append(_Blob((float(centres[label][0]), float(centres[label][1])), area,
                                core, (int(x), int(y))))
    return result


def _board_light(value: np.ndarray, px_per_mm: float, cube_mm: float) -> np.ndarray:
    """How bright the bare board would be at each pixel: a closing (dark things up to six
    pieces wide removed) on a reduced copy, smoothed, enlarged back. Coloured and white pieces
    are blacked out in `value` first: on a board darker than they are, a closing would keep
    them, and the board between them would look dark."""
    scale = 0.5 / px_per_mm
    small = cv2.resize(value, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    side = max(3, round(6 * cube_mm * 0.5)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    closed = cv2.GaussianBlur(cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel), (0, 0), 2.0)
    light = cv2.resize(closed, (value.shape[1], value.shape[0]), interpolation=cv2.INTER_LINEAR)
    return light.astype(np.int16)


def _lightness(value: np.ndarray, px_per_mm: float, cube_mm: float) -> np.ndarray:
    """A first guess at how much brighter each pixel is than the board around it (to black
    white pieces out before the closing): the board taken as the median over three pieces'
    width on a reduced copy, which a row of three white pieces or a block of four leaves
    alone (an opening would cut into the region's round printed circle)."""
    scale = 0.5 / px_per_mm
    small = cv2.resize(value, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    side = max(3, round(3 * cube_mm * 0.5)) | 1
    board = cv2.resize(cv2.medianBlur(small, side), (value.shape[1], value.shape[0]),
                       interpolation=cv2.INTER_LINEAR)
    return value.astype(np.int16) - board.astype(np.int16)


def tally(board: CountingBoard, regions: Mapping[str, RegionPieces],
          ) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]], dict[str, int],
                     dict[str, tuple[str, ...]]]:
    """Unit pieces, large pieces and neutral pieces per region, and the doubtful regions'
    reasons, from every region's clumps. Each clump counts as its area (less its large piece)
    over one unit's area in this frame (`_lone_piece`), per colour, less the seams between
    touching pieces (`CountingBoard.seam`)."""
    names: list[str | None] = [c.name for c in board.colours]
    plain = [c for r in regions.values() for c in r.clumps if not c.large]
    lone = {name: _lone_piece([c.area for c in plain if c.colour == name], board.unit(name),
                              board.seam)
            for name in [*names, None]}
    counts = {region: {c.name: 0 for c in board.colours} for region in regions}
    large = {region: {c.name: 0 for c in board.colours} for region in regions}
    neutral = dict.fromkeys(regions, 0)
    doubts: dict[str, tuple[str, ...]] = {}
    for region, found in regions.items():
        reasons = list(found.doubts)
        for clump in found.clumps:
            pieces = (max(clump.area - clump.large, 0.0) / lone[clump.colour] + board.seam) / (
                1 + board.seam)
            if abs(pieces - round(pieces)) > board.doubt.fit:
                reasons.append(f"{clump.colour or 'neutral'} clump of {pieces:.2f} pieces")
            if clump.colour is None:
                neutral[region] += round(pieces)
            else:
                counts[region][clump.colour] += round(pieces)
                large[region][clump.colour] += clump.large > 0
        if reasons:
            doubts[region] = tuple(reasons)
    return counts, large, neutral, doubts


def count_soldiers(board: CountingBoard,
                   clumps: Mapping[str, Mapping[str, list[float]]]) -> dict[str, dict[str, int]]:
    """Unit pieces per region and colour from the clumps' areas (region -> colour -> mm^2):
    each clump is its area over one unit's, as seen in this frame (`_lone_piece`)."""
    counts: dict[str, dict[str, int]] = {region: {} for region in clumps}
    for colour in board.colours:
        areas = [a for found in clumps.values() for a in found[colour.name]]
        one = _lone_piece(areas, board.unit(colour.name))
        for region, found in clumps.items():
            counts[region][colour.name] = sum(round(a / one) for a in found[colour.name])
    return counts


def soldier_clumps(board: CountingBoard, patch: np.ndarray, zone: Zone,
                   px_per_mm: float = TOP_PX_PER_MM) -> dict[str, list[float]]:
    """The areas (mm^2) of each colour's clumps of unit pieces in `zone`, from `patch` (see
    `read_region`), large pieces taken out."""
    found: dict[str, list[float]] = {c.name: [] for c in board.colours}
    for clump in read_region(board, patch, zone, px_per_mm).clumps:
        if clump.colour is not None and clump.area - clump.large > 0:
            found[clump.colour].append(clump.area - clump.large)
    return found


def _lone_piece(areas: list[float], unit: float, seam: float = 0.0) -> float:
    """The area one piece of a colour covers in this frame. Lighting, blur and the sides a
    camera sees make a piece look up to a sixth larger or smaller, and differently for each
    colour: enough to turn six touching pieces into seven. It is the median of the clumps near
    `unit` when there are two or more; else, with three clumps or more, the area within a
    quarter of `unit` that makes them all nearest to whole numbers of pieces (`_fit_unit`);
    else `unit`."""
    lone = sorted(a for a in areas if 0.7 * unit <= a <= 1.4 * unit)
    if len(lone) >= 2:
        return float(np.median(lone))
    return _fit_unit(areas, unit, seam) if len(areas) >= 3 else unit


def _fit_unit(areas: list[float], unit: float, seam: float) -> float:
    """The piece's area, within a quarter of `unit`, for which the clumps' `areas` are nearest
    whole numbers of pieces, a little drawn towards `unit`. Clumps of different sizes pin it:
    one clump of six is as well explained by five larger pieces."""
    found = np.array(areas, np.float64)[:, None]
    candidates = unit * np.exp(np.linspace(-0.25, 0.25, 101))[None, :]
    pieces = (found / candidates + seam) / (1 + seam)
    misfit = np.mean((pieces - np.round(pieces)) ** 2, axis=0)
    cost = misfit + 0.5 * np.log(candidates[0] / unit) ** 2
    return float(candidates[0, int(np.argmin(cost))])


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
class CountingReader:
    """Reads frames of a counted table: board pose, light, pieces, doubts, dice."""

    board: CountingBoard
    detector: TagDetector = field(default_factory=lambda: TagDetector(DetectorConfig(
        max_side=1280)))
    """Only the four 40 mm corner markers are looked for: still 40 pixels wide in a frame
    reduced to 1280 pixels, and found there in a fraction of the time."""

    def read(self, frame: np.ndarray) -> CountReading:
        """Raises BoardNotFound (saying how many corner markers were seen) when the board
        cannot be placed, and ValueError for a frame that is not a colour image."""
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError(f"expected a BGR colour frame, got an array of shape {frame.shape}")
        reads = self.board_reads(frame)
        calibration = calibrate(self.board.geometry, reads)
        white = self.white(frame, calibration, reads)
        views = {zone.id: self.region_view(frame, calibration, zone, white)
                 for zone in self.board.regions}
        tint = board_tint(list(views.values()))
        regions = {zone.id: read_region(self.board, views[zone.id], zone, TOP_PX_PER_MM, tint)
                   for zone in self.board.regions}
        tray = self.board.tray
        if self.board.tray_counted:  # tallied with the regions: one piece's area for all
            regions[tray.id] = read_region(
                self.board, self.region_view(frame, calibration, tray, white), tray)
        counts, large, neutral, doubts = tally(self.board, regions)
        in_tray = counts.pop(tray.id, {})
        large.pop(tray.id, None)
        neutral.pop(tray.id, None)
        if white.brightness < DARKEST:
            reason = f"too dark: the markers' white is at {white.brightness:.0%} of full scale"
            doubts = {zone: (*doubts.get(zone, ()), reason) for zone in regions}
        return CountReading(counts, self.dice(frame, calibration, white), calibration, large,
                            neutral, doubts, white, in_tray)

    def dice(self, frame: np.ndarray, calibration: Calibration,
             white: WhiteReference) -> DiceReading:
        """The dice in the tray (none read when the board has none)."""
        if not self.board.dice:
            return DiceReading((), 0)
        tray = self.board.tray
        assert tray.rect is not None
        view = balance(_view(frame, calibration, tray.rect, TRAY_PX_PER_MM),
                       white.gains_at(*tray.center))
        return read_dice(view, TRAY_PX_PER_MM, self.board.die_mm, self.board.pip_mm,
                         self.board.dice)

    def white(self, frame: np.ndarray, calibration: Calibration,
              reads: list[TagRead] | None = None) -> WhiteReference:
        """The white paper around the corner markers seen in `frame` (`colour.measure_white`)."""
        geometry = self.board.geometry
        seen = [r.id for r in (self.board_reads(frame) if reads is None else reads)]
        return measure_white(frame, calibration.to_board, geometry.corners,
                             geometry.corner_size_mm, seen)

    def region_view(self, frame: np.ndarray, calibration: Calibration, zone: Zone,
                    white: WhiteReference | None = None) -> np.ndarray:
        """The top view of `zone`'s square (`CountingBoard.patch_rect`) pieces are counted in,
        brought to white light by `white` (measured in `frame` when not given)."""
        if white is None:
            white = self.white(frame, calibration)
        view = _view(frame, calibration, self.board.patch_rect(zone), TOP_PX_PER_MM)
        return balance(view, white.gains_at(*zone.center))

    def board_reads(self, frame: np.ndarray) -> list[TagRead]:
        """The corner markers only: pieces and dice carry no tags."""
        return [r for r in self.detector.detect(frame) if r.id in self.board.geometry.corners]


def piece_mask(board: CountingBoard, patch: np.ndarray, zone: Zone,
               px_per_mm: float = TOP_PX_PER_MM) -> np.ndarray:
    """Pixels inside `zone`'s circle (of `patch`, as for `read_region`) that are not bare
    board, whatever colour: vivid, dark, or white. Colour calibration looks for its one
    piece in here, before any colour is known."""
    f = _features(board, patch, zone, px_per_mm)
    h, w = f.disc.shape
    inside = np.zeros((h, w), np.uint8)
    cv2.circle(inside, (w // 2, h // 2),
               round((zone.radius or 0) * px_per_mm), 1, -1)
    vivid = f.chroma > f.board_chroma + board.chroma_min / 2
    dark = f.darkness > board.dark_min / 2
    light = f.lightness > (board.neutral.light_min if board.neutral else board.dark_min) / 2
    mask: np.ndarray = (vivid | dark | light) & inside.astype(bool)
    return mask
