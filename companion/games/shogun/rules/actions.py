"""Carrying out the actions (rules 3.6 and 4.1-4.4), and what a battle's or a revolt's tray
means (6.2).

Each action card is carried out by every player in turn order. A player whose planned card is
a war-chest card does nothing; a player who can do the action only in part (not enough chests,
armies or building spaces, or the province is no longer theirs) skips it entirely (3.6).
"""

from __future__ import annotations

from typing import Any

from companion.engine.core import Action, IllegalAction, Sentence, refuse_unknown_args
from companion.games.shogun.rules.context import (
    Batch,
    chest_value,
    effect,
    holder,
    limited,
    province_said,
)
from companion.games.shogun.rules.state import FARMERS, ShogunState
from companion.games.shogun.rules.tower import declare_battle, throw_battle, throw_revolt

__all__ = ["BUILDINGS", "DEPLOY", "armies_sent", "decide_attack", "decide_defend",
           "decide_deploy", "decide_move", "decide_stay", "extra_possible", "fights_for",
           "out_of_play", "pass_turn", "resolve", "start_action", "targets"]

SPECIAL_WORDS = {"attack": Sentence("+1 army attacking"),
                 "defence": Sentence("+1 army defending")}
"""3.2: the two special cards that add an army to a battle, as players name them."""
BUILDINGS = {"castle": 3, "temple": 2, "theatre": 1}
"""4.1: what each building costs, in chests."""
DEPLOY = {"deploy_5": (5, 3), "deploy_3": (3, 2), "deploy_1": (1, 1)}
"""4.3: armies deployed and chests paid."""


def pass_turn(b: Batch) -> None:
    """3.6: the next player in turn order; after the last, the next action."""
    turn, step = b.state.turn + 1, b.state.step
    if turn >= len(b.state.order):
        turn, step = 0, step + 1
    b.emit("TurnPassed", step=step, turn=turn)


def _skip(b: Batch, player: str, action: str, reason: str) -> None:
    b.emit("ActionSkipped", player=player, action=action, reason=reason)


def start_action(b: Batch, player: str, action: str) -> None:
    """3.6: the player's card on this action's space turned up, and the action carried out
    (or a choice awaited: where to move, what to attack)."""
    card = b.state.plans.get(player, {}).get(action)
    if card is None:
        _skip(b, player, action, "empty")
        return
    b.emit("PlanRevealed", player=player, action=action, card=card)
    if chest_value(card) is not None:
        _skip(b, player, action, "chest")
        return
    if b.state.owner.get(card) != player:
        _skip(b, player, action, "lost")
        return
    if action in BUILDINGS:
        _build(b, player, action, card)
        return
    if action in ("rice", "taxes"):
        _collect(b, player, action, card)
        return
    if action in DEPLOY:
        _deploy(b, player, action, card)
        return
    _battle(b, player, action, card)
    return


def _build(b: Batch, player: str, kind: str, province: str) -> None:
    """4.1: on a free building space, at most one of each kind per province."""
    state = b.state
    cost = max(0, BUILDINGS[kind] + effect(b.kit, state, "cost", kind))
    here = state.buildings.get(province, ())
    stock = getattr(b.kit.components.buildings, kind) - state.built.get(kind, 0)
    if kind in here or len(here) >= b.provinces[province].spaces:
        _skip(b, player, kind, "no_space")
        return
    if state.chests[player] < cost or stock <= 0:
        _skip(b, player, kind, "chests" if stock > 0 else "stock")
        return
    b.emit("BuildingBuilt", player=player, province=province, building=kind, cost=cost)


def _amount(b: Batch, player: str, action: str, province: str) -> int:
    """4.2: the province card's rice or taxes within the event's bounds, the event's change,
    then the special card's +1 (3.2 grants it without exception)."""
    card = b.kit.card[province]
    base = limited(b.kit, b.state, action, card.rice if action == "rice" else card.taxes)
    bonus = holder(b.state, "rice" if action == "rice" else "chest") == player
    return max(0, base + effect(b.kit, b.state, "yield", action)) + bonus


def _collect(b: Batch, player: str, action: str, province: str) -> None:
    """4.2: a revolt if the province already has a revolt marker (unless the round's event
    has temples guard against revolts and one stands there); else the income and a
    marker."""
    guarded = effect(b.kit, b.state, "temple_guard") and \
        "temple" in b.state.buildings.get(province, ())
    if b.state.markers.get(province, 0) and not guarded:
        throw_revolt(b, player, province, effect(b.kit, b.state, "revolt_farmers"),
                     {"then": "income", "action": action})
        return
    income(b, player, action, province)


def income(b: Batch, player: str, action: str, province: str) -> None:
    """4.2: rice up the supply track, or chests from the general supply; a revolt marker."""
    amount = _amount(b, player, action, province)
    if action == "rice":
        b.emit("RiceCollected", player=player, province=province, rice=amount)
    else:
        b.emit("ChestsChanged", player=player, chests=amount, why="taxes", province=province)
    b.emit("RevoltMarkerPlaced", province=province)


def _deploy(b: Batch, player: str, action: str, province: str) -> None:
    """4.3: armies from the individual supply; deploy 1 may then move (no battle). 3.2: the
    holder of the 6 armies card "may" deploy one more with deploy 5: a choice, asked when
    the supply holds the extra army."""
    armies, cost = DEPLOY[action]
    armies = max(0, armies + effect(b.kit, b.state, "armies", action))
    reserve = b.state.reserve[player]
    if reserve < armies or b.state.chests[player] < cost or not armies:
        _skip(b, player, action, "armies" if reserve < armies else "chests")
        return
    if action == "deploy_5" and holder(b.state, "six_armies") == player and reserve > armies:
        b.emit("ChoiceAwaited", choice="deploy", player=player, province=province,
               action=action, armies=[armies + 1, armies])
        return
    _deployed(b, player, action, province, armies)


def _deployed(b: Batch, player: str, action: str, province: str, armies: int) -> None:
    """4.3: the armies go in and the chests are paid; after deploy 1, the move awaits."""
    b.emit("ArmiesDeployed", player=player, province=province, armies=armies,
           cost=DEPLOY[action][1])
    if action == "deploy_1" and b.state.armies.get(province, 0) > 1 and \
            targets(b, player, province, own_only=True):
        b.emit("ChoiceAwaited", choice="move", player=player, province=province, action=action)


def targets(b: Batch, player: str, province: str, own_only: bool = False) -> list[str]:
    """Where armies may go from `province`: adjacent provinces in play (by sea too), only the
    player's own for a move without battle."""
    return [p for p in b.neighbours(province)
            if not own_only or b.state.owner.get(p) == player]


def _battle(b: Batch, player: str, action: str, province: str) -> None:
    """4.4: armies move to an adjacent province, at least one staying behind."""
    if b.state.armies.get(province, 0) < 2 or not targets(b, player, province):
        _skip(b, player, action, "armies")
        return
    b.emit("ChoiceAwaited", choice="attack", player=player, province=province, action=action)


def out_of_play(b: Batch, province: object) -> bool:
    """2: with 3 players, a marked province of the side played (no army may enter it)."""
    found = b.kit.provinces(b.state.side).get(str(province))
    return found is not None and str(province) not in b.provinces


def armies_sent(b: Batch, action: Action, own_only: bool) -> tuple[str, str, int]:
    """(from, to, how many) of a move or an attack (4.3, 4.4): from the province whose action
    is under way, to an adjacent one in play (the player's own for a move), at least one army
    staying behind; IllegalAction otherwise. The order and its words both read it here."""
    pending = b.state.pending
    assert pending is not None
    origin = str(pending["province"])
    to, armies = action.args.get("to"), action.args.get("armies")
    rule = "4.3" if own_only else "4.4"
    if out_of_play(b, to):
        raise IllegalAction("2", Sentence("{to} is not in play with 3 players: no army may "
                                          "enter it", to=province_said(b.kit, b.state, to)))
    if to not in targets(b, action.role, origin, own_only):
        raise IllegalAction(rule, Sentence("{to} is not an adjacent province you may move to",
                                           to=province_said(b.kit, b.state, to)))
    most = b.state.armies.get(origin, 0) - 1
    if not isinstance(armies, int) or isinstance(armies, bool) or not 1 <= armies <= most:
        raise IllegalAction(rule, Sentence("move 1 to {most} armies: at least one stays "
                                           "behind", most=most))
    return origin, str(to), armies


def _waiting_for(b: Batch, action: Action, kind: str) -> None:
    pending = b.state.pending
    if pending is None or pending.get("kind") != kind or pending.get("player") != action.role:
        raise IllegalAction("3.6", "that is not the choice awaited now")


def fights_for(state: ShogunState, player: str, to: str) -> bool:
    """4.4: armies sent into a province the player does not own fight a battle for it; into
    his own they only move."""
    return state.owner.get(to) != player


def decide_move(b: Batch, action: Action) -> None:
    """4.3: after deploying 1, armies may move to an adjacent own province (no battle)."""
    refuse_unknown_args(action.args, ("to", "armies"), "4.3", "move")
    _waiting_for(b, action, "move")
    origin, to, armies = armies_sent(b, action, own_only=True)
    b.emit("ArmiesMoved", player=action.role, **{"from": origin}, to=to, armies=armies)
    pass_turn(b)


def decide_stay(b: Batch, action: Action) -> None:
    """4.3: the move after deploying 1 is optional."""
    refuse_unknown_args(action.args, (), "4.3", "stay")
    _waiting_for(b, action, "move")
    b.emit("ArmiesStayed", player=action.role)
    pass_turn(b)


def decide_deploy(b: Batch, action: Action) -> None:
    """3.2: the holder of the 6 armies card deploys 6 with deploy 5, or 5 (it "may")."""
    refuse_unknown_args(action.args, ("armies",), "3.2", "deploy")
    _waiting_for(b, action, "deploy")
    pending = b.state.pending
    assert pending is not None
    allowed = [int(n) for n in pending["armies"]]
    armies = action.args.get("armies")
    if isinstance(armies, bool) or armies not in allowed:
        raise IllegalAction("3.2", Sentence(
            "with the 6 armies card, deploy {most} or {fewest} armies", most=max(allowed),
            fewest=min(allowed)))
    _deployed(b, action.role, str(pending["action"]), str(pending["province"]), int(armies))
    pass_turn(b)


def extra_possible(b: Batch, player: str, card: str, to: object = None) -> bool:
    """3.2: whether `player` may add an army with the +1 attack or +1 defence card: holding
    it, with an army in the individual supply (never into an own province: no battle)."""
    return holder(b.state, card) == player and b.state.reserve[player] > 0 and \
        b.state.owner.get(str(to)) != player


def _extra(b: Batch, action: Action, card: str, to: object = None) -> bool:
    """3.2: the +1 card's extra army, as the player chose (`extra`, true or false); by
    default it goes in whenever it may (what the tablet pre-selects)."""
    possible = extra_possible(b, action.role, card, to)
    value = action.args.get("extra")
    if value is None:
        return possible
    if not isinstance(value, bool):
        raise IllegalAction("3.2", Sentence("say yes or no to the extra army"))
    if value and holder(b.state, card) != action.role:
        raise IllegalAction("3.2", Sentence("only the holder of the {card} card adds an army",
                                            card=SPECIAL_WORDS[card]))
    if value and not possible:
        raise IllegalAction("3.2", Sentence(
            "no army is added: none is left in your supply, or the move is into your own "
            "province (no battle)"))
    return value


def decide_attack(b: Batch, action: Action) -> None:
    """4.4: a move to an own province, or a battle for a neutral or another player's one
    (3.6: a player who can carry out the action must). 3.2: the holder of the +1 attack card
    may add an army (`extra`); a defender holding the +1 defence card is asked next."""
    refuse_unknown_args(action.args, ("to", "armies", "extra"), "4.4", "attack")
    _waiting_for(b, action, "attack")
    origin, to, armies = armies_sent(b, action, own_only=False)
    extra = _extra(b, action, "attack", to)
    if not fights_for(b.state, action.role, to):
        b.emit("ArmiesMoved", player=action.role, **{"from": origin}, to=to, armies=armies)
        pass_turn(b)
        return
    defender = b.state.owner.get(to)
    if defender is not None and extra_possible(b, defender, "defence"):
        declare_battle(b, action.role, origin, to, armies, extra)
        return
    throw_battle(b, action.role, origin, to, armies, {action.role: extra})


def decide_defend(b: Batch, action: Action) -> None:
    """3.2: the defender holding the +1 defence card chooses whether to add an army."""
    refuse_unknown_args(action.args, ("extra",), "3.2", "defend")
    _waiting_for(b, action, "defence")
    pending = b.state.pending
    assert pending is not None
    extra = _extra(b, action, "defence")
    attacker = str(pending["attacker"])
    throw_battle(b, attacker, str(pending["origin"]), str(pending["province"]),
                 int(pending["armies"]), {attacker: bool(pending["extra"]),
                                          action.role: extra})


def resolve(b: Batch) -> None:
    """6.2: what the tray means, then the game goes on (the next turn, the income of a revolt
    put down, the next winter revolt)."""
    pending = b.state.pending
    assert pending is not None
    kind = pending["kind"]
    if kind == "load":  # 2.3: what falls out goes back to the supplies
        b.emit("CubesReturned", returned=dict(b.state.tray), province=None)
        return
    if kind == "battle":
        _battle_result(b, pending)
        pass_turn(b)
        return
    won = _revolt_result(b, pending)
    if pending.get("then") == "income":
        if won:
            income(b, pending["player"], pending["action"], pending["province"])
        pass_turn(b)


def _battle_result(b: Batch, pending: Any) -> None:
    """6.2, player against player or a neutral province: the farmers count for the defender
    when the province has no revolt marker (and then all go back); the loser's armies go back,
    the winner loses as many (farmers first), the rest hold the province; a tie empties it."""
    tray = b.state.tray
    attacker, defender, province = pending["attacker"], pending["defender"], pending["province"]
    a = tray.get(attacker, 0)
    own = tray.get(defender, 0) if defender else 0
    farmers = tray.get(FARMERS, 0) if pending["farmers_count"] else 0
    d = own + farmers
    returned = {FARMERS: farmers} if farmers else {}
    if a > d:
        returned.update({attacker: d, **({defender: own} if own else {})})
        b.emit("CubesReturned", returned=_clean(returned), province=province,
               placed={"player": attacker, "armies": a - d}, winner=attacker)
        b.emit("ProvinceTaken", province=province, player=attacker, loser=defender)
    elif d > a:
        own_loss = max(0, a - farmers)
        returned.update({attacker: a, **({defender: own_loss} if defender else {})})
        placed = {"player": defender, "armies": own - own_loss} if own - own_loss else None
        b.emit("CubesReturned", returned=_clean(returned), province=province, placed=placed,
               winner=defender or FARMERS)
    else:
        returned.update({attacker: a, **({defender: own} if own else {})})
        b.emit("CubesReturned", returned=_clean(returned), province=province, winner=None)
        b.emit("ProvinceCleared", province=province, loser=defender)


def _revolt_result(b: Batch, pending: Any) -> bool:
    """6.2, a revolt: the player wins with more armies than farmers in the tray, losing as
    many armies as farmers; otherwise the province is emptied and its card goes back."""
    tray = b.state.tray
    player, province = pending["player"], pending["province"]
    own, farmers = tray.get(player, 0), tray.get(FARMERS, 0)
    if own > farmers:
        b.emit("CubesReturned", returned=_clean({player: farmers, FARMERS: farmers}),
               province=province, placed={"player": player, "armies": own - farmers},
               winner=player)
        return True
    b.emit("CubesReturned", returned=_clean({player: own, FARMERS: farmers}), province=province,
           winner=FARMERS)
    b.emit("ProvinceCleared", province=province, loser=player)
    return False


def _clean(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if v}
