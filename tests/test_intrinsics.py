"""Lens intrinsics from a ChArUco board (5): the sheet at exact size, the lens measured from
photographs taken from several poses, and the table reader undistorting with it."""

from __future__ import annotations

import subprocess
from dataclasses import replace

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.kits import load_kit
from companion.vision.geometry import Geometry
from companion.vision.intrinsics import (
    CHARUCO,
    IntrinsicsError,
    calibrate_intrinsics,
    distort_image,
)
from companion.vision.overlay import lens_intrinsics
from companion.vision.synth import Camera, Look, Synth, place_stacks
from companion.vision.table import TableReader

SIZE = (1600, 1200)
MATRIX = np.array([[1500.0, 0, 800], [0, 1500.0, 600], [0, 0, 1]])
DISTORTION = np.array([-0.25, 0.08, 0.0, 0.0, 0.0])
PX_PER_MM = 8


def charuco_view(rotation: tuple[float, float, float], distance: float) -> np.ndarray:
    """The board photographed through the lens: a real pose (rotation, distance in mm) seen
    by MATRIX, then bent by DISTORTION."""
    width, height = CHARUCO.size_mm
    flat = CHARUCO.board().generateImage((round(width * PX_PER_MM), round(height * PX_PER_MM)))
    flat = cv2.copyMakeBorder(flat, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    rvec = np.array(rotation, np.float64)
    r, _ = cv2.Rodrigues(rvec)
    t = r @ np.array([-width / 2, -height / 2, 0]) + np.array([0, 0, distance])
    board_to_image = MATRIX @ np.column_stack([r[:, 0], r[:, 1], t])
    px_to_board = np.array([[1 / PX_PER_MM, 0, -40 / PX_PER_MM],
                            [0, 1 / PX_PER_MM, -40 / PX_PER_MM], [0, 0, 1]])
    straight = cv2.warpPerspective(flat, board_to_image @ px_to_board, SIZE, borderValue=200)
    return distort_image(cv2.cvtColor(straight, cv2.COLOR_GRAY2BGR), MATRIX, DISTORTION)


POSES = [((0.0, 0.0, 0.0), 200), ((0.4, 0.0, 0.1), 190), ((-0.4, 0.1, -0.1), 200),
         ((0.0, 0.45, 0.2), 190), ((0.1, -0.45, 0.0), 200), ((0.3, 0.3, 0.5), 210),
         ((-0.3, -0.3, -0.4), 210)]
"""Close enough for the board to reach the frame's corners, where distortion is largest."""


def test_the_lens_is_measured_from_views_of_the_charuco_board():
    lens = calibrate_intrinsics(charuco_view(r, d) for r, d in POSES)
    assert lens.views == len(POSES) and lens.rms_px < 0.5
    assert lens.matrix[0][0] == pytest.approx(1500, rel=0.02)
    assert lens.matrix[0][2] == pytest.approx(800, abs=15)
    assert lens.distortion[0] == pytest.approx(-0.25, abs=0.03)
    bent = np.array([[100.0, 100.0], [1500.0, 1100.0]])  # far corners, bent the most
    truth = cv2.undistortPoints(bent.reshape(-1, 1, 2), MATRIX, DISTORTION, P=MATRIX)
    assert np.abs(lens.undistort(bent) - truth.reshape(-1, 2)).max() < 1.0


def test_too_few_views_are_named():
    with pytest.raises(IntrinsicsError, match="1 usable views"):
        calibrate_intrinsics([charuco_view(*POSES[0]), np.zeros((600, 800, 3), np.uint8)])


def test_calibrate_intrinsics_saves_the_lens_and_the_reader_undistorts_with_it(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for n, (rotation, distance) in enumerate(POSES):
        cv2.imwrite(str(photos / f"{n}.png"), charuco_view(rotation, distance))
    out = tmp_path / "calibration"
    result = CliRunner().invoke(main, ["calibrate", "--intrinsics", str(photos),
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "7 of 7 photographs used" in result.output
    lens = lens_intrinsics(out)
    assert lens is not None

    kit = load_kit("sekigahara")
    geometry = replace(Geometry.load(kit), block_height_mm=0.0)  # tags drawn flat
    synth = Synth(geometry, kit)
    scene = place_stacks(geometry, {"kyoto": 2, "edo": 2, "sendai": 1, "tanabe": 1})
    flat = synth.photograph(scene, Camera((3200, 2400)), Look()).image
    big = MATRIX * np.array([[2, 1, 2], [1, 2, 2], [1, 1, 1]])  # the same lens, twice the pixels
    bent = distort_image(flat, big, DISTORTION)
    truth = {t.tag: t.board for t in synth.photograph(scene, Camera((3200, 2400))).truth}
    scaled = type(lens)(lens.matrix * np.array([[2, 1, 2], [1, 2, 2], [1, 1, 1]]),
                        lens.distortion, lens.rms_px, lens.views)

    def worst(reader: TableReader) -> float:
        reading = reader.read(bent)
        assert set(reading.positions) == set(truth)
        return max(float(np.hypot(*np.subtract(reading.positions[t], truth[t])))
                   for t in truth)

    assert worst(TableReader(geometry)) > 2 * worst(TableReader(geometry, intrinsics=scaled))
    assert worst(TableReader(geometry, intrinsics=scaled)) < 2.0


def test_the_charuco_sheet_reads_back_at_its_size(tmp_path):
    result = CliRunner().invoke(main, ["print-tags", "--out", str(tmp_path / "t.pdf"),
                                       "--count", "1", "--charuco"])
    assert result.exit_code == 0, result.output
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(tmp_path / "t.pdf"),
                    str(tmp_path / "page")], check=True)
    page = cv2.imread(str(next(tmp_path.glob("page*.png"))), cv2.IMREAD_GRAYSCALE)
    corners, ids, _, _ = cv2.aruco.CharucoDetector(CHARUCO.board()).detectBoard(page)
    assert ids is not None and len(ids) == CHARUCO.inner_corners
    points = corners.reshape(-1, 2)[np.argsort(ids.ravel())]
    step_px = np.hypot(*(points[1] - points[0]))
    assert step_px / 150 * 25.4 == pytest.approx(CHARUCO.square_mm, rel=0.01)
