"""One random game as a record (`companion.record.simulated`, `companion simulate`): seeded, so
the same seed gives the same record, and it replays like any game at a table."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from companion.engine import EngineError
from companion.games import all_games, game
from companion.kits import KitError
from companion.record import replay
from companion.record.simulated import play_random, random_start

START = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)


def test_a_seeded_random_game_is_recorded_and_replays():
    spec = game("skirmish")
    records = []
    for _ in range(2):
        played, kit = random_start(spec.name, spec.rules, spec.kit, seed=3, options={})
        records.append(play_random(played, kit, max_actions=10_000, started_at=START,
                                   players={"red": "Ana"}))
    first, again = records
    assert first.record.entries == again.record.entries and first.finished
    assert first.actions == len(first.record.entries)
    assert first.record.header.players == {"red": "Ana"}
    assert first.record.header.started_at == "2024-05-01T10:00:00Z"
    assert replay(first.record).ok


def test_a_game_cut_short_says_so():
    spec = game("skirmish")
    played, kit = random_start(spec.name, spec.rules, spec.kit, seed=0, options={})
    cut = play_random(played, kit, max_actions=3)
    assert (cut.actions, cut.finished) == (3, False)
    assert cut.record.header.started_at.endswith("Z")  # now, when none is given


def test_a_kit_of_another_game_or_a_refused_option_is_said_before_any_play():
    spec = game("skirmish")
    other = next(s for s in all_games().values() if s.name != spec.name)
    with pytest.raises(ValueError, match=rf"is for {other.name}, not {spec.name}"):
        random_start(spec.name, spec.rules, other.kit, seed=0, options={})
    with pytest.raises(KitError):
        random_start(spec.name, spec.rules, "no_such_kit", seed=0, options={})
    with pytest.raises((EngineError, ValueError)):
        random_start(spec.name, spec.rules, spec.kit, seed=0, options={"no_such_option": 1})
