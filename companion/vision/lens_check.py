"""Whether a table's lens must be measured before play (issue #19: `setup` makes lens
calibration part of the first run for wide lenses).

Four corner markers place a flat board exactly through a pinhole; a wide lens bends the view,
and its tilt can no longer be told from the bend, so the pose (the point under the camera and
its height) and every tag's place come out millimetres wrong unless the lens is measured once
from the ChArUco board (`companion calibrate --intrinsics`). A plain lens (Camera Module 3,
the HQ camera with its 6 mm or longer lenses, most webcams) gets by without.

What tells a wide lens, in order: a lens already measured (nothing to do); the Pi camera's
sensor model (`imx708_wide` is the Camera Module 3 Wide); the field of view across the frame,
from the focal length the board's own perspective fixes (`camera.yaml`'s `pose`). A camera
looking straight down fixes no focal length, and then the view cannot tell: the advice says so
rather than guessing.

`measure_lens` is that measurement, from a folder of photographs of the ChArUco board, saved
beside the pose where the reader finds it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.intrinsics import Intrinsics

__all__ = ["WIDE_DEGREES", "LensAdvice", "MeasuredLens", "advice_for", "camera_model",
           "field_of_view", "lens_advice", "lens_photographs", "measure_lens"]

WIDE_DEGREES = 75.0
"""From this field of view across the frame a lens counts as wide. The Camera Module 3 sees
66 degrees, its Wide 102; a table framed from 1 m with 10 % to spare needs about 70."""


@dataclass(frozen=True)
class LensAdvice:
    """Whether to measure the lens (`needed`) and why, in a sentence for the referee."""

    needed: bool
    reason: str
    degrees: float | None = None
    """The field of view across the frame, where known."""


def field_of_view(focal_px: float, width_px: int) -> float:
    """Degrees across a frame `width_px` wide seen through a pinhole of focal `focal_px`."""
    return math.degrees(2 * math.atan(width_px / (2 * focal_px)))


def lens_advice(camera_yaml: Mapping[str, Any], model: str | None = None) -> LensAdvice:
    """What `camera.yaml` (as `companion calibrate` or `setup --camera` saved it) and the
    camera's sensor model (the Pi camera's, if known) say about measuring the lens."""
    if camera_yaml.get("intrinsics"):
        return LensAdvice(False, "the lens is measured")
    if model and "wide" in model.lower():
        return LensAdvice(True, f"the camera is a wide one ({model})")
    pose = camera_yaml.get("pose") or {}
    frame = camera_yaml.get("frame") or []
    focal = pose.get("focal_px")
    if not focal or len(frame) != 2:
        why = pose.get("not_found", "no pose was found")
        return LensAdvice(False, f"the view cannot tell how wide the lens is ({why}); measure "
                                 "it if it is a wide lens")
    degrees = round(field_of_view(float(focal), int(frame[0])), 1)
    if degrees >= WIDE_DEGREES:
        return LensAdvice(True, f"the lens sees {degrees:.0f} degrees across: a wide lens",
                          degrees)
    return LensAdvice(False, f"the lens sees {degrees:.0f} degrees across: a plain lens",
                      degrees)


def camera_model(camera: str) -> str | None:
    """The sensor model of the camera a `--camera` text names, where it can be known: the Pi
    camera's (picamera2), which names a wide lens; None for any other camera."""
    if camera != "pi":
        return None
    from companion.vision.sources import pi_camera_model

    return pi_camera_model()


def advice_for(folder: Path, camera: str) -> LensAdvice:
    """The advice after a camera check: the calibration saved in `folder` (its pose, a lens
    already measured) and the camera `camera` names."""
    from companion.vision.overlay import saved

    return lens_advice(saved(folder), camera_model(camera))


@dataclass(frozen=True)
class MeasuredLens:
    lens: Intrinsics
    photographs: int
    """The photographs found in the folder (`lens.views` of them were used)."""
    saved: Path
    """Where the measurement was saved."""


def lens_photographs(folder: Path) -> list[Path]:
    """The photographs in `folder` (JPEG and PNG), in name order."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))


def measure_lens(folder: Path, out: Path,
                 tick: Callable[[int, int], None] | None = None) -> MeasuredLens:
    """The lens measured from the ChArUco photographs in `folder` and saved in the calibration
    folder `out`; `tick(done, total)` after each photograph is looked at (a progress bar).
    IntrinsicsError when the photographs do not measure it (too few boards seen, say)."""
    from companion.vision.intrinsics import calibrate_intrinsics
    from companion.vision.overlay import save_intrinsics

    files = lens_photographs(folder)
    lens = calibrate_intrinsics(_each_image(files, tick))
    return MeasuredLens(lens, len(files), save_intrinsics(out, lens))


def _each_image(files: list[Path], tick: Callable[[int, int], None] | None,
                ) -> Iterator[np.ndarray]:
    """Each photograph that opens, read as the calibration asks for it (one in memory at a
    time, not all twenty 12 MP frames), `tick` told as each is looked at."""
    import cv2

    for done, path in enumerate(files, start=1):
        image = cv2.imread(str(path))
        if image is not None:
            yield image
        if tick is not None:
            tick(done, len(files))
