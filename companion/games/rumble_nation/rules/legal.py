"""Every legal action, built from the position: each distinct play listed once, in the one
spelling `decide` would give it (no duplicates differing only in order, no arguments the card
does not use). `RumbleNationRules.legal_actions` still filters them through `decide`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from companion.engine.core import Action
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.state import RNState

__all__ = ["candidates"]

Args = dict[str, Any]
Lister = Callable[[RumbleNationKit, RNState, str], list[Args]]


def _mine(kit: RumbleNationKit, state: RNState, role: str, least: int = 1) -> list[str]:
    """Regions with at least `least` of the player's soldiers (his daimyo not counted)."""
    return [r for r in sorted(kit.neighbours) if state.count(r, role) >= least]


def _held(kit: RumbleNationKit, state: RNState, role: str) -> list[str]:
    """Regions holding the player's soldiers, his daimyo counting as one (8)."""
    return [r for r in sorted(kit.neighbours) if state.units(r, role)]


def _foes(state: RNState, role: str) -> list[str]:
    return [p for p in state.players if p != role]


def _steps(kit: RumbleNationKit, froms: list[str], kind: str | None = None) -> list[Args]:
    return [{"from": a, "to": b} for a in froms for b in kit.neighbours[a]
            if kind is None or kit.linked(a, b, kind)]


def _ninja(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    return [{"from": a, "to": b} for a in _mine(kit, state, role)
            for b in _held(kit, state, role) if b != a]


def _ingresso_a_kyo(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    near = [r for r in kit.neighbours[kit.components.kyo] if state.count(r, role)]
    counts = product(*(range(state.count(r, role) + 1) for r in near))
    return [{"moves": {r: n for r, n in zip(near, c, strict=True) if n}}
            for c in counts if any(c)]


def _supporto(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    return [{"to": r} for r in _held(kit, state, role)] if state.reserve.get(role) else []


def _ribellione(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    if not state.reserve.get(role):
        return []
    return [{"region": r, "opponent": f} for r in sorted(kit.neighbours)
            for f in _foes(state, role) if state.count(r, f)]


def _esilio(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    return [{"from": a, "to": b, "opponent": f} for a in _held(kit, state, role)
            for f in _foes(state, role) if state.count(a, f) for b in kit.neighbours[a]]


def _prigionia(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    return [{"from": a, "to": b, "opponent": f} for a in sorted(kit.neighbours)
            for f in _foes(state, role) if state.count(a, f)
            for b in kit.neighbours[a] if state.units(b, role)]


def _diversivo(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    found = []
    for a in _mine(kit, state, role):
        pairs = [list(p) for p in combinations_with_replacement(_foes(state, role), 2)
                 if all(state.count(a, f) >= p.count(f) for f in p)]
        found += [{"from": a, "to": b, "opponents": p} for p in pairs
                  for b in kit.neighbours[a]]
    return found


def _ritirata(kit: RumbleNationKit, state: RNState, role: str) -> list[Args]:
    return [{"regions": [a, b]}
            for a, b in combinations_with_replacement(_mine(kit, state, role), 2)
            if a != b or state.count(a, role) >= 2]


TACTICS: dict[str, Lister] = {
    "esplorazione": lambda kit, state, role: _steps(kit, _mine(kit, state, role)),
    "oltre_le_montagne": lambda kit, state, role: _steps(kit, _mine(kit, state, role, 2),
                                                         "land"),
    "marina": lambda kit, state, role: _steps(kit, _mine(kit, state, role, 2), "sea"),
    "squadra_di_riserva": lambda kit, state, role: _steps(
        kit, [r for r in sorted(kit.neighbours) if state.units(r, role) >= 2]),
    "ninja": _ninja, "ingresso_a_kyo": _ingresso_a_kyo, "supporto": _supporto,
    "ribellione": _ribellione, "esilio": _esilio, "prigionia": _prigionia,
    "diversivo": _diversivo, "ritirata": _ritirata,
}


def spreads(places: tuple[str, ...] | list[str], most: int) -> Iterator[list[dict[str, Any]]]:
    """Every way to send 1 to `most` soldiers to `places` (each named once, in order)."""
    for counts in product(range(most + 1), repeat=len(places)):
        if 1 <= sum(counts) <= most:
            yield [{"to": p, "soldiers": n} for p, n in zip(places, counts, strict=True) if n]


def _by(kit: RumbleNationKit, home: str, kind: str | None = None) -> list[str]:
    return [r for r in kit.neighbours[home] if kind is None or kit.linked(home, r, kind)]


def _uesugi(kit: RumbleNationKit, state: RNState, role: str, home: str) -> list[Args]:
    return [{"moves": m} for m in spreads(_by(kit, home, "land"),
                                          min(3, state.count(home, role)))]


def _takeda(kit: RumbleNationKit, state: RNState, role: str, home: str) -> list[Args]:
    return [{"opponent": f, "moves": m} for f in _foes(state, role)
            for m in spreads(_by(kit, home), min(3, state.count(home, f)))]


def _chosokabe(kit: RumbleNationKit, state: RNState, role: str, home: str) -> list[Args]:
    sea, have = _by(kit, home, "sea"), state.count(home, role)
    found: list[Args] = [{"moves": m} for m in spreads(sea, min(3, have))]
    for to in sea:
        found.append({"daimyo": to})
        found += [{"moves": m, "daimyo": to} for m in spreads(sea, min(2, have))]
    return found


def _mori(kit: RumbleNationKit, state: RNState, role: str, home: str) -> list[Args]:
    most = min(3, state.reserve.get(role, 0))
    return [{"moves": [{"to": r, "soldiers": 1} for r in chosen]}
            for k in range(1, most + 1) for chosen in combinations(_by(kit, home), k)]


def _oda(kit: RumbleNationKit, state: RNState, role: str, home: str) -> list[Args]:
    escorts = (0, 1) if state.count(home, role) else (0,)
    return [{"to": r, "soldiers": n} for r in _by(kit, home) for n in escorts]


def _otomo(kit: RumbleNationKit, state: RNState, role: str, home: str) -> list[Args]:
    targets = [{"region": r, "opponent": f} for r in _by(kit, home) for f in _foes(state, role)
               if state.count(r, f)]
    most = min(2, state.reserve.get(role, 0))
    return [{"swaps": list(chosen)} for k in range(1, most + 1)
            for chosen in combinations(targets, k)
            if len({s["region"] for s in chosen}) == k]


DAIMYO: dict[str, Callable[[RumbleNationKit, RNState, str, str], list[Args]]] = {
    "uesugi_kenshin": _uesugi, "takeda_shingen": _takeda, "chosokabe_motochika": _chosokabe,
    "mori_motonari": _mori, "oda_nobunaga": _oda, "otomo_sorin": _otomo,
}


def _deploys(state: RNState, role: str) -> list[Action]:
    """Each way to pair the dice once (equal dice give equal choices), with and without the
    daimyo while he is in the reserve (8)."""
    found: list[Action] = []
    seen: set[tuple[int, int]] = set()
    for i, j in combinations(range(3), 2):
        faces = (min(state.dice[i], state.dice[j]), max(state.dice[i], state.dice[j]))
        if faces in seen:
            continue
        seen.add(faces)
        found.append(Action(role, "deploy", {"pair": [i, j]}))
        if role in state.daimyo_in_reserve:
            found.append(Action(role, "deploy", {"pair": [i, j], "daimyo": True}))
    return found


def candidates(kit: RumbleNationKit, state: RNState, role: str) -> list[Action]:
    """The player's plays now, each once."""
    if state.phase == "daimyo":
        return [Action(role, "choose_daimyo", {"card": c}) for c in state.daimyo_display]
    if state.dice:
        return [*_deploys(state, role), Action(role, "reroll")]
    found = [Action(role, "roll")]
    for card in state.tactics:
        found += [Action(role, "tactic", {"card": card, **args})
                  for args in TACTICS[card](kit, state, role)]
    mine, home = state.daimyo_cards.get(role), state.daimyo_at.get(role)
    if mine is not None and home is not None:
        found += [Action(role, "daimyo", args) for args in DAIMYO[mine](kit, state, role, home)]
    return found
