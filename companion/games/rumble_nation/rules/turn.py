"""5.1 A deployment turn: roll (and perhaps reroll all three dice once), then deploy; or play a
tactic card (5.1.2) or the daimyo card (8.3). After the turn, a player with every unit placed
takes the highest katana left and sits out; once all have, the war begins (5.2).

    red roll {}        chance dice {"values": [3, 4, 5]}        red reroll {}
    red deploy {"pair": [0, 2]}               (3+5: the region whose castle is 8; 4: 2 soldiers)
    red deploy {"pair": [0, 2], "daimyo": true}      (the daimyo and 1 soldier: 8)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.context import Batch, deployable
from companion.games.rumble_nation.rules.moves import known_keys
from companion.games.rumble_nation.rules.state import RNState
from companion.games.rumble_nation.rules.war import war

__all__ = ["Deployment", "decide_deploy", "decide_reroll", "decide_roll", "deployment",
           "end_turn", "ending", "katana_values"]

RULE = "5.1.1"
PAIRS = ((0, 1), (0, 2), (1, 2))


def katana_values(kit: RumbleNationKit, players: int) -> tuple[int, ...]:
    """3 ④: without value 4 for 3 players, without 3 and 4 for 2."""
    return tuple(v for v in kit.components.katana if v <= max(2, players))


def decide_roll(batch: Batch, action: Action) -> None:
    known_keys(action.args, (), RULE, Sentence("rolling"))
    if batch.state.dice:
        raise IllegalAction(RULE, "the dice are rolled: deploy, or reroll all three once")
    batch.emit("RollAsked", player=action.role, rule=RULE)


def decide_reroll(batch: Batch, action: Action) -> None:
    """All three dice, once per turn, after the first roll (never only some of them)."""
    known_keys(action.args, (), RULE, Sentence("rerolling"))
    if not batch.state.dice:
        raise IllegalAction(RULE, "roll the dice first: a reroll repeats a roll")
    if batch.state.rerolled:
        raise IllegalAction(RULE, "you have rerolled once this turn: deploy now")
    batch.emit("RollAsked", player=action.role, again=True, rule=RULE)


def _pair(dice: tuple[int, ...], value: Any) -> tuple[int, int]:
    """The two dice paired, as the first pair of equal faces: with dice 3, 3, 5, pairing the
    second 3 with the 5 is pairing the first one (one choice, one record)."""
    if not isinstance(value, tuple) or len(value) != 2 or value[0] == value[1] or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i <= 2 for i in value):
        raise IllegalAction(RULE, Sentence(
            "choose two of the three dice for the pair"))
    faces = sorted((dice[value[0]], dice[value[1]]))
    return next((i, j) for i, j in PAIRS if sorted((dice[i], dice[j])) == faces)


@dataclass(frozen=True)
class Deployment:
    """Where one deployment goes and how much it puts down (5.1.1)."""

    region: str
    """The region whose castle shows the two paired dice's sum."""
    pair: tuple[int, int]
    """The paired dice, by their place among the three (the first pair of equal faces)."""
    die: int
    """The third die, which says how many units go."""
    units: int
    """How many units it deploys: fewer only when the reserve runs short (the daimyo
    counting as a soldier while in it, 8)."""


def deployment(state: RNState, player: str, pair: Any) -> Deployment:
    """The deployment the dice paired as `pair` make (5.1.1); IllegalAction if the dice are
    not rolled or the pair names no castle. The deployment and its words ("Deploy 2 soldiers
    to Kiyosu (3+5 and 4)") both read it here."""
    if not state.dice:
        raise IllegalAction(RULE, "roll the dice first")
    i, j = _pair(state.dice, pair)
    total, single = state.dice[i] + state.dice[j], state.dice[3 - i - j]
    where = next((r for r, v in state.castles.items() if v == total), None)
    if where is None:
        raise IllegalAction(RULE, Sentence("no castle of value {value} is on the map",
                                           value=total))
    return Deployment(where, (i, j), single, deployable(state, player, single))


def decide_deploy(batch: Batch, action: Action) -> None:
    """Two dice name the region by its castle's value, the third how many go (5.1.1); the
    daimyo may go in place of one soldier (8)."""
    state, player = batch.state, action.role
    known_keys(action.args, ("pair", "daimyo") if batch.daimyo else ("pair",), RULE,
               Sentence("deploy"))
    placed = deployment(state, player, action.args.get("pair"))
    daimyo = action.args.get("daimyo", False)
    if not isinstance(daimyo, bool):
        raise IllegalAction("8", Sentence(
            "say whether your daimyo is deployed too"))
    if daimyo and player not in state.daimyo_in_reserve:
        raise IllegalAction("8", "your daimyo is already on the map")
    units = placed.units
    if units - daimyo > state.reserve.get(player, 0):
        raise IllegalAction("8", Sentence(
            "the die deploys {units} and your reserve holds {count} soldier(s) besides your "
            "daimyo, who counts as a soldier: deploy him too (fewer only when the reserve runs "
            "short, 5.1.1)", units=units, count=state.reserve.get(player, 0)))
    batch.emit("SoldiersDeployed", player=player, region=placed.region, dice=list(state.dice),
               pair=list(placed.pair), soldiers=units - daimyo, daimyo=daimyo, rule=RULE)


def end_turn(batch: Batch) -> None:
    """A player with every unit placed takes the highest katana left and sits out; when all
    have, the war begins (5.1)."""
    state = batch.state
    player = state.players[state.turn]
    if state.placed_all(player) and player not in state.katana:
        left = [v for v in katana_values(batch.kit, len(state.players))
                if v not in state.katana.values()]
        batch.emit("KatanaTaken", player=player, value=max(left), rule="5.1")
    state = batch.state
    if all(p in state.katana for p in state.players):
        war(batch)
        return
    n = len(state.players)
    for step in range(1, n + 1):
        index = (state.turn + step) % n
        if state.players[index] not in state.katana:
            batch.emit("TurnBegan", turn=index, player=state.players[index], rule="5.1")
            return


Handler = Callable[[Batch, Action], None]


def ending(handler: Handler) -> Handler:
    """The handler of a verb that ends the player's turn (deploy, a tactic or daimyo card).
    What follows a turn (a katana, the war) never refuses anything, so a batch that only asks
    whether the action is accepted skips it: the last deployment's candidates do not each fight
    the whole war."""
    def decide(batch: Batch, action: Action) -> None:
        handler(batch, action)
        if not batch.checking:
            end_turn(batch)
    decide.__doc__ = handler.__doc__
    return decide
