"""Pairing that lasts (#18): a paired phone, the referee's link, the pause and a waiting question
survive a restart of `companion serve`; pairing links carry the address the phones can reach."""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from helpers import free_port, listening, wait_for
from web_helpers import acting_player, app_for, played_hub

from companion.engine import REFEREE
from companion.record.session import Session
from companion.web.hub import Hub, digest

ROOT = Path(__file__).parents[1]


def pair_phone(hub: Hub, role: str) -> str:
    """A phone paired the way a player does it: offer, claim, the referee confirms."""
    url = hub.offer_pairing(role, "http://table.local:8000")
    token, code = hub.claim_pairing(url.split("#pair=")[1])
    hub.confirm_pairing(role, code)
    return token


def test_a_paired_phone_and_the_pause_survive_a_restart_and_only_a_digest_is_kept(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    token = pair_phone(hub, "red")
    assert hub.tokens.role(token) == "red"
    hub.pause(True)
    db = hub.session.store.path
    kept = sqlite3.connect(db).execute("SELECT digest, role FROM devices").fetchall()
    assert kept == [(digest(token), "red")]
    assert token.encode() not in Path(db).read_bytes()  # the token itself is never stored
    again = Hub(Session.resume(hub.session.store, hub.session.game_id))
    assert again.tokens.role(token) == "red" and again.paused
    again.revoke("red")
    assert Hub(Session.resume(hub.session.store, hub.session.game_id)).tokens.role(token) \
        == "public"


def test_a_phone_paired_for_one_game_is_no_one_in_another(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    other = played_hub(tmp_path, "rumble_nation", seed=3)  # the same database: game 2
    token = pair_phone(hub, "red")
    assert other.session.game_id != hub.session.game_id
    assert Hub(Session.resume(other.session.store, other.session.game_id)).tokens.role(token) \
        == "public"


def test_a_waiting_question_is_asked_again_after_a_restart_unless_the_game_moved_on(tmp_path):
    hub = played_hub(tmp_path, "sekigahara")
    actor = acting_player(hub)
    options = tuple(hub.session.game.legal_actions(actor)[:2])
    hub.ask("The camera saw two moves: which was it?", options)
    again = Hub(Session.resume(hub.session.store, hub.session.game_id))
    assert again.question == ("The camera saw two moves: which was it?", options)
    again.answer(REFEREE, 1)
    assert Hub(Session.resume(hub.session.store, hub.session.game_id)).question is None


def test_pairing_links_carry_the_public_url_not_the_referees_host(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    app, tokens = app_for(hub)
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000"
    client = app.test_client()
    answer = client.post("/api/pair/red", headers={"Authorization": f"Bearer {tokens[REFEREE]}"},
                         json={}, base_url="http://localhost")
    assert answer.get_json()["url"].startswith("http://192.168.1.20:8000/play#pair=")


def serve(db: Path, data: Path, port: int, *args: str) -> tuple[subprocess.Popen[str], str]:
    """`companion serve` with its data folder at `data`; returns it and its first lines."""
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(db), *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA": str(data)})
    assert child.stdout is not None
    lines = [child.stdout.readline() for _ in range(2)]
    wait_for(lambda: listening(port), 30, f"serve to listen: {lines}", every=0.1, alive=child)
    return child, "".join(lines)


def call(port: int, method: str, path: str, token: str, body: dict | None = None
         ) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    headers = {"Authorization": f"Bearer {token}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"{}")


def test_serve_keeps_the_referee_link_and_the_phones_across_a_restart(tmp_path):
    db, data, port = tmp_path / "games.sqlite", tmp_path / "data", free_port()
    child, said = serve(db, data, port, "--new", "rumble_nation",
                        "--public-url", "http://table.example:8000")
    try:
        assert "http://table.example:8000/" in said
        referee = said.split("#token=")[1].split()[0]
        status, offer = call(port, "POST", "/api/pair/blue", referee, {})
        assert status == 200 and offer["url"].startswith("http://table.example:8000/play#pair=")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("POST", "/api/pair/claim",
                           json.dumps({"pair": offer["url"].split("#pair=")[1]}),
                           {"Content-Type": "application/json"})
        claimed = json.loads(connection.getresponse().read())
        assert call(port, "POST", "/api/pair/blue/confirm", referee,
                    {"code": claimed["code"]})[0] == 200
        assert call(port, "GET", "/api/view", claimed["token"])[1]["role"] == "blue"
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=15)
    child, again = serve(db, data, port, "--game", "1")
    try:
        assert again.split("#token=")[1].split()[0] == referee  # the same referee link
        assert call(port, "GET", "/api/view", claimed["token"])[1]["role"] == "blue"
        assert call(port, "GET", "/api/view", referee)[1]["role"] == REFEREE
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=15)
    printed = subprocess.run(
        [sys.executable, "-m", "companion", "referee-link", "--no-qr", "--public-url",
         "http://table.example:8000"], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA": str(data)}).stdout
    assert printed.strip() == f"http://table.example:8000/referee#token={referee}"
    assert (data / "referee-token").stat().st_mode & 0o077 == 0  # the owner's alone


def test_a_public_url_that_is_no_address_is_refused_by_name(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "companion", "referee-link", "--public-url", "table:8000"],
        capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA": str(tmp_path)})
    assert result.returncode != 0 and "--public-url 'table:8000'" in result.stderr


def test_a_revoked_phone_loses_its_live_stream_at_once(tmp_path):
    """On the real server (uvicorn, streams as coroutines): a phone's open stream ends when
    the referee revokes it, rather than going on showing that player's view."""
    db, data, port = tmp_path / "games.sqlite", tmp_path / "data", free_port()
    child, _said = serve(db, data, port, "--new", "rumble_nation", "--referee-token", "sesame")
    try:
        hub_phone = {}
        _status, offer = call(port, "POST", "/api/pair/red", "sesame", {})
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("POST", "/api/pair/claim",
                           json.dumps({"pair": offer["url"].split("#pair=")[1]}),
                           {"Content-Type": "application/json"})
        hub_phone.update(json.loads(connection.getresponse().read()))
        assert call(port, "POST", "/api/pair/red/confirm", "sesame",
                    {"code": hub_phone["code"]})[0] == 200
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stream.request("GET", f"/stream?token={hub_phone['token']}")
        events = stream.getresponse()
        assert events.status == 200 and events.readline().startswith(b"event: view")
        assert call(port, "DELETE", "/api/pair/red", "sesame", {})[0] == 200
        rest = events.read()  # ends: the server closed the stream
        assert b'"role": "red"' not in rest.split(b"\n\n", 1)[-1]
        again = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        again.request("GET", f"/stream?token={hub_phone['token']}")
        assert again.getresponse().status == 401
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=15)
