"""Shogun at the table: cubes counted per province and colour and the battle tower's tray read
by colour (`reader.py`, on THE PROJECT'S EXAMPLE BOARD's calibration), the generic count tracker
that waits for a still table (`vision.count_tracker`), and the referee that turns changes, card
labels and the confirm button into Shogun actions (`referee.py`)."""

from __future__ import annotations

from companion.games.shogun.reader import ShogunTableReader, load_board
from companion.games.shogun.referee import ShogunReferee
from companion.games.shogun.rules import ShogunRules
from companion.table import TableParts, TableRegistry, TableSetup
from companion.vision.count_tracker import CountTracker
from companion.vision.counting import CountingReader

__all__ = ["ShogunParts", "build"]

ShogunParts = TableParts[ShogunTableReader, CountTracker, ShogunReferee]
"""Shogun's table: cubes and the tower's tray counted by colour, the count tracker, the
referee."""


def build(rules: ShogunRules, setup: TableSetup) -> ShogunParts:
    """The reader, tracker and referee for this table, on the side the game is played on.
    Cubes carry no tags: the registry only names cards (printed labels name themselves, RFID
    UIDs need registering)."""
    registry = setup.registry or TableRegistry({}, {})
    board_yaml = setup.calibration / "board.yaml" if setup.calibration else None
    board = load_board(rules.kit, str(rules.options["side"]),
                       board_yaml if board_yaml and board_yaml.is_file() else None)
    reader = ShogunTableReader(CountingReader(board))
    tracker = CountTracker()
    referee = ShogunReferee(rules, registry, tracker)
    return TableParts(reader, tracker, referee)
