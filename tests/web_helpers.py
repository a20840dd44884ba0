"""Live tables for the web tests: a real store, a real recorded session, a hub and tokens.

`played_hub` builds any game a few actions in, so the web tests run for every game with a
screen; `hidden_from` says, per game, what a role may not see, so the leak sweeps do too.
"""

from __future__ import annotations

from collections.abc import Callable
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

PLAYS: dict[str, dict[str, Any]] = {
    "sekigahara": {"actions": 60, "seed": 5, "players": {"ishida": "Aiko", "tokugawa": "Kenji"}},
    "rumble_nation": {"actions": 30, "seed": 3, "options": {"players": 4, "daimyo": True},
                      "players": {"red": "Ana", "blue": "Ben", "yellow": "Chiara",
                                  "black": "Dario"}},
    "shogun": {"actions": 120, "seed": 3, "options": {"players": 4}},
    "barletta": {"actions": 120, "seed": 1},
}
"""How far into each game the tests play, and with what options: far enough that something is
on the board and something is hidden (Rumble Nation's daimyo cards need the advanced rules)."""


def played_hub(tmp_path: Path, name: str, actions: int | None = None, seed: int | None = None,
               options: dict[str, Any] | None = None, settle: bool = True) -> Hub:
    """`name` played `actions` random actions (chance drawn from the seed) into a real store;
    with `settle`, on until a player, not chance, is to act."""
    plan = PLAYS.get(name, {})
    seed = plan.get("seed", 1) if seed is None else seed
    actions = plan.get("actions", 20) if actions is None else actions
    session = Session.start(Store(tmp_path / "games.sqlite"), name, seed=seed,
                            options=options if options is not None else plan.get("options"),
                            players=plan.get("players"))
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


def sekigahara_hub(tmp_path: Path, actions: int = 80, seed: int = 5) -> Hub:
    """A full-knowledge Sekigahara game played `actions` random actions into a real store."""
    return played_hub(tmp_path, "sekigahara", actions=actions, seed=seed, settle=False)


def skirmish_hub(tmp_path: Path) -> Hub:
    return Hub(Session.start(Store(tmp_path / "games.sqlite"), "skirmish",
                             players={"red": "Ana", "blue": "Ben"}))


def app_for(hub: Hub):
    app = create_app({"TESTING": True}, hub=hub)
    tokens = {role: hub.tokens.issue(role) for role in (*hub.roles, REFEREE)}
    return app, tokens


def acting_player(hub: Hub) -> str:
    """The player (not chance) whose turn it is."""
    return next(r for r in hub.session.game.to_move() if r != CHANCE)


def _sekigahara(game: Any, role: str) -> set[str]:
    """The other side's blocks not face up, and the cards the other side holds."""
    state, ctx = game.state, game.rules.ctx
    public = set(state.revealed) | set(state.blocks_at("eliminated")) \
        | set(state.blocks_at(ctx.mori_box))
    blocks = {b for b, side in ctx.owner.items() if side != role and b not in public}
    cards = {c for side, hand in state.hands.items() if side != role
             for c in (hand.cards or ())}
    return blocks | cards


def _skirmish(game: Any, role: str) -> set[str]:
    state = game.state
    return {b for b, side in state.owner.items() if side != role and b not in state.revealed
            and b not in state.eliminated}


def _rumble_nation(game: Any, role: str) -> set[str]:
    """The daimyo cards other players hold face down (8): everything else is on the board."""
    state = game.state
    return {card for player, card in state.daimyo_cards.items()
            if player != role and player not in state.daimyo_used}


def _json_pairs(key: str, value: str) -> set[str]:
    """A key and its value as a JSON body would carry them (compact or spaced)."""
    return {f'"{key}":"{value}"', f'"{key}": "{value}"'}


def _shogun(game: Any, role: str) -> set[str]:
    """The plans and bids other players made in secret (3.2): province and chest cards are
    public ids, so what is hidden is which card lies on which space, until revealed."""
    state = game.state
    known = {(a, c) for a, c in state.plans.get(role, {}).items()}  # the role's own plan
    known |= {(a, c) for shown in state.shown.values() for a, c in shown.items()}
    found: set[str] = set()
    for player, plan in state.plans.items():
        if player != role:
            for action, card in plan.items():
                if (action, card) not in known:
                    found |= _json_pairs(action, card)
    if not state.bids_shown:
        for player, bid in state.bids.items():
            if player != role:
                found |= _json_pairs(player, bid)
    return found


HIDDEN: dict[str, Callable[[Any, str], set[str]]] = {
    "sekigahara": _sekigahara, "skirmish": _skirmish, "rumble_nation": _rumble_nation,
    "shogun": _shogun, "barletta": lambda game, role: set()}
"""Per game, what a role may not see: written from the rules, not from the views, so that the
sweeps would catch a view that leaks as well as a route."""


def hidden_from(hub: Hub, role: str, game=None) -> set[str]:
    """Ids the `role` may not see (now, or in `game`)."""
    game = game or hub.session.game
    name = game.rules.game_type.name
    if name not in HIDDEN:
        raise AssertionError(f"say in tests/web_helpers.py what {name} hides from a role")
    assert role != REFEREE
    return HIDDEN[name](game, role)
