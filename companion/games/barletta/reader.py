"""The Barletta table read from a frame: where each counter stands and which face is up, and
the dice in the tray.

A counter carries one AprilTag on each face, so reading tags is enough: the tag says the knight
and the face, its centre says the hex. The tags go through the shared `TableReader` (board
pose from the corner markers, lens, occlusion by change, tag to zone); the game only supplies
the zones: each hex of the field a circle about its inner radius, computed from its number, and
the mat's areas (reserves, camps, Surrendered tables, the dice tray) as rectangles. One knight
per hex (G), so tags are read one by one, never as stacks.

The dice are read in the tray's felt with `vision.dice`, once the felt's top view is brought
back to white light by the corner markers' white paper (`vision.colour`: under a warm lamp a
white die is more colourful than a green felt). The tray is not read (None) when something
that is neither felt nor a die covers part of it (a hand throwing or picking up), or when a
die-sized thing there cannot be read (a die half under a finger, tilted on the rim).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from companion.games.barletta import hexes
from companion.games.barletta.kit import BarlettaKit
from companion.games.barletta.table_state import DICE_TRAY, area
from companion.vision.colour import balance, measure_white
from companion.vision.detect import TagDetector
from companion.vision.dice import read_dice
from companion.vision.geometry import Geometry, Zone
from companion.vision.intrinsics import Intrinsics
from companion.vision.table import Reading, TableReader

__all__ = ["TRAY_PRINT", "TRAY_PX_PER_MM", "BarlettaReader", "BarlettaReading", "Tray",
           "board_path", "covered_share", "field_geometry", "hex_centre", "load_tray",
           "tray_view"]

TRAY_PX_PER_MM = 6.0
"""Resolution of the tray's top view the dice are read in: a 2.6 mm pip is 15 pixels wide."""
TRAY_PRINT = 16
"""Cells a side of the tray's small copy (`BarlettaReading.tray`): about 6 mm each, so a
16 mm die covers several and moving it changes them from green to white."""
_FELT_HUE_REACH = 20
"""How far (OpenCV hue degrees) from the felt's hue a pixel is still felt: a warm lamp moves
a green felt's hue by about 6."""
_FELT_SATURATION = 60
"""Felt is coloured; white dice, black pips, a grey sleeve are not."""


def board_path(game: str = "barletta", board_yaml: Path | None = None) -> Path:
    """The table geometry file: `board_yaml`, else the user's measured copy, else the
    shipped default (the project's fit)."""
    if board_yaml is not None:
        return board_yaml
    from companion.userdata import calibration_folder

    mine = calibration_folder(game) / "board.yaml"
    if mine.is_file():
        return mine
    return Path(str(files(__package__ or "").joinpath("calibration/board.yaml")))


def _load(board_yaml: Path | None) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(board_path(board_yaml=board_yaml)
                                          .read_text(encoding="utf-8"))
    return data


def hex_centre(hex_: str, hex_mm: float, origin_hex: str,
               origin_mm: tuple[float, float]) -> tuple[float, float]:
    """A hex's centre in board mm, from its number: flat-topped hexes in vertical files, each
    file 1.5 circumradii from the next, even columns half a hex lower than odd ones (the
    rulebook's numbering, as `hexes.py` reads it); `origin_hex`'s centre is at `origin_mm`."""
    column, row = hexes.parse(hex_)
    first, top = hexes.parse(origin_hex)
    across = hex_mm / math.sqrt(3) * 1.5
    lower = (column % 2 == 0) - (first % 2 == 0)
    return (origin_mm[0] + (column - first) * across,
            origin_mm[1] + (row - top + lower / 2) * hex_mm)


def hexagon(centre: tuple[float, float], across_flats: float) -> tuple[tuple[float, float], ...]:
    """A flat-topped hex's corners about `centre` (as the field prints it): its outline."""
    radius = across_flats / math.sqrt(3)
    return tuple((centre[0] + radius * math.cos(math.pi / 3 * i),
                  centre[1] + radius * math.sin(math.pi / 3 * i)) for i in range(6))


def field_geometry(kit: BarlettaKit, board_yaml: Path | None = None) -> Geometry:
    """The table's zones in board mm: every field hex (a circle about its inner radius), each
    side's printed camp hexes (circles named `camp_<side>`: a knight left on them is in camp,
    as one in the camp box), and the mat's areas (rectangles)."""
    data = _load(board_yaml)
    size, radius = float(data["hex_mm"]), float(data["zone_radius_mm"])
    origin = (float(data["origin_mm"][0]), float(data["origin_mm"][1]))

    def centre(hex_: str) -> tuple[float, float]:
        return hex_centre(hex_, size, str(data["origin_hex"]), origin)

    zones = [Zone(name, name.replace("_", " "), (x + w / 2, y + h / 2), rect=(x, y, w, h))
             for name, (x, y, w, h) in data["areas"].items()]  # first: `zone(id)` finds them
    zones += [Zone(h.id, h.name, centre(h.id), radius, outline=hexagon(centre(h.id), size))
              for h in kit.locations]
    for side, where in kit.sides.items():
        camp = area("camp", side)
        zones += [Zone(camp, f"{side} camp", centre(h), radius,
                       outline=hexagon(centre(h), size)) for h in where.camp]
    corners = {int(k): (float(v[0]), float(v[1]))
               for k, v in data["corner_markers"]["ids"].items()}
    return Geometry(data["game"], (float(data["board_mm"][0]), float(data["board_mm"][1])),
                    float(data["tag_mm"]), float(data["corner_markers"]["size_mm"]), corners,
                    tuple(zones), float(data.get("block_height_mm", 0.0)))


@dataclass(frozen=True)
class Tray:
    """The dice and the tray they are thrown in (board.yaml's `dice`: the project's fit)."""

    die_mm: float = 16.0
    pip_mm: float = 2.6
    count: int = 2
    rim_mm: float = 6.0
    felt_hue: float = 68.0
    felt_cover: float = 0.12
    """More than this share of the felt neither felt nor dice: covered, not read."""
    counter_mm: float = 20.0
    """A counter's side (for drawing and laying out the areas)."""


def load_tray(board_yaml: Path | None = None) -> Tray:
    """The dice settings of the table geometry file (see `board_path`)."""
    data = _load(board_yaml)
    dice, made = data.get("dice", {}), Tray()
    return Tray(float(dice.get("die_mm", made.die_mm)), float(dice.get("pip_mm", made.pip_mm)),
                int(dice.get("count", made.count)), float(dice.get("rim_mm", made.rim_mm)),
                float(dice.get("felt_hue", made.felt_hue)),
                float(dice.get("felt_cover", made.felt_cover)),
                float(data.get("counter_mm", made.counter_mm)))


@dataclass(frozen=True)
class BarlettaReading:
    """One frame: the tags (zones, hands, what is hidden) and the dice in the tray."""

    tags: Reading
    dice: tuple[int, ...] | None
    """Faces read in the tray, smallest first; () an empty tray; None: not read (covered,
    unclear, or the board not found)."""
    tray: np.ndarray | None = field(default=None, compare=False, repr=False)
    """The felt seen small (`TRAY_PRINT` cells a side, grey): where the dice lie, so that
    a throw showing the same faces as the last is still told apart (`tracker`)."""

    @property
    def zones(self) -> dict[int, str]:
        return dict(self.tags.zones)


@dataclass
class BarlettaReader:
    """Reads frames of a Barletta table: the tags through the shared `TableReader`, the
    dice in the tray."""

    geometry: Geometry
    known_tags: Iterable[int] | None = None
    """The registered tags (both faces of every counter): any other id is never placed."""
    intrinsics: Intrinsics | None = None
    camera_height_mm: float | None = None
    tray: Tray = field(default_factory=load_tray)
    detector: TagDetector | None = None
    """Shared between readers (its code table takes a moment to build); None: a new one."""
    table: TableReader = field(init=False)

    def __post_init__(self) -> None:
        known = None if self.known_tags is None else frozenset(self.known_tags)
        self.table = TableReader(self.geometry, self.detector or TagDetector(), known,
                                 intrinsics=self.intrinsics,
                                 camera_height_mm=self.camera_height_mm)

    def read(self, frame: np.ndarray) -> BarlettaReading:
        tags = self.table.read(frame)
        calibration = self.table.calibration
        if not tags.board_found or calibration is None:
            return BarlettaReading(tags, None)
        view = self._balanced(frame, calibration.to_board)
        small = cv2.resize(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (TRAY_PRINT, TRAY_PRINT),
                           interpolation=cv2.INTER_AREA)
        return BarlettaReading(tags, self._dice(view), small.astype(np.float32))

    def _balanced(self, frame: np.ndarray, to_board: np.ndarray) -> np.ndarray:
        """The felt's top view brought back to white light by the corner markers' white
        paper: the dice are found by their lack of colour."""
        felt = self._felt()
        view = tray_view(frame, to_board, felt)
        g = self.geometry
        white = measure_white(frame, to_board, g.corners, g.corner_size_mm, g.corners)
        return balance(view, white.gains_at(felt[0] + felt[2] / 2, felt[1] + felt[3] / 2))

    def _felt(self) -> tuple[float, float, float, float]:
        """The tray's felt, inside its rim (board mm: left, top, width, height)."""
        rect = self.geometry.zone(DICE_TRAY).rect
        assert rect is not None
        x, y, w, h = rect
        rim = self.tray.rim_mm
        return x + rim, y + rim, w - 2 * rim, h - 2 * rim

    def _dice(self, view: np.ndarray) -> tuple[int, ...] | None:
        """The faces in the felt's top view, or None when it is covered or a die unclear."""
        t = self.tray
        found = read_dice(view, TRAY_PX_PER_MM, t.die_mm, t.pip_mm, t.count)
        faces = tuple(f for f in found.faces if f is not None)
        if found.objects > len(faces):
            return None  # a die-sized thing not read: half covered, tilted, or too many
        if covered_share(view, t.felt_hue) - len(faces) * _die_share(view, t) > t.felt_cover:
            return None  # a hand, a sleeve: what lies under it is not known
        return faces


def tray_view(frame: np.ndarray, to_board: np.ndarray,
              rect: tuple[float, float, float, float]) -> np.ndarray:
    """The board rectangle `rect` (mm) seen from straight above at `TRAY_PX_PER_MM`."""
    left, top, width, height = rect
    s = TRAY_PX_PER_MM
    to_view = np.array([[s, 0, -left * s], [0, s, -top * s], [0, 0, 1]], np.float64)
    view: np.ndarray = cv2.warpPerspective(frame, to_view @ to_board,
                                           (round(width * s), round(height * s)),
                                           flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE)
    return view


def covered_share(view: np.ndarray, felt_hue: float) -> float:
    """The share of a top view of the felt that is not felt (dice, a hand, anything)."""
    hsv = cv2.cvtColor(view[::2, ::2], cv2.COLOR_BGR2HSV)
    hue = hsv[:, :, 0].astype(np.int16)
    away = np.abs(hue - felt_hue)
    away = np.minimum(away, 180 - away)  # hue wraps around
    felt: np.ndarray = (away <= _FELT_HUE_REACH) & (hsv[:, :, 1] >= _FELT_SATURATION)
    return 1.0 - float(felt.mean())


def _die_share(view: np.ndarray, tray: Tray) -> float:
    """The share of the view one die covers (its bevelled edge and a blurred rim included)."""
    side = (tray.die_mm + 2) * TRAY_PX_PER_MM
    return side * side / float(view.shape[0] * view.shape[1])
