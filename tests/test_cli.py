"""The `companion` command is generic (issue 15): every command that takes a game or a kit
takes its name or an alias, a game without what a command needs is said in a sentence (exit 1,
no traceback), benchmarks follow the game's `Benchmark`, and what a user makes goes to the
user's data folder. The package's data files are inside a built wheel, and an installed copy
(not this checkout) checks a kit and verifies a sample record."""

from __future__ import annotations

import dataclasses
import inspect
import json
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.games import Benchmark, all_games, game, names
from companion.record.session import Session
from companion.record.store import Store

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "companion"


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


@pytest.fixture(autouse=True)
def user_data(tmp_path, monkeypatch):
    """Every test's user data folder (calibrations, sets) is its own."""
    folder = tmp_path / "userdata"
    monkeypatch.setenv("COMPANION_DATA", str(folder))
    return folder


# --- names and aliases --------------------------------------------------------------------


def test_rules_lists_every_game_with_its_aliases_and_what_it_offers():
    result = run("rules")
    assert result.exit_code == 0, result.output
    for name, spec in all_games().items():
        line = next(line for line in result.output.splitlines() if line.startswith(name))
        assert spec.title in line and all(alias in line for alias in spec.aliases)
    assert "offers: rules and kit only" in result.output  # Skirmish
    assert "table referee" in result.output  # Sekigahara


@pytest.mark.parametrize("args", [
    ["kit", "check", "rumble"], ["kit", "check", "Rumble-Nation"],
    ["simulate", "rumble-nation", "--seed", "2"], ["sim", "rumble", "--games", "1"],
    ["bench", "engine", "--game", "rumble", "--actions", "20"],
])
def test_a_game_is_named_by_its_name_or_an_alias(args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "Rumble Nation" in result.output or '"game": "rumble_nation"' in result.output \
        or "rumble_nation" in result.output


def test_a_simulated_record_of_an_alias_names_the_game_itself(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("simulate", "rumble", "--seed", "3", "--out", str(out)).exit_code == 0
    assert json.loads(out.read_text().splitlines()[0])["game"] == "rumble_nation"
    assert run("replay", "--check", "--kit", "rumble-nation", str(out)).exit_code == 0


def test_a_kit_of_another_game_is_refused_by_name():
    result = run("simulate", "skirmish", "--kit", "sekigahara")
    assert result.exit_code == 1
    assert "the kit sekigahara is for sekigahara, not skirmish" in result.output


@pytest.mark.parametrize("args", [
    ["simulate", "shogi"], ["sim", "shogi"], ["bench", "engine", "--game", "shogi"],
    ["bench", "vision", "--game", "shogi"], ["bench", "referee", "--game", "shogi"],
    ["demo", "--game", "shogi"], ["calibrate", "--game", "shogi"],
    ["hardware", "plan", "--game", "shogi"], ["serve", "--new", "shogi"],
])
def test_an_unknown_game_is_named_with_the_games_there_are(args, tmp_path):
    result = run(*args, "--db", str(tmp_path / "g.sqlite")) if args[0] == "serve" \
        else run(*args)
    assert result.exit_code == 1, result.output
    games = ", ".join(names())
    assert "skirmish" in games and f"error: no game called 'shogi' (games: {games})" \
        in result.output
    assert isinstance(result.exception, SystemExit)  # a sentence, not a traceback


# --- missing capabilities -----------------------------------------------------------------


@pytest.mark.parametrize(("args", "sentence"), [
    (["demo", "--game", "skirmish"], "Skirmish has no table referee yet"),
    (["bench", "vision", "--game", "skirmish"], "Skirmish has no vision benchmark yet"),
    (["bench", "referee", "--game", "skirmish"], "Skirmish has no simulated player yet"),
    (["calibrate", "--game", "skirmish", "--source", "synthetic"],
     "Skirmish has no board calibration yet"),
    (["hardware", "plan", "--game", "skirmish"], "Skirmish has no board calibration yet"),
    (["print-card-labels", "skirmish"], "Skirmish has no printable card labels yet"),
    (["register", "club", "--kit", "skirmish"],
     "Skirmish has no registration of a physical set yet"),
])
def test_a_game_without_what_a_command_needs_is_said_in_a_sentence(args, sentence):
    result = run(*args, stdin="")
    assert result.exit_code == 1, result.output
    assert f"error: {sentence}" in result.output
    assert isinstance(result.exception, SystemExit)


def test_serve_refuses_a_camera_for_a_game_without_a_table_referee(tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr("companion.serve.run", started.append)
    db = tmp_path / "games.sqlite"
    result = run("serve", "--db", str(db), "--new", "skirmish", "--camera",
                 f"folder:{tmp_path}")
    assert result.exit_code == 1 and "error: Skirmish has no table referee yet" in result.output
    assert not Store(db).games()  # refused before a game was stored
    store = Store(db)
    game_id = Session.start(store, "skirmish").game_id
    store.close()
    result = run("serve", "--db", str(db), "--game", str(game_id), "--camera",
                 f"folder:{tmp_path}")
    assert result.exit_code == 1
    assert f"Skirmish has no table referee yet: serve game {game_id} without --camera" \
        in result.output
    assert not started


# --- serve: a new game at the table ---------------------------------------------------------


def serve_options(tmp_path, monkeypatch, *args: str) -> tuple[dict, object]:
    """Run `companion serve ARGS` up to the server, and return the new game's options."""
    started: list = []
    monkeypatch.setattr("companion.serve.run", started.append)
    db = tmp_path / "games.sqlite"
    result = run("serve", "--db", str(db), *args)
    assert result.exit_code == 0, result.output
    (options,) = started
    store = Store(db)
    header = store.load(options.game_id).header
    store.close()
    return dict(header.options), options.table


def test_serve_new_with_a_camera_starts_with_the_games_table_options(tmp_path, monkeypatch):
    options, table = serve_options(tmp_path, monkeypatch, "--new", "sekigahara", "--camera",
                                   f"folder:{tmp_path}")
    assert options["knowledge"] == game("sekigahara").table_options["knowledge"] == "table"
    assert table is not None


def test_serve_option_overrides_a_table_option(tmp_path, monkeypatch):
    options, _ = serve_options(tmp_path, monkeypatch, "--new", "sekigahara", "--camera",
                               f"folder:{tmp_path}", "--option", "knowledge=full")
    assert options["knowledge"] == "full"


def test_serve_new_without_a_camera_is_a_table_game_too(tmp_path, monkeypatch):
    """A game served is a game at a real table, camera or not (#18: the tablet alone enters
    the draws); full knowledge is asked for explicitly."""
    options, table = serve_options(tmp_path, monkeypatch, "--new", "sekigahara")
    assert options["knowledge"] == "table" and table is None
    options, _ = serve_options(tmp_path, monkeypatch, "--new", "sekigahara",
                               "--option", "knowledge=full")
    assert options["knowledge"] == "full"


def test_serve_with_nothing_to_resume_starts_the_default_game_at_the_table(tmp_path,
                                                                          monkeypatch):
    options, _ = serve_options(tmp_path, monkeypatch)
    assert options["knowledge"] == "table"


# --- benchmarks -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(all_games()))
def test_bench_engine_times_any_game_per_action_per_verb_and_per_replay(name):
    result = run("bench", "engine", "--game", name, "--actions", "60", "--json")
    assert result.exit_code == 0, result.output
    f = json.loads(result.output)
    assert f["game"] == name and f["actions"] >= 60 and f["games"] >= 1
    for key in ("action_ms_p50", "action_ms_p95", "replay_game_s", "replay_game_s_max",
                "avg_actions_per_game"):
        assert f[key] > 0, key
    assert f["action_ms_p50"] <= f["action_ms_p95"]
    assert sum(v["actions"] for v in f["verbs"].values()) == f["actions"]
    assert all(v["ms_p50"] <= v["ms_p95"] for v in f["verbs"].values())
    words = run("bench", "engine", "--game", name, "--actions", "60")
    assert "validate+apply median" in words.output and "slowest verbs" in words.output


def test_bench_engine_refuses_no_actions():
    result = run("bench", "engine", "--game", "skirmish", "--actions", "0")
    assert result.exit_code == 2 and "--actions" in result.output


@pytest.fixture
def tiny_bench(monkeypatch):
    """Skirmish given a vision benchmark of its own (an attribute of its kit module): the CLI
    must take the settings, the lines and the figures from whatever Benchmark a game has."""
    calls: list[dict] = []

    def bench(frames: int = 3, size: tuple[int, int] = (40, 30), label: str = "x",
              dim: bool = False) -> dict:
        calls.append({"frames": frames, "size": size, "label": label, "dim": dim})
        return {"frames": frames, "pixels": size[0] * size[1], "label": label, "dim": dim}

    benchmark = Benchmark(run=bench, lines=lambda f: [f"{f['frames']} frames, {f['pixels']} px"],
                          settings={"frames": 3, "size": (40, 30), "label": "x", "dim": False})
    spec = dataclasses.replace(game("skirmish"), vision_bench=lambda: benchmark)
    monkeypatch.setitem(all_games(), "skirmish", spec)
    return calls


def test_bench_vision_runs_the_games_benchmark_with_its_settings(tiny_bench):
    result = run("bench", "vision", "--game", "skirmish", "--no-peer")  # AprilTag 3: its own
    assert result.exit_code == 0, result.output                         # tests (vision_peer)
    assert result.output == "3 frames, 1200 px\n"
    result = run("bench", "vision", "--game", "skirmish", "--frames", "5", "--size=8x2",
                 "--label", "cast", "--dim", "yes", "--no-peer", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"frames": 5, "pixels": 16, "label": "cast",
                                         "dim": True}
    assert tiny_bench[-1] == {"frames": 5, "size": (8, 2), "label": "cast", "dim": True}


def test_bench_vision_lists_the_settings_and_refuses_others(tiny_bench):
    listed = run("bench", "vision", "--game", "skirmish", "--list-settings")
    assert listed.output.splitlines() == ["--frames 3", "--size 40x30", "--label x",
                                          "--dim False"]
    unknown = run("bench", "vision", "--game", "skirmish", "--sequences", "2")
    assert unknown.exit_code == 2
    assert "Skirmish's vision benchmark has no setting --sequences (settings: --frames, " \
        "--size, --label, --dim)" in unknown.output
    bad = run("bench", "vision", "--game", "skirmish", "--frames", "many")
    assert bad.exit_code == 2 and "'many' is not like the default 3" in bad.output
    short = run("bench", "vision", "--game", "skirmish", "--size", "8")
    assert short.exit_code == 2 and "'8' is not like the default 40x30" in short.output
    assert not tiny_bench


def test_bench_vision_says_when_a_games_benchmark_breaks_the_contract(monkeypatch):
    """mypy holds a game's declaration to the contract; a package it did not check (a game
    added without running it) still gets a sentence, not a traceback."""
    spec = dataclasses.replace(game("skirmish"), vision_bench=lambda: len)
    monkeypatch.setitem(all_games(), "skirmish", spec)
    result = run("bench", "vision", "--game", "skirmish")
    assert result.exit_code == 1
    assert "Skirmish's vision benchmark is a builtin_function_or_method, not a Benchmark" \
        in result.output


@pytest.mark.parametrize("name", sorted(n for n, s in all_games().items()
                                        if s.has("vision_bench")))
def test_every_shipped_vision_benchmark_keeps_the_contract(name):
    """Its settings are keywords its `run` takes (the CLI passes them so), each with a value
    the CLI can read from the command line."""
    bench = game(name).need_vision_bench()
    parameters = inspect.signature(bench.run).parameters
    assert bench.settings and set(bench.settings) <= set(parameters)
    for value in bench.settings.values():
        assert isinstance(value, bool | int | float | str | tuple), value
    assert callable(bench.lines)


@pytest.mark.slow
def test_sekigaharas_vision_benchmark_runs_from_the_command_with_small_settings():
    result = run("bench", "vision", "--game", "sekigahara", "--frames", "1", "--sequences",
                 "1", "--room", "0", "--no-peer", "--json")  # the room: test_vision_room;
    # AprilTag 3 beside the reader: test_vision_peer and test_every_command
    assert result.exit_code == 0, result.output
    f = json.loads(result.output)
    assert f["frames"] == 1 and f["sequences"] == 1 and f["visible_tags"] > 0
    assert "room" not in f
    assert f["pipeline_ms_p50_12mp"] <= f["pipeline_ms_p95_12mp"]
    assert 0.9 <= f["zone_recall"] <= 1 and f["wrong_ids"] == 0


def test_bench_referee_acts_games_out_with_the_games_simulated_player():
    result = run("bench", "referee", "--games", "1", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    f = json.loads(result.output)
    assert f["game"] == "sekigahara" and f["games"] == 1
    assert f["recovered"] + f["asked"] + f["missed"] == f["actions"] > 0


# --- what the user makes goes to the user's data folder -----------------------------------


def test_calibrate_saves_in_the_users_data_folder_by_default(user_data):
    result = run("calibrate", "--source", "synthetic")
    assert result.exit_code == 0, result.output
    saved = user_data / "calibration" / "sekigahara"
    assert (saved / "camera.yaml").is_file() and (saved / "overlay.png").is_file()
    assert not list((PACKAGE / "games" / "sekigahara" / "calibration").glob("camera.yaml"))


def test_register_keeps_its_sets_in_the_users_data_folder(user_data):
    result = run("register", "club", stdin="block 101 tokugawa maeda 2\nnonsense\n")
    assert result.exit_code == 1  # one block is not a set
    assert "line 2: expected 'block TAG SPEC' or 'card CODE [SPEC]': got 'nonsense'" \
        in result.output
    saved = json.loads((user_data / "sets" / "club.json").read_text())
    assert saved["kit"] == "sekigahara" and list(saved["blocks"]) == ["101"]
    resumed = run("register", "club", stdin="")
    assert "club: 1 blocks and 0 cards registered so far" in resumed.output


def test_register_says_which_lines_the_game_takes_and_refuses_a_path_as_a_name():
    how = run("register", "--how")
    assert how.exit_code == 0 and "block TAG SPEC" in how.output
    bad = run("register", "../club", stdin="")
    assert bad.exit_code == 1 and "a set's name is a plain file name" in bad.output


# --- package data ---------------------------------------------------------------------------


def package_data_patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns: list[str] = config["tool"]["setuptools"]["package-data"]["companion"]
    return patterns


def data_files() -> set[Path]:
    """Every file of the package that is not Python code (nor a cache)."""
    return {p for p in PACKAGE.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
            and "__pycache__" not in p.parts}


def test_every_data_file_of_the_package_is_declared_package_data():
    """A data file nobody declared works in this checkout and is missing once installed."""
    declared = {p for pattern in package_data_patterns() for p in PACKAGE.glob(pattern)}
    assert data_files() - declared == set()
    for spec in all_games().values():  # the files the specs name are there, and declared
        named = [spec.path("data/kit.yaml"), *map(spec.sample, spec.samples)]
        named += [spec.need_screen()] if spec.has("screen") else []
        named += [spec.need_calibration()] if spec.has("calibration") else []
        assert set(named) <= declared, spec.name


@pytest.mark.slow
def test_an_installed_wheel_holds_the_data_and_runs_the_main_jobs(tmp_path):
    """Build a wheel from a copy of the sources, unpack it (an installation outside this
    checkout), and run `kit check` and `replay --check` from it."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(PACKAGE, source / "companion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path / "wheel"), str(source)], capture_output=True,
                           text=True, check=False)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        inside = set(archive.namelist())
        archive.extractall(tmp_path / "installed")
    wanted = {str(p.relative_to(ROOT)) for p in data_files()}
    assert wanted - inside == set()
    env = {"PYTHONPATH": str(tmp_path / "installed"), "COMPANION_DATA": str(tmp_path / "data"),
           "PATH": "/usr/bin:/bin"}
    installed = tmp_path / "installed" / "companion" / "games"
    sample = installed / "sekigahara" / "samples" / game("sekigahara").samples[0]
    for args in (["kit", "check", "sekigahara"], ["kit", "check", "rumble-nation"],
                 ["replay", "--check", str(sample)]):
        done = subprocess.run([sys.executable, "-c", "import companion, sys; "
                               "assert companion.__file__.startswith(sys.argv[1]); "
                               "from companion.cli import main; main(sys.argv[2:])",
                               str(tmp_path / "installed"), *args], capture_output=True,
                              text=True, check=False, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "OK" in done.stdout


def test_sekigaharas_vision_benchmark_says_the_rooms_conditions():
    """The room's figures (issue 19) come out of `bench vision` in sentences too: one line a
    condition, the hands, the totals."""
    from companion.games.sekigahara.vision_bench import describe
    from companion.vision.room import CONDITIONS

    condition = {"zone_recall": 1.0, "wrong_ids": 0, "false_hand_flags": 0, "frames": 8,
                 "spurious_diffs": 0, "reported_gone": 0, "stalled_tables": 0,
                 "blind_frames": 0}
    figures = {"pipeline_ms_p50_12mp": 80, "pipeline_ms_p95_12mp": 110,
               "plain_aruco_ms_p50_12mp": 200, "speedup_12mp": 2.5, "fps_1080p": 6,
               "zone_recall_1080p": 0.8, "visible_tags": 30, "zone_recall": 1.0,
               "plain_zone_recall": 1.0, "wrong_zones": 0, "ambiguous": 0, "wrong_ids": 0,
               "spurious_diffs": 0,
               "room": {"conditions": dict.fromkeys(CONDITIONS, condition),
                        "hands": {"by_tone": {}, "sequences": 8, "spurious_diffs": 0,
                                  "resting_not_flagged": 0, "resting_frames": 46},
                        "wrong_ids": 0, "spurious_diffs": 0, "false_hand_flags": 0}}
    lines = describe(figures)
    for name in CONDITIONS:
        assert any(line.startswith(f"{name}: zone recall 1.0") for line in lines), name
    assert lines[-1] == "in all: 0 wrong ids, 0 spurious diffs, 0 false hand flags"
