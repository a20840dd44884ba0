"""The twelve tactic cards (5.1 ②), each carried out in full or not at all.

    red tactic {"card": "esplorazione", "from": "kyo", "to": "kiyosu"}
    red tactic {"card": "ingresso_a_kyo", "moves": {"kiyosu": 2, "yoshida": 1}}
    red tactic {"card": "diversivo", "from": "kyo", "to": "oko", "opponents": ["blue", "blue"]}
    red tactic {"card": "ritirata", "regions": ["kyo", "oko"]}
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

__all__ = ["TACTICS", "decide_tactic"]

RULE = "5.1.2"


def _adjacent(batch: Batch, a: str, b: str, kind: str | None = None) -> None:
    if not batch.kit.linked(a, b, kind):
        link = f" by {kind}" if kind else ""
        raise IllegalAction(RULE, f"{a} and {b} are not adjacent{link}")


def _opponent(batch: Batch, player: str, value: Any) -> str:
    if value not in batch.state.players or value == player:
        raise IllegalAction(RULE, f"{value!r} is not an opponent")
    return str(value)


def _move(batch: Batch, player: str, args: dict[str, Any], count: int,
          kind: str | None = None) -> list[Move]:
    frm, to = region(batch, args.get("from"), RULE), region(batch, args.get("to"), RULE)
    _adjacent(batch, frm, to, kind)
    return [{"player": player, "from": frm, "to": to, "soldiers": count}]


def _esplorazione(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    return _move(batch, player, args, 1)


def _oltre_le_montagne(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    return _move(batch, player, args, 2, "land")


def _marina(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    return _move(batch, player, args, 2, "sea")


def _squadra_di_riserva(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    frm = region(batch, args.get("from"), RULE)
    have = batch.state.count(frm, player)
    if have < 2:
        raise IllegalAction(RULE, "Squadra di Riserva needs 2 or more soldiers in the region")
    return _move(batch, player, args, have // 2)


def _ninja(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    frm, to = region(batch, args.get("from"), RULE), region(batch, args.get("to"), RULE)
    if to == frm or not batch.state.units(to, player):
        raise IllegalAction(RULE, "Ninja goes to another region that holds your soldiers")
    return [{"player": player, "from": frm, "to": to, "soldiers": 1}]


def _ingresso_a_kyo(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    kyo = batch.kit.components.kyo
    moves = args.get("moves")
    if not isinstance(moves, dict) or not moves:
        raise IllegalAction(RULE, "name the regions next to Kyo and how many soldiers come")
    found = []
    for frm, count in moves.items():
        _adjacent(batch, region(batch, frm, RULE), kyo)
        found.append({"player": player, "from": frm, "to": kyo,
                      "soldiers": whole(count, RULE)})
    return found


def _supporto(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    to = region(batch, args.get("to"), RULE)
    if not batch.state.units(to, player):
        raise IllegalAction(RULE, "Supporto reinforces a region that holds your soldiers")
    return [{"player": player, "from": "reserve", "to": to, "soldiers": 1}]


def _ribellione(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    where = region(batch, args.get("region"), RULE)
    foe = _opponent(batch, player, args.get("opponent"))
    return [{"player": foe, "from": where, "to": "reserve", "soldiers": 1},
            {"player": player, "from": "reserve", "to": where, "soldiers": 1}]


def _esilio(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    foe = _opponent(batch, player, args.get("opponent"))
    frm = region(batch, args.get("from"), RULE)
    if not batch.state.units(frm, player):
        raise IllegalAction(RULE, "Esilio moves an opponent out of a region you hold")
    return _move(batch, foe, args, 1)


def _prigionia(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    foe = _opponent(batch, player, args.get("opponent"))
    to = region(batch, args.get("to"), RULE)
    if not batch.state.units(to, player):
        raise IllegalAction(RULE, "Prigionia brings an opponent into a region you hold")
    return _move(batch, foe, args, 1)


def _diversivo(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    foes = args.get("opponents")
    if not isinstance(foes, tuple) or len(foes) != 2:
        raise IllegalAction(RULE, "Diversivo takes 2 opponent soldiers: name their owners")
    moves = _move(batch, player, args, 1)
    for foe in foes:
        moves += _move(batch, _opponent(batch, player, foe), args, 1)
    return moves


def _ritirata(batch: Batch, player: str, args: dict[str, Any]) -> list[Move]:
    regions = args.get("regions")
    if not isinstance(regions, tuple) or len(regions) != 2:
        raise IllegalAction(RULE, "Ritirata returns 2 of your soldiers: name their regions")
    return [{"player": player, "from": region(batch, r, RULE), "to": "reserve", "soldiers": 1}
            for r in regions]


TACTICS: dict[str, Callable[[Batch, str, dict[str, Any]], list[Move]]] = {
    "esplorazione": _esplorazione, "oltre_le_montagne": _oltre_le_montagne,
    "marina": _marina, "squadra_di_riserva": _squadra_di_riserva, "ninja": _ninja,
    "ingresso_a_kyo": _ingresso_a_kyo, "supporto": _supporto, "ribellione": _ribellione,
    "esilio": _esilio, "prigionia": _prigionia, "diversivo": _diversivo, "ritirata": _ritirata,
}


def decide_tactic(batch: Batch, action: Action) -> None:
    """Take a card from the display and carry it out in full; once per game (5.1 ②)."""
    player, state = action.role, batch.state
    card = action.args.get("card")
    check_card_allowed(batch, player, state.tactic_used, "a tactic card", RULE)
    if card not in state.tactics:
        raise IllegalAction(RULE, f"{card!r} is not on the display",
                            legal=list(state.tactics))
    moves = TACTICS[str(card)](batch, player, dict(action.args))
    batch.emit("TacticCardUsed", player=player, card=card, rule=RULE)
    apply_moves(batch, moves, str(card), RULE)
