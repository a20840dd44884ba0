"""`companion kit`: the game component kits (maps, cards and pieces): check one, list the
shipped ones, author one's own board from a photo (`companion.kits`, `companion.web.kit_author`).
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.cli._common import check_port, fail, kit_name, spec_of
from companion.kits import KitError, load_kit, shipped_kits
from companion.userdata import referee_token as referee_token_kept

__all__ = ["kit"]


@click.group()
def kit() -> None:
    """Game component kits: maps, cards and pieces."""


@kit.command("check")
@click.argument("name_or_path")
def kit_check(name_or_path: str) -> None:
    """Validate a kit (a shipped kit's name, or a folder holding an edited copy).

    Prints a summary of the kit, or every problem found with its file, line and entry,
    and exits 1 when there is any problem.
    """
    try:
        loaded = load_kit(kit_name(name_or_path))
    except KitError as exc:
        click.echo(str(exc), err=True)
        raise SystemExit(1) from None
    click.echo(f"{loaded.title}: OK" + ("  [SAMPLE components]" if loaded.sample else ""))
    for label, value in loaded.summary():
        click.echo(f"  {label:<10} {value}")


@kit.command("list")
def kit_list() -> None:
    """List the kits shipped with the companion."""
    for name in shipped_kits():
        click.echo(name)


@kit.command("author")
@click.argument("game_name", metavar="GAME")
@click.option("--name", "kit_id", metavar="NAME",
              help="The new kit's name: lower case, digits and _ (default: my_GAME). Its draft "
              "and its folder in the user's data folder are named after it.")
@click.option("--image", type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="A photo of your board (JPEG or PNG) to start from.")
@click.option("--camera", help="Offer the camera's current view as the photo: pi, usb:0 or "
              "folder:PATH.")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="The address to serve on (0.0.0.0: the local network).")
@click.option("--port", default=8000, show_default=True)
def kit_author(game_name: str, kit_id: str | None, image: Path | None, camera: str | None,
               host: str, port: int) -> None:
    """Enter your own board from a photo, on a page for the referee's tablet: each area's
    centre, outline, neighbours and values; writes a kit that `companion kit check` checks.

    Every change is kept as a draft, so the page can be closed and opened again. Stops with
    Ctrl-C."""
    import re

    from companion.address import reachable_host
    from companion.kits.author import AuthorError, author_spec, draft_folder, kit_folder
    from companion.userdata import data_dir
    from companion.web.kit_author import AuthorOptions, serve_kit_author_page

    name = kit_id or f"my_{spec_of(game_name).name}"
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", name):
        fail(f"--name {name!r}: lower-case letters, digits and _, starting with a letter", 2)
    try:
        spec = author_spec(spec_of(game_name).name)
    except AuthorError as exc:
        fail(str(exc))
    photo = image.read_bytes() if image is not None else None
    check_port(host, port)
    shown = reachable_host(host)

    def ready() -> None:
        click.echo(f"the kit author page (Ctrl-C ends it): http://{shown}:{port}/kit-author"
                   f"#token={referee_token_kept()}")
        click.echo(f"draft: {draft_folder(spec.game, name, data_dir()) / 'draft.json'}")
        click.echo(f"the kit is written to {kit_folder(name, data_dir())}")

    try:
        serve_kit_author_page(AuthorOptions(referee_token_kept(), spec.game, name, data_dir(),
                                            camera, host, port, host_names=(shown,)),
                              photo, ready)
    except AuthorError as exc:
        fail(f"kit author: {exc}")
    except ValueError as exc:  # the photo given
        fail(f"kit author: {image}: {exc}")

