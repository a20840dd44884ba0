"""Run by test_crash.py in a subprocess: plays a random Sekigahara game into a store and prints
`ACK <seq> <digest>` after each action is durable, until it is killed."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from companion.engine import CHANCE, REFEREE, Game, chance_rng, pick_action
from companion.record.session import Session
from companion.record.store import Store


def digest(game: Game) -> str:
    """A short fingerprint of everything the referee sees: equal positions, equal digests."""
    view = game.view(REFEREE)
    return hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()[:16]


def main(db: Path, seed: int) -> None:
    store = Store(db)
    session = Session.start(store, "sekigahara", seed=seed)
    step = 0
    while session.game.outcome is None:
        roles = session.game.to_move()
        rng = chance_rng(seed, step)
        if CHANCE in roles:
            action = session.game.rules.sample_chance(session.game.state, rng)
        else:
            action = pick_action(session.game, roles, rng)
        session.play(action, "simulator")
        step += 1
        print(f"ACK {session.entries[-1].seq} {digest(session.game)}", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
