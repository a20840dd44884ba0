"""Chance entered by hand (#18): every pick a game offers, filled as a referee would, is an
action its rules accept; only the referee's screen sees them (a bag's contents are hidden)."""

from __future__ import annotations

import random

import pytest
from web_helpers import app_for

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Game, IllegalAction, rules_class
from companion.engine.core import Pick
from companion.kits import load_kit
from companion.record.session import Session
from companion.record.store import Store
from companion.web.hub import Hub

GAMES = [("sekigahara", {"knowledge": "table"}), ("sekigahara", {"knowledge": "full"}),
         ("rumble_nation", {}), ("rumble_nation", {"daimyo": True, "players": 4})]


def filled(pick: Pick, rng: random.Random) -> Action:
    """The pick filled at random as the referee's pickers allow: distinct values unless the
    field repeats, one per key for a mapping, one value for a single."""
    chosen = {}
    for field in pick.fields:
        values = [v for v, _ in field.options]
        if field.keys:
            drawn = [rng.choice(values) for _ in field.keys] if field.repeat else \
                rng.sample(values, len(field.keys))
            chosen[field.name] = dict(zip([k for k, _ in field.keys], drawn, strict=True))
        elif field.single:
            chosen[field.name] = rng.choice(values)
        else:
            chosen[field.name] = [rng.choice(values) for _ in range(field.count)] \
                if field.repeat else rng.sample(values, field.count)
    return pick.action(chosen)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_every_pick_filled_as_the_pickers_allow_is_accepted(name, options):
    rules_type = rules_class(name)
    try:
        rules = rules_type(load_kit(rules_type.game_type.kit), options)
    except ValueError:
        rules = rules_type(load_kit(rules_type.game_type.kit), {
            k: v for k, v in options.items() if k != "players"})
    rng = random.Random(7)
    for seed in range(3):
        game = Game(rules, seed=seed)
        picked = 0
        for _ in range(150):
            movers = game.to_move()
            if not movers:
                break
            if CHANCE in movers:
                picks = rules.picks(game.state)
                assert picks, f"{name}: chance is due but nothing can be entered by hand"
                for pick in picks:
                    assert pick.title and "{" not in pick.title
                    for field in pick.fields:
                        assert field.options and all(w for _, w in field.options)
                game.apply(filled(rng.choice(picks), rng))  # IllegalAction fails the test
                picked += 1
            else:
                action = rules.random_action(game.state, movers[0], rng)
                assert action is not None
                game.apply(action)
        assert picked >= 1


def test_a_pick_the_rules_refuse_says_why(tmp_path):
    rules_type = rules_class("sekigahara")
    rules = rules_type(load_kit(rules_type.game_type.kit), {"knowledge": "table"})
    game = Game(rules)
    pick = rules.picks(game.state)[0]
    field = pick.fields[0]
    same = [field.options[0][0]] * field.count  # the same block twice
    if field.count > 1:
        with pytest.raises(IllegalAction) as refused:
            game.apply(pick.action({field.name: same}))
        assert refused.value.rule.startswith("5.2")


def test_only_the_referee_sees_the_picks_and_enters_one_through_the_api(tmp_path):
    hub = Hub(Session.start(Store(tmp_path / "games.sqlite"), "sekigahara",
                            options={"knowledge": "table"}))
    app, tokens = app_for(hub)
    client = app.test_client()
    for role in (PUBLIC, *hub.roles):
        assert hub.view(role)["picks"] == []
    picks = hub.view(REFEREE)["picks"]
    assert picks and picks[0]["verb"] == "draw_blocks"
    first = picks[0]
    field = first["fields"][0]
    chosen = [o["value"] for o in field["options"][:field["count"]]]
    answer = client.post("/api/action", headers={"Authorization": f"Bearer {tokens[REFEREE]}"},
                         json={"role": "chance", "verb": first["verb"],
                               "args": {**first["fixed"], field["name"]: chosen}})
    assert answer.status_code == 200, answer.get_json()
    entry = hub.session.entries[-1]
    assert entry.action.role == CHANCE and entry.source == "tablet"
    assert len(hub.view(REFEREE)["picks"]) == len(picks) - 1
    assert hub.view(REFEREE, "it")["picks"][0]["title"].split()[1] == "pesca"
