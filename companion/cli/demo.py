"""`companion demo`: a simulated game at a simulated table, through the whole pipeline
(`companion.demo`), with the live tablet; its figures in sentences or as one JSON object.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import click

from companion.cli._capabilities import need
from companion.cli._common import (
    DEFAULT_GAME,
    game_options,
    physical_set,
    players_option,
    report,
    spec_of,
)
from companion.cli._progress import Progress, stdout_to_stderr
from companion.engine import EngineError
from companion.games import AnyGame
from companion.kits import load_kit

__all__ = ["demo_command"]


@click.command("demo")
@click.option("--seed", default=1, show_default=True, help="The simulated game to play.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, help="The tablet's port (0: any).")
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False),
              help="Keep the game in this database (default: a temporary one).")
@click.option("--actions", "max_actions", type=int, help="Stop after this many actions.")
@click.option("--illegal-at", type=int,
              help="Before this action, a player moves a block illegally and puts it back.")
@click.option("--pace", default=0.0, show_default=True,
              help="Seconds to pause after each table change (to follow on the tablet).")
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="The game to play (one with a table referee and a simulated player).")
@click.option("--headless", is_flag=True, help="No browser: progress lines and a summary.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option("--set", "set_name", metavar="NAME",
              help="Play with a registered physical set: its tags on the blocks, its card "
              "stickers' codes through the reader, its kit.")
@click.option("--option", "rules_options", multiple=True, metavar="KEY=VALUE",
              help="A game option, e.g. --option side=moon (a JSON value or a word).")
@players_option
def demo_command(seed: int, host: str, port: int, db: Path | None, max_actions: int | None,
                 illegal_at: int | None, pace: float, game: str, headless: bool,
                 as_json: bool, set_name: str | None, rules_options: tuple[str, ...],
                 players: int | None) -> None:
    """Play a simulated game at a simulated table through the whole pipeline.

    Frames from the synthetic camera, cards through a card reader on a pseudo-terminal and
    buttons on mock GPIO pins go through detection, tracking, the referee, the engine and the
    record, with the live tablet at http://HOST:PORT/. Without --headless the tablet opens in
    the browser. Exits 1 unless the record verifies and matches the simulator's game.
    """
    import webbrowser

    from companion.demo import DemoOptions, run_demo

    spec = spec_of(game)
    need(spec, "table")
    need(spec, "simulator")
    if set_name is not None:
        physical_set(set_name)  # a missing or unfinished set: said before anything starts
    chosen = game_options(rules_options, players)
    _check_options(spec, chosen)
    options = DemoOptions(game=spec.name, seed=seed, host=host, port=port, db=db,
                          max_actions=max_actions, illegal_at=illegal_at, pace=pace,
                          set_name=set_name, rules_options=chosen)

    bar = Progress(f"{spec.title} at the simulated table")

    def progress(line: str) -> None:
        if line.startswith("referee screen: ") and headless:
            return  # its token stays off logs
        if bar.shown and line[:1].isdigit():
            return  # "25/161 actions ...": the progress bar says it
        if not as_json:
            bar.say(line)
        if line.startswith("tablet: ") and not headless:
            with stdout_to_stderr() if as_json else contextlib.nullcontext():
                webbrowser.open(line.split()[1])  # a browser's chatter stays off the JSON

    try:
        figures = run_demo(options, progress, bar.tick).to_json()
    finally:
        bar.done()
    keys = ("fps", "stable_states", "actions", "questions", "alerts", "latency_ms_p50",
            "latency_ms_p95", "record_verified", "matches_script")
    report({**{k: figures[k] for k in keys}, **figures}, as_json, _lines(figures))
    if not (figures["record_verified"] and figures["matches_script"]):
        raise SystemExit(1)


def _lines(figures: dict[str, Any]) -> list[str]:
    """The demo's figures in sentences: pace, what was read and asked, latency, the verdict."""
    return [
        f"{figures['script_actions']} actions in {figures['seconds']} s: {figures['frames']} "
        f"frames at {figures['fps']} frames/s, {figures['stable_states']} stable states",
        f"read from the table: {figures['actions']}; questions asked: {figures['questions']} "
        f"({figures['answered']} answered with a tap); entered by hand: {figures['manual']}; "
        f"dealt face down: {figures['hidden']}; alerts: {figures['alerts']}; misread and undone: "
        f"{figures['undone']}; blocks put down in a crowd: {figures['crowded']}",
        f"stable frame to tablet: p50 {figures['latency_ms_p50']} ms, "
        f"p95 {figures['latency_ms_p95']} ms",
        f"record verified: {figures['record_verified']}; matches the simulator's game: "
        f"{figures['matches_script']}" + (f"; the illegal move was seen and put right: "
                                         f"{figures['illegal_corrected']}"
                                         if figures['illegal_corrected'] is not None else ""),
        *(f"  entered by hand: {miss}" for miss in figures["misses"][:10]),
    ]


def _check_options(spec: AnyGame, chosen: dict[str, Any]) -> None:
    """A usage error (exit 2) for options the game's rules refuse, before anything starts."""
    try:
        spec.rules(load_kit(spec.kit), chosen or None)
    except (EngineError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--option/--players") from None
