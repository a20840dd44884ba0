"""Rumble Nation's cards, regions and players as the table names them: the cards by their
printed titles (the Italian edition's, in either language: 5.1.2, 8.3), the regions by their
printed names, a player by his colour, and lists of them said again in a screen's language.

The lowest layer of the game's words: the rules name cards and regions with it in their
refusals, and `words.py`, which says whole actions, calls the rules (the moves a card makes,
where a deployment goes). Nothing here reads an action or a rule, so the rules may import it
without the words importing them back in a circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine.core import Sentence
from companion.games.rumble_nation.kit import RumbleNationKit

__all__ = ["CARD_NAMES", "COLOURS", "both", "card_name", "card_said", "either", "joined",
           "player", "player_said", "region_name"]

CARD_NAMES = {
    "esplorazione": "Esplorazione", "oltre_le_montagne": "Oltre le Montagne",
    "marina": "Marina", "squadra_di_riserva": "Squadra di Riserva", "ninja": "Ninja",
    "ingresso_a_kyo": "Ingresso a Kyo", "supporto": "Supporto", "ribellione": "Ribellione",
    "esilio": "Esilio", "prigionia": "Prigionia", "diversivo": "Diversivo",
    "ritirata": "Ritirata",
    "uesugi_kenshin": "Uesugi Kenshin", "mori_motonari": "Mōri Motonari",
    "takeda_shingen": "Takeda Shingen", "chosokabe_motochika": "Chōsokabe Motochika",
    "oda_nobunaga": "Oda Nobunaga", "otomo_sorin": "Ōtomo Sōrin",
}
"""The cards' printed titles (5.1.2, 8.3)."""


def card_name(card: Any) -> str:
    """A card by its printed title; what names no card (a refusal quoting what was typed) as
    it was typed."""
    return CARD_NAMES.get(str(card), str(card))


def region_name(kit: RumbleNationKit, region: Any) -> str:
    """A region by its printed name; what names no region (a refusal quoting what was typed)
    as it was typed."""
    return next((loc.name for loc in kit.locations if loc.id == region), str(region))


COLOURS = ("red", "blue", "yellow", "black")
"""The players' colours as the code spells them."""


def player(colour: str) -> Sentence:
    """A player's colour in a refusal or an alert, as the code spells it ("the 2 red
    soldiers"), said again in a screen's language ("Rosso": `locales/it/alerts.po`)."""
    return Sentence(colour)


def player_said(colour: Any) -> Sentence:
    """A player a refusal names as a person, by his colour as the players call each other
    ("Red", "Rosso": `locales/it/words.po`); what names no player is "that player"."""
    if isinstance(colour, str) and colour in COLOURS:
        return Sentence(colour.capitalize())
    return Sentence("that player")


def card_said(card: Any) -> str:
    """A card a refusal names: its printed title, or "that card" for what names none."""
    return CARD_NAMES[card] if isinstance(card, str) and card in CARD_NAMES \
        else Sentence("that card")


def joined(items: Sequence[str], separator: str = ", ") -> str:
    """Items in a list ("a, b, c"): where any is a `Sentence`, a sentence whose template only
    joins them (no catalog entry: it is said again as it is), so each item is said again in
    a screen's language; else the plain text."""
    if not any(isinstance(item, Sentence) for item in items):
        return separator.join(items)
    values = {f"item{n}": item for n, item in enumerate(items)}
    return Sentence(separator.join("{" + name + "}" for name in values), **values)


def either(items: Sequence[str]) -> str:
    """"a or b or c", said again in a screen's language ("a o b o c"); "" for none."""
    said = items[0] if items else ""
    for item in items[1:]:
        said = Sentence("{first} or {last}", first=said, last=item)
    return said


def both(items: Sequence[str]) -> str:
    """"a and b and c", said again in a screen's language ("a e b e c"); "" for none."""
    said = items[0] if items else ""
    for item in items[1:]:
        said = Sentence("{first} and {last}", first=said, last=item)
    return said
