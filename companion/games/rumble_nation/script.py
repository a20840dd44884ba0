"""A scripted Rumble Nation game acted out at the table, and how much of it the referee reads
back.

`act_out` turns one scripted action into what a player does at the table, at the level of
counts (no pixels): the dice taken out of the tray to roll and thrown back in, soldiers put in a
region, a card's label scanned before the soldiers it moves. `read_back` runs a whole script
through a `RumbleReferee` and counts, verb by verb, the actions it recovers, asks about, misses,
and those nobody sees at the table (the set-up the companion draws). The frame-by-frame demo
(`simulator.py`) photographs the same changes with the synthetic camera.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from companion.engine.core import (
    Action,
    Event,
    Game,
    random_playout,
)
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.reader import REINFORCEMENT
from companion.games.rumble_nation.referee import RumbleReferee, board_of
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.rules.state import RNState
from companion.inputs.labels import card_code
from companion.kits import load_kit
from companion.table.acting import Scan, Seen, TableInput
from companion.table.readback import ReadBack, feed
from companion.table.registry import TableRegistry
from companion.vision.count_tracker import CountDiff, CountSnapshot
from companion.vision.counting import CountingBoard

__all__ = ["FIRST_DICE", "HIDDEN", "ReadBack", "act_out", "read_back", "read_back_games",
           "reinforcements_left"]

HIDDEN = frozenset({"setup"})
"""Chance actions nobody shows at the table: the companion draws the castles' places, the
tactic display and the first player, and the players lay the table out as the tablet says."""
FIRST_DICE = (2, 3, 5)
"""The faces the dice lie on in the tray as the game starts (any will do)."""


def act_out(before: RNState, action: Action, after: RNState, table: CountSnapshot,
            daimyo_seen: bool = False, events: Sequence[Event] = (),
            pool: int = 30) -> tuple[list[TableInput], CountSnapshot]:
    """What a player does at the table for `action`, and the table once it is done. After the
    last deployment the players fight the war the rules have played (`events`): the white
    reinforcements go beside the winners' soldiers (5.2.3), which the referee does not read."""
    inputs: list[TableInput] = []
    card = _card(before, action)
    if card is not None:
        inputs.append(Scan(card_code(card)))
    now = table
    if action.verb in ("roll", "reroll"):
        now = CountSnapshot(table.counts, ())  # the dice out of the tray, in the player's hand
    elif action.verb == "dice":
        now = CountSnapshot(table.counts, tuple(sorted(after.dice)))
    elif action.verb in ("deploy", "tactic", "daimyo"):
        now = CountSnapshot(board_of(after, daimyo_seen), table.dice)
    if now != table:
        inputs.append(Seen(CountDiff(table, now)))
    war = reinforcements_left(events, pool)
    if war:
        fought = {r: dict(k) for r, k in now.counts.items()}
        for where, n in war.items():
            fought.setdefault(where, {})[REINFORCEMENT] = n
        inputs.append(Seen(CountDiff(now, CountSnapshot(fought, now.dice))))
        now = CountSnapshot(fought, now.dice)
    return inputs, now


def reinforcements_left(events: Sequence[Event], pool: int) -> dict[str, int]:
    """Region -> white reinforcements standing there once the war is over: placed as the
    events send them; when the box of `pool` runs out, taken back from the regions fought
    first (5.2.3: those already resolved)."""
    placed: dict[str, int] = {}
    order: list[str] = []
    for event in events:
        if event.type == "RegionResolved":
            order.append(str(event.data["region"]))
        if event.type != "ReinforcementsSent":
            continue
        need = int(event.data["each"]) * len(event.data["regions"])
        for resolved in order:
            while need > pool - sum(placed.values()) and placed.get(resolved):
                placed[resolved] -= 1
        for where in event.data["regions"]:
            placed[str(where)] = placed.get(str(where), 0) + int(event.data["each"])
    return {r: n for r, n in placed.items() if n}


def _card(state: RNState, action: Action) -> str | None:
    """The card whose label is scanned for `action` (a daimyo card chosen or turned up)."""
    if action.verb in ("tactic", "choose_daimyo"):
        return str(action.args["card"])
    if action.verb == "daimyo":
        return state.daimyo_cards.get(action.role)
    return None


def read_back(script: Iterable[Action], game: Game[RNState],
              referee: RumbleReferee) -> ReadBack:
    """Act `script` out from `game`'s position and count what `referee` reads back.

    The scripted action is applied whatever the referee said (and the referee told the table
    is in order again), so one miss does not hide the rest of the game."""
    table = CountSnapshot(board_of(game.state, referee.daimyo_seen), FIRST_DICE)
    result = ReadBack()
    pool = referee.rules.kit.components.reinforcements
    for action in script:
        before = game.state
        events = game.apply(action)
        inputs, table = act_out(before, action, game.state, table, referee.daimyo_seen,
                                events, pool)
        if action.verb in HIDDEN:
            result.hidden[action.verb] += 1
            continue
        result.count(action, feed(referee, before, inputs))
        referee.desync = None
        referee.forget_inputs()
    return result


def variant(n: int) -> dict[str, Any]:
    """The bench's n-th game: 2, 3 and 4 players in turn, every other game with daimyo (8)."""
    return {"players": 2 + n % 3, "daimyo": n % 2 == 1}


def read_back_games(games: int, seed: int, daimyo_seen: bool | None = None,
                    tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Random games (2-4 players, with and without daimyo) acted out at the table (counts,
    dice, scans) and read back by the referee: how many actions it recovers, asks about or
    misses, and how fast. `daimyo_seen`: whether the camera tells a daimyo from a soldier (by
    default as the shipped calibration says). `tick(done, games)` after each game, outside the
    timed part (a progress bar)."""
    kit = load_kit("rumble_nation")
    assert isinstance(kit, RumbleNationKit)
    if daimyo_seen is None:
        daimyo_seen = CountingBoard.load(kit).large is not None
    total = ReadBack()
    elapsed = 0.0
    for n in range(games):
        rules = RumbleNationRules(kit, variant(n))
        played: Game[RNState] = Game(rules, seed=seed + n)
        random_playout(played)
        script = [ply.action for ply in played.history]
        referee = RumbleReferee(rules, TableRegistry({}, {}), daimyo_seen=daimyo_seen)
        start = time.perf_counter()
        total.add(read_back(script, Game(rules, seed=seed + n), referee))
        elapsed += time.perf_counter() - start
        if tick:
            tick(n + 1, games)
    figures = total.summary()
    figures.update(games=games, daimyo_seen=daimyo_seen,
                   ms_per_action=round(1000 * elapsed / max(1, figures["actions"]), 3))
    return figures
