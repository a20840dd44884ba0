"""`companion games`: the stored games (`companion.record.store`): list, show, export,
import, delete, and re-run them all with today's rules.

Every subcommand takes the database as `games --db X list` or `games list --db X`
(`COMPANION_DB` by default, else games.sqlite in the user's data folder).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from companion.cli._common import open_store
from companion.cli._progress import Progress
from companion.cli._words import describe_view, summary
from companion.engine import PUBLIC, UnknownRole
from companion.record import RecordError, read_record, write_record
from companion.record.store import Store, StoreError

__all__ = ["games"]


@click.group()
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False), envvar="COMPANION_DB",
              help="The games database (default: games.sqlite in the user's data directory).")
@click.pass_context
def games(ctx: click.Context, db: Path | None) -> None:
    """Stored games: list, show, export, import, delete."""
    ctx.obj = {"db": db}


def _stored(command: Callable[..., None]) -> Callable[..., None]:
    """A `games` subcommand given the open store; its `--db` is taken after the subcommand
    too (`games list --db X`, as `games --db X list`)."""

    def run(ctx: click.Context, /, db_here: Path | None, **kwargs: Any) -> None:
        store = open_store(db_here or ctx.obj["db"])
        ctx.call_on_close(store.close)
        command(store, **kwargs)

    functools.update_wrapper(run, command)  # its name, help and options
    option = click.option("--db", "db_here", type=click.Path(path_type=Path, dir_okay=False),
                          help="The games database (also accepted before the subcommand).")
    return option(click.pass_context(run))


@games.command("list")
@_stored
@click.option("--search", default="", help="Text to find in the game, players or date.")
@click.option("--unfinished", is_flag=True, help="Only games still in progress.")
def games_list(store: Store, search: str, unfinished: bool) -> None:
    """List stored games, newest first."""
    for row in store.games(search=search, unfinished=unfinished):
        state = row.outcome or "in progress"
        click.echo(f"{row.id:>5}  {row.started_at}  {row.game:<11} {row.entries:>5} actions  "
                   f"{row.players}  [{state}]")


@games.command("show")
@_stored
@click.argument("game_id", type=int)
@click.option("--role", default=PUBLIC, show_default=True, help="Whose view to show.")
@click.option("--json", "as_json", is_flag=True, help="Print the view as JSON, for scripts.")
def games_show(store: Store, game_id: int, role: str, as_json: bool) -> None:
    """Rebuild a stored game from its record and show where it stands."""
    from companion.record.session import Session

    try:
        session = Session.resume(store, game_id)
        view = session.game.view(role)
    except (RecordError, StoreError, UnknownRole) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    if as_json:
        click.echo(json.dumps(view, indent=2, ensure_ascii=False))
        return
    click.echo(summary(session.game, len(session.entries), None))
    click.echo(f"waiting for: {', '.join(session.game.to_move()) or 'nobody'}")
    click.echo(describe_view(view, session.game, role))


@games.command("export")
@_stored
@click.argument("game_id", type=int)
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
def games_export(store: Store, game_id: int, file: Path) -> None:
    """Write a stored game as a record file (hash-chained and sealed)."""
    try:
        record = store.load(game_id)
    except (RecordError, StoreError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    try:
        write_record(file, record.header, record.entries)
    except OSError as exc:
        click.echo(f"error: {file}: cannot write the record ({exc.strerror or exc}); "
                   "nothing was written", err=True)
        raise SystemExit(1) from None
    click.echo(f"{file}: game {game_id}, {len(record.entries)} actions")


@games.command("import")
@_stored
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--unchained", is_flag=True,
              help="Also take a record without hashes (hand-written): nothing shows it whole.")
def games_import(store: Store, file: Path, unchained: bool) -> None:
    """Store a record file as a new game, once it replays cleanly and is whole (sealed).

    All of it is stored in one transaction, or nothing. A record cut at the end (hashes but no
    seal) is refused; one without hashes is refused unless --unchained is given.
    """
    from companion.record import integrity_problem
    from companion.record.session import import_record

    try:
        record = read_record(file)
        game_id = import_record(store, record, unchained=unchained)
    except (RecordError, StoreError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    unsound = integrity_problem(record)
    if unsound is not None:
        click.echo(f"warning: {unsound}", err=True)
    click.echo(f"imported {file} as game {game_id}")


@games.command("delete")
@_stored
@click.argument("game_id", type=int)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def games_delete(store: Store, game_id: int, yes: bool) -> None:
    """Delete a stored game (asks first)."""
    try:
        row = store.game(game_id)
    except StoreError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    if not yes:
        click.confirm(f"Delete game {game_id} ({row.game}, {row.started_at}, {row.entries} "
                      "actions)? This cannot be undone", abort=True)
    store.delete(game_id)
    click.echo(f"deleted game {game_id}")


@games.command("repatch")
@_stored
def games_repatch(store: Store) -> None:
    """Re-run every stored game with today's rules; report games whose outcome changes."""
    from companion.record.repatching import repatch_stored, repatch_words

    changed = 0
    ids = [row.id for row in store.games()]
    with Progress("games re-run") as bar:
        for game_id, result in repatch_stored(store, ids):
            if isinstance(result, RecordError):
                bar.say(f"game {game_id}: error: {result}")
                changed += 1
            else:
                changed += result.changed
                bar.say(f"game {game_id}: {repatch_words(result)}")
            bar.tick(len(ids))
    if changed:
        raise SystemExit(1)
