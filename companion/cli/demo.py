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
from companion.engine import PUBLIC, EngineError, Game
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
@click.option("--verbose", is_flag=True,
              help="Also the engineers' figures: frames, frame rate, the tablet's latency.")
@click.option("--set", "set_name", metavar="NAME",
              help="Play with a registered physical set: its tags on the blocks, its card "
              "stickers' codes through the reader, its kit.")
@click.option("--option", "rules_options", multiple=True, metavar="KEY=VALUE",
              help="A game option, e.g. --option side=moon (a JSON value or a word).")
@players_option
def demo_command(seed: int, host: str, port: int, db: Path | None, max_actions: int | None,
                 illegal_at: int | None, pace: float, game: str, headless: bool,
                 as_json: bool, verbose: bool, set_name: str | None,
                 rules_options: tuple[str, ...], players: int | None) -> None:
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
    ending = _ending(spec, options)
    report({**{k: figures[k] for k in keys}, **figures, "result": ending}, as_json,
           _lines(figures, ending, verbose))
    if not (figures["record_verified"] and figures["matches_script"]):
        raise SystemExit(1)


def _ending(spec: AnyGame, options: Any) -> str:
    """How the simulated game ended, in the game's own words: every winner of a shared victory
    by name (`Outcome.sentence`) and the players' points where the game keeps them; or that it
    was stopped before its end. The demo's record matches the simulator's game (its verdict),
    so the simulator's game says it."""
    from companion.demo import script_for

    chosen = options.rules_options or None
    game = Game(spec.rules(load_kit(spec.kit), chosen), seed=options.seed)
    try:
        for action in script_for(spec, options.seed, options.max_actions, options=chosen):
            game.apply(action)
    except (EngineError, ValueError, KeyError):  # a physical set's own kit: its ids differ
        return ""
    outcome = game.outcome
    if outcome is None:
        return f"The game was stopped after {len(game.history)} actions, before its end."
    names = {role: role.replace("_", " ").capitalize() for role in game.rules.roles}
    said = str(outcome.sentence(names))
    scores = _scores(game.view(PUBLIC), names)
    return f"{said}. Points: {scores}." if scores else f"{said}."


def _scores(view: dict[str, Any], names: dict[str, str]) -> str:
    """The players' points as the view keeps them ("Red 52, Blue 40"), best first; "" where
    the game keeps none by player."""
    for key in ("vp", "points", "score", "scores"):
        kept = view.get(key)
        if isinstance(kept, dict) and kept and set(kept) <= set(names) \
                and all(isinstance(v, int | float) for v in kept.values()):
            ranked = sorted(kept.items(), key=lambda item: -item[1])
            return ", ".join(f"{names[role]} {points}" for role, points in ranked)
    return ""


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _lines(figures: dict[str, Any], ending: str, verbose: bool) -> list[str]:
    """The demo in plain sentences: how the game ended, what the table read and asked, and
    whether the record holds; the engineers' figures (frames, latency) with --verbose."""
    read = (f"The companion read {_count(figures['actions'], 'move', 'moves')} from the table, "
            f"asked {_count(figures['questions'], 'question', 'questions')} "
            f"({figures['answered']} answered with a tap) and raised "
            f"{_count(figures['alerts'], 'alert', 'alerts')}")
    secret = _count(figures["hidden"], "secret choice or face-down card was",
                    "secret choices or face-down cards were")
    extra = [f"{_count(figures['manual'], 'move was', 'moves were')} entered by hand"
             if figures["manual"] else "",
             f"{secret} entered unseen" if figures["hidden"] else "",
             f"{_count(figures['undone'], 'misread move was', 'misread moves were')} taken back"
             if figures["undone"] else "",
             f"{_count(figures['crowded'], 'piece was', 'pieces were')} put down touching "
             "another place's pieces" if figures["crowded"] else ""]
    told = "; ".join(e for e in extra if e)
    lines = [line for line in (ending, f"{read}; {told}." if told else f"{read}.") if line]
    speed = (f"The tablet showed each settled move within {round(figures['latency_ms_p50'])} ms "
             f"(nearly always within {round(figures['latency_ms_p95'])} ms).")
    lines.append(speed)
    held = figures["record_verified"] and figures["matches_script"]
    lines.append("The record checks out and is the same game as the simulator's." if held else
                 "The record does not check out or is not the simulator's game: "
                 f"{'verified' if figures['record_verified'] else 'not verified'}, "
                 f"{'the same game' if figures['matches_script'] else 'a different game'}.")
    if figures["illegal_corrected"] is not None:
        lines.append("The illegal move was seen and put right." if figures["illegal_corrected"]
                     else "The illegal move was NOT put right.")
    if verbose:
        lines.append(f"{figures['script_actions']} actions in {figures['seconds']} s: "
                     f"{figures['frames']} frames at {figures['fps']} frames/s, "
                     f"{figures['stable_states']} stable states; stable frame to tablet: "
                     f"p50 {figures['latency_ms_p50']} ms, p95 {figures['latency_ms_p95']} ms")
        lines.extend(f"  entered by hand: {miss}" for miss in figures["misses"][:10])
    return lines


def _check_options(spec: AnyGame, chosen: dict[str, Any]) -> None:
    """A usage error (exit 2) for options the game's rules refuse, before anything starts."""
    try:
        spec.rules(load_kit(spec.kit), chosen or None)
    except (EngineError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--option/--players") from None
