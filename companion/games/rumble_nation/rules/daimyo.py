"""8.3 Daimyo cards: chosen face down at set-up, turned face up and carried out in full once per
game, instead of rolling the dice.

    red daimyo {"moves": [{"to": "kiyosu", "soldiers": 2}, {"to": "odawara", "soldiers": 1}]}
    red daimyo {"opponent": "blue", "moves": [{"to": "kiyosu", "soldiers": 1}]}      Takeda
    red daimyo {"moves": [{"to": "oko", "soldiers": 1}], "daimyo": "oko"}         Chōsokabe
    red daimyo {"to": "kiyosu", "soldiers": 1}                                  Oda Nobunaga
    red daimyo {"swaps": [{"region": "kyo", "opponent": "blue"}]}                Ōtomo Sōrin

A card naming "soldiers" never moves the daimyo; Chōsokabe Motochika's names "units (soldiers
and/or daimyo)" and may (8). Destinations are named once each; the order they are named in does
not matter (the events list them by region).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.moves import (
    Move,
    apply_moves,
    check_card_allowed,
    entries,
    known_keys,
    opponent,
    region,
    whole,
)
from companion.games.rumble_nation.rules.names import card_name, region_name

__all__ = ["DAIMYO", "DaimyoCard", "Played", "daimyo_moves", "decide_daimyo"]

RULE = "8.3"
Args = Mapping[str, Any]
Played = tuple[list[Move], dict[str, str]]
"""The soldiers a card moves, and where daimyo go (player -> region)."""


@dataclass(frozen=True)
class DaimyoCard:
    """A card: the arguments it takes and what it does from the daimyo's region (`home`)."""

    keys: tuple[str, ...]
    play: Callable[[Batch, str, str, Args], Played]


def _next_to(batch: Batch, home: str, to: str, kind: str | None = None) -> None:
    if batch.kit.linked(home, to, kind):
        return
    names = {"region": region_name(batch.kit, to), "home": region_name(batch.kit, home)}
    if kind == "land":
        raise IllegalAction(RULE, Sentence(
            "{region} is not adjacent to your daimyo's region {home} by land", **names))
    if kind == "sea":
        raise IllegalAction(RULE, Sentence(
            "{region} is not adjacent to your daimyo's region {home} by sea", **names))
    raise IllegalAction(RULE, Sentence(
        "{region} is not adjacent to your daimyo's region {home}", **names))


def _spread(batch: Batch, args: Args, home: str, owner: str, kind: str | None,
            also: int = 0) -> list[Move]:
    """1-3 units (`also` of them not soldiers) from the daimyo's region to adjacent regions,
    each destination named once."""
    moves = entries(args.get("moves"), ("to", "soldiers"), RULE, "moves", 3)
    found: list[Move] = []
    for move in moves:
        to = region(batch, move.get("to"), RULE)
        _next_to(batch, home, to, kind)
        found.append({"player": owner, "from": home, "to": to,
                      "soldiers": whole(move.get("soldiers"), RULE, 1, 3)})
    _distinct([m["to"] for m in found])
    total = sum(m["soldiers"] for m in found) + also
    if not 1 <= total <= 3:
        raise IllegalAction(RULE, Sentence("this card moves 1-3 units, not {count}",
                                           count=total))
    return sorted(found, key=lambda m: str(m["to"]))


def _distinct(regions: list[str]) -> None:
    if len(set(regions)) != len(regions):
        raise IllegalAction(RULE, "name each region once")


def _uesugi_kenshin(batch: Batch, player: str, home: str, args: Args) -> Played:
    """1-3 of your soldiers from your daimyo's region to regions adjacent by land."""
    return _spread(batch, args, home, player, "land"), {}


def _takeda_shingen(batch: Batch, player: str, home: str, args: Args) -> Played:
    """1-3 soldiers of one opponent from your daimyo's region to adjacent regions."""
    foe = opponent(batch, player, args.get("opponent"), RULE)
    return _spread(batch, args, home, foe, None), {}


def _chosokabe_motochika(batch: Batch, player: str, home: str, args: Args) -> Played:
    """1-3 of your units (soldiers and/or the daimyo) from the daimyo's region to regions
    adjacent by sea."""
    if "daimyo" not in args:
        return _spread(batch, args, home, player, "sea"), {}
    to = region(batch, args.get("daimyo"), RULE)
    _next_to(batch, home, to, "sea")
    moves = _spread(batch, args, home, player, "sea", also=1) if "moves" in args else []
    return moves, {player: to}


def _mori_motonari(batch: Batch, player: str, home: str, args: Args) -> Played:
    """1-3 soldiers from your reserve, 1 in each of that many regions next to your daimyo."""
    found: list[Move] = []
    for move in entries(args.get("moves"), ("to", "soldiers"), RULE, "moves", 3):
        to = region(batch, move.get("to"), RULE)
        _next_to(batch, home, to)
        whole(move.get("soldiers"), RULE, 1, 1)
        found.append({"player": player, "from": "reserve", "to": to, "soldiers": 1})
    _distinct([m["to"] for m in found])
    return sorted(found, key=lambda m: str(m["to"])), {}


def _oda_nobunaga(batch: Batch, player: str, home: str, args: Args) -> Played:
    """Your daimyo to an adjacent region, with 1 soldier from its region if you like."""
    to = region(batch, args.get("to"), RULE)
    _next_to(batch, home, to)
    escort = whole(args.get("soldiers"), RULE, 0, 1)
    moves = [{"player": player, "from": home, "to": to, "soldiers": 1}] if escort else []
    return moves, {player: to}


def _otomo_sorin(batch: Batch, player: str, home: str, args: Args) -> Played:
    """1-2 opponent soldiers (1 per region next to your daimyo) back to their reserves, each
    replaced by one of yours from your reserve."""
    swaps = entries(args.get("swaps"), ("region", "opponent"), RULE, "swaps", 2)
    found: list[Move] = []
    named = []
    for swap in swaps:
        where = region(batch, swap.get("region"), RULE)
        _next_to(batch, home, where)
        foe = opponent(batch, player, swap.get("opponent"), RULE)
        named.append((where, foe))
    _distinct([where for where, _ in named])
    for where, foe in sorted(named):
        found += [{"player": foe, "from": where, "to": "reserve", "soldiers": 1},
                  {"player": player, "from": "reserve", "to": where, "soldiers": 1}]
    return found, {}


DAIMYO: dict[str, DaimyoCard] = {
    "uesugi_kenshin": DaimyoCard(("moves",), _uesugi_kenshin),
    "mori_motonari": DaimyoCard(("moves",), _mori_motonari),
    "takeda_shingen": DaimyoCard(("opponent", "moves"), _takeda_shingen),
    "chosokabe_motochika": DaimyoCard(("moves", "daimyo"), _chosokabe_motochika),
    "oda_nobunaga": DaimyoCard(("to", "soldiers"), _oda_nobunaga),
    "otomo_sorin": DaimyoCard(("swaps",), _otomo_sorin),
}


def _held(batch: Batch, player: str) -> str:
    card = batch.state.daimyo_cards.get(player)
    if card is None:
        raise IllegalAction(RULE, "you hold no daimyo card")
    return card


def daimyo_moves(batch: Batch, player: str, args: Args) -> Played:
    """What `player`'s daimyo card does from his daimyo's region (8.3), its arguments read and
    checked; IllegalAction if they do not make a play. The card is carried out and said
    ("Oda Nobunaga: the daimyo Kyo → Kiyosu") from these same moves."""
    card = _held(batch, player)
    home = batch.state.daimyo_at.get(player)
    if home is None:
        raise IllegalAction(RULE, Sentence(
            "{card} acts from your daimyo's region: deploy your daimyo first",
            card=card_name(card)))
    return DAIMYO[card].play(batch, player, home, args)


def decide_daimyo(batch: Batch, action: Action) -> None:
    """Turn your daimyo card face up and carry it out in full; once per game (8.3)."""
    player, state = action.role, batch.state
    check_card_allowed(batch, player, state.daimyo_used, Sentence("the daimyo card"), RULE)
    card = _held(batch, player)
    known_keys(action.args, DAIMYO[card].keys, RULE, card_name(card))
    moves, daimyo = daimyo_moves(batch, player, action.args)
    batch.emit("DaimyoCardUsed", player=player, card=card, rule=RULE)
    apply_moves(batch, moves, card, RULE, daimyo)
