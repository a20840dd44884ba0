"""The twelve tactic cards (5.1.2), each carried out in full or not at all.

    red tactic {"card": "esplorazione", "from": "kyo", "to": "kiyosu"}
    red tactic {"card": "ninja", "from": "kyo", "to": "shuri"}
    red tactic {"card": "ingresso_a_kyo", "moves": {"kiyosu": 2, "yoshida": 1}}
    red tactic {"card": "supporto", "to": "kyo"}
    red tactic {"card": "ribellione", "region": "kyo", "opponent": "blue"}
    red tactic {"card": "esilio", "from": "kyo", "to": "oko", "opponent": "blue"}
    red tactic {"card": "diversivo", "from": "kyo", "to": "oko", "opponents": ["blue", "blue"]}
    red tactic {"card": "ritirata", "regions": ["kyo", "oko"]}

Each card takes exactly the arguments it needs; anything else is refused, naming the key.
While deploying, a daimyo counts as a soldier wherever a card asks whether a region holds your
soldiers, but a card never moves or removes it (8).
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
    known_keys,
    opponent,
    region,
    whole,
)
from companion.games.rumble_nation.rules.names import (
    card_name,
    card_said,
    player_said,
    region_name,
)

__all__ = ["TACTICS", "Tactic", "decide_tactic", "tactic_moves"]

RULE = "5.1.2"
Args = Mapping[str, Any]


@dataclass(frozen=True)
class Tactic:
    """A card: the arguments it takes (besides `card`) and the moves it makes."""

    keys: tuple[str, ...]
    play: Callable[[Batch, str, Args], list[Move]]


def _adjacent(batch: Batch, a: str, b: str, kind: str | None = None) -> None:
    if batch.kit.linked(a, b, kind):
        return
    names = {"origin": region_name(batch.kit, a), "destination": region_name(batch.kit, b)}
    if kind == "land":
        raise IllegalAction(RULE, Sentence("{origin} and {destination} are not adjacent by land",
                                           **names))
    if kind == "sea":
        raise IllegalAction(RULE, Sentence("{origin} and {destination} are not adjacent by sea",
                                           **names))
    raise IllegalAction(RULE, Sentence("{origin} and {destination} are not adjacent", **names))


def _holds(batch: Batch, where: str, player: str, what: str) -> None:
    """The region must hold the player's soldiers (his daimyo counts: 8)."""
    if not batch.state.units(where, player):
        raise IllegalAction(RULE, Sentence(
            "{card}: {region} holds none of {player}'s soldiers", card=what,
            region=region_name(batch.kit, where), player=player_said(player)))


def _move(batch: Batch, owner: str, args: Args, count: int, kind: str | None = None
          ) -> list[Move]:
    frm, to = region(batch, args.get("from"), RULE), region(batch, args.get("to"), RULE)
    _adjacent(batch, frm, to, kind)
    return [{"player": owner, "from": frm, "to": to, "soldiers": count}]


def _esplorazione(batch: Batch, player: str, args: Args) -> list[Move]:
    """1 soldier to an adjacent region."""
    return _move(batch, player, args, 1)


def _oltre_le_montagne(batch: Batch, player: str, args: Args) -> list[Move]:
    """2 soldiers from one region to one adjacent by land."""
    return _move(batch, player, args, 2, "land")


def _marina(batch: Batch, player: str, args: Args) -> list[Move]:
    """2 soldiers from one region to one adjacent by sea."""
    return _move(batch, player, args, 2, "sea")


def _squadra_di_riserva(batch: Batch, player: str, args: Args) -> list[Move]:
    """Half the soldiers (rounded down) of a region holding 2 or more, to an adjacent one.
    The daimyo counts towards the half while deploying but stays behind (8)."""
    frm = region(batch, args.get("from"), RULE)
    have = batch.state.units(frm, player)
    if have < 2:
        raise IllegalAction(RULE, Sentence(
            "Squadra di Riserva needs 2 or more of your soldiers in {region}, not {count}",
            region=region_name(batch.kit, frm), count=have))
    return _move(batch, player, args, have // 2)


def _ninja(batch: Batch, player: str, args: Args) -> list[Move]:
    """1 soldier to any other region already holding yours, adjacent or not."""
    frm, to = region(batch, args.get("from"), RULE), region(batch, args.get("to"), RULE)
    if to == frm:
        raise IllegalAction(RULE, "Ninja moves a soldier to another region")
    _holds(batch, to, player, "Ninja")
    return [{"player": player, "from": frm, "to": to, "soldiers": 1}]


def _ingresso_a_kyo(batch: Batch, player: str, args: Args) -> list[Move]:
    """Any number of soldiers from the regions next to Kyo into Kyo (at least one)."""
    kyo = batch.kit.components.kyo
    moves = args.get("moves")
    if not isinstance(moves, Mapping) or not moves:
        raise IllegalAction(RULE, "Ingresso a Kyo: name the regions next to Kyo and how many "
                            "soldiers come from each")
    found: list[Move] = []
    for frm in sorted(moves):
        _adjacent(batch, region(batch, frm, RULE), kyo)
        found.append({"player": player, "from": frm, "to": kyo,
                      "soldiers": whole(moves[frm], RULE)})
    return found


def _supporto(batch: Batch, player: str, args: Args) -> list[Move]:
    """1 soldier from the reserve to a region holding yours."""
    to = region(batch, args.get("to"), RULE)
    _holds(batch, to, player, "Supporto")
    return [{"player": player, "from": "reserve", "to": to, "soldiers": 1}]


def _ribellione(batch: Batch, player: str, args: Args) -> list[Move]:
    """An opponent's soldier back to his reserve, one of yours from your reserve instead."""
    where = region(batch, args.get("region"), RULE)
    foe = opponent(batch, player, args.get("opponent"), RULE)
    return [{"player": foe, "from": where, "to": "reserve", "soldiers": 1},
            {"player": player, "from": "reserve", "to": where, "soldiers": 1}]


def _esilio(batch: Batch, player: str, args: Args) -> list[Move]:
    """An opponent's soldier out of a region holding yours, to an adjacent one."""
    foe = opponent(batch, player, args.get("opponent"), RULE)
    _holds(batch, region(batch, args.get("from"), RULE), player, "Esilio")
    return _move(batch, foe, args, 1)


def _prigionia(batch: Batch, player: str, args: Args) -> list[Move]:
    """An opponent's soldier into an adjacent region holding yours."""
    foe = opponent(batch, player, args.get("opponent"), RULE)
    _holds(batch, region(batch, args.get("to"), RULE), player, "Prigionia")
    return _move(batch, foe, args, 1)


def _diversivo(batch: Batch, player: str, args: Args) -> list[Move]:
    """1 of your soldiers and 2 of your opponents' from one region to one adjacent; the two
    may belong to different opponents (named in any order)."""
    foes = args.get("opponents")
    if not isinstance(foes, tuple) or len(foes) != 2:
        raise IllegalAction(RULE, "Diversivo moves 2 opponent soldiers: name their owners")
    named = [opponent(batch, player, f, RULE) for f in foes]
    moves = _move(batch, player, args, 1)
    for foe in batch.state.players:
        if foe in named:
            moves += _move(batch, foe, args, named.count(foe))
    return moves


def _ritirata(batch: Batch, player: str, args: Args) -> list[Move]:
    """2 of your soldiers back to your reserve, from one region or two."""
    regions = args.get("regions")
    if not isinstance(regions, tuple) or len(regions) != 2:
        raise IllegalAction(RULE, "Ritirata returns 2 of your soldiers: name their regions")
    named = sorted(region(batch, r, RULE) for r in regions)
    return [{"player": player, "from": r, "to": "reserve", "soldiers": named.count(r)}
            for r in sorted(set(named))]


TACTICS: dict[str, Tactic] = {
    "esplorazione": Tactic(("from", "to"), _esplorazione),
    "oltre_le_montagne": Tactic(("from", "to"), _oltre_le_montagne),
    "marina": Tactic(("from", "to"), _marina),
    "squadra_di_riserva": Tactic(("from", "to"), _squadra_di_riserva),
    "ninja": Tactic(("from", "to"), _ninja),
    "ingresso_a_kyo": Tactic(("moves",), _ingresso_a_kyo),
    "supporto": Tactic(("to",), _supporto),
    "ribellione": Tactic(("region", "opponent"), _ribellione),
    "esilio": Tactic(("from", "to", "opponent"), _esilio),
    "prigionia": Tactic(("from", "to", "opponent"), _prigionia),
    "diversivo": Tactic(("from", "to", "opponents"), _diversivo),
    "ritirata": Tactic(("regions",), _ritirata),
}


def tactic_moves(batch: Batch, player: str, args: Args) -> list[Move]:
    """The soldiers the tactic card `args["card"]` moves for `player`, its arguments read and
    checked (5.1.2); IllegalAction if they do not make a play (KeyError if it names no tactic
    card: `decide_tactic` refuses that first). The card is carried out and said ("Esilio:
    1 blue soldier Kyo → Okō") from these same moves."""
    return TACTICS[str(args.get("card"))].play(batch, player, args)


def decide_tactic(batch: Batch, action: Action) -> None:
    """Take a card from the display and carry it out in full; once per game (5.1.2)."""
    player, state = action.role, batch.state
    check_card_allowed(batch, player, state.tactic_used, Sentence("a tactic card"), RULE)
    card = action.args.get("card")
    if not isinstance(card, str) or card not in state.tactics:
        shown = ", ".join(card_name(c) for c in state.tactics)
        raise IllegalAction(RULE, Sentence("{card} is not on the display ({cards})",
                                           card=card_said(card), cards=shown))
    known_keys(action.args, ("card", *TACTICS[card].keys), RULE, card_name(card))
    moves = tactic_moves(batch, player, action.args)
    batch.emit("TacticCardUsed", player=player, card=card, rule=RULE)
    apply_moves(batch, moves, card, RULE)
