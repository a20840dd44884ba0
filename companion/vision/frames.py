"""The one frame a calibration step works on (`companion calibrate`, `setup --camera`): taken
from a camera, read from a photograph, or rendered by the synthetic table.

A calibration needs a single still, not a stream: the camera is opened, asked once and let go
at once (another program, or the live table, may want it next).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from companion.vision.geometry import Geometry
from companion.vision.sources import FrameSource

__all__ = ["NoFrame", "first_frame", "read_photograph", "synthetic_frame"]

SYNTHETIC_SIZE = (4056, 3040)
"""The synthetic camera's frame: the Pi HQ camera's full resolution."""


class NoFrame(ValueError):
    """The camera gave no frame; the message names it and its status."""


def first_frame(source: FrameSource, camera: str) -> np.ndarray:
    """One frame from `source` (the camera `camera` names), which is closed after, whatever
    happens; NoFrame with the source's status when it has none."""
    try:
        frame = source.next_frame()
    finally:
        close = getattr(source, "close", None)
        if callable(close):
            close()
    if frame is None:
        raise NoFrame(f"no frame from camera {camera}: "
                      f"{getattr(source, 'status', '') or 'no image'}")
    return frame


def read_photograph(path: Path | None) -> np.ndarray | None:
    """The photograph at `path` as a frame; None for no path or a file that is not an image."""
    import cv2

    return cv2.imread(str(path)) if path else None


def synthetic_frame(geometry: Geometry, kit: object, seed: int = 1) -> np.ndarray:
    """A frame of the synthetic table: a random scene of the board on `kit`, seen by a random
    camera, the same for the same `seed`."""
    from companion.vision.corpus import random_scene
    from companion.vision.synth import Synth, random_camera

    synth = Synth(geometry, kit)
    rng = random.Random(seed)
    image: np.ndarray = synth.photograph(random_scene(geometry, rng),
                                         random_camera(rng, SYNTHETIC_SIZE)).image
    return image
