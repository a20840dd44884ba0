"""Trust at the table, the web side (issue 16): authority from the credential, never from the
request; bounded, strictly parsed bodies; JSON errors that name no file; a rate limit; a Host
check; a full disk said as such; idle live streams that hold no thread."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request

import pytest
import uvicorn
from game_hubs import sekigahara_hub
from helpers import wait_for
from web_helpers import acting_player, app_for, played_hub

from companion.engine import PUBLIC, REFEREE
from companion.games import all_games
from companion.web import ARRIVED, create_app
from companion.web.asgi import CompanionServer


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(tmp_path):
    hub = sekigahara_hub(tmp_path, actions=40)
    app, tokens = app_for(hub)
    return hub, app.test_client(), tokens


def _legal(hub, role):
    return hub.session.game.legal_actions(role)[0]


# --- authority ----------------------------------------------------------------------------------

def test_who_acted_and_from_where_are_the_credentials_not_the_requests(table):
    hub, client, tokens = table
    actor = acting_player(hub)
    sent = client.post("/api/action", headers=bearer(tokens[actor]),
                       json={**_legal(hub, actor).to_json(), "source": "camera"})
    assert sent.status_code == 200, sent.get_json()
    assert hub.session.entries[-1].source == "phone"
    client.post("/api/undo", headers=bearer(tokens[actor]),
                json={"by": "referee", "source": "camera"})
    undo = hub.session.entries[-1]
    assert (undo.action.verb, undo.by, undo.source) == ("undo", actor, "phone")


def test_a_phone_undoes_only_its_own_last_action_and_never_while_paused(table):
    hub, client, tokens = table
    actor = acting_player(hub)
    other = next(r for r in hub.roles if r != actor)
    hub.act(REFEREE, _legal(hub, actor), "tablet")
    before = len(hub.session.entries)
    refused = client.post("/api/undo", headers=bearer(tokens[other]), json={})
    assert refused.status_code == 403 and "own last action" in refused.get_json()["message"]
    client.post("/api/pause", headers=bearer(tokens[REFEREE]), json={"paused": True})
    paused = client.post("/api/undo", headers=bearer(tokens[actor]), json={})
    assert paused.status_code == 403 and "paused" in paused.get_json()["message"]
    assert len(hub.session.entries) == before  # nothing taken back
    client.post("/api/pause", headers=bearer(tokens[REFEREE]), json={"paused": False})
    assert client.post("/api/undo", headers=bearer(tokens[actor]), json={}).status_code == 200
    assert client.post("/api/undo", headers=bearer(tokens[REFEREE]), json={}).status_code in (
        200, 422)  # the referee may take back anyone's (unless a draw or reveal forbids it)
    assert hub.session.entries[-1].by in (REFEREE, actor)


def test_corrections_are_not_actions_and_need_their_author_and_reason(table):
    hub, client, tokens = table
    before = len(hub.session.entries)
    for text in ('referee correct {"block":"x","to":"edo"}', 'referee undo {"seq":1}'):
        sent = client.post("/api/action", headers=bearer(tokens[REFEREE]), json={"text": text})
        assert sent.status_code == 403 and "author and a reason" in sent.get_json()["message"]
    long = client.post("/api/correct", headers=bearer(tokens[REFEREE]),
                       json={"args": {}, "by": "x" * 201, "note": "why"})
    assert long.status_code == 400
    assert len(hub.session.entries) == before


def test_a_players_credential_holds_in_its_own_game_only(tmp_path):
    hub = played_hub(tmp_path, "sekigahara")
    other = played_hub(tmp_path, "sekigahara", seed=9)  # the same database: game 2
    app, tokens = app_for(hub)
    client = app.test_client()
    actor = acting_player(other)
    shown = client.get(f"/api/replay/{other.session.game_id}",
                       headers=bearer(tokens[actor])).get_json()
    assert shown["role"] == PUBLIC
    assert shown["view"] == other.session.game.view(PUBLIC)
    own = client.get(f"/api/replay/{hub.session.game_id}", headers=bearer(tokens[actor]))
    assert own.get_json()["role"] == actor


def test_a_phones_typed_code_is_judged_by_the_live_tables_referee(tmp_path):
    """Sekigahara's referee says whose card a code is (3.3): Ishida's phone sends Ishida's
    cards only; Tokugawa's card is refused exactly as an unknown code is."""
    from companion.games.sekigahara.referee import SekigaharaReferee
    from companion.table import TableParts, TableRegistry
    from companion.table.session import TableSession

    hub = sekigahara_hub(tmp_path, actions=5)
    rules = hub.session.game.rules
    cards = {f"CARD:{c}": c for c in rules.ctx.card_side}
    registry = TableRegistry({}, cards)
    session = TableSession(hub, TableParts(None, None, SekigaharaReferee(rules, registry)))
    hub.card_owner = session.card_owner
    app, tokens = app_for(hub)
    client = app.test_client()
    mine = next(code for code, c in cards.items() if rules.ctx.card_side[c] == "ishida")
    theirs = next(code for code, c in cards.items() if rules.ctx.card_side[c] == "tokugawa")
    assert client.post("/api/scan", headers=bearer(tokens["ishida"]),
                       json={"code": mine}).status_code == 200
    refusals = {client.post("/api/scan", headers=bearer(tokens["ishida"]),
                            json={"code": code}).get_data() for code in (theirs, "CARD:nope")}
    assert len(refusals) == 1
    assert [e.code for e in hub.inputs] == [mine]


# --- what every request must pass ---------------------------------------------------------------

def test_another_sites_host_name_is_refused_on_every_route(table):
    _hub, client, tokens = table
    for path in ("/", "/api/view", "/api/board", "/stream"):
        refused = client.get(path, headers={"Host": "attacker.example"})
        assert refused.status_code == 400, path
    sent = client.post("/api/pause", headers={**bearer(tokens[REFEREE]),
                                              "Host": "attacker.example:8000"}, json={})
    assert sent.status_code == 400 and sent.is_json
    assert client.get("/api/view", headers={"Host": "127.0.0.1:8000"}).status_code == 200


def test_bodies_are_bounded_strict_and_never_stored_when_refused(table):
    hub, client, tokens = table
    actor = acting_player(hub)
    before = len(hub.session.entries)
    headers = {**bearer(tokens[actor]), "Content-Type": "application/json"}
    cases = {
        "a 200 KB body": (b'{"text": "' + b"x" * 200_000 + b'"}', 413),
        "nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, 413),
        "nested 5,000 deep": (b'{"args":' * 5000 + b"1" + b"}" * 5000, 400),
        "NaN": (json.dumps({**_legal(hub, actor).to_json(), "args": {"x": float("nan")}})
                .encode(), 400),
        "Infinity": (b'{"role":"%s","verb":"pass","args":{"x":1e999}}' % actor.encode(), 400),
        "5 KB of arguments": (json.dumps({"role": actor, "verb": "pass",
                                          "args": {"junk": "y" * 5000}}).encode(), 400),
        "a list": (b"[1, 2]", 400),
    }
    for name, (data, status) in cases.items():
        answer = client.post("/api/action", headers=headers, data=data)
        assert answer.status_code == status, (name, answer.get_data()[:200])
        assert answer.is_json and "Traceback" not in answer.get_data(as_text=True), name
    assert len(hub.session.entries) == before


def test_a_body_nested_600_deep_is_refused_in_one_line_not_a_trace(table, caplog):
    """Issue 35: ~600 levels parsed, then the recursive finiteness check crashed (500, and a
    2,000-line trace in the log). Nesting is measured without recursion: 400, a sentence."""
    hub, client, tokens = table
    actor = acting_player(hub)
    before = len(hub.session.entries)
    deep = b'{"role":"%s","verb":"pass","args":{"x":' % actor.encode() + b"[" * 600 \
        + b"]" * 600 + b"}}"
    with caplog.at_level("INFO"):
        answer = client.post("/api/action", headers=bearer(tokens[actor]), data=deep,
                             content_type="application/json")
    assert answer.status_code == 400, answer.get_data()[:200]
    assert "nested too deeply" in answer.get_json()["message"]
    assert not [r for r in caplog.records if r.exc_info or r.levelname in ("ERROR", "CRITICAL")]
    assert sum(len(r.getMessage().splitlines()) for r in caplog.records) <= 1
    assert len(hub.session.entries) == before
    shallow = client.post("/api/correct", headers=bearer(tokens[REFEREE]),
                          json={"args": {"a": [[[[1]]]]}, "by": "ref", "note": "deep enough"})
    assert shallow.status_code != 400 or "nested" not in shallow.get_json()["message"]


@pytest.mark.parametrize("paused", ["no", "false", 0, 1, None, [], {}])
def test_pause_takes_a_boolean_and_nothing_that_looks_like_one(table, paused):
    """Issue 35: `{"paused": "no"}` paused the game (any non-empty string is true to
    Python). Only `true` and `false` are answers; anything else is refused and changes
    nothing."""
    hub, client, tokens = table
    answer = client.post("/api/pause", headers=bearer(tokens[REFEREE]), json={"paused": paused})
    assert answer.status_code == 400 and "true or false" in answer.get_json()["message"]
    assert hub.paused is False
    assert client.post("/api/pause", headers=bearer(tokens[REFEREE]),
                       json={"paused": True}).get_json() == {"paused": True}
    assert client.post("/api/pause", headers=bearer(tokens[REFEREE]),
                       json={"paused": False}).get_json() == {"paused": False}


def test_the_api_answers_every_error_in_json_and_names_no_file(table):
    hub, client, _tokens = table
    path = str(hub.session.store.path)
    for url, status in (("/api/replay/99999", 404), ("/api/nothing", 404),
                        ("/api/replay/99999/turns", 404)):
        answer = client.get(url)
        assert answer.status_code == status and answer.is_json, url
        assert path not in answer.get_data(as_text=True) and "sqlite" not in answer.get_data(
            as_text=True)
    wrong_method = client.put("/api/view")
    assert wrong_method.status_code == 405 and wrong_method.is_json


def test_a_change_that_waited_too_long_is_refused_not_applied_late(table):
    hub, client, tokens = table
    before = len(hub.session.entries)
    late = client.post("/api/pause", headers=bearer(tokens[REFEREE]), json={"paused": True},
                       environ_overrides={ARRIVED: time.monotonic() - 30})
    assert late.status_code == 503 and "nothing was done" in late.get_json()["message"]
    assert hub.paused is False and len(hub.session.entries) == before


def test_a_full_disk_is_said_and_the_game_goes_on_once_there_is_room(table):
    """SQLite's own page limit stands in for a full card: the action is refused with 'the
    disk is full: not recorded', nothing half-written, and recorded once there is room."""
    hub, client, tokens = table
    store = hub.session.store
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")
    actor = acting_player(hub)
    before = len(hub.session.entries)
    action = _legal(hub, actor).to_json()
    refused = None
    for _ in range(50):  # until the next page is needed
        answer = client.post("/api/action", headers=bearer(tokens[actor]), json=action)
        if answer.status_code != 200:
            refused = answer
            break
        actor = acting_player(hub)
        action = _legal(hub, actor).to_json()
        before = len(hub.session.entries)
    assert refused is not None and refused.status_code == 507, refused and refused.get_data()
    assert refused.get_json()["message"].startswith("the disk is full: not recorded")
    assert len(hub.session.entries) == before
    assert len(store.load(hub.session.game_id).entries) == before
    store._db.execute("PRAGMA max_page_count=1073741823")
    assert client.post("/api/action", headers=bearer(tokens[actor]),
                       json=action).status_code == 200


def test_each_client_is_rate_limited(tmp_path):
    hub = sekigahara_hub(tmp_path, actions=2)
    client = create_app({"RATELIMIT_DEFAULT": "20 per second"}, hub=hub).test_client()
    codes = [client.get("/api/view").status_code for _ in range(40)]
    assert 429 in codes and codes[0] == 200
    limited = client.get("/api/view")
    assert limited.status_code == 429 and limited.is_json


# --- live streams on the event loop ---------------------------------------------------------------

class Server:
    """`CompanionServer` under uvicorn on a loopback port, in a thread."""

    def __init__(self, hub, **caps) -> None:
        app = create_app(hub=hub)
        self.referee = hub.tokens.issue(REFEREE)
        self.asgi = CompanionServer(app, threads=4, **caps)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(self.asgi, host="127.0.0.1", port=self.port,
                                                    lifespan="off", log_level="warning"))
        threading.Thread(target=self.server.run, daemon=True).start()
        wait_for(lambda: self.server.started, 10, "uvicorn to start")

    def stream(self, source: str = "127.0.0.1", token: str | None = None,
               how: str = "query") -> socket.socket:
        """A live stream from `source`, with `token` in its query or its header."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5,
                                        source_address=(source, 0))
        path, headers = "/stream", ""
        if token is not None and how == "query":
            path += f"?token={token}"
        elif token is not None:
            headers = f"Authorization: Bearer {token}\r\n"
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
        return sock

    def request(self, path: str, body: dict | None = None) -> tuple[int, float]:
        started = time.perf_counter()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", method="POST" if body is not None else "GET",
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.referee}",
                     "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
            return response.status, time.perf_counter() - started

    def close(self) -> None:
        self.server.should_exit = True


@pytest.mark.timed
def test_idle_streams_hold_no_thread_and_are_capped_per_device(tmp_path):
    """Issue 16: 40 idle streams without a token froze the threaded server. Here 128 idle
    streams from 8 devices leave the referee's view and pause answering at once; a device's
    streams beyond its cap are refused."""
    hub = sekigahara_hub(tmp_path, actions=2)
    server = Server(hub, streams_per_client=16)
    try:
        idle = [server.stream(f"127.0.0.{2 + n % 8}") for n in range(128)]
        for sock in idle:
            assert sock.recv(200).startswith(b"HTTP/1.1 200")
        assert server.asgi.streams == 128 and threading.active_count() < 40
        status, seconds = server.request("/api/view")
        assert status == 200 and seconds < 1.0
        assert server.request("/api/pause", {"paused": True})[0] == 200 and hub.paused
        extra = server.stream("127.0.0.2")
        assert extra.recv(200).startswith(b"HTTP/1.1 429")
        for sock in idle:
            sock.close()
        wait_for(lambda: server.asgi.streams == 0, 5, "the closed streams to go")
        assert server.asgi.streams == 0 and hub.subscribers == 0  # gone streams let go
    finally:
        server.close()


def _first_view(sock: socket.socket) -> tuple[int, dict | None]:
    """A stream's status, and its first view (None when refused)."""
    data = b""
    while b"\r\n\r\n" not in data or (data.startswith(b"HTTP/1.1 200")
                                       and b"\n\n" not in data.split(b"\r\n\r\n", 1)[1]):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    status = int(data.split(b" ", 2)[1])
    if status != 200:
        return status, None
    event = data.split(b"\r\n\r\n", 1)[1].decode()
    line = next(part for part in event.split("\n") if part.startswith("data: "))
    return status, json.loads(line[len("data: "):])


def test_the_stream_reads_a_credential_from_the_header_as_from_the_query(tmp_path):
    """Issue 35: `/stream` read only `?token=`, so a revoked token in the `Authorization`
    header got 200 and the public view. Now both are read the same way: a valid one gets its
    role's view, a revoked one 401, by header or by query."""
    hub = played_hub(tmp_path, "sekigahara")
    server = Server(hub)
    player = hub.roles[0]
    phone = hub.tokens.issue(player)
    try:
        for how in ("header", "query"):
            sock = server.stream(token=phone, how=how)
            status, view = _first_view(sock)
            sock.close()
            assert status == 200 and view is not None and view["role"] == player, how
        hub.revoke(player)
        for how in ("header", "query"):
            sock = server.stream(token=phone, how=how)
            assert _first_view(sock) == (401, None), how
            sock.close()
        sock = server.stream(token="never-issued", how="header")
        assert _first_view(sock) == (401, None)
        sock.close()
    finally:
        server.close()


def test_streams_are_served_by_rank(tmp_path):
    """Issue 35: one cap for every stream let idle streams without a token shut out the
    referee, the table display and the phones. Devices without a token share a cap of their
    own; each paired role has its own share; the referee's stream and the table display on
    the Pi's own screen (127.0.0.1) are served whatever else is open."""
    hub = played_hub(tmp_path, "sekigahara")
    server = Server(hub, streams=20, unknown_streams=8, streams_per_client=4)
    red, blue = hub.roles[:2]
    phones = {role: hub.tokens.issue(role) for role in (red, blue)}
    opened: list[socket.socket] = []

    def opens(source: str, token: str | None = None) -> int:
        opened.append(server.stream(source, token))
        return _first_view(opened[-1])[0]

    try:
        assert [opens(f"127.0.0.{2 + n // 4}") for n in range(8)] == [200] * 8
        assert opens("127.0.0.9") == 503  # devices without a token: their share is full
        assert [opens("127.0.0.10", phones[red]) for _ in range(12)] == [200] * 12
        assert opens("127.0.0.11", phones[blue]) == 503  # 20 streams in all
        for _ in range(3):
            assert opens("127.0.0.12", server.referee) == 200
            assert opens("127.0.0.1") == 200  # the table display on the Pi's own screen
    finally:
        for sock in opened:
            sock.close()
        server.close()


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_game_refuses_arguments_it_does_not_define(tmp_path, name):
    """A junk argument is refused by the game's rules (422, its rule), never recorded."""
    hub = played_hub(tmp_path, name)
    app, tokens = app_for(hub)
    actor = acting_player(hub)
    legal = _legal(hub, actor).to_json()
    before = len(hub.session.entries)
    sent = app.test_client().post("/api/action", headers=bearer(tokens[actor]),
                                  json={**legal, "args": {**legal["args"], "junk": "x" * 100}})
    assert sent.status_code == 422 and "junk" in sent.get_json()["message"]
    assert len(hub.session.entries) == before
