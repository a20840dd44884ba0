"""The `companion` command.

Each subcommand is a thin shell over a library call: it parses arguments, calls the library,
prints the result and picks the exit code (0 fine, 1 the input has a problem, 2 usage).

No command names a game except as a default (`DEFAULT_GAME`): a game or kit argument is a
name or an alias (`rumble-nation`, `rumble`), looked up through `companion.games`, and what a
game can do is asked of its spec. A game without a capability a command needs makes the
command exit 1 with the spec's sentence ("Skirmish has no table referee yet").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from companion import __version__
from companion.cli._capabilities import need as _need
from companion.cli._common import DEFAULT_GAME
from companion.cli._common import fail as _fail
from companion.cli._common import kit_name as _kit_name
from companion.cli._common import spec_of as _game
from companion.cli._progress import Progress as _Progress
from companion.cli.bench import bench
from companion.cli.calibrate import calibrate_command
from companion.cli.demo import demo_command
from companion.cli.games import games
from companion.cli.kit import kit
from companion.cli.replay import replay_command, sim_command, simulate
from companion.cli.rules import rules_command
from companion.cli.serve import serve_command
from companion.cli.setup import referee_link_command, setup_command
from companion.games import MissingCapability
from companion.games import game as game_spec
from companion.kits import KitError, load_kit

__all__ = ["DEFAULT_GAME", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Tabletop Companion: watches a board wargame, referees it and records it."""


COMMANDS: tuple[click.Command, ...] = (kit, rules_command, replay_command, simulate, sim_command,
                                       bench, games, demo_command, serve_command,
                                       setup_command, referee_link_command, calibrate_command)
"""The registry: every command and command group `companion` offers, each from its module."""
for _command in COMMANDS:
    main.add_command(_command)


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


