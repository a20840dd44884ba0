"""The camera's full pose from the board's corner markers (issue #19, "the table in a real
room"): where the camera is, in board millimetres, so that the point under it and its height
come from the frame itself, not from the frame's centre or a tape measure.

A tag on a standing block is `block_height_mm` above the map; seen from the camera it appears
pushed away from the point under the camera by height / (camera height - height). A camera
tilted by 10 degrees at 1 m looks at a point about 175 mm from the one under it, so taking the
frame's centre for it misplaces the tags near the edges by several millimetres.

Board coordinates: x to the right, y down (as the map is printed), z = x cross y, into the
table: a camera above the map has a negative z, and its height is -z.

With the lens calibration (`Intrinsics`) the pose is `cv2.solvePnP` over the corner markers'
corners (undistorted first). Without one the focal length is fitted to the markers' corners
(square pixels, no skew, the principal point at the frame's centre; started from the standard
closed form on the map's homography). A camera looking straight down shows no perspective at
all: any focal length explains the view, so where the view does not fix it to within 10 % the
estimate is refused (`PoseNotFound`), as it is when the markers do not fit one pinhole view,
and the reader falls back to the frame's centre.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detect import TagRead
from companion.vision.geometry import Geometry

__all__ = ["Pose", "PoseNotFound", "camera_pose", "focal_from_homography", "marker_points"]

LENS = "lens calibration"
BOARD = "focal length from the board's perspective"


class PoseNotFound(Exception):
    """The corner markers seen do not fix the camera's pose; the message says why."""


@dataclass(frozen=True)
class Pose:
    """Where the camera is over the table, in board millimetres."""

    centre: tuple[float, float, float]
    """The camera's optical centre (x, y, z); z is negative above the map."""
    focal_px: float
    """The focal length used (the lens calibration's, or the one estimated)."""
    source: str
    """`LENS` or `BOARD`: where the focal length came from."""
    error_px: float
    """Root-mean-square reprojection error of the markers' corners."""

    @property
    def under(self) -> tuple[float, float]:
        """The board point straight under the camera: tags appear pushed away from it."""
        return self.centre[0], self.centre[1]

    @property
    def height_mm(self) -> float:
        """The camera's height above the map."""
        return -self.centre[2]


def marker_points(geometry: Geometry, reads: Iterable[TagRead]) -> tuple[np.ndarray, np.ndarray]:
    """The corner markers' corners: frame pixels (Nx2) and board millimetres (Nx2), in
    matching order (every corner of every marker is a correspondence)."""
    frame_pts: list[tuple[float, float]] = []
    board_pts: list[tuple[float, float]] = []
    half = geometry.corner_size_mm / 2
    for read in reads:
        if read.id in geometry.corners:
            cx, cy = geometry.corners[read.id]
            board_pts += [(cx - half, cy - half), (cx + half, cy - half),
                          (cx + half, cy + half), (cx - half, cy + half)]
            frame_pts += [(float(x), float(y)) for x, y in read.corners]
    return np.array(frame_pts, np.float64).reshape(-1, 2), \
        np.array(board_pts, np.float64).reshape(-1, 2)


def focal_from_homography(to_frame: np.ndarray, centre: tuple[float, float]) -> float | None:
    """A first focal length (pixels) for a pinhole with square pixels and its principal point
    at `centre` that sees the board through `to_frame` (board mm -> frame pixels), or None.

    The homography's first two columns are the board's axes seen through the lens (K r1, K r2
    up to scale): orthogonal and of equal length, each a linear equation in 1/f^2, solved
    together by least squares (a tilt about one of the frame's axes leaves the first one
    empty, so neither alone will do). Only a start for `_fit_focal`: how well the view fixes
    f is judged there, on the markers' corners themselves."""
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]], np.float64)
    h = shift @ to_frame
    h = h / np.linalg.norm(h[:, :2])
    (a, b), (c, d), (e, g) = h[0, :2], h[1, :2], h[2, :2]
    # orthogonal: (ab + cd) w + eg = 0; equal length: (a2 + c2 - b2 - d2) w + e2 - g2 = 0
    rows = np.array([[a * b + c * d, e * g], [a * a + c * c - b * b - d * d, e * e - g * g]])
    weight = float(np.sum(rows[:, 0] ** 2))
    w = -float(rows[:, 0] @ rows[:, 1]) / weight if weight > 0 else 0.0
    return 1 / math.sqrt(w) if w > 0 else None


def _camera_matrix(focal: float, size: tuple[int, int]) -> np.ndarray:
    return np.array([[focal, 0, size[0] / 2], [0, focal, size[1] / 2], [0, 0, 1]], np.float64)


_ONE_VIEW = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
             | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K1
             | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3 | cv2.CALIB_FIX_K4 | cv2.CALIB_FIX_K5
             | cv2.CALIB_FIX_K6)
"""Calibrating from the one view of the markers: only the focal length is free."""


def _fit_focal(frame_pts: np.ndarray, board_pts: np.ndarray, size: tuple[int, int],
               tolerance: float, pinhole: float) -> float:
    """The focal length that best fits the markers' corners (the pose free with it), found
    by OpenCV's calibration on this one view from the closed form's start.

    The corners' own noise is the residual of the plain homography (8 parameters, any view
    of a plane). A pinhole at the frame's centre has one fewer (7): if it fits worse than
    the homography by more than `pinhole` pixels (rms over the corners), the view is not
    such a camera's (or the lens bends it) and its focal length means nothing (a principal
    point 1 % of the frame's width off the centre costs about 1 px at 10 degrees; the
    synthetic camera's random corner offsets, not a pinhole's view, 2 to 34 px). And how well
    the view fixes f: with f off by `tolerance` (relative) either way, the best pose must fit
    worse by at least the noise, else a focal length that far off explains the view as well
    (a camera looking straight down shows no perspective: any focal length does).

    Raises PoseNotFound: not a pinhole's view, or one that does not fix the focal length."""
    to_frame, _ = cv2.findHomography(board_pts, frame_pts)
    if to_frame is None:
        raise PoseNotFound("the corner markers do not fit one board")
    mapped = cv2.perspectiveTransform(board_pts.reshape(-1, 1, 2), to_frame).reshape(-1, 2)
    noise = max(float(np.sum((mapped - frame_pts) ** 2)) / max(1, frame_pts.size - 8),
                0.05 ** 2)  # per degree of freedom, at least a twentieth of a pixel
    start = focal_from_homography(to_frame, (size[0] / 2, size[1] / 2)) or float(max(size))
    objects = [_objects(board_pts).astype(np.float32)]
    _, matrix, *_ = cv2.calibrateCamera(objects, [frame_pts.astype(np.float32)], size,
                                        _camera_matrix(start, size), np.zeros(5),
                                        flags=_ONE_VIEW)
    focal = float(matrix[0, 0])
    best = _squared_error(frame_pts, board_pts, _camera_matrix(focal, size))
    excess = max(0.0, best - noise * (frame_pts.size - 8)) / (frame_pts.size / 2)
    if math.sqrt(excess) > pinhole:
        raise PoseNotFound("the corner markers fit no camera centred on the frame (a view "
                           "bent by the lens, or not a camera's)")
    worse = min(_squared_error(frame_pts, board_pts, _camera_matrix(focal * k, size))
                for k in (1 - tolerance, 1 + tolerance))
    if worse - best < noise:
        raise PoseNotFound(f"the board's perspective does not fix the focal length to within "
                           f"{tolerance:.0%} (a camera looking straight down, or nearly)")
    return focal


def _objects(board_pts: np.ndarray) -> np.ndarray:
    """Board points on the map: z = 0."""
    return np.hstack([board_pts, np.zeros((len(board_pts), 1))])


def _fit(frame_pts: np.ndarray, board_pts: np.ndarray,
         matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The best pose for this camera matrix (solvePnP, IPPE: exact for a plane and needing no
    start, then refined), with each corner's reprojection error (Nx2); None: no pose."""
    objects = _objects(board_pts)
    ok, rvec, tvec = cv2.solvePnP(objects, frame_pts, matrix, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return None
    rvec, tvec = cv2.solvePnPRefineLM(objects, frame_pts, matrix, None, rvec, tvec)
    back, _ = cv2.projectPoints(objects, rvec, tvec, matrix, None)
    return rvec, tvec, back.reshape(-1, 2) - frame_pts


def _squared_error(frame_pts: np.ndarray, board_pts: np.ndarray, matrix: np.ndarray) -> float:
    """The sum of squared reprojection errors of the best pose for this camera matrix."""
    fit = _fit(frame_pts, board_pts, matrix)
    return math.inf if fit is None else float(np.sum(fit[2] ** 2))


def _solve(frame_pts: np.ndarray, board_pts: np.ndarray, matrix: np.ndarray,
           source: str) -> Pose:
    """The camera's pose for this camera matrix: its centre in board millimetres."""
    fit = _fit(frame_pts, board_pts, matrix)
    if fit is None:
        raise PoseNotFound("solvePnP found no pose for the corner markers")
    rvec, tvec, residuals = fit
    rotation, _ = cv2.Rodrigues(rvec)
    centre = (-rotation.T @ tvec).ravel()
    if centre[2] >= 0:
        raise PoseNotFound("the pose puts the camera under the table")
    error = float(np.sqrt(np.mean(np.sum(residuals ** 2, axis=1))))
    return Pose((float(centre[0]), float(centre[1]), float(centre[2])),
                float(matrix[0, 0]), source, error)


def camera_pose(geometry: Geometry, reads: Iterable[TagRead], size: tuple[int, int],
                lens: np.ndarray | None = None, minimum: int = 3, max_error_px: float = 3.0,
                tolerance: float = 0.1, pinhole: float = 1.5,
                focal_widths: tuple[float, float] = (0.3, 3.0),
                heights_mm: tuple[float, float] = (200.0, 3000.0)) -> Pose:
    """The camera's pose from the corner markers among `reads` (frame pixels, already
    undistorted if there is a lens calibration) in a frame of `size` (width, height).

    `lens`: the calibrated camera matrix; without it the focal length is estimated from the
    board's perspective (principal point at the frame's centre). At least `minimum` markers
    must show (the homography, hence the focal length, needs the board's spread).

    A focal length estimated from the view must lie within `focal_widths` frame widths (a
    field of view of 19 to 118 degrees: the Pi's lenses span 0.43 to 2.54 widths), and the
    camera's height within `heights_mm` (over a table in a room): a view that is not quite a
    pinhole's can be explained by a camera 10 m up with a telephoto lens, which no table has.

    Raises PoseNotFound: too few markers, no focal length the view fixes (or an implausible
    one), markers that the pose does not fit within `max_error_px` (not one flat board seen
    through a pinhole), or a camera where none can be."""
    frame_pts, board_pts = marker_points(geometry, reads)
    seen = len(frame_pts) // 4
    if seen < minimum:
        raise PoseNotFound(f"{seen} of {len(geometry.corners)} corner markers seen; "
                           f"{minimum} are needed for the camera's pose")
    if lens is not None:
        matrix, source = np.asarray(lens, np.float64), LENS
    else:
        focal = _fit_focal(frame_pts, board_pts, size, tolerance, pinhole)
        if not focal_widths[0] <= focal / size[0] <= focal_widths[1]:
            raise PoseNotFound(f"the board's perspective gives a focal length of "
                               f"{focal / size[0]:.2f} frame widths, which no lens has")
        matrix, source = _camera_matrix(focal, size), BOARD
    pose = _solve(frame_pts, board_pts, matrix, source)
    if pose.error_px > max_error_px:
        raise PoseNotFound(f"the pose fits the corner markers only to {pose.error_px:.1f} px")
    if not heights_mm[0] <= pose.height_mm <= heights_mm[1]:
        raise PoseNotFound(f"the pose puts the camera {pose.height_mm:.0f} mm above the map")
    return pose
