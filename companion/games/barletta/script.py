"""A scripted Disfida acted out at the table, and how much of it the referee reads back.

`act_out` turns one scripted action into what the players do at the table, at the level of
tag zones and dice faces (no pixels): the dice picked up out of the tray and thrown again for
each chance step (the Italians' dice before the French's for the initiative, the attacker's
before the defender's for a melee), counters put on the field, moved, turned over and taken
to the camp or the Surrendered table as the record then has them (the rules' results as well
as the player's own doing), and nothing for the choices asked on the tablet. `read_back`
runs a whole script through a `BarlettaReferee` and counts, verb by verb, the actions it
recovers, asks about and misses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from companion.engine.core import (
    CHANCE,
    Action,
    Game,
    Proposal,
    Question,
    Ruling,
    fold,
    random_playout,
)
from companion.games.barletta.kit import SIDES, BarlettaKit
from companion.games.barletta.referee import BarlettaReferee
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.state import CAMP, BState
from companion.games.barletta.table_state import (
    FieldDiff,
    FieldSnapshot,
    area,
    expected_zones,
    piece_id,
    simulated_registry,
    zone_of,
)
from companion.kits import load_kit
from companion.table.acting import Press, Seen, TableInput
from companion.table.readback import MISSES_KEPT, ReadBack, feed
from companion.table.registry import TableRegistry

__all__ = ["FIRST_DICE", "HIDDEN", "THROW_ORDER", "ReadBack", "act_out", "aftermath",
           "answered_by_dice", "as_read", "doing", "read_back", "read_back_games", "table_of",
           "throws"]

HIDDEN: frozenset[str] = frozenset()
"""Verbs nobody shows at the table: none (nothing is hidden in this game, and every choice the
table cannot show is asked on the tablet)."""
FIRST_DICE = (3, 4)
"""The faces the dice lie on in the tray as the game starts (any will do)."""


def table_of(state: BState, registry: TableRegistry, side_of: Mapping[str, str]
             ) -> dict[int, str]:
    """The tags the players leave showing once `state` is reached: the record's, with a
    knight whose remount roll is due already turned to its mounted face (E1.2: the player
    turns it over to try, and back if the die fails)."""
    zones = expected_zones(state, registry, side_of)
    knight = state.remounting
    if knight:
        tags = registry.tags
        where = zones.pop(tags[piece_id(knight, False)])
        zones[tags[piece_id(knight, True)]] = where
    return zones


THROW_ORDER = (*SIDES, "attacker", "defender")
"""Whose dice go in the tray first: the Italians' then the French's for the initiative (the
order the rules' own chance actions name them: I1, C1), the attacker's then the defender's for
a melee (H1). A record read back from text names them in sorted order, so the order is this
one, not the action's."""


def throws(action: Action) -> list[tuple[int, ...]]:
    """The throws a chance action is read from, in the order thrown (`THROW_ORDER`); a test's
    one die. Each throw's faces smallest first, as the camera reads them."""
    if action.role != CHANCE:
        return []
    if "die" in action.args:
        return [(int(action.args["die"]),)]
    return [tuple(sorted(int(v) for v in action.args[name]))
            for name in THROW_ORDER if name in action.args]


def act_out(before: BState, action: Action, after: BState, table: FieldSnapshot,
            registry: TableRegistry, side_of: Mapping[str, str] | None = None
            ) -> tuple[list[TableInput], FieldSnapshot]:
    """What the players do at the table for `action`, and the table once it is done: the
    player's own doing (the dice thrown, each throw picked up before the next; the counter
    put down, moved or turned over), then what the rules made of it (`aftermath`).
    `side_of`: knight -> side (the shipped kit's by default)."""
    sides = side_of or _kit().side_of
    shown, table = doing(before, action, table, registry, sides)
    then, table = aftermath(after, table, registry, sides)
    return shown + then, table


def doing(before: BState, action: Action, table: FieldSnapshot, registry: TableRegistry,
          side_of: Mapping[str, str]) -> tuple[list[TableInput], FieldSnapshot]:
    """What shows `action` itself: the throws of a chance action, the acting knight's counter
    put where the action sends it (deployed, moved; turned to its mounted face to remount)."""
    inputs: list[TableInput] = []
    now = table
    for faces in throws(action):
        if now.dice:
            empty = FieldSnapshot(now.zones, ())
            inputs.append(Seen(FieldDiff(now, empty)))
            now = empty
        landed = FieldSnapshot(now.zones, faces)
        inputs.append(Seen(FieldDiff(now, landed)))
        now = landed
    knight = str(action.args.get("knight", ""))
    if before.phase == "orders" and action.role != CHANCE and not _moves_a_counter(
            before, action):
        return [*inputs, Press("confirm")], now  # an order no counter shows: told (E, D2)
    if action.role == CHANCE or action.verb not in ("deploy", "move", "remount"):
        return inputs, now
    tags = registry.tags
    current = before.knights[knight]
    zones = {t: z for t, z in now.zones.items()
             if t not in (tags[piece_id(knight, True)], tags[piece_id(knight, False)])}
    where = zone_of(before, knight, side_of[knight])
    to = str(action.args.get("hex", action.args.get("to", where)))
    zones[tags[piece_id(knight, current.mounted or action.verb == "remount")]] = \
        area("camp", side_of[knight]) if to == CAMP else to
    if zones != dict(now.zones):
        moved = FieldSnapshot(zones, now.dice)
        inputs.append(Seen(FieldDiff(now, moved)))
        now = moved
    return inputs, now


def _moves_a_counter(before: BState, action: Action) -> bool:
    """An order the table shows: a knight's counter moved to another hex or to its camp."""
    if action.verb != "move":
        return False
    knight = before.knights[str(action.args["knight"])]
    return str(action.args.get("to", knight.where)) != knight.where


def aftermath(after: BState, table: FieldSnapshot, registry: TableRegistry,
              side_of: Mapping[str, str]) -> tuple[list[TableInput], FieldSnapshot]:
    """The counters put as the record has them once the rules have played the action: the
    retreats, advances, unhorsings, captures, deaths and remounts they decided."""
    zones = table_of(after, registry, side_of)
    if zones == dict(table.zones):
        return [], table
    moved = FieldSnapshot(zones, table.dice)
    return [Seen(FieldDiff(table, moved))], moved


def as_read(action: Action) -> Action:
    """The scripted action as the table gives it: each throw's faces smallest first (only
    their sum counts on every table of the game, H1, C1, so the game is the same)."""
    if action.role != CHANCE or "die" in action.args:
        return action
    return Action(CHANCE, action.verb, {name: sorted(faces)
                                        for name, faces in action.args.items()})


def read_back(script: Iterable[Action], seed: int, rules: BarlettaRules | None = None,
              registry: TableRegistry | None = None, dice_answer: bool = True) -> ReadBack:
    """Act `script` out from a new game and count what a `BarlettaReferee` reads back.

    The scripted action is applied whatever the referee said (and the referee is told the
    table is in order again), so one miss does not hide the rest of the game. What the
    referee asked is answered on the tablet: the inputs waiting go with it; except, with
    `dice_answer`, a move asked about whose one attack the attacker's dice then answer, as
    players at the table do (the move is counted with the melee's throws)."""
    rules = rules or BarlettaRules(_kit())
    registry = registry or simulated_registry(list(rules.kit.by_id))
    side_of = rules.kit.side_of
    game: Game[BState] = Game(rules, seed=seed)
    referee = BarlettaReferee(rules, registry)
    table = FieldSnapshot(expected_zones(game.state, registry, side_of), FIRST_DICE)
    result = ReadBack()
    waiting: tuple[Action, BState, list[Ruling]] | None = None
    for scripted in script:
        action = as_read(scripted)
        before = game.state
        game.apply(action)
        shown, table = doing(before, action, table, registry, side_of)
        then, table = aftermath(game.state, table, registry, side_of)
        if action.verb in HIDDEN:
            result.hidden[action.verb] += 1
            continue
        judged = waiting[1] if waiting is not None else before
        rulings = _live(referee, rules, judged, shown) or referee.decisions(before)
        if waiting is not None:
            result.count(waiting[0], [*waiting[2], *rulings])
            waiting = None
        elif dice_answer and shown and _left_to_dice(action, rulings):
            waiting = (action, before, rulings)  # the question stays; the dice will say
            continue
        result.count(action, rulings)
        if not any(isinstance(r, Proposal) and r.action == action for r in rulings):
            referee.forget_inputs()  # answered on the tablet: what waited went with it
        referee.desync = None
        _check_aftermath(result, action, feed(referee, game.state, then))
        referee.desync = None
    return result


def _live(referee: BarlettaReferee, rules: BarlettaRules, state: BState,
          inputs: Iterable[TableInput]) -> list[Ruling]:
    """The inputs one by one, as the table session gives them: each action proposed is in
    the record before the next input is judged."""
    rulings: list[Ruling] = []
    for item in inputs:
        said = feed(referee, state, [item])
        rulings += said
        for ruling in said:
            if isinstance(ruling, Proposal):
                state = fold(rules, state, rules.decide(state, ruling.action))
    return rulings


def _left_to_dice(action: Action, rulings: list[Ruling]) -> bool:
    """A move with an attack asked about (its counter moved), whose question has that one
    attack: the players throw the attacker's dice rather than answer on the tablet."""
    questions = [r for r in rulings if isinstance(r, Question) and action in r.options]
    return len(questions) == 1 and answered_by_dice(action, questions[0].options)


def answered_by_dice(action: Action, options: Sequence[Action]) -> bool:
    """The attack `action` is the one attack among a question's `options`: the attacker's
    dice, thrown next, answer it (E1.1, H1), so nobody taps."""
    return action.verb == "move" and "attack" in action.args and action in options \
        and sum("attack" in a.args for a in options) == 1


def _check_aftermath(result: ReadBack, action: Action, rulings: list[Ruling]) -> None:
    """The rules' results put on the table mean nothing new: anything said is a miss."""
    if not rulings:
        return
    verb = f"{action.verb} (aftermath)"
    result.missed[verb] += 1
    if len(result.first_misses) < MISSES_KEPT:
        said = "; ".join(str(getattr(r, "message", r)) for r in rulings)
        result.first_misses.append(f"{verb}: {action.text()[:100]} -> {said[:200]}")


@cache
def _kit() -> BarlettaKit:
    kit = load_kit("barletta")
    assert isinstance(kit, BarlettaKit)
    return kit


def read_back_games(games: int, seed: int,
                    tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Random games acted out at the table (tags and dice) and read back by the referee: how
    many actions it recovers, asks about or misses, and how fast. `tick(done, games)` after
    each game, outside the timed part (a progress bar)."""
    rules = BarlettaRules(_kit())
    total = ReadBack()
    elapsed = 0.0
    for n in range(games):
        played: Game[BState] = Game(rules, seed=seed + n)
        random_playout(played)
        script = [ply.action for ply in played.history]
        start = time.perf_counter()
        total.add(read_back(script, seed + n, rules))
        elapsed += time.perf_counter() - start
        if tick:
            tick(n + 1, games)
    figures = total.summary()
    figures.update(games=games, recovered_by_verb=dict(total.recovered),
                   ms_per_action=round(1000 * elapsed / max(1, figures["actions"]), 3))
    return figures
