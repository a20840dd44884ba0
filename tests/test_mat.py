"""The printable table mat (#18): the corner markers and the off-map areas at exact size, where
the game's board.yaml puts them, tiled over A4 pages that say to print at 100%."""

from __future__ import annotations

import subprocess

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.games import game
from companion.vision.detect import TagDetector
from companion.vision.mat import MARGIN, PAGE, layout, off_map_areas, tiles

DPI = 100


@pytest.mark.parametrize("name", ["sekigahara", "rumble_nation"])
def test_the_mat_puts_each_corner_marker_where_the_board_file_says_at_its_size(tmp_path, name):
    out = tmp_path / "mat.pdf"
    result = CliRunner().invoke(main, ["print-mat", "--game", name, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Print at 100%" in result.output
    geometry = game(name).board_geometry()
    mat = layout(geometry)
    placed = tiles(geometry, mat)
    assert f"on {len(placed)} A4 pages" in result.output and len(placed) < mat.rows * mat.columns
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(out), str(tmp_path / "page")],
                   check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == len(placed)
    usable = (PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN)
    found: dict[int, list[tuple[float, float]]] = {}
    for (row, column), page in zip(placed, pages, strict=True):
        for read in TagDetector().detect_plain(cv2.imread(str(page))):
            side_mm = np.linalg.norm(read.corners[0] - read.corners[1]) / DPI * 25.4
            assert abs(side_mm - geometry.corner_size_mm) < 1.0, (read.id, side_mm)
            cx, cy = read.corners.mean(axis=0) / DPI * 25.4  # page mm
            found.setdefault(read.id, []).append(
                (mat.left + column * usable[0] + cx - MARGIN,
                 mat.top + row * usable[1] + cy - MARGIN))
    assert set(found) == set(geometry.corners)
    for tag, (x, y) in geometry.corners.items():
        assert any(abs(fx - x) < 1.5 and abs(fy - y) < 1.5 for fx, fy in found[tag]), \
            (tag, found[tag], (x, y))
    named = {n for n, _ in off_map_areas(geometry)}
    assert named == ({"eliminated", "deployment", "card scan"} if name == "sekigahara"
                     else {"dice tray"})
