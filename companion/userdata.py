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

__all__ = ["board_file", "calibration_folder", "data_dir", "lan_address", "referee_token",
           "sets_folder"]

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
    return game_spec(game).need_calibration()


def sets_folder() -> Path:
    """Registered physical sets (`companion register`)."""
    return data_dir() / "sets"


def referee_token() -> str:
    """The referee's token for this table, made once and kept (mode 0600) in the user's data
    folder: the referee's link stays the same across restarts (`companion referee-link`)."""
    import secrets

    path = data_dir() / "referee-token"
    try:
        kept = path.read_text().strip()
        if len(kept) >= 16:
            return kept
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(token + "\n")
    return token


def lan_address() -> str:
    """This machine's address on the local network (where the phones reach it): the address
    the system would send from towards the LAN; 127.0.0.1 when there is no network."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: a route is looked up
            address = str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    return address
