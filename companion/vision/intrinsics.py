"""Lens intrinsics from a ChArUco board: optional, for lenses whose distortion bends the map.

The board's pose from four corner markers is a homography: exact for a pinhole camera, a few
millimetres off in the middle of the map with a wide lens. Photographing a printed ChArUco
board (`companion print-tags --charuco`) from several angles and running `companion calibrate
--intrinsics FOLDER` measures the camera matrix and the distortion (OpenCV's model); the table
reader then undistorts every tag corner before placing it. The board's markers come from a
different dictionary (4x4) than the blocks' AprilTags, so it can never be read as blocks.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.vision.detect import to_grey

if TYPE_CHECKING:  # fpdf takes 0.3 s to import: only the commands that print load it
    pass

__all__ = [
    "CHARUCO", "CharucoSpec", "Intrinsics", "IntrinsicsError", "calibrate_intrinsics",
    "distort_image", "write_charuco_sheet",
]


class IntrinsicsError(Exception):
    """Too few usable views of the ChArUco board."""


@dataclass(frozen=True)
class CharucoSpec:
    squares: tuple[int, int] = (7, 5)
    square_mm: float = 25.0
    marker_mm: float = 18.0
    dictionary: int = cv2.aruco.DICT_4X4_50

    def board(self) -> cv2.aruco.CharucoBoard:
        bank = cv2.aruco.getPredefinedDictionary(self.dictionary)
        return cv2.aruco.CharucoBoard(self.squares, self.square_mm, self.marker_mm, bank)

    @property
    def size_mm(self) -> tuple[float, float]:
        return self.squares[0] * self.square_mm, self.squares[1] * self.square_mm

    @property
    def inner_corners(self) -> int:
        return (self.squares[0] - 1) * (self.squares[1] - 1)


CHARUCO = CharucoSpec()


@dataclass(frozen=True)
class Intrinsics:
    matrix: np.ndarray
    """3x3 camera matrix (pixels)."""
    distortion: np.ndarray
    """OpenCV's distortion coefficients (k1, k2, p1, p2, k3)."""
    rms_px: float
    views: int

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Frame pixels as a distortion-free lens would have seen them (Nx2)."""
        shaped = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.undistortPoints(shaped, self.matrix, self.distortion,
                                   P=self.matrix).reshape(-1, 2)

    def to_yaml(self) -> dict[str, Any]:
        return {"matrix": self.matrix.tolist(), "distortion": self.distortion.ravel().tolist(),
                "rms_px": round(self.rms_px, 4), "views": self.views}

    @classmethod
    def from_yaml(cls, data: dict[str, Any]) -> Intrinsics:
        return cls(np.array(data["matrix"], np.float64),
                   np.array(data["distortion"], np.float64), float(data["rms_px"]),
                   int(data["views"]))


def write_charuco_sheet(path: Path, spec: CharucoSpec = CHARUCO) -> None:
    """The ChArUco board on A4 at exact size (print at 100 %, check one square with a ruler)."""
    width, height = spec.size_mm
    image = spec.board().generateImage((round(width * 10), round(height * 10)), marginSize=0)
    ok, png = cv2.imencode(".png", image)
    assert ok
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.add_page()
    x, y = (210 - width) / 2, 30.0
    pdf.image(io.BytesIO(png.tobytes()), x=x, y=y, w=width, h=height)
    pdf.set_font("helvetica", size=8)
    pdf.set_xy(x, y + height + 4)
    pdf.cell(width, 4, f"ChArUco {spec.squares[0]}x{spec.squares[1]}, squares "
                       f"{spec.square_mm} mm, markers {spec.marker_mm} mm (4x4): print at 100 %")
    pdf.output(str(path))


def calibrate_intrinsics(images: Iterable[np.ndarray], spec: CharucoSpec = CHARUCO,
                         min_corners: int = 8, min_views: int = 4) -> Intrinsics:
    """The camera matrix and distortion from photographs of the ChArUco board."""
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    objects, points = [], []
    size: tuple[int, int] | None = None
    for image in images:
        plain = to_grey(image)
        size = (plain.shape[1], plain.shape[0])
        corners, ids, _, _ = detector.detectBoard(plain)
        if ids is None or len(ids) < min_corners:
            continue
        obj, img = board.matchImagePoints(corners, ids)  # type: ignore[call-overload]
        objects.append(obj)
        points.append(img)
    if size is None or len(objects) < min_views:
        raise IntrinsicsError(f"{len(objects)} usable views of the ChArUco board; {min_views} "
                              f"are needed, each showing at least {min_corners} corners")
    # k3 fixed at 0: a handful of photographs cannot pin a sixth-order term, and a free one
    # bends the frame's corners (where the map's edge is) far off.
    rms, matrix, distortion, _, _ = cv2.calibrateCamera(objects, points, size, None, None,
                                                        flags=cv2.CALIB_FIX_K3)
    return Intrinsics(matrix, distortion.ravel(), float(rms), len(objects))


def distort_image(image: np.ndarray, matrix: np.ndarray, distortion: np.ndarray) -> np.ndarray:
    """What a lens with `distortion` shows of a distortion-free `image` (OpenCV's model):
    each output pixel takes the colour of the point the lens bent onto it."""
    height, width = image.shape[:2]
    grid = np.indices((height, width), dtype=np.float32)[::-1].reshape(2, -1).T
    source = cv2.undistortPoints(grid.reshape(-1, 1, 2), matrix, distortion, P=matrix)
    maps = source.reshape(height, width, 2)
    return cv2.remap(image, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR,
                     borderValue=(40, 60, 70))
