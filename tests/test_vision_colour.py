"""The white reference (`vision/colour.py`) on drawn images: markers' white paper under a cast,
a ramp of light across the board, balance back to white."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.colour import WhiteReference, balance, measure_white

MARKERS = {0: (30.0, 30.0), 1: (270.0, 30.0), 2: (270.0, 170.0), 3: (30.0, 170.0)}
SIZE_MM = 40.0
SCALE = 2.0
"""Pixels per millimetre of the drawn images; the homography is that scale's inverse."""
TO_BOARD = np.diag([1 / SCALE, 1 / SCALE, 1.0])


def _table(paper: np.ndarray) -> np.ndarray:
    """A 300 x 200 mm grey table with a black marker on white paper at each corner;
    `paper` gives the paper's BGR at each pixel (a ramp, a cast)."""
    h, w = round(200 * SCALE), round(300 * SCALE)
    image = np.full((h, w, 3), 90, np.float64)
    for cx, cy in MARKERS.values():
        outer, half = (SIZE_MM / 2 + SIZE_MM * 0.25) * SCALE, SIZE_MM / 2 * SCALE
        x, y = cx * SCALE, cy * SCALE
        image[round(y - outer):round(y + outer), round(x - outer):round(x + outer)] = 1.0
        image[round(y - half):round(y + half), round(x - half):round(x + half)] = 0.05
    lit = np.where(image <= 1.0, image * paper, image)
    return np.clip(lit, 0, 255).astype(np.uint8)


def test_a_warm_cast_is_measured_and_balanced_away():
    cast = np.array([107.0, 184.0, 255.0])  # white paper under a tungsten lamp (B, G, R)
    frame = _table(np.broadcast_to(cast, (400, 600, 3)))
    white = measure_white(frame, TO_BOARD, MARKERS, SIZE_MM, MARKERS)
    assert white.white_at(150, 100) == pytest.approx(cast, abs=1)
    blue, green, red = white.cast
    assert blue < 0.7 and red > 1.3 and green == pytest.approx(1.0, abs=0.1)
    grey = np.full((4, 4, 3), (53, 92, 127), np.uint8)  # a 50 % grey under that lamp
    assert balance(grey, white.gains_at(150, 100)).astype(int) == pytest.approx(127, abs=2)


def test_light_falling_off_to_one_side_is_followed_across_the_board():
    xs = np.linspace(0.4, 1.0, 600)[None, :, None]  # a lamp to the right
    frame = _table(np.broadcast_to(xs * 250, (400, 600, 3)))
    white = measure_white(frame, TO_BOARD, MARKERS, SIZE_MM, MARKERS)
    for x in (60.0, 150.0, 240.0):
        expected = (0.4 + 0.6 * x / 300) * 250
        assert white.white_at(x, 100)[0] == pytest.approx(expected, rel=0.05)
    assert white.brightness == pytest.approx(0.7 * 250 / 255, rel=0.05)


def test_three_markers_are_enough_and_none_is_an_error():
    frame = _table(np.full((400, 600, 3), 90.0))  # a dim room: the paper at 90
    white = measure_white(frame, TO_BOARD, MARKERS, SIZE_MM, [0, 1, 3])
    assert len(white.points) == 3
    assert white.gains_at(270, 170) == pytest.approx(255 / 90, rel=0.02)
    with pytest.raises(ValueError, match="no corner marker seen"):
        measure_white(frame, TO_BOARD, MARKERS, SIZE_MM, [7])


def test_balance_saturates_instead_of_wrapping():
    bright = np.full((2, 2, 3), 200, np.uint8)
    assert int(balance(bright, np.array([2.0, 2.0, 2.0])).max()) == 255
    one = WhiteReference(((0.0, 0.0),), ((255.0, 255.0, 255.0),))
    assert one.gains_at(10, 10) == pytest.approx(1.0)
