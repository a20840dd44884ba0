"""Rumble Nation's state as one immutable value, and how events change it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from companion.engine.core import Event, Outcome, rank

__all__ = ["RNState", "evolve", "frozen"]


def frozen(data: Mapping[Any, Any] | None = None) -> Mapping[Any, Any]:
    return MappingProxyType(dict(data or {}))


@dataclass(frozen=True)
class RNState:
    players: tuple[str, ...]
    phase: str = "setup"
    """setup, daimyo (choosing daimyo cards), deployment, over."""
    castles: Mapping[str, int] = field(default_factory=frozen)
    """Region -> its large castle, while on the map."""
    tactics: tuple[str, ...] = ()
    daimyo_display: tuple[str, ...] = ()
    daimyo_cards: Mapping[str, str] = field(default_factory=frozen)
    daimyo_used: frozenset[str] = frozenset()
    tactic_used: frozenset[str] = frozenset()
    soldiers: Mapping[str, Mapping[str, int]] = field(default_factory=frozen)
    """Region -> player -> soldiers there (not counting the daimyo)."""
    daimyo_at: Mapping[str, str] = field(default_factory=frozen)
    reserve: Mapping[str, int] = field(default_factory=frozen)
    daimyo_in_reserve: frozenset[str] = frozenset()
    reinforcements: Mapping[str, Mapping[str, int]] = field(default_factory=frozen)
    katana: Mapping[str, int] = field(default_factory=frozen)
    turn: int = 0
    """Index of the player whose turn it is (deployment) or who picks a daimyo card."""
    first: int = 0
    dice: tuple[int, ...] = ()
    rerolled: bool = False
    rolling: bool = False
    """The player has asked to roll: chance must answer with dice."""
    won: Mapping[str, tuple[int, ...]] = field(default_factory=frozen)
    """Player -> values of the castles taken (large and small)."""
    outcome: Outcome | None = None

    def count(self, region: str, player: str) -> int:
        return self.soldiers.get(region, {}).get(player, 0)

    def units(self, region: str, player: str) -> int:
        """Soldiers, plus the daimyo (a soldier while deploying)."""
        return self.count(region, player) + (self.daimyo_at.get(player) == region)

    def placed_all(self, player: str) -> bool:
        return self.reserve.get(player, 0) == 0 and player not in self.daimyo_in_reserve


def _soldiers(state: RNState, changes: Mapping[tuple[str, str], int]) -> Mapping[str, Any]:
    regions = {r: dict(p) for r, p in state.soldiers.items()}
    for (region, player), delta in changes.items():
        regions.setdefault(region, {})
        regions[region][player] = regions[region].get(player, 0) + delta
        if regions[region][player] == 0:
            del regions[region][player]
    return frozen({r: frozen(p) for r, p in regions.items() if p})


def _set_up(state: RNState, e: Event) -> RNState:
    d = e.data
    chooser = (d["first"] - 1) % len(state.players)  # 8: from the first player's right
    return replace(state, castles=frozen(d["castles"]), tactics=tuple(d["tactics"]),
                   daimyo_display=tuple(d["daimyo"]), first=d["first"],
                   turn=chooser if d["daimyo"] else d["first"],
                   phase="daimyo" if d["daimyo"] else "deployment")


def _daimyo_chosen(state: RNState, e: Event) -> RNState:
    chosen = {**state.daimyo_cards, e.data["player"]: e.data["card"]}
    display = tuple(c for c in state.daimyo_display if c != e.data["card"])
    return replace(state, daimyo_cards=frozen(chosen), daimyo_display=display)


def _turn(state: RNState, e: Event) -> RNState:
    return replace(state, turn=e.data["turn"], dice=(), rerolled=False, rolling=False,
                   phase=e.data.get("phase", state.phase))


def _roll_asked(state: RNState, e: Event) -> RNState:
    return replace(state, rolling=True, rerolled=state.rerolled or bool(e.data.get("again")))


def _dice(state: RNState, e: Event) -> RNState:
    return replace(state, dice=tuple(e.data["values"]), rolling=False)


def _placed(state: RNState, e: Event) -> RNState:
    d = e.data
    new = replace(state, soldiers=_soldiers(state, {(d["region"], d["player"]): d["soldiers"]}),
                  reserve=frozen({**state.reserve,
                                  d["player"]: state.reserve[d["player"]] - d["soldiers"]}))
    if d.get("daimyo"):
        new = replace(new, daimyo_at=frozen({**state.daimyo_at, d["player"]: d["region"]}),
                      daimyo_in_reserve=state.daimyo_in_reserve - {d["player"]})
    return new


def _moved(state: RNState, e: Event) -> RNState:
    d = e.data
    changes: dict[tuple[str, str], int] = {}
    for move in d["moves"]:
        who, frm, to, n = move["player"], move["from"], move["to"], move["soldiers"]
        if frm == "reserve":
            state = replace(state, reserve=frozen({**state.reserve, who: state.reserve[who] - n}))
        else:
            changes[(frm, who)] = changes.get((frm, who), 0) - n
        if to == "reserve":
            state = replace(state, reserve=frozen({**state.reserve, who: state.reserve[who] + n}))
        else:
            changes[(to, who)] = changes.get((to, who), 0) + n
    state = replace(state, soldiers=_soldiers(state, changes))
    for who, to in d.get("daimyo", {}).items():
        state = replace(state, daimyo_at=frozen({**state.daimyo_at, who: to}))
    return state


def _tactic(state: RNState, e: Event) -> RNState:
    return replace(state, tactics=tuple(c for c in state.tactics if c != e.data["card"]),
                   tactic_used=state.tactic_used | {e.data["player"]})


def _daimyo_used(state: RNState, e: Event) -> RNState:
    return replace(state, daimyo_used=state.daimyo_used | {e.data["player"]})


def _katana(state: RNState, e: Event) -> RNState:
    return replace(state, katana=frozen({**state.katana, e.data["player"]: e.data["value"]}))


def _castle_removed(state: RNState, e: Event) -> RNState:
    castles = {r: v for r, v in state.castles.items() if r != e.data["region"]}
    reinforcements = {r: p for r, p in state.reinforcements.items() if r != e.data["region"]}
    return replace(state, castles=frozen(castles), reinforcements=frozen(reinforcements))


def _castle_taken(state: RNState, e: Event) -> RNState:
    who = e.data["player"]
    return replace(state, won=frozen({**state.won, who: (*state.won.get(who, ()),
                                                         e.data["value"])}))


def _reinforced(state: RNState, e: Event) -> RNState:
    regions = {r: dict(p) for r, p in state.reinforcements.items()}
    for region in e.data["regions"]:
        regions.setdefault(region, {})
        regions[region][e.data["player"]] = regions[region].get(e.data["player"], 0) \
            + e.data["each"]
    return replace(state, reinforcements=frozen({r: frozen(p) for r, p in regions.items()}))


def _ended(state: RNState, e: Event) -> RNState:
    d = e.data
    scores = d["scores"]
    ranking = rank({p: (scores[p], state.katana.get(p, 0)) for p in state.players})
    return replace(state, phase="over", outcome=Outcome.ranked(d["termination"], d["rule"],
                                                               ranking))


def _nothing(state: RNState, e: Event) -> RNState:
    return state


_EVOLVE = {
    "GameSetUp": _set_up, "DaimyoCardChosen": _daimyo_chosen, "TurnBegan": _turn,
    "RollAsked": _roll_asked, "DiceRolled": _dice, "SoldiersDeployed": _placed,
    "UnitsMoved": _moved, "TacticCardUsed": _tactic, "DaimyoCardUsed": _daimyo_used,
    "KatanaTaken": _katana, "WarBegan": _nothing, "CastleRemoved": _castle_removed,
    "RegionResolved": _nothing, "CastleTaken": _castle_taken,
    "ReinforcementsSent": _reinforced, "GameEnded": _ended,
}


def evolve(state: RNState, event: Event) -> RNState:
    return _EVOLVE[event.type](state, event)
