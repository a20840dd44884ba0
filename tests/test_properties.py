"""Property tests of the core over random action sequences of Skirmish (hypothesis).

Each run mixes legal actions with arbitrary ones (wrong role, unknown verb, bad block, bad
destination, out-of-range dice). Whatever happens, the core must stay deterministic, rejected
actions must change nothing, and no view may show a hidden enemy block.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Game, IllegalAction, fold
from companion.games.skirmish.rules import SkirmishRules
from companion.kits import load_kit

KIT = load_kit("skirmish")
ROLES = ["red", "blue", CHANCE, "green"]
BLOCKS = [*KIT.strength, "nobody"]
PLACES = [loc.id for loc in KIT.locations] + ["moon"]

garbage = st.builds(
    lambda role, verb, block, to, a, d: Action(role, verb, {
        "block": block, "to": to, "attacker": a, "defender": d}),
    st.sampled_from(ROLES), st.sampled_from(["move", "pass", "roll", "fly"]),
    st.sampled_from(BLOCKS), st.sampled_from(PLACES),
    st.integers(-1, 8), st.integers(0, 7),
)


def play(data, turns: int) -> tuple[Game, list[Action]]:
    """Apply up to 60 drawn actions; return the game and the accepted ones."""
    game = Game(SkirmishRules(KIT, {"turns": turns}))
    accepted = []
    for _ in range(data.draw(st.integers(0, 60), label="length")):
        legal = game.legal_actions()
        if legal and data.draw(st.booleans(), label="legal?"):
            action = data.draw(st.sampled_from(legal), label="legal action")
        else:
            action = data.draw(garbage, label="arbitrary action")
        before = game.state
        try:
            game.apply(action)
        except IllegalAction as exc:
            assert exc.rule, "every rejection names a rule"
            assert game.state == before, f"rejected {action} changed the state"
            continue
        accepted.append(action)
    return game, accepted


@settings(max_examples=150, deadline=None)
@given(st.data(), st.integers(1, 30))
def test_replaying_the_accepted_actions_rebuilds_the_same_game(data, turns):
    game, accepted = play(data, turns)
    again = Game(SkirmishRules(KIT, {"turns": turns}))
    again.replay(accepted)
    assert again.state == game.state
    assert again.history == game.history
    events = [e for ply in game.history for e in ply.events]
    assert fold(game.rules, game.rules.initial_state(), events) == game.state


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_legal_actions_are_accepted_and_the_game_never_dead_ends(data):
    game, _ = play(data, 30)
    if game.outcome is None:
        legal = game.legal_actions()
        assert legal, "the game is not over, so someone must be able to act"
        game.apply(data.draw(st.sampled_from(legal)))  # must not raise
    else:
        assert game.legal_actions() == []


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_no_view_shows_a_hidden_enemy_block(data):
    game, _ = play(data, 30)
    state = game.state
    for role in (PUBLIC, "red", "blue"):
        view = game.view(role)
        for stacks in view["locations"].values():
            for side, stack in stacks.items():
                shown = {b["block"] for b in stack["blocks"]}
                if role != side:
                    assert shown <= state.revealed, f"{role} sees hidden {shown - state.revealed}"
                assert stack["count"] >= len(shown)
    referee = game.view(REFEREE)
    on_map = sum(s["count"] for stacks in referee["locations"].values() for s in stacks.values())
    assert on_map + len(referee["eliminated"]) == len(KIT.strength)
