"""The broadcast under faults: ten tables, a broker killed twice, a table's Pi killed.

Ten simulated tables, each its own process with its own games database, play and broadcast
(taking an action back now and then) to a real mosquitto with ACLs on; the dashboard is the
real `companion broadcast` process. Meanwhile the broker is killed with SIGKILL and restarted
twice, and one table's process is killed with SIGKILL and started again (it resumes its game
from its record, as a Pi does after a power cut). In the end every table's record in the
dashboard's store equals the table's own public record: none missing, none doubled.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import wait_for

from companion.broadcast.bench import compare
from companion.broadcast.mosquitto import DASHBOARD, Broker, free_port
from companion.broadcast.store import BroadcastStore
from companion.broadcast.url import parse_url

pytestmark = pytest.mark.slow

EVENT = "cup"
TABLES = [f"t{n:02d}" for n in range(1, 11)]
ACTIONS = 70


def _table(broker: Broker, folder: Path, index: int) -> subprocess.Popen[bytes]:
    # Its output goes to a file: a pipe nobody reads blocks a table that logs a lot.
    with (folder / f"{TABLES[index]}.log").open("ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "companion.broadcast.simtable", "--broker",
             f"127.0.0.1:{broker.port}", "--event", EVENT, "--folder", str(folder),
             "--table", TABLES[index], "--actions", str(ACTIONS), "--pace", "0.08",
             "--undo-every", "7", "--seed", str(index), "--linger", "120"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log)


def _recorded(folder: Path, table: str) -> int:
    path = folder / f"{table}.times"
    return len(path.read_text().splitlines()) if path.exists() else 0


def _offline_for_a_while(broker: Broker, folder: Path) -> None:
    """The broker is killed and the tables play on offline (their outboxes fill): it comes back
    once they have recorded as many actions again as there are tables, whatever the load."""
    broker.kill()
    before = sum(_recorded(folder, t) for t in TABLES)
    wait_for(lambda: sum(_recorded(folder, t) for t in TABLES) >= before + len(TABLES), 60,
             "the tables to play on while the broker is down", every=0.1)
    broker.start()


def test_ten_tables_lose_and_double_nothing_through_broker_and_table_crashes(tmp_path):
    passwords = {**{t: f"pw-{t}" for t in TABLES}, DASHBOARD: "pw-dashboard"}
    broker = Broker.for_event(tmp_path / "broker", EVENT, passwords).start()
    folder = tmp_path / "tables"
    folder.mkdir()
    url = f"mqtt://{DASHBOARD}:pw-dashboard@127.0.0.1:{broker.port}/{EVENT}"
    db = tmp_path / "dashboard.sqlite"
    with (tmp_path / "dashboard.log").open("ab") as log:
        dashboard = subprocess.Popen(
            [sys.executable, "-m", "companion", "broadcast", url, "--db", str(db), "--host",
             "127.0.0.1", "--port", str(free_port())], stdin=subprocess.DEVNULL,
            stdout=log, stderr=log)
    tables = [_table(broker, folder, i) for i in range(len(TABLES))]
    try:
        everyone_past = lambda n: all(_recorded(folder, t) >= n for t in TABLES)  # noqa: E731
        wait_for(lambda: everyone_past(8), 90, "every table to start playing", every=0.1)
        _offline_for_a_while(broker, folder)
        wait_for(lambda: _recorded(folder, TABLES[2]) >= 30, 90, "table 3 to play on", every=0.1)
        os.kill(tables[2].pid, signal.SIGKILL)  # the Pi loses power
        tables[2].wait(timeout=10)
        tables[2] = _table(broker, folder, 2)  # and comes back: it resumes its game
        wait_for(lambda: everyone_past(40), 120, "every table to pass 40 actions", every=0.1)
        _offline_for_a_while(broker, folder)
        wait_for(lambda: all((folder / f"{t}.done").exists() for t in TABLES), 150,
                 "every table to finish its game", every=0.1)
        # A table that did not drain says why: its outbox and its publisher's figures.
        why = {t: (folder / f"{t}.diag").read_text() for t in TABLES
               if (folder / f"{t}.diag").exists()}
        assert {(folder / f"{t}.done").read_text() for t in TABLES} == {"drained\n"}, why
        store = BroadcastStore(db)
        channel = parse_url(f"mqtt://t@127.0.0.1:{broker.port}/{EVENT}").channel
        try:
            wait_for(lambda: compare(store, folder, TABLES, channel)["lost"] == 0, 60,
                     "the dashboard to hold every action", every=0.1)
        finally:
            figures = compare(store, folder, TABLES, channel)
            print({t: (len(store.seqs(t, 1)), _entries(folder, t)) for t in TABLES})
        assert figures == {"lost": 0, "duplicated": 0, "differing": 0}
        recorded = sum(len(store.seqs(t, g)) for t in TABLES for g in {1})
        assert recorded == sum(_entries(folder, t) for t in TABLES)
        kinds = {m["kind"] for t in TABLES for m in store.messages(t, 1)}
        assert "retraction" in kinds  # the undos reached the broadcast as such
        assert dashboard.poll() is None, "the dashboard survived both broker restarts"
        store.close()
    finally:
        for process in [*tables, dashboard]:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        broker.stop()


def _entries(folder: Path, table: str) -> int:
    import sqlite3

    with sqlite3.connect(folder / f"{table}.sqlite") as db:
        return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
