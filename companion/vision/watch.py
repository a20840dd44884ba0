"""Whether the camera is being read: frames that come, are not black and are not frozen.

A camera that stops must never look like a quiet table. The live table asks `CameraWatch.see`
about every frame asked for (None when the source had none) and what the source says of itself
(`FrameSource.stopped`); the watch says when the camera has stopped (`down`, why) and when it
is back, so that the screens, the terminal and the record say it once each way.

- A camera (`live`): no frame for `STALL_SECONDS` is a stop, and so is the same picture to
  the last pixel for `STALL_SECONDS` (a driver that hands out its last frame: a real sensor
  is never that still).
- A recording (a folder, a video): waiting for the next still is not a stop; the source saying
  it has ended (a video played out, a folder gone or emptied) is, `STALL_SECONDS` later.
- Any source: frames all black (a lens cap, a dead sensor, a cable half out) are not read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["BLACK_LEVEL", "STALL_SECONDS", "CameraWatch"]

STALL_SECONDS = 3.0
"""Seconds without a frame that can be read before the camera is said to have stopped."""
BLACK_LEVEL = 24
"""A frame whose brightest pixel is at most this (of 255) is black: no table can be seen."""
BLACK = "the frames are all black"
THUMB = 64
"""Frames are compared (frozen or not) at this width: quick, and exact equality still holds."""


@dataclass
class CameraWatch:
    live: bool
    """A camera (usb, pi) rather than a recording (folder, video)."""
    clock: Callable[[], float] = time.monotonic
    down: str | None = None
    """Why the camera is said to have stopped; None while it is read."""
    _good: float | None = None
    """When the last frame that could be read came (None: since the watch started)."""
    _since: float = field(default=0.0)
    _last: np.ndarray | None = None
    """The last frame's thumbnail (frozen frames are equal to it)."""
    _same_since: float | None = None
    _dark: bool = False
    """The last frame was black: a recording that then waits still shows no table."""

    def __post_init__(self) -> None:
        self._since = self.clock()

    def see(self, frame: np.ndarray | None, stopped: str | None) -> np.ndarray | None:
        """The frame when it can be read, else None; `down` follows."""
        now = self.clock()
        fault, fresh = self._fault(frame, now)
        if frame is not None:
            self._dark = fault == BLACK
        if fault is None:
            if fresh:  # a picture the same as the last is read, but proves nothing yet
                self._good, self.down = now, None
            return frame
        quiet = now - (self._good if self._good is not None else self._since)
        if self.down is None and quiet >= STALL_SECONDS and (
                self.live or stopped is not None or self._dark):
            self.down = stopped or (BLACK if self._dark else fault)
        return None

    def _fault(self, frame: np.ndarray | None, now: float) -> tuple[str | None, bool]:
        """What is wrong with this frame (None when it can be read), and whether it is a new
        picture (a camera's frame the same as the last one is not)."""
        if frame is None or not frame.size:
            return "no frame has come", False
        if int(frame[::4, ::4].max()) <= BLACK_LEVEL:
            return BLACK, False
        if not self.live:
            return None, True
        step = max(1, frame.shape[1] // THUMB)
        thumb = np.ascontiguousarray(frame[::step, ::step])
        if self._last is not None and thumb.shape == self._last.shape \
                and np.array_equal(thumb, self._last):
            self._same_since = self._same_since if self._same_since is not None else now
            if now - self._same_since >= STALL_SECONDS:
                return "the picture is frozen", False
            return None, False
        self._last, self._same_since = thumb, None
        return None, True
