"""A film of a whole simulated game, for `companion review` to referee (issue 33).

The simulated table of `companion demo` plays its scripted game; every frame its camera takes
is also written to a video file, as a phone on a stand would film the table. What the camera
does not see (cards scanned, buttons pressed, secret choices, cards dealt face down) is not in
the film: the review asks about it. The tests' films are FFV1 (`.mkv`, lossless): the review
sees the frames the demo saw. Motion JPEG at quality 100 (`.avi`) is a phone's kind of loss; but
the simulated players photograph each change only until the tracker reports it (no pause after
it, as people make), so one frame's reading changed by the loss can cost a still table: in a
30-action Rumble Nation film two moves were then reported as one change (docs/vision.md).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.demo import DemoOptions, DemoReport, run_demo, script_for
from companion.engine import Action
from companion.games import game as game_spec
from companion.record.store import Store
from companion.review.reading import CHANGE, END, NOTHING, Asked, ReviewOptions, review

QUALITY = 100
"""Motion JPEG's quality (given when the writer opens: set later it is ignored), with OpenCV's
own Motion JPEG writer (FFmpeg's takes no quality). The default loses a die's pips now and
then."""

__all__ = ["FILM_FPS", "Film", "VideoWriter", "film_and_review", "make_film", "scripted"]

FILM_FPS = 5.0
"""Frames per second written in the film's header (the simulated camera's pace)."""


@dataclass
class VideoWriter:
    """A video file written frame by frame; opened at the first frame (its size). `.avi`:
    Motion JPEG at quality 100 (a phone's kind of loss); otherwise (`.mkv`) FFV1, lossless."""

    path: Path
    fps: float = FILM_FPS
    frames: int = 0
    _writer: Any = None

    def __call__(self, image: np.ndarray) -> None:
        if self._writer is None:
            height, width = image.shape[:2]
            size = (width, height)
            if self.path.suffix.lower() == ".avi":
                self._writer = cv2.VideoWriter(str(self.path), cv2.CAP_OPENCV_MJPEG,
                                               cv2.VideoWriter.fourcc(*"MJPG"), self.fps,
                                               size, [cv2.VIDEOWRITER_PROP_QUALITY, QUALITY])
            else:
                self._writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter.fourcc(*"FFV1"),
                                               self.fps, size)
            if not self._writer.isOpened():
                raise OSError(f"OpenCV cannot write the video {self.path}")
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
    filmed: list[bool] = field(default_factory=list)
    """Per scripted action: whether the film shows it (no card, button or secret in it)."""
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
    return Film(path, spec.name, seed, writer.frames, script_for(spec, seed, max_actions),
                report.filmed, report)


def scripted(film: Film) -> Callable[[Asked], str]:
    """The reviewer who watched the game (a test's, a bench's): every question is answered
    with the next scripted action, or `END` once the script is played; asked whether a change
    the referee read nothing from had something off the film before it, only an action the
    film did not show is the answer (else `NOTHING`)."""
    def answer(asked: Asked) -> str:
        n = asked.recorded
        if n >= len(film.script):
            return END
        if asked.kind == CHANGE and n < len(film.filmed) and film.filmed[n]:
            return NOTHING
        return film.script[n].text()
    return answer


def film_and_review(game: str, folder: Path, *, seed: int = 1, max_actions: int | None = None,
                    tilt_degrees: float | None = 45.0) -> dict[str, Any]:
    """Film the scripted game, review the film answering as the script says: the figures
    (docs/vision.md) and whether the record verifies and is the script's game."""
    started = time.perf_counter()
    film = make_film(game, folder / f"{game}-{seed}.mkv", seed=seed, max_actions=max_actions,
                     tilt_degrees=tilt_degrees)
    filmed = time.perf_counter() - started
    report = review(ReviewOptions(film.path, film.game, db=folder / f"{game}-{seed}.sqlite"),
                    scripted(film))
    store = Store(Path(report.db))
    try:
        recorded = [entry.action for entry in store.load(report.game_id).entries]
    finally:
        store.close()
    return {"game": film.game, "seed": seed, "tilt_degrees": tilt_degrees,
            "script_actions": len(film.script), "frames": film.frames,
            "film_seconds": round(filmed, 1), "review_fps": report.fps,
            "review_seconds": report.seconds, "read": report.read,
            "questions": report.questions, "alerts": len(report.alerts),
            "demo_read": film.demo.actions if film.demo else 0,
            "finished": report.finished, "record_verified": report.record_verified,
            "matches_script": recorded == film.script}


def main(argv: list[str] | None = None) -> None:
    """`python -m companion.review.film --game G [--seed S] [--actions N] [--tilt D]`: film a
    simulated game, review it, print the figures as JSON."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--game", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", type=int, default=None)
    parser.add_argument("--tilt", type=float, default=45.0)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="companion-film-") as work:
        folder = args.folder or Path(work)
        figures = film_and_review(args.game, folder, seed=args.seed, max_actions=args.actions,
                                  tilt_degrees=args.tilt)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
