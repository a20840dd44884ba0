"""`companion replay`, `simulate` and `sim`: a record re-run through the rules (checked, shown
at any line, or repatched with today's rules), one random game written as a record, and many
random games verified (`companion.record`, `companion.record.simulated`, `companion.sim`).
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import click

from companion.cli._common import (
    fail,
    game_options,
    kit_name,
    pairs_of,
    players_option,
    spec_of,
)
from companion.cli._progress import Progress
from companion.cli._words import describe_view, summary
from companion.engine import PUBLIC, REFEREE, EngineError, UnknownRole
from companion.kits import KitError
from companion.record import Record, RecordError, read_record, replay, write_record

__all__ = ["replay_command", "sim_command", "simulate"]


@click.command("replay")
@click.argument("record_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--check", is_flag=True, help="Verify every line; exit 1 at the first problem.")
@click.option("--at", "at_line", type=click.IntRange(min=1), metavar="N",
              help="Stop after file line N (line 1 is the header: the starting position).")
@click.option("--json", "as_json", is_flag=True, help="Print the view as JSON, for scripts.")
@click.option("--role", default=PUBLIC, show_default=True,
              help=f"Whose view to show: a player's role, {PUBLIC} or {REFEREE}.")
@click.option("--kit", "kit_path", help="Replay with this kit (name or folder) instead.")
@click.option("--repatch", is_flag=True,
              help="Re-run the actions with today's rules and report if the outcome changes.")
def replay_command(record_file: Path, check: bool, at_line: int | None, as_json: bool,
                   role: str, kit_path: str | None, repatch: bool) -> None:
    """Re-run a game record through the rules and show the position it reaches.

    With --check, reports OK or the first illegal action or divergence (line, rule, message),
    and a record that is not whole: cut at the end (no seal) or not chained (no hashes).
    """
    if repatch:
        _repatch([record_file], kit_path, as_json)
        return
    try:
        record = read_record(record_file)
        result = replay(record, kit=kit_name(kit_path) if kit_path else None,
                        upto_line=at_line)
        view = result.game.view(role)
    except (RecordError, UnknownRole) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    if as_json:
        click.echo(json.dumps(view, indent=2, ensure_ascii=False))
    else:
        click.echo(summary(result.game, result.applied, at_line))
        if not check:
            click.echo(describe_view(view, result.game, role))
    if result.problem is not None:
        click.echo(f"{record_file}:{result.problem}", err=True)
        raise SystemExit(1)
    _whole(record, check)
    if check and not as_json:
        click.echo(f"OK: {record_file} verifies ({result.applied} actions)")


def _whole(record: Record, check: bool) -> None:
    """The rules accept every line, but the file may not be whole (cut, or not chained): a
    warning, or with --check an error (exit 1)."""
    from companion.record import integrity_problem

    unsound = integrity_problem(record)
    if unsound is not None:
        click.echo(f"{'error' if check else 'warning'}: {unsound}", err=True)
        if check:
            raise SystemExit(1)


def _repatch(files: list[Path], kit_path: str | None, as_json: bool = False) -> None:
    """Exit 1 if any record's outcome changes under today's rules (or no longer replays).

    With `as_json`, one object on standard output, `{"records": [...], "changed": N}`, each
    record's outcome as recorded and now; a record that cannot be read is said on standard
    error and left out (and counts as changed)."""
    from companion.record.repatching import repatch_files, repatch_json, repatch_words

    changed, said = 0, []
    for path, result in repatch_files(files, kit_path):
        if isinstance(result, RecordError):
            click.echo(f"error: {result}", err=True)
            changed += 1
            continue
        said.append(repatch_json(path, result))
        if not as_json:
            click.echo(f"{path}: {repatch_words(result)}")
        changed += result.changed
    if as_json:
        click.echo(json.dumps({"records": said, "changed": changed}, ensure_ascii=False))
    if changed:
        raise SystemExit(1)


@click.command("simulate")
@click.argument("game_name", metavar="GAME")
@click.option("--seed", default=0, show_default=True, help="Seed for chance and the players.")
@click.option("--kit", "kit_name_given", help="Kit name or folder (default: the game's own kit).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, e.g. --option turns=30 (a JSON value or a word).")
@click.option("--player", "players", multiple=True, metavar="ROLE=NAME",
              help="A player's name for the record header.")
@click.option("--max-actions", default=10_000, show_default=True)
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the game record here (default: print it).")
@click.option("--start", "start", help="Start time for the record (ISO 8601; default now).")
def simulate(game_name: str, seed: int, kit_name_given: str | None, options: tuple[str, ...],
             players: tuple[str, ...], max_actions: int, out: Path | None,
             start: str | None) -> None:
    """Play a game (name or alias) at random, seeded, and write its record: the rules fuzzer,
    and test data."""
    from companion.record.simulated import play_random, random_start

    spec = spec_of(game_name)
    chosen, named = game_options(options), pairs_of(players, str)
    try:
        game, kit = random_start(spec.name, spec.rules,
                                 kit_name(kit_name_given) if kit_name_given else spec.kit,
                                 seed=seed, options=chosen)
    except (KitError, EngineError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    played = play_random(game, kit, max_actions=max_actions, players=named,
                         started_at=datetime.fromisoformat(start) if start else None)
    if out is None:
        write_record(sys.stdout, played.record.header, played.record.entries)
    else:
        write_record(out, played.record.header, played.record.entries)
        state = "finished" if played.finished else f"stopped after {max_actions} actions"
        click.echo(f"{out}: {played.actions} actions, {state}")


@click.command("sim")
@click.argument("game_name", metavar="GAME")
@click.option("--games", default=10, show_default=True, help="How many games to play.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Keep each game's record in this folder.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option for every game, e.g. --option side=moon (a JSON value or a "
              "word).")
@players_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def sim_command(game_name: str, games: int, seed: int, out: Path | None,
                options: tuple[str, ...], players: int | None, as_json: bool) -> None:
    """Play whole random games of GAME and verify each record; exit 1 on any failure."""
    from companion.sim import simulate as simulate_games

    spec = spec_of(game_name)
    chosen = game_options(options, players)
    try:
        with Progress(f"{spec.title}: random games") as bar:
            report = simulate_games(spec.name, games, seed, out, tick=lambda: bar.tick(games),
                                    options=chosen)
    except (EngineError, ValueError) as exc:  # a refused option names the ones there are;
        fail(str(exc))  # said once the bar is closed, on a line of its own
    figures = report.to_json()
    if as_json:
        click.echo(json.dumps(figures))
    else:
        click.echo(f"{spec.title}: {figures['games']} games, {figures['games_per_s']} games/s, "
                   f"{figures['avg_actions']} actions per game on average")
        for ending, n in figures["endings"].items():
            click.echo(f"  {n:>5}  {ending}")
        click.echo("all records verified" if figures["all_records_verified"]
                   else "FAILURES:\n" + "\n".join(f"  {f}" for f in figures["failures"]))
    if not figures["all_records_verified"]:
        raise SystemExit(1)
