"""`companion bench broadcast`: many tables broadcasting through a real broker on loopback.

A mosquitto with the event's users and ACLs (`companion.broadcast.mosquitto`), the dashboard's
subscriber and store in this process, and the tables as child processes of simulated tables
(`companion.broadcast.simtable`, several tables each: a real store, hub and publisher per
table). Figures: actions per second through the whole chain, the delay from an action recorded
at its table to its message in the dashboard's store (median, 95th percentile), and how many of
the tables' actions the dashboard's record lacks (`lost`), holds twice (`duplicated`) or holds
differently from the table's own public record (`differing`).

An optional `tick(done, total)` follows the actions recorded at the tables (read from their
time files, never from the dashboard's store, which the figures measure), then the wait for
the dashboard to hold them all.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.broadcast.mosquitto import DASHBOARD, Broker
from companion.broadcast.store import BroadcastStore
from companion.broadcast.subscriber import Subscriber
from companion.broadcast.url import parse_url
from companion.games import default_game

__all__ = ["bench_broadcast", "compare", "table_record"]

EVENT = "bench"
PROCESSES = 4
"""Child processes the tables are spread over (each runs a thread per table)."""


def table_record(folder: Path, table: str, channel: str) -> dict[tuple[int, int], str]:
    """A table's own public record, from its outbox: (game id, seq) -> message."""
    with sqlite3.connect(folder / f"{table}.sqlite") as db:
        rows = db.execute("SELECT game_id, seq, payload FROM broadcast_outbox WHERE channel=?",
                          (channel,)).fetchall()
        recorded = db.execute("SELECT game_id, COUNT(*) FROM entries GROUP BY game_id").fetchall()
    built = {(g, s): p for g, s, p in rows}
    for game_id, count in recorded:  # a line the outbox never built counts as missing
        for seq in range(1, count + 1):
            built.setdefault((game_id, seq), "")
    return built


def compare(store: BroadcastStore, folder: Path, tables: list[str], channel: str,
            ) -> dict[str, int]:
    """The dashboard's record of each table against the table's own: missing, doubled and
    differing actions, over every table."""
    lost = duplicated = differing = 0
    for table in tables:
        own = table_record(folder, table, channel)
        games = {g for g, _ in own}
        for game_id in games:
            seqs = store.seqs(table, game_id)
            duplicated += len(seqs) - len(set(seqs))
            theirs = {m["seq"]: m for m in store.messages(table, game_id)}
            for (g, seq), payload in own.items():
                if g != game_id:
                    continue
                if seq not in theirs:
                    lost += 1
                elif not payload or json.loads(payload) != theirs[seq]:
                    differing += 1
            duplicated += len(set(theirs) - {s for g, s in own if g == game_id})
    return {"lost": lost, "duplicated": duplicated, "differing": differing}


def _recorded_times(folder: Path, table: str) -> dict[tuple[str, int, int], float]:
    times = {}
    path = folder / f"{table}.times"
    for line in path.read_text().splitlines() if path.exists() else []:
        game_id, seq, stamp = line.split()
        times[(table, int(game_id), int(seq))] = float(stamp)
    return times


def _spawn(broker: Broker, folder: Path, tables: list[str], actions: int, pace: float,
           game: str) -> list[subprocess.Popen[bytes]]:
    groups = [tables[i::PROCESSES] for i in range(min(PROCESSES, len(tables)))]
    children = []
    for index, group in enumerate(groups):
        command = [sys.executable, "-m", "companion.broadcast.simtable",
                   "--broker", f"127.0.0.1:{broker.port}", "--event", EVENT,
                   "--folder", str(folder), "--actions", str(actions), "--pace", str(pace),
                   "--game", game, "--seed", str(1000 * index)]
        for table in group:
            command += ["--table", table]
        children.append(subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, env=os.environ.copy()))
    return children


def _wait_tables(children: list[subprocess.Popen[bytes]], folder: Path, tables: list[str],
                 timeout: float, tick: Callable[[int], None] | None) -> None:
    """Until every table's process ends (TimeoutExpired after `timeout` s); with `tick`, the
    actions the tables have recorded so far, twice a second."""
    deadline = time.monotonic() + timeout
    for child in children:
        while child.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(child.args, timeout)
            if tick is not None:
                tick(sum(_lines(folder / f"{table}.times") for table in tables))
            time.sleep(0.5 if tick is not None else 0.05)


def _lines(path: Path) -> int:
    try:
        with path.open("rb") as file:
            return sum(1 for _ in file)
    except FileNotFoundError:
        return 0


def _wait_converged(store: BroadcastStore, folder: Path, tables: list[str], channel: str,
                    timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if compare(store, folder, tables, channel)["lost"] == 0:
            return
        time.sleep(0.5)


def bench_broadcast(tables: int = 50, actions: int = 20, pace: float = 1.0,
                    game: str | None = None,
                    tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The figures for `tables` tables recording `actions` actions each, `pace` s apart."""
    game = game or default_game().name
    total = tables * actions + 1
    recorded_now = None if tick is None else (lambda done: tick(min(done, total - 1), total))
    names = [f"t{n:02d}" for n in range(1, tables + 1)]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        passwords = {**{t: f"pw-{t}" for t in names}, DASHBOARD: "pw-dashboard"}
        broker = Broker.for_event(folder / "broker", EVENT, passwords).start()
        store = BroadcastStore(folder / "dashboard.sqlite")
        url = parse_url(f"mqtt://{DASHBOARD}:pw-dashboard@127.0.0.1:{broker.port}/{EVENT}")
        subscriber = Subscriber(url, store).start()
        try:
            subscriber.wait_connected(10)
            children = _spawn(broker, folder / "tables", names, actions, pace, game)
            _wait_tables(children, folder / "tables", names, actions * pace * 3 + 300,
                         recorded_now)
            channel = parse_url(f"mqtt://t@127.0.0.1:{broker.port}/{EVENT}").channel
            _wait_converged(store, folder / "tables", names, channel, 30)
            if tick is not None:
                tick(total, total)
            figures = compare(store, folder / "tables", names, channel)
            recorded: dict[tuple[str, int, int], float] = {}
            for table in names:
                recorded.update(_recorded_times(folder / "tables", table))
            arrived = store.received_at()
            repeats = store.counter("repeats")
            requests = subscriber.requests
        finally:
            subscriber.stop()
            store.close()
            broker.stop()
    delays = sorted((arrived[k] - t) * 1000 for k, t in recorded.items() if k in arrived)
    span = max(arrived.values(), default=0) - min(recorded.values(), default=0)
    return {
        "tables": tables, "game": game, "actions": len(recorded), "pace_s": pace,
        "actions_per_s": round(len(delays) / span, 1) if span > 0 else 0.0,
        "delivery_ms_p50": round(statistics.median(delays), 1) if delays else None,
        "delivery_ms_p95": round(delays[math.ceil(0.95 * len(delays)) - 1], 1)
        if delays else None,
        **figures, "repeats_dropped": repeats, "resend_requests": requests,
        "exit_codes": sorted({c.returncode for c in children}),
    }
