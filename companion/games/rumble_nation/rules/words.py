"""Actions said in a player's words: the `legal` list of a refusal, what the tablet shows.

Regions by their printed names, cards by their printed titles (the Italian edition's), so a
refusal reads "legal: Ninja: 1 soldier Kyo → Okō" rather than a line of JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.core import Action
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.context import deployable
from companion.games.rumble_nation.rules.state import RNState

__all__ = ["card_name", "region_name", "say"]

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
    return CARD_NAMES.get(str(card), str(card))


def region_name(kit: RumbleNationKit, region: Any) -> str:
    return next((loc.name for loc in kit.locations if loc.id == region), str(region))


def _soldiers(n: int) -> str:
    return f"{n} soldier{'s' if n != 1 else ''}"


def _deploy(kit: RumbleNationKit, state: RNState, role: str, args: Mapping[str, Any]) -> str:
    i, j = args["pair"]
    total = state.dice[i] + state.dice[j]
    where = next((r for r, v in state.castles.items() if v == total), "?")
    units = deployable(state, role, state.dice[3 - i - j])
    who = f"your daimyo and {_soldiers(units - 1)}" if args.get("daimyo") else _soldiers(units)
    return f"pair {state.dice[i]}+{state.dice[j]}: {who} to {region_name(kit, where)}"


def _route(kit: RumbleNationKit, args: Mapping[str, Any]) -> str:
    return f"{region_name(kit, args.get('from'))} → {region_name(kit, args.get('to'))}"


def _card_args(kit: RumbleNationKit, args: Mapping[str, Any]) -> str:
    """The arguments of a tactic or daimyo card, said briefly (each card takes a few of them:
    tactics.py and daimyo.py)."""
    parts: list[str] = []
    if "opponents" in args:
        parts.append(f"yours with {' and '.join(args['opponents'])}'s")
    if "opponent" in args:
        parts.append(f"{args['opponent']}'s")
    if "region" in args:
        parts.append(f"in {region_name(kit, args['region'])}")
    if "from" in args:
        parts.append(_route(kit, args))
    elif "to" in args:
        parts.append(f"→ {region_name(kit, args['to'])}")
    if "regions" in args:
        a, b = args["regions"]
        parts.append(f"from {region_name(kit, a)}"
                     + (" (2)" if a == b else f" and {region_name(kit, b)}"))
    if isinstance(args.get("moves"), Mapping):
        parts.append(", ".join(f"{n} from {region_name(kit, r)}"
                               for r, n in args["moves"].items()))
    elif "moves" in args:
        parts.append(", ".join(f"{m['soldiers']} → {region_name(kit, m['to'])}"
                               for m in args["moves"]))
    if "swaps" in args:
        parts.append(", ".join(f"{s['opponent']}'s in {region_name(kit, s['region'])}"
                               for s in args["swaps"]))
    if "daimyo" in args:
        parts.append(f"daimyo → {region_name(kit, args['daimyo'])}")
    if "soldiers" in args:
        parts.append(f"with {_soldiers(args['soldiers'])}")
    return " ".join(parts)


def _oda(kit: RumbleNationKit, args: Mapping[str, Any]) -> str:
    return f"daimyo → {region_name(kit, args['to'])} with {_soldiers(args['soldiers'])}"


def say(kit: RumbleNationKit, state: RNState, action: Action) -> str:
    """One legal action in words (the actions `legal_actions` lists: well-formed)."""
    args = action.args
    if action.verb == "deploy":
        return _deploy(kit, state, action.role, args)
    if action.verb == "tactic":
        return f"{card_name(args['card'])}: {_card_args(kit, args)}"
    if action.verb == "daimyo":
        card = state.daimyo_cards[action.role]
        said = _oda(kit, args) if "to" in args else _card_args(kit, args)
        return f"{card_name(card)}: {said}"
    if action.verb == "choose_daimyo":
        return f"take {card_name(args['card'])}"
    return {"roll": "roll the three dice", "reroll": "reroll all three dice"}.get(
        action.verb, action.text())
