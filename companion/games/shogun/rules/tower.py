"""The battle tower (rule 6): who throws which cubes, which tray readings are possible, the
simulated tower, and what a battle's or a revolt's tray means.

The tower's inside is hidden at the table, but it is known to the engine: it starts empty, and
every throw adds what went in and takes away what the tray shows. A tray reading is accepted
when it is possible: no colour shows more cubes than went in plus those inside. How many cubes
a real tower keeps is not known (the kit's `capacity` is the simulated tower's, for simulation
and the demo), so it never refuses a reading. The reading is a chance action; a real table
always records the observed tray, the simulated tower (`sample_tray`) only stands in for it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.engine.core import CHANCE, Action, IllegalAction, Sentence, refuse_unknown_args
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.rules.context import Batch, effect
from companion.games.shogun.rules.state import FARMERS, ShogunState

__all__ = ["decide_tray", "declare_battle", "inflight", "sample_tray", "throw_battle",
           "throw_revolt"]


def inflight(state: ShogunState) -> dict[str, int]:
    """What the tower holds once the throw is in: inside, thrown and the tray's cubes (6)."""
    assert state.pending is not None
    out = dict(state.tower)
    for source in (state.tray, state.pending["thrown"]):
        for colour, n in source.items():
            out[colour] = out.get(colour, 0) + n
    return {k: v for k, v in out.items() if v}


def _farmers(b: Batch, wanted: int) -> int:
    """Farmers come from the general supply, as many as are left (20 in the box)."""
    return max(0, min(wanted, b.state.farmers))


def declare_battle(b: Batch, player: str, origin: str, target: str, armies: int,
                   extra: bool) -> None:
    """4.4 and 3.2: the attacker's armies and the defender's leave their provinces for the
    tower (`thrown`: in the players' hands), and the defender, holding the +1 defence card,
    says whether to add an army before the throw (`decide_defend`)."""
    state = b.state
    defender = state.owner[target]
    defending = state.armies.get(target, 0)
    in_hand = {player: armies, **({defender: defending} if defending else {})}
    b.emit("BattleDeclared", from_provinces=_leaving(state, origin, target, armies),
           pending={"kind": "defence", "player": defender, "attacker": player,
                    "origin": origin, "province": target, "armies": armies,
                    "defending": defending, "extra": extra, "thrown": in_hand})


def _leaving(state: ShogunState, origin: str, target: str, armies: int) -> dict[str, int]:
    """The armies leaving the provinces for a battle: the attacker's moved ones, and all of
    the target's."""
    leaving = {origin: armies}
    if state.armies.get(target, 0):
        leaving[target] = state.armies[target]
    return leaving


def throw_battle(b: Batch, player: str, origin: str, target: str, armies: int,
                 extra: Mapping[str, bool]) -> None:
    """6.1: the attacker's moved armies, the defender's armies in the province, 1 farmer for
    a neutral province (the round's event may add some); the tray's cubes go in too. 3.2:
    each side whose `extra` is true adds an army from its individual supply (the +1 attack
    and +1 defence cards); a round's castle_defence event adds its armies from the supply of
    a defender whose province has a castle. After `declare_battle` the provinces' armies are
    already out."""
    state = b.state
    defender = state.owner.get(target)
    declared = state.pending if state.pending and state.pending["kind"] == "defence" else None
    defending = int(declared["defending"]) if declared else state.armies.get(target, 0)
    reserve = {who: 1 for who in (player, defender) if who is not None and extra.get(who)}
    if defender is not None and "castle" in state.buildings.get(target, ()):
        castle = min(effect(b.kit, state, "castle_defence"),
                     state.reserve[defender] - reserve.get(defender, 0))
        if castle > 0:
            reserve[defender] = reserve.get(defender, 0) + castle
    thrown: dict[str, int] = {player: armies + reserve.get(player, 0)}
    if defender is not None:
        defending += reserve.get(defender, 0)
        if defending:
            thrown[defender] = defending
    farmers = 0
    if defender is None:
        farmers = _farmers(b, 1 + effect(b.kit, state, "neutral_farmers"))
        if farmers:
            thrown[FARMERS] = farmers
    from_provinces = {} if declared else _leaving(state, origin, target, armies)
    b.emit("CubesThrown", from_provinces=from_provinces, from_reserve=reserve, farmers=farmers,
           pending={"kind": "battle", "attacker": player, "defender": defender,
                    "province": target, "origin": origin, "thrown": thrown,
                    "farmers_count": not state.markers.get(target, 0)})


def throw_revolt(b: Batch, player: str, province: str, extra: int, then: dict[str, Any]
                 ) -> None:
    """6.1: the player's armies in the province; a farmer per revolt marker, and `extra` more
    (the event at rice or taxes, the supply table in winter)."""
    state = b.state
    armies = state.armies.get(province, 0)
    farmers = _farmers(b, state.markers.get(province, 0) + extra)
    thrown = {k: v for k, v in ((player, armies), (FARMERS, farmers)) if v}
    b.emit("CubesThrown", from_provinces={province: armies} if armies else {}, from_reserve={},
           farmers=farmers, pending={"kind": "revolt", "player": player, "province": province,
                                     "thrown": thrown, **then})


def check_tray(kit: ShogunKit, state: ShogunState, tray: Any) -> dict[str, int]:
    """The reading, if possible: each colour at most what went in plus what the tower held.
    Only what went in bounds a real reading: the kit's `capacity` is the simulated tower's
    (`sample_tray`), never a reason to refuse what a real tray shows."""
    if not isinstance(tray, Mapping):
        raise IllegalAction("6", "the tray is read as cubes by colour")
    inside = inflight(state)
    reading: dict[str, int] = {}
    for colour, n in tray.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalAction("6", Sentence("{count} is not a number of cubes",
                                              count=str(n)))
        if n > inside.get(colour, 0):
            raise IllegalAction("6", Sentence(
                "the tray cannot hold {count} {colour} cubes: only {most} were in the tower",
                count=n, colour=str(colour), most=inside.get(colour, 0)))
        if n:
            reading[str(colour)] = n
    return reading


def decide_tray(b: Batch, action: Action) -> None:
    """6.2: what fell into the tray; what it means is worked out at once (`resolve`)."""
    refuse_unknown_args(action.args, ("tray",), "6", "tray")
    reading = check_tray(b.kit, b.state, action.args.get("tray"))
    b.emit("TrayRead", tray=reading)


def sample_tray(kit: ShogunKit, state: ShogunState, rng: random.Random) -> Action:
    """The simulated tower: each cube thrown sticks inside with probability `stick`, each cube
    inside falls with probability `release`, and what the tower cannot hold falls too."""
    model = kit.components.tower
    assert state.pending is not None
    thrown: dict[str, int] = {}
    for source in (state.tray, state.pending["thrown"]):
        for colour, n in source.items():
            thrown[colour] = thrown.get(colour, 0) + n
    kept: list[str] = []
    tray: dict[str, int] = {}
    for colour in sorted(set(thrown) | set(state.tower)):
        for _ in range(thrown.get(colour, 0)):
            if rng.random() < model.stick:
                kept.append(colour)
            else:
                tray[colour] = tray.get(colour, 0) + 1
        for _ in range(state.tower.get(colour, 0)):
            if rng.random() < model.release:
                tray[colour] = tray.get(colour, 0) + 1
            else:
                kept.append(colour)
    rng.shuffle(kept)
    for colour in kept[model.capacity:]:
        tray[colour] = tray.get(colour, 0) + 1
    return Action(CHANCE, "tray", {"tray": dict(sorted(tray.items()))})
