"""Shogun's state as one immutable value, and how events change it.

Ownership is by province card: a province belongs to the player holding its card (`owner`),
and holds that player's armies (`armies`, possibly none after a defence won by farmers alone);
a province with no owner is neutral and empty. The tower's inside (`tower`) and its tray
(`tray`) are counts of cubes by colour (`farmers` for the green ones).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from companion.engine.core import Event, Outcome

__all__ = ["FARMERS", "ShogunState", "evolve", "frozen"]

FARMERS = "farmers"
"""The green cubes' key in the tower and the tray."""


def frozen(data: Mapping[Any, Any] | None = None) -> Mapping[Any, Any]:
    return MappingProxyType(dict(data or {}))


def _add(table: Mapping[str, int], changes: Mapping[str, int]) -> Mapping[str, int]:
    """Counts plus changes, zeros dropped."""
    out = dict(table)
    for key, delta in changes.items():
        out[key] = out.get(key, 0) + delta
        if out[key] == 0:
            del out[key]
    return frozen(out)


def _sum(table: Mapping[str, int], changes: Mapping[str, int]) -> Mapping[str, int]:
    """A player's counts plus changes (zeros kept: every player has chests, rice...)."""
    return frozen({k: v + changes.get(k, 0) for k, v in table.items()})


@dataclass(frozen=True)
class ShogunState:
    players: tuple[str, ...]
    side: str
    phase: str = "deal"
    """deal, claim, place, load, layout, plan, event, ties, special, actions, winter,
    revolts, events, over."""
    year: int = 1
    season: int = 0
    """0 spring, 1 summer, 2 autumn (the three action rounds)."""
    # province cards
    deck: frozenset[str] = frozenset()
    face_up: tuple[str, ...] = ()
    drawn: str | None = None
    owner: Mapping[str, str] = field(default_factory=frozen)
    groups: Mapping[str, tuple[int, ...]] = field(default_factory=frozen)
    claimer: int = 0
    # pieces
    armies: Mapping[str, int] = field(default_factory=frozen)
    reserve: Mapping[str, int] = field(default_factory=frozen)
    chests: Mapping[str, int] = field(default_factory=frozen)
    rice: Mapping[str, int] = field(default_factory=frozen)
    vp: Mapping[str, int] = field(default_factory=frozen)
    buildings: Mapping[str, tuple[str, ...]] = field(default_factory=frozen)
    markers: Mapping[str, int] = field(default_factory=frozen)
    farmers: int = 0
    built: Mapping[str, int] = field(default_factory=frozen)
    """Buildings of each kind on the board (the box holds 28, 26, 26)."""
    tower: Mapping[str, int] = field(default_factory=frozen)
    tray: Mapping[str, int] = field(default_factory=frozen)
    # events
    events_deck: frozenset[str] = frozenset()
    events_up: tuple[str, ...] = ()
    event: str | None = None
    # the round
    row: tuple[str, ...] = ()
    """The action cards turned face up, in order (5 at the lay-out, then one at a time)."""
    specials: tuple[str, ...] = ()
    """The special cards on their spaces, in drawn order (space 1 first)."""
    taken: Mapping[str, int] = field(default_factory=frozen)
    """Player -> the space of the special card taken."""
    plans: Mapping[str, Mapping[str, str]] = field(default_factory=frozen)
    """Player -> action -> the card on its space (a province or `chest_N`): SECRET."""
    bids: Mapping[str, str] = field(default_factory=frozen)
    """Player -> the card on the auction space: SECRET until `bids_shown`."""
    bids_shown: bool = False
    shown: Mapping[str, Mapping[str, str]] = field(default_factory=frozen)
    """Player -> action -> the planned card, once its action is carried out (public)."""
    ties: tuple[tuple[str, ...], ...] = ()
    """Groups of equal bids still to be ordered by drawing daimyo cards."""
    choosing: tuple[str, ...] = ()
    """Players still to take a special card, in bid order (ties as one group until drawn)."""
    order: tuple[str, ...] = ()
    step: int = 0
    """Actions carried out this round (0-10)."""
    turn: int = 0
    pending: Mapping[str, Any] | None = None
    """What the current step waits for: a player's move or attack, the tower's tray, a
    revolt's province."""
    revolts: Mapping[str, tuple[str, ...]] = field(default_factory=frozen)
    """Winter: player -> the provinces drawn for revolts, not yet fought."""
    winter_queue: tuple[str, ...] = ()
    strength: int = 0
    """Winter: the supply table's extra farmers for each of the current player's revolts."""
    outcome: Outcome | None = None

    def provinces_of(self, player: str) -> list[str]:
        return sorted(p for p, who in self.owner.items() if who == player)


def _dealt(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    return replace(state, face_up=tuple(d["cards"]), deck=state.deck - set(d["cards"]),
                   phase="claim")


def _card_taken(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    card = d["card"]
    return replace(state, face_up=tuple(c for c in state.face_up if c != card),
                   deck=state.deck - {card},
                   drawn=card if d.get("from_deck") else None, phase="place"
                   if d.get("from_deck") else state.phase)


def _group_placed(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    who, size = d["player"], d["armies"]
    left = list(state.groups[who])
    left.remove(size)
    return replace(state, owner=frozen({**state.owner, d["province"]: who}),
                   armies=_add(state.armies, {d["province"]: size}),
                   groups=frozen({**state.groups, who: tuple(left)}), drawn=None,
                   claimer=d["next"], phase="claim")


def _draw_asked(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, phase="drawing")


def _nothing(state: ShogunState, e: Event) -> ShogunState:
    return state


def _revealed(state: ShogunState, e: Event) -> ShogunState:
    card = e.data["card"]
    return replace(state, face_up=(*state.face_up, card), deck=state.deck - {card})


def _claims_ended(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, deck=frozenset(), face_up=(), phase="load")


def _thrown(state: ShogunState, e: Event) -> ShogunState:
    """Cubes leave provinces and supplies for the tower (a battle, a revolt, the loading)."""
    d = e.data
    reserve = dict(state.reserve)
    for who, n in d.get("from_reserve", {}).items():
        reserve[who] -= n
    armies = _add(state.armies, {p: -n for p, n in d.get("from_provinces", {}).items()})
    return replace(state, reserve=frozen(reserve), armies=armies,
                   farmers=state.farmers - d.get("farmers", 0), pending=frozen(d["pending"]))


def _tray_read(state: ShogunState, e: Event) -> ShogunState:
    assert state.pending is not None
    inflight = _add(state.tray, state.pending["thrown"])
    tray = {k: v for k, v in e.data["tray"].items() if v}
    tower = _add(_add(state.tower, inflight), {k: -v for k, v in tray.items()})
    return replace(state, tower=tower, tray=frozen(tray),
                   pending=frozen({**state.pending, "read": True}))


def _returned(state: ShogunState, e: Event) -> ShogunState:
    """Cubes from the tray back to their supplies (and the winner's into the province)."""
    d = e.data
    back = d["returned"]
    reserve = dict(state.reserve)
    for who, n in back.items():
        if who != "farmers":
            reserve[who] += n
    tray = _add(state.tray, {k: -v for k, v in back.items()})
    placed = d.get("placed")
    armies = state.armies
    if placed:
        tray = _add(tray, {placed["player"]: -placed["armies"]})
        armies = _add(armies, {d["province"]: placed["armies"]})
    return replace(state, reserve=frozen(reserve), tray=tray, armies=armies,
                   farmers=state.farmers + back.get("farmers", 0), pending=None)


def _province_taken(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, owner=frozen({**state.owner, e.data["province"]: e.data["player"]}))


def _province_cleared(state: ShogunState, e: Event) -> ShogunState:
    p = e.data["province"]
    built = _add(state.built, {k: -1 for k in state.buildings.get(p, ())})
    return replace(state, owner=frozen({k: v for k, v in state.owner.items() if k != p}),
                   armies=frozen({k: v for k, v in state.armies.items() if k != p}),
                   buildings=frozen({k: v for k, v in state.buildings.items() if k != p}),
                   markers=frozen({k: v for k, v in state.markers.items() if k != p}),
                   built=built)


def _events_up(state: ShogunState, e: Event) -> ShogunState:
    cards = tuple(e.data["cards"])
    return replace(state, events_up=cards, events_deck=state.events_deck - set(cards),
                   phase="layout")


def _laid_out(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, row=tuple(e.data["actions"]), specials=tuple(e.data["specials"]),
                   phase="plan", plans=frozen(), bids=frozen(), bids_shown=False,
                   shown=frozen(), taken=frozen(), order=(), step=0, turn=0, event=None)


def _planned(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    plans = frozen({**state.plans, d["player"]: frozen(d["spaces"])})
    bids = frozen({**state.bids, d["player"]: d["bid"]}) if d.get("bid") else state.bids
    everyone = len(plans) == len(state.players)
    return replace(state, plans=plans, bids=bids, phase="event" if everyone else "plan")


def _event_drawn(state: ShogunState, e: Event) -> ShogunState:
    card = e.data["card"]
    return replace(state, event=card, events_up=tuple(c for c in state.events_up if c != card))


def _bids_revealed(state: ShogunState, e: Event) -> ShogunState:
    chests = dict(state.chests)
    for who, paid in e.data["paid"].items():
        chests[who] -= paid
    return replace(state, chests=frozen(chests), bids_shown=True,
                   ties=tuple(tuple(t) for t in e.data["ties"]),
                   choosing=tuple(e.data["choosing"]),
                   phase="ties" if e.data["ties"] else "special")


def _daimyo_drawn(state: ShogunState, e: Event) -> ShogunState:
    order = tuple(e.data["order"])
    group = state.ties[0]
    start = min(state.choosing.index(p) for p in group)
    choosing = (*state.choosing[:start], *order, *state.choosing[start + len(group):])
    ties = state.ties[1:]
    return replace(state, ties=ties, choosing=choosing, phase="ties" if ties else "special")


def _special_taken(state: ShogunState, e: Event) -> ShogunState:
    taken = frozen({**state.taken, e.data["player"]: e.data["space"]})
    choosing = state.choosing[1:]
    if choosing:
        return replace(state, taken=taken, choosing=choosing)
    order = tuple(sorted(taken, key=lambda p: taken[p]))
    return replace(state, taken=taken, choosing=(), order=order, phase="actions")


def _action_turned(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, row=(*state.row, e.data["card"]))


def _plan_revealed(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    mine = {**state.shown.get(d["player"], {}), d["action"]: d["card"]}
    return replace(state, shown=frozen({**state.shown, d["player"]: frozen(mine)}))


def _chests(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    return replace(state, chests=_sum(state.chests, {d["player"]: d["chests"]}))


def _built(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    p = d["province"]
    return replace(state, buildings=frozen({**state.buildings,
                                            p: (*state.buildings.get(p, ()), d["building"])}),
                   chests=_sum(state.chests, {d["player"]: -d["cost"]}),
                   built=_add(state.built, {d["building"]: 1}))


def _rice(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    return replace(state, rice=frozen({**state.rice,
                                       d["player"]: state.rice[d["player"]] + d["rice"]}))


def _marker(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, markers=_add(state.markers, {e.data["province"]: 1}))


def _deployed(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    return replace(state, armies=_add(state.armies, {d["province"]: d["armies"]}),
                   reserve=_sum(state.reserve, {d["player"]: -d["armies"]}),
                   chests=_sum(state.chests, {d["player"]: -d["cost"]}))


def _moved(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    return replace(state, armies=_add(state.armies, {d["from"]: -d["armies"],
                                                     d["to"]: d["armies"]}), pending=None)


def _waiting(state: ShogunState, e: Event) -> ShogunState:
    data = dict(e.data)
    data["kind"] = data.pop("choice")
    return replace(state, pending=frozen(data))


def _turn_passed(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, step=e.data["step"], turn=e.data["turn"], pending=None)


def _round_ended(state: ShogunState, e: Event) -> ShogunState:
    winter = state.season == 2
    return replace(state, season=0 if winter else state.season + 1, event=None, row=(),
                   specials=(), taken=frozen(), plans=frozen(), bids=frozen(), shown=frozen(),
                   bids_shown=False, order=state.order, step=0, turn=0, pending=None,
                   phase="winter" if winter else "layout")


def _rice_lost(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, rice=frozen({p: max(0, n - e.data["rice"])
                                       for p, n in state.rice.items()}),
                   winter_queue=tuple(e.data["queue"]), phase="revolts")


def _revolts_drawn(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    return replace(state, revolts=frozen({**state.revolts, d["player"]: tuple(d["provinces"])}),
                   strength=d["farmers"])


def _revolt_chosen(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    left = tuple(p for p in state.revolts[d["player"]] if p != d["province"])
    revolts = {**state.revolts, d["player"]: left}
    queue = state.winter_queue
    if not left:
        del revolts[d["player"]]
        queue = tuple(p for p in queue if p != d["player"])
    return replace(state, revolts=frozen(revolts), winter_queue=queue)


def _scored(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, vp=_sum(state.vp, {p: s["total"] for p, s in
                                             e.data["scores"].items()}))


def _year_ended(state: ShogunState, e: Event) -> ShogunState:
    return replace(state, year=state.year + 1, rice=frozen(dict.fromkeys(state.players, 0)),
                   markers=frozen(), events_up=(), phase="events")


def _ended(state: ShogunState, e: Event) -> ShogunState:
    d = e.data
    return replace(state, phase="over", pending=None,
                   outcome=Outcome(d["termination"], d["winner"], d["rule"],
                                   tuple(d.get("winners") or ()),
                                   tuple(tuple(p) for p in d.get("ranking") or ())))


_EVOLVE = {
    "DeckDrawAsked": _draw_asked, "ActionSkipped": _nothing, "ArmiesStayed": _nothing,
    "ProvinceCardsDealt": _dealt, "ProvinceCardTaken": _card_taken,
    "GroupPlaced": _group_placed, "ProvinceCardRevealed": _revealed,
    "ClaimsEnded": _claims_ended, "CubesThrown": _thrown, "BattleDeclared": _thrown,
    "TrayRead": _tray_read,
    "CubesReturned": _returned, "ProvinceTaken": _province_taken,
    "ProvinceCleared": _province_cleared, "EventCardsTurned": _events_up,
    "CardsLaidOut": _laid_out, "PlanMade": _planned, "EventDrawn": _event_drawn,
    "BidsRevealed": _bids_revealed, "DaimyoCardsDrawn": _daimyo_drawn,
    "SpecialCardTaken": _special_taken, "ActionCardTurned": _action_turned,
    "PlanRevealed": _plan_revealed, "ChestsChanged": _chests, "BuildingBuilt": _built,
    "RiceCollected": _rice, "RevoltMarkerPlaced": _marker, "ArmiesDeployed": _deployed,
    "ArmiesMoved": _moved, "ChoiceAwaited": _waiting, "TurnPassed": _turn_passed,
    "RoundEnded": _round_ended, "RiceLost": _rice_lost, "RevoltsDrawn": _revolts_drawn,
    "RevoltChosen": _revolt_chosen, "Scored": _scored,
    "YearEnded": _year_ended, "GameEnded": _ended,
}


def evolve(state: ShogunState, event: Event) -> ShogunState:
    return _EVOLVE[event.type](state, event)
