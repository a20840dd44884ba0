"""Shogun played at random for 3, 4 and 5 players: every record verifies, no cube is lost or
made (armies, farmers), and no plan or bid reaches another role before it is turned up."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from companion.engine import CHANCE, PUBLIC, Game, pick_action, random_playout
from companion.engine.core import chance_rng
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.rules import ShogunRules
from companion.games.shogun.rules.state import FARMERS, ShogunState
from companion.kits import load_kit
from companion.record import read_record, record_of, replay, write_record

KIT = cast(ShogunKit, load_kit("shogun"))


def new(players: int, seed: int, side: str = "sun") -> Game[Any]:
    return Game(ShogunRules(KIT, {"players": players, "side": side}), seed=seed)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("side", ["sun", "moon"])
def test_random_games_end_and_their_records_verify(players: int, side: str,
                                                    tmp_path: Path) -> None:
    for seed in range(2):
        game = new(players, seed, side)
        assert random_playout(game, max_actions=3000).finished
        record = record_of(game, KIT, started_at=datetime(2026, 1, 1, tzinfo=UTC),
                           source="simulator")
        path = tmp_path / f"shogun-{players}-{seed}.jsonl"
        write_record(path, record.header, record.entries)
        assert replay(read_record(path)).ok


def cubes(state: ShogunState, player: str) -> int:
    """A player's armies wherever they are: supply, board, groups, tower, tray, in flight."""
    flying = 0
    if state.pending is not None and "thrown" in state.pending and \
            not state.pending.get("read"):
        flying = state.pending["thrown"].get(player, 0)
    board = sum(n for p, n in state.armies.items() if state.owner.get(p) == player)
    return (state.reserve[player] + board + sum(state.groups[player]) +
            state.tower.get(player, 0) + state.tray.get(player, 0) + flying)


def farmers(state: ShogunState) -> int:
    flying = 0
    if state.pending is not None and "thrown" in state.pending:
        flying = state.pending["thrown"].get(FARMERS, 0)
    return state.farmers + state.tower.get(FARMERS, 0) + state.tray.get(FARMERS, 0) + flying


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_cube_is_lost_and_no_secret_leaks(players: int) -> None:
    game = new(players, seed=11)
    rules = cast(ShogunRules, game.rules)
    while game.outcome is None:
        roles = game.to_move()
        if CHANCE in roles:
            action, _ = game.play_chance()
        else:
            picked = pick_action(game, roles, chance_rng(game.seed, -1 - len(game.history)))
            assert picked is not None
            action = picked
            game.apply(action)
        state = game.state
        for p in state.players:
            assert cubes(state, p) == 62 and state.reserve[p] >= 0 and state.chests[p] >= 0
        assert farmers(state) == 20
        assert set(state.armies) <= set(state.owner)
        for owner in state.plans:
            for role in (*state.players, PUBLIC):
                if role == owner:
                    continue
                view = game.view(role)
                assert owner not in view["plans"], (role, owner)
                assert state.bids_shown or owner not in view["bids"], (role, owner)
                assert view["shown"].get(owner, {}) == dict(state.shown.get(owner, {}))
        if action.verb == "plan":
            for role in state.players:
                if role != action.role:
                    said = rules.say(state, action, role)
                    assert "secret" in said and "chest" not in said


def test_a_simulated_tower_tray_is_always_possible() -> None:
    game = new(4, seed=5)
    reads = 0
    while game.outcome is None and reads < 60:
        roles = game.to_move()
        if CHANCE in roles:
            sampled = game.rules.sample_chance(game.state, random.Random(reads))
            assert game.rules.accepts(game.state, sampled)
            reads += sampled.verb == "tray"
            game.play_chance()
        else:
            picked = pick_action(game, roles, chance_rng(game.seed, -1 - len(game.history)))
            assert picked is not None
            game.apply(picked)
    assert reads


def test_actions_are_said_in_italian() -> None:
    game = new(3, seed=2)
    random_playout(game, max_actions=200)
    rules = cast(ShogunRules, game.rules)
    replayed = new(3, seed=2)
    said = []
    for ply in game.history:
        said.append(rules.say(replayed.state, ply.action, "red", "it"))
        replayed.apply(ply.action)
    text = "\n".join(said)
    assert "rivendica" in text and "armate" in text and "Vassoio della torre" in text
    assert rules.rule_summary("6.2", "it").startswith("Vince chi ha più cubi")
    assert rules.rule_summary("4.4.1") == rules.rule_summary("4.4")


def test_every_chance_step_can_be_entered_by_hand_with_pickers() -> None:
    """The referee's pickers offer what chance drew, and the action they make is accepted."""
    game = new(3, seed=8)
    verbs = set()
    while game.outcome is None:
        roles = game.to_move()
        if CHANCE not in roles:
            picked = pick_action(game, roles, chance_rng(game.seed, -1 - len(game.history)))
            assert picked is not None
            game.apply(picked)
            continue
        drawn = game.rules.sample_chance(game.state, random.Random(len(game.history)))
        (pick,) = game.rules.picks(game.state, "it")
        assert pick.verb == drawn.verb and pick.title
        chosen: dict[str, Any] = {}
        for field in pick.fields:
            value = drawn.args[field.name]
            offered = {v for v, _ in field.options}
            if field.keys:
                assert set(value) <= {k for k, _ in field.keys}
                assert set(value.values()) <= offered
                chosen[field.name] = dict(value)
            elif field.single:
                assert value in offered
                chosen[field.name] = value
            else:
                assert set(value) <= offered and len(value) == field.count
                chosen[field.name] = list(value)
        action = pick.action(chosen)
        assert action == drawn
        game.apply(action)
        verbs.add(action.verb)
    assert {"deal", "reveal", "drawn", "tray", "events", "lay_out", "event", "turn_card",
            "revolts"} <= verbs
