"""Every command for every game (issue 30): for each registered game and each command of
`companion`, the command runs as a user types it (small sizes) and either does its work or says
in one sentence what the game lacks, never a traceback. Each test starts a real process
(`python -m companion ...`) for a game; the quick commands it runs after that one go through
the same command line in the test's process (`here`), sparing 0.7 CPU-s of imports each.

The commands are found from the capabilities each game declares (`companion.games`), so a new
game, or a new capability of an old one, is covered without editing this file. A command that
serves (serve, the kit author, setup's page) is started, asked for its page, and stopped.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time
import traceback
from contextlib import chdir
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.games import AnyGame, Capability, all_games

ROOT = Path(__file__).parents[1]
GAMES = sorted(all_games())


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str

    @property
    def said(self) -> str:
        return self.out + self.err


def run(env: dict[str, str], *args: str, timeout: float = 300, stdin: str = "") -> Ran:
    """`companion ARGS` in a real process, in the test's own data folder."""
    done = subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, env=env, timeout=timeout, input=stdin, cwd=env["HOME"])
    return Ran(done.returncode, done.stdout, done.stderr)


def here(env: dict[str, str], *args: str) -> Ran:
    """`companion ARGS` through the same command line (`companion.cli.main`) in this process,
    in the test's own data folder: for the quick commands after a game's first real process,
    which would spend most of their time (0.7 CPU-s each) importing the companion again. An
    exception that escapes the command is said as the traceback a process would print."""
    with chdir(env["HOME"]):
        done = CliRunner().invoke(main, list(args), env={
            "COMPANION_DATA": env["COMPANION_DATA"], "HOME": env["HOME"]})
    err = done.stderr
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        assert done.exc_info is not None
        err += "".join(traceback.format_exception(*done.exc_info))
    return Ran(done.exit_code, done.stdout, err)


def worked(ran: Ran) -> None:
    """Exit 0 and no traceback anywhere in what it said."""
    assert "Traceback" not in ran.said, ran.said[-3000:]
    assert ran.code == 0, ran.said[-3000:]


def lacks(spec: AnyGame, capability: Capability, ran: Ran) -> None:
    """Exit 1 with the game's sentence for what it lacks, and no traceback."""
    assert "Traceback" not in ran.said, ran.said[-3000:]
    assert ran.code == 1, ran.said[-3000:]
    assert str(spec.missing(capability)) in ran.err, ran.said[-3000:]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The user's world for one test: data folder, home, the checkout on the path."""
    home = tmp_path / "home"
    home.mkdir()
    return {**os.environ, "COMPANION_DATA": str(tmp_path / "data"), "HOME": str(home),
            "PYTHONPATH": str(ROOT)}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serving(env: dict[str, str], port: int, path: str, *args: str,
            timeout: float = 60) -> tuple[int, str]:
    """Start `companion ARGS` (a server on `port`), GET `path` once it answers, stop it;
    (the page's status, everything the process said). Fails on a traceback."""
    child = subprocess.Popen([sys.executable, "-m", "companion", *args], env=env,
                             cwd=env["HOME"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    status = 0
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and child.poll() is None:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", path)
                status = connection.getresponse().status
                break
            except OSError:
                time.sleep(0.1)
    finally:
        child.terminate()
        try:
            said, _ = child.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            said, _ = child.communicate()
    assert "Traceback" not in said, said[-3000:]
    return status, said


def _cases(*capabilities: Capability) -> list[object]:
    """(game, has every capability) for each game, with readable ids."""
    return [pytest.param(name, all(all_games()[name].has(c) for c in capabilities), id=name)
            for name in GAMES]


# --- the rules and the kit: every game ------------------------------------------------------


def test_rules_lists_every_game(env):
    ran = run(env, "rules")
    worked(ran)
    for spec in all_games().values():
        assert spec.title in ran.out


@pytest.mark.parametrize("name", GAMES)
def test_kit_check_simulate_replay_and_the_stored_games(env, tmp_path, name):
    """kit check, simulate, replay (check, at a line, as JSON), sim, and the stored games'
    commands (import, list, show, export, repatch, delete) on a short random game. The kit
    check and the simulation are real processes; the rest run the same command line here."""
    worked(run(env, "kit", "check", name))
    record = tmp_path / "game.jsonl"
    worked(run(env, "simulate", name, "--seed", "3", "--max-actions", "40", "--out",
               str(record)))
    worked(here(env, "replay", "--check", str(record)))
    worked(here(env, "replay", str(record), "--at", "5"))
    worked(here(env, "replay", str(record), "--json"))
    worked(here(env, "sim", name, "--games", "1", "--json"))
    db = ["--db", str(tmp_path / "games.sqlite")]
    worked(here(env, "games", *db, "import", str(record), "--unchained"))
    listed = here(env, "games", *db, "list")
    worked(listed)
    worked(here(env, "games", *db, "show", "1"))
    worked(here(env, "games", *db, "export", "1", str(tmp_path / "out.jsonl")))
    worked(here(env, "games", *db, "repatch"))
    worked(here(env, "games", *db, "delete", "1", "--yes"))


@pytest.mark.parametrize("name", GAMES)
def test_shipped_samples_replay(env, name):
    for sample in all_games()[name].samples:
        worked(run(env, "replay", "--check", str(all_games()[name].sample(sample))))


# --- the printed things and the board -------------------------------------------------------


@pytest.mark.parametrize(("name", "has"), _cases("board"))
def test_board_commands(env, tmp_path, name, has):
    """print-mat, print-tags --corners, hardware plan and calibrate from a synthetic frame
    (the first a real process, the others the same command line here)."""
    spec = all_games()[name]
    commands = [
        ("print-mat", "--game", name, "--out", str(tmp_path / "mat.pdf")),
        ("print-tags", "--corners", "--game", name, "--out", str(tmp_path / "tags.pdf")),
        ("hardware", "plan", "--game", name),
        ("calibrate", "--game", name, "--source", "synthetic", "--out", str(tmp_path / "cal")),
    ]
    for first, command in enumerate(commands, start=1):
        ran = run(env, *command) if first == 1 else here(env, *command)
        if has:
            worked(ran)
        else:
            lacks(spec, "board", ran)


def _board_photo(spec: AnyGame, folder: Path) -> Path:
    """A synthetic photograph of the game's board, as a camera would take it."""
    from companion.vision.corpus import random_look
    from companion.vision.synth import Scene, Synth, random_camera

    kit = spec.load_kit()
    geometry = spec.board_geometry(kit)
    rng = random.Random(4)
    frame = Synth(geometry, kit).photograph(Scene({}), random_camera(rng, (2028, 1520)),
                                            random_look(rng))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "board.jpg"
    cv2.imwrite(str(path), frame.image)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("name", "has"), _cases("board"))
def test_setup_places_the_board_from_a_camera(env, tmp_path, name, has):
    """setup --camera folder:PATH --game NAME --yes: the board is placed from the photo."""
    spec = all_games()[name]
    folder = tmp_path / "frames"
    if has:
        _board_photo(spec, folder)
    else:
        folder.mkdir()
    ran = run(env, "setup", "--camera", f"folder:{folder}", "--game", name, "--yes",
              "--public-url", "http://192.0.2.7:8000")
    if has:
        worked(ran)
        assert "corner" in ran.said
    else:
        lacks(spec, "board", ran)


@pytest.mark.parametrize(("name", "has"), _cases("labels"))
def test_print_card_labels(env, tmp_path, name, has):
    ran = run(env, "print-card-labels", name, "--out", str(tmp_path / "labels.pdf"))
    if has:
        worked(ran)
    else:
        lacks(all_games()[name], "labels", ran)


@pytest.mark.parametrize(("name", "has"), _cases("register"))
def test_register_and_its_tag_sheet(env, tmp_path, name, has):
    """register --how, register with no entries yet (it says how far it is, and exits 1
    while the set does not match the kit), and the set's tag sheet (print-tags --set); the
    first a real process, the others the same command line here."""
    spec = all_games()[name]
    entries = tmp_path / "entries.txt"
    entries.write_text("# nothing yet\n")
    begun = run(env, "register", "club", "--kit", name, "--entries", str(entries))
    if has:
        assert "Traceback" not in begun.said and begun.code in (0, 1), begun.said[-3000:]
        assert "so far" in begun.said and (begun.code == 0) == ("not match" not in begun.said)
    else:
        lacks(spec, "register", begun)
    for ran in (here(env, "register", "club", "--kit", name, "--how"),
                here(env, "print-tags", "--set", "club", "--game", name, "--out",
                     str(tmp_path / "set.pdf"))):
        if has:
            worked(ran)
        else:
            lacks(spec, "register", ran)


# --- benchmarks ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_engine_and_record_benches(env, name):
    worked(run(env, "bench", "engine", "--game", name, "--actions", "60", "--json"))
    worked(run(env, "bench", "record", "--game", name, "--appends", "20", "--json"))


SMALL_VISION = {"frames": "2", "sequences": "1", "room": "0", "size": "1080p"}
"""The smallest sizes of the vision benches' settings (a bench takes those it has): Barletta's
frames at 1080p, not its default 12 MP (its figures at 12 MP: test_barletta_vision). The room
is left out: its smallest size is still a table per condition and 8 hand sequences at 12 MP
(most of this test's 9 minutes), the very report test_vision_room checks against the issue's
targets; its sentences are test_cli's."""


@pytest.mark.slow
@pytest.mark.timeout(300)  # a game's bench at small sizes and AprilTag 3's frames: ~1 min
@pytest.mark.parametrize(("name", "has"), _cases("vision_bench"))
def test_vision_bench(env, name, has):
    spec = all_games()[name]
    if not has:
        lacks(spec, "vision_bench", run(env, "bench", "vision", "--game", name))
        return
    settings = spec.need_vision_bench().settings
    small = [arg for key, value in SMALL_VISION.items() if key in settings
             for arg in (f"--{key}", value)]
    photos = Path(env["HOME"]) / "photos"  # one photograph of two tags, for the peer
    photos.mkdir()
    bank = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    sheet = np.full((240, 320), 230, np.uint8)
    sheet[70:150, 30:110] = cv2.aruco.generateImageMarker(bank, 7, 80)
    sheet[70:150, 190:270] = cv2.aruco.generateImageMarker(bank, 300, 80)
    cv2.imwrite(str(photos / "two.png"), sheet)
    (photos / "truth.json").write_text('{"two.png": [7, 300]}')
    ran = run(env, "bench", "vision", "--game", name, *small, "--peer-frames", "1",
              "--peer-condition", "1080p, 24 mm tags", "--photos", str(photos), "--json",
              timeout=900)
    worked(ran)
    assert ran.out.strip().startswith("{")
    peer = json.loads(ran.out)["apriltag3"]  # AprilTag 3 read the same frames in the run
    for figures in (peer["synthetic"]["1080p, 24 mm tags"], peer["photos"]):
        for reader in ("companion", "apriltag3"):
            assert figures[reader]["recall"] > 0.5 and figures[reader]["wrong_ids"] == 0
            assert figures[reader]["ms_median"] > 0
        assert figures["time_ratio"] > 0 and figures["recall_ratio"] > 0


@pytest.mark.slow
@pytest.mark.parametrize(("name", "has"), _cases("simulator"))
def test_referee_bench(env, name, has):
    ran = run(env, "bench", "referee", "--game", name, "--games", "1", "--json", timeout=900)
    if has:
        worked(ran)
    else:
        lacks(all_games()[name], "simulator", ran)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_web_bench(env, name):
    ran = run(env, "bench", "web", "--game", name, "--clients", "2", "--actions", "5",
              "--idle-streams", "20", "--changing-streams", "20", "--json", timeout=600)
    worked(ran)
    assert '"update_ms_p95"' in ran.out
    assert '"streams_changing": 20, "view_ms_p95_streams_changing"' in ran.out


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_broadcast_bench(env, name):
    ran = run(env, "bench", "broadcast", "--game", name, "--tables", "1", "--actions", "3",
              "--pace", "0.1", "--json", timeout=600)
    worked(ran)


@pytest.mark.slow
def test_inputs_bench(env):
    worked(run(env, "bench", "inputs", "--json"))


# --- the table: demo, serve, the kit author ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("name", "has"), _cases("table", "simulator"))
def test_demo_plays_a_few_actions_at_the_simulated_table(env, name, has):
    ran = run(env, "demo", "--game", name, "--headless", "--actions", "6", "--port", "0",
              "--json", timeout=900)
    spec = all_games()[name]
    if has:
        worked(ran)
        assert isinstance(json.loads(ran.out), dict)  # one document on stdout, nothing else
    else:
        lacks(spec, "table" if not spec.has("table") else "simulator", ran)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "has"), _cases("screen"))
def test_serve_a_new_game_and_its_screen(env, tmp_path, name, has):
    port = _free_port()
    status, said = serving(env, port, f"/games/{name}/screen.js", "serve", "--new", name,
                           "--host", "127.0.0.1", "--port", str(port), "--db",
                           str(tmp_path / "games.sqlite"), "--referee-token", "sesame")
    assert status == (200 if has else 404), said[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "has"), _cases("author"))
def test_kit_author_serves_its_page(env, tmp_path, name, has):
    spec = all_games()[name]
    if not has:
        lacks(spec, "author", run(env, "kit", "author", name, "--port", str(_free_port())))
        return
    photo = _board_photo(spec, tmp_path / "photo")
    port = _free_port()
    status, said = serving(env, port, "/kit-author", "kit", "author", name, "--image", str(photo),
                           "--host", "127.0.0.1", "--port", str(port))
    assert status in (200, 401, 403), said[-2000:]


# --- review: a filmed game (issue 33) ---------------------------------------------------------


@pytest.mark.parametrize(("name", "has"), _cases("table"))
def test_review_reads_a_film(env, tmp_path, name, has):
    film = tmp_path / "empty table.avi"
    writer = cv2.VideoWriter(str(film), cv2.VideoWriter.fourcc(*"MJPG"), 5, (320, 240))
    for _ in range(3):
        writer.write(np.full((240, 320, 3), 128, np.uint8))
    writer.release()
    ran = run(env, "review", str(film), "--game", name, "--db",
              str(tmp_path / "games.sqlite"), "--json")
    if has:
        worked(ran)
        assert json.loads(ran.out)["frames_read"] == 3
    else:
        lacks(all_games()[name], "table", ran)
