"""Sekigahara's card labels: each card's printed identity in words, for the QR label sheet."""

from __future__ import annotations

from companion.games.sekigahara.kit import Card, SekigaharaKit

__all__ = ["card_labels"]


def _identity(card: Card) -> str:
    kind = {"plain": "", "special": " (swords)", "double": " (double)", "loyalty": ""}[card.kind]
    who = "Loyalty challenge" if card.kind == "loyalty" else f"{card.clan}{kind}"
    return f"{card.side} - {who} - bid {card.bid}"


def card_labels(kit: SekigaharaKit) -> list[tuple[str, str]]:
    """(card id, identity) for every card of the kit, in the kit's order."""
    return [(card.id, _identity(card)) for card in kit.cards]
