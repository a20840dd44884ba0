"""`companion print-tags`, `print-mat` and `print-card-labels`: the sheets a table is made
with, at exact size (`companion.vision.tags`, `.mat`, `.intrinsics`,
`companion.inputs.labels`), from the game's board or a registered set.
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.cli._capabilities import board, card_labels, registration
from companion.cli._common import DEFAULT_GAME, fail, kit_name, spec_of
from companion.games import AnyGame, MissingCapability
from companion.kits import KitError, load_kit

__all__ = ["print_card_labels", "print_mat", "print_tags"]


@click.command("print-tags")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="The file to write, exactly this one (default: tags.pdf, corners.pdf or "
              "charuco.pdf by the sheet asked for).")
@click.option("--first", default=10, show_default=True, help="First block tag id.")
@click.option("--count", default=96, show_default=True, help="How many block tags.")
@click.option("--size", "size_mm", default=14.0, show_default=True, help="Tag size, mm.")
@click.option("--corners", is_flag=True,
              help="The sheet of the board's corner markers (ids and size from the game's "
              "board.yaml) instead of block tags.")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose board the corner markers are for (a name or an alias).")
@click.option("--charuco", is_flag=True,
              help="The ChArUco board for measuring the lens (companion calibrate "
              "--intrinsics) instead of block tags.")
@click.option("--set", "set_name", metavar="NAME",
              help="The tags of a physical set, each with the block it goes on beside it, in "
              "the order the blocks come out of the box; a set not registered yet is planned "
              "(tags from --first) and registered as printed.")
def print_tags(out: Path | None, first: int, count: int, size_mm: float, corners: bool,
               game: str, charuco: bool, set_name: str | None) -> None:
    """Write one tag sheet at exact size, ids only in the margin (a stuck tag tells nothing):
    block tags, or with --corners the board's corner markers, with --charuco the lens board,
    with --set NAME a set's tags. One sheet per command, written to exactly the --out named.

    With --set NAME, a set's sheet: each tag with its block written beside it, outside the cut
    marks (so the stuck tag still tells nothing), sorted by side, clan and face.
    """
    from companion.vision.intrinsics import CHARUCO, write_charuco_sheet
    from companion.vision.tags import write_tag_sheet

    asked = [flag for flag, on in (("--corners", corners), ("--charuco", charuco),
                                   ("--set", set_name is not None)) if on]
    if len(asked) > 1:
        fail(f"{' and '.join(asked)}: one sheet per command (each to its own --out)")
    if out is None:
        out = Path({"--corners": "corners.pdf", "--charuco": "charuco.pdf"}.get(
            asked[0] if asked else "", "tags.pdf"))
    if set_name is not None:
        _set_sheet(spec_of(game), set_name, out, first, size_mm)
    elif charuco:
        write_charuco_sheet(out)
        click.echo(f"{out}: the ChArUco board, {CHARUCO.size_mm[0]:.0f} x "
                   f"{CHARUCO.size_mm[1]:.0f} mm")
    elif corners:
        spec = spec_of(game)
        geometry = board(spec)
        write_tag_sheet(out, sorted(geometry.corners), geometry.corner_size_mm)
        click.echo(f"{out}: the {len(geometry.corners)} board corner markers of "
                   f"{spec.title}, {geometry.corner_size_mm:g} mm")
    else:
        written = write_tag_sheet(out, range(first, first + count), size_mm)
        click.echo(f"{out}: {written} tags of {size_mm} mm")


def _set_sheet(spec: AnyGame, set_name: str, out: Path, first: int, size_mm: float) -> None:
    """A set's tag sheet, each tag with its block (`companion.table.registering`); a set not
    registered yet is planned from tag `first` and registered as printed."""
    from companion.table.registering import plain_set_name, set_tag_sheet
    from companion.userdata import sets_folder
    from companion.vision.tags import write_tag_list

    found = registration(spec)
    if not plain_set_name(set_name):
        fail(f"a set's name is a plain file name: got {set_name!r}")
    try:
        rows, planned = set_tag_sheet(found, sets_folder(), set_name, spec.kit, first)
    except ValueError as exc:
        fail(str(exc))
    write_tag_list(out, rows, size_mm)
    click.echo(f"{out}: {len(rows)} tags of set {set_name}, each with its block"
               + (f" ({planned} newly planned and registered: stick each tag on the "
                  "block written beside it)" if planned else ""))


@click.command("print-mat")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose table (a name or an alias).")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default="mat.pdf",
              show_default=True)
def print_mat(game: str, out: Path) -> None:
    """Write the table mat at exact size: the board's corner markers and the areas beside
    the map (eliminated, deployment, card scan; a dice tray), tiled over A4 pages that say
    "print at 100%" and carry a 100 mm bar to check it. From your calibration if you made
    one (companion calibrate), else the game's defaults."""
    from companion.vision.mat import off_map_areas, write_mat

    spec = spec_of(game)
    geometry = board(spec)
    mat = write_mat(out, geometry, spec.title)
    areas = ", ".join(name for name, _ in off_map_areas(geometry)) or "none"
    click.echo(f"{out}: {spec.title}'s mat, {mat.width:.0f} x {mat.height:.0f} mm on "
               f"{mat.pages} A4 pages ({mat.rows} rows of {mat.columns}); corner markers "
               f"{', '.join(str(t) for t in sorted(geometry.corners))}; areas: {areas}. "
               "Print at 100%.")


@click.command("print-card-labels")
@click.argument("kit_given", metavar="GAME_OR_KIT")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default="labels.pdf",
              show_default=True)
@click.option("--width", "width_mm", default=50.0, show_default=True, help="Label width, mm.")
@click.option("--height", "height_mm", default=20.0, show_default=True, help="Label height, mm.")
def print_card_labels(kit_given: str, out: Path, width_mm: float, height_mm: float) -> None:
    """Write A4 label sheets: a QR code and the printed identity for every card of a kit
    (a game's name or alias for its shipped kit, or a kit folder)."""
    from companion.inputs.labels import write_card_labels

    try:
        loaded = load_kit(kit_name(kit_given))
        labels = card_labels(loaded)
    except (KitError, MissingCapability) as exc:
        fail(str(exc))
    count = write_card_labels(labels, out, width_mm=width_mm, height_mm=height_mm)
    click.echo(f"{out}: {count} labels of {width_mm} x {height_mm} mm")
