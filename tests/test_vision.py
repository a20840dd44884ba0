"""The vision pipeline on synthetic tables: detection under each perturbation, calibration at
several poses, zone mapping, the stable tracker, bad inputs, sources, tag sheets (5)."""

from __future__ import annotations

import random
import subprocess

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.kits import load_kit
from companion.vision.corpus import random_scene, sequences
from companion.vision.detect import TagDetector
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.sources import CameraSource, ImageFolder
from companion.vision.synth import Camera, Look, Synth, place_stacks, random_camera
from companion.vision.table import (
    BoardNotFound,
    Reading,
    StableTracker,
    TableReader,
    calibrate,
)

KIT = load_kit("sekigahara")
GEOMETRY = Geometry.load(KIT)
SYNTH = Synth(GEOMETRY, KIT)
SIZE = (4056, 3040)
SCENE = place_stacks(GEOMETRY, {"kyoto": 3, "osaka": 4, "edo": 2, "kiso": 1, "gifu": 3,
                                "ishida_recruitment": 4, "tokugawa_recruitment": 3,
                                "mori_box": 2, "eliminated": 2})
CAMERA = random_camera(random.Random(7), SIZE)


def recall(frame, reader=None) -> tuple[float, int]:
    reading = (reader or TableReader(GEOMETRY)).read(frame.image)
    truth = {t.tag: t for t in frame.truth if t.visible}
    right = sum(reading.zones.get(tag) == fact.zone for tag, fact in truth.items())
    wrong_ids = sum(1 for tag in reading.zones if tag not in {t.tag for t in frame.truth})
    return right / len(truth), wrong_ids


def test_zones_nearest_location_ambiguous_between_outside_none():
    kyoto = GEOMETRY.zone("kyoto")
    assert GEOMETRY.zone_of(*kyoto.center) == "kyoto"
    minakuchi, kuwana = GEOMETRY.zone("minakuchi"), GEOMETRY.zone("kuwana")
    middle = ((minakuchi.center[0] + kuwana.center[0]) / 2,
              (minakuchi.center[1] + kuwana.center[1]) / 2)
    assert GEOMETRY.zone_of(*middle) == AMBIGUOUS  # between two: never guessed
    assert GEOMETRY.zone_of(430, 30) is None  # open map, far from every location
    x, y, w, h = GEOMETRY.zone("card_scan").rect
    assert GEOMETRY.zone_of(x + w / 2, y + h / 2) == "card_scan"


def test_a_clean_table_is_read_completely_and_exactly():
    frame = SYNTH.photograph(SCENE, Camera(SIZE))
    reads = TagDetector().detect(frame.image)
    assert {r.id for r in reads} == set(SCENE.tags) | set(GEOMETRY.corners)
    assert all(r.hamming == 0 and r.margin > 0.5 for r in reads)
    assert recall(frame) == (1.0, 0)


@pytest.mark.parametrize("look", [
    Look(defocus=1.2), Look(motion=5), Look(noise=6), Look(light=0.4), Look(glare=0.4),
], ids=["defocus", "motion", "noise", "light", "glare"])
def test_each_perturbation_keeps_the_tags_in_their_zones(look):
    assert recall(SYNTH.photograph(SCENE, CAMERA, look)) == (1.0, 0)


def test_lens_distortion_and_steep_poses_keep_the_tags_in_their_zones():
    for seed, tilt in ((1, 0.06), (2, 0.09), (3, 0.12)):
        camera = random_camera(random.Random(seed), SIZE, tilt=tilt, k1=0.06)
        score, wrong = recall(SYNTH.photograph(SCENE, camera, Look(noise=3, seed=seed)))
        assert score >= 0.95 and wrong == 0, (seed, tilt, score)


def test_calibration_from_corner_markers_places_the_board_at_several_poses():
    for seed in range(4):
        camera = random_camera(random.Random(seed), SIZE, tilt=0.08, k1=0.0)
        frame = SYNTH.photograph(SCENE, camera)
        calibration = calibrate(GEOMETRY, TagDetector().detect(frame.image))
        assert calibration.corners_seen == 4 and calibration.error_mm < 1.0
        reads = {r.id: r for r in TagDetector().detect(frame.image)}
        placed = [fact for fact in frame.truth if fact.tag in reads]
        assert len(placed) >= 0.95 * len(frame.truth)
        for fact in placed:
            x, y = calibration.board_point(*reads[fact.tag].center)
            assert abs(x - fact.board[0]) < 2.0 and abs(y - fact.board[1]) < 2.0


def test_a_hand_hides_tags_and_the_frame_is_not_trusted():
    """A hand is told from the table by change against the stable table (issue #19, no longer
    by skin colour): the reader sees the table still first, then the hand at rest."""
    reader, tracker = TableReader(GEOMETRY), StableTracker()
    for seed in range(3):
        tracker.feed(reader.read(SYNTH.photograph(SCENE, CAMERA, Look(seed=seed)).image))
    assert tracker.stable is not None
    frame = SYNTH.photograph(SCENE, CAMERA, Look(hand=(0.3, 0.45, 0.18), seed=3))
    assert any(not t.visible for t in frame.truth)
    reader.read(frame.image)
    resting = reader.read(frame.image)  # no motion since the last frame
    assert resting.occluded and resting.moving  # a hand at rest is still a hand
    assert tracker.feed(resting) is None


def test_no_board_visible_and_a_covered_corner():
    blank = np.full((1080, 1920, 3), 90, np.uint8)
    assert TableReader(GEOMETRY).read(blank).board_found is False
    with pytest.raises(BoardNotFound, match="0 of 4 corner markers"):
        calibrate(GEOMETRY, [])
    frame = SYNTH.photograph(SCENE, Camera(SIZE), Look(hand=(0.23, 0.2, 0.1), seed=1))
    reads = TagDetector().detect(frame.image)
    assert len([r for r in reads if r.id in GEOMETRY.corners]) == 3
    assert calibrate(GEOMETRY, reads).corners_seen == 3  # three corners still place it


def test_unknown_tag_ids_are_reported_not_placed():
    reader = TableReader(GEOMETRY, known_tags=frozenset(list(SCENE.tags)[:-2]))
    reading = reader.read(SYNTH.photograph(SCENE, Camera(SIZE)).image)
    assert set(reading.unknown) == set(list(SCENE.tags)[-2:])
    assert not set(reading.unknown) & set(reading.zones)


def reading(zones, moving=False):
    return Reading(zones, (), (), True, moving)


def test_the_tracker_waits_for_agreement_ignores_flicker_and_reports_moves():
    tracker = StableTracker(agree=3, grace=2)
    table = {10: "kyoto", 11: "osaka"}
    assert [tracker.feed(reading(table)) for _ in range(2)] == [None, None]
    first = tracker.feed(reading(table))
    assert first is not None and dict(first.appeared) == table
    assert tracker.feed(reading({10: "kyoto"})) is None  # 11 flickers for a frame
    for _ in range(3):
        assert tracker.feed(reading(table)) is None
    for _ in range(2):
        assert tracker.feed(reading({10: "kyoto", 11: "kyoto"}, moving=True)) is None
    diffs = [tracker.feed(reading({10: "kyoto", 11: "kyoto"})) for _ in range(3)]
    assert diffs[:2] == [None, None] and dict(diffs[2].moved) == {11: ("osaka", "kyoto")}


def test_an_ambiguous_tag_holds_the_snapshot_back():
    tracker = StableTracker(agree=2)
    for _ in range(4):
        assert tracker.feed(reading({10: "kyoto", 11: AMBIGUOUS})) is None
    assert tracker.stable is None


@pytest.mark.slow
def test_a_hand_sequence_gives_no_spurious_diffs():
    for sequence in sequences(SYNTH, 2, SIZE, seed=4):
        reader, tracker = TableReader(GEOMETRY), StableTracker()
        diffs = [tracker.feed(reader.read(f.image)) for f in sequence.frames]
        found = [d for d in diffs if d is not None]
        assert len(found) == 1 and not found[0].moved  # the table as first seen, then nothing


def test_image_folder_skips_unreadable_files(tmp_path):
    frame = SYNTH.photograph(random_scene(GEOMETRY, random.Random(2)), Camera((1280, 960)))
    cv2.imwrite(str(tmp_path / "a.png"), frame.image)
    (tmp_path / "b.jpg").write_bytes(b"not a picture")
    cv2.imwrite(str(tmp_path / "c.png"), frame.image)
    source = ImageFolder(tmp_path)
    assert source.next_frame() is not None
    assert source.next_frame() is not None and "b.jpg" not in source.status
    assert source.next_frame() is None and source.status == "no more images"


def test_a_missing_camera_backs_off_and_says_so():
    waits = []
    source = CameraSource(index="/dev/no-such-camera", sleep=waits.append)
    assert source.next_frame() is None and "not available" in source.status
    source.next_frame()
    source.next_frame()
    assert waits == [0.5, 1.0]


def test_tag_sheets_read_back_at_their_size(tmp_path):
    out = tmp_path / "tags.pdf"
    result = CliRunner().invoke(main, ["print-tags", "--out", str(out), "--count", "12",
                                       "--first", "40"])
    assert result.exit_code == 0, result.output
    subprocess.run(["pdftoppm", "-r", "300", "-f", "1", "-l", "1", "-png", str(out),
                    str(tmp_path / "page")], check=True)
    page = cv2.imread(str(next(tmp_path.glob("page*.png"))))
    reads = TagDetector().detect_plain(page)
    assert {r.id for r in reads} == set(range(40, 52))
    side_px = np.mean([np.linalg.norm(r.corners[0] - r.corners[1]) for r in reads])
    assert abs(side_px / 300 * 25.4 - 14.0) < 0.5  # 14 mm as printed


def test_corner_markers_are_printed_as_the_games_board_file_places_them(tmp_path):
    out = tmp_path / "tags.pdf"
    result = CliRunner().invoke(main, ["print-tags", "--out", str(out), "--count", "1",
                                       "--corners", "--game", "rumble"])
    assert result.exit_code == 0, result.output
    assert "the 4 board corner markers of Rumble Nation, 40 mm" in result.output
    subprocess.run(["pdftoppm", "-r", "100", "-f", "1", "-l", "1", "-png",
                    str(out), str(tmp_path / "corners")], check=True)  # the file named, only
    page = cv2.imread(str(next(tmp_path.glob("corners*.png"))))
    reads = TagDetector().detect_plain(page)
    assert {r.id for r in reads} == {4, 5, 6, 7}  # Rumble Nation's own (its board.yaml)
    side_px = np.mean([np.linalg.norm(r.corners[0] - r.corners[1]) for r in reads])
    assert abs(side_px / 100 * 25.4 - 40.0) < 1.0
    refused = CliRunner().invoke(main, ["print-tags", "--out", str(out), "--corners",
                                        "--game", "skirmish"])
    assert refused.exit_code == 1 and "Skirmish has no board calibration yet" in refused.output


def test_calibrate_synthetic_writes_the_result_and_an_overlay(tmp_path):
    result = CliRunner().invoke(main, ["calibrate", "--source", "synthetic", "--out",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "4 corner markers" in result.output
    overlay = cv2.imread(str(tmp_path / "overlay.png"))
    assert overlay is not None and overlay.shape == (3040, 4056, 3)
    assert (tmp_path / "camera.yaml").read_text().count("board_from_frame") == 1


def test_tags_on_standing_blocks_are_taken_back_to_where_the_blocks_stand():
    """5: a tag 25 mm up, seen by a camera 800 mm above the map, appears up to ~15 mm further
    out than its block stands; with the camera's height the reader takes it back."""
    camera = Camera((3280, 2464), tilt=(0.01, -0.01, 0.0, 0.02, -0.01, 0.0, 0.01, 0.01),
                    height_mm=800.0)
    scene = place_stacks(GEOMETRY, {"sendai": 2, "tanabe": 2, "kanazawa": 2,
                                    "ishida_recruitment": 2})
    frame = SYNTH.photograph(scene, camera, Look(noise=1.5, seed=3))
    flat = TableReader(GEOMETRY).read(frame.image)
    upright = TableReader(GEOMETRY, camera_height_mm=800.0).read(frame.image)
    truth = {t.tag: t for t in frame.truth}
    assert set(upright.positions) == set(truth)

    def error(reading, tag):
        (x, y), (tx, ty) = reading.positions[tag], truth[tag].board
        return ((x - tx) ** 2 + (y - ty) ** 2) ** 0.5

    assert max(error(flat, tag) for tag in truth) > 10.0
    assert max(error(upright, tag) for tag in truth) < 1.5
    assert {tag: upright.zones.get(tag) for tag in truth} == {t: f.zone for t, f in truth.items()}


def test_each_tag_sheet_says_which_camera_reads_its_tags(tmp_path):
    """Issue #19: the recommended configuration printed on the tag sheet. 14 mm tags want
    12 MP stills; 22 mm and over are read at 1080p (docs/vision.md)."""
    for size, said in (("14", "Read from 12 MP stills"), ("22", "A 1080p camera framing")):
        out = tmp_path / f"tags-{size}.pdf"
        result = CliRunner().invoke(main, ["print-tags", "--out", str(out), "--count", "3",
                                           "--size", size])
        assert result.exit_code == 0, result.output
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert f"{size} mm tags: print at 100 %." in text and said in " ".join(text.split())
