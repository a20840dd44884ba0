"""Dice read in the dice tray: white dice with black pips on a coloured felt.

A die is found by its lack of colour (white and black both have little chroma, the felt and a
hand have much), checked to be a square of the die's size, turned upright and its pips counted
as dark blobs. A face is reported only when its pips sit where a die's pips can sit (a centre,
corners, the middles of two opposite sides) in one of the six layouts: a die half covered by
a hand, tilted against the rim or blurred into merged pips gives None, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["FACES", "PIP_OFFSET", "DiceReading", "read_dice", "read_face"]

PIP_OFFSET = 0.27
"""Distance of a corner pip's centre from the face's centre, along each side, as a fraction of
the die's side (as on common 16 mm dice)."""

_CORNERS = frozenset({(-1, -1), (1, -1), (-1, 1), (1, 1)})
FACES: dict[frozenset[tuple[int, int]], int] = {
    frozenset({(0, 0)}): 1,
    frozenset({(-1, -1), (1, 1)}): 2, frozenset({(1, -1), (-1, 1)}): 2,
    frozenset({(-1, -1), (0, 0), (1, 1)}): 3, frozenset({(1, -1), (0, 0), (-1, 1)}): 3,
    _CORNERS: 4, _CORNERS | {(0, 0)}: 5,
    _CORNERS | {(-1, 0), (1, 0)}: 6, _CORNERS | {(0, -1), (0, 1)}: 6,
}
"""Each die layout's pips as grid cells (-1, 0, 1 across and down), in both quarter turns."""

_SIDE = 64
"""Pixels of the upright die image pips are counted in."""


@dataclass(frozen=True)
class DiceReading:
    """The faces read, smallest first, then None for each die not read (missing, covered or
    unclear); `objects` counts die-sized things seen in the tray, readable or not."""

    faces: tuple[int | None, ...]
    objects: int

    @property
    def complete(self) -> bool:
        return None not in self.faces


def read_dice(tray: np.ndarray, px_per_mm: float, die_mm: float, pip_mm: float,
              count: int = 3) -> DiceReading:
    """The `count` dice in `tray`, a top view of the tray at `px_per_mm`. More readable dice
    than `count` means something else is in the tray: then no face is trusted."""
    found: list[int | None] = []
    for blob in _blobs(tray, px_per_mm, die_mm):
        found.append(_read_blob(tray, blob, px_per_mm, die_mm, pip_mm))
    faces = sorted(f for f in found if f is not None)
    if len(faces) > count:
        return DiceReading((None,) * count, len(found))
    return DiceReading((*faces, *[None] * (count - len(faces))), len(found))


def _blobs(tray: np.ndarray, px_per_mm: float, die_mm: float) -> list[np.ndarray]:
    """Contours of colourless things at least a third of a die's area (dice, or parts of
    dice): the felt's chroma is taken as the tray's median."""
    b, g, r = cv2.split(cv2.GaussianBlur(tray, (0, 0), 1.0))
    chroma = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    threshold = float(np.median(chroma[::4, ::4])) / 2
    mask: np.ndarray = (chroma < threshold).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    smallest = (die_mm * px_per_mm) ** 2 / 3
    return [c for c in contours if cv2.contourArea(c) >= smallest]


def _read_blob(tray: np.ndarray, contour: np.ndarray, px_per_mm: float, die_mm: float,
               pip_mm: float) -> int | None:
    """The face of one blob, or None when it is not a whole die seen from above."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    side = die_mm * px_per_mm
    if not (0.85 * side <= min(w, h) and max(w, h) <= 1.15 * side):
        return None
    if cv2.contourArea(contour) < 0.85 * w * h:
        return None
    corners = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    square = np.array([[0, _SIDE], [0, 0], [_SIDE, 0], [_SIDE, _SIDE]], np.float32)
    upright = cv2.warpPerspective(tray, cv2.getPerspectiveTransform(corners, square),
                                  (_SIDE, _SIDE), flags=cv2.INTER_AREA)
    return read_face(cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY), pip_mm / die_mm)


def read_face(die: np.ndarray, pip_ratio: float) -> int | None:
    """The face of an upright square grey image of one die (its edges at the image's edges):
    dark blobs of a pip's size, snapped to the 3 x 3 grid of pip places; None unless they form
    one of the six layouts. Where blur has run pips together, the pip places themselves are
    looked at instead (`_read_places`)."""
    n = die.shape[0]
    grey = die.astype(np.float32)
    inner = grey[n // 10:n - n // 10, n // 10:n - n // 10]
    white, black = float(np.percentile(inner, 75)), float(np.percentile(inner, 1))
    if white - black < 40:
        return None  # no pip stands out: blank, covered or washed out
    cells, merged = _blob_cells(grey, (white + black) / 2, pip_ratio)
    if merged:
        return _read_places(grey, white, black, pip_ratio)
    return None if cells is None else FACES.get(cells)


def _blob_cells(grey: np.ndarray, threshold: float,
                pip_ratio: float) -> tuple[frozenset[tuple[int, int]] | None, bool]:
    """The pip places of the dark blobs (None when a blob sits between places or two share
    one), and whether a blob is several pips large (pips run together)."""
    n = grey.shape[0]
    pips = (grey < threshold).astype(np.uint8)
    pips[:n // 12, :] = pips[-(n // 12):, :] = pips[:, :n // 12] = pips[:, -(n // 12):] = 0
    found, _, stats, centres = cv2.connectedComponentsWithStats(pips, connectivity=8)
    expected = np.pi / 4 * (pip_ratio * n) ** 2
    cells: set[tuple[int, int]] = set()
    for label in range(1, found):
        area = stats[label, cv2.CC_STAT_AREA]
        if area < 0.3 * expected:
            continue  # a speck of noise
        if area > 2.0 * expected:
            return None, True
        cell = _cell(centres[label], n)
        if cell is None or cell in cells:
            return None, False
        cells.add(cell)
    return frozenset(cells), False


def _read_places(grey: np.ndarray, white: float, black: float, pip_ratio: float) -> int | None:
    """The face from the nine pip places' darkness (a small disc at each): each must be
    plainly dark or plainly light (a fifth of the contrast away from the middle), and the
    dark ones must form a layout. Blur joins neighbouring pips but leaves the places between
    columns light."""
    n = grey.shape[0]
    yy, xx = np.indices(grey.shape)
    middle, margin = (white + black) / 2, (white - black) / 5
    dark = set()
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            cx, cy = n / 2 + i * PIP_OFFSET * n, n / 2 + j * PIP_OFFSET * n
            disc = (xx - cx) ** 2 + (yy - cy) ** 2 <= (0.3 * pip_ratio * n) ** 2
            level = float(grey[disc].mean())
            if abs(level - middle) < margin:
                return None
            if level < middle:
                dark.add((i, j))
    return FACES.get(frozenset(dark))


def _cell(centre: np.ndarray, n: int) -> tuple[int, int] | None:
    """The pip place a blob centre sits on, or None when it is between places."""
    result = []
    for coordinate in centre:
        u = (float(coordinate) - n / 2) / n
        cell = round(u / PIP_OFFSET)
        if abs(cell) > 1 or abs(u - cell * PIP_OFFSET) > 0.09:
            return None
        result.append(cell)
    return result[0], result[1]
