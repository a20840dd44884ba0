"""Simulated tables that broadcast: real games, real stores, real publishers, no camera.

`python -m companion.broadcast.simtable --broker HOST:PORT --event E --folder DIR --table t1
--table t2 ...` plays one seeded random game per table (its own games database
`DIR/<table>.sqlite`, resumed if it holds an unfinished game, as a table's Pi does after a
restart), through the live table's `Hub`, broadcasting with `start_publisher` exactly as
`companion serve --broadcast` does. Every so often a table takes its last action back (an undo
reaches the broadcast as a retraction). When each recorded action was acknowledged at the table
goes to `DIR/<table>.times`, for the benchmark's delivery times. The fault test and
`companion bench broadcast` run these as child processes.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from pathlib import Path

from companion.broadcast.publisher import check_broker, start_publisher
from companion.broadcast.url import BroadcastError, parse_url
from companion.engine import CHANCE, REFEREE, Action, chance_rng, pick_action
from companion.games import default_game
from companion.games import game as game_spec
from companion.record.session import Session, UndoRefused
from companion.record.store import Store
from companion.web.hub import Hub

__all__ = ["main", "play_table"]

def _session(store: Store, game: str, seed: int) -> Session:
    unfinished = store.games(unfinished=True)
    if unfinished:
        return Session.resume(store, unfinished[0].id)
    spec = game_spec(game)
    roles = spec.new_rules().roles
    names = {role: name for role, name in spec.showcase.players.items() if role in roles}
    return Session.start(store, spec.name, seed=seed, players=names)


def _next(session: Session, seed: int) -> Action | None:
    game = session.game
    step = len(session.entries)
    roles = game.to_move()
    rng = chance_rng(seed, step)
    if CHANCE in roles:
        return game.rules.sample_chance(game.state, rng)
    return pick_action(game, roles, rng)


def play_table(url: str, folder: Path, table: str, game: str, actions: int, pace: float,
               seed: int, undo_every: int, linger: float = 0.0) -> bool:
    """Play `table` until its record holds `actions` lines (or the game ends); True once the
    broker acknowledged every one. With `linger`, the table then stays online that long (a
    table's Pi stays on after its game: a dashboard may still ask for what it missed), and
    `DIR/<table>.done` says it finished."""
    store = Store(folder / f"{table}.sqlite")
    session = _session(store, game, seed)
    hub = Hub(session)
    check_broker(parse_url(url))
    publisher = start_publisher(hub, url)
    times = (folder / f"{table}.times").open("a", encoding="utf-8")
    while len(session.entries) < actions and session.game.outcome is None:
        step = len(session.entries)
        if undo_every and step % undo_every == undo_every - 1:
            with contextlib.suppress(UndoRefused):
                hub.undo(REFEREE)
        if len(session.entries) == step:
            action = _next(session, seed)
            if action is None:
                break
            hub.act(REFEREE, action, "simulator")
        times.write(f"{session.game_id} {len(session.entries)} {time.time():.6f}\n")
        times.flush()
        time.sleep(pace)
    times.close()
    drained = publisher.wait_drained(120)
    if not drained:
        (folder / f"{table}.diag").write_text(
            f"outbox {publisher.outbox.built} built of {publisher.outbox.recorded()} recorded, "
            f"{publisher.outbox.pending()} unacknowledged; {publisher.figures}\n")
    (folder / f"{table}.done").write_text("drained\n" if drained else "NOT drained\n")
    time.sleep(linger)
    publisher.stop()
    store.close()
    return drained


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", required=True, help="HOST:PORT")
    parser.add_argument("--event", required=True)
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--table", action="append", required=True)
    parser.add_argument("--password-prefix", default="pw-",
                        help="each table's broker password is this and its name")
    parser.add_argument("--game", default=None, help="default: the default game")
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between actions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--undo-every", type=int, default=0)
    parser.add_argument("--linger", type=float, default=0.0,
                        help="seconds to stay online after the last action is acknowledged")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    results: dict[str, bool] = {}

    def run(index: int, table: str) -> None:
        url = f"mqtt://{table}:{args.password_prefix}{table}@{args.broker}/{args.event}"
        try:
            results[table] = play_table(url, args.folder, table,
                                        args.game or default_game().name, args.actions,
                                        args.pace, args.seed + index, args.undo_every,
                                        args.linger)
        except BroadcastError as exc:
            print(f"{table}: {exc}", file=sys.stderr)
            results[table] = False

    threads = [threading.Thread(target=run, args=(i, t)) for i, t in enumerate(args.table)]
    for thread in threads:
        thread.start()
        time.sleep(args.pace / max(len(threads), 1))  # spread the tables' actions in time
    for thread in threads:
        thread.join()
    print(" ".join(f"{t}={'drained' if ok else 'NOT-drained'}" for t, ok in results.items()),
          flush=True)
    return 0 if all(results.values()) and len(results) == len(args.table) else 1


if __name__ == "__main__":
    raise SystemExit(main())
