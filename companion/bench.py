"""Benchmarks: scripts that print figures (never timed tests).

`companion bench engine --game NAME` measures any game's rules over seeded random games played
with full knowledge, the way the fuzzer plays them: the time to validate and apply one action
(median and 95th percentile, over all actions and per verb), and the time to replay a whole
game from its record. Per-verb figures replace a game's own notion of "combat actions": the
slow verbs show up by name whatever the game calls them. A game may add figures of its own
(its `engine_bench` capability). Nothing here names a game except as a default.

Every benchmark takes an optional `tick(done, total)`: how far it has got, for a progress bar.
It is called between timed steps, never inside one, so a bar costs the figures nothing; the
units are the benchmark's own (actions, frames, steps) and `total` may grow once known.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from companion.engine import CHANCE, Action, Game, chance_rng, pick_action
from companion.games import AnyGame, MissingCapability, all_games, default_game
from companion.games import game as game_spec
from companion.kits import Kit, load_kit
from companion.record import record_of, replay

__all__ = ["Tick", "bench_engine", "bench_inputs", "bench_record", "bench_referee", "bench_web",
           "describe_engine", "describe_referee", "takes_tick"]

Tick = Callable[[int, int], None]
"""A benchmark's progress: `tick(done, total)`, called between timed steps."""


def _no_tick(_done: int, _total: int) -> None:
    """No progress bar: the default `tick`."""


def takes_tick(run: Callable[..., Any]) -> bool:
    """Whether a game's benchmark (`run`) takes a `tick` keyword: older ones, and a game's
    own that has no steps worth showing, need not."""
    import inspect

    try:
        return "tick" in inspect.signature(run).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return False

def _spec(game: str | None) -> AnyGame:
    """The game named (or aliased), else the default game."""
    return game_spec(game) if game else default_game()


MAX_ACTIONS = 10_000
"""A random game still going after this many actions is cut there (a runaway: `companion sim`
reports those)."""


def _play(spec: AnyGame, kit: Kit, seed: int,
          timings: list[tuple[str, float]]) -> Game[Any]:
    """One seeded random game of `spec`, each action's validate+apply timed by verb."""
    game: Game[Any] = Game(spec.rules(kit), seed=seed)
    while game.outcome is None and len(game.history) < MAX_ACTIONS:
        step = len(game.history)
        roles = game.to_move()
        rng = chance_rng(seed, step if CHANCE in roles else -1 - step)
        picked = (game.rules.sample_chance(game.state, rng) if CHANCE in roles
                  else pick_action(game, roles, rng))
        if picked is None:
            raise RuntimeError(f"{spec.title}, seed {seed}: a dead end after {step} actions "
                               f"(waiting for {', '.join(roles)}, nothing legal)")
        action: Action = picked
        start = time.perf_counter()
        game.apply(action)
        timings.append((action.verb, time.perf_counter() - start))
    return game


def _percentiles(values: list[float]) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds (nearest rank: never below the median)."""
    ms = sorted(v * 1000 for v in values)
    return round(statistics.median(ms), 4), round(ms[math.ceil(0.95 * len(ms)) - 1], 4)


def bench_engine(game: str | None = None, actions: int = 5000, seed: int = 0,
                 tick: Tick | None = None) -> dict[str, Any]:
    """Play random games of `game` until `actions` actions were applied; time each, per verb,
    then replay every game from its record. Raises UnknownGameName for a name no game has.

    `tick` counts actions played, then actions replayed (each game's, once it is done)."""
    if actions < 1:
        raise ValueError(f"actions must be at least 1, got {actions}")
    progress = tick or _no_tick
    spec = _spec(game)
    kit = load_kit(spec.kit)
    timings: list[tuple[str, float]] = []
    games: list[Game[Any]] = []
    while len(timings) < actions:
        games.append(_play(spec, kit, seed + len(games), timings))
        progress(min(len(timings), actions), 2 * actions)
    replays = []
    replayed = len(timings)
    for played in games:
        record = record_of(played, kit, started_at=datetime.now(UTC), source="simulator")
        start = time.perf_counter()
        result = replay(record)
        replays.append(time.perf_counter() - start)
        if not result.ok:
            raise RuntimeError(f"{spec.title}: a random game's record does not replay: "
                               f"{result.problem}")
        replayed += len(played.history)
        progress(replayed, 2 * len(timings))
    by_verb: dict[str, list[float]] = defaultdict(list)
    for verb, spent in timings:
        by_verb[verb].append(spent)
    p50, p95 = _percentiles([t for _, t in timings])
    verbs = {verb: dict(zip(("ms_p50", "ms_p95"), _percentiles(spent), strict=True),
                        actions=len(spent))
             for verb, spent in sorted(by_verb.items())}
    return {
        "game": spec.name, "seed": seed,
        "actions": len(timings), "games": len(games),
        "action_ms_p50": p50, "action_ms_p95": p95,
        "verbs": verbs,
        "replay_game_s": round(statistics.median(replays), 4),
        "replay_game_s_max": round(max(replays), 4),
        "avg_actions_per_game": round(statistics.mean(len(g.history) for g in games), 1),
        "unfinished_games": sum(1 for g in games if g.outcome is None),
    }


def describe_engine(f: dict[str, Any], slowest: int = 5) -> list[str]:
    """The engine figures in sentences: all actions, the slowest verbs, whole replays."""
    verbs = sorted(f["verbs"].items(), key=lambda kv: -kv[1]["ms_p95"])[:slowest]
    return [
        f"{f['game']}: validate+apply median {f['action_ms_p50']} ms, 95th percentile "
        f"{f['action_ms_p95']} ms over {f['actions']} actions ({f['games']} games)",
        "slowest verbs (95th percentile): " + ", ".join(
            f"{verb} {v['ms_p95']} ms ({v['actions']})" for verb, v in verbs),
        f"replay of a whole game ({f['avg_actions_per_game']} actions on average): "
        f"median {f['replay_game_s']} s, slowest {f['replay_game_s_max']} s"
        + (f"; {f['unfinished_games']} games cut at {MAX_ACTIONS} actions"
           if f["unfinished_games"] else "")]


def _long_game(actions: int) -> Game[Any]:
    """A game of exactly `actions` actions, from the game that offers one (`long_game`: the
    engine core's reference game, whose `turns` option makes it as long as wanted)."""
    return _long_game_spec().need_long_game()(actions)


def _long_game_spec() -> AnyGame:
    offering = [spec for spec in all_games().values() if spec.has("long_game")]
    if not offering:
        raise MissingCapability("no game offers a game of any length for the record bench")
    return offering[0]


APPEND_CHUNK = 50
"""Durable appends timed between two ticks of the progress bar."""


def bench_record(appends: int = 500, long_game: int = 2000, game: str | None = None,
                 tick: Tick | None = None) -> dict[str, Any]:
    """Durable appends per second (entries of a random `game`), load-and-replay of a
    `long_game`-action game, and store-and-replay of that random game.

    `tick` counts steps: the random game, each 50 appends (timed in chunks, the tick between
    them), the long game played and stored, replayed, and the random game stored and
    replayed."""
    import tempfile
    from pathlib import Path

    from companion.record.format import Entry
    from companion.record.store import Store

    chunks = math.ceil(appends / APPEND_CHUNK)
    total = chunks + 4
    progress = tick or _no_tick

    spec = _spec(game)
    sample = _play(spec, load_kit(spec.kit), 1, [])
    entries = record_of(sample, sample.rules.kit, started_at=datetime.now(UTC),
                        source="simulator")
    progress(1, total)
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch) / "bench.sqlite")
        game_id = store.create(entries.header)
        plays = list(enumerate((e for _, e in zip(range(appends), _cycle(entries.entries),
                                                   strict=False)), start=1))
        append_s = 0.0
        for chunk in range(chunks):
            start = time.perf_counter()
            for seq, entry in plays[chunk * APPEND_CHUNK:(chunk + 1) * APPEND_CHUNK]:
                store.append(game_id, Entry(seq, entry.time, entry.source, entry.action,
                                            entry.events))
            append_s += time.perf_counter() - start
            progress(2 + chunk, total)
        long = _long_game(long_game)
        record = record_of(long, long.rules.kit, started_at=datetime.now(UTC), source="tablet")
        long_id = store.create(record.header)
        for entry in record.entries:
            store.append(long_id, entry)
        progress(chunks + 2, total)
        start = time.perf_counter()
        result = replay(store.load(long_id))
        replay_s = time.perf_counter() - start
        assert result.ok and result.applied == long_game, result.problem
        progress(chunks + 3, total)
        start = time.perf_counter()
        stored = store.create(entries.header)
        for entry in entries.entries:
            store.append(stored, entry)
        assert replay(store.load(stored)).ok
        store.close()
    store_and_replay_s = time.perf_counter() - start  # as before the bar: closing included
    progress(total, total)
    return {
        "appends": appends, "appends_per_s": round(appends / append_s, 1) if append_s else 0.0,
        "replay_2000_s": round(replay_s, 4), "replay_game": _long_game_spec().name,
        "replay_actions": long_game, "game": spec.name,
        "store_and_replay_s": round(store_and_replay_s, 4),
        "store_and_replay_actions": len(entries.entries),
    }


def _cycle(entries: Any) -> Any:
    while True:
        yield from entries


def bench_web(clients: int = 5, actions: int = 60, game: str | None = None,
              idle_streams: int = 800, tick: Tick | None = None,
              changing_streams: int = 480, changing_seconds: float = 5.0) -> dict[str, Any]:
    """Serve a new `game` with `companion serve`, connect `clients` live streams on loopback,
    apply `actions` actions through the API and time each until every client has the new
    view; then open up to `idle_streams` idle streams and say how many the server held with
    the referee's view still under 100 ms (p95). Last, the replay viewer's step: a stored game of
    about 400 actions (the game's first sample, else a random game) stepped to random
    positions. Then `changing_streams` streams without a token, read, while the referee
    changes the game once a second for `changing_seconds`: the referee's view at the 95th
    percentile (issue 35: a change cost per stream, 222 ms with 480). `tick` counts steps:
    each action seen by every client, each 50 idle streams, each replay step (the first
    position, then the random ones)."""
    import http.client
    import json
    import os
    import socket
    import subprocess
    import sys
    import tempfile
    import threading
    from pathlib import Path

    spec = _spec(game)
    idle_steps = math.ceil(idle_streams / IDLE_STEP)
    total = actions + idle_steps + 1 + REPLAY_STEPS
    progress = tick or _no_tick
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as scratch:
        stored = _stored_game(spec, Path(scratch) / "bench.sqlite")
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", str(Path(scratch) / "bench.sqlite"), "--new", spec.name,
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
            # the game `serve --new` started: at the table, with the game's table options
            played: Game[Any] = Game(spec.new_rules(options=dict(spec.table_options)), seed=0)
            sent: dict[int, float] = {}
            for version in range(1, actions + 1):
                if played.outcome is not None:
                    break  # a short game: every action it has was timed
                action = _next_action(played, version)
                sent[version] = time.perf_counter()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("POST", "/api/action", json.dumps(action.to_json()), {
                    "Content-Type": "application/json", "Authorization": "Bearer bench"})
                answer = connection.getresponse()
                assert answer.status == 200, (answer.status, answer.read()[:300])
                played.apply(action)
                deadline = time.perf_counter() + 5
                while any(version not in seen for seen in arrivals):
                    assert time.perf_counter() < deadline, "a client missed an update"
                    time.sleep(0.0005)
                progress(version, total)
            held, view_p95 = _idle_streams_held(
                port, idle_streams, lambda steps: progress(actions + steps, total))
            first_ms, step_p95 = _replay_steps(
                port, *stored, lambda steps: progress(actions + idle_steps + steps, total))
            changing_p95 = _view_p95_streams_changing(port, changing_streams, changing_seconds)
        finally:
            server.terminate()
            server.wait(timeout=10)
    progress(total, total)
    latencies = sorted((seen[v] - sent[v]) * 1000 for seen in arrivals for v in sent)
    return {"game": spec.name, "clients": clients, "actions": len(sent),
            "update_ms_p50": round(statistics.median(latencies), 2),
            "update_ms_p95": round(latencies[math.ceil(0.95 * len(latencies)) - 1], 2),
            "idle_streams_held": held, "view_ms_p95_at_held": view_p95,
            "replay_actions": stored[1], "replay_first_ms": first_ms,
            "replay_step_ms_p95": step_p95, "streams_changing": changing_streams,
            "view_ms_p95_streams_changing": changing_p95}


REPLAY_STEPS = 200
"""Random positions the replay benchmark asks for."""


def _stored_game(spec: AnyGame, path: Any) -> tuple[int, int]:
    """A whole game stored in the database at `path` before the server opens it, for the
    replay viewer to step through: (its id, its actions)."""
    from companion.record import read_record
    from companion.record.session import import_record
    from companion.record.store import Store

    store = Store(path)
    try:
        if spec.samples:
            game_id = import_record(store, read_record(spec.sample()))
        else:
            played = _play(spec, load_kit(spec.kit), 1, [])
            record = record_of(played, played.rules.kit, started_at=datetime.now(UTC),
                               source="simulator")
            game_id = store.import_game(record.header, record.entries, None)
        return game_id, store.game(game_id).entries
    finally:
        store.close()


def _replay_steps(port: int, game_id: int, total: int,
                  tick: Callable[[int], None]) -> tuple[float, float]:
    """The replay viewer's first position of a stored game (which replays it once), then the
    95th percentile of `REPLAY_STEPS` steps to random positions (each a lookup), in ms;
    `tick(steps done)` after each, outside its time."""
    import http.client
    import random

    def step(at: int) -> float:
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", f"/api/replay/{game_id}?at={at}",
                           headers={"Authorization": "Bearer bench"})
        answer = connection.getresponse()
        answer.read()
        connection.close()
        assert answer.status == 200, answer.status
        return (time.perf_counter() - started) * 1000

    first = step(0)
    tick(1)
    rng = random.Random(0)
    spent = []
    for done in range(2, REPLAY_STEPS + 2):
        spent.append(step(rng.randint(0, total)))
        tick(done)
    spent.sort()
    return round(first, 2), round(spent[math.ceil(0.95 * len(spent)) - 1], 2)


IDLE_STEP = 50
VIEW_LIMIT_MS = 100.0
DEVICES = 50
"""Loopback addresses the idle streams come from (127.0.0.2 onwards): each device stays under
the server's per-device cap, as many phones would."""


def _idle_streams_held(port: int, most: int,
                       tick: Callable[[int], None]) -> tuple[int, float]:
    """Idle streams without a token (the audit's attack) opened 50 at a time: how many stay
    open while the referee's view still answers under 100 ms at the 95th percentile;
    `tick(steps done)` after each 50."""
    import socket

    idle: list[socket.socket] = []
    held, p95 = 0, _view_p95(port)
    try:
        while len(idle) < most:
            for _ in range(IDLE_STEP):
                source = f"127.0.0.{2 + len(idle) % DEVICES}"
                sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                                source_address=(source, 0))
                sock.sendall(b"GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                idle.append(sock)
            if not all(sock.recv(64).startswith(b"HTTP/1.1 200") for sock in idle[-IDLE_STEP:]):
                break  # the server refused more streams (its cap)
            step_p95 = _view_p95(port)
            tick(len(idle) // IDLE_STEP)
            if step_p95 >= VIEW_LIMIT_MS:
                break
            held, p95 = len(idle), step_p95
    finally:
        for sock in idle:
            sock.close()
    return held, p95


def _view_p95_streams_changing(port: int, streams: int, seconds: float) -> float:
    """`streams` live streams without a token (16 a device), each read as a screen reads
    it, while the referee pauses and resumes the game once a second (each a change every
    stream receives): the referee's view, fetched every 50 ms meanwhile, at the 95th
    percentile in ms."""
    import http.client
    import json
    import selectors
    import socket
    import threading

    opened: list[socket.socket] = []
    chooser = selectors.DefaultSelector()
    done = threading.Event()

    def read_all() -> None:
        while not done.is_set():
            for key, _ in chooser.select(timeout=0.1):
                try:
                    key.fileobj.recv(1 << 16)  # type: ignore[union-attr]
                except OSError:
                    chooser.unregister(key.fileobj)

    def change(paused: bool) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/api/pause", json.dumps({"paused": paused}), {
            "Content-Type": "application/json", "Authorization": "Bearer bench"})
        connection.getresponse().read()
        connection.close()

    reader = threading.Thread(target=read_all, daemon=True)
    try:
        for n in range(streams):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                            source_address=(f"127.0.0.{2 + n // 16}", 0))
            sock.sendall(b"GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setblocking(False)
            chooser.register(sock, selectors.EVENT_READ)
            opened.append(sock)
        reader.start()
        spent: list[float] = []
        started = next_change = time.perf_counter()
        paused = False
        while time.perf_counter() - started < seconds:
            if time.perf_counter() >= next_change:
                paused = not paused
                change(paused)
                next_change += 1.0
            spent.append(_view_p95(port, times=1))
            time.sleep(0.05)
        if paused:
            change(False)
    finally:
        done.set()
        if reader.is_alive():
            reader.join(timeout=5)
        for sock in opened:
            sock.close()
        chooser.close()
    spent.sort()
    return round(spent[math.ceil(0.95 * len(spent)) - 1], 2)


def _view_p95(port: int, times: int = 20) -> float:
    """The referee's view, fetched `times` times: the 95th percentile in ms."""
    import http.client

    spent = []
    for _ in range(times):
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/view", headers={"Authorization": "Bearer bench"})
        connection.getresponse().read()
        connection.close()
        spent.append((time.perf_counter() - started) * 1000)
    spent.sort()
    return round(spent[math.ceil(0.95 * len(spent)) - 1], 2)


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


CROP_DECODES = 20
FULL_DECODES = 3
"""Card decodings timed in the scan area and over the whole frame (each median's sample)."""


def bench_inputs(frames: int = 20_000, tick: Tick | None = None) -> dict[str, Any]:
    """RFID frames parsed per second; card decoding in the scan area against a whole frame.
    `tick` counts steps: the serial parse, then each decoding."""
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
    total = 1 + CROP_DECODES + FULL_DECODES
    progress = tick or _no_tick
    progress(1, total)
    out = io.BytesIO()
    segno.make("CARD:T-maeda-special-2", error="m").save(out, kind="png", scale=6, border=4)
    out.seek(0)
    frame = Image.new("RGB", (4056, 3040), (90, 120, 80))  # a 12 MP still
    frame.paste(Image.open(out).convert("RGB"), (3400, 2400))
    area = CardArea(3300, 2300, 600, 600)
    crop_ms = _median_ms(lambda: decode_codes(frame, area), CROP_DECODES,
                         lambda n: progress(1 + n, total))
    full_ms = _median_ms(lambda: decode_codes(frame), FULL_DECODES,
                         lambda n: progress(1 + CROP_DECODES + n, total))
    return {"serial_frames_per_s": round(frames / serial_s), "zbar_crop_ms": crop_ms,
            "zbar_full_ms": full_ms, "frame": "4056x3040"}


def _median_ms(work: Any, times: int, tick: Callable[[int], None]) -> float:
    """`work` timed `times` times: the median in ms (`tick(done)` after each, untimed)."""
    spent = []
    for done in range(1, times + 1):
        start = time.perf_counter()
        assert work()
        spent.append((time.perf_counter() - start) * 1000)
        tick(done)
    return round(statistics.median(spent), 2)


def bench_referee(game: str | None = None, games: int = 20, seed: int = 0,
                  tick: Tick | None = None) -> dict[str, Any]:
    """Random games acted out at the table by the game's simulated player and read back by
    its table referee (the `simulator` capability's `bench_referee(games, seed, tick)`: games
    done of `games`). MissingCapability when the game has no simulated player."""
    spec = _spec(game)
    figures = spec.need_simulator().bench_referee(games, seed, tick=tick)
    return {"game": spec.name, **figures}


def describe_referee(f: dict[str, Any]) -> list[str]:
    """The referee figures in sentences; figures a game adds are listed by name."""
    said = {"game", "actions", "games", "recovered", "asked", "missed", "hidden",
            "asked_by_verb", "asked_by_cause", "missed_by_verb", "ms_per_action",
            "first_misses"}
    lines = []
    if said - {"hidden", "first_misses", "asked_by_verb", "asked_by_cause",
               "missed_by_verb"} <= set(f):
        lines += [f"{f['game']}: {f['actions']} table actions in {f['games']} games: "
                  f"{f['recovered']} recovered, {f['asked']} asked on the tablet, "
                  f"{f['missed']} missed" + (f"; {f['hidden']} hidden deals"
                                              if "hidden" in f else ""),
                  f"reading time: {f['ms_per_action']} ms per action"]
        if "asked_by_cause" in f:
            lines.append("asked because of: " + ", ".join(
                f"{kind} {n}" for kind, n in f["asked_by_cause"].items()))
        lines += [f"{key.replace('_by_verb', '')}: {f[key]}"
                  for key in ("asked_by_verb", "missed_by_verb") if key in f]
        lines += [str(miss) for miss in f.get("first_misses", [])]
    else:
        said = {"game"}
    return lines + [f"{key}: {value}" for key, value in f.items() if key not in said]
