"""5 Set-up: pre-assigned blocks by symbol, random draws for the +N markers, first hands.

The pre-assigned blocks (5.2.1) stand where their symbol's marker is before the first action.
Everything random is then drawn by chance, one marker at a time, the place named first
(5.2.2): the bag draws for the map's +1/+2/+3 markers, four blocks into each recruitment box
(5.2.3) and, in full-knowledge mode, five cards each (5.1). In table mode the players draw at
the table and the companion checks what it sees against the markers (`check_setup`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.engine.core import CHANCE, Action, IllegalAction, Sentence
from companion.games.sekigahara.kit import SIDES
from companion.games.sekigahara.rules.context import Batch, Context
from companion.games.sekigahara.rules.locations import update_control
from companion.games.sekigahara.rules.names import block_names, place_name
from companion.games.sekigahara.rules.state import (
    BAG,
    Hand,
    Pending,
    SekigaharaState,
    frozen_map,
)

__all__ = [
    "STARTING_HAND", "SetupProblem", "check_setup", "decide_draw_blocks", "initial_state",
    "sample_draw_blocks", "setup_actions",
]

STARTING_HAND = 5  # 5.1


def _markers(ctx: Context) -> list[tuple[str, str, str, int]]:
    """(place, side, kind, count) for every set-up marker, locations first, then boxes."""
    places = [(loc.id, loc.setup) for loc in ctx.kit.locations]
    places += [(box.id, box.setup) for box in ctx.kit.boxes]
    return [(place, m.side, m.kind, m.count) for place, markers in places for m in markers]


def _assigned(ctx: Context) -> dict[str, str]:
    """Block -> the place of the marker showing its set-up symbol (5.2.1)."""
    slots: dict[tuple[str, str], list[str]] = {}
    for place, side, kind, count in _markers(ctx):
        if kind != "random":
            slots.setdefault((side, kind), []).extend([place] * count)
    where: dict[str, str] = {}
    for block in ctx.kit.blocks:
        if block.setup is not None:
            where[block.id] = slots[(block.side, block.setup)].pop(0)
    return where


def initial_state(ctx: Context) -> SekigaharaState:
    positions = {b.id: BAG for b in ctx.kit.blocks} | _assigned(ctx)
    pending = [Pending("blocks", side, count, to=place, reason="set-up")
               for place, side, kind, count in _markers(ctx) if kind == "random"]
    full = ctx.knowledge == "full"
    hands = {side: Hand(0, frozenset(), frozenset()) if full else Hand(STARTING_HAND, None)
             for side in SIDES}
    if full:
        pending += [Pending("cards", side, STARTING_HAND, reason="set-up") for side in SIDES]
    state = SekigaharaState(
        positions=frozen_map(positions), hands=frozen_map(hands), pending=tuple(pending),
        disks=frozen_map({d.id: d.at for d in ctx.kit.disks}),
        castles=frozen_map(dict(ctx.castle)),
        revealed=frozenset(b for b, at in positions.items() if at == ctx.mori_box),  # 5.1
    )
    # Set-up placement occupies a location: Edo starts Tokugawa's (docs/sekigahara.md, 4.2).
    occupied = {at: ctx.owner[b] for b, at in positions.items() if at in ctx.resources}
    return replace(state, resources=frozen_map(occupied))


def decide_draw_blocks(ctx: Context, batch: Batch, action: Action) -> None:
    """Chance draws blocks from a bag for a pending draw (5.2.2, 5.2.3, 6.2)."""
    state = batch.state
    side, to = action.args.get("side"), action.args.get("to")
    pending = next((p for p in state.pending
                    if p.kind == "blocks" and p.side == side and p.to == to), None)
    if pending is None:
        due = [Sentence("{side} {count} for {place}", side=p.side, count=p.count, place=p.to)
               for p in state.pending if p.kind == "blocks"]
        rule = "5.2.2" if state.phase == "setup" else "6.2"
        raise IllegalAction(rule, Sentence("no draw of {side} blocks for '{place}' is due",
                                           side=side, place=to), legal=due)
    rule = {"set-up": "5.2.2" if ctx.is_location(to) else "5.2.3"}.get(pending.reason, "6.2")
    blocks = action.args.get("blocks")
    bag = state.blocks_at(BAG, str(side), ctx.owner)
    want = min(pending.count, len(bag))
    if not isinstance(blocks, tuple) or not all(isinstance(b, str) for b in blocks) \
            or len(set(blocks)) != len(blocks) or len(blocks) != want:
        got = len(blocks) if isinstance(blocks, tuple) else repr(blocks)
        raise IllegalAction(rule, Sentence("{side} draws {count} block(s) for {place}, not {got}",
                                           side=side, count=want, got=got,
                                           place=place_name(ctx.kit, str(to), side=str(side))))
    outside = [b for b in blocks if b not in bag]
    if outside:
        own = [b for b in outside if ctx.owner.get(b) == side]  # never name an enemy block
        raise IllegalAction(rule, Sentence(
            "not in the {side} bag: {blocks}", side=side, blocks=block_names(ctx.kit, own)
            if own else Sentence("blocks of the other side")))
    batch.emit("BlocksDrawn", side=side, to=to, blocks=list(blocks), rule=rule)
    if ctx.is_location(to):
        update_control(ctx, batch, str(side), [str(to)], [str(to)])


def sample_draw_blocks(ctx: Context, state: SekigaharaState, pending: Pending,
                       rng: random.Random) -> Action:
    bag = state.blocks_at(BAG, pending.side, ctx.owner)
    blocks = sorted(rng.sample(bag, min(pending.count, len(bag))))  # a set: canonical order
    return Action(CHANCE, "draw_blocks", {"side": pending.side, "to": pending.to,
                                          "blocks": blocks})


@dataclass(frozen=True)
class SetupProblem:
    """Something on the table that does not match the set-up rules."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


def check_setup(ctx: Context, observed: Mapping[str, str]) -> list[SetupProblem]:
    """Compare a table seen by the camera (block -> place) with the set-up markers (5.2).

    Reports pre-assigned blocks missing or misplaced, and random markers or recruitment boxes
    holding the wrong number of bag blocks. An empty list means the set-up is right.
    """
    problems: list[SetupProblem] = []
    for block, place in sorted(_assigned(ctx).items()):
        seen = observed.get(block)
        if seen != place:
            where = f"seen at {ctx.name(seen)}" if seen else "not seen"
            problems.append(SetupProblem("5.2.1", f"{block} starts at {ctx.name(place)}, {where}"))
    wanted = {(place, side): count for place, side, kind, count in _markers(ctx)
              if kind == "random"}
    drawn: dict[tuple[str, str], int] = {}
    for block, place in observed.items():
        if ctx.kit.block.get(block) is not None and ctx.kit.block[block].setup is None:
            drawn[(place, ctx.owner[block])] = drawn.get((place, ctx.owner[block]), 0) + 1
    for key in sorted(set(wanted) | set(drawn)):
        place, side = key
        have, want = drawn.get(key, 0), wanted.get(key, 0)
        if have != want and place != BAG:
            rule = "5.2.3" if place in ctx.recruitment_box.values() else "5.2.2"
            problems.append(SetupProblem(rule, f"{ctx.name(place)}: {have} {side} block(s) from "
                                         f"the bag, the set-up calls for {want}"))
    return problems


def setup_actions(ctx: Context, observed: Mapping[str, str]) -> list[Action]:
    """Table mode: the chance actions that record a checked set-up's random draws."""
    actions = []
    for place, side, kind, _count in _markers(ctx):
        if kind == "random":
            blocks = sorted(b for b, at in observed.items()
                            if at == place and ctx.owner.get(b) == side
                            and ctx.kit.block[b].setup is None)
            actions.append(Action(CHANCE, "draw_blocks", {"side": side, "to": place,
                                                          "blocks": blocks}))
    return actions
