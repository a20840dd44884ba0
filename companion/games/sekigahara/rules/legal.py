"""Candidate actions for the tablet's buttons and the random-play simulator.

Where the rules leave a combinatorial choice (which cards to discard, how to split a stack over
several roads) this lists a representative sample: every level, every bid, every stack moving
whole or one block alone to each place it can reach, every way of recruiting. `decide` is
always the judge; the caller keeps only the candidates it accepts.
"""

from __future__ import annotations

from itertools import combinations, islice

from companion.engine.core import Action
from companion.games.sekigahara.kit import SIDES
from companion.games.sekigahara.rules.aftermath import casualties_due, loss_order, retreat_places
from companion.games.sekigahara.rules.battle import can_deploy_with, undeployed
from companion.games.sekigahara.rules.combat import battles_due
from companion.games.sekigahara.rules.context import Context
from companion.games.sekigahara.rules.mori import mori_order
from companion.games.sekigahara.rules.movement import LEVEL_CARDS, movable_blocks, reach
from companion.games.sekigahara.rules.recruitment import recruitment_locations
from companion.games.sekigahara.rules.state import SekigaharaState

__all__ = ["candidates", "possible_cards"]

SAMPLE = 8


def possible_cards(ctx: Context, state: SekigaharaState, side: str) -> list[str]:
    """The cards `side` may hold: its hand (full mode), or every card not on the discards."""
    hand = state.hands[side]
    if hand.cards is not None:
        return sorted(hand.cards)
    return sorted(ctx.deck[side] - hand.discard)


def _card_sets(cards: list[str], n: int) -> list[list[str]]:
    return [list(c) for c in islice(combinations(cards, n), SAMPLE)]


def candidates(ctx: Context, state: SekigaharaState, side: str) -> list[Action]:
    cards = possible_cards(ctx, state, side)
    if state.phase == "reinforcements":
        owed = state.owed_discards.get(side, 0)
        return [Action(side, "discard", {"cards": c}) for c in _card_sets(cards, owed)]
    if state.phase == "bid":
        return [Action(side, "bid", {"card": c}) for c in cards]
    if state.phase == "first_player":
        return [Action(side, "choose_first", {"first": s}) for s in SIDES]
    if state.phase == "movement":
        return _movement(ctx, state, side, cards)
    if state.phase == "combat":
        return _combat(ctx, state, side, cards)
    return []


def _combat(ctx: Context, state: SekigaharaState, side: str, cards: list[str]) -> list[Action]:
    battle = state.battle
    if state.castle_choice is not None:
        return [Action(side, "castle", {"inside": inside}) for inside in (True, False)]
    if battle is None:
        return [Action(side, "declare", {"at": at}) for at in battles_due(ctx, state)]
    if battle.stage == "retreat":
        places, room = retreat_places(ctx, state)
        survivors = state.blocks_at(battle.at, side, ctx.owner)
        return [Action(side, "retreat", {"to": to, "castle": survivors[:k]})
                for to in places for k in range(min(room, len(survivors)) + 1)]
    if battle.stage == "casualties":
        return _casualty_choices(ctx, state, side)
    if battle.challenge is not None:
        return ([Action(side, "prove", {"card": c}) for c in cards]
                + [Action(side, "defect")])
    found = [Action(side, "done")]
    found += [Action(side, "challenge", {"card": c}) for c in cards
              if ctx.kit.card[c].kind == "loyalty"]
    for block in undeployed(ctx, state, side):
        face = ctx.kit.block[block]
        if face.leader:
            found.append(Action(side, "deploy", {"block": block}))
        for card in cards:
            if can_deploy_with(face, ctx.kit.card[card]):
                found.append(Action(side, "deploy", {"block": block, "card": card}))
                if ctx.kit.card[card].kind == "double":
                    found += [Action(side, "deploy", {"block": block, "card": card,
                                                      "also": other_block})
                              for other_block in undeployed(ctx, state, side)
                              if other_block > block  # one order: impact sums the same
                              and ctx.kit.block[other_block].clan == face.clan][:1]
    return found


def _casualty_choices(ctx: Context, state: SekigaharaState, side: str) -> list[Action]:
    due = casualties_due(ctx, state)
    if due is None:
        return []
    units = [u for tier in loss_order(ctx, state, side) for u in tier]
    return [Action(side, "casualties", {"blocks": list(c)})
            for c in islice(combinations(units, due[1]), SAMPLE)]


def _movement(ctx: Context, state: SekigaharaState, side: str,
              cards: list[str]) -> list[Action]:
    mp = state.movement
    if mp.level is None:
        return [Action(side, "movement_level", {"level": level, "cards": chosen})
                for level, cost in LEVEL_CARDS.items()
                for chosen in _card_sets(cards, cost or 0)]
    found = [Action(side, "end_movement")]
    if mp.level == "none":
        return found
    found += _moves(ctx, state, side)
    found += _recruits(ctx, state, side)
    if side == "ishida" and mori_order(ctx, state):
        found += [Action(side, "mori", {"cards": [c]}) for c in cards[:2]]
    return found


def _moves(ctx: Context, state: SekigaharaState, side: str) -> list[Action]:
    found = []
    for loc in ctx.kit.locations:
        blocks = movable_blocks(ctx, state, side, loc.id)
        for group in ([blocks, blocks[:1]] if len(blocks) > 1 else [blocks]) if blocks else []:
            option = reach(ctx, state, side, loc.id, group)
            leader = next((b for b in group if ctx.kit.block[b].leader), None) \
                if option.command == "leader" else None
            for path in option.paths.values():
                args = {"from": loc.id, "paths": {b: list(path) for b in group}}
                if leader:
                    args["leader"] = leader
                found.append(Action(side, "move", args))
    return found


def _recruits(ctx: Context, state: SekigaharaState, side: str) -> list[Action]:
    box = state.blocks_at(ctx.recruitment_box[side])
    found = [Action(side, "recruit", {"blocks": [b], "to": to})
             for b in box[:3] for to in recruitment_locations(ctx, side)]
    by_clan: dict[str, list[str]] = {}
    for b in box:
        by_clan.setdefault(ctx.kit.block[b].clan, []).append(b)
    for clan, blocks in by_clan.items():
        if len(blocks) > 1:
            found += [Action(side, "recruit", {"blocks": blocks, "to": to})
                      for to in sorted(ctx.recruits_at.get(clan, ()))]
    return found
