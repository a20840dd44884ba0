"""La Disfida di Barletta at the table: counters read by the tag on their face up (where each
knight stands and whether it is mounted) and the dice read in the tray (`reader.py`), the
tracker that waits for a still table and a still tray (`tracker.py`), and the referee that
turns the changes into Disfida actions and asks on the tablet what the table cannot show
(`referee.py`)."""

from __future__ import annotations

from companion.games.barletta.reader import BarlettaReader, field_geometry
from companion.games.barletta.referee import BarlettaReferee
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.table_state import simulated_registry
from companion.games.barletta.tracker import BarlettaTracker
from companion.table import TableParts, TableSetup
from companion.userdata import calibration_folder
from companion.vision.overlay import camera_height, lens_intrinsics

__all__ = ["BarlettaParts", "build"]

BarlettaParts = TableParts[BarlettaReader, BarlettaTracker, BarlettaReferee]
"""Barletta's table: counters read by hex and face, dice in the tray, the tracker, the
referee."""


def build(rules: BarlettaRules, setup: TableSetup) -> BarlettaParts:
    """The reader, tracker and referee for this table (the simulated set by default: each
    knight's front tag then its back tag, in the kit's order)."""
    kit = rules.kit
    registry = setup.registry or simulated_registry(list(kit.by_id))
    folder = setup.calibration or calibration_folder(kit.game)
    board = folder / "board.yaml"
    geometry = field_geometry(kit, board if board.is_file() else None)
    reader = BarlettaReader(geometry, known_tags=frozenset(registry.blocks),
                            intrinsics=lens_intrinsics(folder),
                            camera_height_mm=setup.camera_height_mm or camera_height(folder))
    return TableParts(reader, BarlettaTracker(), BarlettaReferee(rules, registry))
