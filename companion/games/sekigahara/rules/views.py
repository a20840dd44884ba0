"""What each role may see: its own blocks and hand in full, the enemy's as counts (3.1, 3.3).

The public view (the shared tablet) shows every stack as a side and a count, the Mori box and
eliminated blocks face up, revealed blocks (recruited by way A, declared leaders), control,
hand and pile sizes, and the bookkeeping of the week. A player's view adds its own blocks and,
in full-knowledge mode, its own cards, plus the options open to it now.
"""

from __future__ import annotations

from typing import Any

from companion.engine.core import REFEREE
from companion.games.sekigahara.kit import SIDES
from companion.games.sekigahara.rules.aftermath import retreat_places
from companion.games.sekigahara.rules.battle import initiative
from companion.games.sekigahara.rules.cards import draw_pile
from companion.games.sekigahara.rules.combat import battles_due
from companion.games.sekigahara.rules.context import Batch, Context
from companion.games.sekigahara.rules.locations import blocks_of, disks_of
from companion.games.sekigahara.rules.mori import mori_order
from companion.games.sekigahara.rules.movement import (
    LEVEL_CARDS,
    allowance_left,
    movable_blocks,
    reach,
)
from companion.games.sekigahara.rules.recruitment import recruitment_locations
from companion.games.sekigahara.rules.state import ELIMINATED, SekigaharaState
from companion.games.sekigahara.rules.weekly import reinforcements

__all__ = ["view"]


def view(ctx: Context, state: SekigaharaState, role: str,
         waiting_for: tuple[str, ...]) -> dict[str, Any]:
    batch = Batch(state)
    result: dict[str, Any] = {
        "game": "sekigahara", "role": role, "knowledge": ctx.knowledge,
        "week": state.week, "turn": state.turn, "phase": state.phase,
        "first": state.first, "active": state.active, "waiting_for": list(waiting_for),
        "locations": _locations(ctx, state, role),
        "boxes": _boxes(ctx, state, role),
        "eliminated": [_face(ctx, b) for b in state.blocks_at(ELIMINATED)],
        "control": {"resources": dict(state.resources), "castles": dict(state.castles)},
        "cards": _cards(ctx, state, role),
        "pending_draws": [p.to_json() for p in state.pending],
        "battles_due": battles_due(ctx, state) if state.phase == "combat" else [],
        "battle": _battle(ctx, state),
        "besieged": dict(state.besieged),
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }
    if state.phase == "reinforcements":
        result["reinforcements"] = {"plan": reinforcements(ctx, batch),
                                    "discards_owed": dict(state.owed_discards)}
    if state.phase == "movement":
        mp = state.movement
        result["movement"] = {"level": mp.level, "moves": mp.moves, "recruited": mp.recruited,
                              "moves_left": allowance_left(mp)}
    if role == state.active and role in SIDES and state.phase == "movement":
        result["options"] = _movement_options(ctx, state, role)
    return result


def _sees(ctx: Context, state: SekigaharaState, role: str, block: str) -> bool:
    return role == REFEREE or ctx.owner[block] == role or block in state.revealed


def _face(ctx: Context, block: str) -> dict[str, Any]:
    b = ctx.kit.block[block]
    return {"block": b.id, "side": b.side, "clan": b.clan, "strength": b.strength,
            "attack": b.attack, "leader": b.leader}


def _stack(ctx: Context, state: SekigaharaState, role: str, blocks: list[str]) -> dict[str, Any]:
    return {"count": len(blocks),
            "blocks": [_face(ctx, b) for b in blocks if _sees(ctx, state, role, b)]}


def _locations(ctx: Context, state: SekigaharaState, role: str) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for loc in ctx.kit.locations:
        here: dict[str, Any] = {
            side: _stack(ctx, state, role, blocks_of(ctx, state, loc.id, side))
            for side in SIDES if blocks_of(ctx, state, loc.id, side)}
        disks = [d for side in SIDES for d in disks_of(ctx, state, loc.id, side)]
        if disks:
            here["disks"] = disks
        if here:
            shown[loc.id] = here
    return shown


def _boxes(ctx: Context, state: SekigaharaState, role: str) -> dict[str, Any]:
    return {box.id: {"side": box.side,
                     **_stack(ctx, state, role, state.blocks_at(box.id))}
            for box in ctx.kit.boxes}


def _cards(ctx: Context, state: SekigaharaState, role: str) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for side in SIDES:
        hand = state.hands[side]
        entry: dict[str, Any] = {"hand": hand.count, "draw_pile": draw_pile(ctx, state, side),
                                 "discard_pile": len(hand.discard),
                                 "bid_placed": side in state.bids}
        if role in (side, REFEREE):
            if hand.cards is not None:
                entry["cards"] = sorted(hand.cards)
            if side in state.bids:
                entry["bid"] = state.bids[side]
        shown[side] = entry
    return shown


def _battle(ctx: Context, state: SekigaharaState) -> dict[str, Any] | None:
    """The impact track and the deployed blocks, all public once deployed (8.2.3)."""
    battle = state.battle
    if battle is None:
        return None if state.castle_choice is None else {
            "at": state.castle_choice[0], "castle_choice_by": state.castles.get(
                state.castle_choice[0])}
    return {
        "at": battle.at, "attacker": battle.attacker, "defender": battle.defender,
        "siege": battle.siege, "stage": battle.stage,
        "impact": {side: battle.impact(side) for side in SIDES},
        "initiative": initiative(battle) if battle.stage == "deploy" else None,
        "done": sorted(battle.done),
        "deployed": [{**_face(ctx, d.block), "block": d.block, "owner": d.owner,
                      "side": d.side, "card": d.card, "impact": d.impact, "group": d.group}
                     for d in battle.deployments],
        "cards_played": {side: list(cards) for side, cards in battle.played.items()},
        "challenge": None if battle.challenge is None else {"by": battle.challenge[0]},
        "winner": battle.winner, "losses_due": dict(battle.losses),
        "retreat": _retreat(ctx, state) if battle.stage == "retreat" else None,
    }


def _retreat(ctx: Context, state: SekigaharaState) -> dict[str, Any]:
    places, room = retreat_places(ctx, state)
    return {"to": places, "castle_room": room}


def _movement_options(ctx: Context, state: SekigaharaState, side: str) -> dict[str, Any]:
    """What the active side may still do this movement phase, for the tablet (7.1-7.3, 9.3)."""
    mp = state.movement
    if mp.level is None:
        return {"levels": {level: cost for level, cost in LEVEL_CARDS.items()
                           if cost is None or cost <= state.hands[side].count}}
    groups = []
    left = allowance_left(mp)
    if mp.level != "none" and (left is None or left > 0):
        for loc in ctx.kit.locations:
            blocks = movable_blocks(ctx, state, side, loc.id)
            if blocks:
                groups.append({**reach(ctx, state, side, loc.id, blocks).to_json(ctx),
                               "one_block": sorted(reach(ctx, state, side, loc.id,
                                                         blocks[:1]).paths)})
    box = state.blocks_at(ctx.recruitment_box[side])
    recruit = None
    if not mp.recruited and mp.level != "none" and (left is None or left > 0) and box:
        clans = sorted({ctx.kit.block[b].clan for b in box})
        recruit = {"one_block_to": recruitment_locations(ctx, side),
                   "whole_clan_to": {c: sorted(ctx.recruits_at.get(c, ())) for c in clans}}
    options: dict[str, Any] = {"groups": groups, "recruit": recruit}
    if side == "ishida":
        options["mori_waiting"] = len(mori_order(ctx, state))
    return options
