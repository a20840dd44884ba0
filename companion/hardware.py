"""`companion hardware plan`: where to put the camera so the tags can be read.

A pinhole model: a lens of focal length f at height h sees a width of h * sensor_width / f. The
detector needs the tag's smallest square (a "module": AprilTag 36h11 is 8 modules across,
border included) to cover enough pixels; on our synthetic corpora 14 mm tags read reliably at
about 5 pixels per module and fail near 2.5 (docs/vision.md), so 4 is the minimum we plan for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["CAMERAS", "MIN_PX_PER_MODULE", "Camera", "Plan", "plan"]

MIN_PX_PER_MODULE = 4.0
TAG_MODULES = 8  # AprilTag 36h11: 6 data modules and a one-module black border each side


@dataclass(frozen=True)
class Camera:
    name: str
    pixels: tuple[int, int]
    sensor_mm: tuple[float, float]
    lenses_mm: tuple[float, ...]
    """Focal lengths usually fitted (a fixed lens has one)."""


CAMERAS = {
    "hq": Camera("Raspberry Pi HQ Camera (IMX477)", (4056, 3040), (6.287, 4.712),
                 (6.0, 8.0, 12.0, 16.0)),
    "module3": Camera("Raspberry Pi Camera Module 3 (IMX708)", (4608, 2592), (6.45, 3.63),
                      (4.74,)),
    "module3-wide": Camera("Raspberry Pi Camera Module 3 Wide (IMX708)", (4608, 2592),
                           (6.45, 3.63), (2.75,)),
}


@dataclass(frozen=True)
class Plan:
    camera: Camera
    lens_mm: float
    area_mm: tuple[float, float]
    height_mm: float
    """Lens above the table so the whole area fits in the frame."""
    px_per_mm: float
    px_per_module: float
    smallest_tag_mm: float
    """The smallest tag this set-up reads (at MIN_PX_PER_MODULE)."""

    @property
    def readable(self) -> bool:
        return self.px_per_module >= MIN_PX_PER_MODULE


def plan(camera: Camera, lens_mm: float, area_mm: tuple[float, float], tag_mm: float,
         margin: float = 0.05) -> Plan:
    """The camera height and the pixels per tag module for a table area seen from above.

    The frame is turned to match the area (landscape to landscape) and `margin` is left
    around it, so the edges of the area are not at the edges of the picture.
    """
    if lens_mm <= 0 or tag_mm <= 0 or min(area_mm) <= 0:
        raise ValueError("lens, tag and area must be positive")
    long_side, short_side = max(area_mm), min(area_mm)
    sensor_long, sensor_short = max(camera.sensor_mm), min(camera.sensor_mm)
    pixels_long = max(camera.pixels)
    want_long, want_short = long_side * (1 + 2 * margin), short_side * (1 + 2 * margin)
    height = lens_mm * max(want_long / sensor_long, want_short / sensor_short)
    seen_long = height * sensor_long / lens_mm
    px_per_mm = pixels_long / seen_long
    per_module = tag_mm / TAG_MODULES * px_per_mm
    smallest = MIN_PX_PER_MODULE * TAG_MODULES / px_per_mm
    return Plan(camera, lens_mm, area_mm, height, px_per_mm, per_module,
                math.ceil(smallest * 10) / 10)
