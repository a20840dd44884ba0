"""What every game used to copy and now takes from the engine core (issue 15): the event
batch, the phase -> verb table with its rule, options as data, a game from a position, and an
undo that steps back instead of replaying from the start."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from companion.engine import (
    REFEREE,
    Action,
    Batch,
    Event,
    Game,
    IllegalAction,
    Option,
    PhaseTable,
    random_playout,
    rules_class,
)
from companion.games import all_games
from companion.kits import load_kit
from companion.record import record_of, replay
from companion.record.format import Entry, Record
from companion.record.replay import Replayer


@dataclass(frozen=True)
class Counter:
    value: int = 0
    outcome: str | None = None


def _count(state: Counter, event: Event) -> Counter:
    if event.type == "Won":
        return Counter(state.value, "won")
    return Counter(state.value + event.data["by"])


def test_a_batch_folds_as_it_goes_and_stops_once_the_game_is_over():
    batch = Batch(Counter(), _count)
    batch.emit("Added", by=2)
    assert batch.state.value == 2  # later checks see earlier events
    batch.emit("Won")
    batch.emit("Added", by=5)  # the game ended at once: this is dropped
    assert [e.type for e in batch.events] == ["Added", "Won"] and batch.state.value == 2


def test_a_phase_table_refuses_a_verb_with_the_phases_rule_and_its_verbs():
    table: PhaseTable[str] = PhaseTable({"movement": {"move": "m", "pass": "p"}},
                                        {"movement": "7.1"}, default_rule="6.1")
    assert table.handler("movement", "move") == "m"
    with pytest.raises(IllegalAction) as refused:
        table.handler("movement", "bid")
    assert refused.value.rule == "7.1" and refused.value.legal == ("move", "pass")
    assert "'bid' is not possible in the movement phase" in refused.value.message
    with pytest.raises(IllegalAction) as elsewhere:
        table.handler("winter", "move")
    assert elsewhere.value.rule == "6.1" and elsewhere.value.legal == ()


def test_options_are_data_checked_the_same_way_for_every_game():
    players = Option("players", 3, (2, 3, 4))
    assert players.check("Rumble Nation", 4) == 4
    with pytest.raises(ValueError, match="Rumble Nation option 'players' is one of 2, 3, 4"):
        players.check("Rumble Nation", 5)
    with pytest.raises(ValueError, match="must be a whole number"):
        Option("turns", 40, minimum=1).check("Skirmish", "many")
    rules = rules_class("rumble-nation")
    kit = load_kit("rumble_nation")
    assert dict(rules(kit).options) == {"players": 3, "daimyo": False}
    with pytest.raises(ValueError, match=r"unknown Rumble Nation option\(s\): colour"):
        rules(kit, {"colour": "red"})
    for spec in all_games().values():  # every game declares its options as data
        declared = {o.name for o in spec.rules.game_type.options}
        assert set(spec.rules(load_kit(spec.kit)).options) == declared


def test_a_game_starts_from_a_given_position():
    rules = rules_class("skirmish")(load_kit("skirmish"))
    played: Game[object] = Game(rules, seed=3)
    random_playout(played, max_actions=25)
    resumed = Game.from_state(rules, played.state, seed=3)
    assert resumed.state == played.state and resumed.history == ()
    assert resumed.legal_actions() == played.legal_actions()


@pytest.mark.parametrize("name", ["skirmish", "sekigahara", "rumble_nation"])
def test_undo_steps_back_to_the_very_state_before_the_action(name):
    rules = rules_class(name)(load_kit(name))
    game: Game[object] = Game(rules, seed=5)
    random_playout(game, max_actions=60)
    states = []
    probe: Game[object] = Game(rules, seed=5)
    for ply in game.history:
        states.append(probe.state)
        probe.apply(ply.action)
    for n in range(len(game.history) - 1, len(game.history) - 6, -1):
        undone = game.undo()
        assert undone.action == probe.history[n].action
        assert game.state == states[n] and len(game.history) == n
    with pytest.raises(IndexError):
        Game(rules).undo()


def test_a_records_undo_costs_one_step_not_a_replay():
    """Undoing the last action of a whole game takes a fraction of replaying it: the replayer
    steps back instead of replaying every action still in force."""
    rules = rules_class("sekigahara")(load_kit("sekigahara"))
    played: Game[object] = Game(rules, seed=1)
    random_playout(played)
    last = max(n for n, ply in enumerate(played.history)
               if not rules.undo_barrier(ply.action, ply.events))
    game: Game[object] = Game(rules, seed=1)
    game.replay([ply.action for ply in played.history[:last + 1]])
    record = record_of(game, rules.kit, started_at=datetime(2026, 11, 23, tzinfo=UTC),
                       source="simulator")
    replayer = Replayer(record.header, "test")
    for entry in record.entries:
        assert replayer.feed(entry) is None
    assert replayer.undo_refusal() is None
    undo = Entry(len(record.entries) + 1, "2026-11-23T00:00:00Z", "tablet",
                 Action(REFEREE, "undo", {"seq": record.entries[-1].seq}), ())
    start = time.perf_counter()
    assert replayer.feed(undo) is None
    spent = time.perf_counter() - start
    assert len(replayer.game.history) == len(record.entries) - 1
    start = time.perf_counter()
    rebuilt = replay(Record("t", record.header, record.entries[:-1]))
    rebuild = time.perf_counter() - start
    assert rebuilt.ok and rebuilt.game.state == replayer.game.state
    assert spent < rebuild / 10, (spent, rebuild)
