"""`companion serve`: the table's web server (`companion.serve`) for the game the table
layer chooses (`companion.table.serving`), watched by a camera or not (`companion.live`).

Everything that could stop it is checked before a game is stored: the port, the camera's
name, the game's table referee, the set.
"""

from __future__ import annotations

import sys
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from companion.cli._capabilities import need, table_of
from companion.cli._common import (
    DEFAULT_GAME,
    check_broadcast,
    check_port,
    fail,
    game_options,
    names_option,
    open_store,
    pairs_of,
    physical_set,
    players_option,
    public_url,
    saved_settings,
    spec_of,
)
from companion.engine import EngineError
from companion.games import AnyGame, MissingCapability, UnknownGameName
from companion.record import RecordError
from companion.record.store import Store, StoreError
from companion.userdata import referee_token as referee_token_kept

if TYPE_CHECKING:
    from companion.live import TableOptions
    from companion.record.session import Session
    from companion.table.sets import PhysicalSet

__all__ = ["serve_command"]


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on (the local network by default).")
@click.option("--port", default=8000, show_default=True)
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False), envvar="COMPANION_DB",
              help="The games database (default: games.sqlite in the user's data directory).")
@click.option("--game", "game_id", type=int, help="Resume this stored game.")
@click.option("--new", "new_game", metavar="GAME",
              help=f"Start a new game of this kind (a name or an alias, e.g. {DEFAULT_GAME}).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option for --new, e.g. --option knowledge=table (a JSON value or "
              "a word); with --camera the game's table options come first.")
@players_option
@names_option
@click.option("--referee-token", help="The referee's token (default: this table's own, kept "
              "in the user's data folder: `companion referee-link` prints its link).")
@click.option("--public-url", metavar="URL", envvar="COMPANION_PUBLIC_URL",
              help="Where the phones reach this table, for pairing links and QR codes "
              "(default: http://LAN-ADDRESS:PORT, the address found on the local network).")
@click.option("--camera", help="Watch the table: usb:0, usb:/dev/video0, pi, folder:PATH or "
              "video:PATH (without it, actions are entered on the tablet).")
@click.option("--reader", type=click.Path(dir_okay=False),
              help="The card reader's serial device (e.g. /dev/rfid).")
@click.option("--reader-protocol", type=click.Choice(["rdm6300", "line"]), default="rdm6300",
              show_default=True)
@click.option("--gpio", is_flag=True, help="Buttons, lights and buzzer on the Pi's GPIO.")
@click.option("--set", "set_name", metavar="NAME", envvar="COMPANION_SET",
              help="The registered physical set on the table (companion register): its tags "
              "and card codes, and its kit for a new game (default with --camera: the set "
              "registered last, if any).")
@click.option("--broadcast", metavar="URL", envvar="COMPANION_BROADCAST",
              help="Publish the public game to a tournament broadcast: "
              "mqtt[s]://TABLE:PASSWORD@HOST:PORT/EVENT (docs/broadcast.md).")
def serve_command(host: str, port: int, db: Path | None, game_id: int | None,
                  new_game: str | None, options: tuple[str, ...], players: int | None,
                  names: tuple[str, ...], referee_token: str | None, public_url: str | None,
                  camera: str | None, reader: str | None, reader_protocol: str, gpio: bool,
                  set_name: str | None, broadcast: str | None) -> None:
    """Serve the table display, the players' phones and the referee's screen.

    Without --game or --new it offers to resume the newest unfinished game, or starts a new
    game of the default game when there is none. A new game is played at a real table: it
    starts with the game's table options (e.g. table knowledge), and --option adds to them or
    overrides them (--option knowledge=full for a game the companion deals itself). With
    --camera the companion watches the table and referees it, for any game with a table
    referee (docs/referee.md); without one, the referee's screen enters the draws and dice
    and the players act on their phones.
    """
    check_port(host, port)  # before a game is stored that could not be served
    spec = spec_of(new_game) if new_game is not None else None
    if spec is not None and camera is not None:
        need(spec, "table")  # before a game is stored that the camera cannot read
    table, chosen_set = _table(camera, reader, reader_protocol, gpio, set_name)
    if game_id is not None and (players is not None or names):
        fail("--players and --name are for a new game (--new), not one resumed")
    store = open_store(db)
    known = {row.id for row in store.games()}
    session = _session(store, game_id, spec, game_options(options, players)
                       if game_id is None else {}, chosen_set, pairs_of(names, str))
    click.get_current_context().call_on_close(session.release)
    try:
        _fits(store, session, chosen_set, table is not None)
        if table is None and (reader or gpio):
            click.echo("warning: --reader and --gpio feed the live table: add --camera",
                       err=True)
        store.close()
        _serve(session.game_id, host, port, db, table, referee_token, public_url, broadcast)
    except BaseException as exc:
        if session.game_id not in known and _failed(exc):
            _forget_unplayed(db, session)
        raise


def _failed(exc: BaseException) -> bool:
    """Whether the command is ending in failure (not a normal stop)."""
    if isinstance(exc, SystemExit):
        return exc.code not in (0, None)
    return not isinstance(exc, KeyboardInterrupt)


def _forget_unplayed(db: Path | None, session: Session) -> None:
    """A game this command created and could not serve, with no action in it, is deleted: a
    failed start leaves no empty stored game."""
    session.release()
    store = Store(db)
    try:
        if store.game(session.game_id).entries == 0:
            store.delete(session.game_id)
    finally:
        store.close()


def _table(camera: str | None, reader: str | None, reader_protocol: str, gpio: bool,
           set_name: str | None) -> tuple[TableOptions | None, PhysicalSet | None]:
    """The live table --camera asks for (a camera text that names none: exit 2; a source
    that cannot work, no such folder, file or device: exit 1), and the set on it: --set, or
    with a camera the set registered last."""
    from companion.live import TableOptions, refusal
    from companion.table.sets import newest_set

    if camera is not None:
        try:
            refused = refusal(camera)
        except ValueError as exc:
            fail(str(exc), 2)
        if refused is not None:  # nobody must wait for moves that are never read
            fail(f"camera {camera}: {refused}")
        set_name = set_name or newest_set()
    chosen_set = physical_set(set_name) if set_name else None
    if camera is None:
        return None, chosen_set
    return TableOptions(camera, reader, reader_protocol, gpio,
                        registry=chosen_set.registry if chosen_set else None), chosen_set


def _session(store: Store, game_id: int | None, spec: AnyGame | None,
             options: dict[str, Any], chosen_set: PhysicalSet | None,
             names: dict[str, str]) -> Session:
    """The game to serve, claimed for this process (and its worker) until the command ends
    (`companion.table.serving`); exit 1 saying why it cannot be served."""
    from companion.record.store import GameClaimed
    from companion.table.serving import serve_session

    try:
        return serve_session(store, game_id=game_id, new=spec, default=spec_of(DEFAULT_GAME),
                             options=options, chosen_set=chosen_set, confirm=_resume,
                             names=names,
                             warn=lambda text: click.echo(f"warning: {text}", err=True))
    except GameClaimed as exc:
        store.close()
        fail(str(exc))
    except (RecordError, StoreError) as exc:
        store.close()
        fail(f"cannot resume game {game_id}: {exc}" if game_id is not None else str(exc))
    except (EngineError, ValueError) as exc:
        store.close()
        fail(str(exc))


def _resume(asked: str) -> bool:
    """Whether to resume the newest unfinished game. Nobody to ask (a service): yes, since
    the record is the truth."""
    if not sys.stdin.isatty():
        click.echo(f"{asked[:-1]}: yes (nobody to ask)")
        return True
    return click.confirm(asked, default=True)


def _fits(store: Store, session: Session, chosen_set: PhysicalSet | None,
          watched: bool) -> None:
    """Exit 1 when the game cannot be played as asked: not on the set's kit, or not a game
    the camera can read."""
    from companion.table.serving import check_set_kit

    try:
        check_set_kit(session, chosen_set)
    except ValueError as exc:
        store.close()
        fail(str(exc))
    if watched:
        try:
            table_of(session.header.game)
        except (UnknownGameName, MissingCapability) as exc:
            store.close()
            fail(f"{exc}: serve game {session.game_id} without --camera")


def _serve(game_id: int, host: str, port: int, db: Path | None, table: TableOptions | None,
           referee_token: str | None, public_url_given: str | None,
           broadcast: str | None) -> None:
    """Say where the table and the referee's screen are, then serve until interrupted."""
    from companion.serve import ServeOptions, run

    token = referee_token or referee_token_kept()
    saved = saved_settings()
    base = public_url(public_url_given or saved.public_url, host, port)
    broadcast = broadcast or saved.broadcast
    click.echo(f"game {game_id}: table display at {base}/")
    click.echo(f"referee screen:  {base}/referee#token={token}")
    if broadcast is not None:
        check_broadcast(broadcast)
    named = urllib.parse.urlsplit(base).hostname or ""
    run(ServeOptions(db=db, game_id=game_id, referee_token=token, host=host, port=port,
                     table=table, broadcast=broadcast, public_url=base,
                     host_names=(named,) if named else ()))
