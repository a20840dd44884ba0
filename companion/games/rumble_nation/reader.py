"""Rumble Nation's table read for the count tracker: soldiers per region and colour, the daimyo
and the white reinforcements, the regions in doubt and the dice in the tray
(`vision.counting.CountingReader`), with the frame watched for hands and motion.

The counting reader reads every frame as if the table were still; a hand over a region makes
it doubtful, but a hand resting over the tray or between regions would go unnoticed, and skin
shares its hue with the red soldiers. So each frame is also looked at as a whole, reduced: a
large share of it changed since the last frame is motion, and one patch of skin tones larger
than any clump of soldiers is a hand over the table. Either makes the reading untrusted
(`FrameCounts.moving`), and the tracker waits for still frames.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.count_tracker import FrameCounts
from companion.vision.counting import CountingBoard, CountingReader
from companion.vision.table import BoardNotFound

__all__ = ["DAIMYO", "REINFORCEMENT", "RumbleTableReader", "kind_of_daimyo"]

DAIMYO = "daimyo"
"""Kinds the tracker counts: a colour's soldiers under the colour's name, its daimyo (the
calibration's large piece) as `<colour> daimyo`, the white reinforcements (its neutral piece)
as `reinforcement`."""
REINFORCEMENT = "reinforcement"

THUMB_WIDTH = 320
"""Frames are watched for hands and motion at this width (every n-th pixel: nearly free)."""


def kind_of_daimyo(colour: str) -> str:
    return f"{colour} {DAIMYO}"


@dataclass
class RumbleTableReader:
    """Frames to `FrameCounts`s (the table's `reader` part)."""

    reader: CountingReader
    motion_share: float = 0.02
    """A frame with more than this share of its thumbnail changed since the last is moving."""
    hand_share: float = 0.003
    """A patch of skin tones larger than this share of the frame is a hand: 18 red soldiers
    touching make 0.03 %, the smallest hand of the synthetic camera 1 %."""
    _previous: np.ndarray | None = None

    @property
    def tells_daimyo(self) -> bool:
        """Whether a daimyo is counted apart from its colour's soldiers (the calibration
        describes the large piece)."""
        return self.board.large is not None

    @property
    def board(self) -> CountingBoard:
        return self.reader.board

    def read(self, frame: np.ndarray) -> FrameCounts:
        """ValueError for a frame that is not a colour image (from the counting reader)."""
        moving = self._motion(frame) or self._hand(frame)
        try:
            reading = self.reader.read(frame)
        except BoardNotFound:
            return FrameCounts({}, board_found=False, moving=moving)
        dice = reading.dice
        read = tuple(f for f in dice.faces if f is not None)
        unread = max(0, dice.objects - len(read))  # something in the tray not read as a die
        return FrameCounts(_kinds(reading.counts, reading.large, reading.neutral),
                           (*read, *[None] * unread), moving, frozenset(reading.doubtful))

    def _motion(self, frame: np.ndarray) -> bool:
        thumb = cv2.blur(cv2.cvtColor(_thumbnail(frame, THUMB_WIDTH // 2), cv2.COLOR_BGR2GRAY),
                         (3, 3)).astype(np.int16)
        previous, self._previous = self._previous, thumb
        if previous is None or previous.shape != thumb.shape:
            return False
        return bool((np.abs(thumb - previous) > 25).mean() > self.motion_share)

    def _hand(self, frame: np.ndarray) -> bool:
        hsv = cv2.cvtColor(_thumbnail(frame, THUMB_WIDTH), cv2.COLOR_BGR2HSV)
        skin = cv2.inRange(hsv, (0, 60, 80), (11, 190, 255))
        found, _, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
        if found < 2:
            return False
        return bool(stats[1:, cv2.CC_STAT_AREA].max() > self.hand_share * skin.size)


def _kinds(counts: Mapping[str, Mapping[str, int]], large: Mapping[str, Mapping[str, int]],
           neutral: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """The reader's counts in the tracker's kinds (see DAIMYO)."""
    kinds = {region: dict(colours) for region, colours in counts.items()}
    for region, colours in large.items():
        for colour, n in colours.items():
            kinds.setdefault(region, {})[kind_of_daimyo(colour)] = n
    for region, n in neutral.items():
        kinds.setdefault(region, {})[REINFORCEMENT] = n
    return kinds


def _thumbnail(frame: np.ndarray, width: int) -> np.ndarray:
    step = max(1, frame.shape[1] // width)
    return np.ascontiguousarray(frame[::step, ::step])
