"""`companion setup` and `companion referee-link`: this table's first-run set-up (where the
phones reach it, the broadcast, the camera and its lens, the set-up page) saved in the user's
data folder (`companion.settings`), and the referee's link.
"""

from __future__ import annotations

import sys
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

import click

from companion.cli._camera import calibrate_lens, camera_check, lens_step
from companion.cli._capabilities import need
from companion.cli._common import (
    DEFAULT_GAME,
    check_broadcast,
    check_port,
    fail,
    saved_settings,
    spec_of,
)
from companion.cli._common import public_url as public_url_of
from companion.games import AnyGame
from companion.userdata import lan_address
from companion.userdata import referee_token as referee_token_kept

if TYPE_CHECKING:
    from companion.settings import Settings

__all__ = ["referee_link_command", "setup_command"]


@click.command("setup")
@click.option("--public-url", metavar="URL",
              help="Where the phones reach this table (default: http://LAN-ADDRESS:PORT).")
@click.option("--port", default=8000, show_default=True, help="The port serve listens on.")
@click.option("--broadcast", metavar="URL",
              help="Publish every game to a tournament broadcast: "
              "mqtt[s]://TABLE:PASSWORD@HOST:PORT/EVENT (docs/broadcast.md).")
@click.option("--no-broadcast", is_flag=True, help="Stop publishing to a broadcast.")
@click.option("--camera", help="Check the camera and place the board: pi, usb:0, or "
              "folder:PATH of stills (one frame; its overlay and fit in millimetres are saved "
              "as companion calibrate saves them). With --page: the camera the page shows "
              "first (default usb:0).")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="Whose board the camera check places (a name or an alias).")
@click.option("--yes", is_flag=True, help="Ask nothing: keep what is not given.")
@click.option("--page", is_flag=True, help="Then serve the set-up page on --port for the "
              "referee (its link is printed): the camera's live preview with the calibration "
              "drawn on it, Save calibration, the phones' address, the referee's link, the "
              "mat. Stops with Ctrl-C.")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="With --page: the address to serve on (0.0.0.0: the local network).")
@click.option("--lens-photos", "lens_photos", type=click.Path(path_type=Path),
              help="Measure the lens first, from photographs of the ChArUco board (companion "
              "print-tags --charuco): a wide lens must be measured before play, and the camera "
              "check says when.")
def setup_command(public_url: str | None, port: int, broadcast: str | None,
                  no_broadcast: bool, camera: str | None, game: str, yes: bool,
                  page: bool, host: str, lens_photos: Path | None) -> None:
    """First-run set-up of this table: the address the phones use, the referee's link, and
    the tournament broadcast. Saved in the user's data folder (settings.yaml) for every
    `companion serve` after; serve's own options still win.

    Asks for what is not given (Enter keeps the value shown); --yes asks nothing. With
    --page, the camera is checked on the set-up page, live, rather than once here. The camera
    check tells a wide lens (the Pi's Camera Module 3 Wide, or 75 degrees or more across) and
    asks for it to be measured (--lens-photos) before play.
    """
    if page:  # before anything is saved that the page could not show
        _check_page(spec_of(game), camera, host, port)
    ask = not yes and sys.stdin.isatty()
    chosen = _chosen(saved_settings(), public_url, port, broadcast, no_broadcast, ask)
    if chosen.broadcast is not None:
        check_broadcast(chosen.broadcast)  # a broker that refuses this table: exit 1
    _save(chosen)
    if lens_photos is not None:
        calibrate_lens(spec_of(game), lens_photos, None)
    if camera is not None and not page:
        camera_check(spec_of(game), camera)
        lens_step(spec_of(game), camera, ask)
    _say_links(chosen, page, ask)
    if page:
        _serve_page(spec_of(game), camera or "usb:0", host, port, chosen.public_url)


def _check_page(spec: AnyGame, camera: str | None, host: str, port: int) -> None:
    """What the set-up page needs, checked first: the game's board, the port, a camera it can
    show (an unknown one: exit 2; one that cannot work now, no such device: the page says
    why, and another can be chosen there)."""
    from companion.vision.preview import SourceRefused, preview_source

    need(spec, "board")
    check_port(host, port)
    try:
        preview_source(camera or "usb:0")
    except SourceRefused:
        pass
    except ValueError as exc:
        fail(str(exc), 2)


def _chosen(saved: Settings, public_url: str | None, port: int, broadcast: str | None,
            no_broadcast: bool, ask: bool) -> Settings:
    """The settings to save: each given, else asked for (Enter keeps the saved or found
    value), else kept; exit 1 for one the settings refuse."""
    from companion.settings import Settings

    found = f"http://{lan_address()}:{port}"
    if public_url is None and ask:
        public_url = click.prompt("Where do the phones reach this table?",
                                  default=saved.public_url or found)
    public_url = public_url or saved.public_url or found
    if no_broadcast:
        broadcast = None
    elif broadcast is None and ask:
        broadcast = click.prompt("Tournament broadcast (mqtt://TABLE:PASSWORD@HOST:PORT/EVENT,"
                                 " or - for none)", default=saved.broadcast or "-")
        broadcast = None if broadcast.strip() in ("", "-") else broadcast.strip()
    elif broadcast is None:
        broadcast = saved.broadcast
    try:
        return Settings(public_url=public_url, broadcast=broadcast)
    except ValueError as exc:
        fail(f"setup: {exc}")


def _save(chosen: Settings) -> None:
    from companion.settings import SettingsError, save_settings

    try:
        written = save_settings(chosen)
    except (OSError, SettingsError) as exc:
        fail(f"setup: cannot save the settings: {exc}")
    click.echo(f"saved {written}")


def _say_links(chosen: Settings, page: bool, ask: bool) -> None:
    """Where the phones reach the table, the broadcast, the referee's link (and the set-up
    page's), the last one drawn as a QR code for someone at the terminal."""
    click.echo(f"phones reach the table at {chosen.public_url}/play")
    if chosen.broadcast is not None:
        from companion.broadcast import parse_url

        click.echo(f"every game is published to {parse_url(chosen.broadcast).redacted()}")
    link = f"{chosen.public_url}/referee#token={referee_token_kept()}"
    click.echo(f"the referee's screen: {link}")
    if page:
        link = f"{chosen.public_url}/setup#token={referee_token_kept()}"
        click.echo(f"the set-up page (Ctrl-C ends it): {link}")
    if ask:
        import segno

        segno.make(link, error="m").terminal(compact=True)


def _serve_page(spec: AnyGame, camera: str, host: str, port: int,
                address: str | None) -> None:
    """The camera checked live instead, on the set-up page served on `host:port` until
    interrupted (companion.web.setup_page); a camera it cannot show exits 2."""
    from companion.web.setup_page import SetupOptions, serve_setup_page

    named = urllib.parse.urlsplit(address or "").hostname
    try:
        serve_setup_page(SetupOptions(
            referee_token_kept(), spec.name, camera,
            address or f"http://{lan_address()}:{port}", host, port,
            host_names=(named,) if named else ()))
    except ValueError as exc:
        fail(f"setup: {exc}", 2)


@click.command("referee-link")
@click.option("--port", default=8000, show_default=True)
@click.option("--public-url", metavar="URL", envvar="COMPANION_PUBLIC_URL",
              help="Where the table is reached (default: http://LAN-ADDRESS:PORT).")
@click.option("--qr/--no-qr", default=True, show_default=True,
              help="Also draw the link as a QR code in the terminal.")
def referee_link_command(port: int, public_url: str | None, qr: bool) -> None:
    """Print the referee's link for this table (the same across restarts), and its QR code.

    The link carries the referee's token: whoever opens it referees the table.
    """
    base = public_url_of(public_url or saved_settings().public_url, "0.0.0.0", port)
    link = f"{base}/referee#token={referee_token_kept()}"
    click.echo(link)
    if qr:
        import segno

        segno.make(link, error="m").terminal(compact=True)
