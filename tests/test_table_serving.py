"""Which game a table serves (`companion.table.serving`, `companion serve`): the one named, a
new one at the table's options, or the newest unfinished one once the referee says yes."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.games import all_games, game
from companion.record.session import Session
from companion.record.store import GameClaimed, Store
from companion.table.serving import check_set_kit, serve_session
from companion.table.sets import PhysicalSet

SKIRMISH = game("skirmish")
AT_TABLE = dataclasses.replace(SKIRMISH, table_options={"turns": 7})


@pytest.fixture
def store(tmp_path):
    opened = Store(tmp_path / "games.sqlite")
    yield opened
    opened.close()


def _serve(store, asked=None, **given):
    """serve_session with nothing named, saying yes to resuming (asked questions kept)."""
    asked = [] if asked is None else asked
    chosen = {"game_id": None, "new": None, "default": SKIRMISH, "options": {},
              "chosen_set": None, "confirm": lambda q: asked.append(q) or True,
              "warn": lambda text: None, **given}
    return serve_session(store, **chosen)


def _a_set(kind: str, kit_id: str = "a_kit") -> PhysicalSet:
    return PhysicalSet("mine", kind, Path("/nowhere/mine-kit"), kit_id, registry=None)


def test_a_new_game_starts_with_the_games_table_options_and_the_given_ones_win(store):
    session = _serve(store, new=AT_TABLE)
    assert dict(session.header.options) == {"turns": 7}
    session.release()
    again = _serve(store, new=AT_TABLE, options={"turns": 4})
    assert dict(again.header.options) == {"turns": 4}
    again.release()


def test_the_newest_unfinished_game_is_resumed_once_confirmed_and_claimed(store):
    first = Session.start(store, "skirmish")
    asked: list[str] = []
    session = _serve(store, asked)
    assert session.game_id == first.game_id
    assert asked == [f"Resume game {first.game_id} (skirmish, started "
                     f"{store.game(first.game_id).started_at}, 0 actions)?"]
    with pytest.raises(GameClaimed):
        _serve(store)  # this process serves it already
    session.release()


def test_a_game_not_resumed_makes_way_for_a_new_game_of_the_default(store):
    first = Session.start(store, "skirmish")
    session = _serve(store, confirm=lambda q: False, default=AT_TABLE)
    assert session.game_id != first.game_id and session.header.options["turns"] == 7
    session.release()
    named = _serve(store, game_id=first.game_id)
    assert named.game_id == first.game_id
    named.release()


def test_a_set_of_another_game_or_kit_is_refused(store):
    other = next(name for name in all_games() if name != "skirmish")
    with pytest.raises(ValueError, match=rf"set mine is a {other} set, not skirmish"):
        _serve(store, new=SKIRMISH, chosen_set=_a_set(other))
    session = _serve(store, new=SKIRMISH)
    check_set_kit(session, None)
    with pytest.raises(ValueError, match=rf"game {session.game_id} was started on kit "
                       rf"{session.header.kit.id}, not on set mine's \(a_kit\)"):
        check_set_kit(session, _a_set("skirmish"))
    check_set_kit(session, _a_set("skirmish", session.header.kit.id))
    session.release()
