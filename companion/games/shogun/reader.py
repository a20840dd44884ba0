"""Shogun's table read for the count tracker: cubes per province by kind (a player's armies under
the player's colour, the green farmers as `farmers`, the rules' names: `rules.state.FARMERS`),
and the battle tower's tray as one more zone, `TRAY`, counted the same way after every throw.

The board is the calibration file's (`calibration/board.yaml`: THE PROJECT'S EXAMPLE BOARD, not
the printed map) with the provinces of the side played on: both sides put their provinces at
the same places, under their own names. Reading is the counted table's
(`vision.counted_table.CountedTableReader`: `vision.counting`'s counts, the tray included,
`CountingBoard.tray_counted`, each colour under the rules' name for its cubes from the
calibration's `kinds`); hands, arms and motion are watched by change against the still table
(`vision.hands`): a hand over the tray or between provinces makes the frame untrusted, and the
tracker (`vision.count_tracker.CountTracker`) waits.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from companion.games.shogun.kit import ShogunKit
from companion.vision.counted_table import CountedTableReader
from companion.vision.counting import CountingBoard, CountingReader

__all__ = ["SHIPPED", "TRAY", "ShogunTableReader", "load_board"]

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


class ShogunTableReader(CountedTableReader):
    """Frames to `FrameCounts` (provinces and the tray, each colour under the rules' name
    for its cubes) for the count tracker."""

    @classmethod
    def for_side(cls, side: str = "sun", kit: ShogunKit | None = None) -> ShogunTableReader:
        """A reader of the example board's `side` (`load_board`)."""
        return cls(CountingReader(load_board(kit, side)))
