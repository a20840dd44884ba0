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

import click

from companion import __version__
from companion.cli._capabilities import need as _need
from companion.cli._common import DEFAULT_GAME
from companion.cli._common import fail as _fail
from companion.cli._common import spec_of as _game
from companion.cli._progress import Progress as _Progress
from companion.cli.bench import bench
from companion.cli.calibrate import calibrate_command
from companion.cli.demo import demo_command
from companion.cli.games import games
from companion.cli.kit import kit
from companion.cli.printing import print_card_labels, print_mat, print_tags
from companion.cli.register import register
from companion.cli.replay import replay_command, sim_command, simulate
from companion.cli.rules import rules_command
from companion.cli.serve import serve_command
from companion.cli.setup import referee_link_command, setup_command
from companion.kits import load_kit

__all__ = ["DEFAULT_GAME", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Tabletop Companion: watches a board wargame, referees it and records it."""


COMMANDS: tuple[click.Command, ...] = (kit, rules_command, replay_command, simulate, sim_command,
                                       bench, games, demo_command, serve_command,
                                       setup_command, referee_link_command, calibrate_command,
                                       print_tags, print_mat, print_card_labels, register)
"""The registry: every command and command group `companion` offers, each from its module."""
for _command in COMMANDS:
    main.add_command(_command)


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


