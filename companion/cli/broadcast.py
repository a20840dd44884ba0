"""`companion broadcast`: the tournament's dashboard (`companion.broadcast.dashboard`), every
table of an event on one page, or every game's public record written to a folder.
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.cli._common import fail
from companion.cli._progress import Progress

__all__ = ["broadcast_command"]


@click.command("broadcast")
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
        fail(str(exc), 2)
    db = db or data_dir() / f"broadcast-{event}.sqlite"
    if export_to is not None:
        export_to.mkdir(parents=True, exist_ok=True)
        files = export_all(BroadcastStore(db))
        with Progress("games written") as bar:
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
        fail(str(exc))
