"""The `companion` command.

Each subcommand is a thin shell over a library call: it parses arguments, calls the library,
prints the result and picks the exit code (0 fine, 1 the input has a problem, 2 usage).

No command names a game except as a default (`DEFAULT_GAME`): a game or kit argument is a
name or an alias (`rumble-nation`, `rumble`), looked up through `companion.games`, and what a
game can do is asked of its spec. A game without a capability a command needs makes the
command exit 1 with the spec's sentence ("Skirmish has no table referee yet").
"""

from __future__ import annotations

import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from companion import __version__
from companion.cli._capabilities import need as _need
from companion.cli._common import DEFAULT_GAME
from companion.cli._common import check_broadcast as _check_broadcast
from companion.cli._common import check_port as _check_port
from companion.cli._common import fail as _fail
from companion.cli._common import kit_name as _kit_name
from companion.cli._common import public_url as _public_url
from companion.cli._common import saved_settings as _saved_settings
from companion.cli._common import spec_of as _game
from companion.cli._progress import Progress as _Progress
from companion.cli.bench import bench
from companion.cli.demo import demo_command
from companion.cli.games import games
from companion.cli.kit import kit
from companion.cli.replay import replay_command, sim_command, simulate
from companion.cli.rules import rules_command
from companion.cli.serve import serve_command
from companion.games import GameSpec, MissingCapability
from companion.games import game as game_spec
from companion.kits import KitError, load_kit
from companion.userdata import lan_address
from companion.userdata import referee_token as referee_token_kept

__all__ = ["DEFAULT_GAME", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Tabletop Companion: watches a board wargame, referees it and records it."""


COMMANDS: tuple[click.Command, ...] = (kit, rules_command, replay_command, simulate, sim_command,
                                       bench, games, demo_command, serve_command)
"""The registry: every command and command group `companion` offers, each from its module."""
for _command in COMMANDS:
    main.add_command(_command)


@main.command("setup")
@click.option("--public-url", metavar="URL",
              help="Where the phones reach this table (default: http://LAN-ADDRESS:PORT).")
@click.option("--port", default=8000, show_default=True, help="The port serve listens on.")
@click.option("--broadcast", metavar="URL",
              help="Publish every game to a tournament broadcast: "
              "mqtt[s]://TABLE:PASSWORD@HOST:PORT/EVENT (docs/broadcast.md).")
@click.option("--no-broadcast", is_flag=True, help="Stop publishing to a broadcast.")
@click.option("--camera", help="Check the camera and place the board: pi, usb:0, or "
              "folder:PATH of stills (one frame; its overlay and fit in millimetres are saved "
              "as companion calibrate saves them). With --page: the camera the page shows "
              "first (default usb:0).")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose board the camera check places (a name or an alias).")
@click.option("--yes", is_flag=True, help="Ask nothing: keep what is not given.")
@click.option("--page", is_flag=True, help="Then serve the set-up page on --port for the "
              "referee (its link is printed): the camera's live preview with the calibration "
              "drawn on it, Save calibration, the phones' address, the referee's link, the "
              "mat. Stops with Ctrl-C.")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="With --page: the address to serve on (0.0.0.0: the local network).")
@click.option("--lens-photos", "lens_photos", type=click.Path(path_type=Path),
              help="Measure the lens first, from photographs of the ChArUco board (companion "
              "print-tags --charuco): a wide lens must be measured before play, and the camera "
              "check says when.")
def setup_command(public_url: str | None, port: int, broadcast: str | None,
                  no_broadcast: bool, camera: str | None, game: str, yes: bool,
                  page: bool, host: str, lens_photos: Path | None) -> None:
    """First-run set-up of this table: the address the phones use, the referee's link, and
    the tournament broadcast. Saved in the user's data folder (settings.yaml) for every
    `companion serve` after; serve's own options still win.

    Asks for what is not given (Enter keeps the value shown); --yes asks nothing. With
    --page, the camera is checked on the set-up page, live, rather than once here. The camera
    check tells a wide lens (the Pi's Camera Module 3 Wide, or 75 degrees or more across) and
    asks for it to be measured (--lens-photos) before play.
    """
    from companion.settings import Settings, SettingsError, save_settings

    if page:  # before anything is saved that the page could not show
        from companion.vision.preview import preview_source

        _need(_game(game), "calibration")
        _check_port(host, port)
        try:
            preview_source(camera or "usb:0")
        except ValueError as exc:
            _fail(str(exc), 2)
    saved = _saved_settings()
    ask = not yes and sys.stdin.isatty()
    found = f"http://{lan_address()}:{port}"
    if public_url is None and ask:
        public_url = click.prompt("Where do the phones reach this table?",
                                  default=saved.public_url or found)
    public_url = public_url or saved.public_url or found
    if no_broadcast:
        broadcast = None
    elif broadcast is None and ask:
        broadcast = click.prompt("Tournament broadcast (mqtt://TABLE:PASSWORD@HOST:PORT/EVENT,"
                                 " or - for none)", default=saved.broadcast or "-")
        broadcast = None if broadcast.strip() in ("", "-") else broadcast.strip()
    elif broadcast is None:
        broadcast = saved.broadcast
    try:
        chosen = Settings(public_url=public_url, broadcast=broadcast)
    except ValueError as exc:
        _fail(f"setup: {exc}")
    if chosen.broadcast is not None:
        _check_broadcast(chosen.broadcast)  # a broker that refuses this table: exit 1
    try:
        written = save_settings(chosen)
    except (OSError, SettingsError) as exc:
        _fail(f"setup: cannot save the settings: {exc}")
    click.echo(f"saved {written}")
    if lens_photos is not None:
        _calibrate_lens(_game(game), lens_photos, None)
    if camera is not None and not page:
        _camera_check(_game(game), camera)
        _lens_step(_game(game), camera, ask)
    click.echo(f"phones reach the table at {chosen.public_url}/play")
    if chosen.broadcast is not None:
        from companion.broadcast import parse_url

        click.echo(f"every game is published to {parse_url(chosen.broadcast).redacted()}")
    link = f"{chosen.public_url}/referee#token={referee_token_kept()}"
    click.echo(f"the referee's screen: {link}")
    if page:
        link = f"{chosen.public_url}/setup#token={referee_token_kept()}"
        click.echo(f"the set-up page (Ctrl-C ends it): {link}")
    if ask:
        import segno

        segno.make(link, error="m").terminal(compact=True)
    if page:
        _camera_check(_game(game), camera or "usb:0", page=(host, port, chosen.public_url))


def _camera_check(spec: GameSpec, camera: str,
                  page: tuple[str, int, str | None] | None = None) -> None:
    """The set-up's camera check: one frame from the camera, the board placed from its
    corner markers, the overlay and the fit in millimetres saved in the user's calibration.
    With `page` (host, port, public URL): live instead, on the set-up page served there
    until interrupted (companion.web.setup_page); a camera it cannot show exits 2."""
    if page is not None:
        from companion.web.setup_page import SetupOptions, serve_setup_page

        host, port, address = page
        named = urllib.parse.urlsplit(address or "").hostname
        try:
            serve_setup_page(SetupOptions(
                referee_token_kept(), spec.name, camera,
                address or f"http://{lan_address()}:{port}", host, port,
                host_names=(named,) if named else ()))
        except ValueError as exc:
            _fail(f"setup: {exc}", 2)
        return
    from companion.userdata import calibration_folder
    from companion.vision.geometry import Geometry
    from companion.vision.overlay import calibrate_frame
    from companion.vision.table import BoardNotFound

    _need(spec, "calibration")
    frame = _camera_frame(camera)
    target = calibration_folder(spec.name)
    try:
        result = calibrate_frame(Geometry.load(load_kit(spec.kit)), frame, target)
    except BoardNotFound as exc:
        _fail(f"camera {camera}: {exc}")
    click.echo(f"camera {camera}: {frame.shape[1]}x{frame.shape[0]}, {result.corners_seen} "
               f"corner markers, the board placed within {result.error_mm:.2f} mm; look at "
               f"{target / 'overlay.png'}")


def _lens_step(spec: GameSpec, camera: str, ask: bool) -> None:
    """After the camera check: whether the lens must be measured (vision.lens_check), and
    the way to do it; asked for at once when someone is at the terminal."""
    from companion.userdata import calibration_folder
    from companion.vision.lens_check import lens_advice
    from companion.vision.overlay import saved

    folder = calibration_folder(spec.name)
    advice = lens_advice(saved(folder), _camera_model(camera))
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
        _calibrate_lens(spec, Path(photos).expanduser(), None)
        _camera_check(spec, camera)


def _camera_model(camera: str) -> str | None:
    """The Pi camera's sensor model (picamera2), which names a wide lens; None elsewhere."""
    if camera != "pi":
        return None
    from companion.vision.sources import pi_camera_model

    return pi_camera_model()


@main.command("referee-link")
@click.option("--port", default=8000, show_default=True)
@click.option("--public-url", metavar="URL", envvar="COMPANION_PUBLIC_URL",
              help="Where the table is reached (default: http://LAN-ADDRESS:PORT).")
@click.option("--qr/--no-qr", default=True, show_default=True,
              help="Also draw the link as a QR code in the terminal.")
def referee_link_command(port: int, public_url: str | None, qr: bool) -> None:
    """Print the referee's link for this table (the same across restarts), and its QR code.

    The link carries the referee's token: whoever opens it referees the table.
    """
    base = _public_url(public_url or _saved_settings().public_url, "0.0.0.0", port)
    link = f"{base}/referee#token={referee_token_kept()}"
    click.echo(link)
    if qr:
        import segno

        segno.make(link, error="m").terminal(compact=True)


@main.command("print-card-labels")
@click.argument("kit_name", metavar="GAME_OR_KIT")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default="labels.pdf",
              show_default=True)
@click.option("--width", "width_mm", default=50.0, show_default=True, help="Label width, mm.")
@click.option("--height", "height_mm", default=20.0, show_default=True, help="Label height, mm.")
def print_card_labels(kit_name: str, out: Path, width_mm: float, height_mm: float) -> None:
    """Write A4 label sheets: a QR code and the printed identity for every card of a kit
    (a game's name or alias for its shipped kit, or a kit folder)."""
    from companion.inputs.labels import write_card_labels

    try:
        loaded = load_kit(_kit_name(kit_name))
        labels = game_spec(loaded.game).need("labels")(loaded)
    except (KitError, MissingCapability) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    count = write_card_labels(labels, out, width_mm=width_mm, height_mm=height_mm)
    click.echo(f"{out}: {count} labels of {width_mm} x {height_mm} mm")


@main.command("register")
@click.argument("name", required=False)
@click.option("--kit", "kit_name", default=DEFAULT_GAME, show_default=True,
              help="The game (name or alias) or shipped kit the set is a copy of.")
@click.option("--entries", type=click.File("rb"), default="-",
              help="The entries, one a line (default: standard input).")
@click.option("--dir", "folder", type=click.Path(path_type=Path, file_okay=False),
              help="Where registries live (default: sets/ in the user's data folder).")
@click.option("--how", is_flag=True, help="Say which lines the game's registration takes.")
def register(name: str | None, kit_name: str, entries: Any, folder: Path | None,
             how: bool) -> None:
    """Register a physical set NAME: which tag is on which piece, which code on which card.

    Each game's registration says which lines it takes (--how). The registry is saved after
    every entry, so a registration can be resumed; at the end it is checked against the kit,
    and when the set matches, its own kit is written beside the registry.
    """
    from companion.games import Registration
    from companion.userdata import sets_folder

    kit = _kit_name(kit_name)
    try:
        loaded = load_kit(kit)
    except KitError as exc:
        _fail(str(exc))
    registration: Registration = _need(game_spec(loaded.game), "register")
    if how:
        click.echo(registration.entries)
        return
    if name is None:
        raise click.UsageError("name the set: companion register NAME")
    if not name or name != Path(name).name or name.startswith("."):
        _fail(f"a set's name is a plain file name (no folders, no leading dot): got {name!r}")
    base = folder or sets_folder()
    try:
        registry = registration.open(base / f"{name}.json", kit, name)
    except ValueError as exc:
        _fail(str(exc))
    click.echo(f"{name}: {registry.progress()} registered so far")
    if entries.isatty():
        click.echo(registration.entries)
    _register_entries(registry, entries)
    problems = registry.problems()
    if problems:
        click.echo("the set does not match the kit yet:", err=True)
        for problem in problems:
            click.echo(f"  {problem}", err=True)
        raise SystemExit(1)
    kit_dir = registry.write_kit(base / f"{name}-kit")
    click.echo(f"{name}: complete; the set's kit is {kit_dir}")


def _register_entries(registry: Any, entries: Any, every: int = 25) -> None:
    """Each line to the registry; a refused line is named and skipped (the rest go on).

    `entries` is read as bytes, line by line (`inputs.entries`): a line that is not UTF-8 or
    is far too long is one refused line, never the end of the whole registration."""
    from companion.inputs.entries import entry_lines

    taken = 0
    for entry in entry_lines(entries):
        line = entry.text
        if entry.problem is None and (not line.strip() or line.lstrip().startswith("#")):
            continue
        try:
            if entry.problem is not None:
                raise ValueError(entry.problem)
            registry.add(line)
        except ValueError as exc:
            click.echo(f"line {entry.number}: {exc}", err=True)
            continue
        taken += 1
        if taken % every == 0:
            click.echo(f"  {registry.progress()}")


@main.command("calibrate")
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
    spec = _game(game)
    if intrinsics_dir is not None:
        _calibrate_lens(spec, intrinsics_dir, out)
        return
    if colours:
        _calibrate_colours(spec, source, image_path, out, spots, camera)
        return
    _need(spec, "calibration")
    import random

    import cv2

    from companion.userdata import calibration_folder
    from companion.vision.corpus import random_scene
    from companion.vision.geometry import Geometry
    from companion.vision.overlay import calibrate_frame
    from companion.vision.synth import Synth, random_camera
    from companion.vision.table import BoardNotFound

    kit = load_kit(spec.kit)
    geometry = Geometry.load(kit)
    frame: Any = None
    if source == "synthetic":
        synth = Synth(geometry, kit)
        rng = random.Random(1)
        frame = synth.photograph(random_scene(geometry, rng),
                                 random_camera(rng, (4056, 3040))).image
    elif source == "image":
        frame = cv2.imread(str(image_path)) if image_path else None
    else:
        frame = _camera_frame(camera)
    if frame is None:
        click.echo(f"error: no frame from the {source} source", err=True)
        raise SystemExit(1)
    target = out or calibration_folder(spec.name)
    try:
        result = calibrate_frame(geometry, frame, target, camera_height_mm=camera_height_mm)
    except BoardNotFound as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    click.echo(f"{result.corners_seen} corner markers, fit within {result.error_mm:.2f} mm; "
               f"saved {target / 'camera.yaml'} and {target / 'overlay.png'}")


def _camera_frame(camera: str) -> Any:
    """One frame from the camera a `--camera` text names (the Pi camera through picamera2,
    a USB camera through OpenCV), or None; an unknown camera is named (exit 2)."""
    from companion.live import frame_source

    try:
        source = frame_source(camera)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
    try:
        frame = source.next_frame()
    finally:
        close = getattr(source, "close", None)
        if callable(close):
            close()
    if frame is None:
        _fail(f"no frame from camera {camera}: {getattr(source, 'status', '') or 'no image'}")
    return frame


def _calibrate_colours(spec: GameSpec, source: str, image_path: Path | None,
                       out: Path | None, spots: tuple[str, ...], camera: str = "usb:0") -> None:
    """The guided colour step: one frame with a piece of each colour on its spot."""
    import cv2

    from companion.userdata import calibration_folder
    from companion.vision.colour_calibration import ColourCalibrationError, calibrate_colours
    from companion.vision.counting import CountingBoard
    from companion.vision.table import BoardNotFound

    _need(spec, "calibration")
    wanted = dict(s.partition("=")[::2] for s in spots)
    if any(not colour or not region for colour, region in wanted.items()):
        click.echo("error: --spot takes COLOUR=REGION (e.g. --spot red=kyo)", err=True)
        raise SystemExit(1)
    if source == "synthetic":
        click.echo("error: --colours needs a photograph of your pieces: --source camera or "
                   "--source image --image PHOTO", err=True)
        raise SystemExit(1)
    frame = (cv2.imread(str(image_path)) if image_path else None) if source == "image" \
        else _camera_frame(camera)
    if frame is None:
        click.echo(f"error: no frame from the {source} source", err=True)
        raise SystemExit(1)
    try:
        board = CountingBoard.load(load_kit(spec.kit))
        path, learned = calibrate_colours(board, frame, out or calibration_folder(spec.name),
                                          wanted or None)
    except (ColourCalibrationError, BoardNotFound, KeyError, TypeError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    for name, colour in sorted(learned.items()):
        click.echo(f"{name}: on {colour.region}, BGR {colour.bgr}, hue {colour.hue}, chroma "
                   f"{colour.chroma}" + (" (read as dark)" if colour.dark(board) else ""))
    click.echo(f"saved {path}")


def _calibrate_lens(spec: GameSpec, folder: Path, out: Path | None) -> None:
    from companion.userdata import calibration_folder
    from companion.vision.intrinsics import IntrinsicsError, calibrate_intrinsics
    from companion.vision.overlay import save_intrinsics

    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    try:
        with _Progress("photographs of the ChArUco board read") as bar:
            lens = calibrate_intrinsics(_photographs(files, bar))
    except IntrinsicsError as exc:
        click.echo(f"error: {folder}: {exc}", err=True)
        raise SystemExit(1) from None
    path = save_intrinsics(out or calibration_folder(spec.name), lens)
    fx, fy = lens.matrix[0][0], lens.matrix[1][1]
    click.echo(f"{lens.views} of {len(files)} photographs used; focal length {fx:.0f} x "
               f"{fy:.0f} px, distortion {', '.join(f'{d:.3f}' for d in lens.distortion)}, "
               f"reprojection error {lens.rms_px:.2f} px; saved in {path}")


def _photographs(files: list[Path], bar: _Progress) -> Iterator[Any]:
    """Each photograph that opens, read as the calibration asks for it (one in memory at a
    time, not all twenty 12 MP frames), the bar moving as each is looked at."""
    import cv2

    for path in files:
        image = cv2.imread(str(path))
        if image is not None:
            yield image
        bar.tick(len(files))


@main.command("print-tags")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default="tags.pdf",
              show_default=True)
@click.option("--first", default=10, show_default=True, help="First block tag id.")
@click.option("--count", default=96, show_default=True, help="How many block tags.")
@click.option("--size", "size_mm", default=14.0, show_default=True, help="Tag size, mm.")
@click.option("--corners", is_flag=True,
              help="Also a sheet of the board's corner markers (ids and size from the game's "
              "board.yaml).")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose board the corner markers are for (a name or an alias).")
@click.option("--charuco", is_flag=True,
              help="Also the ChArUco board for measuring the lens (companion calibrate "
              "--intrinsics).")
@click.option("--set", "set_name", metavar="NAME",
              help="The tags of a physical set, each with the block it goes on beside it, in "
              "the order the blocks come out of the box; a set not registered yet is planned "
              "(tags from --first) and registered as printed.")
def print_tags(out: Path, first: int, count: int, size_mm: float, corners: bool, game: str,
               charuco: bool, set_name: str | None) -> None:
    """Write tag sheets at exact size, ids only in the margin (a stuck tag tells nothing).

    With --set NAME, a set's sheet: each tag with its block written beside it, outside the cut
    marks (so the stuck tag still tells nothing), sorted by side, clan and face.
    """
    from companion.vision.intrinsics import CHARUCO, write_charuco_sheet
    from companion.vision.tags import write_tag_list, write_tag_sheet

    if set_name is not None:
        from companion.games import Registration
        from companion.userdata import sets_folder

        spec = _game(game)
        registration: Registration = _need(spec, "register")
        if not set_name or set_name != Path(set_name).name or set_name.startswith("."):
            _fail(f"a set's name is a plain file name: got {set_name!r}")
        try:
            registry: Any = registration.open(sets_folder() / f"{set_name}.json", spec.kit,
                                              set_name)
            planned = registry.plan_tags(first)
        except ValueError as exc:
            _fail(str(exc))
        rows = registry.tag_captions()
        write_tag_list(out, rows, size_mm)
        click.echo(f"{out}: {len(rows)} tags of set {set_name}, each with its block"
                   + (f" ({planned} newly planned and registered: stick each tag on the "
                      "block written beside it)" if planned else ""))
        return

    if charuco:
        board_out = out.with_name(out.stem + "-charuco.pdf")
        write_charuco_sheet(board_out)
        click.echo(f"{board_out}: the ChArUco board, {CHARUCO.size_mm[0]:.0f} x "
                   f"{CHARUCO.size_mm[1]:.0f} mm")

    written = write_tag_sheet(out, range(first, first + count), size_mm)
    click.echo(f"{out}: {written} tags of {size_mm} mm")
    if corners:
        from companion.vision.geometry import Geometry

        spec = _game(game)
        _need(spec, "calibration")
        geometry = Geometry.load(load_kit(spec.kit))
        corner_out = out.with_name(out.stem + "-corners.pdf")
        write_tag_sheet(corner_out, sorted(geometry.corners), geometry.corner_size_mm)
        click.echo(f"{corner_out}: the {len(geometry.corners)} board corner markers of "
                   f"{spec.title}, {geometry.corner_size_mm:g} mm")


@main.command("print-mat")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose table (a name or an alias).")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default="mat.pdf",
              show_default=True)
def print_mat(game: str, out: Path) -> None:
    """Write the table mat at exact size: the board's corner markers and the areas beside
    the map (eliminated, deployment, card scan; a dice tray), tiled over A4 pages that say
    "print at 100%" and carry a 100 mm bar to check it. From your calibration if you made
    one (companion calibrate), else the game's defaults."""
    from companion.vision.geometry import Geometry
    from companion.vision.mat import off_map_areas, write_mat

    spec = _game(game)
    _need(spec, "calibration")
    geometry = Geometry.load(load_kit(spec.kit))
    mat = write_mat(out, geometry, spec.title)
    areas = ", ".join(name for name, _ in off_map_areas(geometry)) or "none"
    click.echo(f"{out}: {spec.title}'s mat, {mat.width:.0f} x {mat.height:.0f} mm on "
               f"{mat.pages} A4 pages ({mat.rows} rows of {mat.columns}); corner markers "
               f"{', '.join(str(t) for t in sorted(geometry.corners))}; areas: {areas}. "
               "Print at 100%.")


@main.group("hardware")
def hardware_group() -> None:
    """The table kit: camera placement."""


@hardware_group.command("plan")
@click.option("--camera", "camera_name", type=click.Choice(["hq", "module3", "module3-wide"]),
              default="hq", show_default=True)
@click.option("--lens", "lens_mm", type=float, help="Focal length, mm (default: each lens).")
@click.option("--tag", "tag_mm", type=float, default=14.0, show_default=True,
              help="Tag size, mm.")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose table area to cover (board, corner markers and side areas).")
def hardware_plan(camera_name: str, lens_mm: float | None, tag_mm: float, game: str) -> None:
    """How high to mount the camera, and whether the tags will be readable from there."""
    from companion.hardware import CAMERAS, MIN_PX_PER_MODULE, plan
    from companion.vision.geometry import Geometry

    spec = _game(game)
    _need(spec, "calibration")
    geometry = Geometry.load(load_kit(spec.kit))
    left, top, right, bottom = geometry.extent
    area = (right - left, bottom - top)
    camera = CAMERAS[camera_name]
    click.echo(f"{camera.name}; table area {area[0]:.0f} x {area[1]:.0f} mm; tags {tag_mm} mm "
               f"(at least {MIN_PX_PER_MODULE} pixels per tag module needed)")
    for lens in ([lens_mm] if lens_mm else camera.lenses_mm):
        result = plan(camera, lens, area, tag_mm)
        verdict = "readable" if result.readable else "TOO SMALL"
        click.echo(f"  {lens:>5} mm lens: mount {result.height_mm / 10:.0f} cm above the table, "
                   f"{result.px_per_mm:.2f} px/mm, {result.px_per_module:.1f} px per module "
                   f"({verdict}; smallest readable tag {result.smallest_tag_mm} mm)")


@main.command("broadcast")
@click.argument("url")
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False),
              help="The broadcast's own store (default: broadcast-EVENT.sqlite in the user's "
              "data directory).")
@click.option("--host", default="0.0.0.0", show_default=True)
@click.option("--port", default=8080, show_default=True)
@click.option("--names", type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="A pairing file (YAML): {table: {role: player name}} for the standings.")
@click.option("--export", "export_to", type=click.Path(path_type=Path, file_okay=False),
              help="Write every game's public record to this folder and exit.")
def broadcast_command(url: str, db: Path | None, host: str, port: int, names: Path | None,
                      export_to: Path | None) -> None:
    """The tournament's dashboard: subscribe to every table of the event at URL
    (mqtt[s]://dashboard:PASSWORD@HOST:PORT/EVENT) and serve the page of all tables."""
    from companion.broadcast import BroadcastError, parse_url
    from companion.broadcast.dashboard import export_all, run_dashboard
    from companion.broadcast.store import BroadcastStore
    from companion.userdata import data_dir

    try:
        event = parse_url(url).event
    except BroadcastError as exc:
        _fail(str(exc), 2)
    db = db or data_dir() / f"broadcast-{event}.sqlite"
    if export_to is not None:
        export_to.mkdir(parents=True, exist_ok=True)
        files = export_all(BroadcastStore(db))
        with _Progress("games written") as bar:
            for name, text in files.items():
                (export_to / name).write_text(text, encoding="utf-8")
                bar.tick(len(files))
        click.echo(f"{len(files)} games written to {export_to}")
        return
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    try:
        run_dashboard(url, db, host, port, names, ready=lambda bound: click.echo(
            f"dashboard of {event} at http://{shown}:{bound}/ (store {db})"))
    except BroadcastError as exc:
        _fail(str(exc))


