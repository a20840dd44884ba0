"""The camera steps `setup` and `calibrate` share, said to the person at the terminal: one
frame from a camera (`companion.vision.frames`), the board placed on it
(`companion.vision.overlay`), the lens checked and measured (`companion.vision.lens_check`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from companion.cli._capabilities import board, need
from companion.cli._common import fail
from companion.cli._progress import Progress
from companion.games import AnyGame

if TYPE_CHECKING:
    import numpy as np

__all__ = ["calibrate_lens", "camera_check", "camera_frame", "lens_step"]


def camera_frame(camera: str) -> np.ndarray:
    """One frame from the camera a `--camera` text names (the Pi camera through picamera2,
    a USB camera through OpenCV); an unknown camera is named (exit 2), a camera without a
    frame said with its status (exit 1)."""
    from companion.live import frame_source
    from companion.vision.frames import NoFrame, first_frame

    try:
        source = frame_source(camera)
    except ValueError as exc:
        fail(str(exc), 2)
    try:
        return first_frame(source, camera)
    except NoFrame as exc:
        fail(str(exc))


def camera_check(spec: AnyGame, camera: str) -> None:
    """The set-up's camera check: one frame from the camera, the board placed from its
    corner markers, the overlay and the fit in millimetres saved in the user's calibration."""
    from companion.userdata import calibration_folder
    from companion.vision.overlay import calibrate_frame
    from companion.vision.table import BoardNotFound
    from companion.vision.tags import camera_warning

    need(spec, "board")
    frame = camera_frame(camera)
    target = calibration_folder(spec.name)
    geometry = board(spec)
    try:
        result = calibrate_frame(geometry, frame, target)
    except BoardNotFound as exc:
        fail(f"camera {camera}: {exc}")
    click.echo(f"camera {camera}: {frame.shape[1]}x{frame.shape[0]}, {result.corners_seen} "
               f"corner markers, the board placed within {result.error_mm:.2f} mm; look at "
               f"{target / 'overlay.png'}")
    warning = camera_warning(geometry, (int(frame.shape[1]), int(frame.shape[0])))
    if warning:
        click.echo(f"warning: {warning}")


def lens_step(spec: AnyGame, camera: str, ask: bool) -> None:
    """After the camera check: whether the lens must be measured (vision.lens_check), and
    the way to do it; asked for at once when someone is at the terminal."""
    from companion.userdata import calibration_folder
    from companion.vision.lens_check import advice_for

    advice = advice_for(calibration_folder(spec.name), camera)
    if not advice.needed:
        click.echo(f"lens: {advice.reason}")
        return
    click.echo(f"lens: {advice.reason}, so it must be measured before play: print the ChArUco "
               "board (companion print-tags --charuco), photograph it flat in 10 or more "
               "places and angles that reach the frame's corners, put the photographs in a "
               f"folder, then: companion setup --camera {camera} --lens-photos FOLDER")
    if not ask:
        return
    photos = click.prompt("Folder of ChArUco photographs (Enter: later)", default="",
                          show_default=False).strip()
    if photos:
        calibrate_lens(spec, Path(photos).expanduser(), None)
        camera_check(spec, camera)


def calibrate_lens(spec: AnyGame, folder: Path, out: Path | None) -> None:
    """The lens measured from the ChArUco photographs in `folder` and saved in `out` (default:
    the user's calibration of the game), with a bar as the photographs are read; exit 1 when
    they do not measure it."""
    from companion.userdata import calibration_folder
    from companion.vision.intrinsics import IntrinsicsError
    from companion.vision.lens_check import measure_lens

    try:
        with Progress("photographs of the ChArUco board read") as bar:
            measured = measure_lens(folder, out or calibration_folder(spec.name), bar.callback)
    except IntrinsicsError as exc:
        click.echo(f"error: {folder}: {exc}", err=True)
        raise SystemExit(1) from None
    lens = measured.lens
    fx, fy = lens.matrix[0][0], lens.matrix[1][1]
    click.echo(f"{lens.views} of {measured.photographs} photographs used; focal length {fx:.0f}"
               f" x {fy:.0f} px, distortion {', '.join(f'{d:.3f}' for d in lens.distortion)}, "
               f"reprojection error {lens.rms_px:.2f} px; saved in {measured.saved}")
