"""A film of a whole simulated game, for `companion review` to referee (issue 33).

The simulated table of `companion demo` plays its scripted game; every frame its camera takes
is also written to a video file, as a phone on a stand would film the table. What the camera
does not see (cards scanned, buttons pressed, secret choices, cards dealt face down) is not in
the film: the review asks about it. The video is Motion JPEG at the highest quality (`.avi`):
every OpenCV build writes and reads it, fast, with a phone's kind of loss (a few grey levels).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.demo import DemoOptions, DemoReport, run_demo, script_for
from companion.engine import Action
from companion.games import game as game_spec

QUALITY = 100
"""Motion JPEG's quality (given when the writer opens: set later it is ignored). OpenCV's
default (about 75) loses a die's pips in the tray now and then."""

__all__ = ["FILM_FPS", "Film", "VideoWriter", "make_film"]

FILM_FPS = 5.0
"""Frames per second written in the film's header (the simulated camera's pace)."""


@dataclass
class VideoWriter:
    """A video file written frame by frame; opened at the first frame (its size)."""

    path: Path
    fps: float = FILM_FPS
    frames: int = 0
    _writer: Any = None

    def __call__(self, image: np.ndarray) -> None:
        if self._writer is None:
            height, width = image.shape[:2]
            self._writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter.fourcc(*"MJPG"),
                                           self.fps, (width, height),
                                           [cv2.VIDEOWRITER_PROP_QUALITY, QUALITY])
            if not self._writer.isOpened():
                raise OSError(f"OpenCV cannot write a Motion JPEG video to {self.path}")
        colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        self._writer.write(colour)
        self.frames += 1

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
            self._writer = None


@dataclass
class Film:
    """A filmed game and the script it played."""

    path: Path
    game: str
    seed: int
    frames: int
    script: list[Action] = field(default_factory=list)
    demo: DemoReport | None = None


def make_film(game: str, path: Path, *, seed: int = 1, max_actions: int | None = None,
              tilt_degrees: float | None = 45.0) -> Film:
    """Play `game`'s scripted game (`seed`, cut to `max_actions`) at the simulated table with
    its camera tilted `tilt_degrees` (None: the simulator's own), filming it to `path`."""
    spec = game_spec(game)
    options = DemoOptions(game=spec.name, seed=seed, port=0, max_actions=max_actions,
                          tilt_degrees=tilt_degrees)
    writer = VideoWriter(path)
    try:
        report = run_demo(options, film=writer)
    finally:
        writer.close()
    return Film(path, spec.name, seed, writer.frames,
                script_for(spec, seed, max_actions), report)
