"""The state of a Disfida as one immutable value, and how each event changes it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from companion.engine.core import Event, Outcome

__all__ = ["CAMP", "BState", "Combat", "KnightState", "evolve", "frozen"]

CAMP = "camp"
"""Where a knight in its own camp stands (off the field: L2, F2, H4.2)."""


def frozen(data: Mapping[Any, Any] | None = None) -> Mapping[Any, Any]:
    return MappingProxyType(dict(data or {}))


@dataclass(frozen=True)
class KnightState:
    """One counter: where it is (a hex, `camp`, or "" before deployment), which face is up,
    its hits (CS, green) and wounds (red), and this turn's markers."""

    where: str = ""
    mounted: bool = True
    hits: int = 0
    wounds: int = 0
    out: str = ""
    """"" in play, `captured` (surrendered: H4.2) or `dead` (H5)."""
    ordered: bool = False
    """Received an order this turn (E): an Attack, Reorganization or Fired marker."""
    reorganizing: bool = False
    """Carries a Reorganization marker (E1.2)."""
    attacked_by: tuple[str, ...] = ()
    """The knights that attacked it this turn (H, H1.1)."""
    fought: bool = False
    """Fought in the opening charge (I2)."""

    @property
    def on_field(self) -> bool:
        return not self.out and self.where not in ("", CAMP)


@dataclass(frozen=True)
class Combat:
    """A melee being resolved (H1): who attacks whom, from where, and what it did so far."""

    attacker: str
    defender: str
    origin: str
    target: str
    charge: bool = False
    step: str = "melee"
    """`melee` (the dice are due), `unhorse` (a test is due: `tests[0]`), `surrender`."""
    tests: tuple[str, ...] = ()
    received: Mapping[str, int] = field(default_factory=frozen)
    """Hits each knight received in this combat (H2, H4)."""
    wounded: tuple[str, ...] = ()
    """Knights that received a wound in this combat (H4)."""
    was_wounded: tuple[str, ...] = ()
    """Knights wounded before this combat (H4: a wounded knight receiving hits tests)."""
    unhorsed: tuple[str, ...] = ()
    retreated: bool = False


@dataclass(frozen=True)
class BState:
    phase: str = "setup"
    """setup (I1's dice), deploy (I1), charge (I2), initiative (C1's dice), choose (C1),
    command (D1), orders (E), reorganize (E1.2), over."""
    knights: Mapping[str, KnightState] = field(default_factory=frozen)
    turn: int = 0
    """0 for the deployment and the opening charge, then 1 to 5 (C)."""
    initiative: str = ""
    """Who won the last roll for the initiative (I1, C1)."""
    first: str = ""
    """Who activates first this turn (C1)."""
    active: str = ""
    """Whose placement, charge, choice or activation it is."""
    placing: int = 0
    """Knights the active side still places in this run (I1: one, then two at a time)."""
    order_points: Mapping[str, int] = field(default_factory=frozen)
    passes: Mapping[str, int] = field(default_factory=frozen)
    attacks: Mapping[str, int] = field(default_factory=frozen)
    """Attack markers used this turn, per side (E1.1: at most 5)."""
    commanders: Mapping[str, str] = field(default_factory=frozen)
    """The knight whose VC gives each side its order points this turn (D1)."""
    combat: Combat | None = None
    queue: tuple[tuple[str, bool], ...] = ()
    """End of turn: knights still to reorganize, each with whether it is free (E1.3)."""
    remounting: str = ""
    """A knight whose remount roll is due (E1.2)."""
    gone: Mapping[str, tuple[str, ...]] = field(default_factory=frozen)
    """Each side's Surrended table, bottom box first: its captured and dead knights."""
    outcome: Outcome | None = None

    def knight(self, knight: str) -> KnightState:
        return self.knights[knight]

    def at(self, hex_: str) -> str | None:
        """The knight on a hex, if any (G: never more than one)."""
        return self.occupied.get(hex_)

    @cached_property
    def occupied(self) -> Mapping[str, str]:
        return {k.where: name for name, k in self.knights.items() if k.on_field}


def _knight(state: BState, name: str, **changes: Any) -> BState:
    knights = dict(state.knights)
    knights[name] = replace(knights[name], **changes)
    return replace(state, knights=frozen(knights))


def _combat(state: BState, **changes: Any) -> BState:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, **changes))


def _initiative(state: BState, e: Event) -> BState:
    winner = e.data.get("winner") or ""
    if not winner:
        return state
    if state.phase == "setup":
        return replace(state, initiative=winner, active=winner, placing=1, phase="deploy")
    return replace(state, initiative=winner, active=winner, phase="choose")


def _deployed(state: BState, e: Event) -> BState:
    state = _knight(state, e.data["knight"], where=e.data["hex"])
    return replace(state, active=e.data["next"], placing=e.data["placing"],
                   phase=e.data.get("phase", state.phase))


def _charge_turn(state: BState, e: Event) -> BState:
    return replace(state, active=e.data["side"], phase="charge")


def _combat_began(state: BState, e: Event) -> BState:
    d = e.data
    wounded = tuple(k for k in (d["attacker"], d["defender"]) if state.knights[k].wounds)
    state = replace(state, combat=Combat(d["attacker"], d["defender"], d["origin"], d["target"],
                                         charge=bool(d["charge"]), was_wounded=wounded))
    defender = state.knights[d["defender"]]
    state = _knight(state, d["defender"], attacked_by=(*defender.attacked_by, d["attacker"]),
                    fought=defender.fought or bool(d["charge"]), reorganizing=False)
    state = _knight(state, d["attacker"], fought=True)
    if not d["charge"]:
        side = d["side"]
        state = replace(state, attacks=frozen({**state.attacks,
                                               side: state.attacks.get(side, 0) + 1}))
    return state


def _hits(state: BState, e: Event) -> BState:
    d = e.data
    before = state.knights[d["knight"]]
    state = _knight(state, d["knight"], hits=d["hits"], wounds=d["wounds"])
    if state.combat is not None and d["knight"] in (state.combat.attacker,
                                                     state.combat.defender):
        received = {**state.combat.received,
                    d["knight"]: state.combat.received.get(d["knight"], 0) + d["received"]}
        wounded = state.combat.wounded
        if d["wounds"] > before.wounds and d["knight"] not in wounded:
            wounded = (*wounded, d["knight"])
        state = _combat(state, received=frozen(received), wounded=wounded)
    return state


def _unhorsed(state: BState, e: Event) -> BState:
    state = _knight(state, e.data["knight"], mounted=False)
    if state.combat is not None and e.data.get("in_combat", True):
        state = _combat(state, unhorsed=(*state.combat.unhorsed, e.data["knight"]))
    return state


def _step(state: BState, e: Event) -> BState:
    return _combat(state, step=e.data["step"], tests=tuple(e.data.get("tests", ())))


def _moved(state: BState, e: Event) -> BState:
    return _knight(state, e.data["knight"], where=e.data["to"])


def _retreated(state: BState, e: Event) -> BState:
    return _combat(_moved(state, e), retreated=True)


def _out(kind: str) -> Callable[[BState, Event], BState]:
    def fold(state: BState, e: Event) -> BState:
        name, side = e.data["knight"], e.data["side"]
        state = _knight(state, name, out=kind, where="", reorganizing=False)
        state = replace(state, gone=frozen({**state.gone,
                                            side: (*state.gone.get(side, ()), name)}))
        captor = e.data.get("by")
        if kind == "captured" and captor:
            state = _knight(state, captor, where=CAMP, ordered=True, reorganizing=False)
        elif kind == "dead" and captor and e.data.get("to"):
            state = _knight(state, captor, where=e.data["to"])
        return state
    return fold


def _combat_ended(state: BState, e: Event) -> BState:
    return replace(state, combat=None)


def _turn_began(state: BState, e: Event) -> BState:
    knights = {k: replace(v, ordered=False, reorganizing=False, attacked_by=())
               for k, v in state.knights.items()}
    return replace(state, knights=frozen(knights), turn=e.data["turn"], phase="initiative",
                   attacks=frozen(), order_points=frozen(), passes=frozen(),
                   commanders=frozen(), first="", active="", queue=(), remounting="")


def _order_chosen(state: BState, e: Event) -> BState:
    return replace(state, first=e.data["first"], active=e.data["first"], phase="command")


def _command(state: BState, e: Event) -> BState:
    d = e.data
    return replace(state, commanders=frozen({**state.commanders, d["side"]: d["knight"]}),
                   order_points=frozen({**state.order_points, d["side"]: d["order_points"]}),
                   passes=frozen({**state.passes, d["side"]: d["passes"]}),
                   active=d["next"], phase=d["phase"])


def _ordered(state: BState, e: Event) -> BState:
    d = e.data
    side = d["side"]
    state = replace(state, order_points=frozen({**state.order_points,
                                                side: state.order_points[side] - 1}))
    return _knight(state, d["knight"], ordered=True,
                   reorganizing=d["order"] == "reorganize")


def _passed(state: BState, e: Event) -> BState:
    side = e.data["side"]
    return replace(state, passes=frozen({**state.passes, side: state.passes[side] - 1}))


def _activation(state: BState, e: Event) -> BState:
    return replace(state, active=e.data["side"])


def _turn_ended(state: BState, e: Event) -> BState:
    return replace(state, phase="reorganize", active="",
                   queue=tuple((k, bool(f)) for k, f in e.data["queue"]))


def _reorganizing(state: BState, e: Event) -> BState:
    """The head of the queue asks its owner (`side`) or the dice (`remount`), or is done."""
    return replace(state, active=e.data.get("side", ""), remounting=e.data.get("remount", ""),
                   queue=tuple((k, bool(f)) for k, f in e.data["queue"]))


def _recovered(state: BState, e: Event) -> BState:
    return _knight(state, e.data["knight"], hits=e.data["hits"])


def _remounted(state: BState, e: Event) -> BState:
    return _knight(state, e.data["knight"], mounted=True)


def _lost(state: BState, e: Event) -> BState:
    return _knight(state, e.data["knight"], reorganizing=False)


def _ended(state: BState, e: Event) -> BState:
    d = e.data
    return replace(state, phase="over", combat=None,
                   outcome=Outcome.between(d["termination"], d["winner"], d["rule"],
                                           tuple(d["points"])))


def _nothing(state: BState, e: Event) -> BState:
    return state


_EVOLVE: Mapping[str, Callable[[BState, Event], BState]] = {
    "InitiativeRolled": _initiative, "KnightDeployed": _deployed, "ChargeTurn": _charge_turn,
    "CombatBegan": _combat_began, "MeleeRolled": _nothing, "HitsTaken": _hits,
    "UnhorsingTested": _nothing, "KnightUnhorsed": _unhorsed, "KnightDismounted": _unhorsed,
    "CombatStepReached": _step, "KnightMoved": _moved, "KnightAdvanced": _moved,
    "KnightRetreated": _retreated, "RetreatBlocked": _nothing,
    "SurrenderTested": _nothing, "KnightCaptured": _out("captured"),
    "KnightKilled": _out("dead"), "CombatEnded": _combat_ended, "ChargeEnded": _nothing,
    "TurnBegan": _turn_began, "OrderOfPlayChosen": _order_chosen, "CommandTaken": _command,
    "KnightOrdered": _ordered, "PassUsed": _passed, "ActivationPassed": _activation,
    "ReorganizationLost": _lost, "TurnEnded": _turn_ended, "Reorganizing": _reorganizing,
    "HitsRecovered": _recovered, "KnightRemounted": _remounted, "RemountTested": _nothing,
    "GameEnded": _ended,
}


def evolve(state: BState, event: Event) -> BState:
    return _EVOLVE[event.type](state, event)
