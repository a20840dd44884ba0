"""`companion calibrate`: place the board from its corner markers, measure the lens, or
learn the players' colours (`companion.vision.overlay`, `.lens_check`, `.colour_calibration`),
from one frame of the camera, a photograph or the synthetic table.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from companion.cli._camera import calibrate_lens, camera_frame
from companion.cli._capabilities import board, counting_board, need
from companion.cli._common import DEFAULT_GAME, fail, spec_of
from companion.games import AnyGame
from companion.kits import Kit, load_kit

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.geometry import Geometry

__all__ = ["calibrate_command"]


@click.command("calibrate")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose board (a name or an alias).")
@click.option("--source", type=click.Choice(["synthetic", "camera", "image"]),
              default="camera", show_default=True)
@click.option("--camera", "camera", default="usb:0", show_default=True,
              help="Which camera, with --source camera: pi (the Pi camera, through "
              "picamera2), usb:0 or usb:/dev/video0 (OpenCV), as serve --camera.")
@click.option("--image", "image_path", type=click.Path(path_type=Path, dir_okay=False),
              help="The photograph to calibrate from, with --source image.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Where to save (default: the user's data folder, calibration/GAME/).")
@click.option("--camera-height-mm", type=float,
              help="The lens's height above the map: the reader then allows for the blocks' "
              "height (board.yaml block_height_mm).")
@click.option("--intrinsics", "intrinsics_dir",
              type=click.Path(path_type=Path, file_okay=False, exists=True),
              help="Measure the lens instead, from photographs of the ChArUco board "
              "(companion print-tags --charuco) in this folder.")
@click.option("--colours", is_flag=True,
              help="Learn the players' colours instead (games whose pieces are counted by "
              "colour): one piece of each colour alone on its spot, one frame.")
@click.option("--spot", "spots", multiple=True, metavar="COLOUR=REGION",
              help="With --colours: where that colour's piece stands (default: the board's "
              "calibration_spots).")
def calibrate_command(game: str, source: str, camera: str, image_path: Path | None,
                      out: Path | None, camera_height_mm: float | None,
                      intrinsics_dir: Path | None, colours: bool,
                      spots: tuple[str, ...]) -> None:
    """Place the board from its corner markers; save it and an overlay to check by eye.

    With --intrinsics, measure the lens from ChArUco photographs and save it beside the pose.
    With --colours, learn the players' colours under this table's light and save them in the
    user's calibration of the game.
    """
    spec = spec_of(game)
    if intrinsics_dir is not None:
        calibrate_lens(spec, intrinsics_dir, out)
        return
    if colours:
        _calibrate_colours(spec, source, image_path, out, spots, camera)
        return
    from companion.userdata import calibration_folder
    from companion.vision.overlay import calibrate_frame
    from companion.vision.table import BoardNotFound

    kit = load_kit(spec.kit)
    geometry = board(spec, kit)
    frame = _frame(source, image_path, camera, geometry, kit)
    target = out or calibration_folder(spec.name)
    try:
        result = calibrate_frame(geometry, frame, target, camera_height_mm=camera_height_mm)
    except BoardNotFound as exc:
        fail(str(exc))
    click.echo(f"{result.corners_seen} corner markers, fit within {result.error_mm:.2f} mm; "
               f"saved {target / 'camera.yaml'} and {target / 'overlay.png'}")


def _frame(source: str, image_path: Path | None, camera: str, geometry: Geometry | None = None,
           kit: Kit | None = None) -> np.ndarray:
    """The frame to calibrate from (`companion.vision.frames`): the synthetic table's (on
    `geometry` and `kit`), the photograph's, or the camera's; exit 1 when there is none."""
    from companion.vision.frames import read_photograph, synthetic_frame

    frame: np.ndarray | None
    if source == "synthetic" and geometry is not None:
        frame = synthetic_frame(geometry, kit)
    elif source == "image":
        frame = read_photograph(image_path)
    else:
        frame = camera_frame(camera)
    if frame is None:
        fail(f"no frame from the {source} source")
    return frame


def _calibrate_colours(spec: AnyGame, source: str, image_path: Path | None,
                       out: Path | None, spots: tuple[str, ...], camera: str = "usb:0") -> None:
    """The guided colour step: one frame with a piece of each colour on its spot."""
    from companion.userdata import calibration_folder
    from companion.vision.colour_calibration import ColourCalibrationError, calibrate_colours
    from companion.vision.table import BoardNotFound

    need(spec, "board")
    wanted = dict(s.partition("=")[::2] for s in spots)
    if any(not colour or not region for colour, region in wanted.items()):
        fail("--spot takes COLOUR=REGION (e.g. --spot red=kyo)")
    if source == "synthetic":
        fail("--colours needs a photograph of your pieces: --source camera or --source image "
             "--image PHOTO")
    frame = _frame(source, image_path, camera)
    try:
        counting = counting_board(spec)
        path, learned = calibrate_colours(counting, frame, out or calibration_folder(spec.name),
                                          wanted or None)
    except (ColourCalibrationError, BoardNotFound, KeyError, TypeError) as exc:
        fail(str(exc))
    for name, colour in sorted(learned.items()):
        click.echo(f"{name}: on {colour.region}, BGR {colour.bgr}, hue {colour.hue}, chroma "
                   f"{colour.chroma}" + (" (read as dark)" if colour.dark(counting) else ""))
    click.echo(f"saved {path}")
