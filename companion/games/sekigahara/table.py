"""Sekigahara at the table: blocks read by their tags (tags to zones, stacks kept apart), the
tracker that ignores hands, and the referee that turns diffs, card scans and buttons into
Sekigahara actions (`referee.py`)."""

from __future__ import annotations

from companion.games.sekigahara.referee import SekigaharaReferee
from companion.games.sekigahara.rules import SekigaharaRules
from companion.table import TableParts, TableRegistry, TableSetup
from companion.userdata import calibration_folder
from companion.vision.geometry import Geometry
from companion.vision.layout import Layout
from companion.vision.overlay import camera_height, lens_intrinsics
from companion.vision.table import StableTracker, TableReader

__all__ = ["SekigaharaParts", "build"]

SekigaharaParts = TableParts[TableReader, StableTracker, SekigaharaReferee]
"""Sekigahara's table: blocks read by their tags, the stable tracker, the referee."""


def build(rules: SekigaharaRules, setup: TableSetup) -> SekigaharaParts:
    """The reader, tracker and referee for this table (the simulated set by default)."""
    kit = rules.kit
    registry = setup.registry or TableRegistry.in_kit_order(b.id for b in kit.blocks)
    folder = setup.calibration or calibration_folder(kit.game)
    board = folder / "board.yaml"
    geometry = Geometry.load(kit, board if board.is_file() else None)
    reader = TableReader(geometry, known_tags=frozenset(registry.blocks),
                         intrinsics=lens_intrinsics(folder),
                         camera_height_mm=setup.camera_height_mm or camera_height(folder))
    tracker = StableTracker(stacks=geometry, link=Layout(geometry, crowd=setup.crowd).link)
    return TableParts(reader, tracker, SekigaharaReferee(rules, registry))
