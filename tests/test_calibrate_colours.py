"""`companion calibrate --colours`: the guided colour step from the command line, on a
photograph of the synthetic Rumble Nation table (one piece of each colour on its spot)."""

from __future__ import annotations

import cv2
from click.testing import CliRunner

from companion.cli import main
from companion.games.rumble_nation.synth import (
    PALETTE,
    RumbleScene,
    RumbleSynth,
    Soldier,
    photograph,
)
from companion.kits import load_kit
from companion.userdata import board_file
from companion.vision.counting import CountingBoard
from companion.vision.piece_synth import WARM_LIGHT
from companion.vision.synth import Camera, Look

POSE = (0.04, -0.03, -0.05, 0.02, 0.03, -0.04, -0.02, 0.05)
TEAL = {**PALETTE, "blue": ((110, 120, 10), (165, 175, 45))}
"""A set whose 'blue' is a teal, outside the shipped blue hue range."""


def _shot(tmp_path, spots=None):
    kit = load_kit("rumble_nation")
    board = CountingBoard.load(kit)
    placed = spots or board.spots
    scene = RumbleScene({}, tuple(Soldier(c, r, board.geometry.zone(r).center, 20)
                                  for c, r in placed.items()), (), light=WARM_LIGHT)
    frame = photograph(RumbleSynth(board, kit, palette=TEAL), scene,
                       Camera((1920, 1440), POSE, 0.05), Look(noise=3))
    path = tmp_path / "colours.png"
    cv2.imwrite(str(path), frame.image)
    return path, board


def test_calibrate_colours_learns_the_sets_colours_into_the_users_calibration(tmp_path):
    photo, board = _shot(tmp_path)
    env = {"COMPANION_DATA": str(tmp_path / "data")}
    result = CliRunner().invoke(main, ["calibrate", "--game", "rumble-nation", "--colours",
                                       "--source", "image", "--image", str(photo)], env=env)
    assert result.exit_code == 0, result.output
    saved = tmp_path / "data" / "calibration" / "rumble_nation" / "board.yaml"
    assert f"saved {saved}" in result.output
    assert "black: on" in result.output and "(read as dark)" in result.output
    mine = CountingBoard.load(load_kit("rumble_nation"), saved)
    learned, shipped = mine.colour("blue").hue, board.colour("blue").hue
    assert learned is not None and shipped is not None
    assert learned[0] <= 88 <= learned[1]  # the teal (hue 88), which the shipped range misses
    assert not shipped[0] <= 88 <= shipped[1]


def test_calibrate_colours_says_which_spot_is_wrong(tmp_path, monkeypatch):
    board = CountingBoard.load(load_kit("rumble_nation"))
    short = dict(list(board.spots.items())[:-1])  # the last colour's piece is missing
    photo, _ = _shot(tmp_path, short)
    missing = list(board.spots)[-1]
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    result = CliRunner().invoke(main, ["calibrate", "--game", "rumble", "--colours",
                                       "--source", "image", "--image", str(photo)])
    assert result.exit_code == 1 and missing in result.output, result.output
    assert "Traceback" not in result.output
    assert board_file("rumble_nation") != tmp_path / "data/calibration/rumble_nation/board.yaml"


def test_calibrate_colours_refuses_a_bad_spot_and_a_game_without_colours(tmp_path):
    result = CliRunner().invoke(main, ["calibrate", "--game", "rumble-nation", "--colours",
                                       "--source", "image", "--image", "x.png", "--spot", "red"])
    assert result.exit_code == 1 and "COLOUR=REGION" in result.output
    result = CliRunner().invoke(main, ["calibrate", "--game", "skirmish", "--colours"])
    assert result.exit_code == 1 and "Skirmish has no board calibration yet" in result.output
