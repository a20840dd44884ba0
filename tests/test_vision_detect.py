"""The two-stage detector (candidates on a reduced copy, decoding at full resolution) against
OpenCV's plain full-resolution detector: same ids under each perturbation and rotation, the same
corners, quality fields that filter weak reads, and no reads from patterns that are not tags."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.kits import load_kit
from companion.vision.detect import DetectorConfig, TagDetector
from companion.vision.geometry import Geometry
from companion.vision.synth import PX_PER_MM, Camera, Look, Synth, place_stacks, random_camera

KIT = load_kit("sekigahara")
GEOMETRY = Geometry.load(KIT)
SYNTH = Synth(GEOMETRY, KIT)
SIZE = (4056, 3040)
SCENE = place_stacks(GEOMETRY, {"kyoto": 4, "osaka": 3, "gifu": 5, "edo": 2,
                                "ishida_recruitment": 3, "mori_box": 2, "eliminated": 2})
CAMERA = random_camera(random.Random(11), SIZE, k1=0.0)  # a pinhole: true corners known
DETECTOR = TagDetector()
ALL = set(SCENE.tags) | set(GEOMETRY.corners)


@pytest.mark.parametrize("look", [
    Look(), Look(defocus=1.2, seed=1), Look(motion=5, seed=2), Look(noise=6, seed=3),
    Look(light=0.4, seed=4), Look(glare=0.4, seed=5),
    Look(defocus=1.0, motion=3, noise=5, light=0.3, glare=0.3, seed=6),
], ids=["clean", "defocus", "motion", "noise", "light", "glare", "all"])
def test_the_fast_path_finds_what_the_plain_detector_finds(look):
    frame = SYNTH.photograph(SCENE, CAMERA, look)
    fast = {r.id: r for r in DETECTOR.detect(frame.image)}
    plain = {r.id: r for r in DETECTOR.detect_plain(frame.image)}
    assert set(plain) == ALL  # the reference reads everything on these frames...
    assert set(fast) == ALL  # ...and so does the fast path, with no id that is not there
    truth = true_corners(CAMERA)
    for tag in SCENE.tags:  # where the tag really is, corner for corner, within a pixel or so
        # (the plain detector's own corners are up to 2 px off under blur: not the truth)
        assert np.abs(fast[tag].corners - truth[tag]).max() < 1.5, tag


def true_corners(camera: Camera) -> dict[int, np.ndarray]:
    """Each block tag's corners in the frame (top-left first, clockwise), from the pose."""
    matrix, half = SYNTH.homography(camera), GEOMETRY.tag_mm * PX_PER_MM / 2
    left, top, _, _ = GEOMETRY.extent
    found = {}
    for tag, (_, (x, y)) in SCENE.tags.items():
        # drawn over canvas pixels [centre - half, centre + half): edges half a pixel out
        cx, cy = round((x - left) * PX_PER_MM) - 0.5, round((y - top) * PX_PER_MM) - 0.5
        points = [(cx + dx, cy + dy) for dx, dy in
                  ((-half, -half), (half, -half), (half, half), (-half, half))]
        found[tag] = cv2.perspectiveTransform(np.array([points], np.float32), matrix)[0]
    return found


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180,
                                  cv2.ROTATE_90_COUNTERCLOCKWISE])
def test_corners_start_at_the_tags_own_top_left_whatever_its_rotation(turn):
    image = cv2.rotate(SYNTH.photograph(SCENE, CAMERA, Look(noise=3, seed=7)).image, turn)
    fast = {r.id: r for r in DETECTOR.detect(image)}
    plain = {r.id: r for r in DETECTOR.detect_plain(image)}
    assert set(fast) == set(plain) == ALL
    for tag, read in fast.items():
        assert np.abs(read.corners - plain[tag].corners).max() < 1.5, tag


def test_steep_poses_and_lens_distortion_read_like_the_plain_detector():
    for seed in range(3):
        camera = random_camera(random.Random(seed), SIZE, tilt=0.1, k1=0.06)
        image = SYNTH.photograph(SCENE, camera, Look(noise=3, seed=seed)).image
        assert {r.id for r in DETECTOR.detect(image)} >= \
            {r.id for r in DETECTOR.detect_plain(image)}


def test_a_small_frame_is_searched_at_full_resolution():
    camera = random_camera(random.Random(3), (2000, 1500), tilt=0.02, k1=0.0)
    image = SYNTH.photograph(SCENE, camera).image  # tags about 21 px wide, 2.6 px a cell
    fast = {r.id for r in DETECTOR.detect(image)}  # not reduced: longer side <= max_side
    assert fast >= {r.id for r in DETECTOR.detect_plain(image)} and len(fast) >= 0.9 * len(ALL)


def test_reads_carry_quality_and_weak_reads_are_filtered():
    image = SYNTH.photograph(SCENE, CAMERA).image
    clean = DETECTOR.detect(image)
    assert all(r.hamming == 0 and r.margin > 0.5 for r in clean)
    washed = cv2.addWeighted(image, 0.12, np.full_like(image, 200), 0.88, 0)  # fog: low contrast
    weak = DETECTOR.detect(washed)
    assert weak and all(r.margin < 0.2 for r in weak)  # still read, but visibly weak
    strict = TagDetector(DetectorConfig(min_margin=0.2))
    assert strict.detect(washed) == []  # and a stricter margin drops them


def test_a_damaged_tag_reads_with_its_hamming_distance_or_not_at_all():
    scene = place_stacks(GEOMETRY, {"kyoto": 1})
    tag = next(iter(scene.tags))
    image = SYNTH.photograph(scene, CAMERA).image
    read = next(r for r in DETECTOR.detect(image) if r.id == tag)
    cell = (read.corners[1] - read.corners[0]) / 8, (read.corners[3] - read.corners[0]) / 8
    damaged = image.copy()
    for row, col in ((2, 2), (4, 5)):  # two data cells painted over with their opposite
        # (the whole cell and a pixel about it: the light-model read samples a quad grown by
        # a pixel, which would see a cell nine tenths painted as still partly itself)
        centre = read.corners[0] + cell[0] * (col + 0.5) + cell[1] * (row + 0.5)
        x, y = (int(v) for v in centre)
        colour = 255 - int(cv2.cvtColor(image[y:y + 1, x:x + 1], cv2.COLOR_BGR2GRAY)[0, 0])
        half = int(np.linalg.norm(cell[0]) * 0.5) + 1
        damaged[y - half:y + half, x - half:x + half] = 0 if colour < 128 else 255
    reads = {r.id: r for r in DETECTOR.detect(damaged)}
    assert reads[tag].hamming == 2
    strict = TagDetector(DetectorConfig(max_hamming=1, second_max_hamming=1))
    assert tag not in {r.id for r in strict.detect(damaged)}  # (the second chance as well)


def far_from_every_code(rng: np.random.Generator) -> np.ndarray:
    """6x6 bits at least 6 bits from every 36h11 code in every rotation: not a tag."""
    dictionary = DETECTOR.dictionary
    while True:
        bits = (rng.random((6, 6)) > 0.5).astype(np.uint8)
        if min(dictionary.getDistanceToId(bits, tag, True)
               for tag in range(len(dictionary.bytesList))) >= 6:
            return bits


def test_squares_that_are_not_tags_give_no_reads():
    image = np.full((3040, 4056, 3), 220, np.uint8)
    rng = np.random.default_rng(0)
    for k in range(60):  # dark squares, and black-bordered 8x8 patterns that are no code
        x, y, side = 60 + (k % 10) * 390, 60 + (k // 10) * 480, 44
        patch = np.zeros((8, 8), np.uint8)
        if k % 3:
            patch[1:-1, 1:-1] = far_from_every_code(rng) * 255
        cell = cv2.resize(patch, (side, side), interpolation=cv2.INTER_NEAREST)
        image[y:y + side, x:x + side] = cell[:, :, None]
    assert DETECTOR.detect(image) == []
