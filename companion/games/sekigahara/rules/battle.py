"""8.2-8.6 Battle: deploying blocks with cards, impact, special attacks, initiative, loyalty.

    ishida deploy {"block": "I-mori-cav-1", "card": "I-mori-special-2"}
    ishida deploy {"block": "I-ukita-2-1", "card": "I-ukita-double-1", "also": "I-ukita-2-2"}
    tokugawa challenge {"card": "T-loyalty-1"}      (right after an Ishida deployment, 8.6)
    ishida prove {"card": "I-mori-plain-4"}         (or: ishida defect {})
    ishida done {}                                   (no more deployments, 8.5)
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.kit import Block, Card
from companion.games.sekigahara.rules.cards import card_list, check_in_hand, discard
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.locations import blocks_of
from companion.games.sekigahara.rules.names import (
    block_name,
    card_name,
    clan_name,
    side_name,
    side_said,
)
from companion.games.sekigahara.rules.offers import refusal
from companion.games.sekigahara.rules.state import Battle, Deployment, SekigaharaState

__all__ = [
    "SPECIAL_BONUS", "can_deploy_with", "challenged_group", "decide_challenge", "decide_defect",
    "decide_deploy", "decide_done", "decide_prove", "deployment_impacts", "initiative",
    "open_to_challenge", "undeployed",
]

SPECIAL_BONUS = 2  # 8.4.1


def initiative(battle: Battle) -> str | None:
    """8.5: the side that would lose deploys; a side that is done never again; None: over.

    In a siege the attacker alone deploys (8.9.4).
    """
    live = [s for s in (battle.attacker, battle.defender) if s not in battle.done]
    if battle.siege:
        return battle.attacker if battle.attacker in live else None
    if len(live) < 2:
        return live[0] if live else None
    behind = battle.impact(battle.attacker) <= battle.impact(battle.defender)  # ties: defender
    return battle.attacker if behind else battle.defender


def can_deploy_with(block: Block, card: Card) -> bool:
    """8.2.2: a card of the block's mon; any card but loyalty for Ishida and Ii (9.4, 9.5)."""
    if card.kind == "loyalty" or card.side != block.side:
        return False
    return block.any_card or card.clan == block.clan


def undeployed(ctx: Context, state: SekigaharaState, side: str) -> list[str]:
    battle = state.battle
    assert battle is not None
    deployed = battle.deployed()
    return [b for b in blocks_of(ctx, state, battle.at, side) if b not in deployed]


def _battle(state: SekigaharaState, rule: str) -> Battle:
    if state.battle is None or state.battle.stage != "deploy":
        raise IllegalAction(rule, "no battle is being fought")
    return state.battle


def decide_deploy(ctx: Context, batch: Batch, action: Action) -> None:
    side = action.role
    battle = _battle(batch.state, "8.2.3")
    _check_turn(battle, side)
    block = _own_block(ctx, batch.state, side, action.args.get("block"))
    card_id = action.args.get("card")
    also = action.args.get("also")
    if card_id is None:
        _check_leader_without_card(ctx, battle, side, block)
        if also is not None:
            raise IllegalAction("8.4.2", "only a double card deploys a second block")
        _deploy(ctx, batch, side, [block], None)
        return
    card = _own_card(ctx, batch.state, side, card_id)
    if not can_deploy_with(block, card):
        names = {"card": card_name(ctx.kit, card.id), "block": block_name(ctx.kit, block.id),
                 "clan": clan_name(block.clan)}
        raise IllegalAction("8.2.2", Sentence(
            "the {card} cannot deploy {block}: the card must show the {clan} mon (loyalty cards "
            "deploy nothing)", **names) if card.kind == "loyalty" else Sentence(
            "the {card} cannot deploy {block}: the card must show the {clan} mon", **names))
    blocks = [block]
    if also is not None:
        blocks.append(_second_block(ctx, batch.state, side, block, card, also))
    discard(batch, side, [card.id], "battle", "8.2.3")
    _deploy(ctx, batch, side, blocks, card)


def _check_turn(battle: Battle, side: str) -> None:
    if battle.challenge is not None:
        raise IllegalAction("8.6.1", "a loyalty challenge must be answered first")
    holder = initiative(battle)
    if side != holder:
        if side in battle.done:
            raise IllegalAction("8.5", Sentence(
                "{side} declared it is done deploying in this battle", side=side_name(side)))
        raise IllegalAction("8.5", Sentence(
            "{side} has the initiative: the side behind deploys until it leads (the defender "
            "leads on a tie)", side=side_said(holder)))


def _own_block(ctx: Context, state: SekigaharaState, side: str, block_id: object) -> Block:
    battle = state.battle
    assert battle is not None
    block = ctx.kit.block.get(str(block_id))
    if block is None or block.side != side:  # an enemy block is never placed for its foe
        raise IllegalAction("8.2.3", Sentence("{side} has no such block in the battle at {place}",
                                              side=side_name(side), place=ctx.name(battle.at)))
    if state.positions.get(block.id) != battle.at:
        raise IllegalAction("8.2.3", Sentence("{block} is not in the battle at {place}",
                                              block=block_name(ctx.kit, block.id),
                                              place=ctx.name(battle.at)))
    if block.id in battle.deployed():
        raise IllegalAction("8.2.2", Sentence("{block} is already deployed in this battle",
                                              block=block_name(ctx.kit, block.id)))
    if battle.siege and block.id in battle.inside:
        raise IllegalAction("8.9.4", "the besieged side deploys nothing in a siege")
    return block


def _own_card(ctx: Context, state: SekigaharaState, side: str, card_id: object) -> Card:
    battle = state.battle
    assert battle is not None
    card = ctx.kit.card.get(str(card_id))
    if card is not None and card.id in battle.played.get(side, ()):
        raise IllegalAction("8.2.2", Sentence("the {card} was already played in this battle",
                                              card=card_name(ctx.kit, card.id)))
    check_in_hand(ctx, state, side, [str(card_id)], "8.2.3")
    assert card is not None
    return card


def _check_leader_without_card(ctx: Context, battle: Battle, side: str, block: Block) -> None:
    """8.2.4: leaders deploy without a card until the side's first card deployment."""
    if block.leader is None:
        raise IllegalAction("8.2.2", Sentence("{block} needs a card of the {clan} mon",
                                              block=block_name(ctx.kit, block.id),
                                              clan=clan_name(block.clan)))
    if any(d.card is not None for d in battle.deployments if d.owner == side):
        raise IllegalAction("8.2.4", "leaders deploy without a card only before the side's "
                            "first deployment with a card")


def _second_block(ctx: Context, state: SekigaharaState, side: str, first: Block, card: Card,
                  also: object) -> Block:
    """8.4.2: a double card deploys a second block of its mon, never with Ishida or Ii."""
    if card.kind != "double":
        raise IllegalAction("8.4.2", "only a double card deploys a second block")
    if first.any_card and first.clan != card.clan:
        raise IllegalAction("8.4.2", Sentence("a double card used on {block} deploys only that "
                                              "block", block=block_name(ctx.kit, first.id)))
    second = _own_block(ctx, state, side, also)
    if second.id == first.id or second.clan != card.clan:
        raise IllegalAction("8.4.2", Sentence("the second block must be another {clan} block",
                                              clan=clan_name(card.clan)))
    return second


def _deploy(ctx: Context, batch: Batch, side: str, blocks: list[Block], card: Card | None) -> None:
    battle = batch.state.battle
    assert battle is not None
    group = 1 + max((d.group for d in battle.deployments), default=0)
    for block, (base, special) in zip(blocks, deployment_impacts(ctx, battle, side, blocks, card),
                                      strict=True):
        batch.emit("BlockDeployed", side=side, block=block.id, card=card.id if card else None,
                   impact=base + special, special=special, group=group,
                   face={"clan": block.clan, "strength": block.strength,
                         "attack": block.attack}, rule="8.2.3")


def deployment_impacts(ctx: Context, battle: Battle, side: str, blocks: Sequence[Block],
                       card: Card | None) -> list[tuple[int, int]]:
    """Each block's (impact, special attack) as one deployment lays them in turn: the second
    block of a double card counts the first as already deployed (8.3, 8.4.2). The deployment
    and the words that say its impact both count it here."""
    laid: list[Block] = []
    impacts = []
    for block in blocks:
        impacts.append(impact_of(ctx, battle, side, block, card, double=len(blocks) > 1,
                                 laid=laid))
        laid.append(block)
    return impacts


def impact_of(ctx: Context, battle: Battle, side: str, block: Block, card: Card | None, *,
              double: bool, laid: Sequence[Block] = ()) -> tuple[int, int]:
    """8.3: mon + 1 per same-daimyo block already deployed on the side (in the battle, or
    `laid` earlier in this deployment); 8.4.1: a sword card on a cavalry/arquebus block adds
    2 + 2 per same-type block already deployed (not in sieges, 8.9.5, nor with double cards,
    8.4.2)."""
    mine = [*(ctx.kit.block[d.block] for d in battle.deployments if d.side == side), *laid]
    base = block.strength + sum(1 for b in mine if b.clan == block.clan)
    special = 0
    if card is not None and card.kind == "special" and block.attack and not battle.siege \
            and not double:
        special = SPECIAL_BONUS * (1 + sum(1 for b in mine if b.attack == block.attack))
    return base, special


def decide_done(ctx: Context, batch: Batch, action: Action) -> None:
    """8.5: the side with the initiative declares it will deploy no more."""
    battle = _battle(batch.state, "8.5")
    _check_turn(battle, action.role)
    batch.emit("DeployingEnded", side=action.role, rule="8.5")


def decide_challenge(ctx: Context, batch: Batch, action: Action) -> None:
    """8.6.1: a loyalty card, played right after an opponent's deployment."""
    side = action.role
    battle = _battle(batch.state, "8.6.1")
    if battle.siege:
        raise IllegalAction("8.9.5", "no loyalty challenges in a siege")
    group = open_to_challenge(battle)
    if not group or group[0].side == side:
        raise IllegalAction("8.6.1", "a loyalty challenge follows right after an opponent's "
                            "deployment")
    if group[0].immune:
        raise IllegalAction("8.2.4", "a leader deployed without a card cannot be challenged")
    cards = card_list(action.args.get("card"), "8.6.1")
    card = ctx.kit.card.get(cards[0]) if len(cards) == 1 else None
    if card is None or card.kind != "loyalty":
        raise IllegalAction("8.6.1", "a loyalty challenge is played with one loyalty card")
    check_in_hand(ctx, batch.state, side, cards, "8.6.1")
    discard(batch, side, cards, "loyalty challenge", "8.6.1")
    batch.emit("LoyaltyChallenged", by=side, card=card.id, group=group[0].group,
               blocks=[d.block for d in group], rule="8.6.1")


def open_to_challenge(battle: Battle) -> list[Deployment]:
    """8.6.1: the deployment a loyalty card may challenge now, the one just made (empty once
    the moment has passed)."""
    return [d for d in battle.deployments if d.group == battle.challenge_open]


def challenged_group(battle: Battle) -> list[Deployment]:
    """8.6.1: the deployment whose loyalty is being answered for, the last one made."""
    last = max(d.group for d in battle.deployments)
    return [d for d in battle.deployments if d.group == last]


def decide_prove(ctx: Context, batch: Batch, action: Action) -> None:
    """8.6.1, 8.6.3: show another card able to deploy the block; it goes back to the hand."""
    battle, group = _answering(batch.state, action.role)
    cards = card_list(action.args.get("card"), "8.6.1")
    card = ctx.kit.card.get(cards[0]) if len(cards) == 1 else None
    block = ctx.kit.block[group[0].block]
    if card is None or not can_deploy_with(block, card) or card.id in battle.played[action.role]:
        raise IllegalAction("8.6.1", Sentence("show one card from the hand able to deploy "
                                              "{block}", block=block_name(ctx.kit, block.id)))
    check_in_hand(ctx, batch.state, action.role, cards, "8.6.1")
    batch.emit("LoyaltyProven", side=action.role, card=card.id, group=group[0].group,
               rule="8.6.1")


def decide_defect(ctx: Context, batch: Batch, action: Action) -> None:
    """8.6.1-8.6.3: no card to show: the block(s) change sides for this battle."""
    battle, group = _answering(batch.state, action.role)
    hand = batch.state.hands[action.role]
    if hand.cards is not None:  # full knowledge: a card that proves loyalty must be shown
        block = ctx.kit.block[group[0].block]
        proof = [c for c in sorted(hand.cards)
                 if can_deploy_with(block, ctx.kit.card[c]) and c not in battle.played[action.role]]
        if proof:
            raise refusal("8.6.1", "a card in the hand can deploy this block, so it proves "
                          "its loyalty and must be shown",
                          [(Sentence("prove with {card}", card=c),
                            Action(action.role, "prove", {"card": c}))
                           for c in proof])
    challenger = other(action.role)
    batch.emit("BlocksDefected", blocks=[d.block for d in group], group=group[0].group,
               to=challenger, impact=sum(d.impact - d.special for d in group), rule="8.6.1")


def _answering(state: SekigaharaState, side: str) -> tuple[Battle, list[Deployment]]:
    battle = state.battle
    if battle is None or battle.challenge is None:
        raise IllegalAction("8.6.1", "no loyalty challenge is waiting for an answer")
    group = challenged_group(battle)
    if group[0].side != side:
        raise IllegalAction("8.6.1", Sentence("the challenge is answered by {side}",
                                              side=side_name(group[0].side)))
    return battle, group
