"""Rumble Nation's table read for the count tracker: soldiers per region and colour, the daimyo
and the white reinforcements, the regions in doubt and the dice in the tray
(`vision.counting.CountingReader`), with the frame watched for hands and motion.

The counting reader reads every frame as if the table were still; a hand over a region makes
it doubtful, but a hand resting over the tray or between regions would go unnoticed. So each
frame is also compared with the still table (`vision.hands.ChangeWatch`, issue #19): what
differs from it and enters from the table's edge, or is larger than a region's pieces could
make, is a hand, an arm or a card, whatever its colour; a frame that differs from the last is
moving; most of the table changed a little is the light. Any of these makes the reading
untrusted (`FrameCounts.moving`), and the tracker waits for still frames. (A skin-colour rule
did this before: skin shares its hue with the red soldiers, and tones outside its band, the
palest and the darkest among them, went unseen; measured in tests/test_counting_hands.py.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from companion.vision.count_tracker import FrameCounts
from companion.vision.counting import CountingBoard, CountingReader
from companion.vision.hands import ChangeWatch, Extent
from companion.vision.table import BoardNotFound, Calibration

__all__ = ["DAIMYO", "REINFORCEMENT", "RumbleTableReader", "kind_of_daimyo",
           "largest_change"]

DAIMYO = "daimyo"
"""Kinds the tracker counts: a colour's soldiers under the colour's name, its daimyo (the
calibration's large piece) as `<colour> daimyo`, the white reinforcements (its neutral piece)
as `reinforcement`."""
REINFORCEMENT = "reinforcement"


def kind_of_daimyo(colour: str) -> str:
    return f"{colour} {DAIMYO}"


@dataclass
class RumbleTableReader:
    """Frames to `FrameCounts`s (the table's `reader` part)."""

    reader: CountingReader
    watch: ChangeWatch = field(default_factory=ChangeWatch)
    """Hands, arms, cards and motion by change against the still table; its `largest_mm2` is
    set from the board (`largest_change`) when the reader is made."""

    def __post_init__(self) -> None:
        self.watch.largest_mm2 = largest_change(self.board)

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
        try:
            reading = self.reader.read(frame)
        except BoardNotFound:
            return FrameCounts({}, board_found=False, moving=self.untrusted(frame))
        moving = self.untrusted(frame, reading.calibration)
        dice = reading.dice
        read = tuple(f for f in dice.faces if f is not None)
        unread = max(0, dice.objects - len(read))  # something in the tray not read as a die
        return FrameCounts(_kinds(reading.counts, reading.large, reading.neutral),
                           (*read, *[None] * unread), moving, frozenset(reading.doubtful))

    def untrusted(self, frame: np.ndarray, calibration: Calibration | None = None) -> bool:
        """Motion, something over the table, or the light changing: the tracker must wait.
        `calibration` places the table (the last one is kept while the board is covered)."""
        extent = None if calibration is None else Extent.of(self.board.geometry, calibration)
        return not self.watch.see(frame, extent).trusted


def largest_change(board: CountingBoard) -> float:
    """The largest change (mm2) pieces can make in one place: a region's circle with the reach
    beyond it where pieces still count, or a counted tray full of cubes. Dice thrown in the
    dice tray are apart from each other: each a small change."""
    discs = [math.pi * ((z.radius or 0) + board.reach_mm) ** 2 for z in board.regions]
    if board.tray_counted and board.tray.rect is not None:
        discs.append(board.tray.rect[2] * board.tray.rect[3])
    return max(discs, default=0.0)


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

