"""What Shogun asks of a drawn board (`companion kit author shogun`).

The rulebook does not print Shogun's board, so a user enters their own copy's: one side of the
board per photo (sun or moon, or the transcribed side corrected), each province with its region,
building spaces and 3-player mark, the province card's rice and taxes, and its neighbours by
land and sea. The bounds, the sides
and the link kinds come from the kit's own models, so the page cannot allow what the kit
refuses.

The writer replaces the drawn side in board.yaml and that side's province cards in cards.yaml; a
card whose province is also on the other side keeps that side (the user's rice and taxes win);
events, components and the other side stay as the kit started from has them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import yaml
from pydantic import BaseModel

from companion.kits.author import (
    AuthorSpec,
    Checked,
    KitField,
    Placed,
    Written,
    bounds_of,
)
from companion.kits.loader import load_kit, shipped_folder

__all__ = ["AUTHOR"]

BOARD, CARDS = "board.yaml", "cards.yaml"
_EXAMPLE: Any = load_kit("shogun")
SIDES = tuple(_EXAMPLE.sides)
"""The kit's sides, in its order (transcribed, sun, moon): a drawing replaces one of them."""
Province: type[BaseModel] = type(_EXAMPLE.locations[0])
ProvinceCard: type[BaseModel] = type(_EXAMPLE.cards[0])
Link: type[BaseModel] = type(_EXAMPLE.roads[0])
PROVINCE_KEYS = {"id": "id", "name": "name", "region": "region", "spaces": "spaces",
                 "unused_with_3": "unused_with_3"}
CARD_KEYS = {"id": "id", "rice": "rice", "taxes": "taxes"}


def _int_field(key: str, label: str, model: type[BaseModel], help_text: str) -> KitField:
    low, high = bounds_of(model, key)
    return KitField(key, label, "int", required=True, minimum=low, maximum=high, help=help_text)


AREA_FIELDS = (
    KitField("id", "Province id", "id", required=True,
             help="lower-case letters, digits and _ (e.g. owari); the province card's id"),
    KitField("name", "Name", "text", required=True, help="as printed on the board"),
    KitField("region", "Region", "id", required=True,
             help="the region's id (e.g. kanto): provinces of one region share it"),
    _int_field("spaces", "Building spaces", Province, "castle, temple and theatre spaces"),
    KitField("unused_with_3", "Not used with 3 players", "bool", default=False,
             help="the province carries the 3-player mark"),
    _int_field("rice", "Rice (province card)", ProvinceCard, "printed on the province card"),
    _int_field("taxes", "Taxes (province card)", ProvinceCard, "printed on the province card"),
)
KIT_FIELDS = (
    KitField("side", "Board side in the photo", "choice", required=True, choices=SIDES,
             default="sun",
             help="sun or moon as printed, or transcribed to correct that side; the others stay"),
    KitField("title", "Kit title", "text", help="shown by companion kit check"),
)


def _read(folder: Path, name: str) -> dict[str, Any]:
    data = yaml.safe_load((folder / name).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{name} is not a mapping")
    return data


def write_shogun(checked: Checked, start: Path) -> Written:
    """board.yaml with the drawn side replaced, cards.yaml with that side's cards."""
    board, cards = _read(start, BOARD), _read(start, CARDS)
    side = str(checked.kit.get("side") or SIDES[0])
    provinces, placed = _provinces(checked, side)
    links = [{"a": a, "b": b, "kind": kind} for _, a, b, kind in checked.links]
    placed += [Placed(BOARD, (side, "links", n), link=index)
               for n, (index, *_) in enumerate(checked.links)]
    board[side] = {"provinces": provinces, "links": links}
    known = {r.get("id") for r in board.get("regions", []) if isinstance(r, dict)}
    for region in dict.fromkeys(str(p["region"]) for p in provinces if p.get("region")):
        if region not in known:
            board.setdefault("regions", []).append(
                {"id": region, "name": region.replace("_", " ").title()})
    cards["cards"], card_places = _cards(checked, side, list(cards.get("cards", [])))
    return Written({BOARD: board, CARDS: cards}, [*placed, *card_places])


def _provinces(checked: Checked, side: str) -> tuple[list[dict[str, Any]], list[Placed]]:
    provinces: list[dict[str, Any]] = []
    placed: list[Placed] = []
    for area, values in checked.areas:
        if not checked.area_id(values):
            continue  # no id yet: already said, and nothing could refer to it
        entry = {key: values[key] for key in PROVINCE_KEYS if values.get(key) is not None}
        if not entry.get("unused_with_3"):
            entry.pop("unused_with_3", None)
        if area.centre is not None:
            entry["xy"] = [round(area.centre[0], 4), round(area.centre[1], 4)]
        placed.append(Placed(BOARD, (side, "provinces", len(provinces)), area=area.uid,
                             fields=PROVINCE_KEYS))
        provinces.append(entry)
    return provinces, placed


def _cards(checked: Checked, side: str,
           kept: list[Any]) -> tuple[list[dict[str, Any]], list[Placed]]:
    """The other side's cards as they were, then the drawn side's (merged by id)."""
    cards: list[dict[str, Any]] = []
    for card in kept:
        if isinstance(card, dict):
            sides = [s for s in card.get("sides", []) if s != side]
            if sides:
                cards.append({**card, "sides": sides})
    index = {card.get("id"): n for n, card in enumerate(cards)}
    placed: list[Placed] = []
    for area, values in checked.areas:
        province = checked.area_id(values)
        if not province:
            continue
        given = {key: values[key] for key in ("rice", "taxes") if values.get(key) is not None}
        if province in index:
            n = index[province]
            both = {*cards[n]["sides"], side}
            cards[n] = {**cards[n], "sides": [s for s in SIDES if s in both], **given}
        else:
            n = index[province] = len(cards)
            cards.append({"id": province, "sides": [side], **given})
        placed.append(Placed(CARDS, ("cards", n), area=area.uid, fields=CARD_KEYS))
    return cards, placed


AUTHOR = AuthorSpec(
    game="shogun", title="Shogun", area_fields=AREA_FIELDS,
    link_kinds=tuple(str(k) for k in get_args(Link.model_fields["kind"].annotation)),
    example=shipped_folder("shogun"), write=write_shogun, kit_fields=KIT_FIELDS,
    area_word="province",
    notes="One side of the board per photo; a kit checks only when every side and the 53 "
          "province cards of the sun and moon sides are there (the kit's transcribed side and "
          "the example's sides count until you replace them).")
"""Shogun's `author` capability."""
