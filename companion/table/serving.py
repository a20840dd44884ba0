"""Which game a table serves (`companion serve`): a stored game by its id, a new game, or,
when nothing is said, the newest unfinished game (asked first) or else a new game of the
default kind.

A new game served is played at a real table, watched or not (the tablet alone enters the
draws): it starts with its game's table options, which the options given add to or override,
and on the registered set's own kit when a set is on the table. The game is claimed for this
process, so that no second server writes to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games import AnyGame
from companion.record.session import Session, resume_newest
from companion.record.store import Store
from companion.table.sets import PhysicalSet

__all__ = ["check_set_kit", "serve_session"]


def serve_session(store: Store, *, game_id: int | None, new: AnyGame | None,
                  default: AnyGame, options: Mapping[str, Any],
                  chosen_set: PhysicalSet | None, confirm: Callable[[str], bool],
                  warn: Callable[[str], None],
                  names: Mapping[str, str] | None = None) -> Session:
    """The game to serve, claimed: game `game_id`; else a new game of `new`; else the newest
    unfinished game if `confirm` says yes to resuming it (a damaged one is skipped and told
    to `warn`), or a new game of `default`, its players called by `names` (role -> name).

    GameClaimed when another process serves it; RecordError or StoreError for a game that
    cannot be resumed; EngineError or ValueError for options the game refuses, and for a set
    of another game."""
    session: Session | None = None
    spec = new
    if game_id is None and new is None:
        session = resume_newest(store, warn=warn)
        if session is not None and not confirm(_resume_question(store, session)):
            session.release()
            session = None
        spec = default
    elif game_id is not None:
        session = Session.resume(store, game_id, claim=True)
    if session is not None:
        return session
    assert spec is not None
    chosen = {**spec.table_options, **options}
    if chosen_set is not None and chosen_set.game != spec.name:
        raise ValueError(f"set {chosen_set.name} is a {chosen_set.game} set, not {spec.name}")
    return Session.start(store, spec.name, options=chosen, claim=True, players=names,
                         kit=str(chosen_set.kit) if chosen_set else None)


def _resume_question(store: Store, session: Session) -> str:
    row = store.game(session.game_id)
    return (f"Resume game {row.id} ({row.game}, started {row.started_at}, {row.entries} "
            "actions)?")


def check_set_kit(session: Session, chosen_set: PhysicalSet | None) -> None:
    """ValueError when the set on the table is not the one the game was started on (its
    kit's tags and codes would name the wrong pieces)."""
    if chosen_set is not None and session.header.kit.id != chosen_set.kit_id:
        raise ValueError(
            f"game {session.game_id} was started on kit {session.header.kit.id}, not on set "
            f"{chosen_set.name}'s ({chosen_set.kit_id}): start a new game with --set "
            f"{chosen_set.name}, or serve this one without --set")
