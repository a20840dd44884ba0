"""`companion hardware`: the table kit, where the camera goes (`companion.hardware`) for the
game's board, corner markers and side areas.
"""

from __future__ import annotations

import click

from companion.cli._capabilities import board
from companion.cli._common import DEFAULT_GAME, spec_of
from companion.hardware import Camera, plan

__all__ = ["hardware_group"]


@click.group("hardware")
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
    from companion.hardware import CAMERAS, MIN_PX_PER_MODULE

    geometry = board(spec_of(game))
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
        if result.height_mm > ROOM_MM:
            click.echo("        " + _too_high(camera, lens, area, tag_mm))


CEILING_MM = 2500
"""A usual room's ceiling above the floor."""
TABLE_MM = 750
"""A usual table top above the floor."""
ROOM_MM = CEILING_MM - TABLE_MM
"""How high above the table a camera can go under a usual ceiling."""


def _too_high(camera: Camera, lens: float, area: tuple[float, float], tag_mm: float) -> str:
    """The sentence for a mount above a usual ceiling, proposing the longest (sharpest) wider
    lens of this camera that fits under it, if one does."""
    said = (f"that is higher than a usual ceiling allows ({CEILING_MM / 1000:g} m over a table "
            f"top at {TABLE_MM / 10:.0f} cm leaves {ROOM_MM / 10:.0f} cm)")
    fitting = [(w, plan(camera, w, area, tag_mm)) for w in sorted(camera.lenses_mm, reverse=True)
               if w < lens]
    fitting = [(w, r) for w, r in fitting if r.height_mm <= ROOM_MM]
    if not fitting:
        return (f"{said}: no lens of the {camera.name} fits under it; choose a wider-angle "
                "camera (--camera) or mount it on a stand beside the table.")
    wider, result = fitting[0]
    readable = "" if result.readable else f", tags of at least {result.smallest_tag_mm} mm"
    return (f"{said}: use the wider {wider:g} mm lens (mount {result.height_mm / 10:.0f} cm "
            f"above the table{readable}).")
