"""What every command module shares: how a command fails, how it reads a game, a kit, game
options and a database, and how it prints a layer's figures.

A command exits 0 when all is well, 1 when the input has a problem (said on standard error as
`error: ...`), 2 for a usage error (click's own). No command names a game except as a default
(`DEFAULT_GAME`): a game or kit argument is a name or an alias (`rumble-nation`, `rumble`),
looked up through `companion.games`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from companion.games import AnyGame, UnknownGameName, default_game
from companion.games import game as game_spec
from companion.options import SettingError, option_value, pairs
from companion.record.store import Store, StoreError

__all__ = ["DEFAULT_GAME", "GAME_OPTION", "check_broadcast", "check_port", "fail",
           "game_options", "kit_name", "open_store", "pairs_of", "physical_set", "public_url",
           "report", "saved_settings", "spec_of"]

DEFAULT_GAME = default_game().name
"""The game a command uses when none is named: the one that declares itself the default."""

GAME_OPTION = click.option("--game", default=DEFAULT_GAME, show_default=True,
                           help="The game (a name or an alias, e.g. rumble-nation).")


def fail(message: str, code: int = 1) -> NoReturn:
    """Say what is wrong on stderr and exit (1: the input has a problem)."""
    click.echo(f"error: {message}", err=True)
    raise SystemExit(code)


def spec_of(name: str) -> AnyGame:
    """The game a name or alias names, or exit 1 listing the games there are."""
    try:
        return game_spec(name)
    except UnknownGameName as exc:
        fail(str(exc))


def kit_name(text: str) -> str:
    """A kit argument: a game's name or alias stands for the kit its package ships; anything
    else (a kit's own name, a folder holding an edited copy) is passed on as typed."""
    try:
        return game_spec(text).kit
    except UnknownGameName:
        return text


def pairs_of(items: tuple[str, ...], parse: Callable[[str], Any]) -> dict[str, Any]:
    """`KEY=VALUE` options as a dict (`companion.options.pairs`); a usage error (exit 2) for
    an item without `=`."""
    try:
        return pairs(items, parse)
    except SettingError as exc:
        raise click.BadParameter(str(exc)) from None


def game_options(items: tuple[str, ...], players: int | None = None) -> dict[str, Any]:
    """The game options `--option KEY=VALUE` gives (each a JSON value or a word), with
    `--players N` as the option `players`."""
    chosen = pairs_of(items, option_value)
    if players is not None:
        chosen["players"] = players
    return chosen


def players_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--players N`: how many play, one definition for demo, sim and serve (the game's
    option `players`)."""
    return click.option("--players", type=click.IntRange(min=1),
                        help="How many players, for games with a player count "
                        "(--option players=N).")(command)


def names_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--name ROLE=NAME`, repeated: the players' names for a new game (the colour or side
    stands for a player without one)."""
    return click.option("--name", "names", multiple=True, metavar="ROLE=NAME",
                        help="A player's name for a new game, e.g. --name red=Ana (repeat for "
                        "each; a player without one is called by colour or side).")(command)


def report(figures: dict[str, Any], as_json: bool, lines: list[str]) -> None:
    """A layer's figures: one JSON object for scripts, or sentences for people."""
    click.echo(json.dumps(figures) if as_json else "\n".join(lines))


def open_store(db: Path | None) -> Store:
    """The games database (the user's by default), or exit 1 saying why it cannot be opened.
    A --db in a folder that does not exist is refused, never created: a mistyped folder would
    otherwise keep the club's games where nobody looks for them."""
    if db is not None and not db.parent.is_dir():
        fail(f"--db {db}: there is no folder {db.parent} (create it first, or name a file in "
             "a folder that exists)")
    try:
        return Store(db)
    except StoreError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None


def physical_set(name: str) -> Any:
    """A registered set by name (`companion.table.sets`); exit 1 saying what is wrong."""
    from companion.table.sets import load_set

    try:
        return load_set(name)
    except ValueError as exc:
        fail(str(exc))


def check_port(host: str, port: int) -> None:
    """Exit 1 in one sentence for a port that is taken (another `companion serve`, say)."""
    from companion.address import PortUnavailable
    from companion.address import check_port as bindable

    try:
        bindable(host, port)
    except PortUnavailable as exc:
        fail(str(exc))


def public_url(given: str | None, host: str, port: int) -> str:
    """Where the phones reach the table (`companion.address.public_url`); exit 1 for a URL
    that is not http(s)."""
    from companion.address import public_url as reached_at

    try:
        return reached_at(given, host, port)
    except ValueError as exc:
        fail(str(exc))


def saved_settings() -> Any:
    """The table's settings from `companion setup`; a broken file is named (exit 1)."""
    from companion.settings import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as exc:
        fail(f"{exc} (fix or delete it, or run companion setup again)")


def check_broadcast(url: str) -> None:
    """A table refuses to broadcast to a broker that refuses its credentials (exit 1); a broker
    it cannot reach yet only delays the broadcast."""
    from companion.broadcast import BroadcastError, check_broker, parse_url

    try:
        reached = check_broker(parse_url(url))
    except BroadcastError as exc:
        fail(f"broadcast: {exc}")
    if not reached:
        click.echo(f"warning: broadcast: {parse_url(url).redacted()} cannot be reached now: "
                   "the game is recorded and published when it can be", err=True)
