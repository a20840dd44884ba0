"""What a player may not see in Rumble Nation (the `secrets` capability): with the daimyo
rules, the daimyo card each other player holds face down until it is used; everything else
(soldiers, castles, tactic cards) lies open on the board."""

from __future__ import annotations

from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.rules.state import RNState

__all__ = ["secrets"]


def secrets(rules: RumbleNationRules, state: RNState, role: str) -> set[str]:
    """The daimyo card ids `role` may not see now (`public`: every unused one)."""
    return {card for player, card in state.daimyo_cards.items()
            if player != role and player not in state.daimyo_used}
