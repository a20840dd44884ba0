"""A game survives kill -9: every acknowledged action is in the store, the record verifies,
and the game resumes to the same position it had when the action was acknowledged."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from crash_child import digest

from companion.record import replay
from companion.record.session import Session
from companion.record.store import Store

CHILD = Path(__file__).with_name("crash_child.py")
TRIALS = 50


def run_until_killed(db: Path, seed: int, kill_after: int) -> list[tuple[int, str]]:
    """Start the writer, SIGKILL it after `kill_after` acknowledgements; return them."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    child = subprocess.Popen([sys.executable, str(CHILD), str(db), str(seed)],
                             stdout=subprocess.PIPE, text=True, env=env)
    acks: list[tuple[int, str]] = []
    assert child.stdout is not None
    for line in child.stdout:
        _, seq, state = line.split()
        acks.append((int(seq), state))
        if len(acks) >= kill_after:
            child.send_signal(signal.SIGKILL)
            break
    child.wait(timeout=30)
    return acks


@pytest.mark.slow
def test_every_acknowledged_action_survives_sigkill(tmp_path):
    rng = random.Random(2026)
    for trial in range(TRIALS):
        db = tmp_path / f"trial-{trial}.sqlite"
        acks = run_until_killed(db, seed=trial, kill_after=rng.randint(1, 120))
        assert acks, "the writer acknowledged nothing"
        store = Store(db)
        (row,) = store.games()
        last_seq, last_state = acks[-1]
        assert row.entries >= last_seq, f"trial {trial}: acked {last_seq}, kept {row.entries}"
        record = store.load(row.id)  # count, order and hash chain checked
        assert record.chained
        assert replay(record).ok
        at_ack = replay(record, upto_line=last_seq + 1)  # header is line 1
        assert at_ack.applied == last_seq
        assert digest(at_ack.game) == last_state  # the position the table was told of
        session = Session.resume(store, row.id)
        assert len(session.entries) == row.entries
        assert session.game.state == replay(record).game.state
        store.close()
