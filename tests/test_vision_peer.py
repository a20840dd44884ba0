"""AprilTag 3 beside the companion's reader (`companion.vision.peer`, `companion bench vision`):
the truth of a folder of photographs, both readers scored on the same photographs, wrong ids
counted against the truth, and the command's figures side by side."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.peer import (
    PHOTO_TRUTH,
    AprilTag3,
    compare_photos,
    compare_synthetic,
    read_truth,
)

ROOT = Path(__file__).resolve().parents[1]
BANK = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)


def photograph(ids: list[int], tilt: float = 0.0) -> np.ndarray:
    """A 640x480 grey photo of printed tags in a row on a light table, the sheet seen at
    `tilt` (its far edge shortened by that fraction): what both readers read whole."""
    sheet = np.full((480, 640), 200, np.uint8)
    for n, tag in enumerate(ids):
        marker = cv2.aruco.generateImageMarker(BANK, tag, 80)
        x = 40 + n * 140
        sheet[190:290, x:x + 100] = 235  # the white quiet zone
        sheet[200:280, x + 10:x + 90] = marker
    if tilt:
        source = np.float32([[0, 0], [640, 0], [640, 480], [0, 480]])
        shift = 320 * tilt
        target = np.float32([[shift, 60], [640 - shift, 60], [640, 480], [0, 480]])
        sheet = cv2.warpPerspective(sheet, cv2.getPerspectiveTransform(source, target),
                                    (640, 480), borderValue=200)
    blurred: np.ndarray = cv2.GaussianBlur(sheet, (3, 3), 0.7)
    return blurred


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "row.png"), photograph([3, 17, 42, 101]))
    cv2.imwrite(str(folder / "tilted.png"), photograph([5, 250, 7], tilt=0.3))
    (folder / "notes.txt").write_text("not a photograph: left alone")
    (folder / "truth.json").write_text(json.dumps({
        "_about": "a note", "row.png": [3, 17, 42, 101],
        "tilted.png": {"tags": [5, 250, 7], "also": [8]}}))
    return folder


def test_the_truth_comes_from_the_file_given_else_beside_the_photos(photos: Path,
                                                                     tmp_path: Path) -> None:
    beside = read_truth(photos)
    assert sorted(beside) == ["row.png", "tilted.png"]
    assert beside["row.png"].tags == {3, 17, 42, 101} and not beside["row.png"].also
    assert beside["tilted.png"].also == {8}
    given = tmp_path / "other.json"
    given.write_text(json.dumps({"row.png": [3], "tilted.png": [5]}))
    assert read_truth(photos, given)["row.png"].tags == {3}
    given.write_text(json.dumps({"row.png": [3]}))
    with pytest.raises(ValueError, match=r"names no ids for tilted\.png"):
        read_truth(photos, given)
    (photos / "truth.json").unlink()
    with pytest.raises(ValueError, match="no truth file"):
        read_truth(photos)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no photographs"):
        read_truth(empty)


def test_the_projects_truth_names_every_real_photograph_of_the_issue() -> None:
    """The file the bench falls back on for the 26 real photographs: every one named, their
    tags the scenes' (duckietown's test images: 76 turning; six signs; a road's five)."""
    truth = {name: value for name, value in json.loads(PHOTO_TRUTH.read_text()).items()
             if not name.startswith("_")}
    assert len(truth) == 26
    assert all(truth[f"test_image_rotation_{a}.png"] == [76] for a in range(-70, 80, 10))
    signs = {22, 24, 58, 85, 144, 198}
    for n in range(1, 11):
        value = truth[f"test_image_multiple_{n:02d}.png"]
        tags = set(value["tags"] if isinstance(value, dict) else value)
        also = set(value.get("also", [])) if isinstance(value, dict) else set()
        assert tags and tags | also <= signs and not tags & also
    assert truth["test_image.png"] == [60, 82, 318, 328, 387]


def test_both_readers_read_the_same_photographs_and_wrong_ids_are_counted(photos: Path
                                                                         ) -> None:
    figures = compare_photos(photos)
    assert figures["photos"] == 2 and figures["present_tags"] == 7
    for key in ("companion", "apriltag3"):
        assert figures[key]["recall"] == 1.0 and figures[key]["wrong_ids"] == 0, figures
        assert figures[key]["ms_median"] > 0
    assert figures["recall_ratio"] == 1.0 and figures["time_ratio"] > 0
    assert figures["short"] == []
    assert figures["per_photo"]["tilted.png"]["companion"] == [5, 7, 250]
    # a truth that leaves a tag out: both read it, so both read a wrong id there
    (photos / "truth.json").write_text(json.dumps({"row.png": [3, 17, 42],
                                                   "tilted.png": [5, 250, 7]}))
    figures = compare_photos(photos)
    assert figures["companion"]["wrong_ids"] == figures["apriltag3"]["wrong_ids"] == 1
    assert figures["per_photo"]["row.png"]["companion_wrong"] == [101]


def test_a_reader_that_misses_what_apriltag3_reads_is_named(photos: Path) -> None:
    figures = compare_photos(photos, ours=lambda frame: [3, 5])
    assert figures["short"] == ["row.png", "tilted.png"]
    assert figures["companion"]["recall"] == round(2 / 7, 4)
    assert figures["recall_ratio"] == round(round(2 / 7, 4) / 1.0, 3)


def test_apriltag3_decimates_as_the_companions_search_reduces() -> None:
    peer = AprilTag3()
    assert peer.decimation((3040, 4056)) == 2.0  # a 12 MP still: once, as ours halves it
    assert peer.decimation((1080, 1920)) == 1.0
    assert peer.decimation((480, 640, 3)) == 1.0
    assert peer.threads == 2


@pytest.mark.slow
def test_the_synthetic_comparison_reads_the_games_table_with_both() -> None:
    ticks: list[None] = []
    figures = compare_synthetic("rumble_nation", frames=1, conditions=["1080p, 24 mm tags"],
                                tick=lambda: ticks.append(None))
    c = figures["1080p, 24 mm tags"]
    assert len(ticks) == 1 and c["frame"] == "1920x1080" and c["visible_tags"] > 0
    for key in ("companion", "apriltag3"):
        assert c[key]["recall"] >= 0.9 and c[key]["wrong_ids"] == 0, c


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=170)


@pytest.mark.slow
def test_bench_vision_prints_both_readers_on_the_photographs(photos: Path) -> None:
    ran = companion("bench", "vision", "--only-peer", "--peer-frames", "0", "--photos",
                    str(photos), "--json")
    assert ran.returncode == 0, ran.stderr[-2000:]
    figures = json.loads(ran.stdout)
    assert set(figures) == {"apriltag3"}
    shown = figures["apriltag3"]["photos"]
    assert shown["companion"]["recall"] == shown["apriltag3"]["recall"] == 1.0
    words = companion("bench", "vision", "--only-peer", "--peer-frames", "0", "--photos",
                      str(photos))
    assert words.returncode == 0, words.stderr[-2000:]
    assert "2 photographs (7 tags): companion recall 1.0, 0 wrong" in words.stdout
    assert "missed a tag AprilTag 3 read: none" in words.stdout


@pytest.mark.slow
def test_bench_vision_refuses_photos_without_truth_and_unknown_conditions(tmp_path: Path
                                                                          ) -> None:
    folder = tmp_path / "bare"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), photograph([1]))
    ran = companion("bench", "vision", "--only-peer", "--photos", str(folder))
    assert ran.returncode == 1 and "no truth file" in ran.stderr + ran.stdout
    ran = companion("bench", "vision", "--only-peer", "--peer-condition", "fog")
    assert ran.returncode == 2 and "no condition 'fog'" in ran.stderr
    ran = companion("bench", "vision", "--only-peer", "--no-peer")
    assert ran.returncode == 2


@pytest.mark.slow
def test_on_a_steep_camera_the_companion_reads_at_least_what_apriltag3_reads() -> None:
    """A 12 MP camera tilted 60 degrees from looking straight down, 14 mm tags."""
    name = "12 MP, camera at 60 degrees"
    c = compare_synthetic(frames=1, conditions=[name])[name]
    assert c["companion"]["recall"] >= c["apriltag3"]["recall"] > 0.5, c
    assert c["companion"]["wrong_ids"] == 0
