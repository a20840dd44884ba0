"""A scripted game acted out at the table, and how much of it the referee reads back.

The simulated table (`companion demo`, issue 9) plays a random game physically: every scripted
action becomes what a player does at the table (cards scanned, blocks carried, a button
pressed), and the referee must recover the same action from those inputs alone. This module
is that translation at the level of zones (no pixels): `act_out` turns one action into table
inputs, `read_back` runs a whole script through a `SekigaharaReferee` and counts, verb by verb,
the actions recovered, asked about, missed and not observable at the table (hidden deals).
The frame-by-frame demo renders the same inputs through the synthetic camera.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.engine.core import (
    CHANCE,
    Action,
    Game,
    chance_rng,
    pick_action,
)
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.sekigahara.referee import DEPLOYMENT, SekigaharaReferee
from companion.games.sekigahara.rules import SekigaharaRules, SekigaharaState
from companion.games.sekigahara.rules.state import BAG
from companion.kits import load_kit
from companion.table.acting import Press, Scan, Seen, TableInput
from companion.table.readback import ReadBack, feed
from companion.table.registry import TableRegistry
from companion.vision.table import TableDiff

__all__ = ["HIDDEN", "ReadBack", "act_out", "feed", "read_back", "read_back_games", "shown"]

PRESSES = {"movement_level": "confirm", "end_movement": "next_phase", "discard": "confirm",
           "declare": "next_phase", "done": "confirm"}
"""Actions with no footprint on the board: the button a player presses for them."""
HIDDEN = {"deal"}
"""Chance actions nobody sees at the table: cards dealt face down (the hands are counted)."""




def shown(state: SekigaharaState, table: Mapping[str, str]) -> dict[str, str]:
    """Where each block stands on the table after `state`: out of the bag ones only, and
    blocks deployed in the running battle on the deployment area (8.2)."""
    battle = state.battle
    deployed = set(battle.deployed()) if battle is not None else set()
    at_battle = battle.at if battle is not None else None
    return {b: (DEPLOYMENT if b in deployed and at == at_battle
                and table.get(b) == DEPLOYMENT else at)
            for b, at in state.positions.items() if at != BAG}


def act_out(before: SekigaharaState, action: Action, after: SekigaharaState,
            table: dict[str, str], registry: TableRegistry) -> list[TableInput]:
    """What a player does at the table for `action`; `table` is updated to show `after`."""
    tag = registry.tags
    inputs: list[TableInput] = [Scan(f"CARD:{c}") for c in _cards(action)]
    if before.battle is not None and after.battle is None:
        back = {b: before.positions[b] for b, at in table.items() if at == DEPLOYMENT}
        inputs.append(Seen(_diff(table, {**table, **back}, tag)))  # the battle is over
        table.update(back)
    target = shown(after, table)
    if action.verb == "deploy":
        for block in (action.args["block"], action.args.get("also")):
            if block:
                target[block] = DEPLOYMENT
    diff = _diff(table, target, tag)
    table.clear()
    table.update(target)
    if diff:
        inputs.append(Seen(diff))
    if action.verb == "move" and action.args.get("leader"):
        inputs.insert(0, Press("leader"))  # declared to the opponent (7.3.4)
    if action.verb in PRESSES:  # after the cards, before what the rules then do on the table
        inputs.insert(len(_cards(action)), Press(PRESSES[action.verb]))
    return [i for i in inputs if not isinstance(i, Seen) or i.diff]


def _cards(action: Action) -> list[str]:
    """The cards a player scans for `action`, in the order scanned."""
    cards = list(action.args.get("cards", ()))
    if "card" in action.args:
        cards.append(action.args["card"])
    if action.verb == "move":
        cards += _march_cards(action)
    return [str(c) for c in cards]


def _march_cards(action: Action) -> list[str]:
    """A move's forced-march cards (7.3.3), scanned before the blocks move. Which card paid for
    which group cannot be seen at the table and changes nothing, so the player scans them in
    the order of their groups' destinations, the order the referee pairs them in."""
    single = action.args.get("forced_march")
    if single:
        return [str(single)]
    marches: Mapping[str, Any] = action.args.get("forced_marches") or {}
    paths = action.args["paths"]
    return sorted(marches, key=lambda card: paths[marches[card][0]][-1])


def _diff(before: Mapping[str, str], after: Mapping[str, str],
          tag: Mapping[str, int]) -> TableDiff:
    moved = {tag[b]: (before[b], at) for b, at in after.items()
             if b in before and before[b] != at}
    appeared = {tag[b]: at for b, at in after.items() if b not in before}
    gone = {tag[b]: at for b, at in before.items() if b not in after}
    return TableDiff(moved, appeared, gone)


def read_back(script: Iterable[Action], game: Game[Any], registry: TableRegistry) -> ReadBack:
    """Act `script` out from `game`'s position and count what the referee reads back.

    The scripted action is applied whatever the referee said (the referee is then told the
    table is in order again), so one miss does not hide the rest of the game."""
    rules = game.rules
    if not isinstance(rules, SekigaharaRules):
        raise TypeError(f"the table script is Sekigahara's, not {rules.game_type.name}'s")
    referee = SekigaharaReferee(rules, registry)
    table: dict[str, str] = shown(game.state, {})
    result = ReadBack()
    for action in script:
        before = game.state
        game.apply(action)
        inputs = act_out(before, action, game.state, table, registry)
        if action.verb in HIDDEN:
            result.hidden[action.verb] += 1
            continue
        rulings = feed(referee, before, inputs) or referee.decisions(before)
        result.count(action, rulings)
        referee.desync = None
        referee.forget_inputs()
    return result


def _random_game(rules: SekigaharaRules, seed: int) -> list[Action]:
    """A random full-knowledge game's actions (the simulator's script)."""
    game: Game[Any] = Game(rules, seed=seed)
    while game.outcome is None and len(game.history) < 10_000:
        step = len(game.history)
        roles = game.to_move()
        rng = chance_rng(seed, step if CHANCE in roles else -1 - step)
        picked = (rules.sample_chance(game.state, rng) if CHANCE in roles
                  else pick_action(game, roles, rng))
        assert picked is not None, f"dead end at step {step}"
        game.apply(picked)
    return [ply.action for ply in game.history]


def read_back_games(games: int, seed: int,
                    tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Random games acted out at the table (zones, scans, buttons) and read back by the
    referee: how many actions it recovers, asks about or misses, and how fast. `tick(done,
    games)` after each game, outside the timed part (a progress bar)."""
    kit = load_kit("sekigahara")
    assert isinstance(kit, SekigaharaKit)
    registry = TableRegistry.in_kit_order(b.id for b in kit.blocks)
    total = ReadBack()
    elapsed = 0.0
    for n in range(games):
        script = _random_game(SekigaharaRules(kit), seed + n)
        fresh: Game[Any] = Game(SekigaharaRules(kit), seed=seed + n)
        start = time.perf_counter()
        total.add(read_back(script, fresh, registry))
        elapsed += time.perf_counter() - start
        if tick:
            tick(n + 1, games)
    figures = total.summary()
    figures.update(games=games,
                   ms_per_action=round(1000 * elapsed / max(1, figures["actions"]), 3))
    return figures
