"""The tournament broadcast against a real mosquitto on loopback, with passwords and ACLs on.

Tables are real recorded games (a store, a session, a hub) broadcasting with the publisher
`companion serve --broadcast` starts; the dashboard is the real subscriber and store. The leak
sweep reads every message on every topic of the event (as the broker's read-only monitor user),
a whole game of every registered game, and looks for anything the game hid at that moment, as
written or in words, with a checker built from the game's own `need_secrets()`
(`leak_check.py`; `test_broadcast_leaks.py` sweeps more whole games without the broker).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from click.testing import CliRunner
from helpers import wait_for
from leak_check import checker_for
from paho.mqtt.enums import CallbackAPIVersion
from web_helpers import played_hub

from companion.broadcast import BroadcastError, check_broker, parse_url, start_publisher
from companion.broadcast.dashboard import create_dashboard, standings
from companion.broadcast.mosquitto import DASHBOARD, MONITOR, Broker
from companion.broadcast.public import strings_in
from companion.broadcast.store import BroadcastStore
from companion.broadcast.subscriber import Subscriber, missing
from companion.cli import main
from companion.engine import CHANCE, PUBLIC, REFEREE, chance_rng, pick_action
from companion.games import all_games
from companion.record import read_record
from companion.record.replay import Replayer
from companion.record.session import Session, UndoRefused, import_record
from companion.record.store import Store
from companion.serve import ServeOptions, build_app
from companion.web.hub import Hub

# mosquitto and openssl come from system-packages-test.txt: without them these tests fail
# (never skip), so a green run always means the broadcast was tested.

EVENT = "club-night"
TABLES = [f"t{n}" for n in range(1, 9)]
PASSWORDS = {**{t: f"pw-{t}" for t in TABLES}, DASHBOARD: "pw-dash", MONITOR: "pw-mon"}


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    running = Broker.for_event(tmp_path_factory.mktemp("broker"), EVENT, PASSWORDS).start()
    yield running
    running.stop()


def url(broker: Broker, user: str, password: str | None = None) -> str:
    return (f"mqtt://{user}:{password or PASSWORDS[user]}@127.0.0.1:{broker.port}/{EVENT}")


class Dashboard:
    """The dashboard's subscriber and store (its own SQLite file)."""

    def __init__(self, broker: Broker, folder: Path) -> None:
        self.store = BroadcastStore(folder / "broadcast.sqlite")
        self.subscriber = Subscriber(parse_url(url(broker, DASHBOARD)), self.store,
                                     ask_every=0.3).start()
        self.subscriber.wait_connected(10)

    def wait_for(self, table: str, game_id: int, count: int, timeout: float = 20) -> None:
        wait_for(lambda: self.store.seqs(table, game_id) == list(range(1, count + 1)), timeout,
                 lambda: f"{table}: {self.store.seqs(table, game_id)} of {count}", every=0.05)

    def close(self) -> None:
        self.subscriber.stop()
        self.store.close()


class Monitor:
    """Every message on every topic of the event, as the broker delivers them."""

    def __init__(self, broker: Broker) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.client = parse_url(url(broker, MONITOR)).client("monitor")
        subscribed = threading.Event()
        self.client.on_connect = lambda c, *_: c.subscribe(f"companion/{EVENT}/#", qos=1)
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.on_message = lambda _c, _u, m: self.messages.append((m.topic, m.payload))
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert subscribed.wait(10)

    def fence(self, broker: Broker) -> None:
        """Until every message the broker took before now has reached the monitor: a marker
        published now (a resend request for t1) comes after them, mosquitto delivering to each
        subscriber in the order it took the messages."""
        marker = f"fence {time.monotonic_ns()}"
        topic = f"companion/{EVENT}/tables/t1/requests"
        assert _publish_as(broker, DASHBOARD, topic, marker) == "Success"
        wait_for(lambda: (topic, marker.encode()) in self.messages, 10, "the monitor's fence")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def dashboard(broker, tmp_path):
    board = Dashboard(broker, tmp_path)
    yield board
    board.close()


def test_urls_name_the_broker_event_and_table():
    parsed = parse_url("mqtts://t3:s%40cret@broker.local/club-night?ca=/etc/ca.crt")
    assert (parsed.host, parsed.port, parsed.event, parsed.username, parsed.password) == (
        "broker.local", 8883, "club-night", "t3", "s@cret")
    assert parsed.tls and parsed.ca == Path("/etc/ca.crt")
    assert parsed.topics().actions == "companion/club-night/tables/t3/actions"
    assert "s@cret" not in parsed.redacted()
    for bad in ("http://host/e", "mqtt://host", "mqtt://host/Bad Event", "mqtt://host/a/b"):
        with pytest.raises(BroadcastError):
            parse_url(bad)
    with pytest.raises(BroadcastError, match="user name"):
        parse_url("mqtt://host/e").topics()
    with pytest.raises(BroadcastError, match="dashboard"):
        parse_url("mqtt://dashboard:x@host/e").topics()


def test_gaps_are_runs_of_missing_sequence_numbers():
    assert missing([1, 2, 5, 6, 9], 10) == [(3, 4), (7, 8), (10, 10)]
    assert missing([], 3) == [(1, 3)]
    assert missing([1, 2, 3], 3) == []


def test_every_action_undo_and_correction_reaches_the_dashboard_once(broker, dashboard,
                                                                     tmp_path):
    """Served as `companion serve --broadcast` serves it: the dashboard's record of the table
    equals the table's own public record, an undo arrives as a retraction of its number and a
    correction as such."""
    hub = played_hub(tmp_path, "sekigahara", actions=25)
    app = build_app(ServeOptions(db=hub.session.store.path, game_id=hub.session.game_id,
                                 referee_token="r", broadcast=url(broker, "t1")))
    publisher = app.extensions["broadcast"]
    table = app.extensions["hub"]
    session = table.session
    try:
        taken_back = _undo_something(table)
        block = next(iter(session.game.rules.ctx.owner))
        table.correct({"block": block, "to": "eliminated"}, by="Ref", note="fell off the map")
        assert publisher.wait_drained(20)
        count = len(session.entries)
        dashboard.wait_for("t1", session.game_id, count)
        own = [json.loads(p) for _, p in publisher.outbox.payloads(1, count)]
    finally:
        publisher.stop()
    messages = dashboard.store.messages("t1", session.game_id)
    assert messages == own  # the broadcast's record of the table is the table's own
    assert [m["seq"] for m in messages] == list(range(1, count + 1))
    undo = messages[-2]
    assert undo["kind"] == "retraction" and undo["retracts"] == [taken_back]
    assert messages[-1]["kind"] == "correction" and messages[-1]["by"] == "Ref"
    assert "fell off" not in json.dumps(messages)  # a referee's note stays at the table
    assert messages[-1]["view"] == session.game.view(PUBLIC)


def _undo_something(hub) -> int:
    """Play on until the last action may be taken back, and take it back; its number."""
    for step in range(200):
        try:
            target = hub.session.entries[-1].seq
            hub.undo(REFEREE)
            return target
        except UndoRefused:
            game = hub.session.game
            rng = chance_rng(99, step)
            roles = game.to_move()
            action = (game.rules.sample_chance(game.state, rng) if CHANCE in roles
                      else pick_action(game, roles, rng))
            hub.act(REFEREE, action, "simulator")
    raise AssertionError("nothing could be undone")


def test_a_table_publishes_only_under_its_own_topic(broker, dashboard):
    """The broker's ACLs: a table's publish under another table's topic, or the dashboard's
    under any table's actions, is refused and reaches nobody."""
    monitor = Monitor(broker)
    answers: dict[str, str] = {}
    try:
        for user, topic in (("t2", f"companion/{EVENT}/tables/t3/actions"),
                            ("t2", f"companion/{EVENT}/tables/t3/state"),
                            (DASHBOARD, f"companion/{EVENT}/tables/t3/actions"),
                            ("t2", f"companion/{EVENT}/tables/t2/actions")):
            answers[f"{user} {topic}"] = _publish_as(broker, user, topic)
        monitor.fence(broker)  # a refused message that got through would have arrived
    finally:
        monitor.close()
    refused = [k for k, v in answers.items() if v == "Not authorized"]
    assert len(refused) == 3, answers
    assert answers[f"t2 companion/{EVENT}/tables/t2/actions"] == "Success"
    assert [t for t, _ in monitor.messages if t.endswith("/t3/actions") or
            t.endswith("/t3/state")] == []


def test_the_dashboard_may_only_ask_and_a_table_reads_only_its_own_requests(broker):
    """The ACL decision (docs/broadcast.md): the dashboard writes nothing but resend requests,
    a table never writes one, and a table reads only the requests addressed to it, whatever
    it subscribes to. Checked against the real broker's ACLs, as each user."""
    base = f"companion/{EVENT}/tables"
    heard = {user: _listen_as(broker, user, f"{base}/+/requests") for user in ("t2", "t3")}
    answers: dict[str, str] = {}
    try:
        for user, topic in ((DASHBOARD, f"{base}/t3/requests"), (DASHBOARD, f"{base}/t2/requests"),
                            (DASHBOARD, f"{base}/t3/state"), (DASHBOARD, f"companion/{EVENT}/x"),
                            ("t2", f"{base}/t3/requests"), ("t2", f"{base}/t2/requests")):
            answers[f"{user} {topic}"] = _publish_as(broker, user, topic)
        for user, (_client, messages) in heard.items():  # what got through would have arrived
            marker = f"fence {time.monotonic_ns()}"
            fence = (f"{base}/{user}/requests", marker.encode())
            _publish_as(broker, DASHBOARD, fence[0], marker)
            wait_for(lambda m=messages, f=fence: f in m, 10, f"{user}'s fence")
            assert messages.pop() == fence
    finally:
        for client, _messages in heard.values():
            client.disconnect()
            client.loop_stop()
    assert answers == {
        f"dashboard {base}/t3/requests": "Success", f"dashboard {base}/t2/requests": "Success",
        f"dashboard {base}/t3/state": "Not authorized",
        f"dashboard companion/{EVENT}/x": "Not authorized",
        f"t2 {base}/t3/requests": "Not authorized", f"t2 {base}/t2/requests": "Not authorized",
    }
    # the dashboard's request, and no other
    assert [topic for topic, _ in heard["t3"][1]] == [f"{base}/t3/requests"]
    assert [topic for topic, _ in heard["t2"][1]] == [f"{base}/t2/requests"]


def _listen_as(broker: Broker, user: str, topic: str
               ) -> tuple[mqtt.Client, list[tuple[str, bytes]]]:
    """A client of `user` subscribed to `topic`; what the broker delivers it."""
    topics: list[tuple[str, bytes]] = []
    subscribed = threading.Event()
    client = parse_url(url(broker, user)).client(f"listen-{user}")
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    client.on_subscribe = lambda *_: subscribed.set()
    client.on_message = lambda _c, _u, m: topics.append((m.topic, m.payload))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert subscribed.wait(10)
    return client, topics


def _publish_as(broker: Broker, user: str, topic: str, payload: str | None = None) -> str:
    """Publish one QoS 1 message as `user` (by default, an action's); the broker's reason
    code for it."""
    done = threading.Event()
    reason: list[str] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{user}",
                         protocol=mqtt.MQTTv5)
    client.username_pw_set(user, PASSWORDS[user])
    client.on_publish = lambda _c, _u, _m, code, _p: (reason.append(str(code)), done.set())
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish(topic, payload or json.dumps({"table": "t3", "event": EVENT, "kind": "action",
                                                 "game_id": 1, "seq": 99}), qos=1)
    assert done.wait(10)
    client.disconnect()
    client.loop_stop()
    return reason[0]


def test_a_table_refuses_a_broker_it_cannot_authenticate_to(broker, tmp_path):
    with pytest.raises(BroadcastError, match="refused"):
        check_broker(parse_url(url(broker, "t4", "wrong")))
    assert check_broker(parse_url(url(broker, "t4"))) is True
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "g.sqlite"), "--new",
                                       "sekigahara", "--broadcast", url(broker, "t4", "wrong")])
    assert result.exit_code == 1 and "refused" in result.output


def test_the_table_plays_offline_and_broadcasts_once_the_broker_is_up(tmp_path):
    """No broker at first: the game is recorded as always, the outbox holds the messages, and
    they all arrive once a broker is there; a dashboard that joins later catches up from the
    table's retained state and resend requests."""
    broker = Broker.for_event(tmp_path / "broker", EVENT, PASSWORDS)
    hub = played_hub(tmp_path, "rumble_nation", actions=10)
    assert check_broker(parse_url(url(broker, "t5"))) is False
    publisher = start_publisher(hub, url(broker, "t5"))
    try:
        wait_for(lambda: publisher.outbox.built == len(hub.session.entries), 10,
                 "the outbox to hold the game")
        assert publisher.outbox.pending() == len(hub.session.entries)
        broker.start()
        assert publisher.wait_drained(20)
        late = Dashboard(broker, tmp_path)  # joins after everything was sent
        try:
            late.wait_for("t5", hub.session.game_id, len(hub.session.entries))
            assert late.subscriber.requests >= 1
        finally:
            late.close()
    finally:
        publisher.stop()
        broker.stop()


def _play_on(hub, actions: int, seed: int = 7) -> None:
    """Record `actions` more actions at the table, as its players would."""
    for step in range(actions):
        game = hub.session.game
        rng = chance_rng(seed, len(hub.session.entries) + step)
        roles = game.to_move()
        hub.act(REFEREE, game.rules.sample_chance(game.state, rng) if CHANCE in roles
                else pick_action(game, roles, rng), "simulator")


def test_a_publisher_handed_messages_with_no_connection_still_drains(tmp_path):
    """Issue 23's liveness bug: paho notices a lost connection on its own thread and tells the
    publisher (`on_disconnect`) a moment later; a message handed to it in between came back
    `MQTT_ERR_NO_CONN`, its `is_published()` raised for ever after, every later step of the
    publisher failed on it, and the outbox never drained again. Here that moment is held open
    (the broker dead, paho told, the publisher's `connected` set again as if not yet told)
    while the table records; once the broker is back, the outbox must drain."""
    hub = played_hub(tmp_path, "rumble_nation", actions=6)
    broker = Broker.for_event(tmp_path / "broker", EVENT, PASSWORDS).start()
    publisher = start_publisher(hub, url(broker, "t2"))
    try:
        assert publisher.wait_drained(20)
        broker.kill()
        wait_for(lambda: not publisher.connected.is_set(), 10, "paho to see the broker die",
                 every=0.002)
        publisher.connected.set()  # the moment before on_disconnect, held open
        _play_on(hub, 3)
        wait_for(lambda: publisher.figures["not_taken"] >= 1, 10,
                 "the publisher to hand an action to a client with no connection")
        broker.start()
        assert publisher.wait_drained(20), (publisher.outbox.pending(), publisher.figures)
    finally:
        publisher.stop()
        broker.stop()


@pytest.mark.slow
def test_a_publisher_whose_broker_dies_with_messages_in_flight_still_drains(tmp_path):
    """The same race, as it happens: a table with a whole game to send (a new broker is a
    new channel: everything goes again) whose broker is killed the instant it connects, while
    the publisher hands the client its messages; three times. Each time the broker comes
    back, the outbox must drain. (Before the fix, 2 runs in 4 of this never drained.)"""
    whole = played_hub(tmp_path, "sekigahara", actions=10_000)  # about 300 record lines
    for attempt in range(3):
        broker = Broker.for_event(tmp_path / f"b{attempt}", EVENT, PASSWORDS).start()
        publisher = start_publisher(whole, url(broker, "t2"))
        try:
            wait_for(publisher.connected.is_set, 10, "the publisher to connect", every=0.002)
            broker.kill()  # while it hands the client its whole game
            wait_for(lambda p=publisher: not p.connected.is_set(), 10,
                     "paho to see the broker die", every=0.002)
            broker.start()
            assert publisher.wait_drained(20), (attempt, publisher.outbox.pending(),
                                                publisher.figures)
        finally:
            publisher.stop()
            broker.stop()


SWEPT = dict(zip(sorted(all_games()), ("t3", "t4", "t5", "t6", "t7"), strict=False))
"""The table each game is broadcast from in the leak sweep (tables no other test of this
module publishes as, so every message heard on their topics is the sweep's)."""


def test_no_message_on_any_topic_carries_hidden_information(broker, dashboard, tmp_path):
    """Every registered game, a whole game each (its reference record), broadcast through the
    real broker: every message on every topic of its table, read as the broker delivers it,
    says nothing the game hid from the public after that message's line, as written or in
    words (the checker is built from the game's own `need_secrets()`, tests/leak_check.py)."""
    assert len(SWEPT) == len(all_games()), "a table for every game"
    monitor = Monitor(broker)
    played = []
    try:
        for name, table in SWEPT.items():
            store = Store(tmp_path / f"{table}.sqlite")
            game_id = import_record(store, read_record(all_games()[name].sample()))
            hub = Hub(Session.resume(store, game_id))
            publisher = start_publisher(hub, url(broker, table))
            assert publisher.wait_drained(60)
            dashboard.wait_for(table, game_id, len(hub.session.entries), timeout=60)
            publisher.stop()
            played.append((name, table, hub))
        monitor.fence(broker)
    finally:
        monitor.close()
    for name, table, hub in played:
        after = _states_after_each_line(hub)
        check = checker_for(name, PUBLIC)
        mine = [(t, p) for t, p in monitor.messages if f"/tables/{table}/" in t]
        assert len(mine) >= len(hub.session.entries)
        for topic, payload in mine:
            body = json.loads(payload)
            rules, state = after[body.get("seq", body.get("last_seq"))]
            leaked = check.leaks(rules, state, payload.decode(), strings_in(body))
            assert not leaked, f"{name}: {topic} {body.get('seq')} says {leaked[:3]}"
            assert "hash" not in body and "note" not in body


def _states_after_each_line(hub) -> list[tuple[Any, Any]]:
    """(rules, state) after each record line (index 0: before the first)."""
    replayer = Replayer(hub.session.header, "check")
    after = [(replayer.game.rules, replayer.game.state)]
    for entry in hub.session.entries:
        assert replayer.feed(entry) is None
        after.append((replayer.game.rules, replayer.game.state))
    return after


def test_the_dashboard_shows_replays_ranks_and_exports(broker, dashboard, tmp_path):
    hub = played_hub(tmp_path, "rumble_nation", actions=10_000)  # a whole game: a winner
    assert hub.session.game.outcome is not None
    publisher = start_publisher(hub, url(broker, "t8"))
    try:
        assert publisher.wait_drained(30)
        dashboard.wait_for("t8", hub.session.game_id, len(hub.session.entries))
    finally:
        publisher.stop()
    names = {"t8": {"red": "Ana R."}}
    app = create_dashboard(dashboard.store, EVENT, names)
    client = app.test_client()
    tables = client.get("/api/tables").get_json()
    row = next(r for r in tables["tables"] if r["table"] == "t8")
    assert row["outcome"] == hub.session.game.outcome.to_json()
    assert row["players"]["red"] == "Ana R." and row["received"] == len(hub.session.entries)
    winner = hub.session.game.outcome.winner
    ranked = standings(dashboard.store, names)
    top = {"red": "Ana R."}.get(winner) or hub.session.header.players.get(winner)
    assert any(line["player"] == top and line["wins"] >= 1 for line in ranked)
    game_id = hub.session.game_id
    for path in ("/", "/tables/t8", "/tables/t8?thumb=1", f"/tables/t8/{game_id}/replay",
                 "/static/dashboard.js", "/games/rumble_nation/screen.js",
                 f"/board/{hub.session.header.kit.id}"):
        assert client.get(path).status_code == 200, path
    replay = client.get(f"/api/tables/t8/games/{game_id}").get_json()
    assert len(replay["messages"]) == len(hub.session.entries)
    latest = client.get("/api/tables/t8/latest").get_json()
    seq = latest["message"]["seq"]
    assert client.get(f"/api/tables/t8/latest?game={game_id}&after={seq}").status_code == 204
    archive = zipfile.ZipFile(io.BytesIO(client.get("/export.zip").data))
    lines = archive.read(f"t8-game{game_id}.jsonl").decode().splitlines()
    assert len(lines) == 1 + len(hub.session.entries)
    out = tmp_path / "export"
    result = CliRunner().invoke(main, ["broadcast", url(broker, DASHBOARD), "--db",
                                       str(dashboard.store.path), "--export", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / f"t8-game{game_id}.jsonl").read_text().splitlines() == lines


def test_the_bench_reports_its_figures():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "broadcast", "--tables", "3", "--actions",
         "6", "--pace", "0.05", "--json"],
        capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["lost"] == 0 and figures["duplicated"] == 0 and figures["differing"] == 0
    assert figures["actions"] == 18 and figures["delivery_ms_p95"] is not None
    assert figures["actions_per_s"] > 0


def test_tls_brokers_are_trusted_only_through_the_given_ca(tmp_path):
    ca, cert, key = _certificates(tmp_path / "tls")
    broker = Broker.for_event(tmp_path / "broker", EVENT, PASSWORDS,
                              tls={"cafile": ca, "certfile": cert, "keyfile": key}).start()
    try:
        secure = f"mqtts://t1:{PASSWORDS['t1']}@127.0.0.1:{broker.port}/{EVENT}"
        assert check_broker(parse_url(f"{secure}?ca={ca}")) is True
        with pytest.raises(BroadcastError, match="cannot be trusted"):
            check_broker(parse_url(secure))  # the system's CAs never signed the test's broker
        with pytest.raises(BroadcastError, match="refused"):
            check_broker(parse_url(f"mqtts://t1:wrong@127.0.0.1:{broker.port}/{EVENT}?ca={ca}"))
    finally:
        broker.stop()


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A throw-away CA and a broker certificate for 127.0.0.1, signed by it."""
    folder.mkdir()
    ca, ca_key = folder / "ca.crt", folder / "ca.key"
    cert, key, request = folder / "broker.crt", folder / "broker.key", folder / "broker.csr"
    san = folder / "san.cnf"
    san.write_text("subjectAltName=IP:127.0.0.1\n")
    for command in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=test CA",
         "-keyout", ca_key, "-out", ca],
        ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", key,
         "-out", request],
        ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
         "-days", "2", "-extfile", san, "-out", cert],
    ):
        subprocess.run(["openssl", *map(str, command)], check=True, capture_output=True)
    for path in (ca, cert, key):
        path.chmod(0o644)
    return ca, cert, key
