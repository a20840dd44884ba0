"""7.1 and 7.3 The movement phase: buying movement with cards, then moving groups.

A group move starts from one location (the stack there) and gives each moving block its own
path, so blocks may split along different roads and be dropped off on the way (7.3.1):

    tokugawa move {"from": "edo", "paths": {"T-tokugawa-3-1": ["oshi", "takasaki"],
                                            "T-tokugawa-leader-1": ["oshi"]},
                   "leader": "T-tokugawa-leader-1", "forced_march": "T-date-plain-2"}

`leader` declares a leader for command (7.3.4); `forced_march` discards a card for +1 (7.3.3)
for the blocks named in `marching` (all of the move's blocks when not given), which must start,
move and end together; `forced_marches: {card: [blocks]}` gives each group of a split stack its
own forced march (forced_march.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.sekigahara.rules.cards import card_list, check_in_hand, discard, draw
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.forced_march import (
    Marches,
    check_marches,
    marching_blocks,
    read_marches,
)
from companion.games.sekigahara.rules.locations import (
    blocks_of,
    castle_controller,
    units_at,
    update_control,
)
from companion.games.sekigahara.rules.names import (
    at_place,
    block_name,
    block_names,
    card_name,
    listed,
    side_name,
)
from companion.games.sekigahara.rules.offers import Offer, refusal
from companion.games.sekigahara.rules.overrun import can_overrun, overrun, why_not_overrun
from companion.games.sekigahara.rules.state import MovementPhase, SekigaharaState

__all__ = [
    "LEVEL_CARDS", "Reach", "allowance_left", "by_highway", "command_source",
    "decide_end_movement", "decide_level", "decide_move", "movable_blocks", "reach",
    "size_penalty",
]

LEVEL_CARDS = {"none": None, "minimal": 0, "limited": 1, "total": 2}  # 7.1: None = any number
LEVEL_GROUPS = {"minimal": 1, "limited": 3}  # 7.1: "total" moves every group
LEVEL_WORDS = {"none": Sentence("none"), "minimal": Sentence("minimal"),
               "limited": Sentence("limited"), "total": Sentence("total")}
"""Each level as a refusal says it (the same word as its id, said again in a screen's
language)."""
COMMAND_WORDS = {"castle": Sentence("castle"), "capital": Sentence("capital"),
                 "leader": Sentence("leader")}
"""Each source of command (7.3.4) as a refusal says it."""


def level_word(level: str) -> str:
    """A movement level in words (its id when it is none of the four)."""
    return LEVEL_WORDS.get(level, level)


def allowance_left(mp: MovementPhase) -> int | None:
    """Group moves (or a recruitment in their place) still allowed; None for total movement."""
    if mp.level in LEVEL_GROUPS:
        return LEVEL_GROUPS[mp.level] - mp.moves - int(mp.recruited)
    if mp.level == "total":
        return None
    return 0


def size_penalty(blocks: int) -> int:
    """7.3.5: -1 at the 5th, 9th, 13th and 17th block."""
    return (blocks - 1) // 4


# --- 7.1 movement level ----------------------------------------------------------------------


def decide_level(ctx: Context, batch: Batch, action: Action) -> None:
    """7.1: pay 0, 1 or 2 cards for no, minimal, limited or total movement."""
    side, mp = action.role, batch.state.movement
    if mp.level is not None:
        raise IllegalAction("7.1", Sentence("the movement level is already chosen: {level}",
                                            level=level_word(mp.level)))
    level = action.args.get("level")
    if not isinstance(level, str) or level not in LEVEL_CARDS:
        affordable = [level_word(lvl) for lvl, cost in LEVEL_CARDS.items()
                      if (cost or 0) <= batch.state.hands[side].count]
        raise IllegalAction("7.1", Sentence("no such movement level"),
                            legal=affordable)
    cards = card_list(action.args.get("cards"), "7.1")
    cost = LEVEL_CARDS[str(level)]
    if cost is not None and len(cards) != cost:
        raise IllegalAction("7.1", Sentence("{level} movement costs {cost} card(s), not {count}",
                                            level=level_word(level), cost=cost,
                                            count=len(cards)))
    check_in_hand(ctx, batch.state, side, cards, "7.1")
    batch.emit("MovementLevelChosen", side=side, level=level, cards=cards, rule="7.1")
    discard(batch, side, cards, "redraw" if level == "none" else "movement", "7.1")
    if level == "none":
        draw(ctx, batch, side, len(cards), "redraw")


def decide_end_movement(ctx: Context, batch: Batch, action: Action) -> None:
    """End the movement phase; the combat phase follows (6.4)."""
    if batch.state.movement.level is None:
        batch.emit("MovementLevelChosen", side=action.role, level="none", cards=[], rule="7.1")
    batch.emit("PhaseBegan", phase="combat", rule="8.1")


# --- 7.3 group moves -------------------------------------------------------------------------


def command_source(ctx: Context, state: SekigaharaState, side: str, source: str,
                   leader: str | None) -> str | None:
    """7.3.4: an own-colour castle the side controls, its own capital, or a declared leader."""
    if ctx.castle.get(source) == side and castle_controller(ctx, state, source) == side:
        return "castle"
    if ctx.capital.get(side) == source:
        return "capital"
    if leader is not None:
        return "leader"
    return None


def movable_blocks(ctx: Context, state: SekigaharaState, side: str, source: str) -> list[str]:
    """Blocks at `source` that may still move this phase (7.2, 7.3.1, 9.3)."""
    mp = state.movement
    if source in mp.sources or _besieged(ctx, state, side, source):
        return []
    return [b for b in blocks_of(ctx, state, source, side)
            if b not in mp.moved and b not in mp.arrived and not _mori_this_turn(state, b)]


def _mori_this_turn(state: SekigaharaState, block: str) -> bool:
    """9.3: Mori blocks may not move in the turn (A or B) they came to Osaka."""
    return state.mori_arrivals.get(block) == (state.week, state.turn)


def _besieged(ctx: Context, state: SekigaharaState, side: str, source: str) -> bool:
    """8.9.6: blocks besieged in a castle may not leave its location."""
    return state.besieged.get(source) == side and bool(units_at(ctx, state, source, other(side)))


@dataclass(frozen=True)
class _Move:
    side: str
    source: str
    paths: Mapping[str, tuple[str, ...]]
    leader: str | None
    marches: Marches
    """Card -> the blocks its forced march covers (7.3.3)."""
    args: Mapping[str, Any]
    """The action's arguments, to build the moves a refusal suggests instead."""

    @property
    def marching(self) -> frozenset[str]:
        return marching_blocks(self.marches)

    def instead(self, paths: Mapping[str, tuple[str, ...]]) -> Action:
        """The same move with some blocks' paths changed."""
        new = {b: list(p) for b, p in {**self.paths, **paths}.items()}
        return Action(self.side, "move", {**self.args, "paths": new})


def decide_move(ctx: Context, batch: Batch, action: Action) -> None:
    move = _read_move(ctx, batch.state, action)
    _check_roads(ctx, batch.state, move)
    command = _check_leader(ctx, batch.state, move)
    check_marches(move.paths, move.marches, lambda b: block_name(ctx.kit, b),
                  lambda c: card_name(ctx.kit, c) if c in ctx.kit.card else repr(c))
    _check_ranges(ctx, move, command)
    if move.marches:
        check_in_hand(ctx, batch.state, move.side, sorted(move.marches), "7.3.3")
    _perform(ctx, batch, move, command)


def _read_move(ctx: Context, state: SekigaharaState, action: Action) -> _Move:
    side, mp = action.role, state.movement
    left = allowance_left(mp)
    if mp.level is None or mp.level == "none":
        raise IllegalAction("7.1", "choose minimal, limited or total movement before moving"
                            if mp.level is None else "no movement was chosen this phase")
    if left is not None and left <= 0:
        raise IllegalAction("7.1", Sentence(
            "{level} movement allows {count} group move(s) or recruitment(s), and they are used",
            level=level_word(mp.level), count=LEVEL_GROUPS[mp.level]))
    source = action.args.get("from")
    if not ctx.is_location(source):
        raise IllegalAction("7.3.1", Sentence("a move starts from a location"))
    paths = action.args.get("paths")
    if not isinstance(paths, Mapping) or not paths:
        raise IllegalAction("7.3.1", "name the moving blocks and the path of each")
    movable = movable_blocks(ctx, state, side, str(source))
    for block, path in paths.items():
        _check_block(ctx, state, side, str(source), block, movable)
        if not isinstance(path, tuple) or not path or not all(ctx.is_location(p) for p in path):
            raise IllegalAction("7.3.1", Sentence(
                "the path of {block} from {place} must list the locations it enters",
                block=block_name(ctx.kit, block), place=ctx.name(str(source))))
    leader = action.args.get("leader")
    return _Move(side, str(source), {b: tuple(p) for b, p in paths.items()},
                 str(leader) if leader else None, read_marches(action, paths), action.args)


def _check_block(ctx: Context, state: SekigaharaState, side: str, source: str, block: str,
                 movable: Sequence[str]) -> None:
    if block in movable:
        return
    mp = state.movement
    name = block_name(ctx.kit, block)
    if ctx.owner.get(block) != side:  # never say where an enemy block is
        raise IllegalAction("7.3.1", Sentence("{side} has no such block at {place}",
                                              side=side_name(side),
                                              place=ctx.name(source)))
    if state.positions.get(block) != source:
        raise IllegalAction("7.3.1", Sentence(
            "{block} is not at {place}: it stands {where}", block=name, place=ctx.name(source),
            where=at_place(ctx.kit, state.positions[block], side=side)))
    if source in mp.sources:
        raise IllegalAction("7.3.1", Sentence(
            "the stack at {place} has already moved this phase: a stack that splits moves all "
            "its groups in one move, each group with its own forced march if it needs one "
            "(7.3.3)", place=ctx.name(source)))
    if _besieged(ctx, state, side, source):
        raise IllegalAction("8.9.6", Sentence("{block} is besieged in {place} castle and may not "
                                              "leave", block=name, place=ctx.name(source)))
    if block in mp.arrived or _mori_this_turn(state, block):
        mori = block in mp.from_mori or _mori_this_turn(state, block)
        raise IllegalAction("9.3" if mori else "7.2", Sentence(
            "{block} arrived at {place} this turn and may not move until the next", block=name,
            place=ctx.name(source)))
    raise IllegalAction("7.3.1", Sentence("{block} has already moved this phase (it stands at "
                                          "{place})", block=name, place=ctx.name(source)))


def _steps(move: _Move, block: str) -> list[tuple[str, str]]:
    return list(pairwise((move.source, *move.paths[block])))


def _check_roads(ctx: Context, state: SekigaharaState, move: _Move) -> None:
    """7.3.1: along roads; no road twice in a phase; blocks travel a road together only if
    they came the same way (2016: no picking up on the way)."""
    used_by: dict[frozenset[str], set[tuple[str, ...]]] = {}
    for block, path in move.paths.items():
        for index, (a, b) in enumerate(_steps(move, block)):
            if ctx.kit.road(a, b) is None:
                raise refusal("7.3.1", Sentence(
                    "no road joins {start} and {end}: {block} cannot go that way",
                    start=ctx.name(a), end=ctx.name(b), block=block_name(ctx.kit, block)),
                    _detours(ctx, move, block, index))
            segment = frozenset((a, b))
            if segment in state.movement.roads:
                raise refusal("7.3.1", Sentence(
                    "the {start}-{end} road was already used this movement phase: {block} "
                    "cannot take it again", start=ctx.name(a), end=ctx.name(b),
                    block=block_name(ctx.kit, block)), _detours(ctx, move, block, index))
            used_by.setdefault(segment, set()).add(path[:index])
    if ctx.edition == "2016":
        for segment, ways in used_by.items():
            if len(ways) > 1:
                a, b = sorted(segment)
                raise IllegalAction("7.3.1", Sentence(
                    "the {start}-{end} road would be used twice: blocks that share a road must "
                    "travel it together, having come the same way", start=ctx.name(a),
                    end=ctx.name(b)))


def _detours(ctx: Context, move: _Move, block: str, index: int) -> list[Offer]:
    """Instead of the `index`-th step of `block` (and of the blocks travelling it with it):
    each other road from where that step starts, or stopping there. `decide` keeps those it
    accepts (offers.py), so a road the move itself has just travelled is never suggested."""
    path = move.paths[block]
    prefix, here = path[:index], (path[index - 1] if index else move.source)
    sharing = [b for b, p in move.paths.items() if p[:index + 1] == path[:index + 1]]
    offers = [(f"{ctx.name(here)}-{ctx.name(n)}",
               move.instead(dict.fromkeys(sharing, (*prefix, n))))
              for n in sorted(ctx.kit.neighbours[here], key=ctx.name) if n != path[index]]
    if prefix:
        offers.append((Sentence("stop at {place}", place=ctx.name(here)),
                       move.instead(dict.fromkeys(sharing, prefix))))
    return offers


def _check_leader(ctx: Context, state: SekigaharaState, move: _Move) -> str | None:
    leader = move.leader
    if leader is not None:
        block = ctx.kit.block.get(leader)
        if block is None or block.side != move.side or block.leader is None \
                or state.positions.get(leader) != move.source:
            named = block_name(ctx.kit, leader) if block is not None \
                and block.side == move.side else Sentence("that block")  # an enemy's: unnamed
            raise IllegalAction("7.3.4", Sentence("{block} is not a {side} leader at {place}",
                                                  block=named, side=side_name(move.side),
                                                  place=ctx.name(move.source)))
    return command_source(ctx, state, move.side, move.source, leader)


def by_highway(kit: SekigaharaKit, source: str, path: Sequence[str]) -> bool:
    """7.3.3: whether a block goes the whole way from `source` along `path` by highway (+1 to
    its range). The range check counts the bonus with it and the words say "by highway" with
    it, so the two can never disagree about a road."""
    roads = [kit.road(a, b) for a, b in pairwise((source, *path))]
    return bool(roads) and all(road is not None and road.kind == "highway" for road in roads)


def block_range(*, highway: bool, command: bool, forced: bool, largest: int) -> int:
    """7.3.3-7.3.6: base 1, +1 highways, +1 command, +1 forced march, -1 per four blocks."""
    return 1 + highway + command + forced - size_penalty(largest)


def _check_ranges(ctx: Context, move: _Move, command: str | None) -> None:
    together: dict[tuple[str, ...], int] = {}
    for path in move.paths.values():
        for k in range(1, len(path) + 1):
            together[path[:k]] = together.get(path[:k], 0) + 1
    for block, path in move.paths.items():
        largest = max(together[path[:k]] for k in range(1, len(path) + 1))
        highway = by_highway(ctx.kit, move.source, path)
        forced = block in move.marching
        reach_ = block_range(highway=highway, command=command is not None,
                             forced=forced, largest=largest)
        if len(path) > reach_:
            rule = "7.3.5" if len(path) <= reach_ + size_penalty(largest) else "7.3.3"
            why = listed([
                Sentence("base 1"), Sentence("highway {bonus}", bonus="+1" if highway else "0"),
                Sentence("command {bonus}", bonus=Sentence(
                    "+1 ({source})", source=COMMAND_WORDS.get(command, command))
                    if command else "0"),
                Sentence("forced march {bonus}", bonus="+1" if forced else "0"),
                Sentence("{count} blocks together -{penalty}", count=largest,
                         penalty=size_penalty(largest))])
            raise IllegalAction(rule, Sentence(
                "{block} may move {count} location(s) from {place}, not {steps} to {end}: {why}",
                block=block_name(ctx.kit, block), count=max(reach_, 0),
                place=ctx.name(move.source), steps=len(path), end=ctx.name(path[-1]), why=why))


def _perform(ctx: Context, batch: Batch, move: _Move, command: str | None) -> None:
    """Emit the move step by step, so overruns happen when the stack arrives (7.3.2, 7.4)."""
    side = move.side
    batch.emit("GroupMoveBegan", side=side, at=move.source, blocks=sorted(move.paths),
               command=command, forced_march=sorted(move.marching), rule="7.3")
    if move.leader:  # 7.3.4: declared to the opponent, so known wherever it goes next
        batch.emit("LeaderDeclared", side=side, block=move.leader, rule="7.3.4")
    touched = [move.source]
    for k in range(max(len(p) for p in move.paths.values())):
        stacks: dict[tuple[str, ...], list[str]] = {}
        for block, path in move.paths.items():
            if len(path) > k:
                stacks.setdefault(path[:k + 1], []).append(block)
        # Every stack of this step arrives before overruns and stops are judged, so the
        # outcome never depends on the order the stacks are listed in (7.3.2, 7.4.2).
        for way, blocks in sorted(stacks.items()):
            start = move.source if k == 0 else way[-2]
            batch.emit("StackMarched", side=move.side, **{"from": start}, to=way[-1],
                       blocks=sorted(blocks))
            touched.append(way[-1])
        for here in sorted({way[-1] for way in stacks}):
            if units_at(ctx, batch.state, here, other(move.side)):
                overrun(ctx, batch, here, move.side)
            if batch.state.outcome is not None:  # 2.1: an overrun won the game at once
                return
            _stop_if_enemies(ctx, batch, move, here, k)
    batch.emit("GroupMoved", side=side, **{"from": move.source},
               paths={b: list(p) for b, p in move.paths.items()}, rule="7.3")
    entered = [loc for path in move.paths.values() for loc in path]
    update_control(ctx, batch, side, entered, touched)
    discard(batch, side, sorted(move.marches), "forced march", "7.3.3")


def _stop_if_enemies(ctx: Context, batch: Batch, move: _Move, here: str, k: int) -> None:
    """7.3.2: blocks meeting enemy units they could not overrun end their move there; the
    refusal gives the real reason (too few, 7.4.1, or a castle's holder, 7.4.3)."""
    if units_at(ctx, batch.state, here, other(move.side)):
        onward = sorted(b for b, path in move.paths.items()
                        if len(path) > k + 1 and path[k] == here)
        if onward:
            rule, why = why_not_overrun(ctx, batch.state, here, move.side)
            stop = move.instead({b: move.paths[b][:k + 1] for b in onward})
            raise refusal(rule, Sentence("{blocks} must stop at {place} (7.3.2): {why}",
                                         blocks=block_names(ctx.kit, onward),
                                         place=ctx.name(here), why=why),
                          [(Sentence("stop at {place}", place=ctx.name(here)), stop)])


# --- what a stack could reach, for the tablet and the simulator -------------------------------


@dataclass(frozen=True)
class Reach:
    """Where a stack moving together from `source` can go, and why that far."""

    source: str
    blocks: tuple[str, ...]
    command: str | None
    penalty: int
    roads: int
    """Range by any road: base 1 + command - size penalty (7.3.3, 7.3.5)."""
    paths: Mapping[str, tuple[str, ...]]
    """Destination -> a shortest legal path (highway-only paths get +1)."""

    def to_json(self, ctx: Context) -> dict[str, Any]:
        return {
            "from": self.source, "blocks": len(self.blocks), "command": self.command,
            "range": {"base": 1, "command": int(self.command is not None),
                      "size_penalty": -self.penalty, "by_road": self.roads,
                      "all_highway": self.roads + 1, "forced_march": "+1 for a card"},
            "reachable": sorted(self.paths),
        }


def reach(ctx: Context, state: SekigaharaState, side: str, source: str,
          blocks: Sequence[str], *, forced: bool = False) -> Reach:
    """Breadth-first over unused roads, stopping at enemies that cannot be overrun."""
    leader = next((b for b in blocks_of(ctx, state, source, side)
                   if ctx.kit.block[b].leader), None)
    command = command_source(ctx, state, side, source, leader)
    penalty = size_penalty(len(blocks))
    roads = 1 + (command is not None) + forced - penalty
    paths: dict[str, tuple[str, ...]] = {}
    for highway_only, limit in ((False, roads), (True, roads + 1)):
        for dest, path in _search(ctx, state, side, source, len(blocks), limit,
                                  highway_only).items():
            if dest not in paths or len(path) < len(paths[dest]):
                paths[dest] = path
    return Reach(source, tuple(blocks), command, penalty, roads, paths)


def _search(ctx: Context, state: SekigaharaState, side: str, source: str, size: int,
            limit: int, highway_only: bool) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(max(limit, 0)):
        grown: list[tuple[str, ...]] = []
        for path in frontier:
            here = path[-1] if path else source
            if path and _blocked(ctx, state, side, here, size):
                continue
            for nxt in ctx.kit.neighbours[here]:
                road = ctx.kit.road(here, nxt)
                if nxt == source or nxt in path or road is None \
                        or frozenset((here, nxt)) in state.movement.roads \
                        or (highway_only and road.kind != "highway"):
                    continue
                if nxt not in found:
                    found[nxt] = (*path, nxt)
                    grown.append((*path, nxt))
        frontier = grown
    return found


def _blocked(ctx: Context, state: SekigaharaState, side: str, here: str, size: int) -> bool:
    """A stack stops where enemy units stand, unless it can overrun them (7.3.2)."""
    if not units_at(ctx, state, here, other(side)):
        return False
    arriving = [f"arriving-{i}" for i in range(size)]  # stand-ins: only their number counts
    return not can_overrun(ctx, state, here, side, arriving)
