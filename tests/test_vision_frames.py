"""The one frame a calibration step works on (`companion.vision.frames`) and the lens step
after the camera check (`companion.vision.lens_check`): the camera let go at once, a camera
without a frame said with its status, the lens measured from a folder of photographs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import yaml

from companion.cli import DEFAULT_GAME
from companion.games import game
from companion.kits import load_kit
from companion.vision.frames import NoFrame, first_frame, read_photograph, synthetic_frame
from companion.vision.geometry import Geometry
from companion.vision.intrinsics import IntrinsicsError
from companion.vision.lens_check import (
    advice_for,
    camera_model,
    lens_photographs,
    measure_lens,
)
from companion.vision.sources import FrameSource


class OneShot(FrameSource):
    """A source that gives `frame` (or None, with a status) and records being closed."""

    def __init__(self, frame: np.ndarray | None, status: str = "") -> None:
        self.frame, self.status, self.closed = frame, status, False

    def next_frame(self) -> np.ndarray | None:
        return self.frame

    def close(self) -> None:
        self.closed = True


def test_a_camera_gives_one_frame_and_is_let_go():
    frame = np.zeros((4, 6, 3), np.uint8)
    source = OneShot(frame)
    assert first_frame(source, "usb:0") is frame and source.closed


def test_a_camera_without_a_frame_is_said_with_its_status_and_still_let_go():
    source = OneShot(None, "camera usb:3 cannot be opened")
    with pytest.raises(NoFrame, match=r"^no frame from camera usb:3: camera usb:3 cannot be "
                       r"opened$"):
        first_frame(source, "usb:3")
    assert source.closed
    with pytest.raises(NoFrame, match=r"no frame from camera pi: no image$"):
        first_frame(OneShot(None), "pi")


def test_a_photograph_is_read_or_is_none(tmp_path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((5, 7, 3), 200, np.uint8))
    read = read_photograph(path)
    assert read is not None and read.shape == (5, 7, 3)
    assert read_photograph(None) is None
    (tmp_path / "notes.png").write_text("not an image")
    assert read_photograph(tmp_path / "notes.png") is None


def test_the_synthetic_table_is_the_same_frame_for_the_same_seed():
    kit = load_kit(game(DEFAULT_GAME).kit)  # the game `calibrate --source synthetic` draws
    geometry = Geometry.load(kit)
    first = synthetic_frame(geometry, kit)
    assert first.shape == (3040, 4056, 3)
    assert np.array_equal(first, synthetic_frame(geometry, kit))


def test_the_lens_advice_reads_the_saved_calibration(tmp_path):
    assert camera_model("usb:0") is None and camera_model("folder:/x") is None
    assert not advice_for(tmp_path, "usb:0").needed  # nothing saved: the view cannot tell
    (tmp_path / "camera.yaml").write_text(yaml.safe_dump(
        {"frame": [4056, 3040], "pose": {"focal_px": 1600}}))
    wide = advice_for(tmp_path, "usb:0")
    assert wide.needed and wide.degrees is not None and wide.degrees > 75


def test_the_lens_is_measured_from_the_photographs_only(tmp_path):
    for name in ("b.JPG", "a.png", "c.jpeg", "notes.txt", "d.png"):
        (tmp_path / name).write_bytes(b"")
    cv2.imwrite(str(tmp_path / "d.png"), np.zeros((60, 80, 3), np.uint8))
    assert [p.name for p in lens_photographs(tmp_path)] == ["a.png", "b.JPG", "c.jpeg",
                                                            "d.png"]
    ticks: list[tuple[int, int]] = []
    with pytest.raises(IntrinsicsError, match="0 usable views"):
        measure_lens(tmp_path, tmp_path / "out", lambda done, total: ticks.append((done, total)))
    assert ticks == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert not (tmp_path / "out").exists()  # nothing saved
