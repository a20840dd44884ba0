"""`companion bench`: benchmarks that print figures, each the layer's own (`companion.bench`,
a game's `vision_bench` and `engine_bench`, `companion.broadcast.bench`), said in sentences or
as one JSON object; a progress bar on standard error while they run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from companion.cli._capabilities import benchmark, has
from companion.cli._common import DEFAULT_GAME, GAME_OPTION, fail, report, spec_of
from companion.cli._progress import Progress
from companion.games import MissingCapability
from companion.options import SettingError, read_settings, setting_text

__all__ = ["bench"]


@click.group()
def bench() -> None:
    """Benchmarks that print figures."""


@bench.command("engine")
@GAME_OPTION
@click.option("--actions", default=5000, show_default=True, type=click.IntRange(min=1),
              help="Actions to time in all.")
@click.option("--seed", default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_engine_command(game: str, actions: int, seed: int, as_json: bool) -> None:
    """Time a game's rules: validate+apply per action and per verb, and whole-game replays
    (plus the game's own figures, when it has an engine benchmark)."""
    from companion.bench import bench_engine, describe_engine

    spec = spec_of(game)
    try:
        with Progress(f"{spec.title}: actions played, then replayed") as bar:
            figures = bench_engine(spec.name, actions=actions, seed=seed, tick=bar.callback)
    except RuntimeError as exc:  # a dead end, or a record that does not replay: a rules bug
        fail(str(exc))
    lines = describe_engine(figures)
    if has(spec, "engine_bench"):
        extra = benchmark(spec, "engine_bench")
        own = _run_benchmark(extra, extra.settings, f"{spec.title}: the game's own figures")
        figures, lines = {**figures, **own}, [*lines, *extra.lines(own)]
    report(figures, as_json, lines)


@bench.command("referee")
@GAME_OPTION
@click.option("--games", default=20, show_default=True, help="Random games to act out.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_referee_command(game: str, games: int, seed: int, as_json: bool) -> None:
    """Act random games out at the table with the game's simulated player (no pixels) and
    count what its table referee reads back."""
    from companion.bench import bench_referee, describe_referee

    spec = spec_of(game)
    try:
        with Progress(f"{spec.title}: games acted out at the table") as bar:
            figures = bench_referee(spec.name, games=games, seed=seed, tick=bar.callback)
    except MissingCapability as exc:
        fail(str(exc))
    report(figures, as_json, describe_referee(figures))


def _run_benchmark(bench: Any, settings: dict[str, Any], label: str) -> dict[str, Any]:
    """A game's Benchmark run with `settings`, with a progress bar when its `run` takes a
    `tick` and standard error is a terminal (otherwise it is called exactly as before)."""
    from companion.bench import takes_tick

    with Progress(label) as bar:
        if bar.callback is not None and takes_tick(bench.run):
            figures: dict[str, Any] = bench.run(**settings, tick=bar.callback)
        else:
            figures = bench.run(**settings)
    return figures


@bench.command("record")
@GAME_OPTION
@click.option("--appends", default=500, show_default=True, help="Durable appends to time.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_record_command(game: str, appends: int, as_json: bool) -> None:
    """Time the event store: durable appends per second, load and replay of a long game,
    store and replay of a random game of GAME."""
    from companion.bench import bench_record

    spec = spec_of(game)
    with Progress(f"{spec.title}: the store's steps") as bar:
        f = bench_record(appends=appends, game=spec.name, tick=bar.callback)
    report(f, as_json, [
        f"durable appends: {f['appends_per_s']} per second ({f['appends']} appends, "
        "synchronous=FULL)",
        f"load and replay of a {f['replay_actions']}-action {f['replay_game']} game: "
        f"{f['replay_2000_s']} s",
        f"store, load and replay of a {f['store_and_replay_actions']}-action {f['game']} "
        f"game: {f['store_and_replay_s']} s"])


@bench.command("web")
@GAME_OPTION
@click.option("--clients", default=5, show_default=True, help="Live screens connected.")
@click.option("--actions", default=60, show_default=True, help="Actions applied.")
@click.option("--idle-streams", default=800, show_default=True,
              help="Idle streams opened at most, 50 at a time, to find how many the server "
              "holds with the referee's view under 100 ms.")
@click.option("--changing-streams", default=480, show_default=True,
              help="Streams open while the referee changes the game once a second, to time "
              "the referee's view meanwhile.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_web_command(game: str, clients: int, actions: int, idle_streams: int,
                      changing_streams: int, as_json: bool) -> None:
    """Time live updates (from an action to every connected screen having the new view) and
    count the idle streams the server holds while the referee's view stays fast."""
    from companion.bench import bench_web

    spec = spec_of(game)
    with Progress(f"{spec.title}: actions, idle streams, replay steps") as bar:
        f = bench_web(clients=clients, actions=actions, game=spec.name,
                      idle_streams=idle_streams, tick=bar.callback,
                      changing_streams=changing_streams)
    report(f, as_json, [
        f"{f['game']}: {f['clients']} clients, {f['actions']} actions: update to every client "
        f"median {f['update_ms_p50']} ms, 95th percentile {f['update_ms_p95']} ms",
        f"idle streams held with the referee's view under 100 ms (p95): "
        f"{f['idle_streams_held']} (view p95 {f['view_ms_p95_at_held']} ms)",
        f"the referee's view with {f['streams_changing']} streams and a change a second: "
        f"95th percentile {f['view_ms_p95_streams_changing']} ms",
        f"replay step to a random position of a {f['replay_actions']}-action game: 95th "
        f"percentile {f['replay_step_ms_p95']} ms (first position, replaying it once: "
        f"{f['replay_first_ms']} ms)"])


@bench.command("inputs")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_inputs_command(as_json: bool) -> None:
    """Time the inputs: RFID frames parsed per second, card decoding cropped vs whole frame."""
    from companion.bench import bench_inputs

    with Progress("inputs: serial frames, then card decodings") as bar:
        f = bench_inputs(tick=bar.callback)
    report(f, as_json, [
        f"serial: {f['serial_frames_per_s']} RDM6300 frames parsed per second",
        f"card code in a {f['frame']} frame: {f['zbar_crop_ms']} ms in the scan area, "
        f"{f['zbar_full_ms']} ms over the whole frame"])


@bench.command("vision", context_settings={"ignore_unknown_options": True,
                                           "allow_extra_args": True})
@GAME_OPTION
@click.option("--list-settings", is_flag=True,
              help="List the game's benchmark settings with their defaults, and stop.")
@click.option("--photos", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Also read this folder of photographs with both readers; the ids in each "
              "photo come from --truth, else truth.json beside them, else the project's file "
              "for the real photographs of issue #33.")
@click.option("--truth", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The ids in each photograph: a JSON object of file name -> ids.")
@click.option("--peer-frames", default=1, show_default=True, type=click.IntRange(min=0),
              help="Synthetic frames per condition read by both the companion and AprilTag 3 "
              "(0: none).")
@click.option("--peer-condition", "peer_conditions", multiple=True, metavar="NAME",
              help="A synthetic condition for the comparison (repeatable; default: sharp, "
              "'12 MP, camera at 45 degrees', '1080p, 22 mm tags'; 'all': those, 10 px "
              "motion blur, hard defocus, 1080p with 14 mm tags, the camera at 30 and 60 "
              "degrees; others: companion.vision.decode.CONDITIONS).")
@click.option("--no-peer", is_flag=True, help="Leave AprilTag 3 out.")
@click.option("--only-peer", is_flag=True,
              help="Only the comparison with AprilTag 3, not the game's own benchmark.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def bench_vision_command(ctx: click.Context, game: str, list_settings: bool,
                         photos: Path | None, truth: Path | None, peer_frames: int,
                         peer_conditions: tuple[str, ...], no_peer: bool, only_peer: bool,
                         as_json: bool) -> None:
    """Time and score a game's table reading on a seeded synthetic corpus, and the tag reader
    beside AprilTag 3 on the same frames (the game's table under each condition, and the
    photographs of --photos): recall, wrong ids, time per frame and their ratios.

    The settings are the game's (its vision benchmark's), given as --NAME VALUE: e.g.
    `--game sekigahara --frames 10 --seed 3`, `--game rumble-nation --frames 50`;
    --list-settings shows them with their defaults. AprilTag 3 is pupil-apriltags (the dev
    extra); without it the comparison says so and the game's figures are printed alone.
    """
    spec = spec_of(game)
    bench = benchmark(spec, "vision_bench")
    if list_settings:
        if as_json:  # the settings' defaults by name (--NAME takes `-` for `_`)
            click.echo(json.dumps(bench.settings))
            return
        for name, default in bench.settings.items():
            click.echo(f"--{name.replace('_', '-')} {setting_text(default)}")
        return
    if no_peer and only_peer:
        raise click.UsageError("--no-peer and --only-peer leave nothing to run")
    settings = _settings(bench.settings, list(ctx.args), f"{spec.title}'s vision benchmark")
    try:
        peer = {} if no_peer else _peer(spec, int(settings.get("seed", 0)), peer_frames,
                                        peer_conditions, photos, truth)
    except ValueError as exc:  # a folder without photographs, or without their truth
        fail(str(exc))
    figures: dict[str, Any] = {}
    lines: list[str] = []
    if not only_peer:
        figures = _run_benchmark(bench, settings, f"{spec.title}: frames read")
        lines = bench.lines(figures)
    if peer:
        figures = {**figures, "apriltag3": peer}
        lines = [*lines, *_peer_lines(peer)]
    report(figures, as_json, lines)


def _peer(spec: Any, seed: int, frames: int, conditions: tuple[str, ...],
          photos: Path | None, truth: Path | None) -> dict[str, Any]:
    """AprilTag 3 beside the companion's reader (`companion.vision.peer`), run before the
    game's own benchmark so that the game's bar is the one left drawn; {"missing": why}
    without pupil-apriltags."""
    from companion.vision.decode import CONDITIONS
    from companion.vision.peer import (
        OBLIQUE,
        PEER_ALL,
        PEER_CONDITIONS,
        PeerMissing,
        bench_peer,
        read_truth,
    )

    known = [*CONDITIONS, *OBLIQUE]
    if "all" in conditions:
        conditions = PEER_ALL
    unknown = [name for name in conditions if name not in known]
    if unknown:
        raise click.BadParameter(f"no condition {unknown[0]!r} (conditions: "
                                 f"{', '.join(known)})", param_hint="--peer-condition")
    if photos is not None:
        read_truth(photos, truth)  # a folder that cannot be scored fails before any work
    total = frames * len(conditions or PEER_CONDITIONS) + (
        len(read_truth(photos, truth)) if photos is not None else 0)
    try:
        with Progress(f"{spec.title}: frames read by the companion and AprilTag 3") as bar:
            done = 0

            def tick() -> None:
                nonlocal done
                done += 1
                if bar.callback is not None:
                    bar.callback(done, total)

            return bench_peer(spec.name, frames, seed, conditions or None, photos, truth, tick)
    except PeerMissing as exc:
        return {"missing": str(exc)}


def _peer_lines(peer: dict[str, Any]) -> list[str]:
    from companion.vision.peer import describe

    return [f"AprilTag 3 left out: {peer['missing']}"] if "missing" in peer else describe(peer)


@bench.command("broadcast")
@click.option("--tables", default=50, show_default=True, type=click.IntRange(min=1))
@click.option("--actions", default=20, show_default=True, type=click.IntRange(min=1),
              help="Actions each table records.")
@click.option("--pace", default=1.0, show_default=True,
              help="Seconds between two actions at a table.")
@click.option("--game", default=DEFAULT_GAME, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_broadcast_command(tables: int, actions: int, pace: float, game: str,
                            as_json: bool) -> None:
    """Tables broadcasting to a real mosquitto on loopback: throughput, the delay from an
    action recorded at a table to the dashboard's store, and lost or duplicated actions."""
    from companion.broadcast.bench import bench_broadcast

    spec = spec_of(game)
    with Progress(f"{spec.title}: actions recorded at {tables} tables") as bar:
        f = bench_broadcast(tables=tables, actions=actions, pace=pace, game=spec.name,
                            tick=bar.callback)
    report(f, as_json, [
        f"{f['tables']} tables, {f['actions']} actions: {f['actions_per_s']} actions/s; "
        f"recorded to the dashboard's store: median {f['delivery_ms_p50']} ms, 95th "
        f"percentile {f['delivery_ms_p95']} ms; lost {f['lost']}, duplicated {f['duplicated']}"])


def _settings(defaults: dict[str, Any], args: list[str], whose: str) -> dict[str, Any]:
    """A benchmark's settings from the words after its options (`companion.options`): a
    usage error (exit 2) for words that are no setting or a value unlike its default."""
    try:
        return read_settings(defaults, args, whose)
    except SettingError as exc:
        if exc.setting is None:
            raise click.UsageError(str(exc)) from None
        raise click.BadParameter(str(exc), param_hint=f"--{exc.setting}") from None
