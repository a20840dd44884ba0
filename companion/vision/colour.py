"""Colour you can trust under any lamp: the white paper around the board's corner markers is a
reference every frame carries.

A lamp changes the colour a camera sees by scaling red, green and blue each by its own factor:
a tungsten bulb scales blue to about half of red (a warm cast), a dim room scales all three
down (to first order, the von Kries model; a camera with fixed white balance and exposure, as
the companion runs it, adds nothing to that). The corner markers are printed on white paper
with a quiet zone of a quarter of their side (`tags.py`), and they are found in every frame
anyway to place the board. That paper's colour, measured in a ring around each visible marker,
gives per-channel gains that bring the frame back to what it would be under white light, with
the paper at `WHITE_LEVEL`. Light that changes across the board (a lamp to one side) is
followed by fitting the white as a plane over the board: three or four markers give it.

What the gains cannot undo: glare (light added, not multiplied; chroma survives it, clipping
does not), a cast so strong that a channel sinks into the noise, and pixels already clipped.
A frame whose white is below `DARKEST` of full scale is too dark to read colours in at all:
`WhiteReference.brightness` says how far down it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["DARKEST", "WHITE_LEVEL", "WhiteReference", "balance", "measure_white"]

WHITE_LEVEL = 255.0
"""The level the markers' white paper is brought to: the colours and thresholds in a board's
calibration file are in these units (white paper at full scale)."""
DARKEST = 0.1
"""Below this share of full scale, a frame's white carries too little signal to read colours."""
_RING = (1.5, 0.15)
"""The quiet-zone ring sampled around a marker: from 1.5 mm outside its black square to 15 % of
its side outside it (the printed quiet zone is 25 %: blur and a misplaced print have room)."""
_SCALE = 2.0
"""Pixels per millimetre of the small top views the ring is sampled in."""


@dataclass(frozen=True)
class WhiteReference:
    """The white paper's colour (BGR) measured at board points (mm), and the gains it implies."""

    points: tuple[tuple[float, float], ...]
    whites: tuple[tuple[float, float, float], ...]

    def white_at(self, x: float, y: float) -> np.ndarray:
        """The paper's BGR expected at board point (x, y): a plane fitted through the
        measurements (their mean when fewer than three), kept within the measured range."""
        whites = np.array(self.whites, np.float64)
        if len(self.points) < 3:
            return np.asarray(whites.mean(axis=0))
        design = np.column_stack([np.ones(len(self.points)), np.array(self.points)])
        plane, *_ = np.linalg.lstsq(design, whites, rcond=None)
        expected = np.array([1.0, x, y]) @ plane
        return np.asarray(np.clip(expected, whites.min(axis=0) * 0.9, whites.max(axis=0) * 1.1))

    def gains_at(self, x: float, y: float) -> np.ndarray:
        """Per-channel factors (B, G, R) that bring the paper at (x, y) to `WHITE_LEVEL`."""
        return np.asarray(WHITE_LEVEL / np.maximum(self.white_at(x, y), 1.0))

    @property
    def brightness(self) -> float:
        """The paper's mean level as a share of full scale: 1 in good light, 0.35 in a dim
        room (the gains are then near 3, and the noise is multiplied with the picture)."""
        return float(np.mean(self.whites)) / WHITE_LEVEL

    @property
    def cast(self) -> tuple[float, float, float]:
        """The light's colour (B, G, R) relative to its mean: (1, 1, 1) for white light,
        about (0.6, 1.0, 1.4) for a tungsten bulb."""
        mean = np.array(self.whites, np.float64).mean(axis=0)
        b, g, r = mean / max(float(mean.mean()), 1.0)
        return float(b), float(g), float(r)


def measure_white(frame: np.ndarray, to_board: np.ndarray,
                  markers: Mapping[int, tuple[float, float]], size_mm: float,
                  seen: Iterable[int]) -> WhiteReference:
    """The white paper around each seen marker (`markers`: id -> centre in board mm, each a
    black square `size_mm` wide), from `frame` and its frame -> board homography. Raises
    ValueError when no seen marker is among `markers` (nothing to measure)."""
    points: list[tuple[float, float]] = []
    whites: list[tuple[float, float, float]] = []
    half = size_mm / 2
    inner, outer = half + _RING[0], half + size_mm * _RING[1]
    for marker in sorted(set(seen) & set(markers)):
        cx, cy = markers[marker]
        view = _top_view(frame, to_board, (cx - outer, cy - outer, 2 * outer, 2 * outer))
        yy, xx = np.indices(view.shape[:2]) / _SCALE - outer
        ring = np.maximum(np.abs(xx), np.abs(yy)) >= inner
        b, g, r = (float(np.median(view[:, :, c][ring])) for c in range(3))
        points.append((cx, cy))
        whites.append((b, g, r))
    if not points:
        raise ValueError("no corner marker seen to measure the white paper around")
    return WhiteReference(tuple(points), tuple(whites))


def balance(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """`image` (BGR) with each channel multiplied by its gain, saturating at 255."""
    matrix = np.diag(np.asarray(gains, np.float64))
    balanced: np.ndarray = cv2.transform(image, matrix)
    return balanced


def _top_view(frame: np.ndarray, to_board: np.ndarray,
              rect: tuple[float, float, float, float]) -> np.ndarray:
    """The board rectangle `rect` (mm: left, top, width, height) seen from straight above."""
    left, top, width, height = rect
    to_view = np.array([[_SCALE, 0, -left * _SCALE], [0, _SCALE, -top * _SCALE], [0, 0, 1]],
                       np.float64)
    size = (round(width * _SCALE), round(height * _SCALE))
    view: np.ndarray = cv2.warpPerspective(frame, to_view @ to_board, size,
                                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return view
