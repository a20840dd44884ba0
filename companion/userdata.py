"""Where what a user makes is kept: the user's data directory (platformdirs), never the source
tree. Calibrations (`calibration/<game>/`), registered sets (`sets/`) and the game store live
there; `COMPANION_DATA` moves the whole folder (tests, a second table on one machine).

A game's calibration is read from the user's folder when `companion calibrate` has written one
there, else from the defaults its game package ships (`calibration/board.yaml`).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = ["board_file", "calibration_folder", "data_dir", "sets_folder"]

APP = "tabletop-companion"


def data_dir() -> Path:
    """The user's data folder for the companion (`COMPANION_DATA` overrides it)."""
    override = os.environ.get("COMPANION_DATA")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP))


def calibration_folder(game: str) -> Path:
    """Where `companion calibrate` saves this table's calibration for `game` (not created)."""
    from companion.games import resolve

    return data_dir() / "calibration" / resolve(game)


def board_file(game: str) -> Path:
    """The table geometry for `game`: the user's measured copy, else the shipped default."""
    from companion.games import game as game_spec

    mine = calibration_folder(game) / "board.yaml"
    if mine.is_file():
        return mine
    path: Path = game_spec(game).need("calibration")
    return path


def sets_folder() -> Path:
    """Registered physical sets (`companion register`)."""
    return data_dir() / "sets"
