"""A table of counted pieces read for the count tracker: pieces per zone and kind, the zones in
doubt and the dice in the tray (`counting.CountingReader`), with the frame watched for hands and
motion. Any game whose pieces carry no tags (cubes in colours, a tray a tower drops them into,
dice) reads its table through a `CountedTableReader`; what the kinds are called is the game's
(`CountedTableReader.kinds`).

The counting reader reads every frame as if the table were still; a hand over a region makes
it doubtful, but a hand resting over the tray or between regions would go unnoticed. So each
frame is also compared with the still table (`hands.ChangeWatch`, issue #19): what differs from
it and enters from the table's edge, or is larger than a region's pieces could make, is a hand,
an arm or a card, whatever its colour; a frame that differs from the last is moving; most of
the table changed a little is the light. Any of these makes the reading untrusted
(`FrameCounts.moving`), and the tracker waits for still frames. (A skin-colour rule did this
before: skin shares its hue with red pieces, and tones outside its band, the palest and the
darkest among them, went unseen; measured in tests/test_counting_hands.py.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from companion.vision.count_tracker import FrameCounts
from companion.vision.counting import CountingBoard, CountingReader, CountReading
from companion.vision.dice import DiceReading
from companion.vision.hands import ChangeWatch, Extent
from companion.vision.table import BoardNotFound, Calibration

__all__ = ["CountedTableReader", "dice_faces", "largest_change", "table_counts"]


@dataclass
class CountedTableReader:
    """Frames to `FrameCounts` (a table's `reader` part). Each colour's pieces are counted
    under the name the calibration gives them (`table_counts`); a game whose board has large
    or neutral pieces names those by overriding `kinds`."""

    reader: CountingReader
    watch: ChangeWatch = field(default_factory=ChangeWatch)
    """Hands, arms, cards and motion by change against the still table; its `largest_mm2` is
    set from the board (`largest_change`) when the reader is made."""

    def __post_init__(self) -> None:
        self.watch.largest_mm2 = largest_change(self.board)

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
        return FrameCounts(self.kinds(reading), dice_faces(reading.dice), moving,
                           frozenset(reading.doubtful))

    def kinds(self, reading: CountReading) -> dict[str, dict[str, int]]:
        """Zone -> kind -> pieces, as the tracker and the game's referee count them."""
        return table_counts(self.board, reading)

    def untrusted(self, frame: np.ndarray, calibration: Calibration | None = None) -> bool:
        """Motion, something over the table, or the light changing: the tracker must wait.
        `calibration` places the table (the last one is kept while the board is covered)."""
        extent = None if calibration is None else Extent.of(self.board.geometry, calibration)
        return not self.watch.see(frame, extent).trusted


def table_counts(board: CountingBoard, reading: CountReading) -> dict[str, dict[str, int]]:
    """Zone -> kind -> pieces: every region, and when the board counts its tray the tray under
    its own id, with each colour under the name the calibration gives its pieces
    (`CountingBoard.kind`: the colour's name unless the file says otherwise)."""
    counts = {zone: _named(board, colours) for zone, colours in reading.counts.items()}
    if board.tray_counted:
        counts[board.tray.id] = _named(board, reading.tray)
    return counts


def _named(board: CountingBoard, colours: Mapping[str, int]) -> dict[str, int]:
    return {board.kind(colour): n for colour, n in colours.items()}


def dice_faces(dice: DiceReading) -> tuple[int | None, ...]:
    """The faces read, then None for each object in the tray not read as a die: the tracker
    waits until every die is read."""
    read = tuple(f for f in dice.faces if f is not None)
    unread = max(0, dice.objects - len(read))
    return (*read, *[None] * unread)


def largest_change(board: CountingBoard) -> float:
    """The largest change (mm2) pieces can make in one place: a region's circle with the reach
    beyond it where pieces still count, or a counted tray full of cubes. Dice thrown in the
    dice tray are apart from each other: each a small change."""
    discs = [math.pi * ((z.radius or 0) + board.reach_mm) ** 2 for z in board.regions]
    if board.tray_counted and board.tray.rect is not None:
        discs.append(board.tray.rect[2] * board.tray.rect[3])
    return max(discs, default=0.0)
