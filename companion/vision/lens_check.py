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
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["WIDE_DEGREES", "LensAdvice", "field_of_view", "lens_advice"]

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
