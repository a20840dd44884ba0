"""Live tables for the web tests: a real store, a real recorded session, a hub and tokens."""

from __future__ import annotations

from pathlib import Path

from companion.engine import CHANCE, REFEREE, chance_rng, pick_action
from companion.record.session import Session
from companion.record.store import Store
from companion.web import create_app
from companion.web.hub import Hub


def sekigahara_hub(tmp_path: Path, actions: int = 80, seed: int = 5) -> Hub:
    """A full-knowledge Sekigahara game played `actions` random actions into a real store."""
    session = Session.start(Store(tmp_path / "games.sqlite"), "sekigahara", seed=seed,
                            players={"ishida": "Aiko", "tokugawa": "Kenji"})
    for step in range(actions):
        game = session.game
        if game.outcome is not None:
            break
        roles = game.to_move()
        rng = chance_rng(seed, step)
        action = (game.rules.sample_chance(game.state, rng) if CHANCE in roles
                  else pick_action(game, roles, rng))
        session.play(action, "simulator")
    return Hub(session)


def skirmish_hub(tmp_path: Path) -> Hub:
    return Hub(Session.start(Store(tmp_path / "games.sqlite"), "skirmish",
                             players={"red": "Ana", "blue": "Ben"}))


def app_for(hub: Hub):
    app = create_app({"TESTING": True}, hub=hub)
    tokens = {role: hub.tokens.issue(role) for role in (*hub.roles, REFEREE)}
    return app, tokens


def hidden_from(hub: Hub, role: str, game=None) -> set[str]:
    """Ids the `role` may not see (now, or in `game`): the other sides' unrevealed blocks and
    the cards they hold."""
    game = game or hub.session.game
    state = game.state
    rules = game.rules
    if hasattr(state, "revealed") and hasattr(rules, "ctx"):
        ctx = rules.ctx
        public = set(state.revealed) | set(state.blocks_at("eliminated")) \
            | set(state.blocks_at(ctx.mori_box))
        blocks = {b for b, side in ctx.owner.items() if side != role and b not in public}
        cards = {c for side, hand in state.hands.items() if side != role
                 for c in (hand.cards or ())}
        return blocks | cards
    owner = state.owner  # Skirmish
    return {b for b, side in owner.items() if side != role and b not in state.revealed
            and b not in state.eliminated}
