"""Live tables for the web tests: a real store, a real recorded session, a hub and tokens.

`played_hub` builds any game a few actions in, so the web tests run for every game with a
screen; `hidden_from` asks each game what a role may not see, so the leak sweeps do too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.engine import CHANCE, REFEREE, chance_rng, pick_action
from companion.games import all_games
from companion.record.session import Session
from companion.record.store import Store
from companion.web import create_app
from companion.web.hub import Hub

SCREENS = sorted(name for name, spec in all_games().items() if spec.has("screen"))
"""Every game with a tablet screen: the browser tests and the leak sweeps run for each."""
HIDES = {name for name, spec in all_games().items() if spec.rules.game_type.hidden_information}
"""The games with hidden information: in these a position must hide something from a player
(a game without, such as La Disfida di Barletta, has nothing to leak, and its sweeps check the
rest)."""



def played_hub(tmp_path: Path, name: str, actions: int | None = None, seed: int | None = None,
               options: dict[str, Any] | None = None, settle: bool = True) -> Hub:
    """`name` played `actions` random actions (chance drawn from the seed) into a real store;
    with `settle`, on until a player, not chance, is to act."""
    plan = all_games()[name].showcase  # how far, with what options: the game's own
    seed = plan.seed if seed is None else seed
    actions = plan.actions if actions is None else actions
    session = Session.start(Store(tmp_path / "games.sqlite"), name, seed=seed,
                            options=options if options is not None else plan.options or None,
                            players=plan.players or None)
    step = 0
    while step < actions or (settle and CHANCE in session.game.to_move()):
        game = session.game
        if game.outcome is not None:
            break
        roles = game.to_move()
        rng = chance_rng(seed, step)
        action = (game.rules.sample_chance(game.state, rng) if CHANCE in roles
                  else pick_action(game, roles, rng))
        session.play(action, "simulator")
        step += 1
    return Hub(session)


def app_for(hub: Hub):
    app = create_app({"TESTING": True}, hub=hub)
    tokens = {role: hub.tokens.issue(role) for role in (*hub.roles, REFEREE)}
    return app, tokens


def acting_player(hub: Hub) -> str:
    """The player (not chance) whose turn it is."""
    return next(r for r in hub.session.game.to_move() if r != CHANCE)


def hidden_from(hub: Hub, role: str, game=None) -> set[str]:
    """Ids the `role` may not see (now, or in `game`): the game's own statement of what it
    hides (its `secrets` capability, written from the rules, not from the views, so that the
    sweeps would catch a view that leaks as well as a route)."""
    game = game or hub.session.game
    assert role != REFEREE
    secrets = all_games()[game.rules.game_type.name].need_secrets()
    return secrets(game.rules, game.state, role)
