"""What a player may not see in Shogun (the `secrets` capability): the plans and bids the
other players made in secret (3.2), until revealed. Province and chest cards are public ids, so
what is hidden is which card lies on which action space (and which on the auction space): the
secrets are those pairs as a JSON body carries them (`"battle_b":"kita_9"`)."""

from __future__ import annotations

from companion.games.shogun.rules import ShogunRules
from companion.games.shogun.rules.round import hand
from companion.games.shogun.rules.state import ShogunState

__all__ = ["secrets"]


def json_pairs(key: str, value: str) -> set[str]:
    """A key and its value as a JSON body would carry them (compact or spaced)."""
    return {f'"{key}":"{value}"', f'"{key}": "{value}"'}


def secrets(rules: ShogunRules, state: ShogunState, role: str) -> set[str]:
    """The hidden (space, card) and (player, bid) pairs `role` may not see now.

    A pair `role` could put in a plan of its own (a card of its hand: its provinces and the
    war-chest cards every player holds, `chest_0`..`chest_4`) is no secret *as a string* in
    its own view: its phone offers that pair among its own choices. Such pairs stay secrets
    for every other viewer (the shared tablet, the broadcast, a player without that card)."""
    known = set(state.plans.get(role, {}).items())  # the role's own plan
    known |= {pair for shown in state.shown.values() for pair in shown.items()}
    own = set(hand(state, role)) if role in state.players else set()
    found: set[str] = set()
    for player, plan in state.plans.items():
        if player != role:
            for space, card in plan.items():
                if (space, card) not in known and card not in own:
                    found |= json_pairs(space, card)
    if not state.bids_shown:
        for player, bid in state.bids.items():
            if player != role:
                found |= json_pairs(player, bid)
    return found
