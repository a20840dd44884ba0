"""The engine core on its reference game, Skirmish (docs/skirmish.md)."""

from __future__ import annotations

import pytest

from companion.engine import (
    CHANCE,
    PUBLIC,
    REFEREE,
    Action,
    Event,
    Game,
    IllegalAction,
    UnknownGame,
    UnknownRole,
    chance_rng,
    fold,
    game_names,
    random_playout,
    rules_class,
)
from companion.games.skirmish.rules import SkirmishRules
from companion.kits import load_kit


@pytest.fixture(scope="module")
def kit():
    return load_kit("skirmish")


@pytest.fixture
def game(kit):
    return Game(SkirmishRules(kit), seed=1)


def move(role, block, to):
    return Action(role, "move", {"block": block, "to": to})


def roll(attacker, defender):
    return Action(CHANCE, "roll", {"attacker": attacker, "defender": defender})


def march(game, side, block, path):
    """Move a block along `path`, the other side passing in between."""
    other = "blue" if side == "red" else "red"
    for step in path:
        if game.to_move() == (other,):
            game.apply(Action(other, "pass"))
        game.apply(move(side, block, step))


def test_action_text_round_trips_and_is_canonical():
    action = Action("red", "move", {"to": "mill", "block": "red_b"})
    assert action.text() == 'red move {"block":"red_b","to":"mill"}'
    assert Action.from_text(action.text()) == action
    assert Action.from_json(action.to_json()) == action
    assert hash(action) == hash(Action.from_text(action.text()))


def test_action_args_are_read_only():
    action = Action("red", "move", {"path": ["a", "b"]})
    with pytest.raises(TypeError):
        action.args["path"] = "x"  # type: ignore[index]
    assert action.args["path"] == ("a", "b")


def test_malformed_action_text_says_what_is_wrong():
    with pytest.raises(ValueError, match="ROLE VERB"):
        Action.from_text("red")
    with pytest.raises(ValueError, match="JSON object"):
        Action.from_text("red move [1]")


def test_registry_finds_games_and_names_unknown_ones():
    assert "skirmish" in game_names()
    assert rules_class("skirmish") is SkirmishRules
    with pytest.raises(UnknownGame, match=r"known: .*skirmish"):
        rules_class("chess")


def test_bad_options_are_refused_with_their_name(kit):
    with pytest.raises(ValueError, match="unknown Skirmish option"):
        SkirmishRules(kit, {"speed": 3})
    with pytest.raises(ValueError, match="turns"):
        SkirmishRules(kit, {"turns": 0})


def test_s2_1_acting_out_of_turn_is_illegal_and_names_who_is_waited_for(game):
    with pytest.raises(IllegalAction) as info:
        game.apply(move("blue", "blue_a", "bridge"))
    assert info.value.rule == "S2.1"
    assert "waits for Red" in info.value.message and "Blue cannot act now" in info.value.message
    assert info.value.action == move("blue", "blue_a", "bridge")


def test_s2_1_moving_an_enemy_block_is_illegal(game):
    with pytest.raises(IllegalAction) as info:
        game.apply(move("red", "blue_a", "bridge"))
    assert info.value.rule == "S2.1"
    assert any("red_a" in legal for legal in info.value.legal)


def test_s3_1_a_move_must_follow_a_road_and_lists_the_legal_ones(game):
    with pytest.raises(IllegalAction) as info:
        game.apply(move("red", "red_a", "hill"))
    assert info.value.rule == "S3.1"
    assert "no road leads from Red Camp to Hill" in str(info.value)
    assert sorted(info.value.legal) == ["red move red_a to ford", "red move red_a to mill"]


def test_a_rejected_action_changes_nothing(game):
    game.apply(move("red", "red_a", "mill"))
    before, history = game.state, game.history
    for bad in (move("blue", "blue_a", "hill"), move("blue", "red_a", "hill"),
                Action("blue", "fly"), roll(3, 3), Action("green", "pass")):
        with pytest.raises(IllegalAction):
            game.apply(bad)
        assert game.state == before
        assert game.history == history


def test_an_unknown_role_is_illegal_with_the_turn_rule(game):
    with pytest.raises(IllegalAction, match="'green' is not a role") as info:
        game.apply(Action("green", "pass"))
    assert info.value.rule == "S2.1"


def test_s4_battle_waits_for_chance_then_the_dice_decide(game):
    march(game, "red", "red_d", ["mill", "hill", "bridge"])
    game.apply(Action("blue", "pass"))
    game.apply(move("red", "red_d", "blue_camp"))
    assert game.to_move() == (CHANCE,)
    with pytest.raises(IllegalAction) as info:
        game.apply(roll(7, 1))
    assert info.value.rule == "S4.2"
    # red_d (3) + 6 = 9 against blue's four blocks (1+2+2+3=8) + 1 = 9: a tie goes to the defender
    events = game.apply(roll(6, 1))
    types = [e.type for e in events]
    assert types[:2] == ["DiceRolled", "BlocksRevealed"]
    assert Event("BlockEliminated", {"block": "red_d", "side": "red"}) in events
    assert events[-2].data["totals"] == {"red": 9, "blue": 9}
    assert events[-2].data["winner"] == "blue"  # S4.4


def test_s5_1_taking_the_empty_enemy_camp_wins_at_once(kit):
    game = Game(SkirmishRules(kit))
    blue = ["blue_a", "blue_b", "blue_c", "blue_d"]
    for block in blue:  # blue empties its camp, red waits
        game.apply(Action("red", "pass"))
        game.apply(move("blue", block, "village"))
    march(game, "red", "red_a", ["mill", "hill", "bridge", "blue_camp"])
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.rule) == ("red", "S5.1")
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(Action("blue", "pass"))


def test_s5_3_after_the_last_turn_the_larger_army_wins_or_it_is_a_draw(kit):
    game = Game(SkirmishRules(kit, {"turns": 2}))
    game.apply(Action("red", "pass"))
    game.apply(Action("blue", "pass"))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.rule) == (None, "S5.3")


def test_views_hide_enemy_blocks_as_counts_and_referee_sees_all(game):
    game.apply(move("red", "red_d", "mill"))
    public, blue, red, referee = (game.view(r) for r in (PUBLIC, "blue", "red", REFEREE))
    for view in (public, blue):
        assert view["locations"]["mill"]["red"] == {"count": 1, "blocks": []}
        assert "red_d" not in str(view)
    assert red["locations"]["mill"]["red"]["blocks"] == [{"block": "red_d", "strength": 3}]
    assert referee["locations"]["blue_camp"]["blue"]["count"] == 4
    assert len(referee["locations"]["blue_camp"]["blue"]["blocks"]) == 4
    with pytest.raises(UnknownRole, match="roles: red, blue, public, referee"):
        game.view("green")


def test_s4_6_revealed_blocks_are_seen_until_they_move(kit):
    game = Game(SkirmishRules(kit))
    march(game, "red", "red_a", ["mill", "hill"])
    game.apply(move("blue", "blue_d", "bridge"))
    game.apply(Action("red", "pass"))
    game.apply(move("blue", "blue_d", "hill"))
    game.apply(roll(6, 1))  # attacker blue_d (3+6) beats defender red_a (1+1)
    assert game.view(PUBLIC)["locations"]["hill"]["blue"]["blocks"] == [
        {"block": "blue_d", "strength": 3}]
    assert game.view(PUBLIC)["eliminated"] == [{"block": "red_a", "side": "red", "strength": 1}]
    game.apply(Action("red", "pass"))
    game.apply(move("blue", "blue_d", "mill"))
    assert game.view(PUBLIC)["locations"]["mill"]["blue"]["blocks"] == []


def test_folding_the_recorded_events_rebuilds_the_state(kit):
    game = Game(SkirmishRules(kit), seed=5)
    random_playout(game)
    rules = game.rules
    events = [e for ply in game.history for e in ply.events]
    assert fold(rules, rules.initial_state(), events) == game.state


def test_the_same_seed_plays_the_same_game_and_another_seed_another(kit):
    def play(seed):
        game = Game(SkirmishRules(kit, {"turns": 40}), seed=seed)
        random_playout(game)
        return [ply.action for ply in game.history]

    assert play(11) == play(11)
    assert any(play(11) != play(s) for s in (12, 13, 14))


def test_chance_rng_depends_only_on_seed_and_step():
    assert chance_rng(3, 7).random() == chance_rng(3, 7).random()
    assert chance_rng(3, 7).random() != chance_rng(3, 8).random()
    assert chance_rng(3, 7).random() != chance_rng(4, 7).random()


def test_legal_actions_are_exactly_the_accepted_ones(game):
    legal = set(game.legal_actions())
    assert Action("red", "pass") in legal
    assert len([a for a in legal if a.verb == "move"]) == 4 * 2  # four blocks, two roads each
    assert game.legal_actions("blue") == []
