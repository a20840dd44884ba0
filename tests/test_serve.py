"""`companion serve`: the production server (uvicorn, streams on its event loop) really streams, and
it offers to resume an unfinished game (7: Resume)."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from helpers import free_port, listening, wait_for

from companion.games import game
from companion.kits import load_kit
from companion.record.session import Session
from companion.record.store import Store


def start(db: Path, *args: str, stdin: str = "") -> tuple[subprocess.Popen, int]:
    port = free_port()
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(db), "--referee-token", "sesame", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert child.stdin is not None
    child.stdin.write(stdin)
    child.stdin.close()
    try:
        wait_for(lambda: listening(port), 20, "serve to listen", every=0.1, alive=child)
    except AssertionError:
        child.kill()
        raise AssertionError(child.stdout.read() if child.stdout else "no output") from None
    return child, port


def events(port: int, token: str):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", f"/stream?token={token}")
    response = connection.getresponse()
    assert response.getheader("Content-Type").startswith("text/event-stream")
    while True:
        line = response.readline().decode()
        if line.startswith("data: "):
            yield json.loads(line[6:])


def post(port: int, path: str, body: dict, token: str = "sesame") -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("POST", path, json.dumps(body), {
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    return connection.getresponse().status


def test_serve_streams_every_accepted_action(tmp_path):
    child, port = start(tmp_path / "games.sqlite", "--new", "skirmish")
    try:
        stream = events(port, "sesame")
        assert next(stream)["version"] == 0
        started = time.perf_counter()
        assert post(port, "/api/action", {"text": "red pass {}"}) == 200
        update = next(stream)
        assert update["version"] == 1 and update["actions"] == 1
        assert time.perf_counter() - started < 1.0
    finally:
        child.terminate()
        child.wait(timeout=10)


def test_serve_offers_to_resume_an_unfinished_game(tmp_path):
    db = tmp_path / "games.sqlite"
    store = Store(db)
    session = Session.start(store, "skirmish")
    session.play(session.game.legal_actions()[0], "tablet")
    store.close()
    child, port = start(db, stdin="y\n")
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/api/view")
        view = json.loads(connection.getresponse().read())
        assert view["game_id"] == session.game_id and view["actions"] == 1
    finally:
        child.terminate()
        child.wait(timeout=10)
    output = child.stdout.read() if child.stdout else ""
    assert f"Resume game {session.game_id} (skirmish" in output


def get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


def test_serve_hosts_a_new_games_screen_and_names_its_roles(tmp_path):
    """`companion serve --new rumble_nation`: the view names Rumble Nation's roles for the
    page shell, and its screen module is served from its package (or, while it has none, a
    sentence says so)."""
    spec = game("rumble_nation")
    child, port = start(tmp_path / "games.sqlite", "--new", "rumble-nation")
    try:
        status, body = get(port, "/api/view")
        about = json.loads(body)["game"]
        assert status == 200 and about["name"] == "rumble_nation"
        assert about["roles"] == list(spec.rules(load_kit(spec.kit)).roles)
        status, body = get(port, f"/games/{about['name']}/screen.js")
        if spec.has("screen"):
            assert status == 200 and body == spec.need_screen().read_bytes()
        else:
            assert status == 404 and b"Rumble Nation has no tablet screen yet" in body
        status, body = get(port, "/api/board")
        assert status == 200 and len(json.loads(body)["locations"]) == 11
    finally:
        child.terminate()
        child.wait(timeout=10)
