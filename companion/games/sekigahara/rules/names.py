"""Sekigahara's pieces and places as players name them, in English or said again in a screen's
language: blocks by their faces ("Mōri 3", "Fukushima cavalry", the commanders and Mōri Terumoto
by name, 3.2, 9.3), cards by their mon and kind (3.3), places by their printed names.

The lowest layer of the game's words: the rules name pieces with it in their refusals, and
`words.py`, which says whole actions, calls the rules. Nothing here reads an action or a rule,
so the rules may import it without the words importing them back in a circle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from companion.engine.core import Sentence
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.sekigahara.rules.state import BAG, ELIMINATED

__all__ = [
    "CLANS",
    "COMMANDERS",
    "DEPLOYMENT",
    "DISKS",
    "NAMED_LEADERS",
    "Translate",
    "at_place",
    "block_name",
    "block_names",
    "card_name",
    "card_names",
    "card_said",
    "clan_name",
    "clauses",
    "count_blocks",
    "count_cards",
    "listed",
    "place_name",
    "side_name",
    "side_said",
]

Translate = Callable[[str], str]

DEPLOYMENT = "deployment"
"""The table area beside the board where deployed blocks are laid (the referee's zone)."""

CLANS: Mapping[str, str] = {
    "ishida": "Ishida", "kobayakawa": "Kobayakawa", "mori": "Mōri", "uesugi": "Uesugi",
    "ukita": "Ukita", "tokugawa": "Tokugawa", "fukushima": "Fukushima", "date": "Date",
    "maeda": "Maeda", "ii": "Ii",
}
"""Each daimyo as the rulebook spells it (Mōri with its long vowel, 9.3)."""

COMMANDERS: Mapping[str, str] = {"ishida": "Ishida Mitsunari", "tokugawa": "Tokugawa Ieyasu"}
"""The two blocks with the 3-dot nobori (3.2, 2.1)."""

NAMED_LEADERS: Mapping[str, str] = {"mori": "Mōri Terumoto"}
"""Clan leaders the rulebook names (9.3); the others are "Ukita leader" and so on."""

DISKS: Mapping[str, str] = {"toyotomi_hideyori": "Toyotomi Hideyori",
                            "sanada_masayuki": "Sanada Masayuki"}
"""The two disks (3.4, 9.1, 9.2)."""


def _english(text: str) -> str:
    return text



def side_name(side: str) -> str:
    """A side as players say it: "Ishida", "Tokugawa" (the same in every language)."""
    return side[:1].upper() + side[1:]


def side_said(side: object) -> str:
    """A side a refusal names: "Ishida", "Tokugawa"; "that side" for what names neither."""
    return side_name(side) if side in ("ishida", "tokugawa") else Sentence("that side")


def card_said(kit: SekigaharaKit, card: object) -> str:
    """A card a refusal names, by its mon and kind; "that card" for what names none."""
    return card_name(kit, card) if isinstance(card, str) and card in kit.card \
        else Sentence("that card")


def clan_name(clan: str | None) -> str:
    return CLANS.get(clan or "", (clan or "").replace("_", " ").title())


def _in(t: Translate, sentence: Sentence) -> str:
    """The sentence itself in English (a refusal keeps it, so a screen can say it again in
    its language), else said at once with `t`."""
    return sentence if t is _english else sentence.say(t)


def listed(names: Sequence[str]) -> str:
    """Names one after another, "Mōri 3, Ukita leader": a sentence whose parts are said
    again in a screen's language (a name that is words, "Ukita leader", is translated)."""
    if not names:
        return ""
    text = names[0]
    for name in names[1:]:
        text = Sentence("{first}, {second}", first=text, second=name)
    return text


def clauses(parts: Sequence[str]) -> str:
    """Sentences one after another, "put Mōri 3 back at Gifu; put Ukita 2 back at Kiso"."""
    if not parts:
        return ""
    text = parts[0]
    for part in parts[1:]:
        text = Sentence("{first}; {second}", first=text, second=part)
    return text


def block_name(kit: SekigaharaKit, block: str, t: Translate = _english) -> str:
    """A block (or disk) by its face: "Mōri 3", "Fukushima cavalry", "Ishida Mitsunari"."""
    if block in DISKS:
        return DISKS[block]
    face = kit.block.get(block)
    if face is None:
        return _in(t, Sentence("an unknown block"))
    clan = clan_name(face.clan)
    if face.leader == 3:
        return COMMANDERS.get(face.side) or _in(t, Sentence("{clan} leader", clan=clan))
    if face.leader:
        return NAMED_LEADERS.get(face.clan) or _in(t, Sentence("{clan} leader", clan=clan))
    if face.attack == "cavalry":
        return _in(t, Sentence("{clan} cavalry", clan=clan))
    if face.attack == "arquebus":
        return _in(t, Sentence("{clan} arquebus", clan=clan))
    return f"{clan} {face.strength}"


def _collapse(names: Iterable[str], t: Translate) -> str:
    """Names in order, repeats counted with a multiplication sign: "Mōri 3 (times) 2"."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    parts = [name if n == 1 else Sentence("{name} \N{MULTIPLICATION SIGN}{count}", name=name,
                                          count=n)
             for name, n in counts.items()]
    text = listed(parts)
    return text.say(t) if isinstance(text, Sentence) and t is not _english else text


def block_names(kit: SekigaharaKit, blocks: Iterable[str], t: Translate = _english) -> str:
    """Several blocks by their faces, strongest first as a player lines them up."""
    def order(block: str) -> tuple[int, int, str]:
        face = kit.block.get(block)
        if face is None:
            return (2, 0, block)
        return (0 if face.leader else 1, -face.strength, block)
    return _collapse((block_name(kit, b) for b in sorted(blocks, key=order)), t)


def card_name(kit: SekigaharaKit, card: str, t: Translate = _english) -> str:
    """A card by its mon and kind: "Mōri card", "Mōri swords card", "loyalty card" (3.3)."""
    face = kit.card.get(card)
    if face is None:
        return _in(t, Sentence("an unknown card"))
    clan = clan_name(face.clan)
    if face.kind == "loyalty":
        return _in(t, Sentence("loyalty card"))
    if face.kind == "special":
        return _in(t, Sentence("{clan} swords card", clan=clan))
    if face.kind == "double":
        return _in(t, Sentence("{clan} double card", clan=clan))
    return _in(t, Sentence("{clan} card", clan=clan))


def card_names(kit: SekigaharaKit, cards: Iterable[str], t: Translate = _english) -> str:
    return _collapse((card_name(kit, c) for c in cards), t)


def place_name(kit: SekigaharaKit, place: str, t: Translate = _english,
               side: str | None = None) -> str:
    """A location by its printed name; a box, a bag or the eliminated blocks in words."""
    loc = kit.location.get(place)
    if loc is not None:
        return loc.name
    if place.endswith("_recruitment"):
        return _in(t, Sentence("the {side} recruitment box", side=side_name(place[:-12])))
    if place == "mori_box":
        return _in(t, Sentence("the Mōri box"))
    if place == BAG:
        return _in(t, Sentence("the {side} bag", side=side_name(side)) if side
                   else Sentence("the bag"))
    if place == ELIMINATED:
        return _in(t, Sentence("the eliminated blocks"))
    if place == DEPLOYMENT:
        return _in(t, Sentence("the deployment area"))
    return _in(t, Sentence("a place off the map"))


def at_place(kit: SekigaharaKit, place: str, t: Translate = _english,
             side: str | None = None) -> str:
    """Where something stands, with its preposition: "at Gifu", "in the Mōri box"."""
    if place in kit.location:
        return _in(t, Sentence("at {place}", place=place_name(kit, place)))
    if place.endswith("_recruitment"):
        return _in(t, Sentence("in the {side} recruitment box", side=side_name(place[:-12])))
    if place == "mori_box":
        return _in(t, Sentence("in the Mōri box"))
    if place == BAG:
        return _in(t, Sentence("in the {side} bag", side=side_name(side)) if side
                   else Sentence("in the bag"))
    if place == ELIMINATED:
        return _in(t, Sentence("among the eliminated blocks"))
    if place == DEPLOYMENT:
        return _in(t, Sentence("in the deployment area"))
    return _in(t, Sentence("off the map"))


def count_blocks(count: int, t: Translate = _english) -> str:
    return _in(t, Sentence("1 block") if count == 1 else Sentence("{count} blocks", count=count))


def count_cards(count: int, t: Translate = _english) -> str:
    return _in(t, Sentence("1 card") if count == 1 else Sentence("{count} cards", count=count))
