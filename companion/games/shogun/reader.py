"""Shogun's table read for the count tracker: cubes per province by kind (a player's armies under
the player's colour, the green farmers as `farmers`, the rules' names: `rules.state.FARMERS`),
and the battle tower's tray as one more zone, `TRAY`, counted the same way after every throw.

The board is the calibration file's (`calibration/board.yaml`: THE PROJECT'S EXAMPLE BOARD, not
the printed map) with the provinces of the side played on: both sides put their provinces at
the same places, under their own names. Counting is `vision.counting.CountingReader`'s, the
tray included (`CountingBoard.tray_counted`); hands, arms and motion are watched as for
Rumble Nation (`RumbleTableReader.untrusted`: change against the still table, `vision.hands`):
a hand over the tray or between provinces makes the frame untrusted, and the tracker
(`vision.count_tracker.CountTracker`) waits.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from companion.games.rumble_nation.reader import RumbleTableReader
from companion.games.shogun.kit import ShogunKit
from companion.vision.count_tracker import FrameCounts
from companion.vision.counting import CountingBoard, CountingReader, CountReading
from companion.vision.table import BoardNotFound

__all__ = ["SHIPPED", "TRAY", "ShogunTableReader", "load_board", "table_counts"]

SHIPPED = Path(__file__).parent / "calibration" / "board.yaml"
"""The example board's calibration, shipped with the game."""
TRAY = "tower_tray"
"""The tray's zone in `FrameCounts.counts` (the calibration's `tray: area`)."""


def load_board(kit: ShogunKit | None = None, side: str = "sun",
               path: Path | None = None) -> CountingBoard:
    """The counted table for `side`'s provinces, from `path` (by default the user's
    calibration when there is one, else `SHIPPED`). Raises KeyError for a side the kit does
    not have, ValueError when the file's tray is not `TRAY`."""
    if kit is None:
        from companion.kits import load_kit

        found = load_kit("shogun")
        assert isinstance(found, ShogunKit)
        kit = found
    provinces = kit.sides[side].provinces
    board = CountingBoard.load(SimpleNamespace(game=kit.game, locations=provinces),
                               path or _calibration())
    if board.tray.id != TRAY or not board.tray_counted:
        raise ValueError(f"{board.source}: the tray to count must be the area '{TRAY}'")
    return board


def _calibration() -> Path:
    """The user's measured copy once the game names its calibration, else the shipped one."""
    from companion.games import game
    from companion.userdata import board_file

    return board_file("shogun") if game("shogun").has("calibration") else SHIPPED


def table_counts(board: CountingBoard, reading: CountReading) -> dict[str, dict[str, int]]:
    """Zone -> kind -> cubes: every province, and the tray under `TRAY`, with each colour
    under the rules' name for its cubes (`CountingBoard.kind`)."""
    counts = {zone: _named(board, colours) for zone, colours in reading.counts.items()}
    counts[board.tray.id] = _named(board, reading.tray)
    return counts


def _named(board: CountingBoard, colours: Mapping[str, int]) -> dict[str, int]:
    return {board.kind(colour): n for colour, n in colours.items()}


class ShogunTableReader(RumbleTableReader):
    """Frames to `FrameCounts` (provinces and the tray) for the count tracker."""

    def read(self, frame: np.ndarray) -> FrameCounts:
        """ValueError for a frame that is not a colour image (from the counting reader)."""
        try:
            reading = self.reader.read(frame)
        except BoardNotFound:
            return FrameCounts({}, board_found=False, moving=self.untrusted(frame))
        return FrameCounts(table_counts(self.board, reading), (),
                           self.untrusted(frame, reading.calibration),
                           frozenset(reading.doubtful))

    @classmethod
    def for_side(cls, side: str = "sun", kit: ShogunKit | None = None) -> ShogunTableReader:
        """A reader of the example board's `side` (`load_board`)."""
        return cls(CountingReader(load_board(kit, side)))
