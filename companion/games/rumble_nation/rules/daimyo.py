"""8 Advanced rules: daimyo cards, chosen face down at set-up and played once (8 ③).

    red daimyo {"moves": [{"to": "kiyosu", "soldiers": 2}, {"to": "odawara", "soldiers": 1}]}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine.core import Action, IllegalAction
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.moves import (
    Move,
    apply_moves,
    check_card_allowed,
    region,
    whole,
)

__all__ = ["DAIMYO", "decide_daimyo", "decide_daimyo_choice"]

RULE = "8.3"


def _home(batch: Batch, player: str) -> str:
    where = batch.state.daimyo_at.get(player)
    if where is None:
        raise IllegalAction(RULE, "your daimyo is not on the map")
    return where


def _targets(batch: Batch, args: dict[str, Any], low: int, high: int) -> list[dict[str, Any]]:
    moves = args.get("moves")
    if not isinstance(moves, tuple) or not moves:
        raise IllegalAction(RULE, "name each destination and how many soldiers go there")
    total = sum(whole(m.get("soldiers"), RULE) for m in moves)
    if not low <= total <= high:
        raise IllegalAction(RULE, f"this card moves {low}-{high} soldiers, not {total}")
    return [dict(m) for m in moves]


def _from_daimyo(batch: Batch, player: str, args: dict[str, Any], owner: str,
                 kind: str | None) -> list[Move]:
    home = _home(batch, player)
    found = []
    for m in _targets(batch, args, 1, 3):
        to = region(batch, m.get("to"), RULE)
        if not batch.kit.linked(home, to, kind):
            raise IllegalAction(RULE, f"{to} is not adjacent to {home}"
                                + (f" by {kind}" if kind else ""))
        found.append({"player": owner, "from": home, "to": to, "soldiers": m["soldiers"]})
    return found


def _uesugi_kenshin(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    return _from_daimyo(batch, player, args, player, "land")


def _takeda_shingen(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    foe = args.get("opponent")
    if foe not in batch.state.players or foe == player:
        raise IllegalAction(RULE, "name the one opponent whose soldiers move")
    return _from_daimyo(batch, player, args, str(foe), None)


def _chosokabe_motochika(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    return _from_daimyo(batch, player, args, player, "sea")


def _mori_motonari(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    home = _home(batch, player)
    found = []
    for m in _targets(batch, args, 1, 3):
        to = region(batch, m.get("to"), RULE)
        if not batch.kit.linked(home, to) or m["soldiers"] != 1:
            raise IllegalAction(RULE, "1 soldier in each region next to your daimyo")
        found.append({"player": player, "from": "reserve", "to": to, "soldiers": 1})
    if len({m["to"] for m in found}) != len(found):
        raise IllegalAction(RULE, "at most 1 soldier per region")
    return found


def _oda_nobunaga(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    home = _home(batch, player)
    to = region(batch, args.get("to"), RULE)
    if not batch.kit.linked(home, to):
        raise IllegalAction(RULE, f"{to} is not adjacent to {home}")
    escort = whole(args.get("soldiers", 0), RULE, 0, 1)
    return [{"player": player, "from": home, "to": to, "soldiers": escort, "daimyo": True}]


def _otomo_sorin(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    home = _home(batch, player)
    swaps = args.get("swaps")
    if not isinstance(swaps, tuple) or not 1 <= len(swaps) <= 2:
        raise IllegalAction(RULE, "1-2 opponent soldiers, each named by region and owner")
    found: list[Move] = []
    for swap in swaps:
        where = region(batch, swap.get("region"), RULE)
        foe = swap.get("opponent")
        if not batch.kit.linked(home, where) or foe not in batch.state.players or foe == player:
            raise IllegalAction(RULE, "opponent soldiers in regions next to your daimyo")
        found += [{"player": foe, "from": where, "to": "reserve", "soldiers": 1},
                  {"player": player, "from": "reserve", "to": where, "soldiers": 1}]
    if len({s.get("region") for s in swaps}) != len(swaps):
        raise IllegalAction(RULE, "at most 1 per region")
    return found


DAIMYO: dict[str, Callable[[Batch, str, dict[str, Any]], list[Move]]] = {
    "uesugi_kenshin": _uesugi_kenshin, "mori_motonari": _mori_motonari,
    "takeda_shingen": _takeda_shingen, "chosokabe_motochika": _chosokabe_motochika,
    "oda_nobunaga": _oda_nobunaga, "otomo_sorin": _otomo_sorin,
}


def decide_daimyo_choice(batch: Batch, action: Action) -> None:
    card = action.args.get("card")
    if card not in batch.state.daimyo_display:
        raise IllegalAction("8", f"{card!r} is not among the daimyo cards on offer",
                            legal=list(batch.state.daimyo_display))
    batch.emit("DaimyoCardChosen", player=action.role, card=card, rule="8")


def decide_daimyo(batch: Batch, action: Action) -> None:
    """Turn your daimyo card face up and carry it out in full; once per game (8 ③)."""
    player, state = action.role, batch.state
    check_card_allowed(batch, player, state.daimyo_used, "the daimyo card", RULE)
    card = state.daimyo_cards[player]
    moves = DAIMYO[card](batch, player, dict(action.args))
    batch.emit("DaimyoCardUsed", player=player, card=card, rule=RULE)
    daimyo = {m["player"]: m["to"] for m in moves if m.pop("daimyo", False)}
    plain = [m for m in moves if m["soldiers"]]
    if plain or not daimyo:
        apply_moves(batch, plain, card, RULE)
    if daimyo:
        batch.emit("UnitsMoved", card=card, moves=[], daimyo=daimyo, rule=RULE)
