"""Shogun's card labels: the cards a table turns over (province cards, the events, the ten
action cards) each get a QR label, so the companion knows which card was turned when the
camera or a reader sees it (issue #21, "At the table").

The ids on the labels are the kit's own ids; events and actions are prefixed (`event:`,
`action:`) so that no example-kit name can collide with a province card's id. The special
cards and war-chest cards are not labelled: they are taken in the open (the special cards) or
only ever lie face down in a player's plan, which the phone carries instead.
"""

from __future__ import annotations

from companion.games.shogun.kit import ACTIONS, ShogunKit

__all__ = ["ACTION_PREFIX", "EVENT_PREFIX", "card_labels"]

EVENT_PREFIX = "event:"
ACTION_PREFIX = "action:"
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
    order, then the events, then the action cards."""
    provinces = [(c.id, f"Province - {_province_name(kit, c.id)} - rice {c.rice} taxes "
                        f"{c.taxes}") for c in kit.cards]
    events = [(f"{EVENT_PREFIX}{e.id}", f"Event - {e.name}") for e in kit.events]
    actions = [(f"{ACTION_PREFIX}{a}", f"Action - {ACTION_WORDS[a]}") for a in ACTIONS]
    return [*provinces, *events, *actions]
