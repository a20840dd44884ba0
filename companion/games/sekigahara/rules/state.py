"""The whole Sekigahara game state as one immutable value, and how each event changes it.

Where a block is, who controls what, each side's cards as far as the engine knows them, and
where the week stands. Events are folded in by `evolve`; nothing else changes a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from companion.engine.core import Event, Outcome
from companion.games.sekigahara.kit import SIDES

__all__ = [
    "BAG", "ELIMINATED", "Battle", "Deployment", "Hand", "MovementPhase", "Pending",
    "SekigaharaState", "evolve",
]

BAG = "bag"
"""Where a block is before it is drawn (each side has its own bag, 5.1)."""
ELIMINATED = "eliminated"
"""Beside the board, face up, never to return (8.7.3)."""

Phase = Literal["setup", "reinforcements", "bid", "first_player", "movement", "combat", "over"]
Level = Literal["none", "minimal", "limited", "total"]


def frozen_map(data: Mapping[Any, Any] | None = None) -> Mapping[str, Any]:
    """A read-only mapping: states are values, never changed in place."""
    return MappingProxyType(dict(data or {}))


@dataclass(frozen=True)
class Hand:
    """One side's cards as the engine knows them (3.3).

    Full-knowledge mode knows the hand's cards (`cards`); table mode knows only how many there
    are (`cards` is None). Both know the discard pile, since discarded and played cards are
    public at the moment they are played. The draw pile is what is left.
    """

    count: int = 0
    cards: frozenset[str] | None = frozenset()
    discard: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Pending:
    """A draw the rules call for that chance (bag, deck) must resolve before play goes on."""

    kind: Literal["blocks", "cards"]
    side: str
    count: int
    to: str | None = None
    """Where drawn blocks go: a set-up location or a recruitment box."""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "count": self.count, "to": self.to,
                "reason": self.reason}


@dataclass(frozen=True)
class MovementPhase:
    """What the active side has done so far in its movement phase (7)."""

    level: Level | None = None
    moves: int = 0
    recruited: bool = False
    sources: frozenset[str] = frozenset()
    """Locations a group has moved from (each stack moves once, 7.1, 7.3.1)."""
    roads: frozenset[frozenset[str]] = frozenset()
    """Road segments used this phase (7.3.1)."""
    moved: frozenset[str] = frozenset()
    """Blocks that took part in a move (7.3.1)."""
    arrived: frozenset[str] = frozenset()
    """Blocks recruited or brought from the Mori box this turn: they may not move (7.2, 9.3)."""
    from_mori: frozenset[str] = frozenset()
    """The arrived blocks that came from the Mori box (9.3)."""
    entries: frozenset[tuple[str, str]] = frozenset()
    """(location, came from) for every road a stack marched this phase: retreats (8.8)."""


@dataclass(frozen=True)
class Deployment:
    """One block deployed in a battle (8.2.3) and what it counts for now."""

    block: str
    owner: str
    side: str
    """The side whose impact it counts for: the owner, or the challenger after defection."""
    card: str | None
    impact: int
    special: int
    """The part of `impact` from a special attack (8.4.1), lost on defection (8.6.2)."""
    group: int
    """Deployment number; a double card deploys two blocks in one group (8.4.2)."""

    @property
    def immune(self) -> bool:
        """A leader deployed without a card cannot be challenged (8.2.4)."""
        return self.card is None


@dataclass(frozen=True)
class Battle:
    """A battle or siege being fought (8.2, 8.9)."""

    at: str
    attacker: str
    defender: str
    siege: bool = False
    inside: tuple[str, ...] = ()
    """Siege: the defender's units in the castle, blocks and disks (8.9.2, 8.9.3)."""
    deployments: tuple[Deployment, ...] = ()
    played: Mapping[str, tuple[str, ...]] = field(default_factory=frozen_map)
    done: frozenset[str] = frozenset()
    challenge_open: int | None = None
    """The group an opponent may still challenge (8.6.1: right after it was deployed)."""
    challenge: tuple[str, str] | None = None
    """(challenger, loyalty card) waiting for the deployer to prove loyalty."""
    stage: Literal["deploy", "casualties", "retreat"] = "deploy"
    winner: str | None = None
    losses: Mapping[str, int] = field(default_factory=frozen_map)
    """Casualties still to take, per side (8.7.1, 8.9.4)."""
    lost: Mapping[str, int] = field(default_factory=frozen_map)
    """Blocks lost so far, per side (8.10 draws on them)."""
    castle_holder: str | None = None
    """Who controlled the castle before the fight (8.8.4, 8.9.1)."""
    entered_from: str | None = None
    """Where the attacker came from when a retreat caused this fight (8.8.2, 8.8.5)."""

    def impact(self, side: str) -> int:
        return sum(d.impact for d in self.deployments if d.side == side)

    def deployed(self) -> frozenset[str]:
        return frozenset(d.block for d in self.deployments)


@dataclass(frozen=True)
class SekigaharaState:
    week: int = 1
    turn: Literal["A", "B"] = "A"
    phase: Phase = "setup"
    first: str | None = None
    """The side that moves first in both turns of this week (6.3)."""
    active: str | None = None
    second_half: bool = False
    """False during the first player's phases of a turn, True during the second's (6.4)."""
    positions: Mapping[str, str] = field(default_factory=frozen_map)
    """Block id -> location id, box id, BAG or ELIMINATED."""
    disks: Mapping[str, str] = field(default_factory=frozen_map)
    """Disk id -> its castle's location, while the disk survives (3.4)."""
    revealed: frozenset[str] = frozenset()
    """Blocks whose identity the opponent has been shown and has not lost track of."""
    resources: Mapping[str, str] = field(default_factory=frozen_map)
    """Resource location -> controlling side; absent while nobody has entered it (4.2)."""
    castles: Mapping[str, str] = field(default_factory=frozen_map)
    """Castle location -> controlling side (4.3)."""
    hands: Mapping[str, Hand] = field(default_factory=frozen_map)
    pending: tuple[Pending, ...] = ()
    owed_discards: Mapping[str, int] = field(default_factory=frozen_map)
    """Cards each side must still discard in the reinforcement phase (6.2)."""
    week_discards: Mapping[str, int] = field(default_factory=frozen_map)
    """Cards each side had to discard when this week's reinforcement phase began (6.2)."""
    bids: Mapping[str, str] = field(default_factory=frozen_map)
    """Bid cards placed face down and not yet revealed (6.3)."""
    bid_winner: str | None = None
    movement: MovementPhase = MovementPhase()
    battle: Battle | None = None
    castle_choice: tuple[str, str] | None = None
    """(location, attacker): a declared fight waits for the castle's holder to choose (8.9.2)."""
    besieged: Mapping[str, str] = field(default_factory=frozen_map)
    """Castle location -> the side besieged in it (8.9.4 E, 8.9.6)."""
    quiet: frozenset[str] = frozenset()
    """Locations already fought over this combat phase, or where the active side stayed in its
    castle (8.1: each location once; 8.9.2)."""
    mori_arrivals: Mapping[str, tuple[int, str]] = field(default_factory=frozen_map)
    """Mori block -> the (week, turn) it came to Osaka: it may not move in that turn (9.3)."""
    follow_up: tuple[str, str, str] | None = None
    """(location, attacker, came from): a battle a retreat caused, fought next (8.8.5)."""
    entered_from: str | None = None
    """While a fight caused by a retreat is being declared: where its attacker came from."""
    outcome: Outcome | None = None

    def blocks_at(self, where: str, side: str | None = None,
                  owner: Mapping[str, str] | None = None) -> list[str]:
        """Blocks at a location or box, optionally only `side`'s (needs the `owner` map)."""
        found = [b for b, at in self.positions.items() if at == where]
        if side is not None and owner is not None:
            found = [b for b in found if owner[b] == side]
        return sorted(found)


# --- evolve: one small function per event type -------------------------------------------


def _set(state: SekigaharaState, **changes: Any) -> SekigaharaState:
    return replace(state, **changes)


def _place(state: SekigaharaState, moves: Mapping[str, str], *,
           reveal: bool = False, hide: frozenset[str] = frozenset()) -> SekigaharaState:
    positions = frozen_map({**state.positions, **moves})
    revealed = (state.revealed - hide) | (frozenset(moves) if reveal else frozenset())
    return replace(state, positions=positions, revealed=revealed)


def _blocks_placed(state: SekigaharaState, e: Event) -> SekigaharaState:
    to = e.data["to"]
    return _place(state, {b: to for b in e.data["blocks"]}, reveal=bool(e.data.get("shown")))


def _group_move_began(state: SekigaharaState, e: Event) -> SekigaharaState:
    """Once blocks leave a stack, the opponent cannot tell which went where (3.1)."""
    source = e.data["at"]
    hide = frozenset(b for b, at in state.positions.items() if at == source)
    return replace(state, revealed=state.revealed - hide)


def _stack_marched(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _place(state, {b: e.data["to"] for b in e.data["blocks"]})


def _group_moved(state: SekigaharaState, e: Event) -> SekigaharaState:
    paths = e.data["paths"]
    source = e.data["from"]
    roads = {frozenset((a, b)) for path in paths.values()
             for a, b in zip((source, *path[:-1]), path, strict=True)}
    mp = state.movement
    entries = {(b, a) for path in paths.values()
               for a, b in zip((source, *path[:-1]), path, strict=True)}
    movement = replace(mp, moves=mp.moves + 1, sources=mp.sources | {source},
                       roads=mp.roads | roads, moved=mp.moved | frozenset(paths),
                       entries=mp.entries | entries)
    return replace(state, movement=movement)


def _recruited(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: e.data["to"] for b in e.data["blocks"]},
                    reveal=bool(e.data["shown"]))
    mp = state.movement
    return replace(placed, movement=replace(mp, recruited=True,
                                            arrived=mp.arrived | set(e.data["blocks"])))


def _mori_arrived(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: e.data["to"] for b in e.data["blocks"]}, reveal=True)
    mp = state.movement
    arrived = frozenset(e.data["blocks"])
    when = {b: (state.week, state.turn) for b in arrived}
    return replace(placed, movement=replace(mp, arrived=mp.arrived | arrived,
                                            from_mori=mp.from_mori | arrived),
                   mori_arrivals=frozen_map({**state.mori_arrivals, **when}))


def _eliminated(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: ELIMINATED for b in e.data["blocks"]})
    gone = set(e.data.get("disks", ()))
    disks = frozen_map({d: at for d, at in state.disks.items() if d not in gone})
    return replace(placed, disks=disks, revealed=placed.revealed | set(e.data["blocks"]))


def _resource(state: SekigaharaState, e: Event) -> SekigaharaState:
    resources = {**state.resources, e.data["location"]: e.data["side"]}
    return _set(state, resources=frozen_map(resources))


def _castle(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, castles=frozen_map({**state.castles, e.data["location"]: e.data["side"]}))


def _hand(state: SekigaharaState, side: str, hand: Hand) -> SekigaharaState:
    return _set(state, hands=frozen_map({**state.hands, side: hand}))


def _cards_drawn(state: SekigaharaState, e: Event) -> SekigaharaState:
    side, hand = e.data["side"], state.hands[e.data["side"]]
    cards = None if hand.cards is None else hand.cards | set(e.data.get("cards", ()))
    new = _hand(state, side, replace(hand, count=hand.count + e.data["count"], cards=cards))
    return _resolve_pending(new, "cards", side)


def _cards_discarded(state: SekigaharaState, e: Event) -> SekigaharaState:
    side, hand = e.data["side"], state.hands[e.data["side"]]
    gone = frozenset(e.data["cards"])
    cards = None if hand.cards is None else hand.cards - gone
    new = _hand(state, side, Hand(hand.count - len(gone), cards, hand.discard | gone))
    owed = state.owed_discards.get(side, 0)
    if e.data.get("reason") == "reinforcements" and owed:
        new = _set(new, owed_discards=frozen_map({**state.owed_discards, side: 0}))
    return new


def _reshuffled(state: SekigaharaState, e: Event) -> SekigaharaState:
    side = e.data["side"]
    return _hand(state, side, replace(state.hands[side], discard=frozenset()))


def _blocks_drawn(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: e.data["to"] for b in e.data["blocks"]})
    return _resolve_pending(placed, "blocks", e.data["side"], e.data["to"])


def _resolve_pending(state: SekigaharaState, kind: str, side: str,
                     to: str | None = None) -> SekigaharaState:
    for index, item in enumerate(state.pending):
        if item.kind == kind and item.side == side and (to is None or item.to == to):
            return replace(state, pending=state.pending[:index] + state.pending[index + 1:])
    return state


def _draws_due(state: SekigaharaState, e: Event) -> SekigaharaState:
    items = tuple(Pending(**item) for item in e.data["draws"])
    return replace(state, pending=state.pending + items)


def _phase_began(state: SekigaharaState, e: Event) -> SekigaharaState:
    d = e.data
    changes: dict[str, Any] = {"phase": d["phase"]}
    for key in ("week", "turn", "active", "second_half"):
        if key in d:
            changes[key] = d[key]
    if d["phase"] == "movement":
        changes["movement"] = MovementPhase()
    if d["phase"] == "combat":
        changes["quiet"] = frozenset()
    if d["phase"] == "reinforcements":
        changes["owed_discards"] = frozen_map(d["discards"])
        changes["week_discards"] = frozen_map(d["discards"])
    if d["phase"] == "bid":
        changes["bids"], changes["bid_winner"] = frozen_map({}), None
    return replace(state, **changes)


def _bid_placed(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, bids=frozen_map({**state.bids, e.data["side"]: e.data["card"]}))


def _bids_revealed(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, bids=frozen_map({}), bid_winner=e.data["winner"])


def _first_chosen(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, first=e.data["first"])


def _level_chosen(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, movement=replace(state.movement, level=e.data["level"]))


def _leader_declared(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, revealed=state.revealed | {e.data["block"]})


def _game_ended(state: SekigaharaState, e: Event) -> SekigaharaState:
    d = e.data
    return _set(state, phase="over", outcome=Outcome.between(
        d["termination"], d["winner"], d["rule"], SIDES))


def _nothing(state: SekigaharaState, e: Event) -> SekigaharaState:
    return state


# --- combat (8) ------------------------------------------------------------------------------


def _battle(state: SekigaharaState, **changes: Any) -> SekigaharaState:
    assert state.battle is not None
    return replace(state, battle=replace(state.battle, **changes))


def _castle_choice_due(state: SekigaharaState, e: Event) -> SekigaharaState:
    return replace(state, castle_choice=(e.data["at"], e.data["attacker"]))


def _castle_choice_made(state: SekigaharaState, e: Event) -> SekigaharaState:
    return replace(state, castle_choice=None)


def _combat_skipped(state: SekigaharaState, e: Event) -> SekigaharaState:
    return replace(state, quiet=state.quiet | {e.data["at"]}, castle_choice=None,
                   entered_from=None)


def _battle_began(state: SekigaharaState, e: Event) -> SekigaharaState:
    d = e.data
    battle = Battle(d["at"], d["attacker"], d["defender"], siege=d["siege"],
                    inside=tuple(d["inside"]), castle_holder=d.get("castle_holder"),
                    played=frozen_map({d["attacker"]: (), d["defender"]: ()}),
                    entered_from=d.get("entered_from"))
    return replace(state, battle=battle, follow_up=None, castle_choice=None,
                   entered_from=None)


def _deployed(state: SekigaharaState, e: Event) -> SekigaharaState:
    d, battle = e.data, state.battle
    assert battle is not None
    deployment = Deployment(d["block"], d["side"], d["side"], d["card"], d["impact"],
                            d["special"], d["group"])
    played = dict(battle.played)
    card = d["card"]
    if card is not None and card not in played[d["side"]]:
        played[d["side"]] = (*played[d["side"]], card)
    new = _battle(state, deployments=(*battle.deployments, deployment),
                  played=frozen_map(played), challenge_open=d["group"])
    return replace(new, revealed=new.revealed | {d["block"]})


def _deploying_ended(state: SekigaharaState, e: Event) -> SekigaharaState:
    assert state.battle is not None
    return _battle(state, done=state.battle.done | {e.data["side"]}, challenge_open=None)


def _challenged(state: SekigaharaState, e: Event) -> SekigaharaState:
    battle = state.battle
    assert battle is not None
    played = dict(battle.played)
    played[e.data["by"]] = (*played[e.data["by"]], e.data["card"])
    return _battle(state, challenge=(e.data["by"], e.data["card"]), challenge_open=None,
                   played=frozen_map(played))


def _proven(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _battle(state, challenge=None)


def _defected(state: SekigaharaState, e: Event) -> SekigaharaState:
    battle = state.battle
    assert battle is not None
    group, to = e.data["group"], e.data["to"]
    deployments = tuple(
        replace(d, side=to, impact=d.impact - d.special, special=0) if d.group == group else d
        for d in battle.deployments)
    return _battle(state, deployments=deployments, challenge=None)


def _battle_won(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _battle(state, stage="casualties", winner=e.data["winner"],
                   losses=frozen_map(e.data["losses"]), challenge_open=None)


def _casualties(state: SekigaharaState, e: Event) -> SekigaharaState:
    battle = state.battle
    assert battle is not None
    side = e.data["side"]
    gone = _eliminated(state, Event("Overrun", {"blocks": e.data["blocks"],
                                               "disks": e.data["disks"]}))
    lost = dict(battle.lost)
    lost[side] = lost.get(side, 0) + len(e.data["blocks"])
    losses = {**battle.losses, side: 0}
    return _battle(gone, lost=frozen_map(lost), losses=frozen_map(losses))


def _retreat_due(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _battle(state, stage="retreat")


def _retreated(state: SekigaharaState, e: Event) -> SekigaharaState:
    """The stack splits or leaves: the opponent no longer knows which block is which (3.1)."""
    hide = frozenset(e.data["blocks"]) | frozenset(e.data.get("stayed", ()))
    return _place(state, {b: e.data["to"] for b in e.data["blocks"]}, hide=hide)


def _castle_fell(state: SekigaharaState, e: Event) -> SekigaharaState:
    at = e.data["at"]
    besieged = frozen_map({k: v for k, v in state.besieged.items() if k != at})
    return replace(state, castles=frozen_map({**state.castles, at: e.data["side"]}),
                   besieged=besieged)


def _siege_continues(state: SekigaharaState, e: Event) -> SekigaharaState:
    return replace(state, besieged=frozen_map({**state.besieged, e.data["at"]: e.data["side"]}))


def _siege_lifted(state: SekigaharaState, e: Event) -> SekigaharaState:
    at = e.data["at"]
    return replace(state, besieged=frozen_map({k: v for k, v in state.besieged.items()
                                               if k != at}))


def _battle_ended(state: SekigaharaState, e: Event) -> SekigaharaState:
    """8.2.1: blocks revealed by deployment are hidden again after the battle."""
    battle = state.battle
    assert battle is not None
    on_map = frozenset(b for b in battle.deployed() if state.positions.get(b) != ELIMINATED)
    return replace(state, battle=None, revealed=state.revealed - on_map,
                   quiet=state.quiet | {battle.at})


def _block_corrected(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _place(state, {e.data["block"]: e.data["to"]}, hide=frozenset({e.data["block"]}))


def _battle_follows(state: SekigaharaState, e: Event) -> SekigaharaState:
    return replace(state, follow_up=(e.data["at"], e.data["attacker"], e.data["from"]))


def _combat_declared(state: SekigaharaState, e: Event) -> SekigaharaState:
    return replace(state, entered_from=e.data.get("entered_from"), follow_up=None)


_EVOLVE = {
    "BlocksPlaced": _blocks_placed,
    "BlocksDrawn": _blocks_drawn,
    "DrawsDue": _draws_due,
    "CardsDrawn": _cards_drawn,
    "CardsDiscarded": _cards_discarded,
    "DiscardReshuffled": _reshuffled,
    "PhaseBegan": _phase_began,
    "ReinforcementsDue": _nothing,
    "BidPlaced": _bid_placed,
    "BidsRevealed": _bids_revealed,
    "FirstPlayerChosen": _first_chosen,
    "MovementLevelChosen": _level_chosen,
    "LeaderDeclared": _leader_declared,
    "GroupMoveBegan": _group_move_began,
    "StackMarched": _stack_marched,
    "GroupMoved": _group_moved,
    "BlocksRecruited": _recruited,
    "MoriArrived": _mori_arrived,
    "Overrun": _eliminated,
    "ResourceControlChanged": _resource,
    "CastleControlChanged": _castle,
    "VictoryPointsCounted": _nothing,
    "CombatDeclared": _combat_declared,
    "CastleChoiceDue": _castle_choice_due,
    "CastleChoiceMade": _castle_choice_made,
    "CombatSkipped": _combat_skipped,
    "BattleBegan": _battle_began,
    "BlockDeployed": _deployed,
    "DeployingEnded": _deploying_ended,
    "LoyaltyChallenged": _challenged,
    "LoyaltyProven": _proven,
    "BlocksDefected": _defected,
    "BattleWon": _battle_won,
    "CasualtiesTaken": _casualties,
    "RetreatDue": _retreat_due,
    "Retreated": _retreated,
    "CastleFell": _castle_fell,
    "SiegeContinues": _siege_continues,
    "SiegeLifted": _siege_lifted,
    "BattleEnded": _battle_ended,
    "BattleFollows": _battle_follows,
    "BlockCorrected": _block_corrected,
    "GameEnded": _game_ended,
}


def evolve(state: SekigaharaState, event: Event) -> SekigaharaState:
    """The state after `event`; KeyError for an event type Sekigahara never produces."""
    return _EVOLVE[event.type](state, event)
