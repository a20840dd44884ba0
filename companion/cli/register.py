"""`companion register`: a physical set registered line by line (which tag is on which piece,
which code on which card) through the game's own registration (`companion.games`) and the
table layer (`companion.table.registering`), its kit written once it matches.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

import click

from companion.cli._capabilities import registration
from companion.cli._common import DEFAULT_GAME, fail, kit_name
from companion.games import game as game_spec
from companion.kits import KitError, load_kit

__all__ = ["register"]


@click.command("register")
@click.argument("name", required=False)
@click.option("--kit", "kit_given", default=DEFAULT_GAME, show_default=True,
              help="The game (name or alias) or shipped kit the set is a copy of.")
@click.option("--entries", type=click.File("rb"), default="-",
              help="The entries, one a line (default: standard input).")
@click.option("--dir", "folder", type=click.Path(path_type=Path, file_okay=False),
              help="Where registries live (default: sets/ in the user's data folder).")
@click.option("--how", is_flag=True, help="Say which lines the game's registration takes.")
def register(name: str | None, kit_given: str, entries: Any, folder: Path | None,
             how: bool) -> None:
    """Register a physical set NAME: which tag is on which piece, which code on which card.

    Each game's registration says which lines it takes (--how). The registry is saved after
    every entry, so a registration can be resumed; at the end it is checked against the kit,
    and when the set matches, its own kit is written beside the registry.
    """
    from companion.table.registering import finish_set, open_set, plain_set_name
    from companion.userdata import sets_folder

    kit = kit_name(kit_given)
    try:
        loaded = load_kit(kit)
    except KitError as exc:
        fail(str(exc))
    found = registration(game_spec(loaded.game))
    if how:
        click.echo(found.entries)
        return
    if name is None:
        raise click.UsageError("name the set: companion register NAME")
    if not plain_set_name(name):
        fail(f"a set's name is a plain file name (no folders, no leading dot): got {name!r}")
    base = folder or sets_folder()
    try:
        registry = open_set(found, base, name, kit)
    except ValueError as exc:
        fail(str(exc))
    click.echo(f"{name}: {registry.progress()} registered so far")
    if entries.isatty():
        click.echo(found.entries)
    _take(registry, entries)
    problems = registry.problems()
    if problems:
        click.echo("the set does not match the kit yet:", err=True)
        for problem in problems:
            click.echo(f"  {problem}", err=True)
        raise SystemExit(1)
    click.echo(f"{name}: complete; the set's kit is {finish_set(registry, base, name)}")


def _take(registry: Any, entries: BinaryIO) -> None:
    """Each line to the registry (`companion.table.registering`): a refused line named on
    standard error and skipped, what is registered said every few lines."""
    from companion.table.registering import register_entries

    register_entries(registry, entries,
                     refused=lambda number, why: click.echo(f"line {number}: {why}", err=True),
                     progress=lambda said: click.echo(f"  {said}"))
