"""Shogun's card labels: the cards a table turns over (province cards, the events, the ten
action cards) each get a QR label, so the companion knows which card was turned when the
camera or a reader sees it (issue #21, "At the table").

The ids on the labels are the kit's own ids; events, actions and special cards are prefixed
(`event:`, `action:`, `special:`) so that no example-kit name can collide with a province
card's id. The five special cards are labelled so that their order on the board's spaces is
read as they are scanned (3.2: spaces 1 to 5; issue 36: the 120 orders were asked on the
tablet); the war-chest cards are not: they only ever lie face down in a player's plan, which
the phone carries instead.
"""

from __future__ import annotations

from companion.games.shogun.kit import ACTIONS, ShogunKit
from companion.games.shogun.rules.context import SPECIAL_NAMES, SPECIALS

__all__ = ["ACTION_PREFIX", "EVENT_PREFIX", "SPECIAL_PREFIX", "card_labels"]

EVENT_PREFIX = "event:"
ACTION_PREFIX = "action:"
SPECIAL_PREFIX = "special:"
ACTION_WORDS = {"castle": "Castle", "temple": "Temple", "theatre": "No theatre",
                "rice": "Collect rice", "taxes": "Collect taxes", "deploy_5": "Deploy 5",
                "deploy_3": "Deploy 3", "deploy_1": "Deploy 1 / move",
                "battle_a": "Battle / move A", "battle_b": "Battle / move B"}
"""The action cards' titles, in the order of the individual board's spaces (Azioni)."""


def _province_name(kit: ShogunKit, card: str) -> str:
    for side in kit.sides:
        found = kit.provinces(side).get(card)
        if found is not None:
            return found.name
    return card


def card_labels(kit: ShogunKit) -> list[tuple[str, str]]:
    """(card id, identity in words) for every labelled card: province cards in the kit's
    order, then the events, the action cards and the special cards."""
    provinces = [(c.id, f"Province - {_province_name(kit, c.id)} - rice {c.rice} taxes "
                        f"{c.taxes}") for c in kit.cards]
    events = [(f"{EVENT_PREFIX}{e.id}", f"Event - {e.name}") for e in kit.events]
    actions = [(f"{ACTION_PREFIX}{a}", f"Action - {ACTION_WORDS[a]}") for a in ACTIONS]
    specials = [(f"{SPECIAL_PREFIX}{c}", f"Special card - {SPECIAL_NAMES[c]}") for c in SPECIALS]
    return [*provinces, *events, *actions, *specials]
