"""The `companion` command.

Each subcommand is a thin shell over a library call: it parses arguments, calls the library,
prints the result and picks the exit code (0 fine, 1 the input has a problem, 2 usage).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from companion import __version__
from companion.engine import (
    PUBLIC,
    REFEREE,
    EngineError,
    Game,
    UnknownRole,
    game_names,
    random_playout,
)
from companion.engine import rules_class as find_rules
from companion.kits import KitError, load_kit, shipped_kits
from companion.record import (
    RecordError,
    read_record,
    record_of,
    repatch,
    replay,
    write_record,
)
from companion.record.store import Store, StoreError

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Tabletop Companion: watches a board wargame, referees it and records it."""


@main.group()
def kit() -> None:
    """Game component kits: maps, cards and pieces."""


@kit.command("check")
@click.argument("name_or_path")
def kit_check(name_or_path: str) -> None:
    """Validate a kit (a shipped kit's name, or a folder holding an edited copy).

    Prints a summary of the kit, or every problem found with its file, line and entry,
    and exits 1 when there is any problem.
    """
    try:
        loaded = load_kit(name_or_path)
    except KitError as exc:
        click.echo(str(exc), err=True)
        raise SystemExit(1) from None
    click.echo(f"{loaded.title}: OK" + ("  [SAMPLE components]" if loaded.sample else ""))
    for label, value in loaded.summary():
        click.echo(f"  {label:<10} {value}")


@kit.command("list")
def kit_list() -> None:
    """List the kits shipped with the companion."""
    for name in shipped_kits():
        click.echo(name)


@main.command("rules")
def rules_command() -> None:
    """List the games whose rules the engine knows."""
    for name in game_names():
        game_type = find_rules(name).game_type
        click.echo(f"{name:<12} {game_type.title} ({game_type.min_players}-"
                   f"{game_type.max_players} players; rules: {game_type.rulebook})")


@main.command("replay")
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

    With --check, reports OK or the first illegal action or divergence (line, rule, message).
    """
    if repatch:
        _repatch([record_file], kit_path)
        return
    try:
        record = read_record(record_file)
        result = replay(record, kit=kit_path, upto_line=at_line)
        view = result.game.view(role)
    except (RecordError, UnknownRole) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    if as_json:
        click.echo(json.dumps(view, indent=2, ensure_ascii=False))
    else:
        _print_summary(result.game, result.applied, at_line)
        if not check:
            click.echo(_describe_view(view))
    if result.problem is not None:
        click.echo(f"{record_file}:{result.problem}", err=True)
        raise SystemExit(1)
    if check and not as_json:
        click.echo(f"OK: {record_file} verifies ({result.applied} actions)")


def _print_summary(game: Game[Any], applied: int, at_line: int | None) -> None:
    game_type = game.rules.game_type
    where = f" up to line {at_line}" if at_line else ""
    outcome = game.outcome
    result = "in progress" if outcome is None else (
        f"{outcome.winner or 'nobody'} won: {outcome.termination} (rule {outcome.rule})"
        if outcome.winner else f"draw: {outcome.termination} (rule {outcome.rule})")
    click.echo(f"{game_type.title}: {applied} actions replayed{where}; {result}")


def _describe_view(view: dict[str, Any]) -> str:
    return json.dumps(view, indent=2, ensure_ascii=False)


@main.command("simulate")
@click.argument("game_name")
@click.option("--seed", default=0, show_default=True, help="Seed for chance and the players.")
@click.option("--kit", "kit_name", help="Kit name or folder (default: the game's own kit).")
@click.option("--option", "options", multiple=True, metavar="KEY=JSON",
              help="A game option, e.g. --option turns=30.")
@click.option("--player", "players", multiple=True, metavar="ROLE=NAME",
              help="A player's name for the record header.")
@click.option("--max-actions", default=10_000, show_default=True)
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the game record here (default: print it).")
@click.option("--start", "start", help="Start time for the record (ISO 8601; default now).")
def simulate(game_name: str, seed: int, kit_name: str | None, options: tuple[str, ...],
             players: tuple[str, ...], max_actions: int, out: Path | None,
             start: str | None) -> None:
    """Play a game at random (seeded) and write its record: the rules fuzzer, and test data."""
    try:
        cls = find_rules(game_name)
        loaded = load_kit(kit_name or cls.game_type.kit)
        game = Game(cls(loaded, _pairs(options, json.loads)), seed=seed)
    except (KitError, EngineError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    playout = random_playout(game, max_actions=max_actions)
    started = datetime.fromisoformat(start) if start else datetime.now(UTC).replace(microsecond=0)
    record = record_of(game, loaded, started_at=started, source="simulator",
                       players=_pairs(players, str))
    if out is None:
        write_record(sys.stdout, record.header, record.entries)
    else:
        write_record(out, record.header, record.entries)
        state = "finished" if playout.finished else f"stopped after {max_actions} actions"
        click.echo(f"{out}: {playout.actions} actions, {state}")


def _pairs(items: tuple[str, ...], parse: Callable[[str], Any]) -> dict[str, Any]:
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}")
        result[key] = parse(value)
    return result


@main.group()
def bench() -> None:
    """Benchmarks that print figures."""


@bench.command("engine")
@click.option("--actions", default=5000, show_default=True, help="Actions to time in all.")
@click.option("--seed", default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_engine_command(actions: int, seed: int, as_json: bool) -> None:
    """Time the Sekigahara engine: per-action validate+apply, and a whole-game replay."""
    from companion.bench import bench_engine

    f = bench_engine(actions=actions, seed=seed)
    _report(f, as_json, [
        f"validate+apply: median {f['action_ms_p50']} ms, 95th percentile "
        f"{f['action_ms_p95']} ms over {f['actions']} actions ({f['games']} games)",
        f"combat actions: median {f['combat_action_ms_p50']} ms, 95th percentile "
        f"{f['combat_action_ms_p95']} ms over {f['combat_actions']}",
        f"replay of a whole game ({f['avg_actions_per_game']} actions on average): "
        f"median {f['replay_game_s']} s, slowest {f['replay_game_s_max']} s"])


@bench.command("referee")
@click.option("--games", default=20, show_default=True, help="Random games to act out.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_referee_command(games: int, seed: int, as_json: bool) -> None:
    """Act random games out at the table (no pixels) and count what the referee reads back."""
    from companion.bench import bench_referee

    f = bench_referee(games=games, seed=seed)
    _report(f, as_json, [
        f"{f['actions']} table actions in {f['games']} games: {f['recovered']} recovered, "
        f"{f['asked']} asked on the tablet, {f['missed']} missed; {f['hidden']} hidden deals",
        f"asked: {f['asked_by_verb']}", f"missed: {f['missed_by_verb']}",
        f"reading time: {f['ms_per_action']} ms per action",
        *f["first_misses"]])


def _report(figures: dict[str, Any], as_json: bool, lines: list[str]) -> None:
    """A benchmark's figures: one JSON object for scripts, or sentences for people."""
    click.echo(json.dumps(figures) if as_json else "\n".join(lines))


@main.command("sim")
@click.argument("game_name")
@click.option("--games", default=10, show_default=True, help="How many games to play.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Keep each game's record in this folder.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def sim_command(game_name: str, games: int, seed: int, out: Path | None, as_json: bool) -> None:
    """Play whole random games and verify each record; exit 1 on any failure."""
    from companion.sim import simulate

    try:
        report = simulate(game_name, games, seed, out)
    except EngineError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    figures = report.to_json()
    if as_json:
        click.echo(json.dumps(figures))
    else:
        click.echo(f"{figures['games']} games, {figures['games_per_s']} games/s, "
                   f"{figures['avg_actions']} actions per game on average")
        for kind, n in figures["instant_wins"].items():
            click.echo(f"  instant win  {n:>5}  {kind}")
        for side, n in figures["vp_wins"].items():
            click.echo(f"  points win   {n:>5}  {side}")
        click.echo("all records verified" if figures["all_records_verified"]
                   else "FAILURES:\n" + "\n".join(f"  {f}" for f in figures["failures"]))
    if not figures["all_records_verified"]:
        raise SystemExit(1)


@bench.command("record")
@click.option("--appends", default=500, show_default=True, help="Durable appends to time.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_record_command(appends: int, as_json: bool) -> None:
    """Time the event store: durable appends per second, load and replay of a long game."""
    from companion.bench import bench_record

    f = bench_record(appends=appends)
    _report(f, as_json, [
        f"durable appends: {f['appends_per_s']} per second ({f['appends']} appends, "
        "synchronous=FULL)",
        f"load and replay of a {f['replay_actions']}-action {f['replay_game']} game: "
        f"{f['replay_2000_s']} s",
        f"store, load and replay of a {f['sekigahara_actions']}-action Sekigahara game: "
        f"{f['sekigahara_store_and_replay_s']} s"])


@bench.command("web")
@click.option("--clients", default=5, show_default=True, help="Live screens connected.")
@click.option("--actions", default=60, show_default=True, help="Actions applied.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_web_command(clients: int, actions: int, as_json: bool) -> None:
    """Time live updates: from an action to every connected screen having the new view."""
    from companion.bench import bench_web

    f = bench_web(clients=clients, actions=actions)
    _report(f, as_json, [
        f"{f['clients']} clients, {f['actions']} actions: update to every client median "
        f"{f['update_ms_p50']} ms, 95th percentile {f['update_ms_p95']} ms"])


@bench.command("inputs")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_inputs_command(as_json: bool) -> None:
    """Time the inputs: RFID frames parsed per second, card decoding cropped vs whole frame."""
    from companion.bench import bench_inputs

    f = bench_inputs()
    _report(f, as_json, [
        f"serial: {f['serial_frames_per_s']} RDM6300 frames parsed per second",
        f"card code in a {f['frame']} frame: {f['zbar_crop_ms']} ms in the scan area, "
        f"{f['zbar_full_ms']} ms over the whole frame"])


@bench.command("vision")
@click.option("--game", type=click.Choice(["sekigahara", "rumble-nation"]),
              default="sekigahara", show_default=True, help="Whose table to read.")
@click.option("--frames", type=int, help="12 MP frames in the corpus [default: 40; 500 for "
              "rumble-nation].")
@click.option("--sequences", default=4, show_default=True, help="Hand-occlusion sequences.")
@click.option("--seed", default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_vision_command(game: str, frames: int | None, sequences: int, seed: int,
                         as_json: bool) -> None:
    """Time and score the vision pipeline on a seeded synthetic corpus."""
    if game == "rumble-nation":
        _bench_rumble_vision(500 if frames is None else frames, seed, as_json)
        return
    frames = 40 if frames is None else frames
    from companion.games.sekigahara.vision_bench import bench_vision

    f = bench_vision(frames=frames, sequences=sequences, seed=seed)
    _report(f, as_json, [
        f"12 MP: pipeline median {f['pipeline_ms_p50_12mp']} ms "
        f"(95th {f['pipeline_ms_p95_12mp']}), "
        f"plain full-resolution ArUco {f['plain_aruco_ms_p50_12mp']} ms: "
        f"{f['speedup_12mp']}x; recall {f['zone_recall']} vs {f['plain_zone_recall']}",
        f"1920x1080: {f['fps_1080p']} frames/s through the pipeline, zone recall "
        f"{f['zone_recall_1080p']}",
        f"accuracy over {f['visible_tags']} visible tags: zone recall {f['zone_recall']}, "
        f"wrong zones {f['wrong_zones']}, ambiguous {f['ambiguous']}, wrong ids {f['wrong_ids']}",
        f"hand-occlusion sequences: {f['spurious_diffs']} spurious diffs"])


def _bench_rumble_vision(frames: int, seed: int, as_json: bool) -> None:
    """Rumble Nation: soldiers counted per region and colour, dice read, frames per second."""
    from companion.games.rumble_nation.vision_bench import bench_rumble_vision

    f = bench_rumble_vision(frames, seed)
    _report(f, as_json, [
        f"{f['frames']} frames of {f['frame_size']} (seed {f['seed']}), {f['soldiers']} "
        f"soldiers: exact counts {f['count_accuracy']} of {f['cells']} region-colour cells "
        f"({f['occupied_count_accuracy']} of the {f['occupied_cells']} occupied)",
        f"dice: {f['dice_accuracy']} of {f['dice']} faces right ({f['covered_dice']} covered, "
        "right when read as unknown)",
        f"reading: {f['fps']} frames/s (median {f['read_ms_p50']} ms); board not found "
        f"{f['board_not_found']} times",
        f"count errors (colour true->read): {f['count_errors'] or 'none'}",
        f"dice errors (true->read): {f['dice_errors'] or 'none'}"])


def _repatch(files: list[Path], kit_path: str | None) -> None:
    """Exit 1 if any record's outcome changes under today's rules (or no longer replays)."""
    changed = 0
    for path in files:
        try:
            result = repatch(read_record(path), kit=kit_path)
        except RecordError as exc:
            click.echo(f"error: {exc}", err=True)
            changed += 1
            continue
        if result.problem is not None:
            click.echo(f"{path}: CHANGED: {result.problem}")
        elif result.changed:
            click.echo(f"{path}: CHANGED: was {result.recorded}, now {result.now}")
        else:
            click.echo(f"{path}: same outcome: {result.now or 'unfinished'}")
        changed += result.changed
    if changed:
        raise SystemExit(1)


# --- stored games ----------------------------------------------------------------------------


@main.group()
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False), envvar="COMPANION_DB",
              help="The games database (default: games.sqlite in the user's data directory).")
@click.pass_context
def games(ctx: click.Context, db: Path | None) -> None:
    """Stored games: list, show, export, import, delete."""
    try:
        ctx.obj = Store(db)
    except StoreError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    ctx.call_on_close(ctx.obj.close)


@games.command("list")
@click.option("--search", default="", help="Text to find in the game, players or date.")
@click.option("--unfinished", is_flag=True, help="Only games still in progress.")
@click.pass_obj
def games_list(store: Store, search: str, unfinished: bool) -> None:
    """List stored games, newest first."""
    for row in store.games(search=search, unfinished=unfinished):
        state = row.outcome or "in progress"
        click.echo(f"{row.id:>5}  {row.started_at}  {row.game:<11} {row.entries:>5} actions  "
                   f"{row.players}  [{state}]")


@games.command("show")
@click.argument("game_id", type=int)
@click.option("--role", default=PUBLIC, show_default=True, help="Whose view to show.")
@click.pass_obj
def games_show(store: Store, game_id: int, role: str) -> None:
    """Rebuild a stored game from its record and show where it stands."""
    from companion.record.session import Session

    try:
        session = Session.resume(store, game_id)
        view = session.game.view(role)
    except (RecordError, StoreError, UnknownRole) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    _print_summary(session.game, len(session.entries), None)
    click.echo(f"waiting for: {', '.join(session.game.to_move()) or 'nobody'}")
    click.echo(_describe_view(view))


@games.command("export")
@click.argument("game_id", type=int)
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.pass_obj
def games_export(store: Store, game_id: int, file: Path) -> None:
    """Write a stored game as a record file (hash-chained and sealed)."""
    try:
        record = store.load(game_id)
    except (RecordError, StoreError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    write_record(file, record.header, record.entries)
    click.echo(f"{file}: game {game_id}, {len(record.entries)} actions")


@games.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.pass_obj
def games_import(store: Store, file: Path) -> None:
    """Store a record file as a new game, once it replays cleanly."""
    from companion.record.session import import_record

    try:
        game_id = import_record(store, read_record(file))
    except RecordError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    click.echo(f"imported {file} as game {game_id}")


@games.command("delete")
@click.argument("game_id", type=int)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
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
@click.pass_obj
def games_repatch(store: Store) -> None:
    """Re-run every stored game with today's rules; report games whose outcome changes."""
    changed = 0
    for row in store.games():
        try:
            result = repatch(store.load(row.id))
        except RecordError as exc:
            click.echo(f"game {row.id}: error: {exc}")
            changed += 1
            continue
        if result.changed:
            what = result.problem or f"was {result.recorded}, now {result.now}"
            click.echo(f"game {row.id}: CHANGED: {what}")
            changed += 1
        else:
            click.echo(f"game {row.id}: same outcome: {result.now or 'unfinished'}")
    if changed:
        raise SystemExit(1)


@main.command("demo")
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
@click.option("--game", default="sekigahara", show_default=True,
              help="The game to play (one with a table referee and a simulated player).")
@click.option("--headless", is_flag=True, help="No browser: progress lines and a summary.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def demo_command(seed: int, host: str, port: int, db: Path | None, max_actions: int | None,
                 illegal_at: int | None, pace: float, game: str, headless: bool,
                 as_json: bool) -> None:
    """Play a simulated game at a simulated table through the whole pipeline.

    Frames from the synthetic camera, cards through a card reader on a pseudo-terminal and
    buttons on mock GPIO pins go through detection, tracking, the referee, the engine and the
    record, with the live tablet at http://HOST:PORT/. Without --headless the tablet opens in
    the browser. Exits 1 unless the record verifies and matches the simulator's game.
    """
    import webbrowser

    from companion.demo import DemoOptions, run_demo

    options = DemoOptions(game=game, seed=seed, host=host, port=port, db=db,
                          max_actions=max_actions, illegal_at=illegal_at, pace=pace)

    def progress(line: str) -> None:
        if line.startswith("referee screen: ") and headless:
            return  # its token stays off logs
        if not as_json:
            click.echo(line)
        if line.startswith("tablet: ") and not headless:
            webbrowser.open(line.split()[1])

    report = run_demo(options, progress).to_json()
    keys = ("fps", "stable_states", "actions", "questions", "alerts", "latency_ms_p50",
            "latency_ms_p95", "record_verified", "matches_script")
    _report({**{k: report[k] for k in keys}, **report}, as_json, [
        f"{report['script_actions']} actions in {report['seconds']} s: {report['frames']} "
        f"frames at {report['fps']} frames/s, {report['stable_states']} stable states",
        f"read from the table: {report['actions']}; questions asked: {report['questions']} "
        f"({report['answered']} answered with a tap); entered by hand: {report['manual']}; "
        f"dealt face down: {report['hidden']}; alerts: {report['alerts']}; misread and undone: "
        f"{report['undone']}; blocks put down in a crowd: {report['crowded']}",
        f"stable frame to tablet: p50 {report['latency_ms_p50']} ms, "
        f"p95 {report['latency_ms_p95']} ms",
        f"record verified: {report['record_verified']}; matches the simulator's game: "
        f"{report['matches_script']}" + (f"; the illegal move was seen and put right: "
                                         f"{report['illegal_corrected']}"
                                         if report['illegal_corrected'] is not None else ""),
        *(f"  entered by hand: {miss}" for miss in report["misses"][:10]),
    ])
    if not (report["record_verified"] and report["matches_script"]):
        raise SystemExit(1)


@main.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on (the local network by default).")
@click.option("--port", default=8000, show_default=True)
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False), envvar="COMPANION_DB",
              help="The games database (default: games.sqlite in the user's data directory).")
@click.option("--game", "game_id", type=int, help="Resume this stored game.")
@click.option("--new", "new_game", help="Start a new game of this kind (e.g. sekigahara).")
@click.option("--option", "options", multiple=True, metavar="KEY=JSON",
              help="A game option for --new, e.g. --option knowledge='\"table\"'.")
@click.option("--referee-token", help="The referee's token (default: a fresh random one).")
@click.option("--camera", help="Watch the table: usb:0, usb:/dev/video0, pi, folder:PATH or "
              "video:PATH (without it, actions are entered on the tablet).")
@click.option("--reader", type=click.Path(dir_okay=False),
              help="The card reader's serial device (e.g. /dev/rfid).")
@click.option("--reader-protocol", type=click.Choice(["rdm6300", "line"]), default="rdm6300",
              show_default=True)
@click.option("--gpio", is_flag=True, help="Buttons, lights and buzzer on the Pi's GPIO.")
def serve_command(host: str, port: int, db: Path | None, game_id: int | None,
                  new_game: str | None, options: tuple[str, ...],
                  referee_token: str | None, camera: str | None, reader: str | None,
                  reader_protocol: str, gpio: bool) -> None:
    """Serve the table display, the players' phones and the referee's screen.

    Without --game or --new it offers to resume the newest unfinished game, or starts a new
    Sekigahara game at the table (table knowledge) when there is none. With --camera the
    companion watches the table and referees it (docs/referee.md).
    """
    from companion.live import TableOptions, frame_source

    table = None
    if camera is not None:
        try:
            frame_source(camera)
        except ValueError as exc:
            click.echo(f"error: {exc}", err=True)
            raise SystemExit(2) from None
        table = TableOptions(camera, reader, reader_protocol, gpio)
    import secrets

    from companion.record.session import Session
    from companion.serve import ServeOptions, run

    store = _open_store(db)
    if game_id is None and new_game is None:
        unfinished = store.games(unfinished=True)
        asked = f"Resume game {unfinished[0].id} ({unfinished[0].game}, started " \
            f"{unfinished[0].started_at}, {unfinished[0].entries} actions)?" if unfinished else ""
        # Nobody to ask (a service): resume, since the record is the truth.
        if unfinished and not sys.stdin.isatty():
            click.echo(f"{asked[:-1]}: yes (nobody to ask)")
        if unfinished and (not sys.stdin.isatty() or click.confirm(asked, default=True)):
            game_id = unfinished[0].id
        else:
            new_game, options = "sekigahara", options or ('knowledge="table"',)
    if game_id is None:
        try:
            session = Session.start(store, str(new_game), options=_pairs(options, json.loads))
        except (EngineError, ValueError) as exc:
            click.echo(f"error: {exc}", err=True)
            raise SystemExit(1) from None
        game_id = session.game_id
    else:
        try:
            session = Session.resume(store, game_id)
        except (RecordError, StoreError) as exc:
            click.echo(f"error: cannot resume game {game_id}: {exc}", err=True)
            raise SystemExit(1) from None
    if table is not None and session.header.game != "sekigahara":
        click.echo(f"error: the camera reads Sekigahara tables; game {game_id} is "
                   f"{session.header.game} (serve it without --camera)", err=True)
        raise SystemExit(2)
    if table is None and (reader or gpio):
        click.echo("warning: --reader and --gpio feed the live table: add --camera", err=True)
    store.close()
    token = referee_token or secrets.token_urlsafe(24)
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    click.echo(f"game {game_id}: table display at http://{shown}:{port}/")
    click.echo(f"referee screen:  http://{shown}:{port}/referee#token={token}")
    run(ServeOptions(db=db, game_id=game_id, referee_token=token, host=host, port=port,
                     table=table))


def _open_store(db: Path | None) -> Store:
    try:
        return Store(db)
    except StoreError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None


@main.command("print-card-labels")
@click.argument("kit_name")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default="labels.pdf",
              show_default=True)
@click.option("--width", "width_mm", default=50.0, show_default=True, help="Label width, mm.")
@click.option("--height", "height_mm", default=20.0, show_default=True, help="Label height, mm.")
def print_card_labels(kit_name: str, out: Path, width_mm: float, height_mm: float) -> None:
    """Write A4 label sheets: a QR code and the printed identity for every card of a kit."""
    from companion.games import MissingCapability, game
    from companion.inputs.labels import write_card_labels

    try:
        loaded = load_kit(kit_name)
        labels = game(loaded.game).need("labels")(loaded)
    except (KitError, MissingCapability) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    count = write_card_labels(labels, out, width_mm=width_mm, height_mm=height_mm)
    click.echo(f"{out}: {count} labels of {width_mm} x {height_mm} mm")


@main.command("register")
@click.argument("name")
@click.option("--kit", "kit_name", default="sekigahara", show_default=True)
@click.option("--entries", type=click.File("r"), default="-",
              help="Lines 'block TAG SPEC' or 'card CODE [SPEC]' (default: standard input).")
@click.option("--dir", "folder", type=click.Path(path_type=Path, file_okay=False),
              help="Where registries live (default: the user's data directory).")
def register(name: str, kit_name: str, entries: Any, folder: Path | None) -> None:
    """Register a physical set: tags on blocks, codes on cards; resumable; checked at the end.

    SPEC for a block: 'side clan strength|cav|arq|leader1|leader3 [set-up symbol]'; for a card
    with an RFID sticker: 'side clan plain|special|double' or 'side loyalty' (a printed label
    names its card itself). When the set matches the kit, its own kit is written beside the
    registry and replaces the sample block manifest.
    """
    import platformdirs

    from companion.games.sekigahara.physical_set import RegistrationError, Registry

    base = folder or Path(platformdirs.user_data_dir("tabletop-companion")) / "sets"
    registry = Registry.open(base / f"{name}.json", kit_name, name)
    click.echo(f"{name}: {len(registry.blocks)} blocks and {len(registry.cards)} cards "
               "registered so far")
    for number, line in enumerate(entries, start=1):
        words = line.split(maxsplit=2)
        if not words or words[0].startswith("#"):
            continue
        try:
            if words[0] == "block" and len(words) == 3:
                registry.add_block(words[1], words[2])
            elif words[0] == "card" and len(words) >= 2:
                registry.add_card(words[1], words[2] if len(words) == 3 else None)
            else:
                raise RegistrationError("expected 'block TAG SPEC' or 'card CODE [SPEC]'")
        except RegistrationError as exc:
            click.echo(f"line {number}: {exc}", err=True)
            continue
        done = len(registry.blocks) + len(registry.cards)
        if done % 25 == 0:
            click.echo(f"  {len(registry.blocks)} blocks, {len(registry.cards)} cards")
    problems = registry.problems()
    if problems:
        click.echo("the set does not match the kit yet:", err=True)
        for problem in problems:
            click.echo(f"  {problem}", err=True)
        raise SystemExit(1)
    kit_dir = registry.write_kit(base / f"{name}-kit")
    click.echo(f"{name}: complete; the set's kit is {kit_dir}")


@main.command("calibrate")
@click.option("--game", default="sekigahara", show_default=True)
@click.option("--source", type=click.Choice(["synthetic", "camera", "image"]),
              default="camera", show_default=True)
@click.option("--image", "image_path", type=click.Path(path_type=Path, dir_okay=False),
              help="The photograph to calibrate from, with --source image.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Where to save (default: the user's data folder, calibration/GAME/).")
@click.option("--camera-height-mm", type=float,
              help="The lens's height above the map: the reader then allows for the blocks' "
              "height (board.yaml block_height_mm).")
@click.option("--intrinsics", "intrinsics_dir",
              type=click.Path(path_type=Path, file_okay=False, exists=True),
              help="Measure the lens instead, from photographs of the ChArUco board "
              "(companion print-tags --charuco) in this folder.")
def calibrate_command(game: str, source: str, image_path: Path | None,
                      out: Path | None, camera_height_mm: float | None,
                      intrinsics_dir: Path | None) -> None:
    """Place the board from its corner markers; save it and an overlay to check by eye.

    With --intrinsics, measure the lens from ChArUco photographs and save it beside the pose.
    """
    if intrinsics_dir is not None:
        _calibrate_lens(game, intrinsics_dir, out)
        return
    import random

    import cv2

    from companion.userdata import calibration_folder
    from companion.vision.corpus import random_scene
    from companion.vision.geometry import Geometry
    from companion.vision.overlay import calibrate_frame
    from companion.vision.sources import CameraSource
    from companion.vision.synth import Synth, random_camera
    from companion.vision.table import BoardNotFound

    kit = load_kit(game)
    geometry = Geometry.load(kit)
    frame: Any = None
    if source == "synthetic":
        synth = Synth(geometry, kit)
        rng = random.Random(1)
        frame = synth.photograph(random_scene(geometry, rng),
                                 random_camera(rng, (4056, 3040))).image
    elif source == "image":
        frame = cv2.imread(str(image_path)) if image_path else None
    else:
        frame = CameraSource().next_frame()
    if frame is None:
        click.echo(f"error: no frame from the {source} source", err=True)
        raise SystemExit(1)
    target = out or calibration_folder(game)
    try:
        result = calibrate_frame(geometry, frame, target, camera_height_mm=camera_height_mm)
    except BoardNotFound as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    click.echo(f"{result.corners_seen} corner markers, fit within {result.error_mm:.2f} mm; "
               f"saved {target / 'camera.yaml'} and {target / 'overlay.png'}")


def _calibrate_lens(game: str, folder: Path, out: Path | None) -> None:
    import cv2

    from companion.userdata import calibration_folder
    from companion.vision.intrinsics import IntrinsicsError, calibrate_intrinsics
    from companion.vision.overlay import save_intrinsics

    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    images = [image for p in files if (image := cv2.imread(str(p))) is not None]
    try:
        lens = calibrate_intrinsics(images)
    except IntrinsicsError as exc:
        click.echo(f"error: {folder}: {exc}", err=True)
        raise SystemExit(1) from None
    path = save_intrinsics(out or calibration_folder(game), lens)
    fx, fy = lens.matrix[0][0], lens.matrix[1][1]
    click.echo(f"{lens.views} of {len(files)} photographs used; focal length {fx:.0f} x "
               f"{fy:.0f} px, distortion {', '.join(f'{d:.3f}' for d in lens.distortion)}, "
               f"reprojection error {lens.rms_px:.2f} px; saved in {path}")


@main.command("print-tags")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default="tags.pdf",
              show_default=True)
@click.option("--first", default=10, show_default=True, help="First block tag id.")
@click.option("--count", default=96, show_default=True, help="How many block tags.")
@click.option("--size", "size_mm", default=14.0, show_default=True, help="Tag size, mm.")
@click.option("--corners", is_flag=True, help="Also a sheet of the four board corner markers.")
@click.option("--charuco", is_flag=True,
              help="Also the ChArUco board for measuring the lens (companion calibrate "
              "--intrinsics).")
def print_tags(out: Path, first: int, count: int, size_mm: float, corners: bool,
               charuco: bool) -> None:
    """Write tag sheets at exact size, ids only in the margin (a stuck tag tells nothing)."""
    from companion.vision.intrinsics import CHARUCO, write_charuco_sheet
    from companion.vision.tags import write_tag_sheet

    if charuco:
        board_out = out.with_name(out.stem + "-charuco.pdf")
        write_charuco_sheet(board_out)
        click.echo(f"{board_out}: the ChArUco board, {CHARUCO.size_mm[0]:.0f} x "
                   f"{CHARUCO.size_mm[1]:.0f} mm")

    written = write_tag_sheet(out, range(first, first + count), size_mm)
    click.echo(f"{out}: {written} tags of {size_mm} mm")
    if corners:
        corner_out = out.with_name(out.stem + "-corners.pdf")
        write_tag_sheet(corner_out, range(4), 40.0)
        click.echo(f"{corner_out}: the 4 board corner markers, 40 mm")


@main.group("hardware")
def hardware_group() -> None:
    """The table kit: camera placement."""


@hardware_group.command("plan")
@click.option("--camera", "camera_name", type=click.Choice(["hq", "module3", "module3-wide"]),
              default="hq", show_default=True)
@click.option("--lens", "lens_mm", type=float, help="Focal length, mm (default: each lens).")
@click.option("--tag", "tag_mm", type=float, default=14.0, show_default=True,
              help="Tag size, mm.")
@click.option("--game", default="sekigahara", show_default=True,
              help="Whose table area to cover (board, corner markers and side areas).")
def hardware_plan(camera_name: str, lens_mm: float | None, tag_mm: float, game: str) -> None:
    """How high to mount the camera, and whether the tags will be readable from there."""
    from companion.hardware import CAMERAS, MIN_PX_PER_MODULE, plan
    from companion.vision.geometry import Geometry

    geometry = Geometry.load(load_kit(game))
    left, top, right, bottom = geometry.extent
    area = (right - left, bottom - top)
    camera = CAMERAS[camera_name]
    click.echo(f"{camera.name}; table area {area[0]:.0f} x {area[1]:.0f} mm; tags {tag_mm} mm "
               f"(at least {MIN_PX_PER_MODULE} pixels per tag module needed)")
    for lens in ([lens_mm] if lens_mm else camera.lenses_mm):
        result = plan(camera, lens, area, tag_mm)
        verdict = "readable" if result.readable else "TOO SMALL"
        click.echo(f"  {lens:>5} mm lens: mount {result.height_mm / 10:.0f} cm above the table, "
                   f"{result.px_per_mm:.2f} px/mm, {result.px_per_module:.1f} px per module "
                   f"({verdict}; smallest readable tag {result.smallest_tag_mm} mm)")

