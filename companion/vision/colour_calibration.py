"""Player colours learned once per table: one piece of each colour on its spot, one frame.

Paint, plastic and print differ from set to set, and one camera's colours from another's: the
hue ranges a game ships in its calibration file are a guess for a typical set. The guided step
asks for one unit piece of each colour, standing alone in the region the board's
`calibration_spots` name for it, and one frame of that. `learn_colours` places the board,
brings the frame to white light with the markers' white paper (`colour.py`), finds the one
piece in each spot (`counting.piece_mask`) and measures it under white light: a vivid colour
gets a hue range around its measured hue, as wide as the shipped range but never past half way
to the next learned colour; a colour with little chroma but dark enough stays dark. Each
piece's area is then measured as the counting reader will measure it (with the learned
colours): the unit for frames that show too few lone pieces of a colour.
`save_colours` writes those into a copy of the board's calibration file in the user's
calibration folder (`companion.userdata.calibration_folder(game)`), which `CountingBoard.load`
then reads instead of the game's own.

Raises `ColourCalibrationError`, saying which colour and spot failed and what was seen there,
when a spot holds no piece, several, or a piece neither colourful nor dark.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from companion.vision.counting import (
    TOP_PX_PER_MM,
    CountingBoard,
    CountingReader,
    PieceColour,
    piece_mask,
    read_region,
)

__all__ = ["ColourCalibrationError", "LearnedColour", "calibrate_colours", "colour_specs",
           "learn_colours", "save_colours"]

_WIDTH = 24
"""A hue range's width (OpenCV degrees) for a colour the board gives none (it was dark)."""


class ColourCalibrationError(ValueError):
    """A spot did not hold one piece of a readable colour: the message says which and why."""


@dataclass(frozen=True)
class LearnedColour:
    """One colour as its piece looked under white light (the markers' paper at 255)."""

    name: str
    region: str
    bgr: tuple[int, int, int]
    hue: int
    """OpenCV degrees (0-180)."""
    chroma: int
    darkness: int
    """How much darker than the board around it."""
    area: float | None = None
    """The piece's area (mm^2) as the counting reader measures it (None: not measured)."""

    def dark(self, board: CountingBoard) -> bool:
        """Read by darkness (black) rather than by hue: too little chroma for a hue."""
        return self.chroma < board.chroma_min


def learn_colours(board: CountingBoard, frame: np.ndarray,
                  spots: Mapping[str, str] | None = None,
                  reader: CountingReader | None = None) -> dict[str, LearnedColour]:
    """Each colour of `spots` (colour -> region; the board's `calibration_spots` by default)
    from the one piece standing in its region in `frame`. Raises BoardNotFound when the board
    cannot be placed, ColourCalibrationError when a spot is wrong (see the module)."""
    spots = dict(spots or board.spots)
    if not spots:
        raise ColourCalibrationError("no spots: name a region for each colour")
    unknown = sorted(set(spots) - {c.name for c in board.colours})
    if unknown:
        raise ColourCalibrationError(f"unknown colours {unknown}: the board's colours are "
                                     f"{[c.name for c in board.colours]}")
    reader = reader or CountingReader(board)
    reads = reader.board_reads(frame)
    from companion.vision.table import calibrate

    calibration = calibrate(board.geometry, reads)
    white = reader.white(frame, calibration, reads)
    learned = {}
    patches = {}
    for name, region in spots.items():
        zone = board.geometry.zone(region)
        patches[name] = patch = reader.region_view(frame, calibration, zone, white)
        learned[name] = _measure(board, patch, piece_mask(board, patch, zone), name, region)
    return _with_areas(board, learned, patches)


def _with_areas(board: CountingBoard, learned: Mapping[str, LearnedColour],
                patches: Mapping[str, np.ndarray]) -> dict[str, LearnedColour]:
    """Each learned colour with its piece's area, read in its spot's view (`patches`) with
    the learned colours, as a frame will be read: the area left out when the piece is not
    read as one clump there."""
    colours = tuple(PieceColour.from_spec(n, spec)
                    for n, spec in colour_specs(board, learned).items())
    reading = replace(board, colours=colours)
    found = {}
    for name, colour in learned.items():
        zone = board.geometry.zone(colour.region)
        clumps = [c for c in read_region(reading, patches[name], zone).clumps
                  if c.colour == name]
        area = round(clumps[0].area, 1) if len(clumps) == 1 else None
        found[name] = replace(colour, area=area)
    return found


def _measure(board: CountingBoard, patch: np.ndarray, mask: np.ndarray, name: str,
             region: str) -> LearnedColour:
    """The one piece in `mask`: its median colour over its inside (the edges are blurred)."""
    found, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    unit = (board.cube_mm * TOP_PX_PER_MM) ** 2
    sizes = [int(stats[label, cv2.CC_STAT_AREA]) for label in range(1, found)]
    pieces = [label for label, size in enumerate(sizes, 1) if size >= unit * board.min_share]
    if len(pieces) != 1:
        raise ColourCalibrationError(
            f"{name}: expected one piece alone in {region}, saw {len(pieces)} things there")
    size = sizes[pieces[0] - 1]
    if not 0.5 * unit <= size <= 2.0 * unit:
        raise ColourCalibrationError(f"{name}: the thing in {region} is {size / unit:.1f} "
                                     "pieces large; put one piece there, alone")
    inside = cv2.erode((labels == pieces[0]).astype(np.uint8), np.ones((3, 3), np.uint8))
    pixels = patch[inside.astype(bool)] if inside.any() else patch[labels == pieces[0]]
    b, g, r = (round(float(np.median(pixels[:, c]))) for c in range(3))
    hue = int(cv2.cvtColor(np.array([[[b, g, r]]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0])
    ring = (labels == 0) & _ring(mask.shape, 0.3, 0.65)  # the region's own printed circle
    board_value = float(np.median(patch[ring].max(axis=1))) if ring.any() else 255.0
    colour = LearnedColour(name, region, (b, g, r), hue, max(b, g, r) - min(b, g, r),
                           round(board_value - max(b, g, r)))
    if colour.dark(board) and colour.darkness < board.dark_min:
        raise ColourCalibrationError(
            f"{name}: the piece in {region} is neither colourful (chroma {colour.chroma}, "
            f"{board.chroma_min:.0f} needed) nor dark (darkness {colour.darkness}, "
            f"{board.dark_min:.0f} needed)")
    return colour


def _ring(shape: tuple[int, ...], inner: float, outer: float) -> np.ndarray:
    """A ring around a patch's centre, from `inner` to `outer` of half its side."""
    h, w = shape[:2]
    yy, xx = np.indices((h, w))
    radius = np.hypot(xx - w / 2, yy - h / 2) / (min(h, w) / 2)
    ring: np.ndarray = (radius > inner) & (radius < outer)
    return ring


def colour_specs(board: CountingBoard,
                 learned: Mapping[str, LearnedColour]) -> dict[str, dict[str, Any]]:
    """The `colours:` entries of a calibration file for the learned colours (the board's
    other colours as they were): hue ranges as wide as the board's own, narrowed to stop half
    way to the nearest other vivid colour."""
    vivid = {n: c.hue for n, c in learned.items() if not c.dark(board)}
    for colour in board.colours:
        if colour.name not in learned and colour.hue is not None:
            low, high = colour.hue
            vivid[colour.name] = round(low + ((high - low) % 180) / 2) % 180
    specs: dict[str, dict[str, Any]] = {}
    for colour in board.colours:
        found = learned.get(colour.name)
        if found is None:
            specs[colour.name] = ({"dark": True} if colour.hue is None
                                  else {"hue": list(colour.hue)})
            continue
        entry: dict[str, Any] = {"bgr": list(found.bgr)}
        if found.area is not None:
            entry["area"] = found.area
        if found.dark(board):
            specs[colour.name] = {"dark": True, **entry}
            continue
        width = _WIDTH if colour.hue is None else (colour.hue[1] - colour.hue[0]) % 180
        half = width / 2
        for other, hue in vivid.items():
            if other != colour.name:
                half = min(half, _hue_distance(found.hue, hue) / 2 - 1)
        half = max(half, 3)
        specs[colour.name] = {"hue": [round(found.hue - half) % 180,
                                      round(found.hue + half) % 180], **entry}
    return specs


def _hue_distance(a: int, b: int) -> int:
    return min((a - b) % 180, (b - a) % 180)


def save_colours(board: CountingBoard, learned: Mapping[str, LearnedColour],
                 folder: Path) -> Path:
    """`folder`/board.yaml: the board's calibration file (`board.source`) with the learned
    colours in place of its own. Returns the file written."""
    if board.source is None:
        raise ColourCalibrationError("the board was not read from a file: nothing to copy")
    data = yaml.safe_load(board.source.read_text(encoding="utf-8"))
    section = "pieces" if "pieces" in data else "soldiers"
    data[section]["colours"] = colour_specs(board, learned)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "board.yaml"
    spots = ", ".join(f"{c.name} in {c.region}" for c in learned.values())
    header = (f"# Learned colours ({spots}) written by the colour calibration on "
              f"{datetime.date.today().isoformat()},\n# over a copy of {board.source}.\n")
    target.write_text(header + yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return target


def calibrate_colours(board: CountingBoard, frame: np.ndarray, folder: Path,
                      spots: Mapping[str, str] | None = None,
                      ) -> tuple[Path, dict[str, LearnedColour]]:
    """The guided step in one call: learn the colours from `frame`, save them in `folder`."""
    learned = learn_colours(board, frame, spots)
    return save_colours(board, learned, folder), learned
