"""The command line, consistent and talkative (#18): options after the subcommand, and one
clear error for a port in use, before any game is stored."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from companion.record.session import Session
from companion.record.store import Store

ROOT = Path(__file__).parents[1]


def companion(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT),
                               "COMPANION_DATA": str(data)})


def test_games_takes_its_database_before_or_after_the_subcommand(tmp_path):
    db = tmp_path / "games.sqlite"
    store = Store(db)
    Session.start(store, "skirmish", players={"red": "Ana", "blue": "Ben"})
    store.close()
    before = companion("games", "--db", str(db), "list", data=tmp_path)
    after = companion("games", "list", "--db", str(db), data=tmp_path)
    assert before.returncode == after.returncode == 0, after.stderr
    assert "skirmish" in after.stdout and after.stdout == before.stdout
    shown = companion("games", "show", "1", "--db", str(db), data=tmp_path)
    assert shown.returncode == 0 and "skirmish" in shown.stdout.lower()


def test_a_port_in_use_is_one_clear_error_and_stores_no_game(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = companion("serve", "--host", "127.0.0.1", "--port", str(port), "--db",
                           str(tmp_path / "games.sqlite"), "--new", "skirmish", data=tmp_path)
    assert result.returncode == 1
    assert f"port {port} on 127.0.0.1 cannot be used" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert not (tmp_path / "games.sqlite").exists()


def test_calibrate_names_its_camera_as_serve_does(tmp_path):
    unknown = companion("calibrate", "--camera", "webcam", data=tmp_path)
    assert unknown.returncode == 2 and "unknown camera 'webcam'" in unknown.stderr
    pi = companion("calibrate", "--camera", "pi", data=tmp_path)  # no Pi camera here
    assert pi.returncode == 1 and "no frame from camera pi: picamera2" in pi.stderr
    assert "Traceback" not in pi.stderr


def test_replay_and_games_show_read_as_words_and_give_json_on_request(tmp_path):
    import json

    from companion.games import game

    sample = str(game("sekigahara").sample())
    said = companion("replay", "--at", "60", "--role", "ishida", sample, data=tmp_path)
    assert said.returncode == 0 and "last actions:" in said.stdout and "{" not in said.stdout
    assert "phase: movement" in said.stdout and "→" in said.stdout
    data = companion("replay", "--at", "60", "--role", "ishida", "--json", sample,
                     data=tmp_path)
    assert json.loads(data.stdout)["role"] == "ishida"
    db = tmp_path / "games.sqlite"
    store = Store(db)
    Session.start(store, "skirmish", players={"red": "Ana", "blue": "Ben"})
    store.close()
    shown = companion("games", "show", "1", "--db", str(db), data=tmp_path)
    assert shown.returncode == 0 and "{" not in shown.stdout
    assert json.loads(companion("games", "show", "1", "--json", "--db", str(db),
                                data=tmp_path).stdout)["role"] == "public"
