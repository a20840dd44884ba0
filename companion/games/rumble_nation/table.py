"""Rumble Nation at the table: soldiers counted per region and colour and the dice read in the
tray (`vision.counting`, watched for hands by `reader.py`), the generic count tracker that waits
for a still table (`vision.count_tracker`), and the referee that turns changes, card scans and
buttons into Rumble Nation actions (`referee.py`)."""

from __future__ import annotations

from companion.games.rumble_nation.reader import RumbleTableReader
from companion.games.rumble_nation.referee import RumbleReferee
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.table import TableParts, TableRegistry, TableSetup
from companion.userdata import board_file
from companion.vision.count_tracker import CountTracker
from companion.vision.counting import CountingBoard, CountingReader

__all__ = ["RumbleParts", "build"]

RumbleParts = TableParts[RumbleTableReader, CountTracker, RumbleReferee]
"""Rumble Nation's table: soldiers and dice counted by colour, the count tracker, the referee."""


def build(rules: RumbleNationRules, setup: TableSetup) -> RumbleParts:
    """The reader, tracker and referee for this table. Soldiers and dice carry no tags: the
    registry only names cards (printed labels name themselves, RFID UIDs need registering)."""
    kit = rules.kit
    registry = setup.registry or TableRegistry({}, {})
    board_yaml = setup.calibration / "board.yaml" if setup.calibration else None
    board = CountingBoard.load(kit, board_yaml if board_yaml and board_yaml.is_file()
                             else board_file(kit.game))
    reader = RumbleTableReader(CountingReader(board))
    tracker = CountTracker()
    referee = RumbleReferee(rules, registry, tracker, daimyo_seen=reader.tells_daimyo)
    return TableParts(reader, tracker, referee)
