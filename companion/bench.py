"""Benchmarks: scripts that print figures (never timed tests).

`companion bench engine` measures the Sekigahara engine over random full-knowledge games,
combat included: the time to validate and apply one action (median and 95th percentile), the
same for combat actions alone, and the time to replay a whole game from its record.
"""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime
from typing import Any

from companion.engine import CHANCE, Action, Game, chance_rng, pick_action, rules_class
from companion.kits import load_kit
from companion.record import record_of, replay

__all__ = ["bench_engine"]

COMBAT_VERBS = {"declare", "castle", "deploy", "done", "challenge", "prove", "defect",
                "casualties", "retreat"}


def _play(seed: int, timings: list[tuple[str, float]]) -> Game[Any]:
    game: Game[Any] = Game(rules_class("sekigahara")(load_kit("sekigahara")), seed=seed)
    while game.outcome is None and len(game.history) < 10_000:
        step = len(game.history)
        roles = game.to_move()
        rng = chance_rng(seed, step if CHANCE in roles else -1 - step)
        picked = (game.rules.sample_chance(game.state, rng) if CHANCE in roles
                  else pick_action(game, roles, rng))
        assert picked is not None, f"dead end at step {step}"
        action: Action = picked
        start = time.perf_counter()
        game.apply(action)
        timings.append((action.verb, time.perf_counter() - start))
    return game


def _percentiles(values: list[float]) -> tuple[float, float]:
    ms = sorted(v * 1000 for v in values)
    return round(statistics.median(ms), 4), round(ms[int(0.95 * (len(ms) - 1))], 4)


def bench_engine(actions: int = 5000, seed: int = 0) -> dict[str, Any]:
    """Play random games until `actions` actions were applied; time each, then the replays."""
    timings: list[tuple[str, float]] = []
    games: list[Game[Any]] = []
    while len(timings) < actions:
        games.append(_play(seed + len(games), timings))
    replays = []
    for game in games:
        record = record_of(game, game.rules.kit, started_at=datetime.now(UTC),
                           source="simulator")
        start = time.perf_counter()
        result = replay(record)
        replays.append(time.perf_counter() - start)
        assert result.ok, result.problem
    p50, p95 = _percentiles([t for _, t in timings])
    c50, c95 = _percentiles([t for verb, t in timings if verb in COMBAT_VERBS])
    return {
        "actions": len(timings), "games": len(games),
        "action_ms_p50": p50, "action_ms_p95": p95,
        "combat_actions": sum(1 for verb, _ in timings if verb in COMBAT_VERBS),
        "combat_action_ms_p50": c50, "combat_action_ms_p95": c95,
        "replay_game_s": round(statistics.median(replays), 4),
        "replay_game_s_max": round(max(replays), 4),
        "avg_actions_per_game": round(statistics.mean(len(g.history) for g in games), 1),
    }


def _long_skirmish(actions: int) -> Game[Any]:
    """A Skirmish game of exactly `actions` actions: sides march back and forth and pass."""
    game: Game[Any] = Game(rules_class("skirmish")(load_kit("skirmish"),
                                                   {"turns": actions + 10}))
    rng = chance_rng(0, 0)
    while len(game.history) < actions:
        role = game.to_move()[0]
        moves = [a for a in game.legal_actions(role) if a.verb != "move"
                 or a.args["to"] not in ("red_camp", "blue_camp", "hill")]
        game.apply(rng.choice(moves))
    return game


def bench_record(appends: int = 500, long_game: int = 2000) -> dict[str, Any]:
    """Durable appends per second, and load-and-replay of a `long_game`-action game."""
    import tempfile
    from pathlib import Path

    from companion.record.format import Entry
    from companion.record.store import Store

    sample = _play(1, [])
    entries = record_of(sample, sample.rules.kit, started_at=datetime.now(UTC),
                        source="simulator")
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch) / "bench.sqlite")
        game_id = store.create(entries.header)
        plays = [e for _, e in zip(range(appends), _cycle(entries.entries), strict=False)]
        start = time.perf_counter()
        for seq, entry in enumerate(plays, start=1):
            store.append(game_id, Entry(seq, entry.time, entry.source, entry.action,
                                        entry.events))
        append_s = time.perf_counter() - start
        long = _long_skirmish(long_game)
        record = record_of(long, long.rules.kit, started_at=datetime.now(UTC), source="tablet")
        long_id = store.create(record.header)
        for entry in record.entries:
            store.append(long_id, entry)
        start = time.perf_counter()
        result = replay(store.load(long_id))
        replay_s = time.perf_counter() - start
        assert result.ok and result.applied == long_game, result.problem
        start = time.perf_counter()
        sekigahara = store.create(entries.header)
        for entry in entries.entries:
            store.append(sekigahara, entry)
        assert replay(store.load(sekigahara)).ok
        store.close()
    return {
        "appends": appends, "appends_per_s": round(appends / append_s, 1),
        "replay_2000_s": round(replay_s, 4), "replay_game": "skirmish",
        "replay_actions": long_game,
        "sekigahara_store_and_replay_s": round(time.perf_counter() - start, 4),
        "sekigahara_actions": len(entries.entries),
    }


def _cycle(entries: Any) -> Any:
    while True:
        yield from entries


def bench_web(clients: int = 5, actions: int = 60) -> dict[str, Any]:
    """Serve a game with `companion serve`, connect `clients` live streams on loopback, apply
    `actions` actions through the API and time each until every client has the new view."""
    import http.client
    import json
    import os
    import socket
    import subprocess
    import sys
    import tempfile
    import threading
    from pathlib import Path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", str(Path(scratch) / "bench.sqlite"), "--new", "sekigahara",
             "--referee-token", "bench"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            env=os.environ.copy())
        try:
            _wait_for(port)
            arrivals: list[dict[int, float]] = [{} for _ in range(clients)]
            for index in range(clients):
                threading.Thread(target=_listen, args=(port, arrivals[index]),
                                 daemon=True).start()
            while any(0 not in seen for seen in arrivals):
                time.sleep(0.01)
            game: Game[Any] = Game(rules_class("sekigahara")(load_kit("sekigahara")), seed=0)
            sent: dict[int, float] = {}
            for version in range(1, actions + 1):
                action = _next_action(game, version)
                sent[version] = time.perf_counter()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("POST", "/api/action", json.dumps(action.to_json()), {
                    "Content-Type": "application/json", "Authorization": "Bearer bench"})
                assert connection.getresponse().status == 200
                game.apply(action)
                deadline = time.perf_counter() + 5
                while any(version not in seen for seen in arrivals):
                    assert time.perf_counter() < deadline, "a client missed an update"
                    time.sleep(0.0005)
        finally:
            server.terminate()
            server.wait(timeout=10)
    latencies = sorted((seen[v] - sent[v]) * 1000 for seen in arrivals for v in sent)
    return {"clients": clients, "actions": actions,
            "update_ms_p50": round(statistics.median(latencies), 2),
            "update_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 2)}


def _wait_for(port: int) -> None:
    import socket

    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def _listen(port: int, seen: dict[int, float]) -> None:
    """A client: read the stream, note when each version arrives."""
    import http.client
    import json

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/stream?token=bench")
    response = connection.getresponse()
    while True:
        line = response.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            seen[json.loads(line[6:])["version"]] = time.perf_counter()


def _next_action(game: Game[Any], step: int) -> Action:
    roles = game.to_move()
    rng = chance_rng(0, step)
    if CHANCE in roles:
        return game.rules.sample_chance(game.state, rng)
    action = pick_action(game, roles, rng)
    assert action is not None
    return action


def bench_inputs(frames: int = 20_000) -> dict[str, Any]:
    """RFID frames parsed per second; card decoding in the scan area against a whole frame."""
    import io

    import segno
    from PIL import Image

    from companion.inputs.barcode import CardArea, decode_codes
    from companion.inputs.serial_readers import Rdm6300Parser

    stream = b""
    for n in range(frames):
        data = bytes.fromhex(f"{0x0A000000 + n:010X}")
        xor = 0
        for byte in data:
            xor ^= byte
        stream += b"\x02" + data.hex().upper().encode() + f"{xor:02X}".encode() + b"\x03"
    parser = Rdm6300Parser()
    start = time.perf_counter()
    scans = sum(1 for chunk in range(0, len(stream), 64)
                for _ in parser.feed(stream[chunk:chunk + 64]))
    serial_s = time.perf_counter() - start
    assert scans == frames
    out = io.BytesIO()
    segno.make("CARD:T-maeda-special-2", error="m").save(out, kind="png", scale=6, border=4)
    out.seek(0)
    frame = Image.new("RGB", (4056, 3040), (90, 120, 80))  # a 12 MP still
    frame.paste(Image.open(out).convert("RGB"), (3400, 2400))
    area = CardArea(3300, 2300, 600, 600)
    crop_ms = _median_ms(lambda: decode_codes(frame, area), 20)
    full_ms = _median_ms(lambda: decode_codes(frame), 3)
    return {"serial_frames_per_s": round(frames / serial_s), "zbar_crop_ms": crop_ms,
            "zbar_full_ms": full_ms, "frame": "4056x3040"}


def _median_ms(work: Any, times: int) -> float:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        assert work()
        spent.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(spent), 2)


def bench_referee(game: str = "sekigahara", games: int = 20, seed: int = 0) -> dict[str, Any]:
    """Random games acted out at the table by the game's simulated player and read back by
    its table referee (the game's `simulator` capability)."""
    from companion.games import game as game_spec

    figures: dict[str, Any] = game_spec(game).need("simulator").bench_referee(games, seed)
    return figures
