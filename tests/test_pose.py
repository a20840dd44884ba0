"""The camera's full pose from the corner markers (issue #19, "the table in a real room"): the
point under the camera and its height come from the frame, so tags on 25 mm blocks are taken
back to where their blocks stand even from a tilted camera.

The synthetic camera (`synth.Camera`) draws the map through a homography and the blocks'
parallax about the frame's centre, and knows no camera centre; `room.Pinhole` is a real camera
(centre, rotation, focal length) whose map homography the synthetic camera is given and whose
parallax is drawn tag by tag, so the truth below is the pinhole's own."""

from __future__ import annotations

import math
import random
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.kits import load_kit
from companion.vision.corpus import random_scene
from companion.vision.detect import TagDetector, TagRead
from companion.vision.geometry import Geometry
from companion.vision.intrinsics import Intrinsics
from companion.vision.overlay import calibrate_frame, camera_height, saved
from companion.vision.pose import BOARD, LENS, PoseNotFound, camera_pose
from companion.vision.room import TWELVE_MP, Pinhole, pinhole
from companion.vision.synth import Frame, Look, Scene, Synth, random_camera
from companion.vision.table import Reading, TableReader

KIT = load_kit("sekigahara")
GEOMETRY = Geometry.load(KIT)
SYNTH = Synth(GEOMETRY, KIT)
DETECTOR = TagDetector()
SCENE = random_scene(GEOMETRY, random.Random(3))
LOOK = Look(defocus=0.4, noise=1.5, seed=7)


@cache
def camera(degrees: float) -> Pinhole:
    return pinhole(SYNTH, TWELVE_MP, degrees)


@cache
def photo(degrees: float, scene: Scene = SCENE) -> Frame:
    """The table photographed by a real camera 1 m from its centre, tilted `degrees`."""
    real = camera(degrees)
    return SYNTH.photograph(real.seen(scene, GEOMETRY.block_height_mm), real.camera(SYNTH), LOOK)


@cache
def reads(degrees: float) -> tuple[TagRead, ...]:
    return tuple(DETECTOR.detect(photo(degrees).image))


def lens(real: Pinhole) -> Intrinsics:
    return Intrinsics(real.matrix, np.zeros(5), 0.0, 0)


def errors(reading: Reading, scene: Scene = SCENE) -> list[float]:
    """How far (mm) each tag read is placed from where its block stands."""
    return [math.dist(reading.positions[t], scene.tags[t][1]) for t in scene.tags
            if t in reading.positions]


def p95(values: list[float]) -> float:
    return float(np.percentile(values, 95))


def test_the_pinhole_sees_the_map_where_the_synthetic_camera_draws_it() -> None:
    """The truth's own check: the synthetic camera given the pinhole's corners draws every
    board point where the pinhole projects it."""
    real = camera(15.0)
    drawn = real.camera(SYNTH)
    for x, y in ((0.0, 0.0), (432.0, 280.0), (864.0, 559.0), (-200.0, 500.0)):
        fx, fy = SYNTH.frame_point(drawn, x, y)
        (px, py), = real.project(np.array([[x, y, 0.0]]))
        assert math.dist((fx * TWELVE_MP[0], fy * TWELVE_MP[1]), (px, py)) < 0.5


@pytest.mark.parametrize("degrees", [0.0, 10.0, 15.0])
def test_with_the_lens_the_camera_centre_comes_back_within_a_few_mm(degrees: float) -> None:
    real = camera(degrees)
    pose = camera_pose(GEOMETRY, reads(degrees), TWELVE_MP, real.matrix)
    assert pose.source == LENS
    assert math.dist(pose.under, real.under) < 3.0
    assert abs(pose.height_mm - real.height_mm) < 3.0


@pytest.mark.parametrize("degrees", [10.0, 15.0])
def test_without_the_lens_the_focal_length_comes_from_the_perspective(degrees: float) -> None:
    real = camera(degrees)
    pose = camera_pose(GEOMETRY, reads(degrees), TWELVE_MP)
    assert pose.source == BOARD
    assert pose.focal_px == pytest.approx(real.focal_px, rel=0.01)
    assert math.dist(pose.under, real.under) < 5.0
    assert abs(pose.height_mm - real.height_mm) < 5.0


def test_looking_straight_down_without_the_lens_the_focal_length_is_not_guessed() -> None:
    """Straight down, any focal length explains the view: the pose is refused, and the
    reader falls back to the frame's centre (right here: it is the point under the camera)
    with the height given, or to no correction at all."""
    with pytest.raises(PoseNotFound, match="straight down"):
        camera_pose(GEOMETRY, reads(0.0), TWELVE_MP)
    real = camera(0.0)
    flat = TableReader(GEOMETRY, DETECTOR).read(photo(0.0).image)
    assert flat.parallax is not None and flat.parallax.height_mm is None
    assert "no camera height" in flat.parallax.how
    told = TableReader(GEOMETRY, DETECTOR, camera_height_mm=real.height_mm)
    reading = told.read(photo(0.0).image)
    assert reading.parallax is not None and reading.parallax.pose is None
    assert math.dist(reading.parallax.under, real.under) < 3.0
    assert p95(errors(flat)) > 5.0
    assert p95(errors(reading)) < 1.0


def test_at_10_degrees_the_tags_are_placed_within_3_mm_of_their_blocks() -> None:
    """The issue's target: 95th-percentile position error at 10 degrees <= 3 mm, with no
    height given and no lens calibration; placed where seen they are off by over 5 mm."""
    image = photo(10.0).image
    reading = TableReader(GEOMETRY, DETECTOR).read(image)
    assert reading.parallax is not None and reading.parallax.pose is not None
    assert "from the pose" in reading.parallax.how
    assert len(errors(reading)) == len(SCENE.tags)
    assert p95(errors(reading)) <= 3.0
    assert {t: reading.zones.get(t) for t in SCENE.tags} == {t: z for t, (z, _) in
                                                             SCENE.tags.items()}
    calibrated = TableReader(GEOMETRY, DETECTOR, intrinsics=lens(camera(10.0))).read(image)
    assert p95(errors(calibrated)) <= 3.0


def test_a_height_given_wins_over_the_poses_but_the_point_under_comes_from_the_pose() -> None:
    real = camera(10.0)
    reading = TableReader(GEOMETRY, DETECTOR, camera_height_mm=1200.0).read(photo(10.0).image)
    assert reading.parallax is not None and reading.parallax.height_mm == 1200.0
    assert "1200 mm measured" in reading.parallax.how
    assert math.dist(reading.parallax.under, real.under) < 5.0


def _cover_markers(image: np.ndarray, found: tuple[TagRead, ...], ids: set[int]) -> np.ndarray:
    """`image` with the corner markers `ids` painted over (table colour): unseen."""
    covered = image.copy()
    for read in found:
        if read.id in ids:
            middle = read.corners.mean(axis=0)
            grown = (read.corners - middle) * 1.6 + middle
            cv2.fillConvexPoly(covered, grown.astype(np.int32), (88, 120, 150))
    return covered


def test_with_two_corner_markers_the_last_pose_is_kept_else_the_frame_centre() -> None:
    """Two markers covered: the board's calibration and the pose cannot be estimated. A
    reader that saw the whole board keeps both (its tags stay within 3 mm); one given only
    the calibration falls back to the frame's centre and the height given, and says so."""
    image = _cover_markers(photo(10.0).image, reads(10.0), {2, 3})
    assert {r.id for r in DETECTOR.detect(image)} & set(GEOMETRY.corners) == {0, 1}
    reader = TableReader(GEOMETRY, DETECTOR)
    first = reader.read(photo(10.0).image)
    kept = reader.read(image)
    assert kept.parallax is not None and first.parallax is not None
    assert kept.parallax.pose is first.parallax.pose is not None
    assert p95(errors(kept)) <= 3.0
    real = camera(10.0)
    fresh = TableReader(GEOMETRY, DETECTOR, calibration=reader.calibration,
                        camera_height_mm=real.height_mm).read(image)
    assert fresh.board_found and fresh.parallax is not None and fresh.parallax.pose is None
    assert "2 of 4 corner markers seen" in fresh.parallax.how
    assert "frame's centre" in fresh.parallax.how
    assert reader.calibration is not None
    centre = reader.calibration.board_point(TWELVE_MP[0] / 2, TWELVE_MP[1] / 2)
    assert fresh.parallax.under == centre
    assert p95(errors(fresh)) > 3.0  # the old behaviour, measured: the pose is worth it


def test_a_view_no_pinhole_gives_is_refused() -> None:
    """The synthetic camera's random corner offsets are no pinhole's view: the markers fit
    one within noise, but no camera centred on the frame, and no focal length is made up."""
    rng = random.Random(11)
    half = GEOMETRY.corner_size_mm / 2
    for _ in range(20):
        view = random_camera(rng, TWELVE_MP, tilt=0.06, k1=0.0)
        found = []
        for tag, (x, y) in GEOMETRY.corners.items():
            corners = [SYNTH.frame_point(view, x + dx, y + dy) for dx, dy in
                       ((-half, -half), (half, -half), (half, half), (-half, half))]
            found.append(TagRead(tag, np.array(corners, np.float32) * TWELVE_MP, 0, 100.0))
        with pytest.raises(PoseNotFound, match=r"no camera centred|no lens has"):
            camera_pose(GEOMETRY, found, TWELVE_MP)


def test_calibrate_saves_the_pose_for_a_person_to_check(tmp_path: Path) -> None:
    calibrate_frame(GEOMETRY, photo(10.0).image, tmp_path, DETECTOR)
    pose = saved(tmp_path)["pose"]
    assert pose["focal_from"] == BOARD
    assert abs(pose["height_mm"] - camera(10.0).height_mm) < 5.0
    assert math.dist(pose["under_camera_mm"], camera(10.0).under) < 5.0
    assert camera_height(tmp_path) is None  # a tape's height only: the reader's pose is live
    calibrate_frame(GEOMETRY, photo(0.0).image, tmp_path, DETECTOR)
    assert "straight down" in saved(tmp_path)["pose"]["not_found"]
